"""Perft speed of every registered game: move sequences counted per second.

For each game (``rules.game_names()``, so newly registered games appear by
themselves) and each of its named starts, perft runs at depth 1, 2, ... while the
next depth is expected (time x branching factor) to finish within the budget.
The table gives the deepest depth reached: its count, seconds, and leaf nodes
(move sequences) per second.

``python -m bench perft`` (budget 10 s per start); ``python -m bench.perft SECONDS``.
"""

from __future__ import annotations

import sys
import time

MAX_DEPTH = 8


def measure(game, state, budget: float) -> tuple[int, int, float]:
    """(depth, count, seconds) of the deepest perft expected to fit in ``budget`` seconds."""
    best = (0, 1, 0.0)
    for depth in range(1, MAX_DEPTH + 1):
        began = time.perf_counter()
        count = game.perft(state, depth)
        seconds = time.perf_counter() - began
        previous = best[1]
        best = (depth, count, seconds)
        branching = count / previous if previous else 1.0
        if count == 0 or seconds * max(branching, 1.0) > budget:
            break
    return best


def rows(budget: float) -> list[tuple[str, str, int, int, float]]:
    from powertwo import rules

    out = []
    for name in rules.game_names():
        game = rules.get_game(name)
        for start in game.start_names or (game.default_start,):
            depth, count, seconds = measure(game, game.start(start), budget)
            out.append((name, start, depth, count, seconds))
    return out


def main(budget: float = 10.0) -> None:
    print(f"perft: deepest depth expected within {budget:g} s per start, leaf nodes per second")
    print(f"{'game':<16} {'start':<14} {'depth':>5} {'count':>12} {'seconds':>8} {'nodes/s':>10}")
    for name, start, depth, count, seconds in rows(budget):
        nps = count / seconds if seconds > 0 else float("nan")
        print(f"{name:<16} {start:<14} {depth:>5} {count:>12} {seconds:>8.2f} {nps:>10.0f}")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0)
