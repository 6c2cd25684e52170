"""Two by Two for every stone count (``powertwo solve two-by-two --table``): the most lines holding
exactly two with N stones, for N from 0 to the board's nodes, so a reader sees for which counts the
booklet's 21 is the best (RULES.md section 5), checked like an answer file and drawn as a plot.

Each count is one CP-SAT solve of the count-indicator model (:mod:`powertwo.models.two_by_two`)
with **one worker and a deterministic time limit** (``max_deterministic_time``, CP-SAT's measure of
work, about a second per unit on a current core): the same rows, bounds and answers on every
machine and every run, so the committed table is rewritten byte for byte. A count whose proof does
not finish within the limit keeps its best answer and its proven bound (status ``feasible``): a
bound, honestly marked, never an optimum.

A table file::

    {"puzzle": "two-by-two", "board", "board_fingerprint", "strict", "stones_rule",
     "time_limit": work units per count, "symmetry_breaking",
     "table": [{"stones": N, "status", "objective", "bound", "answer": [node ids]}, ...]}

The at-most reading needs no solve of its own: its optimum with at most N stones is the best row
up to N (the plot draws it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Mapping

from powertwo.boards import Board, NodeId

from ..fields import SolutionError, board_fields, choice_field, known_fields, node_ids, require
from ..registry import CheckReport, Progress, no_progress
from ..satcall import cpsat_sigint
from .variants import Variant
from ..status import FEASIBLE, INFEASIBLE, OPTIMAL, STATUSES, UNKNOWN

TABLE_WORK = 20.0
"""Deterministic seconds of CP-SAT work per stone count, the default of ``--table``."""
TABLE_FIELDS = frozenset({"puzzle", "board", "board_fingerprint", "strict", "stones_rule", "time_limit",
                          "symmetry_breaking", "table", "seconds", "stopped"})
ROW_FIELDS = frozenset({"stones", "status", "objective", "bound", "answer", "seconds"})
BOOKLET_LINES = 21
"""The booklet's challenge: "at least 21 lines? Or more than 21?" (RULES.md section 5)."""


@dataclass(frozen=True)
class Row:
    """One stone count: its status, the best answer found (``objective`` lines with two), the
    proven upper ``bound``, and the seconds it took (kept out of the committed file)."""

    stones: int
    status: str
    objective: int | None
    bound: int | None
    answer: tuple[NodeId, ...]
    seconds: float = 0.0
    interrupted: bool = False
    """Whether Ctrl-C, not the work limit, ended the solve (CP-SAT then stops before it)."""

    def to_json(self, timings: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"stones": self.stones, "status": self.status, "objective": self.objective,
                               "bound": self.bound, "answer": list(self.answer)}
        if timings:
            out["seconds"] = round(self.seconds, 3)
        return out


@dataclass(frozen=True)
class CountTable:
    """The optimum for every stone count of one Two by Two variant."""

    board: Board
    var: Variant
    rows: tuple[Row, ...]
    time_limit: float
    symmetry: bool = True
    interrupted: bool = False

    def to_json(self, timings: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"puzzle": self.var.puzzle, **board_fields(self.board), "strict": self.var.strict,
                               "stones_rule": self.var.stones_rule, "time_limit": self.time_limit,
                               "symmetry_breaking": self.symmetry,
                               "table": [row.to_json(timings) for row in self.rows]}
        if timings:
            out["seconds"] = round(sum(row.seconds for row in self.rows), 3)
        if self.interrupted:
            out["stopped"] = f"interrupted (Ctrl-C) after {len(self.rows) - 1} stones"
        return out

    @property
    def proven(self) -> int:
        return sum(1 for row in self.rows if row.status in (OPTIMAL, INFEASIBLE))


