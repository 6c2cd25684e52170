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
from pathlib import Path
from typing import Any, Mapping

from powertwo.boards import Board
from powertwo.models.thats_my_line import (
    DARK, LIGHT, FinalPosition, Supply, cp_sat_model, final_from_values, sat_model,
)
from powertwo.rules import IllegalMoveError, InvalidMoveError, RecordError, get_game
from powertwo.rules.thats_my_line import UNLIMITED, stones_option

from .registry import (
    CheckReport, Progress, Puzzle, ResultRow, SolutionError, no_progress, node_list, register_puzzle, require,
)

PUZZLE = "thats-my-line"
GAME = "thats-my-line"
BACKENDS = ("cp-sat", "sat")
SAT_SOLVER = "cadical195"
CONFLICT_SLICE = 20_000
CHECK_TIME_LIMIT = 60.0
"""Seconds the checker spends re-proving a claimed bound before it gives up (and says so)."""


def supply_of(stones: Any) -> Supply:
    """``16``, ``"16"`` or ``"unlimited"`` as the model's supply (``None``: unlimited)."""
    try:
        return stones_option(stones)
    except RecordError:
        raise SolutionError(f"{PUZZLE}: --stones must be a number >= 0 or 'unlimited', not {stones!r}") from None


def supply_text(supply: Supply) -> int | str:
    return UNLIMITED if supply is None else supply


def trivial_bound(board: Board, supply: Supply) -> int:
    return board.size if supply is None else min(board.size, 2 * supply)


# ---------------------------------------------------------------------------- backends
def _solve_cp_sat(board: Board, supply: Supply, time_limit: float | None, symmetry: bool) -> dict:
    from ortools.sat.python import cp_model

    cm = cp_sat_model(board, supply, symmetry=symmetry)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    code = solver.solve(cm.model)
    name = solver.status_name(code)
    bound = trivial_bound(board, supply)
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.UNKNOWN):
        bound = min(bound, math.floor(solver.best_objective_bound + 1e-9))
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return {"status": "unknown" if code == cp_model.UNKNOWN else name.lower(), "final": None,
                "bound": bound, "solver_status": name}
    final = final_from_values(board, lambda n: solver.boolean_value(cm.variables[n]))
    return {"status": "optimal" if code == cp_model.OPTIMAL else "feasible", "final": final,
            "bound": bound, "solver_status": name}


def _sat_call(solver, assumptions: list[int], deadline: float | None) -> bool | None:
    """One SAT call; ``None`` when the deadline passes first. CaDiCaL cannot be interrupted, so
    a timed call runs in slices of :data:`CONFLICT_SLICE` conflicts (learnt clauses are kept)."""
    if deadline is None:
        return solver.solve(assumptions=assumptions)
    while time.perf_counter() < deadline:
        solver.conf_budget(CONFLICT_SLICE)
        answer = solver.solve_limited(assumptions=assumptions)
        if answer is not None:
            return answer
    return None


