"""Solving That's My Line solitaire: the final position of a legal game with the most stones from
a model (:mod:`powertwo.models.thats_my_line`), proven optimal by CP-SAT (status OPTIMAL) or by
SAT (unsatisfiable with one stone more), turned into a game record the referee replays. With a
score (:mod:`.score`), the same model answers whether a legal game ends with it: a game, or a
proof that none exists (CP-SAT INFEASIBLE, SAT unsatisfiable; DRAT-certified on request)."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from powertwo.boards import Board
from powertwo.models.thats_my_line import FinalPosition, Supply, cp_sat_model, final_from_values, sat_model

from ..fields import board_fields, seconds_value
from ..registry import Progress, SolutionError, no_progress
from ..satcall import Budget, cpsat_sigint, sat_call
from .certificate import Claim, write_certificate
from .game import BACKENDS, PUZZLE, SAT_SOLVER, game_fields, supply_of, supply_text, trivial_bound
from .score import Score, certificate_paths, fitting_score
from ..status import FEASIBLE, INFEASIBLE, OPTIMAL, UNKNOWN

# ---------------------------------------------------------------------------- backends
def _run_cp_sat(model: Any, time_limit: float | None) -> tuple[Any, Any]:
    """CP-SAT on ``model`` with two workers, stopped by the time limit or Ctrl-C: (solver, status)."""
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    solver.parameters.catch_sigint_signal = True  # Ctrl-C ends the search like a time limit
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    with cpsat_sigint(solver):
        code = solver.solve(model)
    return solver, code


def _solve_cp_sat(board: Board, supply: Supply, time_limit: float | None, symmetry: bool,
                  progress: Progress = no_progress) -> dict[str, Any]:
    # progress: unread (one CP-SAT call), taken as _solve_sat takes it: solve calls either alike
    from ortools.sat.python import cp_model

    cm = cp_sat_model(board, supply, symmetry=symmetry)
    solver, code = _run_cp_sat(cm.model, time_limit)
    name = solver.status_name(code)
    bound = trivial_bound(board, supply)
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.UNKNOWN):
        bound = min(bound, math.floor(solver.best_objective_bound + 1e-9))
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return {"status": UNKNOWN if code == cp_model.UNKNOWN else name.lower(), "final": None,
                "bound": bound, "solver_status": name}
    final = final_from_values(board, lambda n: solver.boolean_value(cm.variables[n]))
    out = {"status": OPTIMAL if code == cp_model.OPTIMAL else FEASIBLE, "final": final,
           "bound": bound, "solver_status": name}
    if code == cp_model.FEASIBLE and (time_limit is None or solver.wall_time < time_limit):
        out["stopped"] = "interrupted (Ctrl-C)"
    return out


def _solve_sat(board: Board, supply: Supply, time_limit: float | None, symmetry: bool,
               progress: Progress = no_progress) -> dict[str, Any]:
    """Linear search upwards: find a legal final position, then ask for one stone more, until the
    solver proves that none exists (the optimum's upper bound)."""
    from pysat.solvers import Solver

    sm = sat_model(board, supply, symmetry=symmetry)
    budget = Budget.seconds(time_limit)
    calls: list[dict[str, Any]] = []
    final: FinalPosition | None = None
    bound = trivial_bound(board, supply)
    status = UNKNOWN
    with Solver(name=SAT_SOLVER, bootstrap_with=sm.clauses) as solver:
        want = 0
        try:
            while True:
                if want > len(sm.at_least):
                    status = OPTIMAL  # no count above the number of nodes exists
                    bound = len(sm.at_least)
                    break
                started = time.perf_counter()
                answer = sat_call(solver, [sm.at_least[want - 1]] if want else [], budget)
                calls.append({"at_least": want, "answer": {True: "sat", False: "unsat", None: budget.reason}[answer],
                              "seconds": round(time.perf_counter() - started, 3)})
                if answer is None:
                    status = FEASIBLE if final is not None else UNKNOWN
                    break
                if answer is False:
                    status = OPTIMAL if final is not None else INFEASIBLE
                    bound = want - 1
                    break
                final = final_from_values(board, sm.value_reader(solver.get_model()))
                want = final.total + 1
                progress(f"sat: a legal game ends with {final.total} stones; asking for {want}")
        except KeyboardInterrupt:  # Ctrl-C between two SAT calls
            budget.interrupted = True
            status = FEASIBLE if final is not None else UNKNOWN
    out = {"status": status, "final": final, "bound": bound, "calls": calls, "sat_solver": SAT_SOLVER}
    if budget.interrupted:
        out["stopped"] = budget.reason
    return out


# ---------------------------------------------------------------------------- score
def _score_cp_sat(board: Board, supply: Supply, score: Score, time_limit: float | None,
                  symmetry: bool) -> dict[str, Any]:
    """CP-SAT on the model with ``l = L``, ``d = D`` and no objective: OPTIMAL (a model without an
    objective is solved when one solution is found) or FEASIBLE give a game, INFEASIBLE the proof."""
    from ortools.sat.python import cp_model

    cm = cp_sat_model(board, supply, symmetry=symmetry, score=score.pair)
    solver, code = _run_cp_sat(cm.model, time_limit)
    out: dict[str, Any] = {"status": UNKNOWN, "final": None, "solver_status": solver.status_name(code)}
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        out.update(status=FEASIBLE, final=final_from_values(board, lambda n: solver.boolean_value(cm.variables[n])))
    elif code == cp_model.INFEASIBLE:
        out["status"] = INFEASIBLE
    elif time_limit is None or solver.wall_time < time_limit:
        out["stopped"] = "interrupted (Ctrl-C)"
    else:
        out["stopped"] = "time limit"
    return out


def _score_sat(board: Board, supply: Supply, score: Score, time_limit: float | None,
               symmetry: bool) -> dict[str, Any]:
    """One SAT call under the assumptions "exactly L Light and D Dark stones"."""
    from pysat.solvers import Solver

    sm = sat_model(board, supply, symmetry=symmetry)
    budget = Budget.seconds(time_limit)
    with Solver(name=SAT_SOLVER, bootstrap_with=sm.clauses) as solver:
        try:
            answer = sat_call(solver, sm.score_literals(score.pair), budget)
        except KeyboardInterrupt:
            budget.interrupted, answer = True, None
        final = final_from_values(board, sm.value_reader(solver.get_model())) if answer else None
    out: dict[str, Any] = {"status": {True: FEASIBLE, False: INFEASIBLE, None: UNKNOWN}[answer],
                           "final": final, "sat_solver": SAT_SOLVER}
    if answer is None:
        out["stopped"] = budget.reason
    return out


# ---------------------------------------------------------------------------- solve
def solve(board: Board, backend: str = "cp-sat", stones: Any = 16, time_limit: float | None = None,
          symmetry: bool = True, score: Any = None, proof: str | None = None,
          progress: Progress = no_progress) -> dict[str, Any]:
    """The most stones a legal That's My Line game can end with, with its game record; with
    ``score`` (``"19:16"``: Light's and Dark's stones at the end), a legal game that ends so, or
    the proof that none does.

    ``status`` is ``optimal`` when the backend proved that ``bound`` (= ``objective``) stones is
    the most; ``feasible`` when the time limit ran out first (``bound`` the best proven). With a
    score: ``feasible`` (the record is a game that ends so), ``infeasible`` (proven: none does) or
    ``unknown`` (the time limit ran out first). ``proof`` (``NAME.drat.gz``) writes the DRAT
    certificate of the proven optimum or of the unreachable score, its CNF beside it
    (``NAME.cnf.gz``); the result names both."""
    if backend not in BACKENDS:
        raise SolutionError(f"{PUZZLE}: unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    time_limit = seconds_value(time_limit)
    supply = supply_of(stones)
    wanted = None if score is None else fitting_score(score, board, supply)
    files = None if proof is None else certificate_paths(proof)
    started = time.perf_counter()
    if wanted is None:
        progress(f"{PUZZLE} ({supply_text(supply)} stones): {backend}")
        run = (_solve_cp_sat if backend == "cp-sat" else _solve_sat)(board, supply, time_limit, bool(symmetry),
                                                                      progress)
    else:
        progress(f"{PUZZLE} ({supply_text(supply)} stones): a game that ends {wanted.text}, {backend}")
        run = (_score_cp_sat if backend == "cp-sat" else _score_sat)(board, supply, wanted, time_limit,
                                                                      bool(symmetry))
    seconds = time.perf_counter() - started
    final: FinalPosition | None = run.pop("final")
    result: dict[str, Any] = {"puzzle": PUZZLE, **board_fields(board), "stones": supply_text(supply)}
    if wanted is None:
        result.update({"backend": backend, "symmetry": bool(symmetry), "status": run.pop("status"),
                       "objective": None if final is None else final.total, "bound": run.pop("bound")})
    else:
        result.update({"score": wanted.to_json(), "backend": backend, "symmetry": bool(symmetry),
                       "status": run.pop("status")})
    if final is not None:
        result.update(game_fields(board, supply, final))
    result["seconds"] = round(seconds, 3)
    result.update(run)
    if files is not None:
        result.update(_certificate(board, supply, result, wanted, files, progress))
    return result


def _certificate(board: Board, supply: Supply, result: dict[str, Any], score: Score | None, files: tuple[Path, Path],
                 progress: Progress) -> dict[str, Any]:
    """``--proof``: the DRAT certificate of the result's proof, written to ``files`` (CNF, proof)
    and named in the fields ``certified`` and ``certificate``; nothing when nothing was proven."""
    claim: Claim | None = None
    if score is not None and result["status"] == INFEASIBLE:
        claim = score
    elif score is None and result["status"] == OPTIMAL:
        claim = result["objective"]
    if claim is None:
        progress(f"--proof: nothing to certify (status {result['status']}); no file written")
        return {}
    progress(f"{PUZZLE}: certifying (CaDiCaL proof, dratify check)")
    return write_certificate(board, supply, claim, *files)[1]


def optimal_splits(board: Board, supply: Supply, optimum: int) -> list[tuple[int, int]]:
    """Every (Light, Dark) count of a legal final position with ``optimum`` stones (SAT)."""
    from pysat.solvers import Solver

    sm = sat_model(board, supply, symmetry=True)
    out = []
    with Solver(name=SAT_SOLVER, bootstrap_with=sm.clauses) as solver:
        for n_light in range(0, optimum + 1):
            n_dark = optimum - n_light
            if n_light > len(sm.light_at_least) or n_dark > len(sm.dark_at_least):
                continue
            assume = [sm.at_least[optimum - 1]]
            assume += [sm.light_at_least[n_light - 1]] if n_light else []
            assume += [-sm.light_at_least[n_light]] if n_light < len(sm.light_at_least) else []
            if solver.solve(assumptions=assume):
                out.append((n_light, n_dark))
    return out

