"""One by One, the line cover and Two by Two: exact optima by both backends, exact answer
counts, the encodings against brute force on small boards, and the checker against every
single-stone mutation of the committed answers."""

from __future__ import annotations

import inspect
import json
from dataclasses import fields
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from pysat.formula import IDPool
from pysat.solvers import Solver

from powertwo.boards import from_segments, load
from powertwo.models.cards import cost_bound, line_counts, without_empty
from powertwo.solvers import lines as lp
from powertwo.solvers.lines import checker as line_check
from powertwo.solvers.registry import get_puzzle

RESULTS = Path(__file__).resolve().parent.parent / "results"
BOARD = load("power-of-two")

# (optimum, optimal answers, optimal answers up to symmetry) on the default board, the real board
# of RULES.md section 1: computed by CP-SAT and by SAT (the tests below run both and the MILP); Two by
# Two with all 32 stones, whose optimal answers are too many to count here, is in test_two_by_two.py
EXPECTED = {
    "one-by-one": (12, 2, 1),
    "line-cover": (10, 66, 11),
    "two-by-two-at-most": (32, 8, 2),
    "two-by-two-strict-at-most": (32, 8, 2),
}
# the same on power-of-two-sketch, the first reconstruction, kept so that its answers stay checkable
EXPECTED_SKETCH = {
    "one-by-one": (16, 8, 2),
    "line-cover": (10, 50, 9),
    "two-by-two-at-most": (32, 2, 1),
    "two-by-two-strict-at-most": (32, 2, 1),
}


def small_boards():
    """Small boards traced from segments: a square with its diagonals, a triangle with its
    medians, and a noughts-and-crosses grid with diagonals."""
    square = from_segments([((0, 0), (2, 0)), ((2, 0), (2, 2)), ((2, 2), (0, 2)), ((0, 2), (0, 0)),
                            ((0, 0), (2, 2)), ((2, 0), (0, 2))], name="square-x")
    triangle = from_segments([((0, 0), (4, 0)), ((4, 0), (2, 4)), ((2, 4), (0, 0)),
                              ((0, 0), (3, 2)), ((4, 0), (1, 2)), ((2, 4), (2, 0))], name="triangle")
    grid = [((0, y), (2, y)) for y in range(3)] + [((x, 0), (x, 2)) for x in range(3)]
    grid += [((0, 0), (2, 2)), ((2, 0), (0, 2))]
    tictactoe = from_segments(grid, name="tictactoe")
    return [square, triangle, tictactoe]


SMALL = small_boards()


def subsets(board):
    nodes = list(board.nodes)
    for r in range(len(nodes) + 1):
        yield from (frozenset(c) for c in combinations(nodes, r))


def rules_hold(var: lp.Variant, counts: list[int]) -> bool:
    return all(var.line_fault(n) is None for n in counts)


# ----------------------------------------------------------------------------- default board
@pytest.mark.parametrize("name", list(EXPECTED))
@pytest.mark.parametrize("symmetry", [True, False])
def test_both_backends_prove_the_optimum(name, symmetry):
    var = lp.VARIANTS[name]
    cp = lp.solve_cpsat(BOARD, var, symmetry=symmetry)
    sat = lp.solve_sat(BOARD, var, symmetry=symmetry)
    assert (cp.status, cp.objective, cp.bound) == ("optimal", EXPECTED[name][0], EXPECTED[name][0])
    assert (sat.status, sat.objective, sat.bound) == ("optimal", EXPECTED[name][0], EXPECTED[name][0])
    for outcome in (cp, sat):
        counts = line_counts(BOARD, outcome.stones)
        assert rules_hold(var, counts)
        assert var.objective(BOARD, outcome.stones) == EXPECTED[name][0]


@pytest.mark.parametrize("board, expected", [(BOARD, EXPECTED), (load("power-of-two-sketch"), EXPECTED_SKETCH)],
                         ids=["power-of-two", "power-of-two-sketch"])
