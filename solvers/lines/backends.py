"""Solving a line puzzle (:mod:`powertwo.solvers.lines.variants`) to a proven optimum with CP-SAT or
SAT, and certifying the optimum with a DRAT proof.

Backends: ``cp-sat`` (OR-Tools, 8 workers, full LP linearization) and ``sat``
(PySAT: CaDiCaL 1.9.5 in a linear SAT-UNSAT search on the objective bound with an incremental
totalizer; see :mod:`powertwo.models.one_by_one` for why). A time limit or Ctrl-C ends either with the best
answer so far (status ``feasible``, with the bound proven so far), never with nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from powertwo.boards import Board, NodeId
from powertwo.models.cards import cost_bound, without_empty

from ..certify import Certificate, certify_unsat, dimacs
from ..fields import SolutionError
from .variants import STONES, Variant
from ..registry import Progress, no_progress
from ..satcall import Budget, cpsat_sigint, sat_call
from ..status import FEASIBLE, INFEASIBLE, OPTIMAL, UNKNOWN, Status

BACKENDS = ("cp-sat", "sat")
SEARCH_SOLVER = "cadical195"


@dataclass(frozen=True)
class Outcome:
    """What one backend found: status, objective (None if no answer), bound, the stones,
    seconds, and whether Ctrl-C ended the search."""

    status: Status
    objective: int | None
    bound: int | None
    stones: tuple[NodeId, ...]
    seconds: float
    interrupted: bool = False


def solve_cpsat(board: Board, var: Variant, *, stones: int = STONES, symmetry: bool = True,
                time_limit: float | None = None, workers: int = 8) -> Outcome:
    """CP-SAT with ``workers`` search workers (default 8, CP-SAT's full portfolio). Not one per core:
    with 2 workers the portfolio proves the line cover in 57-61 s instead of 0.65 s (1 worker) or
    1.5 s (8), on 2 cores under load 30; Two by Two's 32-stone proof there takes 13 s with 1 worker,
    25 s with 8."""
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    model, x, _ = var.cpsat(board, stones, symmetry)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.linearization_level = 2  # the LP relaxation settles the line cover at once
    solver.parameters.catch_sigint_signal = True  # Ctrl-C ends the search like a time limit
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    with cpsat_sigint(solver):
        status = solver.solve(model)
    seconds = time.perf_counter() - started
    stopped_early = time_limit is None or seconds < time_limit
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        chosen = tuple(v for v in board.nodes if solver.boolean_value(x[v]))
        # the stones may do better than the model's objective ("y -> exactly two" is one-way)
        value = var.objective(board, chosen)
        raw = solver.best_objective_bound
        bound = int(-(-raw // 1)) if var.sense == "min" else int(raw // 1)
        name: Status = OPTIMAL if status == cp_model.OPTIMAL else FEASIBLE
        return Outcome(name, value, value if name == OPTIMAL else bound, chosen, seconds,
                       interrupted=name == FEASIBLE and stopped_early)
    if status == cp_model.INFEASIBLE:
        return Outcome(INFEASIBLE, None, None, (), seconds)
    return Outcome(UNKNOWN, None, None, (), seconds, interrupted=stopped_early)


def solve_sat(board: Board, var: Variant, *, stones: int = STONES, symmetry: bool = True,
              time_limit: float | None = None, progress: Progress = no_progress) -> Outcome:
    """Linear SAT-UNSAT search: find an answer, demand a strictly better one (a unit on the
    incremental totalizer's output), until the solver says there is none."""
    from pysat.card import ITotalizer
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    started = time.perf_counter()
    budget = Budget.seconds(time_limit)
    cnf = var.cnf(board, stones, symmetry)
    pool = IDPool(start_from=cnf.top + 1)
    hard = without_empty(cnf.hard(symmetry), pool)
    best: tuple[int, tuple[NodeId, ...]] | None = None
    status: Status = UNKNOWN
    with Solver(name=SEARCH_SOLVER, bootstrap_with=hard) as solver:
        totalizer = ITotalizer(lits=list(cnf.costs), ubound=len(cnf.costs), top_id=pool.top)
        solver.append_formula(totalizer.cnf.clauses)
        try:
            while True:
                answer = sat_call(solver, (), budget)
                if answer is None:
                    break
                if not answer:
                    status = INFEASIBLE if best is None else OPTIMAL
                    break
                model = set(lit for lit in solver.get_model() if lit > 0)
                chosen = tuple(v for v in board.nodes if cnf.stones[v] in model)
                # the cost the stones achieve (may beat the model's own "y" literals, which are one-way)
                cost = cnf.cost(var.objective(board, chosen))
                best = (cost, chosen)
                progress(f"sat: objective {cnf.objective(cost)}")
                if cost == 0:
                    status = OPTIMAL
                    break
                solver.add_clause([-totalizer.rhs[cost - 1]])
        except KeyboardInterrupt:  # Ctrl-C between two SAT calls
            budget.interrupted = True
            status = UNKNOWN
        totalizer.delete()
    seconds = time.perf_counter() - started
    if best is None:
        return Outcome(status, None, None, (), seconds, budget.interrupted)
    value = cnf.objective(best[0])
    if status == OPTIMAL:
        return Outcome(OPTIMAL, value, value, best[1], seconds)
    return Outcome(FEASIBLE, value, cnf.objective(0), best[1], seconds, budget.interrupted)


def run(board: Board, var: Variant, backend: str, **kw: Any) -> Outcome:
    """One backend's solve (``progress`` reaches the backends that report it)."""
    if backend == "cp-sat":
        kw.pop("progress", None)
        return solve_cpsat(board, var, **kw)
    if backend == "sat":
        return solve_sat(board, var, **kw)
    raise SolutionError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")


def certificate_claim(board: Board, var: Variant, status: str, objective: int | None,
                      stones: int = STONES) -> tuple[str, int | None]:
    """The sentence a certificate proves for a claimed status and objective, and the objective
    the refuted formula demands (None: "any answer at all"). The at-most readings keep the words
    of the certificates made before Two by Two placed an exact count, so those stay valid."""
    placed = f"exactly {stones} stones" if var.exact_stones else f"at most {stones} stones"
    if status == INFEASIBLE:
        return f"{var.family} has no answer on board {board.name} ({placed})", None
    assert objective is not None
    better = objective - 1 if var.sense == "min" else objective + 1
    relation = "at most" if var.sense == "min" else "at least"
    given = f"{placed} and " if var.exact_stones else ""
    return f"no {var.family} answer on board {board.name} with {given}{relation} {better} {var.unit}", better


def certificate_clauses(board: Board, var: Variant, status: str, objective: int | None,
                        stones: int = STONES) -> tuple[str, list[list[int]], list[str], int]:
    """The claim a status and objective need proved, its clauses (the CNF without symmetry
    breaking, plus "an objective strictly better than the claimed one"), the DIMACS comments and
    the top variable."""
    from pysat.formula import IDPool

    cnf = var.cnf(board, stones, symmetry=False)
    pool = IDPool(start_from=cnf.top + 1)
    claim, better = certificate_claim(board, var, status, objective, stones)
    extra = [] if better is None else cost_bound(cnf, cnf.cost(better), pool)
    clauses = without_empty(cnf.hard(symmetry=False) + [list(c) for c in extra], pool)
    comments = [f"powertwo certificate: {claim}", "the CNF is UNSAT; variables:"]
    comments += [f"{v} {text}" for v, text in sorted(cnf.names.items())]
    return claim, clauses, comments, pool.top


def certificate_cnf(board: Board, var: Variant, status: str, objective: int | None,
                    stones: int = STONES) -> tuple[str, str]:
    """The claim and its CNF in DIMACS, without solving (what a certificate's files are checked against)."""
    claim, clauses, comments, top = certificate_clauses(board, var, status, objective, stones)
    return claim, dimacs(clauses, comments, top)


def certify(board: Board, var: Variant, outcome: Outcome, stones: int = STONES) -> Certificate | None:
    """The DRAT certificate of an outcome's "no better answer" (or "no answer at all") claim,
    on the CNF without symmetry breaking; None when there is nothing to certify. The proof is
    CaDiCaL's, trimmed to the lemmas it needs (:func:`powertwo.solvers.certify.refute`)."""
    if outcome.status not in (OPTIMAL, INFEASIBLE):
        return None
    claim, clauses, comments, top = certificate_clauses(board, var, outcome.status, outcome.objective, stones)
    return certify_unsat(clauses, claim, comments, top=top, trimmed=True)
