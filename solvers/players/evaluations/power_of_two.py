"""The Power of Two: a player wins with all 16 stones on the board, so count stones on the board."""

from __future__ import annotations

from powertwo.rules.power_of_two import PowerOfTwo, PowerOfTwoState

PLAYOUT_PLIES = 8
SCALE = 2.0


def evaluate(game: PowerOfTwo, state: PowerOfTwoState, player: int) -> float:
    """Own stones on the board minus the opponent's."""
    return float(len(state.stones(player)) - len(state.stones(1 - player)))
