"""One by One, the line cover, and Two by Two (RULES.md section 5): solved to proven optima
by CP-SAT and by SAT, checked, drawn, and certified.

Registers three puzzles: ``one-by-one``, ``line-cover`` and ``two-by-two`` (option
``strict``). A result object (and a solution file) is::

    {"puzzle", "board", "backend", "status": "optimal"|"feasible"|"infeasible"|"unknown",
     "objective", "bound", "stones": [node ids], "lines_with_two": [line texts] (two-by-two),
     "strict" (two-by-two), "seconds", ...}

Backends: ``cp-sat`` (OR-Tools, 8 workers, full LP linearization) and ``sat`` (PySAT: Glucose 4 in a linear
SAT-UNSAT search on the objective bound with an incremental totalizer; see
:mod:`powertwo.models.one_by_one` for why). With the SAT backend an optimum is also certified: the
claim "no better answer" is refuted by CaDiCaL with a DRAT proof, checked by ``dratify``
(:mod:`powertwo.solvers.certify`), on the CNF without symmetry-breaking clauses.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from powertwo.boards import Board, NodeId
from powertwo.models import one_by_one, two_by_two
from powertwo.models.cards import LineCnf, cost_bound, line_counts, orbit, without_empty

from .certify import Certificate, certify_unsat
from .registry import (
    CheckReport, Progress, Puzzle, ResultRow, SolutionError, no_progress, node_list, register_puzzle, require,
)

BACKENDS = ("cp-sat", "sat")
STATUSES = ("optimal", "feasible", "infeasible", "unknown")
STONES = 32
MAX_ANSWERS = 200_000
"""Enumeration stops (and says so) after this many answers."""
SEARCH_SOLVER = "glucose4"


# ---------------------------------------------------------------------------- variants
@dataclass(frozen=True)
class Variant:
    """One puzzle as solved: ``name`` (the file stem: ``two-by-two-strict``), the registered
    ``puzzle``, whether ``strict``, the objective's ``sense``, and what every line needs."""

    name: str
    puzzle: str
    title: str
    strict: bool
    sense: str  # "min" | "max"
    unit: str

    def cnf(self, board: Board, stones: int, symmetry: bool) -> LineCnf:
        if self.puzzle == "two-by-two":
            return two_by_two.cnf(board, strict=self.strict, stones=stones, symmetry=symmetry)
        return one_by_one.cnf(board, cover=self.puzzle == "line-cover", stones=stones, symmetry=symmetry)

    def cpsat(self, board: Board, stones: int, symmetry: bool):
        if self.puzzle == "two-by-two":
            return two_by_two.cpsat(board, strict=self.strict, stones=stones, symmetry=symmetry)
        return one_by_one.cpsat(board, cover=self.puzzle == "line-cover", stones=stones, symmetry=symmetry)

    def milp(self, board: Board, stones: int):
        if self.puzzle == "two-by-two":
            return two_by_two.milp(board, strict=self.strict, stones=stones)
        return one_by_one.milp(board, cover=self.puzzle == "line-cover", stones=stones)

    def objective(self, board: Board, stones) -> int:
        """The objective recomputed from the stones alone."""
        if self.puzzle == "two-by-two":
            return sum(1 for n in line_counts(board, stones) if n == 2)
        return len(set(stones))

    def line_fault(self, held: int) -> str | None:
        """What is wrong with a line holding ``held`` stones (None when it is fine)."""
        if self.puzzle == "one-by-one" and held != 1:
            return "needs exactly 1"
        if self.puzzle == "line-cover" and held < 1:
            return "needs at least 1"
        if self.puzzle == "two-by-two" and self.strict and held not in (0, 2):
            return "needs 0 or 2"
        return None

    def satisfied(self, held: int) -> bool:
        """Whether a line holding ``held`` stones is one the diagram highlights."""
        if self.puzzle == "two-by-two":
            return held == 2
        return held == 1 if self.puzzle == "one-by-one" else held >= 1

    def better(self, a: int, b: int) -> bool:
        return a < b if self.sense == "min" else a > b


VARIANTS = {
    "one-by-one": Variant("one-by-one", "one-by-one", "One by One", False, "min", "stones"),
    "line-cover": Variant("line-cover", "line-cover", "Line cover (One by One relaxed)", False, "min", "stones"),
    "two-by-two": Variant("two-by-two", "two-by-two", "Two by Two", False, "max", "lines with two"),
    "two-by-two-strict": Variant("two-by-two-strict", "two-by-two", "Two by Two, strict", True, "max",
                                 "lines with two"),
}


