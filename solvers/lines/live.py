"""The workbench's live check of a line puzzle's stones, placed by clicks (the puzzles' ``live_check``
hook): the checker behind ``powertwo check`` on the stones, then the objective against the proven
optimum, and the lines at fault (for highlighting)."""

from __future__ import annotations

from typing import Any, Mapping

from powertwo.boards import Board
from powertwo.models.cards import line_counts

from ..fields import node_ids, require
from ..status import OPTIMAL
from .checker import check, confirmed
from .variants import STONES, variant


def live_check(board: Board, answer: Mapping[str, Any]) -> dict[str, Any]:
    """The verdict on ``answer`` (``puzzle``, its ``stones`` so far and ``strict``) on ``board``."""
    puzzle = require(answer, "puzzle", str, "live check")
    strict = answer.get("strict") is True
    stones = require(answer, "stones", list, f"{puzzle} solution")
    var = variant(puzzle, strict)
    data = {"puzzle": puzzle, "board": board.name, "stones": stones, "strict": strict}
    if var.lists_lines:  # the booklet's reading (RULES.md section 5): exactly 32 stones, never the earlier at-most
        data["stones_rule"] = var.stones_rule
    report = check(data, board)
    stone_set = sorted(set(node_ids(stones, board, f"{puzzle} solution", field="stones")))
    counts = line_counts(board, stone_set)
    bad = [k for k, held in enumerate(counts) if var.line_fault(held)]
    value = var.objective(board, stone_set)
    optimum = confirmed(board, var, STONES)
    best = optimum.objective if optimum.status == OPTIMAL else None
    verdict = "invalid"
    if report.valid:
        verdict = "valid, optimal" if best is not None and value == best else "valid, not optimal"
    return {"valid": report.valid, "verdict": verdict, "faults": list(report.faults), "notes": list(report.notes),
            "objective": value, "optimum": best, "sense": var.sense, "bad_lines": bad,
            "line_counts": counts, "stones": stone_set}