@pytest.mark.parametrize("name", list(EXPECTED))
def test_answer_counts_agree_across_backends_and_symmetry(name, board, expected):
    var = lp.VARIANTS[name]
    opt, total, classes = expected[name]
    for solve in (lp.solve_cpsat, lp.solve_sat):
        outcome = solve(board, var)
        assert (outcome.status, outcome.objective, outcome.bound) == ("optimal", opt, opt)
    runs = [lp.enumerate_cpsat(board, var, opt), lp.enumerate_sat(board, var, opt),
            lp.enumerate_sat(board, var, opt, symmetry=False)]
    for answers in runs:
        assert answers.complete
        assert (answers.total, len(answers.representatives)) == (total, classes)
        assert answers.representatives == runs[0].representatives
    for rep in runs[0].representatives:
        assert board.canonical(rep) == rep
        assert var.objective(board, rep) == opt


def test_the_one_by_one_answer_on_the_real_board():
    """The two optimal answers are one answer and its mirror image: 12 stones, each of the 32
    lines holds exactly one (the lines of 3 too, which stop at the central square)."""
    answers = lp.enumerate_sat(BOARD, lp.VARIANTS["one-by-one"], 12)
    (rep,) = answers.representatives
    assert [BOARD.label(v) for v in rep] == ["e1", "d4", "g4", "j4", "m5", "d7", "j7", "a9", "d10", "g10", "j10",
                                             "i13"]
    assert line_counts(BOARD, rep) == [1] * 32


@pytest.mark.parametrize("backend", lp.BACKENDS)
def test_one_by_one_has_no_answer_with_the_central_square_s_sides(backend):
    """RULES.md section 1: with the central square's 4 sides as lines (36 lines) no placement
    puts exactly one stone on every line; the line cover still has one."""
    board = load("power-of-two-square-sides")
    assert len(board.lines) == 36
    result = lp.solve(board, "one-by-one", backend=backend)
    assert (result["status"], result["objective"], result["stones"]) == ("infeasible", None, [])
    report = lp.check(result, board)
    assert report.valid and "infeasibility confirmed by cp-sat" in report.notes
    # the 4 extra lines cost the line cover a stone (11, not 10) and Two by Two a line (35 of 36)
    cover = lp.solve(board, "line-cover", backend=backend)
    assert (cover["status"], cover["objective"]) == ("optimal", 11)
    assert lp.solve(board, "two-by-two", backend=backend, at_most=True)["objective"] == 35
    assert lp.solve(board, "two-by-two", backend=backend, strict=True, at_most=True)["objective"] == 33


def test_milp_agrees_with_the_optima():
    from scipy.optimize import LinearConstraint, milp

    for name, (opt, _, _) in EXPECTED.items():
        c, a, lower, upper, sign = lp.VARIANTS[name].milp(BOARD, lp.STONES)
        res = milp(c, constraints=LinearConstraint(a, lower, upper), integrality=[1] * len(c), bounds=(0, 1))
        assert res.status == 0
        assert round(sign * res.fun) == opt


@pytest.mark.parametrize("name", ["one-by-one", "line-cover", "two-by-two-at-most"])
def test_rc2_solves_the_exported_wcnf_to_the_same_optimum(name):
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    var = lp.VARIANTS[name]
    text = lp.export_text(BOARD, var.puzzle, "wcnf", strict=var.strict, at_most=var.at_most)
    with RC2(WCNF(from_string=text)) as rc2:
        rc2.compute()
        cost = rc2.cost
    cnf = var.cnf(BOARD, lp.STONES, symmetry=False)
    assert cnf.objective(cost) == EXPECTED[name][0]


@pytest.mark.slow
def test_time_limit_returns_the_best_answer_as_feasible_with_its_bound(monkeypatch):
    board = load("epaminondas")
    var = lp.VARIANTS["two-by-two-at-most"]
    for backend in lp.BACKENDS:
        result = lp.solve(board, "two-by-two", backend=backend, time_limit=2.0, at_most=True)
        assert result["status"] == "feasible"
        assert result["objective"] == var.objective(board, result["stones"]) > 0
        assert result["bound"] >= result["objective"]
        assert len(result["stones"]) <= 32
        monkeypatch.setattr(line_check, "CHECK_TIME_LIMIT", 2.0)
        lp.confirmed.cache_clear()
        report = lp.check(result, board)
        assert report.valid, report.faults
        assert any("bound" in n for n in report.notes)
    lp.confirmed.cache_clear()


