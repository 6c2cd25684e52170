"""Tower of Power: a player who controls no square loses, so count controlled squares and stones."""

from __future__ import annotations

from powertwo.rules.tower_of_power import TowerOfPower, TowerOfPowerState

PLAYOUT_PLIES = 6
SCALE = 4.0


def evaluate(game: TowerOfPower, state: TowerOfPowerState, player: int) -> float:
    """Controlled squares plus stones on the board, own minus the opponent's."""
    score = 0
    for stack in state.stacks:
        if stack:
            score += 1 if stack[-1] == player else -1
            score += stack.count(player) - stack.count(1 - player)
    return float(score)
