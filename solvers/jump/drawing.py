"""Get a Jump On diagrams: one small panel per forward step or reverse move, the chain of jumps as a
numbered arrow. An answer is checked first; a faulty one is not drawn (the fault is said instead)."""

from __future__ import annotations

from typing import Any, Mapping

from powertwo.boards import Board

from .checker import check_forward, check_reverse, require_valid
from .options import FORWARD, REVERSE
from .replay import replay_chain
from .tables import JumpTables

JUMP_LEGEND = {"light": "stone", "dark": "the jumping stone", "arrow": "arrow: the chain of jumps of this step",
               "chain": "1, 2, ... beside a chain: its jumps in order", "number": "+ the stone placed this step"}


def diagram_forward(data: Mapping, board: Board, *, names: str | None = None) -> Any:
    """One panel per step: the stones, the placed one marked ``+``, the jumper's chain as an arrow."""
    from powertwo.boards.diagram import Arrow, Stone
    from powertwo.boards.draw import panels

    require_valid(check_forward, FORWARD, data, board)
    occ = {data["corner"]}
    jumper = data["corner"]
    frames = []
    for i, step in enumerate(data["steps"], start=1):
        path = (jumper,) + tuple(step["jumps"])
        occ.add(step["place"])
        occ.discard(jumper)
        jumper = step["jumps"][-1]
        occ.add(jumper)
        stones = [Stone(v, "dark" if v == jumper else "light", text="+" if v == step["place"] else "")
                  for v in sorted(occ)]
        frames.append({"stones": stones, "arrows": [Arrow(path, numbered=True)], "names": names,
                       "title": f"step {i}: +{board.label(step['place'])}, {len(step['jumps'])} jump(s)"})
    return panels(board, frames, columns=8, panel_px=240, legend=JUMP_LEGEND)


def diagram_reverse(data: Mapping, board: Board, *, names: str | None = None) -> Any:
    """One panel per move (the moving stone dark, its chain as an arrow), then the end."""
    from powertwo.boards.diagram import Arrow, Stone
    from powertwo.boards.draw import panels

    require_valid(check_reverse, REVERSE, data, board)
    tables = JumpTables(board, symmetry=False)
    occ = set(data["position"])
    frames = []
    for i, mv in enumerate(data["moves"], start=1):
        path = (mv["from"],) + tuple(mv["jumps"])
        stones = [Stone(v, "dark" if v == mv["from"] else "light") for v in sorted(occ)]
        replay_chain(tables, occ, mv["from"], mv["jumps"], "", remove=True)
        frames.append({"stones": stones, "arrows": [Arrow(path, numbered=True)], "names": names,
                       "title": f"move {i}: {len(mv['jumps'])} jump(s)"})
    frames.append({"stones": [Stone(v, "light") for v in sorted(occ)], "names": names,
                   "title": "end" if data["moves"] else f"start ({data['status']})"})
    legend = JUMP_LEGEND | {"dark": "the stone that moves (a chain of jumps is one move)"}
    return panels(board, frames, columns=6, panel_px=260, legend=legend)
