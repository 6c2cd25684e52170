"""That's My Line solitaire (RULES.md section 5): the proven maximum, delivered as a legal game.

:func:`solve` asks a model (:mod:`powertwo.models.thats_my_line`) for the final position of a legal game
with the most stones, proves that no legal game ends with more (CP-SAT: status OPTIMAL; SAT:
unsatisfiable with at least one stone more), turns the position into a game record (placements
in a legal order, passes only when forced) and replays that record through the That's My Line
referee (:mod:`powertwo.rules.thats_my_line`) before returning it. :func:`check` trusts nothing in a
solution file that it can recompute: it replays the record, and re-proves the claimed bound.
"""

from __future__ import annotations

import math
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from powertwo.boards import Board
from powertwo.models.thats_my_line import (
    DARK, LIGHT, FinalPosition, Supply, cp_sat_model, final_from_values, sat_model,
)
from powertwo.rules import IllegalMoveError, InvalidMoveError, RecordError, get_game
from powertwo.rules.thats_my_line import UNLIMITED, stones_option

from .certify import SOLVER as CERT_SOLVER, Certificate, certify_unsat, checker_name, dimacs, sha256
from .certify import check as check_drat
from .fields import board_fields, bool_field, choice_field, int_field, known_fields, seconds_value, sibling_file
from .line_check import CHECKER_NAME
from .satcall import Budget, cpsat_sigint, sat_call
from .registry import (
    CheckReport, Progress, Puzzle, ResultRow, SolutionError, no_progress, node_list, register_puzzle, require,
)

PUZZLE = "thats-my-line"
GAME = "thats-my-line"
BACKENDS = ("cp-sat", "sat")
SAT_SOLVER = "cadical195"
CHECK_TIME_LIMIT = 60.0
"""Seconds the checker spends re-proving a claimed bound before it gives up (and says so)."""


def supply_of(stones: Any) -> Supply:
    """``16``, ``"16"`` or ``"unlimited"`` as the model's supply (``None``: unlimited)."""
    try:
        return stones_option(stones)
    except RecordError:
        raise SolutionError(f"{PUZZLE}: --stones must be a number >= 0 or 'unlimited', "
                            f"not {str(stones)[:40]!r}") from None


def supply_text(supply: Supply) -> int | str:
    return UNLIMITED if supply is None else supply


def trivial_bound(board: Board, supply: Supply) -> int:
    return board.size if supply is None else min(board.size, 2 * supply)


# ---------------------------------------------------------------------------- backends
def _solve_cp_sat(board: Board, supply: Supply, time_limit: float | None, symmetry: bool,
                  progress: Progress = no_progress) -> dict:
    from ortools.sat.python import cp_model

    cm = cp_sat_model(board, supply, symmetry=symmetry)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    solver.parameters.catch_sigint_signal = True  # Ctrl-C ends the search like a time limit
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    with cpsat_sigint():
        code = solver.solve(cm.model)
    name = solver.status_name(code)
    bound = trivial_bound(board, supply)
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.UNKNOWN):
        bound = min(bound, math.floor(solver.best_objective_bound + 1e-9))
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return {"status": "unknown" if code == cp_model.UNKNOWN else name.lower(), "final": None,
                "bound": bound, "solver_status": name}
    final = final_from_values(board, lambda n: solver.boolean_value(cm.variables[n]))
    out = {"status": "optimal" if code == cp_model.OPTIMAL else "feasible", "final": final,
           "bound": bound, "solver_status": name}
    if code == cp_model.FEASIBLE and (time_limit is None or solver.wall_time < time_limit):
        out["stopped"] = "interrupted (Ctrl-C)"
    return out


