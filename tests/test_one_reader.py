"""One reader (issue 50 item 3): the workbench reads request bodies through the CLI's JSON reader,
so ``POST /api/check`` and ``powertwo check`` give the same verdict on the same text: valid (exit
0, ``valid: true``), faults (exit 1, ``valid: false``) or refused (exit 2, 400).

The judges and the mutations are those of ``python -m bench fuzz`` (delete, duplicate, retype, out
of range, unknown field, repeated key, on committed answer files and on game records made by the
rules), which runs thousands; here a small corpus (``FUZZ_BOTH=N`` for N mutations, default
:data:`DEFAULT_CASES`).
"""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("starlette.testclient")

from bench.fuzz import KINDS, RESULTS, Judges, corpus, game_records, judges, run  # noqa: E402

DEFAULT_CASES = 24


@pytest.fixture(scope="module")
def judge(tmp_path_factory):
    with judges(tmp_path_factory.mktemp("both")) as both:
        yield both


def cli_verdict(judge: Judges, text: str) -> tuple[str, str]:
    verdict, said = judge.cli(text)
    assert verdict != "crash", said
    return verdict, said


def api_verdict(judge: Judges, text: str) -> tuple[str, str]:
    verdict, message = judge.api(text)
    assert verdict != "crash", message
    return verdict, message


def test_duplicate_keys_are_refused_by_the_server_as_by_the_cli(judge):
    """Issue 50, reproduction 3: ``POST /api/check`` and ``/api/game`` accepted duplicate JSON keys
    that ``powertwo check`` refuses (4 of 4 such files judged valid)."""
    answer = (RESULTS / "one-by-one.json").read_text(encoding="utf-8")
    twice = answer.replace('"puzzle": "one-by-one",', '"puzzle": "one-by-one", "puzzle": "one-by-one",', 1)
    record = '{"game": "thats-my-line", "moves": ["a1"], "moves": ["a1", "m13"]}'
    for text in (twice, record):
        cli, said = cli_verdict(judge, text)
        api, message = api_verdict(judge, text)
        assert (cli, api) == ("refused", "refused"), (said, message)
        assert said.endswith("given twice in one object\n") and message.endswith("given twice in one object")
        assert said.rstrip().split(": ", 2)[2] == message.split(": ", 1)[1]  # the same reason, each naming its input
    game = judge.client.post("/api/game", content='{"game": "thats-my-line", "game": "power-of-two"}',
                       headers={"content-type": "application/json"})
    assert (game.status_code, game.json()) == (400, {"error": "request body: field 'game' given twice in one object"})


@pytest.mark.parametrize("number, reason", [
    ("9" * 5000, "a number with too many digits: 999999999999... (5,000 characters) (at most 100 characters "
                 "are read)"),
    ("9" * 4000, "a number with too many digits: 999999999999... (4,000 characters) (at most 100 characters "
                 "are read)"),
    ("1e999", "the number 1e999 is too large (not a finite number)"),
    ("NaN", "NaN is not a JSON number"),
])
def test_numbers_are_read_alike_and_never_echoed_whole(judge, number, reason):
    """Issue 50, reproduction 13: a 5,000-digit number in a web body got Python's
    ``sys.set_int_max_str_digits()`` advice, and 4,000-digit numbers were echoed whole."""
    text = '{"puzzle": "one-by-one", "stones": [1], "objective": ' + number + "}"
    cli, said = cli_verdict(judge, text)
    api, message = api_verdict(judge, text)
    assert (cli, api) == ("refused", "refused")
    assert said == f"powertwo: {judge.folder / 'mutated.json'}: {reason}\n" and message == f"request body: {reason}"
    seed = judge.client.post("/api/game/computer", content='{"game": "thats-my-line", "seed": ' + number + "}",
                       headers={"content-type": "application/json"})
    assert seed.status_code == 400 and seed.json()["error"] == f"request body: {reason}"
    assert "int_max_str_digits" not in said + message and "9" * 200 not in said + message


def test_the_fuzz_corpus_gets_the_same_verdict_from_both(judge):
    """Issue 50, 'done when': the same verdicts from both on a fuzz corpus (the bench runs 5,000)."""
    count = int(os.environ.get("FUZZ_BOTH", DEFAULT_CASES))
    tally = run(corpus(count), judge)
    assert tally.count == count
    assert not tally.differ, f"{len(tally.differ)} of {count} differ:\n" + "\n".join(tally.differ[:20])
    assert not tally.crashes and not tally.unrefused, tally.crashes + tally.unrefused
    assert {cli for _, cli, _ in tally.pairs} >= {"refused", "faults"}, tally.pairs
    for text in ((RESULTS / "one-by-one.json").read_text(encoding="utf-8"), json.dumps(game_records()[0])):
        assert (cli_verdict(judge, text)[0], api_verdict(judge, text)[0]) == ("valid", "valid")
    assert {kind for kind, _, _ in tally.pairs} == set(KINDS)
