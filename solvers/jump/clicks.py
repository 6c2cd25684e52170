"""Get a Jump On built node by node: the workbench's click puzzles (issue 11).

An answer so far is the solution file's own list of chains: forward steps ``{"place", "jumps"}``
from the jumper's corner, reverse moves ``{"from", "jumps"}`` from a position. One click either
continues the current chain (a free node one jump away from the stone that jumped last), starts
a new chain (forward: a free node next to the jumper with a free node beyond it, which places a
stone there and jumps it; reverse: a stone, picked up as a move with no jump yet), or is refused
with the reason. The replay is the checker's own (:func:`~powertwo.solvers.jump.replay_forward`,
:func:`~powertwo.solvers.jump.replay_reverse`), so a click answer is valid exactly when
``powertwo check`` accepts the file it downloads.

On a board two nodes share at most one line, so a free node next to the jumper is never also one
jump away from it: a forward click is never ambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from powertwo.boards import Board, NodeId

from ..registry import SolutionError, board_fields
from .options import FORWARD, REVERSE, STONES
from .replay import parse_chains, replay_forward, replay_reverse
from .tables import JumpTables
from ..status import FEASIBLE, UNKNOWN

Chain = tuple[NodeId, tuple[NodeId, ...]]


class IllegalClick(SolutionError):
    """A click that continues no chain and starts none; the message says why."""


@dataclass(frozen=True)
class JumpClicks:
    """The answer so far, replayed: ``chains`` (start node, landings), the stones on the board, the
    stone whose chain may continue (``jumper``; forward: always the jumper), a reverse stone
    ``picked`` up with no jump yet, and what may come next: ``places`` (forward: a new step),
    ``landings`` (the chain goes on, or the picked stone jumps) and ``starts`` (reverse: stones
    that have a jump, a click picks one up)."""

    puzzle: str
    chains: tuple[Chain, ...]
    stones: tuple[NodeId, ...]
    jumper: NodeId | None
    picked: NodeId | None
    places: tuple[NodeId, ...]
    landings: tuple[NodeId, ...]
    starts: tuple[NodeId, ...]

    @property
    def next(self) -> tuple[NodeId, ...]:
        return tuple(sorted({*self.places, *self.landings, *self.starts}))

    @property
    def finished(self) -> bool:
        """Forward: 32 stones on the board; reverse: one stone left."""
        return len(self.stones) == STONES if self.puzzle == FORWARD else len(self.stones) == 1

    @property
    def complete(self) -> tuple[Chain, ...]:
        """The chains without a stone picked up but not yet jumped."""
        return self.chains[:-1] if self.picked is not None else self.chains

    def file(self, board: Board, origin: Any) -> dict:
        """The solution file of the answer so far, as ``powertwo check`` reads it."""
        chains = entries(self.puzzle, self.complete)
        if self.puzzle == FORWARD:
            return {"puzzle": FORWARD, **board_fields(board), "corner": origin, "steps": chains}
        return {"puzzle": REVERSE, **board_fields(board), "position": sorted(origin), "moves": chains,
                "status": FEASIBLE if self.finished else UNKNOWN,
                "objective": len(chains) if self.finished else None}


def entries(puzzle: str, chains: Sequence[Chain]) -> list[dict]:
    """Chains as the solution file writes them: forward ``{"place", "jumps"}``, reverse
    ``{"from", "jumps"}`` (what :func:`replay` reads back)."""
    key = "place" if puzzle == FORWARD else "from"
    return [{key: start, "jumps": list(landings)} for start, landings in chains]


def replay(board: Board, puzzle: str, origin: Any, raw: Sequence[Any]) -> JumpClicks:
    """The answer so far from its chains as the page sends them (solution-file entries; the last
    reverse move may have no jump yet). A chain the checker refuses raises :class:`SolutionError`."""
    if puzzle not in (FORWARD, REVERSE):
        raise SolutionError(f"click puzzles of Get a Jump On are {FORWARD} and {REVERSE}, not {puzzle!r}")
    key = "place" if puzzle == FORWARD else "from"
    parsed = parse_chains(list(raw), key, "step" if puzzle == FORWARD else "move", puzzle, board)
    over = JumpTables(board, symmetry=False).over  # (from, to) -> the node jumped over
    if puzzle == FORWARD:
        fault, occ, jumper, _ = replay_forward(board, origin, parsed)
        if fault:
            raise SolutionError(f"{puzzle}: {fault}")
        free = set(board.nodes) - occ
        places = [] if len(occ) >= STONES else sorted(
            v for v in board.adjacency[jumper] if v in free and any(
                over.get((jumper, t)) == v and t in free for t in board.nodes))
        landings = [] if not parsed else sorted(t for (f, t), o in over.items()
                                                 if f == jumper and o in occ and t in free)
        chains = tuple((s, tuple(js)) for s, js in parsed)
        return JumpClicks(puzzle, chains, tuple(sorted(occ)), jumper, None, tuple(places), tuple(landings), ())
    start = list(origin)
    picked = parsed[-1][0] if parsed and not parsed[-1][1] else None
    done = parsed[:-1] if picked is not None else parsed
    fault, occ = replay_reverse(board, start, done)
    if fault:
        raise SolutionError(f"{puzzle}: {fault}")
    if picked is not None and picked not in occ:
        raise SolutionError(f"{puzzle}: move {len(parsed)}: node {board.label(picked)} has no stone")
    last: NodeId | None = done[-1][1][-1] if done else None
    mover = picked if picked is not None else last

    def targets(v: NodeId) -> list[NodeId]:
        return sorted(t for (f, t), o in over.items() if f == v and o in occ and t not in occ)

    landings = targets(mover) if mover is not None else []
    starts = sorted(v for v in occ if targets(v)) if len(occ) > 1 else []
    chains = tuple((s, tuple(js)) for s, js in parsed)
    return JumpClicks(puzzle, chains, tuple(sorted(occ)), mover, picked, (), tuple(landings), tuple(starts))


def click(board: Board, state: JumpClicks, node: NodeId) -> tuple[Chain, ...]:
    """The chains after one click on ``node``, or :class:`IllegalClick` saying why not."""
    if isinstance(node, bool) or not board.has_node(node):
        raise IllegalClick(f"{str(node)[:40]} is not a node of board {board.name}")
    chains = list(state.chains)
    if state.puzzle == FORWARD:
        if node in state.landings:  # the jumper's chain goes on
            start, landings = chains[-1]
            chains[-1] = (start, (*landings, node))
        elif node in state.places:  # a new step: place a stone on node, jump it
            beyond = next(c for a, b, c in board.jumps if a == state.jumper and b == node)
            chains.append((node, (beyond,)))
        else:
            raise IllegalClick(_forward_reason(board, state, node))
        return tuple(chains)
    if state.picked is not None and node == state.picked:  # put the picked stone down again
        return tuple(chains[:-1])
    if node in state.landings:
        start, landings = chains[-1]
        if state.picked is not None and len(chains) >= 2 and chains[-2][1] and chains[-2][1][-1] == state.picked:
            chains.pop()  # the stone that jumped last goes on: the same move, not a new one
            start, landings = chains[-1]
        chains[-1] = (start, (*landings, node))
        return tuple(chains)
    if node in state.starts:
        if state.picked is not None:
            chains.pop()
        chains.append((node, ()))
        return tuple(chains)
    raise IllegalClick(_reverse_reason(board, state, node))


def undo(state: JumpClicks) -> tuple[Chain, ...]:
    """The chains without the last click: the last landing (a forward step with it, when it was
    the step's first), or the stone picked up."""
    chains = list(state.chains)
    if not chains:
        return ()
    start, landings = chains[-1]
    if len(landings) <= 1:
        chains.pop()
    else:
        chains[-1] = (start, landings[:-1])
    return tuple(chains)


def _forward_reason(board: Board, state: JumpClicks, node: NodeId) -> str:
    j = state.jumper
    assert j is not None  # forward: the jumper always stands somewhere
    v, at = board.label(node), board.label(j)
    if len(state.stones) >= STONES:
        return f"{v}: all {STONES} stones are on the board"
    if node in state.stones:
        return f"{v}: the node is occupied"
    if node in board.adjacency[j]:
        return f"{v}: the node beyond {v} from the jumper at {at} is occupied or off the line's end"
    return (f"{v}: not next to the jumper at {at} (a new stone goes next to it) and no jump of the jumper "
            f"lands there")


def _reverse_reason(board: Board, state: JumpClicks, node: NodeId) -> str:
    v = board.label(node)
    if len(state.stones) == 1:
        return f"{v}: one stone is left, the puzzle is solved"
    if node in state.stones:
        return f"{v}: the stone there has no jump (no stone next to it with a free node beyond)"
    if state.picked is not None:
        return f"{v}: the stone on {board.label(state.picked)} cannot jump there"
    if state.jumper is not None:
        return f"{v}: no jump of the stone on {board.label(state.jumper)} lands there; click a stone to start a move"
    return f"{v}: the node is empty; click a stone to start a move"


__all__ = ["IllegalClick", "JumpClicks", "replay", "click", "undo", "entries"]
