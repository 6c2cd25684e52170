"""A puzzle's options are declared once, in its registry record: a toy puzzle registered here with
one option finds it as a flag of ``powertwo solve``, as a control of its workbench page (what
``GET /api/meta`` lists, and what ``POST /api/solve`` accepts) and as a typed field of its answer
files' schema."""

from __future__ import annotations

import json
from typing import Any, Iterator

import pytest
from click.testing import CliRunner

from powertwo.boards import Board
from powertwo.cli import main
from powertwo.solvers.registry import (
    PUZZLES, CheckReport, Clicks, Option, Puzzle, PuzzlePage, SolutionError, Steps, Verdict, check_answer_shape,
    get_puzzle, register_puzzle, time_limit_option,
)

TOY = "toy-depth"


def toy_solve(board: Board, *, depth: Any = None, time_limit: float | None = None, progress: Any = None) -> dict:
    return {"puzzle": TOY, "board": board.name, "depth": int(depth or 2), "stones": [1]}


@pytest.fixture
def toy() -> Iterator[Puzzle]:
    from powertwo.web.pages import page_of

    puzzle = register_puzzle(Puzzle(
        name=TOY, title="A toy puzzle", solve=toy_solve, check=lambda data, board: CheckReport(),
        options=(time_limit_option(),
                 Option("depth", "search depth", "int", 2, minimum=1, maximum=9, recorded=True,
                        help="How deep the toy looks.")),
        page=PuzzlePage(goal="a toy", clicks=Clicks("toggle", "click", "stones", "check"),
                        verdict=Verdict(("valid",), ("objective",), "stones", "min"),
                        steps=Steps("stones", "{stones} stones", "done"), committed="toy-depth.json")))
    page_of.cache_clear()
    try:
        yield puzzle
    finally:
        del PUZZLES[TOY]
        page_of.cache_clear()


def test_an_option_declared_once_is_a_flag_of_powertwo_solve(toy):
    res = CliRunner().invoke(main, ["solve", TOY, "--help"])
    assert res.exit_code == 0 and "--depth N" in res.stdout and "How deep the toy looks." in res.stdout
    res = CliRunner().invoke(main, ["solve", TOY, "--depth", "5", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["depth"] == 5
    res = CliRunner().invoke(main, ["solve", "one-by-one", "--depth", "5"])
    assert res.exit_code == 2 and "puzzle one-by-one does not take --depth" in res.stderr


def test_an_option_declared_once_is_a_control_of_the_page(toy):
    from powertwo.web.pages import solve_options
    from powertwo.web.server import puzzle_entries

    entry = next(e for e in puzzle_entries() if e["name"] == TOY)
    depth = next(o for o in entry["page"]["options"] if o["name"] == "depth")
    assert (depth["kind"], depth["default"], depth["minimum"], depth["maximum"]) == ("int", 2, 1, 9)
    assert solve_options(entry["page"], {"depth": 4}, 120.0) == {"depth": 4}
    with pytest.raises(Exception, match="option depth: must be a number from 1 to 9"):
        solve_options(entry["page"], {"depth": 12}, 120.0)


def test_an_option_declared_once_is_a_field_of_the_answer_schema(toy):
    assert "depth" in get_puzzle(TOY).schema.model_fields
    check_answer_shape({"puzzle": TOY, "depth": 3}, "toy.json")
    with pytest.raises(SolutionError, match="toy.json: field 'depth'"):
        check_answer_shape({"puzzle": TOY, "depth": "deep"}, "toy.json")


def test_an_option_declared_twice_is_refused():
    from powertwo.solvers.registry import PageError

    with pytest.raises(PageError, match="puzzle twice: option time_limit is declared twice"):
        Puzzle(name="twice", title="t", solve=toy_solve, check=lambda data, board: CheckReport(),
               options=(time_limit_option(), time_limit_option()))


def test_the_committed_answers_are_found_through_the_package(monkeypatch):
    """``results/`` installs as ``powertwo.results`` (package data), so a wheel has it too; where an
    installation has none, :func:`results_dir` says so (None) and no committed answer is read."""
    from powertwo.boards import load
    from powertwo.solvers import registry

    folder = registry.results_dir()
    assert folder is not None and (folder / "one-by-one.json").is_file() and (folder / "__init__.py").is_file()
    board = load("power-of-two")
    answer = registry.committed_answer(get_puzzle("one-by-one"), board)
    assert answer is not None and answer["board_fingerprint"] == board.fingerprint
    monkeypatch.setattr(registry, "RESULTS_PACKAGE", "powertwo.no_such_results")
    assert registry.results_dir() is None
    assert registry.committed_answer(get_puzzle("one-by-one"), board) is None
