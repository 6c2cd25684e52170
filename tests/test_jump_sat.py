"""The SAT backend of jump-reverse: the move-set model (models/jump.py ``reverse_moves_cnf``) with
its chain search (``move_chain``), against the searches on the English board, and the default
position of the Power of Two board."""

import itertools
import random

import pytest
from powertwo.boards import load
from powertwo.models.jump import MoveSet, board_lines, move_chain, reverse_moves_cnf
from powertwo.solvers.jump import ReverseRequest, check_reverse, default_position, reverse_answer, solve_reverse
from powertwo.solvers.jump.engine import plain_bfs
from powertwo.solvers.jump.tables import english_board, node_at, random_solvable
from pysat.solvers import Solver

ENGLISH = english_board()
CENTRE = node_at(ENGLISH, 0, 0)
P2 = load("power-of-two")


def move_sets_of(board, start, moves):
    """The move sets of a plan ``[(from, landings)]``, replayed: each jump's line and the stones
    before each move."""
    stones, out = set(start), []
    for first, landings in moves:
        at, lines, before = first, set(), frozenset(stones)
        for to in landings:
            over = next(b for a, b, c in board.jumps if {a, c} == {at, to} and b in stones)
            lines.add((min(at, to), over, max(at, to)))
            stones -= {at, over}
            stones.add(to)
            at = to
        out.append(MoveSet(first, at, frozenset(lines), before))
    return out


def chain_by_brute_force(move: MoveSet) -> bool:
    """Whether some order and direction of the lines is a chain from first to last (every
    permutation tried, each jump leaving the node the stone stands on: the independent path for
    :func:`move_chain`)."""
    for order in itertools.permutations(move.lines):
        stones, at, ok = set(move.stones), move.first, True
        for a, b, c in order:
            to = c if at == a else a
            if at not in (a, c) or b not in stones or to in stones:
                ok = False
                break
            stones -= {b, at}
            stones.add(to)
            at = to
        if ok and at == move.last:
            return True
    return False


@pytest.mark.parametrize("stones,seed", [(6, 1), (8, 11), (9, 4), (10, 7)])
def test_english_optimum_equals_plain_search(stones, seed):
    pos = random_solvable(ENGLISH, CENTRE, stones, seed=seed)
    for targets in ([CENTRE], None):
        sat = solve_reverse(ENGLISH, position=pos, backend="sat", target=targets)
        expected = plain_bfs(ENGLISH, pos, targets=targets)[0]
        assert (sat["status"], sat["objective"], sat["bound"]) == ("optimal", expected, expected)
        assert sat["engine"] == "sat" and check_reverse(sat, ENGLISH).valid


def test_english_positions_with_and_without_finish_agree_with_plain_search():
    rng = random.Random(3)
    positions = [random_solvable(ENGLISH, CENTRE, 6, seed=seed) for seed in range(3)]
    positions += [rng.sample(list(ENGLISH.nodes), 6) for _ in range(8)]
    proofs = []
    for pos in positions:
        expected = plain_bfs(ENGLISH, pos)[0]
        sat = solve_reverse(ENGLISH, position=pos, backend="sat")
        assert sat["objective"] == expected
        assert sat["status"] == ("infeasible" if expected is None else "optimal")
        assert check_reverse(sat, ENGLISH).valid
        proofs.append(sat["proof"])
    # no finish in 5 moves from 6 stones: none at all, refuted by the model, not only by position classes
    assert {"kind": "move-set model", "bound": 6, "engine": "sat"} in proofs
    assert any(p["kind"] == "position classes and pagodas" for p in proofs)


def test_real_plans_satisfy_the_relaxation():
    """Every move of a real plan is a model of its move (the relaxation cuts no plan) and is
    realised by move_chain."""
    pos = random_solvable(ENGLISH, CENTRE, 12, seed=2)
    plan = solve_reverse(ENGLISH, position=pos, target=[CENTRE])
    moves = [(m["from"], m["jumps"]) for m in plan["moves"]]
    sets = move_sets_of(ENGLISH, pos, moves)
    rc = reverse_moves_cnf(ENGLISH, pos, len(moves), targets=[CENTRE])
    lits = []
    for k, move in enumerate(sets):
        lits += [rc.first[k, move.first], rc.last[k, move.last]]
        lits += [rc.line[k, ln] if ln in move.lines else -rc.line[k, ln] for ln in rc.lines]
        assert move_chain(move) is not None
    with Solver(name="cadical195", bootstrap_with=rc.clauses) as solver:
        assert solver.solve(assumptions=lits)
        assert rc.move_sets(solver.get_model()) == sets


def test_move_chain_agrees_with_every_order_on_proposed_move_sets():
    """The move sets a solver proposes for one move too few, realised or not, judged by
    move_chain and by trying every order of their jumps."""
    pos = random_solvable(ENGLISH, CENTRE, 14, seed=0)
    optimum = plain_bfs(ENGLISH, pos)[0]
    rc = reverse_moves_cnf(ENGLISH, pos, optimum - 1)
    seen = {True: 0, False: 0}
    with Solver(name="cadical195", bootstrap_with=rc.clauses) as solver:
        while solver.solve():
            for move in rc.move_sets(solver.get_model()):
                chain = move_chain(move)
                assert (chain is not None) == chain_by_brute_force(move)
                seen[chain is not None] += 1
                if chain is None:
                    solver.append_formula(rc.exclusion(move))
                else:
                    assert chain[-1] == move.last and len(chain) == len(move.lines)
    assert seen[False] > 0 and seen[True] > 0


def test_board_lines_count_each_line_once():
    assert len(board_lines(P2)) * 2 == len(P2.jumps)
    assert all(a < c for a, _, c in board_lines(P2))


def test_conflict_limit_ends_with_the_bound_so_far():
    res = reverse_answer(P2, ReverseRequest(start=tuple(default_position(P2)), backend="sat", conflict_limit=1000))
    assert (res.status, res.moves, res.stopped) == ("unknown", (), "1,000 conflicts spent")
    assert res.proof is not None and (res.proof.bound, res.proof.engine) == (res.bound, "sat")
    res = res.to_json()
    assert check_reverse(res, P2).valid      # the kernel re-proves the bound


@pytest.mark.slow
def test_default_position_optimum_four_as_the_kernel():
    """The committed kernel answer (4 moves) found and proven by the SAT backend (about 15 s)."""
    sat = solve_reverse(P2, backend="sat")
    kernel = reverse_answer(P2, ReverseRequest(start=tuple(default_position(P2)), node_limit=200_000)).to_json()
    assert kernel["status"] == "optimal"
    assert (sat["status"], sat["objective"], sat["bound"]) == ("optimal", kernel["objective"], kernel["objective"])
    assert sat["proof"] == {"kind": "move-set model", "bound": kernel["objective"], "engine": "sat"}
    assert check_reverse(sat, P2).valid


def test_one_stone_needs_no_move_as_the_search_says():
    sat = solve_reverse(ENGLISH, position=[CENTRE], backend="sat")
    search = solve_reverse(ENGLISH, position=[CENTRE])
    assert (sat["status"], sat["objective"], sat["bound"], sat["moves"]) == ("optimal", 0, 0, [])
    assert (search["status"], search["objective"]) == ("optimal", 0)
    assert sat["proof"] is search["proof"] is None     # a bound of 0 needs no proof
