"""The computer opponent: a Monte-Carlo tree search with game-specific evaluations, in levels by time.

:func:`choose_move` picks a move for any registered game; :data:`LEVELS` names the thinking times.
"""

from powertwo.solvers.players.mcts import (
    LEVELS, WIDE_LIMIT, SearchResult, choose_move, moves_of, random_move, seconds_for,
)

__all__ = ["LEVELS", "SearchResult", "WIDE_LIMIT", "choose_move", "moves_of", "random_move", "seconds_for"]
