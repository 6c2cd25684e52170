"""The Power of Two: a player wins with all 16 stones on the board, so count stones on the board.

The game is short (about 17 plies between the levels) and every ply changes the count, so it is
searched by alpha-beta (``SEARCH``): a longer budget sees a ply further, where the Monte-Carlo
search's noisy playouts gained little from it (strong won 9-14 of 20 against normal, alpha-beta 18
of 20 at ten times the time).
"""

from __future__ import annotations

from powertwo.rules.power_of_two import PowerOfTwo, PowerOfTwoState

PLAYOUT_PLIES = 8
SCALE = 2.0
SEARCH = "alphabeta"


def evaluate(game: PowerOfTwo, state: PowerOfTwoState, player: int) -> float:
    """Own stones on the board minus the opponent's."""
    return float(len(state.stones(player)) - len(state.stones(1 - player)))