def _solve_sat(board: Board, supply: Supply, time_limit: float | None, symmetry: bool) -> dict:
    """Linear search upwards: find a legal final position, then ask for one stone more, until the
    solver proves that none exists (the optimum's upper bound)."""
    from pysat.solvers import Solver

    sm = sat_model(board, supply, symmetry=symmetry)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    calls: list[dict] = []
    final: FinalPosition | None = None
    bound = trivial_bound(board, supply)
    status = "unknown"
    with Solver(name=SAT_SOLVER, bootstrap_with=sm.clauses) as solver:
        want = 0
        while True:
            if want > len(sm.at_least):
                status = "optimal"  # no count above the number of nodes exists
                bound = len(sm.at_least)
                break
            started = time.perf_counter()
            answer = _sat_call(solver, [sm.at_least[want - 1]] if want else [], deadline)
            calls.append({"at_least": want, "answer": {True: "sat", False: "unsat", None: "time limit"}[answer],
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
    return {"status": status, "final": final, "bound": bound, "calls": calls, "sat_solver": SAT_SOLVER}


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
    if time_limit is not None and time_limit <= 0:
        raise SolutionError(f"{PUZZLE}: --time-limit must be positive, not {time_limit}")
    supply = supply_of(stones)
    progress(f"{PUZZLE} ({supply_text(supply)} stones): {backend}")
    started = time.perf_counter()
    run = (_solve_cp_sat if backend == "cp-sat" else _solve_sat)(board, supply, time_limit, bool(symmetry))
    seconds = time.perf_counter() - started
    final: FinalPosition | None = run.pop("final")
    result: dict[str, Any] = {
        "puzzle": PUZZLE, "board": board.name, "stones": supply_text(supply), "backend": backend,
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
def _int_field(data: Mapping, key: str, where: str) -> int:
    return require(data, key, int, where)


def bound_holds(board: Board, supply: Supply, bound: int, time_limit: float = CHECK_TIME_LIMIT) -> bool | None:
    """Whether no legal game ends with more than ``bound`` stones (SAT, symmetry breaking on);
    ``None`` when the time limit runs out."""
    from pysat.solvers import Solver

    if bound >= trivial_bound(board, supply):
        return True
    sm = sat_model(board, supply, symmetry=True)
    with Solver(name=SAT_SOLVER, bootstrap_with=sm.clauses) as solver:
        answer = _sat_call(solver, [sm.at_least[bound]], time.perf_counter() + time_limit)
    return None if answer is None else not answer


def check(data: Mapping, board: Board, *, prove_bound: bool = True) -> CheckReport:
    """Check a solution file: replay its record, compare every claim with the replay, and
    re-prove the claimed bound. Each fault names the move or field it concerns."""
    where = PUZZLE
    supply = supply_of(require(data, "stones", (int, str), where))
    moves = require(data, "record", list, where)
    if not all(isinstance(m, str) for m in moves):
        raise SolutionError(f"{where}: field 'record' must be a list of move strings")
    objective = _int_field(data, "objective", where)
    light = node_list(data, "light", board, where)
    dark = node_list(data, "dark", board, where)
    faults: list[str] = []
    notes: list[str] = []
    game, states, fault = replay(board, supply, moves)
    end = states[-1]
    if fault:
        faults.append(fault)
    else:
        open_play = unfinished(game, end)
        if open_play:
            faults.append(f"the record stops after move {len(moves)} before the game is over: {open_play}")
        else:
            notes.append(f"the record replays to a finished game: {game.outcome(end).reason}")
    total = len(end.light) + len(end.dark)
    if not fault and objective != total:
        faults.append(f"claimed objective {objective}, but the game ends after move {len(moves)} "
                      f"with {total} stones")
    if not fault and (set(light) != set(end.light) or set(dark) != set(end.dark)):
        faults.append(f"fields 'light'/'dark' do not match the position after move {len(moves)}")
    status = data.get("status")
    if "bound" in data:
        bound = _int_field(data, "bound", where)
        if status == "optimal" and bound != objective:
            faults.append(f"status optimal, but bound {bound} differs from objective {objective}")
        if not faults and prove_bound:
            held = bound_holds(board, supply, bound)
            if held is None:
                notes.append(f"bound {bound} not re-proven within {CHECK_TIME_LIMIT:.0f} s")
            elif held:
                notes.append(f"bound {bound} re-proven by sat: no legal game ends with {bound + 1} stones")
                if bound == objective:
                    notes.append(f"optimality of {objective} stones confirmed")
            else:
                faults.append(f"claimed bound {bound} is wrong: a legal game ends with {bound + 1} stones")
    return CheckReport(tuple(faults), tuple(notes))


# ---------------------------------------------------------------------------- diagram
def diagram(data: Mapping, board: Board):
    """The final position, each stone numbered in placing order."""
    from powertwo.boards.draw import Stone, figure

    supply = supply_of(require(data, "stones", (int, str), PUZZLE))
    moves = require(data, "record", list, PUZZLE)
    game, states, fault = replay(board, supply, [str(m) for m in moves])
    if fault:
        raise SolutionError(f"{PUZZLE}: cannot draw the record: {fault}")
    order: list[tuple[int, int]] = []  # (node, side)
    for before, after in zip(states, states[1:], strict=False):
        for side, stones_before, stones_after in ((LIGHT, before.light, after.light), (DARK, before.dark, after.dark)):
            order.extend((v, side) for v in stones_after - stones_before)
    stones = [Stone(v, "light" if side == LIGHT else "dark", text=str(i)) for i, (v, side) in enumerate(order, 1)]
    end = states[-1]
    title = (f"That's My Line solitaire ({supply_text(supply)} stones per side): {len(order)} stones, "
             f"Light {len(end.light)}, Dark {len(end.dark)}")
    return figure(board, stones=stones, title=title)


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
    """Both supply settings, proven by both backends; the CP-SAT answer is written with the SAT
    run recorded beside it, plus every Light/Dark split an optimal game can have."""
    import json

    from powertwo.boards import load
    from powertwo.boards.draw import save

    board = load(board_name)
    rows = []
    for stones in (16, UNLIMITED):
        runs = {backend: solve(board, backend=backend, stones=stones, progress=progress) for backend in BACKENDS}
        main = runs["cp-sat"]
        for backend, run in runs.items():
            if run["status"] != "optimal":
                raise SolutionError(f"{PUZZLE} ({stones} stones): {backend} did not prove an optimum")
        if len({run["objective"] for run in runs.values()}) != 1:
            raise SolutionError(f"{PUZZLE} ({stones} stones): the backends disagree: "
                                + ", ".join(f"{b} {r['objective']}" for b, r in runs.items()))
        splits = optimal_splits(board, supply_of(stones), main["objective"])
        main = dict(main)
        main["optimal_splits"] = [{"light": a, "dark": b} for a, b in splits]
        main["proofs"] = {b: {"status": r["status"], "objective": r["objective"], "bound": r["bound"],
                              "seconds": r["seconds"]} for b, r in runs.items()}
        stem = f"thats-my-line-{stones}"
        (out / f"{stem}.json").write_text(json.dumps(main, indent=1) + "\n", encoding="utf-8")
        for ext in ("svg", "png"):
            save(diagram(main, board), out / f"{stem}.{ext}")
        progress(f"{PUZZLE} ({stones} stones): {main['objective']} stones, "
                 + ", ".join(f"{b} {r['seconds']:.2f} s" for b, r in runs.items()))
        rows.append(ResultRow(
            puzzle=PUZZLE, variant="16 stones per side" if stones == 16 else "unlimited supply",
            optimum=str(main["objective"]), status="optimal (proven)", backends=", ".join(BACKENDS),
            answers="splits Light-Dark: " + ", ".join(f"{a}-{b}" for a, b in splits),
            seconds=sum(r["seconds"] for r in runs.values()),
            files=tuple(f"{stem}.{ext}" for ext in ("json", "svg", "png"))))
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
))
