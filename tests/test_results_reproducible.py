"""``make results`` leaves a fresh clone clean (issue 13 section 2): a rerun writes the same
answer files byte for byte (a canonical answer, no timings in them)."""

from __future__ import annotations

import json

import pytest

from powertwo.solvers.results import run_all


@pytest.mark.slow
def test_line_cover_results_twice_are_identical(tmp_path):
    """The line cover has 50 optimal answers, and CP-SAT with 8 workers finds a different one
    from run to run: the committed one is the least answer of the least symmetry class."""
    first, second = tmp_path / "a", tmp_path / "b"
    messages: list[str] = []
    run_all(first, messages.append, only=("line-cover",))
    run_all(second, lambda _: None, only=("line-cover",))
    names = sorted(p.name for p in first.iterdir())
    assert names == ["line-cover.cnf", "line-cover.drat", "line-cover.json", "line-cover.png", "line-cover.svg"]
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    data = json.loads((first / "line-cover.json").read_text())
    assert data["stones"] == data["answers_up_to_symmetry"][0] == [2, 3, 9, 25, 30, 35, 40, 49, 56, 62]
    assert "seconds" not in json.dumps(data)
    assert any("line-cover: check valid" in m for m in messages)
