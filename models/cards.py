"""Shared pieces of the line-puzzle encodings: the CNF value, cardinality helpers,
objective bounds, and lex-leader symmetry breaking from the board's symmetry group.

Literals are DIMACS integers (``-v`` is the negation of variable ``v``); every
variable comes from one :class:`pysat.formula.IDPool`, so clause sets built
here can be joined and exported. The same clause lists are handed to CP-SAT
(:func:`add_clauses_to_cpsat`), so both backends break symmetry identically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from powertwo.boards import Board, NodeId

Clause = tuple[int, ...]


@dataclass(frozen=True)
class LineCnf:
    """A line puzzle as CNF.

    ``clauses`` are the puzzle's rules (cardinality encodings included);
    ``symmetry`` the lex-leader clauses kept apart, so a proof run can leave them
    out (a DRAT checker cannot justify them). ``stones[v]`` is the variable
    "a stone on node v". The objective is *minimise the number of true literals in
    ``costs``*; the puzzle's own objective is ``offset + sign * cost``
    (``sign`` = 1 for a minimisation, -1 for a maximisation such as Two by Two,
    whose costs are the negated "line holds exactly two" literals).
    ``names`` maps a variable to a readable name for export headers.
    """

    puzzle: str
    board: Board
    clauses: tuple[Clause, ...]
    symmetry: tuple[Clause, ...]
    stones: Mapping[NodeId, int]
    costs: tuple[int, ...]
    sign: int
    offset: int
    top: int
    names: Mapping[int, str] = field(default_factory=dict)

    def objective(self, cost: int) -> int:
        return self.offset + self.sign * cost

    def cost(self, objective: int) -> int:
        return (objective - self.offset) * self.sign

    def hard(self, symmetry: bool = True) -> list[list[int]]:
        return [list(c) for c in self.clauses] + ([list(c) for c in self.symmetry] if symmetry else [])


def conditional(clauses: Iterable[Sequence[int]], guard: int) -> list[Clause]:
    """``guard -> (clauses)``: every clause with ``-guard`` added."""
    return [(-guard, *c) for c in clauses]


def exactly(lits: Sequence[int], k: int, pool: IDPool) -> list[Clause]:
    """Exactly ``k`` of ``lits`` are true (pairwise for k = 1, sequential counter otherwise)."""
    if k < 0 or k > len(lits):
        return [()]  # impossible: the empty clause
    if k == 1:
        enc = CardEnc.equals(list(lits), 1, vpool=pool, encoding=EncType.pairwise)
    elif k == 0:
        return [(-v,) for v in lits]
    elif k == len(lits):
        return [(v,) for v in lits]
    else:
        enc = CardEnc.equals(list(lits), k, vpool=pool, encoding=EncType.seqcounter)
    return [tuple(c) for c in enc.clauses]


def at_most(lits: Sequence[int], k: int, pool: IDPool) -> list[Clause]:
    """At most ``k`` of ``lits`` are true (sequential counter); ``[()]`` when k < 0."""
    if k < 0:
        return [()]
    if k >= len(lits):
        return []
    if k == 0:
        return [(-v,) for v in lits]
    return [tuple(c) for c in CardEnc.atmost(list(lits), k, vpool=pool, encoding=EncType.seqcounter).clauses]


def cost_bound(cnf: LineCnf, cost: int, pool: IDPool | None = None) -> list[Clause]:
    """Clauses saying "the cost is at most ``cost``" (the empty clause when ``cost < 0``)."""
    return at_most(cnf.costs, cost, pool or IDPool(start_from=cnf.top + 1))


def without_empty(clauses: Iterable[Sequence[int]], pool: IDPool) -> list[list[int]]:
    """The clauses, an empty clause replaced by ``t`` and ``-t`` for a fresh ``t`` (solvers
    and DIMACS readers differ on empty clauses; this pair means the same)."""
    out = []
    for c in clauses:
        if len(c) == 0:
            t = pool.id(("false",))
            out += [[t], [-t]]
        else:
            out.append(list(c))
    return out


def lex_leader(board: Board, stones: Mapping[NodeId, int], pool: IDPool) -> list[Clause]:
    """Lex-leader symmetry breaking over :attr:`Board.symmetry_breakers`: the whole symmetry
    group when it is listed, else its generators (then more than one answer per orbit may remain).

    For every non-identity symmetry ``p`` the stone vector ``(x_1..x_N)`` must be
    lexicographically at least the vector of the image ``p(S)`` (whose entry ``i``
    is ``x_{p^-1(i)}``). The lex-greatest member of each orbit satisfies all of
    them and no other member does, so (over the whole group) exactly one answer per
    orbit remains: an optimum is never lost, and counting answers under these clauses
    counts them up to symmetry. Prefix-equality variables ``e_i`` are fully defined (so every
    answer has exactly one satisfying extension, which keeps enumeration exact).
    """
    nodes = list(board.nodes)
    out: list[Clause] = []
    for k, perm in enumerate(board.symmetry_breakers, start=1):
        inverse = [0] * len(nodes)
        for v in nodes:
            inverse[perm[v - 1] - 1] = v
        prev = None  # literal "prefix so far equal" (None = true)
        for i in nodes:
            j = inverse[i - 1]
            if j == i:
                continue
            a, b = stones[i], stones[j]
            g = () if prev is None else (-prev,)
            out.append((*g, a, -b))  # prefix equal -> x_i >= y_i
            if i == nodes[-1]:
                break
            e = pool.id(("lex", k, i))
            # e <-> prev and (a == b)
            out.append((*g, -a, -b, e))
            out.append((*g, a, b, e))
            if prev is not None:
                out.append((-e, prev))
            out.append((-e, a, -b))
            out.append((-e, -a, b))
            prev = e
    return out


def add_clauses_to_cpsat(model, clauses: Iterable[Sequence[int]], literal: Callable[[int], Any]) -> None:
    """Add DIMACS-style clauses to a CP-SAT model; ``literal(v)`` gives the CP-SAT literal of
    variable ``v`` (auxiliary variables are created by the caller's ``literal`` on demand)."""
    for c in clauses:
        model.add_bool_or([literal(v) if v > 0 else literal(-v).Not() for v in c])


def lex_leader_cpsat(model, board: Board, x: Mapping[NodeId, object]) -> None:
    """The clauses of :func:`lex_leader` added to a CP-SAT model over its stone variables ``x``."""
    pool = IDPool()
    ids = {v: pool.id(("x", v)) for v in board.nodes}
    lit = {ids[v]: x[v] for v in board.nodes}

    def literal(var: int):
        if var not in lit:
            lit[var] = model.new_bool_var(f"lex_{var}")
        return lit[var]

    add_clauses_to_cpsat(model, lex_leader(board, ids, pool), literal)


def line_counts(board: Board, stones: Iterable[NodeId]) -> list[int]:
    """How many stones each line holds (by line id)."""
    s = set(stones)
    return [sum(1 for v in line if v in s) for line in board.lines]


def orbit(board: Board, stones: Iterable[NodeId]) -> set[tuple[NodeId, ...]]:
    """The distinct images of a stone set under the board's symmetries (sorted tuples)."""
    stones = tuple(stones)
    return {tuple(sorted(p[v - 1] for v in stones)) for p in board.symmetries}