def _solve_sat(board: Board, supply: Supply, time_limit: float | None, symmetry: bool,
               progress: Progress = no_progress) -> dict:
    """Linear search upwards: find a legal final position, then ask for one stone more, until the
    solver proves that none exists (the optimum's upper bound)."""
    from pysat.solvers import Solver

    sm = sat_model(board, supply, symmetry=symmetry)
    budget = Budget.seconds(time_limit)
    calls: list[dict] = []
    final: FinalPosition | None = None
    bound = trivial_bound(board, supply)
    status = "unknown"
    with Solver(name=SAT_SOLVER, bootstrap_with=sm.clauses) as solver:
        want = 0
        try:
            while True:
                if want > len(sm.at_least):
                    status = "optimal"  # no count above the number of nodes exists
                    bound = len(sm.at_least)
                    break
                started = time.perf_counter()
                answer = sat_call(solver, [sm.at_least[want - 1]] if want else [], budget)
                calls.append({"at_least": want, "answer": {True: "sat", False: "unsat", None: budget.reason}[answer],
                              "seconds": round(time.perf_counter() - started, 3)})
                if answer is None:
                    status = "feasible" if final is not None else "unknown"
                    break
                if answer is False:
                    status = "optimal" if final is not None else "infeasible"
                    bound = want - 1
                    break
                final = final_from_values(board, sm.value_reader(solver.get_model()))
                want = final.total + 1
                progress(f"sat: a legal game ends with {final.total} stones; asking for {want}")
        except KeyboardInterrupt:  # Ctrl-C between two SAT calls
            budget.interrupted = True
            status = "feasible" if final is not None else "unknown"
    out = {"status": status, "final": final, "bound": bound, "calls": calls, "sat_solver": SAT_SOLVER}
    if budget.interrupted:
        out["stopped"] = budget.reason
    return out


# ---------------------------------------------------------------------------- records
def record_moves(board: Board, final: FinalPosition) -> list[str]:
    """The game of a final position in notation (node labels and ``pass``)."""
    return ["pass" if node is None else board.label(node) for _, node in final.placing_order()]


def replay(board: Board, supply: Supply, moves: list[str]):
    """Replay ``moves`` through the referee. Returns ``(states, fault)``: the states reached (the
    start first) and the first fault (a line naming the move), or ``None``."""
    game = get_game(GAME, board, stones=supply_text(supply))
    state = game.start()
    states = [state]
    for text in moves:
        number, player = state.ply + 1, game.player_name(state.to_move)
        try:
            state = game.apply(state, game.parse_move(text, state))
        except InvalidMoveError as exc:
            return game, states, f"move {number} ({player}) {text}: {exc}"
        except IllegalMoveError as exc:
            return game, states, str(exc.located(move=text, player=player, number=number))
        states.append(state)
    return game, states, None


def unfinished(game, state) -> str | None:
    """Why the game is not over in ``state`` (who can still place where), or ``None``."""
    if game.outcome(state) is not None:
        return None
    able = []
    for player in (LIGHT, DARK):
        nodes = game.placeable(state, player)
        if nodes:
            shown = ", ".join(game.board.label(v) for v in nodes[:6]) + (", ..." if len(nodes) > 6 else "")
            able.append(f"{game.player_name(player)} can still place on {shown}")
    return "; ".join(able)


def legal_record(board: Board, supply: Supply, final: FinalPosition) -> tuple[list[str], str]:
    """The record of ``final``, replayed by the referee to a finished game with exactly its stones.

    Raises :class:`SolutionError` if the referee disagrees (a model fault: never returned)."""
    moves = record_moves(board, final)
    game, states, fault = replay(board, supply, moves)
    end = states[-1]
    if fault is None:
        fault = unfinished(game, end)
        if fault:
            fault = f"the game is not over after move {len(moves)}: {fault}"
    if fault is None and (end.light != final.light or end.dark != final.dark):
        fault = "the replayed game ends in another position than the model's"
    if fault:
        raise SolutionError(f"{PUZZLE}: the referee rejects the game built from the model's answer: {fault}")
    return moves, game.outcome(end).reason


