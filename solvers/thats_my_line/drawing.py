"""The diagram of a That's My Line solution file: the final position, stones numbered in placing order."""

from __future__ import annotations

from typing import Any, Mapping

from powertwo.boards import Board
from powertwo.models.thats_my_line import DARK, LIGHT

from ..registry import SolutionError, require
from .game import PUZZLE, replay, supply_of, supply_text
from .score import read_score
from ..status import FEASIBLE, INFEASIBLE

def diagram(data: Mapping[str, Any], board: Board, *, names: str | None = "labels"):
    """The final position, each stone numbered in placing order (the legend says so: the
    numbers are not node ids), every node's name in small text beside it (``names``:
    ``"labels"``, ``"ids"``, or None for none)."""
    from powertwo.boards.diagram import Stone
    from powertwo.boards.draw import figure

    supply = supply_of(require(data, "stones", (int, str), PUZZLE))
    score = read_score(data["score"], "field 'score'") if "score" in data else None
    moves = require(data, "record", list, PUZZLE) if "record" in data or score is None else []
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
    if score is not None:
        head = f"That's My Line ({supply_text(supply)} stones per side)"
        title = (f"{head}: a legal game that ends {score.text}, {score.winner() or 'nobody'} wins"
                 if data.get("status") == FEASIBLE
                 else f"{head}: no legal game ends {score.text}" if data.get("status") == INFEASIBLE
                 else f"{head}: no game found that ends {score.text} (status {data.get('status')})")
    legend = {"number": "#n on a stone: placed as the n-th stone of the game (not a node id)"}
    return figure(board, stones=stones, title=title, names=names, legend=legend)


