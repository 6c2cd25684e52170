"""One reader (issue 50 item 3): the workbench reads request bodies through the CLI's JSON reader,
so ``POST /api/check`` and ``powertwo check`` give the same verdict on the same text: valid (exit
0, ``valid: true``), faults (exit 1, ``valid: false``) or refused (exit 2, 400).

The mutations are those of ``test_fuzz_readers.py`` (delete, duplicate, retype, out of range,
unknown field, repeated key) on every committed answer file and on game records made by the
rules. ``FUZZ_BOTH=N`` runs N mutations (default :data:`DEFAULT_CASES`, derandomised); with
``FUZZ_TALLY=1`` (and ``-s``) the verdicts are printed by kind.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

starlette_testclient = pytest.importorskip("starlette.testclient")

from test_fuzz_readers import ANSWERS, KINDS, MUST_REFUSE, RECORDS, mutate, paths  # noqa: E402

from powertwo.cli import main  # noqa: E402
from powertwo.cli.limits import CHECK_SECONDS  # noqa: E402
from powertwo.solvers import bounded  # noqa: E402
from powertwo.web.server import Limits, create_app  # noqa: E402

RESULTS = Path(__file__).resolve().parents[1] / "results"
BASE = "http://127.0.0.1:8765"
DEFAULT_CASES = 60
CLI_VERDICTS = {0: "valid", 1: "faults", 2: "refused", 3: "undecided"}


@pytest.fixture(scope="module")
def client():
    limits = Limits(warm=False, queue=8, check_seconds=CHECK_SECONDS, nice=0)  # the time check gives
    with starlette_testclient.TestClient(create_app(limits=limits), base_url=BASE) as c:
        yield c


@pytest.fixture
def in_process(monkeypatch):
    """``powertwo check`` with its bounded child process run in this one (the same functions,
    without a fresh interpreter per check)."""
    def run_here(func, *args, time_limit, **kwargs):
        try:
            return bounded.Outcome(bounded.DONE, value=func(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001 - handed back as the child hands it back
            return bounded.Outcome(bounded.FAILED, message=str(exc), error=exc)

    monkeypatch.setattr(bounded, "run_bounded", run_here)


def cli_verdict(text: str, folder: Path) -> tuple[str, str]:
    """``powertwo check`` on ``text`` saved as a file beside the committed certificates."""
    file = folder / "mutated.json"
    file.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(main, ["check", str(file)])
    assert "Traceback" not in res.output, res.output
    return CLI_VERDICTS.get(res.exit_code, f"exit {res.exit_code}"), res.output


def api_verdict(client: Any, text: str) -> tuple[str, str]:
    """``POST /api/check`` with ``text`` as the body's ``solution``."""
    response = client.post("/api/check", content='{"solution": ' + text + "}",
                           headers={"content-type": "application/json"})
    if response.status_code == 200:
        reply = response.json()
        return ("valid" if reply["valid"] else "faults"), json.dumps(reply)
    message = response.json().get("error", "")
    assert message and "\n" not in message and "Traceback" not in message
    return {400: "refused", 422: "undecided"}.get(response.status_code, f"HTTP {response.status_code}"), message


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A folder holding links to the committed certificates (a line answer names them relative to
    its own file; the workbench looks them up among the committed results)."""
    out = tmp_path_factory.mktemp("both")
    for path in RESULTS.iterdir():
        if path.name.endswith((".cnf", ".drat", ".gz")):
            (out / path.name).symlink_to(path)
    return out


def corpus(count: int, seed: int = 50) -> list[tuple[str, str, str]]:
    """``count`` mutated texts: (what, kind, text), answers and records in turn."""
    rng = random.Random(seed)
    sources = [(path.name, data) for path, data in sorted(ANSWERS.items())] + \
              [(f"record of {r['game']}", r) for r in RECORDS]
    out = []
    for k in range(count):
        name, data = sources[k % len(sources)] if k < len(sources) else rng.choice(sources)
        spots = paths(data)
        kind = KINDS[k % len(KINDS)] if k < 2 * len(KINDS) else rng.choice(KINDS)
        at = rng.choice(spots)
        out.append((name, kind, mutate(data, at, kind, rng.randrange(100))))
    return out


TALLY: Counter = Counter()


def test_duplicate_keys_are_refused_by_the_server_as_by_the_cli(client, folder, in_process):
    """Issue 50, reproduction 3: ``POST /api/check`` and ``/api/game`` accepted duplicate JSON keys
    that ``powertwo check`` refuses (4 of 4 such files judged valid)."""
    answer = (RESULTS / "one-by-one.json").read_text()
    twice = answer.replace('"puzzle": "one-by-one",', '"puzzle": "one-by-one", "puzzle": "one-by-one",', 1)
    record = '{"game": "thats-my-line", "moves": ["a1"], "moves": ["a1", "m13"]}'
    for text in (twice, record):
        cli, said = cli_verdict(text, folder)
        api, message = api_verdict(client, text)
        assert (cli, api) == ("refused", "refused"), (said, message)
        assert said.endswith("given twice in one object\n") and message.endswith("given twice in one object")
        assert said.rstrip().split(": ", 2)[2] == message.split(": ", 1)[1]  # the same reason, each naming its input
    game = client.post("/api/game", content='{"game": "thats-my-line", "game": "power-of-two"}',
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
def test_numbers_are_read_alike_and_never_echoed_whole(client, folder, in_process, number, reason):
    """Issue 50, reproduction 13: a 5,000-digit number in a web body got Python's
    ``sys.set_int_max_str_digits()`` advice, and 4,000-digit numbers were echoed whole."""
    text = '{"puzzle": "one-by-one", "stones": [1], "objective": ' + number + "}"
    cli, said = cli_verdict(text, folder)
    api, message = api_verdict(client, text)
    assert (cli, api) == ("refused", "refused")
    assert said == f"powertwo: {folder / 'mutated.json'}: {reason}\n" and message == f"request body: {reason}"
    seed = client.post("/api/game/computer", content='{"game": "thats-my-line", "seed": ' + number + "}",
                       headers={"content-type": "application/json"})
    assert seed.status_code == 400 and seed.json()["error"] == f"request body: {reason}"
    assert "int_max_str_digits" not in said + message and "9" * 200 not in said + message


def test_the_fuzz_corpus_gets_the_same_verdict_from_both(client, folder, in_process):
    count = int(os.environ.get("FUZZ_BOTH", DEFAULT_CASES))
    differ = []
    for name, kind, text in corpus(count):
        cli, said = cli_verdict(text, folder)
        api, message = api_verdict(client, text)
        TALLY[(kind, cli)] += 1
        if cli != api:
            differ.append(f"{name} {kind}: check {cli} ({said.strip()[:200]}); api {api} ({message[:200]})")
        if kind in MUST_REFUSE:
            assert cli == "refused", (name, kind, said)
    assert not differ, f"{len(differ)} of {count} differ:\n" + "\n".join(differ[:20])
    if os.environ.get("FUZZ_TALLY"):
        print(f"\n{count} mutations, the same verdict from both:")
        for key in sorted(TALLY):
            print(" ".join(key), TALLY[key])
    assert {verdict for _, verdict in TALLY} >= {"refused", "faults", "valid"}
