"""Every optimal answer of a line puzzle, by CP-SAT and (as a cross-check) by SAT, counted per
symmetry class; the canonical answer a result file commits to."""

from __future__ import annotations

import time
from dataclasses import dataclass

from powertwo.boards import Board, NodeId
from powertwo.models.cards import cost_bound, orbit, without_empty

from .variants import STONES, Variant
from ..satcall import Budget, cpsat_sigint, sat_call

MAX_ANSWERS = 200_000
"""Enumeration stops (and says so) after this many answers."""
SEARCH_SOLVER = "glucose4"


@dataclass(frozen=True)
class Answers:
    """Every optimal answer: ``representatives`` (one per symmetry class, each the least member
    of its class, sorted), ``total`` (all answers), and ``complete`` (False when
    :data:`MAX_ANSWERS` or Ctrl-C stopped it)."""

    representatives: tuple[tuple[NodeId, ...], ...]
    total: int
    complete: bool
    seconds: float

    @property
    def canonical(self) -> tuple[NodeId, ...] | None:
        """The answer a result file commits to, whichever solver ran: the least answer of the
        least symmetry class (the same on every run and machine)."""
        return self.representatives[0] if self.representatives else None


def _answers(board: Board, found: list[tuple[NodeId, ...]], symmetry: bool, complete: bool,
             seconds: float) -> Answers:
    reps = sorted({board.canonical(s) for s in found})
    # with lex-leader clauses exactly one member of each class was found: count the orbits
    total = sum(len(orbit(board, s)) for s in reps) if symmetry else len(set(found))
    return Answers(tuple(reps), total, complete, seconds)


def enumerate_cpsat(board: Board, var: Variant, optimum: int, *, stones: int = STONES,
                    symmetry: bool = True, limit: int = MAX_ANSWERS) -> Answers:
    """Every answer with objective ``optimum`` (one per symmetry class when ``symmetry``)."""
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    model, x, objective = var.cpsat(board, stones, symmetry)
    model.clear_objective()
    model.add(objective == optimum)
    found: list[tuple[NodeId, ...]] = []
    seen: set[tuple[NodeId, ...]] = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            s = tuple(v for v in board.nodes if self.boolean_value(x[v]))
            if s not in seen:
                seen.add(s)
                found.append(s)
                if len(found) >= limit:
                    self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.linearization_level = 2
    solver.parameters.catch_sigint_signal = True
    with cpsat_sigint(solver):
        status = solver.solve(model, Collect())
    done = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and len(found) < limit
    return _answers(board, found, symmetry, done, time.perf_counter() - started)


def enumerate_sat(board: Board, var: Variant, optimum: int, *, stones: int = STONES,
                  symmetry: bool = True, limit: int = MAX_ANSWERS) -> Answers:
    """The same by SAT: the objective bound fixed at the optimum, each answer blocked in turn."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    started = time.perf_counter()
    cnf = var.cnf(board, stones, symmetry)
    pool = IDPool(start_from=cnf.top + 1)
    clauses = without_empty(cnf.hard(symmetry) + [list(c) for c in cost_bound(cnf, cnf.cost(optimum), pool)], pool)
    found: list[tuple[NodeId, ...]] = []
    xs = [cnf.stones[v] for v in board.nodes]
    budget = Budget()
    complete = True
    with Solver(name=SEARCH_SOLVER, bootstrap_with=clauses) as solver:
        while len(found) < limit:
            answer = sat_call(solver, (), budget)
            if not answer:
                complete = answer is False
                break
            model = set(lit for lit in solver.get_model() if lit > 0)
            found.append(tuple(v for v in board.nodes if cnf.stones[v] in model))
            solver.add_clause([-x if x in model else x for x in xs])
    return _answers(board, found, symmetry, complete and len(found) < limit, time.perf_counter() - started)
