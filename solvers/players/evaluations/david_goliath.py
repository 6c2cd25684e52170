"""David and Goliath: a candidate that cannot move loses, so compare the room each can reach."""

from __future__ import annotations

from powertwo.rules.david_goliath import DavidGoliath, DavidGoliathState

PLAYOUT_PLIES = 4
SCALE = 4.0


def evaluate(game: DavidGoliath, state: DavidGoliathState, player: int) -> float:
    """Free nodes the own candidate can reach minus the opponent's."""
    return float(len(game.reachable(state, player)) - len(game.reachable(state, 1 - player)))
