"""Get a Jump On, reverse: time-step planning models of peg solitaire by moves, for CP-SAT
(:func:`reverse_model`) and as CNF for PySAT (:func:`reverse_cnf`).

A *step* is a single jump; from ``k`` stones to one stone takes exactly ``k - 1``
jumps, so the plan has exactly ``k - 1`` steps (no horizon to guess). A *move*
is one stone's chain of jumps: step ``t`` starts a new move unless the jumping
stone is the one that landed at step ``t - 1``. The objective is the number of
moves.

Variables (dicts keyed by domain tuples):

* ``stone[t, v]``: a stone on node ``v`` after ``t`` steps;
* ``jump[t, (a, b, c)]``: step ``t`` (1-based) jumps from ``a`` over ``b`` to ``c``;
  exactly one per step;
* ``new_move[t]``: step ``t`` starts a move (step 1 always does).

This model is good at finding sequences; as a proof of a move minimum it is weak
(the LP relaxation of the move counter is loose), so the solvers use its bound
only when CP-SAT itself reports OPTIMAL or INFEASIBLE.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ortools.sat.python import cp_model

from powertwo.boards import Board, NodeId

Jump = tuple[NodeId, NodeId, NodeId]


@dataclass
class ReverseModel:
    model: cp_model.CpModel
    stone: dict[tuple[int, NodeId], cp_model.IntVar]
    jump: dict[tuple[int, Jump], cp_model.IntVar]
    new_move: dict[int, cp_model.IntVar]
    steps: int
    moves: cp_model.LinearExpr


def reverse_model(board: Board, start: Iterable[NodeId], *, targets: Iterable[NodeId] | None = None,
                  max_moves: int | None = None, min_moves: int | None = None) -> ReverseModel:
    """The planning model from the stones ``start`` to one stone (on one of ``targets`` if
    given), minimising moves; ``max_moves``/``min_moves`` bound the objective."""
    start_set = set(start)
    steps = len(start_set) - 1
    m = cp_model.CpModel()
    stone = {(t, v): m.new_bool_var(f"stone_{t}_{v}") for t in range(steps + 1) for v in board.nodes}
    jump = {(t, j): m.new_bool_var(f"jump_{t}_{j[0]}_{j[1]}_{j[2]}") for t in range(1, steps + 1) for j in board.jumps}
    new_move = {t: m.new_bool_var(f"new_move_{t}") for t in range(1, steps + 1)}
    for v in board.nodes:
        m.add(stone[0, v] == (1 if v in start_set else 0))
    leaves: dict[NodeId, list[Jump]] = {v: [] for v in board.nodes}   # jumps that empty v (from or over)
    lands: dict[NodeId, list[Jump]] = {v: [] for v in board.nodes}    # jumps that land on v
    for j in board.jumps:
        a, b, c = j
        leaves[a].append(j)
        leaves[b].append(j)
        lands[c].append(j)
    for t in range(1, steps + 1):
        m.add_exactly_one(jump[t, j] for j in board.jumps)
        for j in board.jumps:
            a, b, c = j
            x = jump[t, j]
            m.add_implication(x, stone[t - 1, a])
            m.add_implication(x, stone[t - 1, b])
            m.add_implication(x, ~stone[t - 1, c])
        for v in board.nodes:
            m.add(stone[t, v] == stone[t - 1, v] - sum(jump[t, j] for j in leaves[v])
                  + sum(jump[t, j] for j in lands[v]))
        # a new move unless this jump starts where the previous one landed
        if t == 1:
            m.add(new_move[t] == 1)
        else:
            for j in board.jumps:
                a = j[0]
                m.add_bool_or([~jump[t, j], new_move[t]] + [jump[t - 1, k] for k in lands[a]])
    if targets is not None:
        allowed = set(targets)
        for v in board.nodes:
            if v not in allowed:
                m.add(stone[steps, v] == 0)
    moves = cp_model.LinearExpr.sum(list(new_move.values()))
    if max_moves is not None:
        m.add(moves <= max_moves)
    if min_moves is not None:
        m.add(moves >= min_moves)
    m.minimize(moves)
    return ReverseModel(m, stone, jump, new_move, steps, moves)


def decode_moves(rm: ReverseModel, solver: cp_model.CpSolver, board: Board) -> list[tuple[NodeId, list[NodeId]]]:
    """The solved plan as moves ``(from, [landings])`` (a jump by the stone that just landed
    continues its chain)."""
    out: list[tuple[NodeId, list[NodeId]]] = []
    for t in range(1, rm.steps + 1):
        j = next(j for j in board.jumps if solver.value(rm.jump[t, j]))
        if out and out[-1][1][-1] == j[0]:
            out[-1][1].append(j[2])
        else:
            out.append((j[0], [j[2]]))
    return out


@dataclass
class ReverseCnf:
    """The same plan as clauses (PySAT): ``stone[t, v]``, ``jump[t, j]``, ``new_move[t]`` are
    variables of ``vpool``; ``moves`` is an incremental totalizer over the ``new_move``
    variables (``-moves.rhs[k]`` as an assumption allows at most ``k`` moves)."""

    clauses: list[list[int]]
    stone: dict[tuple[int, NodeId], int]
    jump: dict[tuple[int, Jump], int]
    new_move: dict[int, int]
    steps: int
    totalizer: Any  # pysat.card.ITotalizer (pysat ships no type hints)


def reverse_cnf(board: Board, start: Iterable[NodeId], *, targets: Iterable[NodeId] | None = None,
                vpool=None) -> ReverseCnf:
    """The time-step plan as CNF: one jump per step (at least one, at most one by a sequential
    counter), preconditions, effects, explanatory frame axioms, and a new move at step ``t``
    unless the jumping stone landed at step ``t - 1``."""
    from pysat.card import CardEnc, EncType, ITotalizer
    from pysat.formula import IDPool

    vpool = IDPool() if vpool is None else vpool
    start_set = set(start)
    steps = len(start_set) - 1
    stone = {(t, v): vpool.id(("stone", t, v)) for t in range(steps + 1) for v in board.nodes}
    jump = {(t, j): vpool.id(("jump", t, j)) for t in range(1, steps + 1) for j in board.jumps}
    new_move = {t: vpool.id(("new_move", t)) for t in range(1, steps + 1)}
    clauses: list[list[int]] = []
    for v in board.nodes:
        clauses.append([stone[0, v] if v in start_set else -stone[0, v]])
    leaves: dict[NodeId, list[Jump]] = {v: [] for v in board.nodes}
    lands: dict[NodeId, list[Jump]] = {v: [] for v in board.nodes}
    for j in board.jumps:
        leaves[j[0]].append(j)
        leaves[j[1]].append(j)
        lands[j[2]].append(j)
    for t in range(1, steps + 1):
        lits = [jump[t, j] for j in board.jumps]
        clauses.append(lits)
        clauses.extend(CardEnc.atmost(lits, 1, vpool=vpool, encoding=EncType.seqcounter).clauses)
        for j in board.jumps:
            a, b, c = j
            x = jump[t, j]
            clauses += [[-x, stone[t - 1, a]], [-x, stone[t - 1, b]], [-x, -stone[t - 1, c]],
                        [-x, -stone[t, a]], [-x, -stone[t, b]], [-x, stone[t, c]]]
            if t > 1:
                clauses.append([-x, new_move[t]] + [jump[t - 1, k] for k in lands[a]])
        for v in board.nodes:
            clauses.append([-stone[t - 1, v], stone[t, v]] + [jump[t, j] for j in leaves[v]])
            clauses.append([stone[t - 1, v], -stone[t, v]] + [jump[t, j] for j in lands[v]])
    clauses.append([new_move[1]])
    if targets is not None:
        allowed = set(targets)
        clauses.extend([-stone[steps, v]] for v in board.nodes if v not in allowed)
    tot = ITotalizer(lits=[new_move[t] for t in range(1, steps + 1)], ubound=steps, top_id=vpool.top)
    vpool.occupy(vpool.top + 1, tot.top_id)
    clauses.extend(tot.cnf.clauses)
    return ReverseCnf(clauses, stone, jump, new_move, steps, tot)


def decode_cnf(rc: ReverseCnf, model: Iterable[int], board: Board) -> list[tuple[NodeId, list[NodeId]]]:
    """A satisfying assignment as moves ``(from, [landings])`` (chains merged)."""
    true = {lit for lit in model if lit > 0}
    out: list[tuple[NodeId, list[NodeId]]] = []
    for t in range(1, rc.steps + 1):
        j = next(j for j in board.jumps if rc.jump[t, j] in true)
        if out and out[-1][1][-1] == j[0]:
            out[-1][1].append(j[2])
        else:
            out.append((j[0], [j[2]]))
    return out
