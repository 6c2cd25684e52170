"""Checking a That's My Line solution file: it trusts nothing it can recompute. It replays the
record through the referee, compares every field with the replay, and re-proves the claimed bound
(and with it the optimum, the Light/Dark splits and each backend's reported result). A file that
answers a score question (field ``score``) is a game that must end with that score, or a claim
that none does, re-proven by SAT and by its certificate."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from powertwo.boards import Board
from powertwo.models.thats_my_line import LIGHT, Supply, sat_model

from ..fields import bool_field, choice_field, int_field, known_fields
from ..registry import CheckReport, SolutionError, node_list, require
from ..satcall import Budget, sat_call
from .backends import optimal_splits
from .certificate import check_certificate
from .game import BACKENDS, PUZZLE, SAT_SOLVER, replay, supply_of, trivial_bound, unfinished
from .score import Score, fitting_score
from ..status import FEASIBLE, INFEASIBLE, OPTIMAL, STATUSES, UNKNOWN

CHECK_TIME_LIMIT = 60.0
"""Seconds the checker spends re-proving a claimed bound before it gives up (and says so)."""


# ---------------------------------------------------------------------------- check
FIELDS = frozenset({
    "puzzle", "board", "board_fingerprint", "stones", "backend", "symmetry", "status", "objective", "bound", "light",
    "dark",
    "light_count", "dark_count", "first_pass", "record", "passes", "outcome", "seconds", "solver_status",
    "optimal_splits", "proofs", "calls", "sat_solver", "stopped", "certified", "certificate",
})
"""Every field a solution file may have. ``seconds``, ``symmetry`` and ``stopped`` say how the run
went and are taken as given; every other field is recomputed or re-proved (or the file refused)."""
SCORE_FIELDS = (FIELDS - {"objective", "bound", "optimal_splits", "proofs", "calls"}) | {"score"}
"""The fields of a file that answers a score question (no optimum: nothing is maximised)."""
SOLVER_STATUSES = {OPTIMAL: ("OPTIMAL",), FEASIBLE: ("FEASIBLE",), INFEASIBLE: ("INFEASIBLE",),
                   UNKNOWN: ("UNKNOWN",)}
SCORE_SOLVER_STATUSES = SOLVER_STATUSES | {FEASIBLE: ("OPTIMAL", "FEASIBLE")}
"""CP-SAT's words for a score question's status: a model without an objective is OPTIMAL once solved."""


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


def _first_pass(states: list[Any], moves: list[str]) -> str | None:
    for state, text in zip(states, moves, strict=False):
        if text.strip().lower() == "pass":
            return "light" if state.to_move == LIGHT else "dark"
    return None


@dataclass(frozen=True)
class _Claims:
    """The fields of a solution file that the checks below compare, each read once (a malformed
    one is a :class:`SolutionError` naming it)."""

    supply: Supply
    moves: list[str]
    status: str | None
    objective: int | None
    bound: int | None
    light: list[int] | None
    dark: list[int] | None
    score: Score | None = None

    @classmethod
    def read(cls, data: Mapping[str, Any], board: Board) -> _Claims:
        where = PUZZLE
        if not isinstance(data, Mapping):
            raise SolutionError(f"{where}: not a JSON object")
        asks_score = "score" in data
        known_fields(data, SCORE_FIELDS if asks_score else FIELDS, where)
        supply = supply_of(require(data, "stones", (int, str), where))
        score = fitting_score(data["score"], board, supply, "field 'score'") if asks_score else None
        status = choice_field(data, "status", STATUSES, where, required=asks_score)
        moves = require(data, "record", list, where) if "record" in data or status == FEASIBLE or not asks_score \
            else []
        if len(moves) > max_record(board):
            raise SolutionError(f"{where}: field 'record' has {len(moves)} moves, no game on board {board.name} "
                                f"has more than {max_record(board)}")
        if not all(isinstance(m, str) and len(m) <= 40 for m in moves):
            raise SolutionError(f"{where}: field 'record' must be a list of move strings")
        if asks_score and status == OPTIMAL:
            raise SolutionError(f"{where}: field 'status' is 'optimal', but a score question has no optimum "
                                "(feasible, infeasible or unknown)")
        choice_field(data, "backend", BACKENDS, where, required=False)
        bool_field(data, "symmetry", where)
        objective = int_field(data, "objective", where,
                              required=not asks_score and (status in (OPTIMAL, FEASIBLE) or "light" in data))
        return cls(supply, moves, status, objective, int_field(data, "bound", where, required=False),
                   node_list(data, "light", board, where) if "light" in data else None,
                   node_list(data, "dark", board, where) if "dark" in data else None, score)


def check(data: Mapping[str, Any], board: Board, *, prove_bound: bool = True, base: Path | None = None) -> CheckReport:
    """Check a solution file: replay its record, compare every field with the replay, re-prove
    the claimed bound (and with it the optimum, the Light/Dark splits and each backend's
    reported result). Each fault names the move or field it concerns; an unknown or malformed
    field is a :class:`SolutionError` naming it."""
    claims = _Claims.read(data, board)
    if claims.score is not None:
        return _check_score(data, board, claims, prove_bound, base)
    faults: list[str] = []
    notes: list[str] = []
    game, states, fault = replay(board, claims.supply, claims.moves)
    end = states[-1]
    total = len(end.light) + len(end.dark)
    if fault:
        faults.append(fault)
    else:
        _check_replay(data, claims, game, states, faults, notes)
    faults += _claim_faults(data, claims)
    optimum = _proven_optimum(board, claims, faults, notes) if prove_bound and not faults else None
    needs_optimum = [k for k in ("optimal_splits", "proofs") if k in data]
    if needs_optimum and optimum is None and not faults and prove_bound:
        faults.append(f"cannot confirm field '{needs_optimum[0]}': the file proves no optimum")
    if optimum is not None:
        _check_proven(data, board, claims.supply, optimum, faults, notes)
    if prove_bound and not fault:
        check_certificate(data, board, claims.supply, optimum, base, faults, notes)
    if "calls" in data and prove_bound and not fault:
        _check_calls(data, board, claims.supply, total, faults)
    summary = ""
    if not faults:
        summary = (f"{total} stones (Light {len(end.light)}, Dark {len(end.dark)}), a legal finished game of "
                   f"{len(claims.moves)} moves")
        if optimum is not None:
            summary += f"; optimal (sat proves no game ends with {optimum + 1})"
    return CheckReport(tuple(faults), tuple(notes), summary)


def _check_score(data: Mapping[str, Any], board: Board, claims: _Claims, prove: bool, base: Path | None) -> CheckReport:
    """A file that answers "does a legal game end L to D?": a record that the referee replays to a
    finished game with exactly that score (status feasible), or the claim that none exists
    (status infeasible: re-proven by SAT, and its certificate re-checked when it gives one)."""
    score = claims.score
    assert score is not None
    faults: list[str] = []
    notes: list[str] = []
    game, states, fault = replay(board, claims.supply, claims.moves)
    end = states[-1]
    if fault:
        faults.append(fault)
    elif claims.status == FEASIBLE:
        _check_replay(data, claims, game, states, faults, notes)
    faults += _claim_faults(data, claims)
    ends = Score(len(end.light), len(end.dark))
    if claims.status == FEASIBLE and not fault and ends != score:
        faults.append(f"claimed score {score.text}, but the game ends {ends.text} after move {len(claims.moves)}")
    proven = None
    if claims.status == INFEASIBLE and prove and not faults:
        reached = score_reachable(board, claims.supply, score)
        if reached is None:
            faults.append(f"cannot confirm that no legal game ends {score.text}: not re-proven within "
                          f"{CHECK_TIME_LIMIT:.0f} s")
        elif reached:
            faults.append(f"claims that no legal game ends {score.text}, but sat finds one")
        else:
            notes.append(f"re-proven by sat: no legal game ends {score.text}")
            proven = score
    if prove and not fault:
        check_certificate(data, board, claims.supply, proven, base, faults, notes)
    summary = ""
    if not faults and claims.status == FEASIBLE:
        summary = (f"a legal finished game of {len(claims.moves)} moves that ends {score.text} (Light {score.light}, "
                   f"Dark {score.dark}): {game.outcome(end).reason}")
    elif not faults and proven is not None:
        summary = f"no legal game ends {score.text} (re-proven by sat" + ("; DRAT certificate verified)"
                                                                         if "certificate" in data else ")")
    elif not faults:
        summary = f"status {claims.status}: nothing claimed about {score.text}"
    return CheckReport(tuple(faults), tuple(notes), summary)


def score_reachable(board: Board, supply: Supply, score: Score, time_limit: float = CHECK_TIME_LIMIT) -> bool | None:
    """Whether a legal game ends with ``score`` (SAT, symmetry breaking on); ``None`` when the
    time limit runs out."""
    return _score_reachable(board, supply, score, time_limit)


@lru_cache(maxsize=32)
def _score_reachable(board: Board, supply: Supply, score: Score, time_limit: float) -> bool | None:
    from pysat.solvers import Solver

    sm = sat_model(board, supply, symmetry=True)
    with Solver(name=SAT_SOLVER, bootstrap_with=sm.clauses) as solver:
        return sat_call(solver, sm.score_literals(score.pair), Budget.seconds(time_limit))


def _check_replay(data: Mapping[str, Any], claims: _Claims, game: Any, states: list[Any], faults: list[str],
                  notes: list[str]) -> None:
    """A record the referee accepts: the game must be over, and every field must say what the
    replay shows (stones, counts, passes, the first pass, the outcome)."""
    where, moves, end = PUZZLE, claims.moves, states[-1]
    total = len(end.light) + len(end.dark)
    open_play = unfinished(game, end)
    if open_play:
        faults.append(f"the record stops after move {len(moves)} before the game is over: {open_play}")
    else:
        notes.append(f"the record replays to a finished game: {game.outcome(end).reason}")
    after = f"after move {len(moves)}"
    if claims.objective is not None and claims.objective != total:
        faults.append(f"claimed objective {claims.objective}, but the game ends {after} with {total} stones")
    for side, listed, real in (("light", claims.light, end.light), ("dark", claims.dark, end.dark)):
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
        real_first = _first_pass(states, moves)
        if claimed != real_first:
            faults.append(f"field 'first_pass' is {claimed}, the record's first pass is "
                          f"{'by ' + real_first if real_first else 'none'}")
    if "outcome" in data:
        said = require(data, "outcome", str, where)
        outcome = game.outcome(end)
        if outcome is None or said != outcome.reason:
            faults.append(f"field 'outcome' {said[:80]!r} is not how the game ends: "
                          f"{outcome.reason if outcome else 'it is not over'!r}")


def _claim_faults(data: Mapping[str, Any], claims: _Claims) -> list[str]:
    """The status, the solver's words, the bound and the objective against each other."""
    where, status, bound, objective = PUZZLE, claims.status, claims.bound, claims.objective
    faults = []
    if status in (INFEASIBLE, UNKNOWN) and claims.moves:
        faults.append(f"claims status {status}, but gives a game record")
    if "solver_status" in data:
        said = require(data, "solver_status", str, where)
        words = SOLVER_STATUSES if claims.score is None else SCORE_SOLVER_STATUSES
        if status is not None and said not in words[status]:
            faults.append(f"field 'solver_status' {said[:40]!r} contradicts status {status}")
    if "sat_solver" in data and require(data, "sat_solver", str, where) != SAT_SOLVER:
        faults.append(f"field 'sat_solver' {str(data['sat_solver'])[:40]!r}: the SAT backend runs {SAT_SOLVER}")
    if bound is not None and objective is not None:
        if status == OPTIMAL and bound != objective:
            faults.append(f"status optimal, but bound {bound} differs from objective {objective}")
        elif status == FEASIBLE and bound == objective:
            faults.append(f"status feasible with bound {bound} equal to the objective: that is optimal")
        elif bound < objective:
            faults.append(f"claimed bound {bound} is below the objective {objective} of the file's own game")
    if status == OPTIMAL and bound is None:
        faults.append("status optimal without a bound")
    return faults