def test_solve_with_all_and_proof(tmp_path):
    proof = tmp_path / "p.drat"
    result = lp.solve(BOARD, "line-cover", backend="sat", all_solutions=True, proof=str(proof))
    assert (result["objective"], result["optimal_answers"], result["optimal_answers_up_to_symmetry"]) == \
        EXPECTED["line-cover"]
    assert result["certified"] is True
    assert result["certificate"]["verdict"].startswith("VERIFIED")
    assert proof.read_text().strip().endswith("0")
    result = lp.solve(BOARD, "two-by-two", strict=True, at_most=True, all_solutions=True)
    assert len(result["lines_with_two"]) == 32
    assert result["optimal_answers"] == EXPECTED["two-by-two-strict-at-most"][1]


def test_stone_limit_option():
    result = lp.solve(BOARD, "line-cover", stones="9")
    assert result["status"] == "infeasible" and result["stone_limit"] == 9
    result = lp.solve(BOARD, "two-by-two", stones="4", backend="sat")
    assert (result["status"], result["objective"], len(result["stones"])) == ("optimal", 6, 4)
    assert result["objective"] == lp.solve(BOARD, "two-by-two", stones=4)["objective"]
    assert (result["stone_limit"], result["stones_rule"]) == (4, "exactly")
    with pytest.raises(lp.SolutionError, match="give a number or 'unlimited'"):
        lp.solve(BOARD, "one-by-one", stones="many")


def test_solve_takes_the_keywords_its_signature_lists():
    """The options are read into one LineOptions: the keywords that solve and each line puzzle's
    hook show are its fields, each taken, and nothing else is."""
    from powertwo.solvers.lines.options import LineOptions

    options = [f.name for f in fields(LineOptions)]
    for name in ("one-by-one", "line-cover", "two-by-two"):
        assert list(inspect.signature(get_puzzle(name).solve).parameters) == ["board", *options, "progress"]
    assert list(inspect.signature(lp.solve).parameters) == ["board", "puzzle", *options, "progress"]
    with pytest.raises(TypeError, match="'bogus'"):
        lp.solve(BOARD, "one-by-one", bogus=1)
    with pytest.raises(TypeError, match="'puzzle'"):
        get_puzzle("one-by-one").solve(BOARD, puzzle="line-cover")


# ----------------------------------------------------------------------------- small boards, brute force
def brute_optimum(board, var, stones=lp.STONES):
    """Optimum and the set of optimal answers by trying every subset of nodes (of exactly
    ``stones`` nodes where the variant places an exact count)."""
    best, found = None, []
    for s in subsets(board):
        placed = len(s) != stones if var.exact_stones else len(s) > stones
        if placed or not rules_hold(var, line_counts(board, s)):
            continue
        value = var.objective(board, s)
        if best is None or var.better(value, best):
            best, found = value, [s]
        elif value == best:
            found.append(s)
    return best, found


@pytest.mark.parametrize("board", SMALL, ids=lambda b: b.name)
@pytest.mark.parametrize("name", list(lp.VARIANTS))
def test_backends_match_brute_force_on_small_boards(board, name):
    var = lp.VARIANTS[name]
    for stones in (lp.STONES, 3, 4):
        best, found = brute_optimum(board, var, stones)
        classes = {board.canonical(s) for s in found}
        for symmetry in (True, False):
            for solve in (lp.solve_cpsat, lp.solve_sat):
                outcome = solve(board, var, stones=stones, symmetry=symmetry)
                if best is None:
                    assert outcome.status == "infeasible"
                    continue
                assert (outcome.status, outcome.objective) == ("optimal", best)
            if best is None:
                continue
            for enum in (lp.enumerate_cpsat, lp.enumerate_sat):
                answers = enum(board, var, best, stones=stones, symmetry=symmetry)
                assert answers.total == len(found)
                assert set(answers.representatives) == classes


