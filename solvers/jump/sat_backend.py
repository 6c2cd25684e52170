"""Get a Jump On, reverse: the SAT backend (``--backend sat``). CaDiCaL (PySAT) on the move-set
model :func:`powertwo.models.jump.reverse_moves_cnf`, asked for ``floor``, ``floor + 1``, ... moves:
each UNSAT proves one more move is needed, the first plan is optimal."""

from __future__ import annotations

from typing import Literal, Sequence

from powertwo.boards import Board, NodeId
from powertwo.boards.words import counted

from ..registry import Progress
from ..satcall import Budget, sat_call
from .engine import ReverseSearch
from .files import ReverseAnswer, moves_of
from .proof import Proof, bound_proof
from .tables import nodes_of
from ..status import INFEASIBLE, OPTIMAL, UNKNOWN

SAT_SOLVER = "cadical195"
SAT_CONFLICT_LIMIT = 1_000_000
"""Conflicts the results job gives the SAT backend on each board's default position (a conflict
limit, unlike seconds, gives the same answer on every machine; the real board's optimum takes about
320,000, 12 s)."""
SAT_SLICE = 10_000
"""Conflicts per CaDiCaL call between two looks at the clock and at Ctrl-C."""
Plan = list[tuple[NodeId, list[NodeId]]]


def reverse_by_sat(board: Board, start: Sequence[NodeId], budget: Budget, targets: Sequence[NodeId] | None,
                   progress: Progress) -> ReverseAnswer:
    """CaDiCaL on the move-set model for ``floor``, ``floor + 1``, ... moves, where ``floor`` is the
    admissible bound of the search (unjumpable stones, Merson regions): each UNSAT proves one more
    move is needed, the first plan is optimal. A plan that has move sets no chain realises excludes
    them (for every move count after it too) and asks again. Ends with the bound so far when the
    budget (time, conflicts, Ctrl-C) runs out."""
    rs = ReverseSearch(board, start, targets=targets, pagodas=False)
    if not rs.targets:
        return ReverseAnswer(board=board, start=tuple(start), status=INFEASIBLE, bound=len(start), engine="sat",
                             proof=Proof(kind="position classes and pagodas", bound=len(start), engine="sat"))
    steps = len(start) - 1
    floor = bound = max(1, rs.lower_bound(rs.start, rs.targets)) if steps else 0
    excluded: set = set()
    plan: Plan | None = None
    try:
        while bound <= steps:
            progress(f"sat: asking for {counted(bound, 'move')}")
            answer = _sat_plan(board, start, bound, nodes_of(rs.targets), budget, excluded)
            if answer is not False:
                plan = answer
                break
            bound += 1
    except KeyboardInterrupt:  # Ctrl-C between two SAT calls
        budget.interrupted = True
    proof = bound_proof(bound, floor, "sat")
    if plan is not None:
        return ReverseAnswer(board=board, start=tuple(start), status=OPTIMAL, bound=len(plan), engine="sat",
                             moves=moves_of(plan), proof=proof)
    if bound > steps:
        return ReverseAnswer(board=board, start=tuple(start), status=INFEASIBLE, bound=bound, engine="sat",
                             proof=proof)
    return ReverseAnswer(board=board, start=tuple(start), status=UNKNOWN, bound=bound, engine="sat", proof=proof,
                         stopped=budget.reason if budget.spent else "")


def _sat_plan(board: Board, start: Sequence[NodeId], moves: int, targets: list[NodeId], budget: Budget,
              excluded: set) -> Plan | Literal[False] | None:
    """A plan of exactly ``moves`` moves (a list of ``(from, landings)``), False when there is none,
    None when the budget ran out. ``excluded``: the move sets (first, last, lines) known to be no
    chain, extended with those found here."""
    from dataclasses import replace

    from powertwo.models.jump import move_chain, reverse_moves_cnf
    from pysat.solvers import Solver

    rc = reverse_moves_cnf(board, start, moves, targets=targets)
    with Solver(name=SAT_SOLVER, bootstrap_with=rc.clauses) as solver:
        for move in excluded:
            solver.append_formula(rc.exclusion(move))
        while True:
            spent = budget.spent_conflicts - solver.accum_stats().get("conflicts", 0)
            answer = sat_call(solver, [], budget)
            budget.spent_conflicts = spent + solver.accum_stats().get("conflicts", 0)  # the real count
            if answer is None:
                return None
            if not answer:
                return False
            move_sets = rc.move_sets(solver.get_model())
            chains = [move_chain(move) for move in move_sets]
            found = [(move.first, chain) for move, chain in zip(move_sets, chains, strict=True) if chain is not None]
            if len(found) == len(move_sets):
                return found
            for move, chain in zip(move_sets, chains, strict=True):
                if chain is None:
                    excluded.add(replace(move, stones=frozenset()))
                    solver.append_formula(rc.exclusion(move))

