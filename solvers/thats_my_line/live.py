"""The workbench's live check of the That's My Line solitaire played by clicks (the puzzle's
``live_check`` hook): the record so far replayed by the referee, then the checker behind
``powertwo check`` on the solution it makes, and what the next click may do."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Mapping

from powertwo.boards import Board

from ..fields import SolutionError, require
from ..registry import committed_answer, get_puzzle
from .checker import check
from .game import PUZZLE, replay, supply_of


def live_check(board: Board, answer: Mapping[str, Any]) -> dict[str, Any]:
    """The verdict on ``answer`` (its ``record`` of move texts so far and the ``stones`` per side,
    default 16) on ``board``."""
    record = require(answer, "record", list, f"{PUZZLE} solution")
    if not all(isinstance(m, str) for m in record):
        raise SolutionError("field 'record' must be a list of move strings")
    stones = answer.get("stones")
    stones = 16 if stones is None else stones
    game, states, fault = replay(board, supply_of(stones), record)
    end = states[-1]
    total = len(end.light) + len(end.dark)
    solution = {"puzzle": PUZZLE, "board": board.name, "stones": stones, "record": record,
                "light": sorted(end.light), "dark": sorted(end.dark), "objective": total}
    report = check(solution, board)
    done = committed_answer(get_puzzle(PUZZLE), board)
    best = done.get("objective") if done and done.get("stones") == stones else None
    options = game.click_options(end, ())  # after the last legal move
    verdict = "invalid" if not report.valid else "valid, optimal" if total == best else "valid, not optimal"
    return {"valid": report.valid, "verdict": verdict, "faults": list(report.faults), "notes": list(report.notes),
            "objective": total, "optimum": best, "sense": "max", "bad_lines": [], "fault": fault,
            "record": record[:len(states) - 1],
            "stones_view": [asdict(s) for s in game.diagram(end, None).get("stones", [])],
            "next": sorted(options.next), "pass": any(not game.move_clicks(m, end) for m in options.complete),
            "to_move": game.player_name(end.to_move)}