def _proven_optimum(board: Board, claims: _Claims, faults: list[str], notes: list[str]) -> int | None:
    """The claimed bound re-proven by SAT; the optimum when the file's own game reaches it."""
    bound = claims.bound
    if bound is None:
        return None
    held = bound_holds(board, claims.supply, bound)
    if held is None:
        faults.append(f"cannot confirm bound {bound}: not re-proven within {CHECK_TIME_LIMIT:.0f} s")
        return None
    if not held:
        faults.append(f"claimed bound {bound} is wrong: a legal game ends with {bound + 1} stones")
        return None
    notes.append(f"bound {bound} re-proven by sat: no legal game ends with {bound + 1} stones")
    if bound != claims.objective:
        return None
    notes.append(f"optimality of {claims.objective} stones confirmed")
    return bound


def _check_proven(data: Mapping[str, Any], board: Board, supply: Supply, optimum: int, faults: list[str],
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
            if said != (OPTIMAL, optimum, optimum):
                faults.append(f"field 'proofs.{backend}' says {said[0]} {said[1]} (bound {said[2]}); the proven "
                              f"optimum is {optimum}")
        if not any(f.startswith("field 'proofs.") for f in faults):
            notes.append(f"the backends' reported optima ({', '.join(proofs)}) agree with the re-proven optimum "
                         f"{optimum} (their runs are not repeated)")


def _check_calls(data: Mapping[str, Any], board: Board, supply: Supply, total: int, faults: list[str]) -> None:
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