@pytest.mark.parametrize("board", SMALL, ids=lambda b: b.name)
@pytest.mark.parametrize("name", list(lp.VARIANTS))
def test_cnf_encoding_against_every_stone_set(board, name):
    """The CNF (cardinality encodings, stone limit, objective bound, lex-leader clauses) accepts
    a stone set exactly when the rules do - the DRAT checker trusts this CNF."""
    var = lp.VARIANTS[name]
    limit = 3
    cnf = var.cnf(board, limit, symmetry=True)
    pool = IDPool(start_from=cnf.top + 1)
    ys = [-c for c in cnf.costs] if var.puzzle == "two-by-two" else []
    bounds = {k: without_empty(cost_bound(cnf, k, pool), pool) for k in range(len(cnf.costs) + 1)}
    with Solver(name="glucose4", bootstrap_with=without_empty(cnf.hard(symmetry=False), pool)) as plain, \
            Solver(name="glucose4", bootstrap_with=without_empty(cnf.hard(symmetry=True), pool)) as lex:
        bounded = {}
        for k, clauses in bounds.items():
            bounded[k] = Solver(name="glucose4", bootstrap_with=without_empty(cnf.hard(False), pool) + clauses)
        try:
            for s in subsets(board):
                fixed = [cnf.stones[v] if v in s else -cnf.stones[v] for v in board.nodes]
                counts = line_counts(board, s)
                legal = (len(s) == limit if var.exact_stones else len(s) <= limit) and rules_hold(var, counts)
                if ys:  # "y_k" may be true only on lines holding exactly two (strict: must be)
                    exact = [y if counts[k] == 2 else -y for k, y in enumerate(ys)]
                    assert plain.solve(assumptions=fixed + exact) == legal
                    for k, y in enumerate(ys):
                        if counts[k] != 2:
                            assert not plain.solve(assumptions=fixed + [y])
                        elif var.strict:
                            assert not plain.solve(assumptions=fixed + [-y])
                    least_cost = len(ys) - sum(1 for n in counts if n == 2)
                else:
                    assert plain.solve(assumptions=fixed) == legal
                    least_cost = len(s)
                for k, solver in bounded.items():
                    assert solver.solve(assumptions=fixed) == (legal and least_cost <= k)
                canonical = tuple(sorted(s)) == board.canonical(s)
                assert lex.solve(assumptions=fixed) == (legal and canonical)
        finally:
            for solver in bounded.values():
                solver.delete()


# ----------------------------------------------------------------------------- committed answers and the checker
def committed(name):
    return json.loads((RESULTS / f"{name}.json").read_text())


@pytest.mark.parametrize("name", list(EXPECTED))
def test_committed_answers_are_accepted(name):
    data = committed(name)
    assert (data["objective"], data["optimal_answers"], data["optimal_answers_up_to_symmetry"]) == EXPECTED[name]
    assert data["status"] == "optimal" and data["certified"] is True
    assert data["backends_agreeing"] == ["cp-sat", "sat"]
    report = lp.check(data, BOARD, base=RESULTS)
    assert report.valid, report.faults
    expected = f"optimality confirmed by cp-sat: the optimum is {EXPECTED[name][0]}"
    assert any(n.startswith(expected) for n in report.notes)
    assert any(n.startswith("certificate re-derived") for n in report.notes)


def mutations(stones: frozenset[int]):
    free = [v for v in BOARD.nodes if v not in stones]
    for v in sorted(stones):
        yield f"remove {v}", stones - {v}
    for v in free:
        yield f"add {v}", stones | {v}
    for v in sorted(stones):
        for w in free:
            yield f"move {v}->{w}", (stones - {v}) | {w}


def still_holds(name: str, data: dict, stones: frozenset[int]) -> bool:
    """The claims of a mutated file, recomputed independently of the checker."""
    counts = [sum(1 for v in line if v in stones) for line in BOARD.lines]
    if name == "one-by-one":
        rules, value = all(n == 1 for n in counts), len(stones)
    elif name == "line-cover":
        rules, value = all(n >= 1 for n in counts), len(stones)
    else:
        rules = name == "two-by-two-at-most" or all(n in (0, 2) for n in counts)
        value = sum(1 for n in counts if n == 2)
        texts = [BOARD.line_text(k) for k, n in enumerate(counts) if n == 2]
        rules = rules and sorted(texts) == sorted(data["lines_with_two"])
    return rules and len(stones) <= 32 and value == data["objective"] == EXPECTED[name][0]


