"""``make results`` leaves a fresh clone clean (issue 13 section 2): a rerun writes the same
answer files byte for byte (a canonical answer, no timings in them)."""

from __future__ import annotations

import json

import pytest

from powertwo.solvers.results import run_all


@pytest.mark.slow
def test_line_cover_results_twice_are_identical(tmp_path):
    """The line cover has 66 optimal answers, and CP-SAT with 8 workers finds a different one
    from run to run: the committed one is the least answer of the least symmetry class."""
    from powertwo.boards import load
    from powertwo.solvers.lines import VARIANTS, enumerate_sat

    first, second = tmp_path / "a", tmp_path / "b"
    messages: list[str] = []
    run_all(first, messages.append, only=("line-cover",))
    run_all(second, lambda _: None, only=("line-cover",))
    names = sorted(p.name for p in first.iterdir())
    assert names == ["line-cover.cnf", "line-cover.drat", "line-cover.json", "line-cover.png", "line-cover.svg"]
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    data = json.loads((first / "line-cover.json").read_text())
    board = load("power-of-two")
    least = min(enumerate_sat(board, VARIANTS["line-cover"], 10).representatives)  # by the other backend
    assert data["stones"] == data["answers_up_to_symmetry"][0] == list(least)
    assert [board.label(v) for v in least] == ["e1", "g1", "k3", "e5", "a7", "m7", "i9", "m9", "c11", "g13"]
    assert "seconds" not in json.dumps(data)
    assert any("line-cover: check valid" in m for m in messages)


def test_partial_run_replaces_its_rows_in_the_readme(tmp_path):
    """``powertwo results --only PUZZLE`` puts the new rows of PUZZLE where its old rows stood in the
    main table of an existing README and merges its timings; every other line stays."""
    from pathlib import Path

    from powertwo.solvers.registry import ResultRow
    from powertwo.solvers.results import TIMINGS, update_readme

    committed = Path(__file__).resolve().parent.parent / "results"
    assert not update_readme(tmp_path, [ResultRow("jump-reverse", "x", "1", "optimal", "search", "-", 1.0)])
    before = (committed / "README.md").read_text(encoding="utf-8").split("\n")
    (tmp_path / "README.md").write_text("\n".join(before), encoding="utf-8")
    (tmp_path / TIMINGS).write_text((committed / TIMINGS).read_text(encoding="utf-8"), encoding="utf-8")
    rows = [ResultRow("jump-reverse", f"variant {k}", str(k), "optimal (bound 2)", "search", "-", 2.5,
                      (f"new-{k}.json",), {"step": 1.5}) for k in range(2)]
    assert update_readme(tmp_path, rows)
    after = (tmp_path / "README.md").read_text(encoding="utf-8").split("\n")
    head = before.index("|---|---|---|---|---|---|---|---|")
    end = before.index("", head)
    old = [k for k in range(head + 1, end) if before[k].startswith("| jump-reverse | ")]
    assert len(old) >= 2
    expected = before[:old[0]] + [
        "| jump-reverse | variant 0 | 0 | optimal (bound 2) | search | - | 2.50 | [new-0.json](new-0.json) |",
        "| jump-reverse | variant 1 | 1 | optimal (bound 2) | search | - | 2.50 | [new-1.json](new-1.json) |",
    ] + [line for k, line in enumerate(before[old[0]:], old[0]) if k not in old]
    assert after == expected
    timings = json.loads((tmp_path / TIMINGS).read_text(encoding="utf-8"))
    assert timings["new-1.json"] == {"seconds": 2.5, "step": 1.5}
    assert timings["whole job"] == json.loads((committed / TIMINGS).read_text(encoding="utf-8"))["whole job"]


@pytest.mark.slow
def test_jump_results_twice_are_identical(tmp_path):
    """Get a Jump On in the results job: the forward answer, the default reverse (the kernel capped
    by positions, not seconds) and its SAT row (capped by conflicts) come out the same twice; the
    answer files hold no timings."""
    from powertwo.solvers.jump import results

    first, second = tmp_path / "a", tmp_path / "b"
    for folder in (first, second):
        folder.mkdir()
    rows = [results(folder, lambda _: None, bench=False, sat_conflicts=20_000) for folder in (first, second)]
    names = sorted(p.name for p in first.iterdir())
    assert names == ["jump-forward.json", "jump-forward.png", "jump-forward.svg",
                     "jump-reverse.json", "jump-reverse.png", "jump-reverse.svg"]
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    assert [(r.optimum, r.status, r.answers) for r in rows[0]] == [(r.optimum, r.status, r.answers) for r in rows[1]]
    assert rows[0][1].answers == "sat backend: no answer (20,000 conflicts spent) (bound 3)"
    for name in ("jump-forward.json", "jump-reverse.json"):
        assert "seconds" not in (first / name).read_text(encoding="utf-8")
    reverse = json.loads((first / "jump-reverse.json").read_text(encoding="utf-8"))
    assert (reverse["status"], reverse["objective"], reverse["bound"]) == ("optimal", 4, 4)


def test_readme_quotes_the_committed_answers():
    """The README's puzzle section quotes each committed optimum: it must say what results/ holds."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())

    def answer(name: str) -> dict:
        return json.loads((root / "results" / f"{name}.json").read_text(encoding="utf-8"))

    for name in ("one-by-one", "line-cover", "two-by-two", "two-by-two-at-most", "two-by-two-strict-at-most",
                 "thats-my-line-16", "thats-my-line-unlimited", "jump-reverse"):
        assert answer(name)["status"] == "optimal", name
    assert f"Answer: **{answer('one-by-one')['objective']} stones**" in readme
    assert f"Answer: **{answer('line-cover')['objective']} stones**" in readme
    two, loose, strict = answer("two-by-two"), answer("two-by-two-at-most"), answer("two-by-two-strict-at-most")
    assert answer("two-by-two-strict")["status"] == "infeasible"
    assert "with `--strict` no placement of 32 stones exists" in readme
    assert f"Answer: **{two['objective']} of the 32 lines**" in readme and len(two["stones"]) == 32
    assert loose["objective"] == strict["objective"] == 32 and len(loose["stones"]) == len(strict["stones"])
    assert f"under which {len(loose['stones'])} stones put two on all {loose['objective']} lines" in readme
    table = {row["stones"]: row["objective"] for row in answer("two-by-two-table")["table"]}
    reach = [n for n, best in table.items() if best >= 21]
    assert reach == list(range(reach[0], reach[-1] + 1)) and table[reach[-1]] == 21
    assert f"21 or more are within reach with any count from {reach[0]} to {reach[-1]} stones, and 21 is the " \
           f"best with exactly {reach[-1]}" in readme
    sixteen, unlimited = answer("thats-my-line-16"), answer("thats-my-line-unlimited")
    assert (f"**{sixteen['objective']} stones** with 16 a side ({sixteen['light_count']} to "
            f"{sixteen['dark_count']}), **{unlimited['objective']}** with unlimited stones "
            f"({unlimited['light_count']} to {unlimited['dark_count']})") in readme
    forward = answer("jump-forward")
    assert f"Answer: {len(forward['steps'])} steps from a13" in readme and forward["corner"] == 60
    assert f"Answer: **{answer('jump-reverse')['objective']} moves**" in readme
