"""That's My Line, plain: the rule text of RULES.md section 4, read literally, for cross-checks."""

from __future__ import annotations

from powertwo.boards import NodeId
from powertwo.rules.thats_my_line import PASS, Pass, Place, ThatsMyLine, ThatsMyLineMove, ThatsMyLineState


def _supply_left(game: ThatsMyLine, state: ThatsMyLineState, player: int) -> bool:
    stones = state.light if player == 0 else state.dark
    return game.supply is None or len(stones) < game.supply


def _may_place(game: ThatsMyLine, state: ThatsMyLineState, player: int, node: NodeId) -> bool:
    """A free node that lies on no line holding an opponent stone, and a stone left to place."""
    if node in state.light or node in state.dark:
        return False
    if not _supply_left(game, state, player):
        return False
    theirs = state.dark if player == 0 else state.light
    for line in game.board.lines:
        if node in line and any(w in theirs for w in line):
            return False
    return True


def _can_place(game: ThatsMyLine, state: ThatsMyLineState, player: int) -> bool:
    return any(_may_place(game, state, player, v) for v in game.board.nodes)


def candidates(game: ThatsMyLine, state: ThatsMyLineState) -> list[ThatsMyLineMove]:
    """Every node, and the pass."""
    return [Place(v) for v in game.board.nodes] + [PASS]


def check(game: ThatsMyLine, state: ThatsMyLineState, move: ThatsMyLineMove) -> str | None:
    me = state.to_move
    if not _can_place(game, state, 0) and not _can_place(game, state, 1):
        return "the game is over"
    if isinstance(move, Pass):
        return "the mover can place" if _can_place(game, state, me) else None
    if not _may_place(game, state, me, move.node):
        return f"node {move.node} is not open to the mover"
    return None
SAMPLE_POSITIONS = 400  # seeded random positions the conformance test checks against this module


def apply(game: ThatsMyLine, state: ThatsMyLineState, move: ThatsMyLineMove) -> ThatsMyLineState:
    """The position after a legal ``move``: a pass changes only the turn; a placement adds the
    mover's stone and makes the mover the last placer (equal counts go to them)."""
    me = state.to_move
    if isinstance(move, Pass):
        return ThatsMyLineState(state.light, state.dark, 1 - me, state.ply + 1, state.last_placer)
    light, dark = set(state.light), set(state.dark)
    (light if me == 0 else dark).add(move.node)
    return ThatsMyLineState(frozenset(light), frozenset(dark), 1 - me, state.ply + 1, me)


def outcome(game: ThatsMyLine, state: ThatsMyLineState) -> int | str | None:
    """RULES.md §4's end: when neither can place, more stones placed wins; on equal counts the
    player who placed last (nobody placed: a draw). ``None`` while a player can place."""
    from . import DRAW

    if _can_place(game, state, 0) or _can_place(game, state, 1):
        return None
    light, dark = len(state.light), len(state.dark)
    if light != dark:
        return 0 if light > dark else 1
    return DRAW if state.last_placer is None else state.last_placer
