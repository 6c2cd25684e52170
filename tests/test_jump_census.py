"""Get a Jump On reverse and the stored census solvable sets: a set counted from this very position
that leaves it out answers ``infeasible`` at once; one that holds it lets the search answer."""

import pytest
from powertwo.solvers.census import CensusOptions, run_census
from powertwo.solvers.jump import check_reverse, solve_reverse
from powertwo.solvers.jump.engine import plain_bfs
from powertwo.solvers.jump.tables import english_board, node_at
from powertwo.solvers.registry import check_answer_shape

ENGLISH = english_board()
CENTRE = node_at(ENGLISH, 0, 0)
PLUS = sorted(node_at(ENGLISH, x, y) for x, y in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)])
SQUARE = sorted(node_at(ENGLISH, x, y) for x, y in [(0, 0), (0, 1), (1, 1), (1, 0)])


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("POWERTWO_CENSUS", str(tmp_path))
    return tmp_path


def test_a_stored_set_that_leaves_the_position_out_answers_infeasible_at_once(store):
    assert plain_bfs(ENGLISH, PLUS)[0] is None        # the independent breadth-first search: no finish
    run_census(ENGLISH, PLUS, CensusOptions(solvable=True, store=str(store)))
    res = solve_reverse(ENGLISH, position=PLUS)
    assert (res["status"], res["engine"], res["positions_searched"], res["moves"], res["bound"]) == (
        "infeasible", "census", 0, [], len(PLUS))
    assert res["proof"] == {"kind": "census", "bound": len(PLUS), "engine": "census"}
    check_answer_shape(res, "answer.json", ENGLISH)
    report = check_reverse(res, ENGLISH)
    assert report.valid
    assert report.notes == ("infeasible confirmed: the checker's kernel exhausted the search",)


def test_a_target_set_answers_for_that_target_only(store):
    """The square finishes in 2 moves, never on the centre: the centre's set leaves it out for
    the centre; without a target no set of its own is stored, so the search answers."""
    assert plain_bfs(ENGLISH, SQUARE, targets=[CENTRE])[0] is None
    run_census(ENGLISH, SQUARE, CensusOptions(target=CENTRE, solvable=True, store=str(store)))
    on_centre = solve_reverse(ENGLISH, position=SQUARE, target=CENTRE)
    assert (on_centre["status"], on_centre["engine"], on_centre["target"]) == ("infeasible", "census", CENTRE)
    assert check_reverse(on_centre, ENGLISH).valid
    anywhere = solve_reverse(ENGLISH, position=SQUARE)
    assert (anywhere["status"], anywhere["engine"], anywhere["objective"]) == (
        "optimal", "kernel", plain_bfs(ENGLISH, SQUARE)[0])


def test_a_set_that_holds_the_position_leaves_the_answer_to_the_search(store):
    before = solve_reverse(ENGLISH, position=SQUARE)
    run_census(ENGLISH, SQUARE, CensusOptions(solvable=True, store=str(store)))
    after = solve_reverse(ENGLISH, position=SQUARE)
    assert (after["status"], after["engine"], after["objective"], after["moves"]) == (
        "optimal", "kernel", before["objective"], before["moves"])


def test_the_checker_refuses_a_census_verdict_it_cannot_re_derive(store):
    """A file saying "infeasible by the census" for a solvable position: the checker's own search
    (any finish, not the shortest) finds one and refuses it."""
    forged = dict(solve_reverse(ENGLISH, position=SQUARE), status="infeasible", engine="census", moves=[],
                  objective=None, bound=len(SQUARE), positions_searched=0,
                  proof={"kind": "census", "bound": len(SQUARE), "engine": "census"})
    check_answer_shape(forged, "answer.json", ENGLISH)
    report = check_reverse(forged, ENGLISH)
    assert not report.valid and len(report.faults) == 1
    assert report.faults[0].startswith("status infeasible but a finish exists: the checker found one in ")