def variant(puzzle: str, strict: bool = False) -> Variant:
    if puzzle not in ("one-by-one", "line-cover", "two-by-two"):
        raise SolutionError(f"unknown line puzzle {puzzle!r}")
    if strict and puzzle != "two-by-two":
        raise SolutionError(f"puzzle {puzzle} does not take --strict")
    return VARIANTS["two-by-two-strict" if strict else puzzle]


def stone_limit(value, board: Board) -> int:
    """The ``stones`` option: a number or ``unlimited`` (default 32, RULES.md section 5)."""
    if value is None:
        return STONES
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "unlimited":
            return board.size
        if not text.isdigit():
            raise SolutionError(f"--stones {value!r}: give a number or 'unlimited'")
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SolutionError(f"--stones {value!r}: give a number or 'unlimited'")
    return value


def lines_with_two(board: Board, stones) -> list[str]:
    counts = line_counts(board, stones)
    return [board.line_text(k) for k, n in enumerate(counts) if n == 2]


# ---------------------------------------------------------------------------- solving
@dataclass(frozen=True)
class Outcome:
    """What one backend found: status, objective (None if no answer), bound, the stones,
    and seconds."""

    status: str
    objective: int | None
    bound: int | None
    stones: tuple[NodeId, ...]
    seconds: float


