"""Get a Jump On, reverse: models of peg solitaire by moves.

* :func:`reverse_model`: a time-step planning model for CP-SAT (kept as a cross-check).
* :func:`reverse_moves_cnf`: the move-set model as CNF for PySAT, the SAT backend's model.

Time steps (:func:`reverse_model`). A *step* is a single jump; from ``k`` stones to one stone
takes exactly ``k - 1`` jumps, so the plan has exactly ``k - 1`` steps (no horizon to guess). A
*move* is one stone's chain of jumps: step ``t`` starts a new move unless the jumping stone is the
one that landed at step ``t - 1``. The objective is the number of moves. Variables (dicts keyed by
domain tuples): ``stone[t, v]``, a stone on node ``v`` after ``t`` steps; ``jump[t, (a, b, c)]``,
step ``t`` (1-based) jumps from ``a`` over ``b`` to ``c``, exactly one per step; ``new_move[t]``,
step ``t`` starts a move (step 1 always does). As a proof of a move minimum it is weak (the LP
relaxation of the move counter is loose), so its bound counts only when CP-SAT reports OPTIMAL
or INFEASIBLE.

Move sets (:func:`reverse_moves_cnf`). A fixed number of moves, each the set of lines its stone
jumps along, its first and its last node, without the order of its jumps; stones exist only
between moves. This relaxes the game; the GF(2) trail parity (a chain's jumps' end pairs sum to
its first plus its last node) makes it tight, and a move set that no order of its jumps turns into
a chain (:func:`move_chain`) is excluded by a clause when a solver proposes it, so "no plan" from
the relaxation with its exclusions is a proof, and a plan is a real one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

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


Line = tuple[NodeId, NodeId, NodeId]
"""A line ``(a, b, c)`` with ``a < c``: the stone on ``b`` jumped along it, in either direction."""


@dataclass(frozen=True)
class MoveSet:
    """One move without its order: the stone starts on ``first`` and ends on ``last``, jumping
    along ``lines`` (one per jumped stone); ``stones`` are the stones before the move."""

    first: NodeId
    last: NodeId
    lines: frozenset[Line]
    stones: frozenset[NodeId]


@dataclass
class ReverseMovesCnf:
    """The move-set model as CNF (see :func:`reverse_moves_cnf`); the variables are dicts keyed by
    ``(k, node)`` or ``(k, line)`` for move ``k`` (0-based), ``stone`` by ``(k, node)`` for
    ``k = 0 .. moves`` (the stones before move ``k``)."""

    clauses: list[list[int]]
    stone: dict[tuple[int, NodeId], int]
    first: dict[tuple[int, NodeId], int]
    last: dict[tuple[int, NodeId], int]
    line: dict[tuple[int, Line], int]
    moves: int
    lines: tuple[Line, ...]
    nodes: tuple[NodeId, ...]

    def move_sets(self, model: Iterable[int]) -> list[MoveSet]:
        """A satisfying assignment as its move sets, in order."""
        true = {lit for lit in model if lit > 0}
        return [MoveSet(next(v for v in self.nodes if self.first[k, v] in true),
                        next(v for v in self.nodes if self.last[k, v] in true),
                        frozenset(ln for ln in self.lines if self.line[k, ln] in true),
                        frozenset(v for v in self.nodes if self.stone[k, v] in true))
                for k in range(self.moves)]

    def exclusion(self, move: MoveSet) -> list[list[int]]:
        """Clauses that forbid the move set ``move`` (its ends and exactly its lines) as any move:
        sound when no order of its jumps makes a chain (:func:`move_chain` returns None), since
        whether one does depends only on the ends and the lines (the model lets a line end only on
        a free node, on ``first`` or on a stone jumped in the same move)."""
        return [[-self.first[k, move.first], -self.last[k, move.last]]
                + [-self.line[k, ln] if ln in move.lines else self.line[k, ln] for ln in self.lines]
                for k in range(self.moves)]


def board_lines(board: Board) -> tuple[Line, ...]:
    """Every line a stone can be jumped along, once (the two jumps along it are one line)."""
    return tuple(sorted({(min(a, c), b, max(a, c)) for a, b, c in board.jumps}))


def _parity_clauses(lits: list[int], vpool) -> list[list[int]]:
    """``lits`` sum to 0 over GF(2): a chain of Tseitin XOR gates (4 clauses each)."""
    clauses: list[list[int]] = []
    acc = lits[0]
    for x in lits[1:]:
        y = vpool.id()
        clauses += [[-y, acc, x], [-y, -acc, -x], [y, -acc, x], [y, acc, -x]]
        acc = y
    clauses.append([-acc])
    return clauses


def reverse_moves_cnf(board: Board, start: Iterable[NodeId], moves: int, *,
                      targets: Iterable[NodeId] | None = None, vpool=None) -> ReverseMovesCnf:
    """Exactly ``moves`` moves from the stones ``start`` to one stone (on one of ``targets``), each
    move a set of lines without their order: a relaxation, exact together with the exclusions of
    unrealisable move sets (:meth:`ReverseMovesCnf.exclusion`). Per move ``k``: one ``first`` node
    (a stone) and one ``last`` node (free at the end of the move); at least one line, at most one
    line over each stone, only over stones other than ``first``; a line ends only on a free node,
    on ``first`` or on a stone jumped in the move; the stones after the move follow. Trail parity:
    the lines' end pairs sum to ``first + last`` over GF(2)^nodes (a chain passes through every
    other node an even number of times)."""
    from pysat.formula import IDPool

    vpool = IDPool() if vpool is None else vpool
    start_set = set(start)
    nodes = tuple(board.nodes)
    lines = board_lines(board)
    stone = {(k, v): vpool.id(("stone", k, v)) for k in range(moves + 1) for v in nodes}
    clauses = [[stone[0, v] if v in start_set else -stone[0, v]] for v in nodes]
    first, last, line = {}, {}, {}
    for k in range(moves):
        first.update({(k, v): vpool.id(("first", k, v)) for v in nodes})
        last.update({(k, v): vpool.id(("last", k, v)) for v in nodes})
        line.update({(k, ln): vpool.id(("line", k, ln)) for ln in lines})
        clauses += _move_clauses(k, nodes, lines, stone, first, last, line, vpool)
    clauses += _at_most_one([stone[moves, v] for v in nodes], vpool)
    if targets is not None:
        allowed = set(targets)
        clauses.extend([-stone[moves, v]] for v in nodes if v not in allowed)
    return ReverseMovesCnf(clauses, stone, first, last, line, moves, lines, nodes)


def _at_most_one(lits: list[int], vpool) -> list[list[int]]:
    from pysat.card import CardEnc, EncType

    encoding = EncType.seqcounter if len(lits) > 6 else EncType.pairwise
    return CardEnc.atmost(lits, 1, vpool=vpool, encoding=encoding).clauses


def _move_clauses(k: int, nodes, lines, stone, first, last, line, vpool) -> list[list[int]]:
    """The clauses of move ``k`` (see :func:`reverse_moves_cnf`)."""
    over = {v: [line[k, ln] for ln in lines if ln[1] == v] for v in nodes}
    ending = {v: [line[k, ln] for ln in lines if v in (ln[0], ln[2])] for v in nodes}
    jumped = {v: vpool.id(("jumped", k, v)) for v in nodes}
    clauses = [[first[k, v] for v in nodes], [last[k, v] for v in nodes], [line[k, ln] for ln in lines]]
    clauses += _at_most_one([first[k, v] for v in nodes], vpool) + _at_most_one([last[k, v] for v in nodes], vpool)
    for v in nodes:
        before, after, j, f = stone[k, v], stone[k + 1, v], jumped[v], first[k, v]
        clauses += [[-f, before], [-last[k, v], -before, f, j],
                    [-j] + over[v], [-j, before], [-j, -f],
                    [-after, last[k, v], before], [-after, last[k, v], -j], [-after, last[k, v], -f],
                    [after, -last[k, v]], [after, -before, j, f]]
        clauses += [[-x, j] for x in over[v]] + _at_most_one(over[v], vpool)
        clauses += [[-x, -before, f, j] for x in ending[v]]
        clauses += _parity_clauses(ending[v] + [f, last[k, v]], vpool)
    return clauses


def move_chain(move: MoveSet) -> list[NodeId] | None:
    """An order of the move set's jumps that makes it one stone's chain from ``first`` to ``last``
    (the landings), or None when there is none (exhaustive depth-first search; where the stone
    stands and the lines left fix the stones, so they key the dead ends)."""
    dead: set[tuple[NodeId, frozenset[Line]]] = set()

    def extend(at: NodeId, left: frozenset[Line], occupied: frozenset[NodeId]) -> list[NodeId] | None:
        if not left:
            return [] if at == move.last else None
        if (at, left) in dead:
            return None
        for ln in left:
            a, b, c = ln
            for frm, to in ((a, c), (c, a)):
                if frm == at and b in occupied and to not in occupied:
                    rest = extend(to, left - {ln}, occupied - {b, at} | {to})
                    if rest is not None:
                        return [to] + rest
        dead.add((at, left))
        return None

    return extend(move.first, move.lines, move.stones)
