"""That's My Line: more stones placed wins, so count stones placed and nodes still open to place on."""

from __future__ import annotations

from powertwo.rules.thats_my_line import ThatsMyLine, ThatsMyLineState

PLAYOUT_PLIES = 40
SCALE = 2.0


def evaluate(game: ThatsMyLine, state: ThatsMyLineState, player: int) -> float:
    """Own stones plus own open nodes, minus the opponent's."""
    def side(p: int) -> int:
        return len(state.stones(p)) + game.open_mask(state, p).bit_count()
    return float(side(player) - side(1 - player))