@pytest.mark.parametrize("name", list(EXPECTED))
def test_checker_rejects_every_breaking_single_stone_mutation(name):
    data = committed(name)
    original = frozenset(data["stones"])
    rejected = accepted = 0
    for label, stones in mutations(original):
        mutated = dict(data, stones=sorted(stones))
        report = lp.check(mutated, BOARD, base=RESULTS)
        assert report.valid == still_holds(name, data, stones), (label, report.faults)
        if report.valid:
            accepted += 1
        else:
            rejected += 1
            assert report.faults
    assert rejected > 0
    # the accepted mutations are exactly the other optimal answers one move away
    assert accepted <= EXPECTED[name][1] - 1


def test_checker_fault_lines_are_exact():
    data = committed("one-by-one")
    stones = set(data["stones"])
    assert BOARD.node("i13") in stones and BOARD.node("e13") not in stones
    report = lp.check(dict(data, stones=sorted(stones | {BOARD.node("e13")})), BOARD, base=RESULTS)
    assert report.faults == ("line a9-b10-c11-d12-e13 holds 2 stones, needs exactly 1",
                             "line a13-e13-g13-i13-m13 holds 2 stones, needs exactly 1",
                             "line e13-e11-e9-e7-e5-e3-e1 holds 2 stones, needs exactly 1",
                             "claims objective 12, the stones give 13",
                             "claims optimal, but cp-sat proves the optimum is 12 (the stones give 13)")
    report = lp.check(dict(data, objective=11, bound=13), BOARD, base=RESULTS)
    assert report.faults[:3] == ("claims objective 11, the stones give 12",
                                 "claims status optimal, but bound 13 differs from objective 11",
                                 "claims lower bound 13, but cp-sat finds an answer with objective 12")
    # the claims that rest on objective 11 fall with it: the backends and the certificate
    assert report.faults[3:] == (
        "claims cp-sat agrees, but the checker's cp-sat solve ends optimal 12, not optimal 11",
        "claims sat agrees, but the checker's sat solve ends optimal 12, not optimal 11",
        "gives a certificate, but its status is not a proven optimum or infeasibility")
    report = lp.check(dict(data, optimal_answers=3), BOARD, base=RESULTS)
    assert report.faults == ("claims 3 optimal answers, there are 2",)
    report = lp.check(dict(data, stones=data["stones"] + [BOARD.node("d4")]), BOARD, base=RESULTS)
    assert "node d4 is listed 2 times" in report.faults
    cover = committed("line-cover")
    report = lp.check(dict(cover, stones=cover["stones"][1:], objective=9, status="feasible", bound=None,
                           optimal_answers=66), BOARD, base=RESULTS)
    assert any(f.endswith("holds 0 stones, needs at least 1") for f in report.faults)
    strict = committed("two-by-two-strict-at-most")
    report = lp.check(dict(strict, stones=strict["stones"][1:]), BOARD, base=RESULTS)
    assert any(f.endswith("holds 1 stone, needs 0 or 2") for f in report.faults)
    assert any("missing from lines_with_two" in f or "lines_with_two lists line" in f for f in report.faults)


def test_a_hand_written_answer_may_name_its_stones_by_label():
    """Labels and ids name the same nodes: the committed answer written with labels (and with
    ids and labels mixed) gets the checker's verdict of the answer written with ids."""
    data = {"puzzle": "one-by-one", "board": "power-of-two", "status": "optimal", "objective": 12, "bound": 12,
            "stones": ["e1", "d4", "g4", "j4", "m5", "d7", "j7", "a9", "d10", "g10", "j10", "i13"]}
    by_id = dict(data, stones=[BOARD.node(v) for v in data["stones"]])
    assert by_id["stones"] == committed("one-by-one")["stones"]
    mixed = dict(data, stones=by_id["stones"][:6] + data["stones"][6:])
    reports = [lp.check(d, BOARD) for d in (data, by_id, mixed)]
    assert reports[0].valid and reports[0] == reports[1] == reports[2]
    assert reports[0].summary == "12 stones, every line holds exactly one; optimal (cp-sat proves 12)"
    # i13 moved up its column to i11: i11 shares a line with g10 and one with j10
    wrong = lp.check(dict(data, stones=data["stones"][:-1] + ["i11"]), BOARD)
    assert wrong.faults == ("line a7-c8-e9-g10-h11-i11-j12-m13 holds 2 stones, needs exactly 1",
                            "line a13-e13-g13-i13-m13 holds 0 stones, needs exactly 1",
                            "line g13-i11-j10-k9-m7 holds 2 stones, needs exactly 1",
                            "line i13-j12-k11-l10-m9 holds 0 stones, needs exactly 1")


