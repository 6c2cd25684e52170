"""The computer player's second search: alpha-beta over the shared ``Game`` interface, deepened one
ply at a time until the budget runs out, for games whose evaluation is sharp and whose games are
short (a game's evaluation module chooses it with ``SEARCH = "alphabeta"``).

* **Negamax with alpha-beta**: a position is scored by the game's evaluation for the player to
  move (positive is good for them); a finished game by its result, a win sooner (a loss later)
  scoring more than one further away.
* **Iterative deepening**: depth 1, 2, 3, ... until the deadline (or the node budget under
  ``playouts=``); the move played is the best of the deepest finished iteration, or of the
  unfinished one when its first root move, the previous best, was searched to the end and another
  then beat it. A longer budget thus searches a ply deeper, which is what makes the strong level
  stronger than the normal one.
* **Move ordering**: the best move a shallower search found in a position (a transposition table
  keyed by the position) comes first; at the root the moves come in the order of the last
  iteration's scores, the first iteration in the order of the evaluation one ply down.

The search is deterministic for a given random source: the same position, node budget and seed give
the same move; the seed only orders root moves the evaluation ranks alike.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from powertwo.rules import AnyGame

WIN = 1_000_000.0
"""The score of a won game (less the plies to the win), far beyond any evaluation."""
MAX_DEPTH = 64
"""The deepest iteration (a game decided this far ahead needs no deeper look)."""
CHECK_EVERY = 16
"""Positions between two looks at the clock and the caller's stop (a budget in positions is kept exactly): a
position of The Power of Two costs up to a few milliseconds on a busy machine, so a move ends within
tens of milliseconds of its time."""


@dataclass(frozen=True)
class Deepened:
    """The move of the deepest iteration that counts, its score for the mover, the depth, the positions."""

    move: Any
    score: float
    depth: int
    positions: int

    @property
    def proven(self) -> bool:
        """Whether the score is a proven win or loss (a finished game within the depth searched)."""
        return abs(self.score) >= WIN / 2


class _OutOfBudget(Exception):
    """The clock or the node budget ran out inside an iteration."""


class _AlphaBeta:
    def __init__(self, game: AnyGame, evaluate: Callable[[Any, Any, int], float],
                 moves: Callable[[Any, Any], list], deadline: float | None = None, limit: int | None = None,
                 stop: Callable[[], bool] | None = None):
        self.game, self.evaluate, self.moves = game, evaluate, moves
        self.deadline, self.limit, self.stop = deadline, limit, stop
        self.best: dict[Any, Any] = {}  # position -> best move found for it
        self.positions = 0

    def score(self, state: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Negamax score of ``state`` for its mover, searched ``depth`` plies, within (alpha, beta)."""
        if self.limit is not None and self.positions >= self.limit:
            raise _OutOfBudget
        if self.positions % CHECK_EVERY == CHECK_EVERY - 1 and (
                (self.deadline is not None and time.perf_counter() >= self.deadline)
                or (self.stop is not None and self.stop())):
            raise _OutOfBudget
        self.positions += 1
        game = self.game
        out = game.outcome(state)
        if out is not None:
            if out.winner is None:
                return 0.0
            return WIN - ply if out.winner == state.to_move else -(WIN - ply)
        if depth == 0:
            return self.evaluate(game, state, state.to_move)
        moves = self.moves(game, state)
        if not moves:
            return self.evaluate(game, state, state.to_move)
        first = self.best.get(state)
        if first is not None and first in moves:
            moves = [first] + [m for m in moves if m != first]
        best_move, best = moves[0], -2 * WIN
        for move in moves:
            value = -self.score(game._apply(state, move), depth - 1, -beta, -max(alpha, best), ply + 1)
            if value > best:
                best, best_move = value, move
                if best >= beta:
                    break
        self.best[state] = best_move
        return best


def deepen(game: AnyGame, state: Any, evaluate: Callable[[Any, Any, int], float], moves: Callable[[Any, Any], list],
           deadline: float | None, positions: int | None, rng: random.Random | None = None,
           stop: Callable[[], bool] | None = None) -> Deepened:
    """The move of an iteratively deepened alpha-beta search of ``state`` for its mover, until
    ``deadline`` (``time.perf_counter()``), after ``positions`` positions (a budget of one position
    scores the first root move; with none scored the best evaluated move is played) or when
    ``stop()`` turns true (asked with the clock). Root moves of equal score are tried in an order
    drawn from ``rng`` (none: the listed order), so that a seeded player does not play the same game
    every time."""
    search = _AlphaBeta(game, evaluate, moves, deadline, positions, stop)
    mover = state.to_move
    root = moves(game, state)
    if rng is not None:
        root = rng.sample(root, len(root))
    order = sorted(range(len(root)), key=lambda i: -evaluate(game, game._apply(state, root[i]), mover))
    ranked = [root[i] for i in order]
    found = Deepened(ranked[0], 0.0, 0, 0)  # no move scored yet: the best evaluated one
    for depth in range(1, MAX_DEPTH + 1):
        scores: list[tuple[float, int]] = []
        best, best_move = -2 * WIN, ranked[0]
        try:
            for i, move in enumerate(ranked):
                value = -search.score(game._apply(state, move), depth - 1, -2 * WIN, -best, 1)
                scores.append((value, i))
                if value > best:
                    best, best_move = value, move
        except _OutOfBudget:
            # an unfinished iteration counts where a move beat the previous best searched as deep
            if scores and (depth == 1 or best_move != ranked[0]):
                found = Deepened(best_move, best, depth, search.positions)
            else:
                found = Deepened(found.move, found.score, found.depth, search.positions)
            break
        found = Deepened(best_move, best, depth, search.positions)
        if found.proven:
            break
        ranked = [ranked[i] for _, i in sorted(scores, key=lambda s: (-s[0], s[1]))]
    return found


__all__ = ["Deepened", "WIN", "deepen"]
