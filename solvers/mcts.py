"""A generic computer player: Monte-Carlo tree search (UCT) over the shared ``Game`` interface.

It knows no game: it asks the referee for legal moves, applies them and reads the outcome, so
it plays every registered game. Strength is the thinking time per move (``seconds``); the
search is seeded, so with a budget counted in playouts (``playouts``) a move is reproducible.

Games with too many moves to list (Netzwerk's start has 30 million turns) refuse
``legal_moves``; the search then considers the first :data:`WIDE_LIMIT` turns the generator
yields. Playouts stop after :data:`PLAYOUT_PLIES` plies and count as a draw, so a move comes
back in time even in slow games.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from powertwo.rules import Game, RulesError

WIDE_LIMIT = 200
"""Moves considered in a position whose legal moves are too many to list."""
PLAYOUT_PLIES = 60
"""Random plies per playout before it is scored as a draw."""
EXPLORATION = 1.4


@dataclass
class _Node:
    state: Any
    mover: int  # who moved into this node (scores are from that player's side)
    move: Any = None
    parent: "_Node | None" = None
    untried: list | None = None
    children: list["_Node"] = field(default_factory=list)
    visits: int = 0
    score: float = 0.0


@dataclass(frozen=True)
class SearchResult:
    """The chosen move, how often the root was visited, and the seconds used."""

    move: Any
    playouts: int
    seconds: float
    value: float
    """The chosen move's mean score for the mover (1 = win, 0.5 = draw)."""


def moves_of(game: Game, state: Any) -> list:
    """The legal moves, or the first :data:`WIDE_LIMIT` where the game refuses to list them all."""
    try:
        return game.legal_moves(state)
    except RulesError:
        return game.moves(state).first(WIDE_LIMIT)


def choose_move(game: Game, state: Any, *, seconds: float = 1.0, playouts: int | None = None,
                seed: int = 0, plies: int = PLAYOUT_PLIES) -> SearchResult:
    """The move the search prefers for the player to move in ``state``. Stops after ``playouts``
    playouts when given, otherwise after ``seconds`` (at least one playout either way); a
    playout that reaches ``plies`` random plies without an end counts as a draw.
    Raises :class:`RulesError` when the game is over or there is no legal move."""
    if game.outcome(state) is not None:
        raise RulesError("the game is over: there is no move to choose")
    rng = random.Random(seed)
    began = time.perf_counter()
    deadline = began + seconds
    root = _Node(state, mover=1 - state.to_move)
    root.untried = moves_of(game, state)
    if not root.untried:
        raise RulesError("no legal move in this position")
    if len(root.untried) == 1:
        return SearchResult(root.untried[0], 0, time.perf_counter() - began, 0.5)
    rng.shuffle(root.untried)
    count = 0
    while True:
        node = root
        # selection
        while not node.untried and node.children:
            node = _best_child(node)
        # expansion
        if node.untried and game.outcome(node.state) is None:
            move = node.untried.pop()
            child_state = game._apply(node.state, move)  # the move came from the referee's list
            child = _Node(child_state, mover=node.state.to_move, move=move, parent=node)
            child.untried = None
            node.children.append(child)
            node = child
            node.untried = moves_of(game, child_state) if game.outcome(child_state) is None else []
            rng.shuffle(node.untried)
        # playout
        winner = _playout(game, node.state, rng, deadline if playouts is None else None, plies)
        # back-propagation
        up: _Node | None = node
        while up is not None:
            up.visits += 1
            up.score += 0.5 if winner is None else (1.0 if winner == up.mover else 0.0)
            up = up.parent
        count += 1
        if playouts is not None:
            if count >= playouts:
                break
        elif time.perf_counter() >= deadline:
            break
    best = max(root.children, key=lambda c: (c.visits, c.score))
    return SearchResult(best.move, count, time.perf_counter() - began, best.score / max(best.visits, 1))


def _best_child(node: _Node) -> _Node:
    log_n = math.log(node.visits or 1)
    return max(node.children, key=lambda c: c.score / c.visits + EXPLORATION * math.sqrt(log_n / c.visits))


def _playout(game: Game, state: Any, rng: random.Random, deadline: float | None, plies: int) -> int | None:
    """The winner of a random game from ``state`` (``None``: a draw, or cut off)."""
    for _ in range(plies):
        out = game.outcome(state)
        if out is not None:
            return out.winner
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        moves = moves_of(game, state)
        if not moves:
            return None
        state = game._apply(state, rng.choice(moves))
    out = game.outcome(state)
    return None if out is None else out.winner


__all__ = ["SearchResult", "choose_move", "moves_of", "WIDE_LIMIT", "PLAYOUT_PLIES"]
