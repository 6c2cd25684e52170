"""Get a Jump On: reading steps and moves (:func:`parse_chains`) and replaying them on the board
(:func:`replay_forward`, :func:`replay_reverse`): the first bad jump named, nodes by their labels.
The checkers and the workbench's click puzzles share them."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from powertwo.boards import Board, NodeError, NodeId, read_node

from ..fields import SolutionError, require
from .options import node_in
from .tables import JumpTables


def parse_chains(raw: list, start_key: str, noun: str, where: str, board: Board) -> list[tuple[NodeId, list[NodeId]]]:
    """Steps ``{"place", "jumps"}`` or moves ``{"from", "jumps"}`` as (node, landings) pairs."""
    out = []
    for i, entry in enumerate(raw, start=1):
        here = f"{where}: {noun} {i}"
        if not isinstance(entry, Mapping):
            raise SolutionError(f"{here}: must be an object {{'{start_key}': node, 'jumps': [landings]}}")
        out.append((node_field(entry, start_key, here, board),
                    _landings(require(entry, "jumps", list, here), here, board)))
    return out


def _landings(raw: Any, where: str, board: Board) -> list[NodeId]:
    if not isinstance(raw, list):
        raise SolutionError(f"{where}: field 'jumps' must be a list of landing nodes")
    landings = []
    for v in raw:
        try:
            landings.append(read_node(board, v, where))
        except NodeError as exc:
            why = (f"field 'jumps': {exc.shown!r} is not a node (an id or a label)" if exc.malformed
                   else f"node {exc.shown} does not exist on board {board.name}")
            raise SolutionError(f"{where}: {why}") from None
    return landings


def node_field(entry: Mapping, key: str, where: str, board: Board) -> NodeId:
    """The node ``entry[key]`` (an id or a label); missing, the shared "missing field" error."""
    if key not in entry:
        require(entry, key, int, where)
    return node_in(board, entry[key], where)


def replay_chain(tables: JumpTables, occ: set, cur: NodeId, landings: Sequence[NodeId], label: str,
                 remove: bool) -> tuple[str | None, NodeId]:
    """Replays a chain of jumps of the stone on ``cur`` (``remove``: jumped stones go), updating
    ``occ``; returns the first fault (nodes by their labels) and the node the stone stands on."""
    name = tables.board.label
    for k, nxt in enumerate(landings, start=1):
        over = tables.over.get((cur, nxt))
        jump = f"{label}, jump {k}: {name(cur)} to {name(nxt)}"
        if over is None:
            return f"{jump} is not a jump along a line", cur
        if over not in occ:
            return f"{jump} jumps over node {name(over)}, which is empty", cur
        if nxt in occ:
            return f"{jump} lands on node {name(nxt)}, which is occupied", cur
        occ.discard(cur)
        if remove:
            occ.discard(over)
        occ.add(nxt)
        cur = nxt
    return None, cur


def replay_forward(board: Board, corner: NodeId, steps: Sequence[tuple[NodeId, Sequence[NodeId]]]
                   ) -> tuple[str | None, set[NodeId], NodeId, int]:
    """Replays forward steps (place, landings) from the jumper on ``corner``, up to the first bad
    one: (its fault or None, the stones, the jumper's node, the number of steps with chain jumps).
    The checker and the workbench's click puzzle share it."""
    tables = JumpTables(board, symmetry=False)
    name = board.label
    occ = {corner}
    jumper = corner
    chains = 0
    for i, (place, landings) in enumerate(steps, start=1):
        label = f"step {i}"
        if place in occ:
            return f"{label}: node {name(place)} is occupied", occ, jumper, chains
        if place not in board.adjacency[jumper]:
            return f"{label}: node {name(place)} is not adjacent to the jumper at {name(jumper)}", occ, jumper, chains
        if not landings:
            return f"{label}: the stone placed on {name(place)} is not jumped (no landing given)", occ, jumper, chains
        if tables.over.get((jumper, landings[0])) != place:
            return (f"{label}: the first landing {name(landings[0])} is not the node beyond {name(place)} from the "
                    f"jumper at {name(jumper)}", occ, jumper, chains)
        occ.add(place)
        fault, jumper = replay_chain(tables, occ, jumper, landings, label, remove=False)
        if fault:
            return fault, occ, jumper, chains
        chains += len(landings) > 1
    return None, occ, jumper, chains


def replay_reverse(board: Board, start: Sequence[NodeId], moves: Sequence[tuple[NodeId, Sequence[NodeId]]]
                   ) -> tuple[str | None, set[NodeId]]:
    """Replays reverse moves (from, landings) on ``start`` up to the first bad one: (its fault or
    None, the stones left). The checker and the workbench's click puzzle share it."""
    tables = JumpTables(board, symmetry=False)
    occ = set(start)
    for i, (frm, landings) in enumerate(moves, start=1):
        label = f"move {i}"
        if frm not in occ:
            return f"{label}: node {board.label(frm)} has no stone", occ
        if not landings:
            return f"{label}: no jump given", occ
        fault, _ = replay_chain(tables, occ, frm, landings, label, remove=True)
        if fault:
            return fault, occ
    return None, occ