# ---------------------------------------------------------------------------- solve
def solve(board: Board, backend: str = "cp-sat", stones: Any = 16, time_limit: float | None = None,
          symmetry: bool = True, progress: Progress = no_progress) -> dict:
    """The most stones a legal That's My Line game can end with, with its game record.

    ``status`` is ``optimal`` when the backend proved that ``bound`` (= ``objective``) stones is
    the most; ``feasible`` when the time limit ran out first (``bound`` the best proven)."""
    if backend not in BACKENDS:
        raise SolutionError(f"{PUZZLE}: unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    time_limit = seconds_value(time_limit)
    supply = supply_of(stones)
    progress(f"{PUZZLE} ({supply_text(supply)} stones): {backend}")
    started = time.perf_counter()
    run = (_solve_cp_sat if backend == "cp-sat" else _solve_sat)(board, supply, time_limit, bool(symmetry), progress)
    seconds = time.perf_counter() - started
    final: FinalPosition | None = run.pop("final")
    result: dict[str, Any] = {
        "puzzle": PUZZLE, **board_fields(board), "stones": supply_text(supply), "backend": backend,
        "symmetry": bool(symmetry), "status": run.pop("status"),
        "objective": None if final is None else final.total, "bound": run.pop("bound"),
    }
    if final is not None:
        moves, outcome = legal_record(board, supply, final)
        result.update({
            "light": sorted(final.light), "dark": sorted(final.dark),
            "light_count": len(final.light), "dark_count": len(final.dark),
            "first_pass": None if final.first_pass is None else ("light", "dark")[final.first_pass],
            "record": moves, "passes": moves.count("pass"), "outcome": outcome,
        })
    result["seconds"] = round(seconds, 3)
    result.update(run)
    return result


# ---------------------------------------------------------------------------- check
FIELDS = frozenset({
    "puzzle", "board", "board_fingerprint", "stones", "backend", "symmetry", "status", "objective", "bound", "light",
    "dark",
    "light_count", "dark_count", "first_pass", "record", "passes", "outcome", "seconds", "solver_status",
    "optimal_splits", "proofs", "calls", "sat_solver", "stopped", "certified", "certificate",
})
"""Every field a solution file may have. ``seconds``, ``symmetry`` and ``stopped`` say how the run
went and are taken as given; every other field is recomputed or re-proved (or the file refused)."""
STATUSES = ("optimal", "feasible", "infeasible", "unknown")
SOLVER_STATUSES = {"optimal": "OPTIMAL", "feasible": "FEASIBLE", "infeasible": "INFEASIBLE", "unknown": "UNKNOWN"}


def max_record(board: Board) -> int:
    """No game has more turns: every turn but a pass places a stone, and a side passes only
    when it cannot place (so never twice running without the game ending)."""
    return 2 * board.size + 2


def bound_holds(board: Board, supply: Supply, bound: int, time_limit: float = CHECK_TIME_LIMIT) -> bool | None:
    """Whether no legal game ends with more than ``bound`` stones (SAT, symmetry breaking on);
    ``None`` when the time limit runs out."""
    return _bound_holds(board, supply, bound, time_limit)


@lru_cache(maxsize=32)
def _bound_holds(board: Board, supply: Supply, bound: int, time_limit: float) -> bool | None:
    from pysat.solvers import Solver

    if bound >= trivial_bound(board, supply):
        return True
    if bound < 0:
        return False
    sm = sat_model(board, supply, symmetry=True)
    with Solver(name=SAT_SOLVER, bootstrap_with=sm.clauses) as solver:
        answer = sat_call(solver, [sm.at_least[bound]], Budget.seconds(time_limit))
    return None if answer is None else not answer


@lru_cache(maxsize=32)
def _splits(board: Board, supply: Supply, optimum: int) -> tuple[tuple[int, int], ...]:
    return tuple(optimal_splits(board, supply, optimum))


def _first_pass(game: Any, states: list, moves: list[str]) -> str | None:
    for state, text in zip(states, moves, strict=False):
        if text.strip().lower() == "pass":
            return "light" if state.to_move == LIGHT else "dark"
    return None


def check(data: Mapping, board: Board, *, prove_bound: bool = True, base: Path | None = None) -> CheckReport:
    """Check a solution file: replay its record, compare every field with the replay, re-prove
    the claimed bound (and with it the optimum, the Light/Dark splits and each backend's
    reported result). Each fault names the move or field it concerns; an unknown or malformed
    field is a :class:`SolutionError` naming it."""
    where = PUZZLE
    if not isinstance(data, Mapping):
        raise SolutionError(f"{where}: not a JSON object")
    known_fields(data, FIELDS, where)
    supply = supply_of(require(data, "stones", (int, str), where))
    moves = require(data, "record", list, where)
    if len(moves) > max_record(board):
        raise SolutionError(f"{where}: field 'record' has {len(moves)} moves, no game on board {board.name} "
                            f"has more than {max_record(board)}")
    if not all(isinstance(m, str) and len(m) <= 40 for m in moves):
        raise SolutionError(f"{where}: field 'record' must be a list of move strings")
    status = choice_field(data, "status", STATUSES, where, required=False)
    choice_field(data, "backend", BACKENDS, where, required=False)
    bool_field(data, "symmetry", where)
    objective = int_field(data, "objective", where, required=status in ("optimal", "feasible") or "light" in data)
    bound = int_field(data, "bound", where, required=False)
    light = node_list(data, "light", board, where) if "light" in data else None
    dark = node_list(data, "dark", board, where) if "dark" in data else None
    faults: list[str] = []
    notes: list[str] = []
    game, states, fault = replay(board, supply, moves)
    end = states[-1]
    total = len(end.light) + len(end.dark)
    if fault:
        faults.append(fault)
    else:
        open_play = unfinished(game, end)
        if open_play:
            faults.append(f"the record stops after move {len(moves)} before the game is over: {open_play}")
        else:
            notes.append(f"the record replays to a finished game: {game.outcome(end).reason}")
    if not fault:
        after = f"after move {len(moves)}"
        if objective is not None and objective != total:
            faults.append(f"claimed objective {objective}, but the game ends {after} with {total} stones")
        for side, listed, real in (("light", light, end.light), ("dark", dark, end.dark)):
            if listed is not None and sorted(listed) != sorted(real):
                faults.append(f"field '{side}' does not match the position {after}"
                              + (" (a node listed twice)" if len(set(listed)) != len(listed) else ""))
            count = int_field(data, f"{side}_count", where, required=False)
            if count is not None and count != len(real):
                faults.append(f"field '{side}_count' is {count}, the game ends with {len(real)} {side} stones")
        passes = int_field(data, "passes", where, required=False)
        real_passes = sum(1 for m in moves if m.strip().lower() == "pass")
        if passes is not None and passes != real_passes:
            faults.append(f"field 'passes' is {passes}, the record has {real_passes}")
        if "first_pass" in data:
            claimed = data["first_pass"]
            if claimed not in (None, "light", "dark"):
                raise SolutionError(f"{where}: field 'first_pass' must be \"light\", \"dark\" or null")
            real_first = _first_pass(game, states, moves)
            if claimed != real_first:
                faults.append(f"field 'first_pass' is {claimed}, the record's first pass is "
                              f"{'by ' + real_first if real_first else 'none'}")
        if "outcome" in data:
            said = require(data, "outcome", str, where)
            real = game.outcome(end)
            if real is None or said != real.reason:
                faults.append(f"field 'outcome' {said[:80]!r} is not how the game ends: "
                              f"{real.reason if real else 'it is not over'!r}")
    if status in ("infeasible", "unknown") and moves:
        faults.append(f"claims status {status}, but gives a game record")
    if "solver_status" in data:
        said = require(data, "solver_status", str, where)
        if status is not None and said != SOLVER_STATUSES[status]:
            faults.append(f"field 'solver_status' {said[:40]!r} contradicts status {status}")
    if "sat_solver" in data and require(data, "sat_solver", str, where) != SAT_SOLVER:
        faults.append(f"field 'sat_solver' {str(data['sat_solver'])[:40]!r}: the SAT backend runs {SAT_SOLVER}")
    if bound is not None and objective is not None:
        if status == "optimal" and bound != objective:
            faults.append(f"status optimal, but bound {bound} differs from objective {objective}")
        elif status == "feasible" and bound == objective:
            faults.append(f"status feasible with bound {bound} equal to the objective: that is optimal")
        elif bound < objective:
            faults.append(f"claimed bound {bound} is below the objective {objective} of the file's own game")
    if status == "optimal" and bound is None:
        faults.append("status optimal without a bound")
    optimum = None
    if bound is not None and prove_bound and not faults:
        held = bound_holds(board, supply, bound)
        if held is None:
            faults.append(f"cannot confirm bound {bound}: not re-proven within {CHECK_TIME_LIMIT:.0f} s")
        elif held:
            notes.append(f"bound {bound} re-proven by sat: no legal game ends with {bound + 1} stones")
            if bound == objective:
                optimum = bound
                notes.append(f"optimality of {objective} stones confirmed")
        else:
            faults.append(f"claimed bound {bound} is wrong: a legal game ends with {bound + 1} stones")
    needs_optimum = [k for k in ("optimal_splits", "proofs") if k in data]
    if needs_optimum and optimum is None and not faults and prove_bound:
        faults.append(f"cannot confirm field '{needs_optimum[0]}': the file proves no optimum")
    if optimum is not None:
        _check_proven(data, board, supply, optimum, faults, notes)
    if prove_bound and not fault:
        _check_certificate(data, board, supply, optimum, base, faults, notes)
    if "calls" in data and prove_bound and not fault:
        _check_calls(data, board, supply, total, faults)
    summary = ""
    if not faults:
        summary = (f"{total} stones (Light {len(end.light)}, Dark {len(end.dark)}), a legal finished game of "
                   f"{len(moves)} moves")
        if optimum is not None:
            summary += f"; optimal (sat proves no game ends with {optimum + 1})"
    return CheckReport(tuple(faults), tuple(notes), summary)


def _check_proven(data: Mapping, board: Board, supply: Supply, optimum: int, faults: list[str],
                  notes: list[str]) -> None:
    """The fields that follow from the proven optimum: splits, each backend's result, SAT calls."""
    where = PUZZLE
    if "optimal_splits" in data:
        raw = require(data, "optimal_splits", list, where)
        claimed = []
        for k, entry in enumerate(raw):
            if not isinstance(entry, Mapping) or set(entry) != {"light", "dark"}:
                raise SolutionError(f"{where}: field 'optimal_splits' entry {k} must be {{\"light\": N, \"dark\": N}}")
            claimed.append((int_field(entry, "light", f"{where}: optimal_splits[{k}]", minimum=0),
                            int_field(entry, "dark", f"{where}: optimal_splits[{k}]", minimum=0)))
        real = list(_splits(board, supply, optimum))
        if claimed != real:
            faults.append("field 'optimal_splits' lists " + (", ".join(f"{a}-{b}" for a, b in claimed) or "none")
                          + "; the optimal games split Light-Dark " + ", ".join(f"{a}-{b}" for a, b in real))
        else:
            notes.append("optimal splits confirmed by sat: " + ", ".join(f"{a}-{b}" for a, b in real))
    if "proofs" in data:
        proofs = require(data, "proofs", Mapping, where)
        known_fields(proofs, BACKENDS, where, prefix="proofs.")
        for backend, entry in proofs.items():
            w = f"{where}: proofs.{backend}"
            if not isinstance(entry, Mapping):
                raise SolutionError(f"{w}: must be an object {{status, objective, bound}}")
            known_fields(entry, ("status", "objective", "bound", "seconds"), where, prefix=f"proofs.{backend}.")
            said = (choice_field(entry, "status", STATUSES, w), int_field(entry, "objective", w, required=False),
                    int_field(entry, "bound", w, required=False))
            if said != ("optimal", optimum, optimum):
                faults.append(f"field 'proofs.{backend}' says {said[0]} {said[1]} (bound {said[2]}); the proven "
                              f"optimum is {optimum}")
        if not any(f.startswith("field 'proofs.") for f in faults):
            notes.append(f"the backends' reported optima ({', '.join(proofs)}) agree with the re-proven optimum "
                         f"{optimum} (their runs are not repeated)")


def _check_calls(data: Mapping, board: Board, supply: Supply, total: int, faults: list[str]) -> None:
    """The SAT backend's calls: "sat" for "at least k stones" is confirmed by the file's own game
    (k <= its stones) or refuted by a proof; "unsat" is re-proved."""
    where = PUZZLE
    calls = require(data, "calls", list, where)
    if len(calls) > board.size + 2:
        raise SolutionError(f"{where}: field 'calls' lists {len(calls)} calls, more than the search can make")
    for k, call in enumerate(calls):
        w = f"{where}: calls[{k}]"
        if not isinstance(call, Mapping):
            raise SolutionError(f"{w}: must be an object {{at_least, answer}}")
        known_fields(call, ("at_least", "answer", "seconds"), where, prefix=f"calls[{k}].")
        at_least = int_field(call, "at_least", w, minimum=0, maximum=board.size + 1)
        answer = choice_field(call, "answer", ("sat", "unsat", "time limit", "interrupted (Ctrl-C)"), w)
        assert at_least is not None
        if answer == "sat" and at_least > total and bound_holds(board, supply, at_least - 1):
            faults.append(f"field 'calls' entry {k}: no legal game ends with at least {at_least} stones, not sat")
        elif answer == "unsat" and (at_least <= total or not bound_holds(board, supply, at_least - 1)):
            faults.append(f"field 'calls' entry {k}: a legal game ends with at least {at_least} stones, not unsat")


# ---------------------------------------------------------------------------- diagram
def diagram(data: Mapping, board: Board, *, names: str | None = "labels"):
    """The final position, each stone numbered in placing order (the legend says so: the
    numbers are not node ids), every node's name in small text beside it (``names``:
    ``"labels"``, ``"ids"``, or None for none)."""
    from powertwo.boards.diagram import Stone
    from powertwo.boards.draw import figure

    supply = supply_of(require(data, "stones", (int, str), PUZZLE))
    moves = require(data, "record", list, PUZZLE)
    game, states, fault = replay(board, supply, [str(m) for m in moves])
    if fault:
        raise SolutionError(f"{PUZZLE}: cannot draw the record: {fault}")
    order: list[tuple[int, int]] = []  # (node, side)
    for before, after in zip(states, states[1:], strict=False):
        for side, stones_before, stones_after in ((LIGHT, before.light, after.light), (DARK, before.dark, after.dark)):
            order.extend((v, side) for v in stones_after - stones_before)
    stones = [Stone(v, "light" if side == LIGHT else "dark", text=f"#{i}") for i, (v, side) in enumerate(order, 1)]
    end = states[-1]
    title = (f"That's My Line solitaire ({supply_text(supply)} stones per side): {len(order)} stones, "
             f"Light {len(end.light)}, Dark {len(end.dark)}")
    legend = {"number": "#n on a stone: placed as the n-th stone of the game (not a node id)"}
    return figure(board, stones=stones, title=title, names=names, legend=legend)


# ---------------------------------------------------------------------------- certificate
def _certificate_clauses(board: Board, supply: Supply, optimum: int) -> tuple[str, list[list[int]], list[str], int]:
    """The claim "no legal game ends with ``optimum + 1`` stones", its clauses (the SAT encoding
    without symmetry breaking plus the unit clause "at least optimum + 1 stones"), the DIMACS
    comments and the top variable."""
    sm = sat_model(board, supply, symmetry=False)
    claim = (f"no legal That's My Line game on board {board.name} ({supply_text(supply)} stones per side) "
             f"ends with {optimum + 1} stones")
    if optimum + 1 > len(sm.at_least):
        raise SolutionError(f"{PUZZLE}: {optimum + 1} stones do not fit on board {board.name}")
    clauses = [list(c) for c in sm.clauses] + [[sm.at_least[optimum]]]
    comments = [f"powertwo certificate: {claim}", "the CNF is UNSAT (no symmetry-breaking clauses)"]
    return claim, clauses, comments, sm.vpool.top


def certificate_cnf(board: Board, supply: Supply, optimum: int) -> tuple[str, str]:
    """The claim the optimum needs proved and its CNF in DIMACS."""
    claim, clauses, comments, top = _certificate_clauses(board, supply, optimum)
    return claim, dimacs(clauses, comments, top)


def certify_optimum(board: Board, supply: Supply, optimum: int, engine: str = "auto") -> Certificate:
    """The DRAT certificate of :func:`certificate_cnf`'s claim, refuted by CaDiCaL and checked by
    dratify (``engine``: see :func:`powertwo.solvers.certify.check`)."""
    claim, clauses, comments, top = _certificate_clauses(board, supply, optimum)
    return certify_unsat(clauses, claim, comments, top=top, engine=engine)


CERTIFICATE_FIELDS = frozenset({
    "claim", "solver", "checker", "verdict", "cnf_sha256", "proof_sha256", "proof_lines", "solve_seconds",
    "check_seconds", "cnf", "proof",
})


def _read_gzip(path: Path, where: str, field: str) -> str:
    import gzip

    try:
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise SolutionError(f"{where}: field '{field}': {path.name} is not a gzipped text file ({err})") from None


def _check_certificate(data: Mapping, board: Board, supply: Supply, optimum: int | None, base: Path | None,
                       faults: list[str], notes: list[str]) -> None:
    """The fields ``certified`` and ``certificate``: the named CNF must be this tool's encoding of
    the claim the optimum needs, and dratify must accept the named proof of it."""
    where = PUZZLE
    certified = bool_field(data, "certified", where, default=False)
    if "certificate" not in data:
        if certified:
            faults.append("claims certified, but gives no certificate")
        return
    cert: Any = data["certificate"]
    if not isinstance(cert, Mapping):
        raise SolutionError(f"{where}: field 'certificate' must be an object (claim, verdict, hashes, files)")
    known_fields(cert, CERTIFICATE_FIELDS, where, prefix="certificate.")
    cw = f"{where}: field 'certificate'"
    claim = require(cert, "claim", str, cw)
    verdict = require(cert, "verdict", str, cw)
    cnf_path = sibling_file(base, require(cert, "cnf", str, cw), where, "certificate.cnf")
    proof_path = sibling_file(base, require(cert, "proof", str, cw), where, "certificate.proof")
    if not certified:
        faults.append("gives a certificate, but field 'certified' is not true")
    if optimum is None:
        faults.append("gives a certificate, but the file proves no optimum")
        return
    own_claim, own_cnf = certificate_cnf(board, supply, optimum)
    before = len(faults)
    if claim != own_claim:
        faults.append(f"certificate claim {claim[:120]!r} is not what the optimum needs proved: {own_claim!r}")
    if not verdict.startswith("VERIFIED"):
        faults.append(f"certificate verdict {verdict[:60]!r}: the proof is not verified")
    solver = cert.get("solver", CERT_SOLVER)
    if solver != CERT_SOLVER:
        faults.append(f"certificate solver {str(solver)[:40]!r}: the certificates here come from {CERT_SOLVER}")
    checker = cert.get("checker")
    if checker is not None and not (isinstance(checker, str) and CHECKER_NAME.fullmatch(checker)):
        faults.append(f"certificate checker {str(checker)[:60]!r} is not dratify (the checker this tool runs)")
    if _read_gzip(cnf_path, where, "certificate.cnf") != own_cnf:
        faults.append(f"certificate.cnf {cert['cnf']!r} is not the CNF of the claim")
    if cert.get("cnf_sha256", sha256(own_cnf)) != sha256(own_cnf):
        faults.append("certificate cnf_sha256 does not match the CNF of the claim")
    proof = _read_gzip(proof_path, where, "certificate.proof")
    if cert.get("proof_sha256", sha256(proof)) != sha256(proof):
        faults.append(f"certificate proof_sha256 does not match the file {cert['proof']!r}")
    lines = int_field(cert, "proof_lines", cw, required=False, minimum=0)
    if lines is not None and lines != proof.count("\n"):
        faults.append(f"certificate proof_lines {lines}, the file {cert['proof']!r} has {proof.count(chr(10))}")
    if len(faults) > before:
        return
    ok, said, _ = check_drat(own_cnf, proof)
    if ok and verdict != said:
        faults.append(f"certificate verdict {verdict[:80]!r} differs from dratify's: {said!r}")
    elif ok:
        notes.append(f"certificate verified by {checker_name()}: {own_claim}")
    else:
        faults.append(f"certificate.proof {cert['proof']!r} does not refute the claim's CNF: {said}")


def write_gzip(path: Path, text: str) -> None:
    """Deterministic gzip (no time stamp, no file name): the same text gives the same bytes."""
    import gzip

    path.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


# ---------------------------------------------------------------------------- results
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


def results(out: Path, progress: Progress, board_name: str = "power-of-two") -> list[ResultRow]:
    """Both supply settings, proven by both backends; the SAT answer (single-threaded CaDiCaL:
    the same game on every run, unlike CP-SAT with two workers) is written with both backends'
    results beside it and every Light/Dark split an optimal game can have. The file holds no
    timings (they go to the results index), so a rerun rewrites it unchanged."""
    import json

    from powertwo.boards import load
    from powertwo.boards.draw import save

    board = load(board_name)
    rows = []
    for stones in (16, UNLIMITED):
        runs = {backend: solve(board, backend=backend, stones=stones, progress=progress) for backend in BACKENDS}
        for backend, run in runs.items():
            if run["status"] != "optimal":
                raise SolutionError(f"{PUZZLE} ({stones} stones): {backend} did not prove an optimum")
        if len({run["objective"] for run in runs.values()}) != 1:
            raise SolutionError(f"{PUZZLE} ({stones} stones): the backends disagree: "
                                + ", ".join(f"{b} {r['objective']}" for b, r in runs.items()))
        main = {k: v for k, v in runs["sat"].items() if k != "seconds"}
        main["calls"] = [{k: v for k, v in call.items() if k != "seconds"} for call in main["calls"]]
        splits = optimal_splits(board, supply_of(stones), main["objective"])
        main["optimal_splits"] = [{"light": a, "dark": b} for a, b in splits]
        main["proofs"] = {b: {"status": r["status"], "objective": r["objective"], "bound": r["bound"]}
                          for b, r in runs.items()}
        stem = f"thats-my-line-{stones}"
        cert = certify_optimum(board, supply_of(stones), main["objective"])
        progress(f"{PUZZLE} ({stones} stones): certificate {cert.proof.count(chr(10))} proof lines, "
                 f"{cert.verdict} in {cert.check_seconds:.1f} s ({checker_name()})")
        if not cert.verified:
            raise SolutionError(f"{PUZZLE} ({stones} stones): the DRAT proof was rejected: {cert.verdict}")
        write_gzip(out / f"{stem}.cnf.gz", cert.cnf)
        write_gzip(out / f"{stem}.drat.gz", cert.proof)
        main["certified"] = True
        summary = {k: v for k, v in cert.summary().items() if not k.endswith("seconds")}  # run timings: the index
        main["certificate"] = summary | {"cnf": f"{stem}.cnf.gz", "proof": f"{stem}.drat.gz"}
        report = check(main, board, base=out)
        progress(f"{PUZZLE} ({stones} stones): check {'valid' if report.valid else '; '.join(report.faults)}")
        (out / f"{stem}.json").write_text(json.dumps(main, indent=1) + "\n", encoding="utf-8")
        for ext in ("svg", "png"):
            save(diagram(main, board), out / f"{stem}.{ext}")
        progress(f"{PUZZLE} ({stones} stones): {main['objective']} stones, "
                 + ", ".join(f"{b} {r['seconds']:.2f} s" for b, r in runs.items()))
        rows.append(ResultRow(
            puzzle=PUZZLE, variant="16 stones per side" if stones == 16 else "unlimited supply",
            optimum=str(main["objective"]),
            status="optimal (proven, DRAT-certified)" + ("" if report.valid else ", CHECK FAILED"),
            backends=", ".join(BACKENDS),
            answers="splits Light-Dark: " + ", ".join(f"{a}-{b}" for a, b in splits),
            seconds=sum(r["seconds"] for r in runs.values()),
            files=tuple(f"{stem}.{ext}" for ext in ("json", "svg", "png", "cnf.gz", "drat.gz")),
            timings={b: r["seconds"] for b, r in runs.items()} | {"proof": round(cert.solve_seconds, 3),
                                                                  "proof check": round(cert.check_seconds, 3)}))
    return rows


register_puzzle(Puzzle(
    name=PUZZLE,
    title="That's My Line solitaire: the most stones a legal game can end with",
    solve=solve,
    check=check,
    diagram=diagram,
    results=results,
    options=("backend", "time_limit", "stones", "symmetry"),
    order=30,
    reads_files=True,
    draw_options=("names",),
))
