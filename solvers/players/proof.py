"""What a complete search proved about a position: who wins it with best play by both, and a winning
move for the player to move when that player wins.

A game's evaluation module gives one through its ``prove`` hook (That's My Line: the exact endgame
search); :func:`powertwo.solvers.players.analysis.prove` asks for one within a time. A proof is never
a guess: a search that runs out of time gives none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Proof:
    """The result of ``state`` with best play: ``winner`` (a player index; None: a draw) and, when the
    player to move wins, ``move``, a move that keeps the win (None otherwise, and when the game is
    over); ``positions`` searched, ``seconds`` taken, and ``method``, what proved it."""

    winner: int | None
    move: Any = None
    positions: int = 0
    seconds: float = 0.0
    method: str = ""


__all__ = ["Proof"]