@pytest.mark.parametrize("data, message", [
    ({"puzzle": "one-by-one"}, "one-by-one solution: missing field 'stones'"),
    ({"puzzle": "one-by-one", "stones": [1, 65]}, "one-by-one solution: node 65 does not exist on board power-of-two"),
    ({"puzzle": "one-by-one", "stones": ["a"]}, "one-by-one solution: node 'a' does not exist on board power-of-two"),
    ({"puzzle": "one-by-one", "stones": ["a13", "n1"]},
     "one-by-one solution: node 'n1' does not exist on board power-of-two"),
    ({"puzzle": "one-by-one", "stones": [1.5]},
     "one-by-one solution: field 'stones': '1.5' is not a node (a label or an id)"),
    ({"puzzle": "one-by-one", "stones": [], "objective": "3"},
     "one-by-one solution: field 'objective' must be an integer or null"),
    ({"puzzle": "one-by-one", "stones": [], "status": "great"},
     "one-by-one solution: field 'status' is 'great', not one of optimal, feasible, infeasible, unknown"),
    ({"puzzle": "one-by-one", "stones": [], "strict": True}, "puzzle one-by-one does not take --strict"),
    ({"puzzle": "two-by-two", "stones": [], "lines_with_two": ["1-2"]},
     "two-by-two solution: field 'lines_with_two': '1-2' is not a line of board power-of-two"),
])
def test_malformed_solutions_raise_one_line_errors(data, message):
    with pytest.raises(lp.SolutionError) as err:
        lp.check(data, BOARD, base=RESULTS)
    assert str(err.value) == message


def test_the_answer_schema_closes_the_run_of_every_backend():
    """The answer files' schema (below the puzzle families, importing none) names each backend's run."""
    from powertwo.solvers.schemas import BackendRun, LineAnswer, check_shape

    runs = {info.alias or name for name, info in LineAnswer.model_fields.items() if info.annotation is BackendRun}
    assert runs == set(lp.BACKENDS)
    for backend in lp.BACKENDS:
        for run, fault in (({"proof": "x"}, f"unknown field '{backend}.proof' (nothing checks it)"),
                           (None, f"field '{backend}' must be an object")):
            with pytest.raises(lp.SolutionError) as err:
                check_shape({"puzzle": "one-by-one", backend: run}, "answer.json", LineAnswer)
            assert str(err.value) == f"answer.json: {fault}"


# ----------------------------------------------------------------------------- random small boards
POOL = [((0, 0), (2, 0)), ((0, 1), (2, 1)), ((0, 2), (2, 2)), ((0, 0), (0, 2)), ((1, 0), (1, 2)),
        ((2, 0), (2, 2)), ((0, 0), (2, 2)), ((2, 0), (0, 2)), ((0, 1), (1, 2)), ((1, 0), (2, 1)),
        ((0, 0), (1, 2)), ((2, 0), (1, 2))]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(st.sampled_from(POOL), min_size=2, max_size=6, unique=True), st.sampled_from(list(lp.VARIANTS)),
       st.integers(min_value=1, max_value=4))
def test_random_boards_agree_with_brute_force(segments, name, stones):
    """Boards with few or no symmetries too: both backends, with and without symmetry breaking,
    find the brute-force optimum and answer count."""
    board = from_segments(segments, name="random")
    assume(board.size <= 11)
    var = lp.VARIANTS[name]
    best, found = brute_optimum(board, var, stones)
    for symmetry in (True, False):
        for solve in (lp.solve_cpsat, lp.solve_sat):
            outcome = solve(board, var, stones=stones, symmetry=symmetry)
            assert outcome.status == ("infeasible" if best is None else "optimal")
            assert outcome.objective == best
        if best is not None:
            answers = lp.enumerate_sat(board, var, best, stones=stones, symmetry=symmetry)
            assert answers.total == len(found)
            assert set(answers.representatives) == {board.canonical(s) for s in found}