def solve_count(board: Board, var: Variant, stones: int, *, work: float = TABLE_WORK, symmetry: bool = True) -> Row:
    """One stone count by CP-SAT: one worker, ``work`` deterministic seconds (reproducible)."""
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    model, x, _ = var.cpsat(board, stones, symmetry)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = float(work)
    solver.parameters.catch_sigint_signal = True
    with cpsat_sigint():
        status = solver.solve(model)
    seconds = time.perf_counter() - started
    stopped = solver.deterministic_time < 0.99 * work  # Ctrl-C: the work limit was not reached
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        answer = tuple(v for v in board.nodes if solver.boolean_value(x[v]))
        value = var.objective(board, answer)
        if status == cp_model.OPTIMAL:
            return Row(stones, OPTIMAL, value, value, answer, seconds)
        bound = max(value, int(solver.best_objective_bound // 1))
        return Row(stones, FEASIBLE, value, bound, answer, seconds, interrupted=stopped)
    if status == cp_model.INFEASIBLE:
        return Row(stones, INFEASIBLE, None, None, (), seconds)
    return Row(stones, UNKNOWN, None, None, (), seconds, interrupted=stopped)


_SOLVED: dict[tuple[Board, Variant, int, float], Row] = {}


def confirmed_count(board: Board, var: Variant, stones: int, work: float) -> Row:
    """:func:`solve_count` once per board, variant, count and work limit in a process (the solve is
    deterministic, so the table the results job writes and its check share it; a solve Ctrl-C
    stopped is not kept)."""
    key = (board, var, stones, work)
    if key not in _SOLVED:
        row = solve_count(board, var, stones, work=work)
        if row.interrupted:
            return row
        _SOLVED[key] = row
    return _SOLVED[key]


def count_table(board: Board, var: Variant, *, time_limit: float | None = None, symmetry: bool = True,
                progress: Progress = no_progress) -> CountTable:
    """Every stone count from 0 to the board's nodes (Ctrl-C stops after the count in hand: the
    table then ends there and says so)."""
    if not var.exact_stones:
        raise SolutionError("--table --at-most: the at-most optimum with N stones is the best of the exact "
                            "counts up to N; run --table without --at-most (its plot draws both)")
    work = TABLE_WORK if time_limit is None else float(time_limit)
    rows: list[Row] = []
    for stones in range(board.size + 1):
        row = confirmed_count(board, var, stones, work) if symmetry else \
            solve_count(board, var, stones, work=work, symmetry=False)
        rows.append(row)
        progress(f"{var.name} table: {stones} stones: {row.status} {row.objective} (bound {row.bound}), "
                 f"{row.seconds:.1f} s")
        if row.interrupted:
            return CountTable(board, var, tuple(rows), work, symmetry, interrupted=True)
    return CountTable(board, var, tuple(rows), work, symmetry)


# ---------------------------------------------------------------------------- checking a table file
def table_variant(data: Mapping[str, Any]) -> Variant:
    from .variants import variant

    where = "two-by-two table"
    strict = data.get("strict", False)
    if not isinstance(strict, bool):
        raise SolutionError(f"{where}: field 'strict' must be true or false")
    rule = choice_field(data, "stones_rule", ("exactly",), where)
    return variant("two-by-two", strict, at_most=rule != "exactly")


def check_table(data: Mapping[str, Any], board: Board) -> CheckReport:
    """Check a table file: every row's answer recomputed (its stone count and lines with two), and
    every claimed status and bound against the checker's own solve of that count with the file's
    work limit (deterministic, so a proven row is proven again)."""
    where = "two-by-two table"
    known_fields(data, TABLE_FIELDS, where)
    var = table_variant(data)
    limit = data.get("time_limit", TABLE_WORK)
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not 0 < limit <= 3600:
        raise SolutionError(f"{where}: field 'time_limit' must be a number of seconds from 0 to 3600")
    rows = require(data, "table", list, where)
    if len(rows) > board.size + 1:
        raise SolutionError(f"{where}: field 'table' has {len(rows)} rows, the board has {board.size} nodes")
    faults: list[str] = []
    for k, raw in enumerate(rows):
        faults += _row_faults(board, var, raw, k, float(limit))
    counts = [raw.get("stones") for raw in rows if isinstance(raw, Mapping)]
    if counts != list(range(len(rows))):
        faults.append(f"the table's rows are not the stone counts 0 to {len(rows) - 1} in order")
    proven = sum(1 for raw in rows if isinstance(raw, Mapping) and raw.get("status") in (OPTIMAL, INFEASIBLE))
    summary = (f"{len(rows)} stone counts, {proven} proven optimal (or infeasible), the rest bounds; every answer "
               f"and claim confirmed by cp-sat")
    return CheckReport(tuple(faults), (), summary if not faults else "")


def _row_faults(board: Board, var: Variant, raw: Any, k: int, work: float) -> list[str]:
    where = f"two-by-two table: row {k}"
    if not isinstance(raw, Mapping):
        raise SolutionError(f"{where} must be an object {{stones, status, objective, bound, answer}}")
    known_fields(raw, ROW_FIELDS, where)
    stones = raw.get("stones")
    if isinstance(stones, bool) or not isinstance(stones, int) or not 0 <= stones <= board.size:
        raise SolutionError(f"{where}: field 'stones' must be a count from 0 to {board.size}")
    status = choice_field(raw, "status", STATUSES, where)
    answer = node_ids(require(raw, "answer", list, where), board, where, field="answer")
    faults = []
    label = f"row {stones} stones"
    if len(set(answer)) != len(answer):
        faults.append(f"{label}: the answer lists a node twice")
    if status in (OPTIMAL, FEASIBLE) and len(set(answer)) != stones:
        faults.append(f"{label}: the answer places {len(set(answer))} stones, not {stones}")
    value = var.objective(board, answer) if status in (OPTIMAL, FEASIBLE) else None
    if raw.get("objective") != value:
        faults.append(f"{label}: claims objective {raw.get('objective')}, the answer gives {value}")
    if faults:
        return faults
    own = confirmed_count(board, var, stones, work)
    bound = raw.get("bound")
    if status in (OPTIMAL, INFEASIBLE) and own.status != status:
        faults.append(f"{label}: claims {status}, the checker's cp-sat solve ends {own.status} "
                      f"(bound {own.bound}) within {work:g} work seconds")
    elif status == OPTIMAL and own.objective != value:
        faults.append(f"{label}: claims optimal {value}, cp-sat proves {own.objective}")
    elif status == FEASIBLE:
        proven = own.bound if own.status in (OPTIMAL, FEASIBLE) else None  # the least bound the checker has
        if isinstance(bound, bool) or not isinstance(bound, int) or value is None or bound < value:
            faults.append(f"{label}: claims bound {bound!r}, below its own answer's {value} (or not a number)")
        elif proven is None or bound < proven:
            faults.append(f"{label}: claims bound {bound}, the checker's cp-sat solve proves only {proven}")
    if status == OPTIMAL and bound != value:
        faults.append(f"{label}: claims status optimal with bound {bound}, not its objective {value}")
    return faults


# ---------------------------------------------------------------------------- the plot
def table_figure(data: Mapping[str, Any], board: Board) -> Any:
    """The optimum against the stone count: the exact counts (proven points filled, a bound drawn
    as a bar up to it), the at-most reading (the best count up to N), and the booklet's 21."""
    from powertwo.boards import draw  # noqa: F401  (matplotlib set up for reproducible files)
    import matplotlib.pyplot as plt

    var = table_variant(data)
    rows = [r for r in require(data, "table", list, "two-by-two table") if r.get("objective") is not None]
    fig, ax = plt.subplots(figsize=(9, 5.2), dpi=100)
    proven = [(r["stones"], r["objective"]) for r in rows if r["status"] == OPTIMAL]
    open_rows = [r for r in rows if r["status"] != OPTIMAL]
    ax.plot(*zip(*proven, strict=True), "o-", color="#b2182b", ms=4, label="exactly N stones (proven optimum)")
    for r in open_rows:
        ax.plot([r["stones"]] * 2, [r["objective"], r["bound"]], "-", color="#b2182b", lw=3, alpha=0.4)
        ax.plot([r["stones"]], [r["objective"]], "o", mfc="white", color="#b2182b", ms=5)
    if open_rows:
        ax.plot([], [], "o", mfc="white", color="#b2182b", label="best found, bar up to the proven bound")
    best, at_most = -1, []
    for r in rows:
        best = max(best, r["objective"])
        at_most.append((r["stones"], best))
    ax.plot(*zip(*at_most, strict=True), "--", color="#2166ac", lw=1.2, label="at most N stones (the earlier reading)")
    if len(board.lines) > BOOKLET_LINES:
        ax.axhline(BOOKLET_LINES, color="grey", lw=1, ls=":")
        ax.text(0.5, BOOKLET_LINES + 0.3, f"the booklet's {BOOKLET_LINES}", color="grey", fontsize=8)
    at_32 = next((r for r in rows if r["stones"] == 32), None) if board.size > 32 else None
    if at_32 is not None:
        ax.axvline(32, color="grey", lw=1, ls=":")
        ax.annotate(f"all 32 stones: {at_32['objective']}" + ("" if at_32["status"] == OPTIMAL else " (bound "
                                                                 f"{at_32['bound']})"),
                    (32, at_32["objective"]), xytext=(34, at_32["objective"] + 2), fontsize=8,
                    arrowprops={"arrowstyle": "->", "color": "grey"})
    ax.set_xlabel("stones placed (N)")
    ax.set_ylabel("lines holding exactly two")
    ax.set_title(f"{var.title}: the most lines with exactly two, by stone count ({board.name}, "
                 f"{len(board.lines)} lines)", fontsize=10)
    ax.set_xlim(-0.5, board.size + 0.5)
    ax.set_ylim(0, len(board.lines) * 1.22)  # room above the at-most line for the legend
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    return fig
