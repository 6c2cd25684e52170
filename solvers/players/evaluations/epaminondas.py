"""Epaminondas: captures and the opponent's home row decide, so count pieces and rows advanced."""

from __future__ import annotations

from powertwo.rules.epaminondas import Epaminondas, EpaminondasState

PLAYOUT_PLIES = 6
SCALE = 6.0


def evaluate(game: Epaminondas, state: EpaminondasState, player: int) -> float:
    """Four per piece, plus rows advanced and four per piece on the opponent's home row, own minus opponent's."""
    top, rank = game._top_rank, game._rank

    def side(p: int) -> int:
        score = 0
        for v in state.pieces[p]:
            advanced = rank[v] - 1 if p == 0 else top - rank[v]
            score += 4 + advanced + (4 if advanced == top - 1 else 0)
        return score
    return float(side(player) - side(1 - player))