def solve_cpsat(board: Board, var: Variant, *, stones: int = STONES, symmetry: bool = True,
                time_limit: float | None = None, workers: int = 8) -> Outcome:
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    model, x, _ = var.cpsat(board, stones, symmetry)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.linearization_level = 2  # the LP relaxation settles the line cover at once
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    status = solver.solve(model)
    seconds = time.perf_counter() - started
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        chosen = tuple(v for v in board.nodes if solver.boolean_value(x[v]))
        # the stones may do better than the model's objective ("y -> exactly two" is one-way)
        value = var.objective(board, chosen)
        raw = solver.best_objective_bound
        bound = int(-(-raw // 1)) if var.sense == "min" else int(raw // 1)
        name = "optimal" if status == cp_model.OPTIMAL else "feasible"
        return Outcome(name, value, value if name == "optimal" else bound, chosen, seconds)
    if status == cp_model.INFEASIBLE:
        return Outcome("infeasible", None, None, (), seconds)
    return Outcome("unknown", None, None, (), seconds)


class _Deadline:
    """Interrupts a PySAT solver when the time limit runs out."""

    def __init__(self, solver, seconds: float | None) -> None:
        self.timer = None if seconds is None else threading.Timer(max(0.0, seconds), solver.interrupt)

    def __enter__(self):
        if self.timer is not None:
            self.timer.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.timer is not None:
            self.timer.cancel()


def solve_sat(board: Board, var: Variant, *, stones: int = STONES, symmetry: bool = True,
              time_limit: float | None = None, progress: Progress = no_progress) -> Outcome:
    """Linear SAT-UNSAT search: find an answer, demand a strictly better one (a unit on the
    incremental totalizer's output), until the solver says there is none."""
    from pysat.card import ITotalizer
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    started = time.perf_counter()
    cnf = var.cnf(board, stones, symmetry)
    pool = IDPool(start_from=cnf.top + 1)
    hard = without_empty(cnf.hard(symmetry), pool)
    best: tuple[int, tuple[NodeId, ...]] | None = None
    status = "unknown"
    with Solver(name=SEARCH_SOLVER, bootstrap_with=hard) as solver:
        totalizer = ITotalizer(lits=list(cnf.costs), ubound=len(cnf.costs), top_id=pool.top)
        solver.append_formula(totalizer.cnf.clauses)
        deadline = None if time_limit is None else started + time_limit
        with _Deadline(solver, None if deadline is None else max(0.05, deadline - time.perf_counter())):
            while True:
                if deadline is not None and best is not None and time.perf_counter() >= deadline:
                    break  # the timer may have fired between two calls
                answer = solver.solve_limited(expect_interrupt=True)
                if answer is None:
                    break
                if not answer:
                    status = "infeasible" if best is None else "optimal"
                    break
                model = set(lit for lit in solver.get_model() if lit > 0)
                chosen = tuple(v for v in board.nodes if cnf.stones[v] in model)
                # the cost the stones achieve (may beat the model's own "y" literals, which are one-way)
                cost = cnf.cost(var.objective(board, chosen))
                best = (cost, chosen)
                progress(f"sat: objective {cnf.objective(cost)}")
                if cost == 0:
                    status = "optimal"
                    break
                solver.add_clause([-totalizer.rhs[cost - 1]])
        totalizer.delete()
    seconds = time.perf_counter() - started
    if best is None:
        return Outcome(status, None, None, (), seconds)
    value = cnf.objective(best[0])
    if status == "optimal":
        return Outcome("optimal", value, value, best[1], seconds)
    return Outcome("feasible", value, cnf.objective(0), best[1], seconds)


def run(board: Board, var: Variant, backend: str, **kw) -> Outcome:
    if backend == "cp-sat":
        kw.pop("progress", None)
        return solve_cpsat(board, var, **kw)
    if backend == "sat":
        return solve_sat(board, var, **kw)
    raise SolutionError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")


# ---------------------------------------------------------------------------- enumeration
@dataclass(frozen=True)
class Answers:
    """Every optimal answer: ``representatives`` (one per symmetry class, canonical form),
    ``total`` (all answers), and ``complete`` (False when :data:`MAX_ANSWERS` stopped it)."""

    representatives: tuple[tuple[NodeId, ...], ...]
    total: int
    complete: bool
    seconds: float


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
    solver.solve(model, Collect())
    return _answers(board, found, symmetry, len(found) < limit, time.perf_counter() - started)


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
    with Solver(name=SEARCH_SOLVER, bootstrap_with=clauses) as solver:
        while len(found) < limit and solver.solve():
            model = set(lit for lit in solver.get_model() if lit > 0)
            found.append(tuple(v for v in board.nodes if cnf.stones[v] in model))
            solver.add_clause([-x if x in model else x for x in xs])
    return _answers(board, found, symmetry, len(found) < limit, time.perf_counter() - started)


# ---------------------------------------------------------------------------- certificates
def certify(board: Board, var: Variant, outcome: Outcome, stones: int = STONES) -> Certificate | None:
    """The DRAT certificate of an outcome's "no better answer" (or "no answer at all") claim,
    on the CNF without symmetry breaking; None when there is nothing to certify."""
    from pysat.formula import IDPool

    if outcome.status not in ("optimal", "infeasible"):
        return None
    cnf = var.cnf(board, stones, symmetry=False)
    pool = IDPool(start_from=cnf.top + 1)
    if outcome.status == "infeasible":
        extra, claim = [], f"{var.name} has no answer on board {board.name} (at most {stones} stones)"
    else:
        assert outcome.objective is not None  # an optimal outcome has an answer
        better = outcome.objective - 1 if var.sense == "min" else outcome.objective + 1
        extra = cost_bound(cnf, cnf.cost(better), pool)
        relation = "at most" if var.sense == "min" else "at least"
        claim = f"no {var.name} answer on board {board.name} with {relation} {better} {var.unit}"
    clauses = without_empty(cnf.hard(symmetry=False) + [list(c) for c in extra], pool)
    comments = [f"powertwo certificate: {claim}", "the CNF is UNSAT; variables:"]
    comments += [f"{v} {text}" for v, text in sorted(cnf.names.items())]
    return certify_unsat(clauses, claim, comments, top=pool.top)


# ---------------------------------------------------------------------------- solve hook
def result_object(board: Board, var: Variant, backend: str, outcome: Outcome) -> dict:
    out: dict[str, Any] = {
        "puzzle": var.puzzle,
        "board": board.name,
        "backend": backend,
        "status": outcome.status,
        "objective": outcome.objective,
        "bound": outcome.bound,
        "stones": list(outcome.stones),
    }
    if var.puzzle == "two-by-two":
        out["lines_with_two"] = lines_with_two(board, outcome.stones)
        out["strict"] = var.strict
    out["seconds"] = round(outcome.seconds, 3)
    return out


def solve(board: Board, puzzle: str = "one-by-one", *, backend: str = "cp-sat", time_limit: float | None = None,
          all_solutions: bool = False, strict: bool = False, symmetry: bool = True, proof: str | None = None,
          stones=None, progress: Progress = no_progress) -> dict:
    """Solve a line puzzle: the result object (see the module docstring)."""
    var = variant(puzzle, bool(strict))
    limit = stone_limit(stones, board)
    if backend not in BACKENDS:
        raise SolutionError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if proof is not None and backend != "sat":
        raise SolutionError("--proof needs --backend sat (the DRAT proof comes from the SAT solver)")
    if time_limit is not None and time_limit <= 0:
        raise SolutionError(f"--time-limit {time_limit}: must be positive")
    outcome = run(board, var, backend, stones=limit, symmetry=symmetry, time_limit=time_limit, progress=progress)
    out = result_object(board, var, backend, outcome)
    if limit != STONES:
        out["stone_limit"] = limit
    out["symmetry_breaking"] = bool(symmetry)
    if all_solutions and outcome.status == "optimal" and outcome.objective is not None:
        enum = enumerate_cpsat if backend == "cp-sat" else enumerate_sat
        answers = enum(board, var, outcome.objective, stones=limit, symmetry=symmetry)
        out.update(answer_fields(answers))
    if proof is not None:
        cert = certify(board, var, outcome, limit)
        if cert is None:
            raise SolutionError(f"--proof: nothing to prove, the status is {outcome.status}")
        Path(proof).write_text(cert.proof, encoding="utf-8")
        out["certified"] = cert.verified
        out["certificate"] = cert.summary() | {"proof": str(proof)}
    return out


def answer_fields(answers: Answers) -> dict:
    out: dict[str, Any] = {
        "optimal_answers": answers.total,
        "optimal_answers_up_to_symmetry": len(answers.representatives),
    }
    if not answers.complete:
        out["optimal_answers_complete"] = False
    out["answers_up_to_symmetry"] = [list(s) for s in answers.representatives]
    return out


def _solve_hook(name: str) -> Callable[..., dict]:
    def hook(board: Board, **options) -> dict:
        return solve(board, name, **options)

    hook.__doc__ = f"Solve {name} (see :func:`solve`)."
    return hook


# ---------------------------------------------------------------------------- checker
CHECK_TIME_LIMIT = 60.0
"""Seconds the checker's own CP-SAT solve may take."""


@lru_cache(maxsize=32)
def confirmed(board: Board, var: Variant, stones: int) -> Outcome:
    """The checker's own solve (CP-SAT, symmetry breaking on), cached per board and variant."""
    return solve_cpsat(board, var, stones=stones, symmetry=True, time_limit=CHECK_TIME_LIMIT)


@lru_cache(maxsize=32)
def confirmed_by_sat(board: Board, var: Variant, stones: int) -> Outcome:
    return solve_sat(board, var, stones=stones, symmetry=True, time_limit=CHECK_TIME_LIMIT)


@lru_cache(maxsize=32)
def confirmed_certificate(board: Board, var: Variant, stones: int, outcome: Outcome) -> Certificate | None:
    return certify(board, var, outcome, stones)


@lru_cache(maxsize=32)
def confirmed_answers(board: Board, var: Variant, stones: int, optimum: int) -> Answers:
    return enumerate_cpsat(board, var, optimum, stones=stones, symmetry=True)


def _int_field(data: Mapping, key: str, where: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SolutionError(f"{where}: field '{key}' must be an integer or null")
    return value


def check(data: Mapping, board: Board) -> CheckReport:
    """Check a line-puzzle solution without trusting any field that can be recomputed."""
    if not isinstance(data, Mapping):
        raise SolutionError("solution: not a JSON object")
    puzzle = require(data, "puzzle", str, "solution")
    where = f"{puzzle} solution"
    strict = bool(require(data, "strict", bool, where)) if "strict" in data else False
    var = variant(puzzle, strict)
    stones = node_list(data, "stones", board, where)
    limit = STONES if "stone_limit" not in data else stone_limit(_int_field(data, "stone_limit", where), board)
    status = data.get("status")
    if status is not None and status not in STATUSES:
        raise SolutionError(f"{where}: field 'status' must be one of {', '.join(STATUSES)}")
    claimed = _int_field(data, "objective", where)
    bound = _int_field(data, "bound", where)
    claimed_lines = None
    if var.puzzle == "two-by-two" and "lines_with_two" in data:
        claimed_lines = []
        texts = {board.line_text(k): k for k in range(len(board.lines))}
        for text in require(data, "lines_with_two", list, where):
            if not isinstance(text, str) or text not in texts:
                raise SolutionError(f"{where}: field 'lines_with_two': {text!r} is not a line of board {board.name}")
            claimed_lines.append(texts[text])

    faults: list[str] = []
    notes: list[str] = []
    for v in sorted({v for v in stones if stones.count(v) > 1}):
        faults.append(f"node {board.label(v)} is listed {stones.count(v)} times")
    stone_set = sorted(set(stones))
    if len(stone_set) > limit:
        faults.append(f"{len(stone_set)} stones, at most {limit} allowed")
    counts = line_counts(board, stone_set)
    for k, held in enumerate(counts):
        need = var.line_fault(held)
        if need:
            faults.append(f"line {board.line_text(k)} holds {held} stone{'' if held == 1 else 's'}, {need}")
    value = var.objective(board, stone_set)
    if status == "infeasible":
        if stone_set:
            faults.append("claims infeasible, but lists stones")
    elif claimed is None and status in ("optimal", "feasible"):
        faults.append(f"claims status {status} without an objective (the stones give {value})")
    elif claimed is not None and claimed != value:
        faults.append(f"claims objective {claimed}, the stones give {value}")
    if claimed_lines is not None:
        for k in sorted(set(claimed_lines)):
            if counts[k] != 2:
                faults.append(f"lines_with_two lists line {board.line_text(k)}, which holds {counts[k]} stones")
        for k, held in enumerate(counts):
            if held == 2 and k not in claimed_lines:
                faults.append(f"line {board.line_text(k)} holds exactly 2 stones, missing from lines_with_two")

    needs_solve = status in ("optimal", "infeasible") or bound is not None or "optimal_answers" in data \
        or bool(data.get("certified"))
    if needs_solve:
        own = confirmed(board, var, limit)
        if own.status in ("optimal", "infeasible"):
            _confirm(data, board, var, limit, own, status, value, bound, faults, notes)
        else:
            if status in ("optimal", "infeasible") or "optimal_answers" in data or data.get("certified"):
                faults.append(f"cannot confirm the claims: the checker's cp-sat solve ended {own.status} "
                              f"after {CHECK_TIME_LIMIT:g} s")
            if bound is not None and own.status == "feasible":
                _check_bound(var, own, bound, faults, notes)
            elif bound is not None:
                notes.append(f"bound {bound} not decided: cp-sat found no answer in {CHECK_TIME_LIMIT:g} s")
    return CheckReport(tuple(faults), tuple(notes))


def _check_bound(var: Variant, own: Outcome, bound: int, faults: list[str], notes: list[str]) -> None:
    """A claimed bound against the checker's own: the optimum lies between ``own.objective``
    (an answer found) and ``own.bound`` (proven)."""
    word = "lower" if var.sense == "min" else "upper"
    if own.objective is None or own.bound is None:
        notes.append(f"{word} bound {bound} not decided: cp-sat found no answer")
    elif var.better(own.objective, bound):
        faults.append(f"claims {word} bound {bound}, but cp-sat finds an answer with objective {own.objective}")
    elif not var.better(own.bound, bound):
        notes.append(f"{word} bound {bound} confirmed by cp-sat (proven bound {own.bound})")
    else:
        notes.append(f"{word} bound {bound} not decided: cp-sat puts the optimum between "
                     f"{min(own.objective, own.bound)} and {max(own.objective, own.bound)}")


def _confirm(data: Mapping, board: Board, var: Variant, limit: int, own: Outcome, status, value: int,
             bound: int | None, faults: list[str], notes: list[str]) -> None:
    where = f"{var.puzzle} solution"
    if status == "infeasible":
        if own.status == "infeasible":
            notes.append(f"infeasibility confirmed by cp-sat ({own.seconds:.2f} s)")
        else:
            faults.append(f"claims infeasible, but cp-sat finds an answer with objective {own.objective}")
        return
    if own.status == "infeasible":
        faults.append("cp-sat proves the puzzle has no answer on this board")
        return
    opt = own.objective
    if status == "optimal":
        if value == opt and not faults:
            notes.append(f"optimality confirmed by cp-sat: the optimum is {opt} ({own.seconds:.2f} s)")
        elif value != opt:
            faults.append(f"claims optimal, but cp-sat proves the optimum is {opt} (the stones give {value})")
    if bound is not None:
        _check_bound(var, own, bound, faults, notes)
    if "optimal_answers" in data:
        total = _int_field(data, "optimal_answers", where)
        answers = confirmed_answers(board, var, limit, opt)
        classes = _int_field(data, "optimal_answers_up_to_symmetry", where) if \
            "optimal_answers_up_to_symmetry" in data else None
        if total != answers.total:
            faults.append(f"claims {total} optimal answers, there are {answers.total}")
        elif classes is not None and classes != len(answers.representatives):
            faults.append(f"claims {classes} optimal answers up to symmetry, there are {len(answers.representatives)}")
        else:
            notes.append(f"answer count {answers.total} ({len(answers.representatives)} up to symmetry) "
                         f"confirmed by cp-sat enumeration")
        if "answers_up_to_symmetry" in data:
            listed = require(data, "answers_up_to_symmetry", list, where)
            reps = set(answers.representatives)
            for k, entry in enumerate(listed):
                if not isinstance(entry, list):
                    raise SolutionError(f"{where}: field 'answers_up_to_symmetry' entry {k} must be a list of nodes")
                nodes = node_list({"answer": entry}, "answer", board, where)
                if tuple(sorted(set(nodes))) not in reps:
                    faults.append(f"answers_up_to_symmetry entry {k} is not a canonical optimal answer")
            if len(listed) != len(reps):
                faults.append(f"answers_up_to_symmetry lists {len(listed)} answers, there are {len(reps)}")
    if "sat" in data.get("backends_agreeing", ()):
        sat = confirmed_by_sat(board, var, limit)
        if sat.status not in ("optimal", "infeasible"):
            faults.append(f"cannot confirm backends_agreeing: the checker's sat solve ended {sat.status} "
                          f"after {CHECK_TIME_LIMIT:g} s")
        elif (sat.status, sat.objective) != (own.status, own.objective):
            faults.append(f"claims the backends agree, but sat ends {sat.status} {sat.objective}, "
                          f"cp-sat {own.status} {own.objective}")
        else:
            notes.append(f"sat agrees: {sat.status} {sat.objective} ({sat.seconds:.2f} s)")
    if data.get("certified"):
        cert = confirmed_certificate(board, var, limit, own)
        claimed = data.get("certificate")
        if cert is None or not cert.verified:
            faults.append("claims certified, but the checker's own DRAT proof was not accepted")
        elif isinstance(claimed, Mapping) and claimed.get("cnf_sha256", cert.cnf_sha256) != cert.cnf_sha256:
            faults.append("certificate cnf_sha256 does not match the CNF of the claim")
        else:
            notes.append(f"certificate re-derived: {cert.claim}; dratify: {cert.verdict}")


# ---------------------------------------------------------------------------- diagrams
def fault_kind(var: Variant, held: int) -> str | None:
    """How a line holding ``held`` stones breaks the puzzle's rule, as a diagram marks it:
    ``"none"``, ``"too few"``, ``"too many"`` (None: the line is fine)."""
    if var.line_fault(held) is None:
        return None
    if held == 0:
        return "none"
    return "too few" if held < (2 if var.puzzle == "two-by-two" else 1) else "too many"


def diagram_spec(var: Variant, board: Board, stones: Sequence[NodeId], status: str = "") -> dict:
    """Keyword arguments of ``draw_on`` for one answer: its stones, the lines that satisfy the
    puzzle highlighted, and every line that breaks it marked by its fault (the file is not
    trusted: both are recomputed from the stones)."""
    from powertwo.boards.diagram import LineMark, Stone

    counts = line_counts(board, stones)
    good = [k for k, n in enumerate(counts) if var.satisfied(n)]
    faults = [LineMark(k, kind) for k, n in enumerate(counts) if (kind := fault_kind(var, n)) is not None]
    title = (f"{var.title}: {len(stones)} stones, {len(good)} of {len(board.lines)} lines "
             f"{'with two' if var.puzzle == 'two-by-two' else 'covered'}")
    if faults:
        title += f"; WRONG: {len(faults)} line{'s' if len(faults) != 1 else ''} break the rule"
    if status:
        title += f" ({status})"
    wanted = {"one-by-one": "exactly one stone", "line-cover": "at least one stone",
              "two-by-two": "exactly two stones"}[var.puzzle]
    return {"stones": [Stone(v, "dark") for v in stones], "highlight": good, "lines": faults, "title": title,
            "legend": {"dark": "stone", "highlight": f"red line: a line with {wanted}",
                       "too many": "purple line: too many stones for the rule",
                       "too few": "orange dashed line: too few stones for the rule",
                       "none": "grey dotted line: no stone, the rule wants one",
                       "ids": "small numbers: node ids"}}


def diagram(data: Mapping, board: Board, *, ids: bool | None = None, all_answers: bool = False):
    """The answer (or, with ``all_answers``, every optimal answer the file lists) with the lines
    that satisfy the puzzle highlighted and the faulty lines marked; node ids are written
    unless ``ids`` is False (default: on for one answer, off for the many small panels)."""
    from powertwo.boards.draw import figure, panels

    puzzle = require(data, "puzzle", str, "solution")
    where = f"{puzzle} solution"
    strict = bool(require(data, "strict", bool, where)) if "strict" in data else False
    var = variant(puzzle, strict)
    status = str(data.get("status", ""))
    if all_answers:
        if "answers_up_to_symmetry" not in data:
            raise SolutionError(f"{where}: --all needs the field 'answers_up_to_symmetry' "
                                f"(solve with --all to list every optimal answer)")
        representatives = require(data, "answers_up_to_symmetry", list, where)
        every: list[tuple[int, tuple[NodeId, ...]]] = []  # (orbit number, answer): each orbit drawn in full
        for i, raw in enumerate(representatives, start=1):
            stones = node_list({"stones": raw}, "stones", board, f"{where}: answer {i}")
            every += [(i, answer) for answer in sorted(orbit(board, sorted(set(stones))))]
        frames = []
        for k, (i, answer) in enumerate(every, start=1):
            spec = diagram_spec(var, board, answer)
            spec["title"] = f"answer {k} of {len(every)} (class {i}): {len(answer)} stones"
            spec["ids"] = bool(ids)
            frames.append(spec)
        return panels(board, frames, columns=min(5, len(frames)), panel_px=340)
    stones = sorted(set(node_list(data, "stones", board, where)))
    return figure(board, ids=ids is not False, **diagram_spec(var, board, stones, status))


# ---------------------------------------------------------------------------- main job
def results(out: Path, progress: Progress, board_name: str = "power-of-two",
            names: tuple[str, ...] = tuple(VARIANTS)) -> list[ResultRow]:
    """Solve every variant with both backends, enumerate its optima, certify them, check the
    written file with :func:`check`, and draw it."""
    from powertwo.boards import load
    from powertwo.boards.draw import save

    board = load(board_name)
    _ = board.symmetries  # the symmetry group (networkx) is computed once, outside the timings
    rows = []
    for name in names:
        var = VARIANTS[name]
        cp = solve_cpsat(board, var)
        progress(f"{name}: cp-sat {cp.status} {cp.objective} in {cp.seconds:.2f} s")
        sat = solve_sat(board, var)
        progress(f"{name}: sat {sat.status} {sat.objective} in {sat.seconds:.2f} s")
        agree = cp.status == sat.status and cp.objective == sat.objective
        data = result_object(board, var, "cp-sat", cp)
        data["backends_agreeing"] = ["cp-sat", "sat"] if agree else ["cp-sat"]
        data["sat"] = {"status": sat.status, "objective": sat.objective, "seconds": round(sat.seconds, 3)}
        files = []
        answers_text = "-"
        if cp.status == "optimal" and cp.objective is not None:
            answers = enumerate_cpsat(board, var, cp.objective)
            check_sat = enumerate_sat(board, var, cp.objective)
            progress(f"{name}: {answers.total} optimal answers, {len(answers.representatives)} up to symmetry "
                     f"({answers.seconds:.2f} s; sat enumeration {check_sat.total})")
            data.update(answer_fields(answers))
            data["answer_count_backends_agreeing"] = answers.total == check_sat.total and \
                answers.representatives == check_sat.representatives
            answers_text = f"{answers.total} ({len(answers.representatives)})"
        cert = certify(board, var, cp)
        data["certified"] = bool(cert and cert.verified)
        if cert is not None:
            (out / f"{name}.cnf").write_text(cert.cnf, encoding="utf-8")
            (out / f"{name}.drat").write_text(cert.proof, encoding="utf-8")
            data["certificate"] = cert.summary() | {"cnf": f"{name}.cnf", "proof": f"{name}.drat"}
            files += [f"{name}.cnf", f"{name}.drat"]
            progress(f"{name}: certificate {cert.verdict} ({cert.check_seconds:.2f} s)")
        report = check(data, board)
        data["check"] = "valid" if report.valid else "; ".join(report.faults)
        data["check_notes"] = list(report.notes)
        path = out / f"{name}.json"
        path.write_text(dumps(data), encoding="utf-8")
        for ext in ("svg", "png"):
            save(diagram(data, board), out / f"{name}.{ext}")
        files = [f"{name}.json", f"{name}.svg", f"{name}.png"] + files
        status = cp.status + (", certified (DRAT, dratify)" if data["certified"] else "")
        if not report.valid:
            status += ", CHECK FAILED"
        rows.append(ResultRow(puzzle=var.puzzle, variant="strict" if var.strict else "-",
                              optimum="-" if cp.objective is None else f"{cp.objective} {var.unit}",
                              status=status, backends=", ".join(data["backends_agreeing"]),
                              answers=answers_text, seconds=cp.seconds, files=tuple(files)))
    return rows


def dumps(data: Mapping) -> str:
    """JSON with one indent level per object, lists of node ids kept on one line."""
    text = json.dumps(data, indent=1)
    return re.sub(r"\[\s+([-\d,\s]+?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text) + "\n"


def _results_hook(*names: str) -> Callable[[Path, Progress], list[ResultRow]]:
    def hook(out: Path, progress: Progress) -> list[ResultRow]:
        return results(out, progress, names=names)

    return hook


SOLVE_OPTIONS = ("backend", "time_limit", "all_solutions", "symmetry", "proof", "stones")

register_puzzle(Puzzle(name="one-by-one", title="One by One", solve=_solve_hook("one-by-one"), check=check,
                       diagram=diagram, results=_results_hook("one-by-one"), options=SOLVE_OPTIONS, order=10,
                       draw_options=("ids", "all_answers")))
register_puzzle(Puzzle(name="line-cover", title="Line cover (One by One relaxed)", solve=_solve_hook("line-cover"),
                       check=check, diagram=diagram, results=_results_hook("line-cover"), options=SOLVE_OPTIONS,
                       order=11, draw_options=("ids", "all_answers")))
register_puzzle(Puzzle(name="two-by-two", title="Two by Two", solve=_solve_hook("two-by-two"), check=check,
                       diagram=diagram, results=_results_hook("two-by-two", "two-by-two-strict"),
                       options=SOLVE_OPTIONS + ("strict",), order=12, draw_options=("ids", "all_answers")))


# ---------------------------------------------------------------------------- exports
EXPORT_FORMATS = ("dimacs", "wcnf", "cpsat", "graphml")


def export_text(board: Board, puzzle: str, fmt: str, *, strict: bool = False, stones=None, symmetry: bool = False,
                bound: int | None = None) -> str:
    """The text of ``powertwo export``: the SAT encoding as DIMACS CNF (with ``bound``: the
    decision "objective at least as good as ``bound``") or as WCNF (hard clauses plus one
    weight-1 soft clause per objective literal), the CP-SAT model as protobuf text, or the
    board as GraphML. Symmetry-breaking clauses are left out unless ``symmetry``."""
    if fmt not in EXPORT_FORMATS:
        raise SolutionError(f"unknown export format {fmt!r} (known: {', '.join(EXPORT_FORMATS)})")
    if fmt == "graphml":
        return board.to_graphml() + "\n"
    var = variant(puzzle, strict)
    limit = stone_limit(stones, board)
    if fmt == "cpsat":
        model, _, _ = var.cpsat(board, limit, symmetry)
        return str(model.proto)
    from pysat.formula import IDPool

    from .certify import dimacs

    cnf = var.cnf(board, limit, symmetry)
    pool = IDPool(start_from=cnf.top + 1)
    goal = ("minimise" if var.sense == "min" else "maximise") + f" the {var.unit}"
    head = [f"powertwo {var.name} on board {board.name} (at most {limit} stones)",
            f"objective: {goal} = {cnf.offset} {'+' if cnf.sign > 0 else '-'} (number of true cost literals)",
            "cost literals: " + " ".join(map(str, cnf.costs)),
            f"symmetry-breaking clauses: {'included' if symmetry else 'not included'}"]
    clauses = cnf.hard(symmetry)
    if fmt == "dimacs" and bound is not None:
        clauses += [list(c) for c in cost_bound(cnf, cnf.cost(bound), pool)]
        head.append(f"bound: objective {'at most' if var.sense == 'min' else 'at least'} {bound}")
    clauses = without_empty(clauses, pool)
    head += ["variables:"] + [f"{v} {text}" for v, text in sorted(cnf.names.items())]
    if fmt == "dimacs":
        return dimacs(clauses, head, top=pool.top)
    if bound is not None:
        raise SolutionError("--bound applies to --format dimacs only")
    top_weight = len(cnf.costs) + 1
    nv = max([pool.top] + [abs(lit) for c in clauses for lit in c])
    out = [f"c {line}" for line in head]
    out.append(f"p wcnf {nv} {len(clauses) + len(cnf.costs)} {top_weight}")
    out += [f"{top_weight} " + " ".join(map(str, c)) + " 0" for c in clauses]
    out += [f"1 {-lit} 0" for lit in cnf.costs]
    return "\n".join(out) + "\n"
