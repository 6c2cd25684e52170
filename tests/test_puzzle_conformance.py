"""One conformance test over every registered puzzle (``registry.puzzle_names()``), as
``test_rules_conformance.py`` is for the games: each puzzle has a name and a description, solve
options its ``solve`` takes, a checker that accepts the committed answer in ``results/`` and
refuses a mutated one with one-line faults, a diagram of that answer, a results step in its
family, and a page description (:class:`~powertwo.solvers.registry.PuzzlePage`) consistent with
all of these."""

from __future__ import annotations

import copy
import inspect
import json
import re
from pathlib import Path

import pytest

from powertwo.boards import shipped
from powertwo.solvers.registry import (
    PUZZLE_MODULES, CheckReport, Clicks, Option, PageError, Steps, Verdict, get_puzzle, puzzle_names, solution_board,
    time_limit_option,
)

RESULTS = Path(__file__).resolve().parents[1] / "results"
NAMES = puzzle_names()
def committed(name: str) -> tuple[Path, dict]:
    p = get_puzzle(name)
    assert p.page is not None, name
    path = RESULTS / p.page.committed
    return path, json.loads(path.read_text(encoding="utf-8"))


def check(name: str, data: dict, path: Path) -> CheckReport:
    p = get_puzzle(name)
    board = solution_board(data, str(path))
    return p.check(data, board, base=path.parent) if p.reads_files else p.check(data, board)  # type: ignore[call-arg]


def one_line_faults(report: CheckReport) -> None:
    assert not report.valid
    for fault in report.faults:
        assert fault and "\n" not in fault and len(fault) < 400, fault
        assert not re.search(r"<[a-zA-Z_.]+ object|Traceback|\bdict\(|\bFraction\(", fault), fault


def test_the_registry_lists_the_puzzles_of_every_family():
    assert set(NAMES) == {name for names in PUZZLE_MODULES.values() for name in names}
    assert len(PUZZLE_MODULES) == 3


@pytest.mark.parametrize("name", NAMES)
def test_name_description_and_solve_options(name):
    p = get_puzzle(name)
    assert p.name == name and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name)
    assert p.title.strip() and p.title == p.title.strip()
    keywords = inspect.signature(p.solve).parameters
    assert "time_limit" in p.option_names
    missing = [o for o in p.option_names if o not in keywords]
    assert not missing, f"{name}: solve takes no {missing}"
    assert len(set(p.option_names)) == len(p.option_names)


@pytest.mark.parametrize("name", NAMES)
def test_a_results_step_in_its_family(name):
    family = next(names for names in PUZZLE_MODULES.values() if name in names)
    steps = [get_puzzle(n).results for n in family if get_puzzle(n).results]
    assert steps, f"family {family} has no results step"
    for step in steps:
        assert list(inspect.signature(step).parameters)[:2] == ["out", "progress"]


@pytest.mark.parametrize("name", NAMES)
def test_the_checker_accepts_the_committed_answer(name):
    path, data = committed(name)
    assert data["puzzle"] == name
    report = check(name, data, path)
    assert report.valid, report.faults
    assert report.summary or report.notes


@pytest.mark.parametrize("name", [n for n in NAMES if committed(n)[1].get("objective") is not None])
def test_the_checker_refuses_a_wrong_objective(name):
    path, data = committed(name)
    wrong = copy.deepcopy(data)
    wrong["objective"] = data["objective"] + 1
    report = check(name, wrong, path)
    one_line_faults(report)
    assert any(str(data["objective"] + 1) in f for f in report.faults), report.faults


@pytest.mark.parametrize("name", NAMES)
def test_the_checker_refuses_an_answer_missing_its_last_click(name):
    """The field the page's clicks build, without its last entry: never the same valid answer."""
    p = get_puzzle(name)
    assert p.page is not None
    path, data = committed(name)
    field = p.page.clicks.answer
    assert isinstance(data[field], list) and data[field]
    wrong = copy.deepcopy(data)
    wrong[field] = data[field][:-1]
    one_line_faults(check(name, wrong, path))


@pytest.mark.parametrize("name", NAMES)
def test_a_diagram_of_the_committed_answer(name):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    p = get_puzzle(name)
    assert p.diagram is not None and "names" in p.draw_options
    path, data = committed(name)
    fig = p.diagram(data, solution_board(data, str(path)), names=None)
    try:
        assert fig.axes and fig.axes[0].get_title()
    finally:
        plt.close(fig)


@pytest.mark.parametrize("name", NAMES)
def test_the_page_description(name):
    p = get_puzzle(name)
    page = p.page
    assert page is not None
    path, data = committed(name)
    assert page.goal.strip() and page.clicks.help.strip()
    assert page.clicks.answer in data
    assert page.verdict.words and page.verdict.shows
    assert page.verdict.sense == "" or data.get("objective") is not None
    assert page.steps.count.format(n=3, stones=5) != page.steps.count
    assert page.boards[0] == "power-of-two" and set(page.boards) <= set(shipped())
    for board in page.boards[1:]:
        assert (RESULTS / board / page.committed).is_file(), f"{name}: no committed answer on {board}"
    names = [o.name for o in p.page_options]
    assert "time_limit" in names and set(names) <= set(p.option_names), names
    json.dumps(p.page_json())


@pytest.mark.parametrize("name", NAMES)
def test_the_page_options_defaults_are_what_solve_takes(name):
    """Each option's default is the solve keyword's own default (or what it stands for)."""
    p = get_puzzle(name)
    keywords = inspect.signature(p.solve).parameters
    for option in p.options:
        default = keywords[option.name].default
        if default is not None and default is not inspect.Parameter.empty:
            assert option.default == default, option.name


@pytest.mark.parametrize("make, message", [
    (lambda: Clicks("drag", "h", "stones", "check"), "click action 'drag' is not one of toggle, alternate, jump"),
    (lambda: Clicks("toggle", "h", "stones", "post"), "check request 'post' is not one of check, jump"),
    (lambda: Verdict(("valid",), ("objective",), "stones", "most"), "sense 'most' is not one of min, max, "),
    (lambda: Steps("frames", "{n}", ""), "step unit 'frames' is not one of stones, moves, jumps"),
    (lambda: Steps("moves", "{n} of {total}", ""), "count label '{n} of {total}' may name only {n} and {stones}"),
    (lambda: Option("backend", "b", "choice", "highs", choices=("cp-sat", "sat")),
     "option backend: default 'highs' is not among its choices"),
    (lambda: Option("stones", "s", "int", 5, minimum=10, maximum=1),
     "option stones: a number needs a range from minimum to maximum"),
    (lambda: time_limit_option(default=700.0), "option time_limit: default 700.0 is outside its range"),
    (lambda: Option("symmetry", "s", "bool", None), "option symmetry: a bool option needs a bool default"),
    (lambda: Option("x", "x", "date", ""),
     "option x: kind 'date' is not one of choice, int, float, bool, text, node, file, output, cores, mib"),
    (lambda: Option("workers", "w", "cores", 1),
     "option workers: a cores option is the command line's alone (page=False)"),
])
def test_a_page_description_that_contradicts_itself_is_refused(make, message):
    with pytest.raises(PageError) as err:
        make()
    assert str(err.value) == message
