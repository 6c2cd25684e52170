"""``python -m bench prove --projection``: how df-pn's work grows with the plies left to play in David
and Goliath and The Power of Two, and what proving the start would take at that growth.

Seeded random games (the computer player's random moves) are played to their end. From the position
``d`` plies before the end (d = 1, 2, ...) df-pn proves each game's position within :data:`LIMIT`
seconds; the positions it expanded and its seconds are measured, until a ``d`` at which no game's
position is decided (random games end in blunders, so these are short wins, not best play). The
projection: the geometric mean of the distinct positions after a move (up to symmetry) along the
random games, ``b``, and their median length ``L``: a minimal proof of the start holds every defence
at every other ply, about ``b^(L/2)`` positions before transpositions; at df-pn's measured positions
a second on one core, core-years. A bound from measured figures, not a measurement of the start.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time

from powertwo.rules import get_game
from powertwo.solvers.players import random_move
from powertwo.solvers.prove import Limits, Value, prove

GAMES = ("david-goliath", "power-of-two")
SEEDS = (1, 2, 3)
LIMIT = 10.0
"""Seconds of df-pn for one position."""
MAX_PLIES = 400
"""A random game longer than this is left out (it may not end)."""
YEAR = 365.25 * 24 * 3600


def random_game(game, seed: int) -> list | None:
    """The positions of a seeded random game to its end (``None``: past :data:`MAX_PLIES`)."""
    rng = random.Random(seed)
    states = [game.start()]
    while game.outcome(states[-1]) is None:
        if len(states) > MAX_PLIES:
            return None
        move = random_move(game, states[-1], rng)
        if move is None:
            break
        states.append(game.apply(states[-1], move))
    return states


def measure(name: str) -> tuple[list[tuple[int, int, float]], list[int]]:
    """``(d, expanded, seconds)`` of every decided position and the games' lengths."""
    game = get_game(name)
    games = [g for g in (random_game(game, seed) for seed in SEEDS) if g is not None]
    decided: list[tuple[int, int, float]] = []
    d = 1
    while True:
        found = []
        for states in games:
            if d >= len(states):
                continue
            began = time.perf_counter()
            result = prove(game, states[-1 - d], limits=Limits(seconds=LIMIT, memory_mib=512))
            seconds = time.perf_counter() - began
            if result.value != Value.UNKNOWN:
                found.append((d, result.figures.expanded, seconds))
        print(f"{name:<16} {d:>4} {len(found):>3}/{len(games)} "
              f"{statistics.median([f[1] for f in found]) if found else float('nan'):>12,.0f} "
              f"{statistics.median([f[2] for f in found]) if found else float('nan'):>9.2f}", flush=True)
        if not found:
            return decided, [len(g) - 1 for g in games]
        decided += found
        d += 1


def branching(name: str) -> tuple[float, float, list[int]]:
    """The geometric means of the moves a position and of the distinct positions after them (up to
    symmetry) along the seeded random games, and the games' lengths."""
    from powertwo.solvers.prove.positions import Positions

    game = get_game(name)
    positions = Positions.of(game)
    games = [g for g in (random_game(game, seed) for seed in SEEDS) if g is not None]
    moves, distinct = [], []
    for states in games:
        for state in states[:-1]:
            legal = game.legal_moves(state)
            moves.append(math.log(len(legal)))
            distinct.append(math.log(len({positions.key(game.apply(state, m)) for m in legal})))
    return math.exp(statistics.fmean(moves)), math.exp(statistics.fmean(distinct)), [len(g) - 1 for g in games]


def project(name: str, decided: list[tuple[int, int, float]]) -> None:
    """The minimal proof of the start at the measured branching and length, at the measured rate."""
    b_moves, b_distinct, lengths = branching(name)
    plies = statistics.median(lengths)
    long_runs = [(e, s) for _, e, s in decided if s >= 5.0]
    rate = (sum(e for e, _ in long_runs) / sum(s for _, s in long_runs)) if long_runs else float("nan")
    minimal = b_distinct ** (plies / 2)
    core_years = minimal / rate / YEAR
    print(f"{name}: random games {min(lengths)}-{max(lengths)} plies (median {plies:g}); {b_moves:.0f} moves a "
          f"position, {b_distinct:.0f} distinct up to symmetry (geometric means); df-pn decided positions up to "
          f"{max((d for d, _, _ in decided), default=0)} plies before a random game's end; {rate:,.0f} positions "
          f"a second on one core (searches of 5 s or more). A minimal proof of a {plies:g}-ply game, every "
          f"defence at every other ply: {b_distinct:.0f}^{plies / 2:g} = {minimal:.1e} positions, "
          f"{core_years:.1e} core-years at that rate")


def main() -> None:
    names = [a for a in sys.argv[1:] if a in GAMES] or list(GAMES)
    print(f"projection: df-pn from positions d plies before the end of {len(SEEDS)} seeded random games, "
          f"{LIMIT:g} s each; median positions expanded and seconds of the decided ones (wall-clock, this machine)")
    print(f"{'game':<16} {'d':>4} {'dec':>7} {'expanded':>12} {'seconds':>9}")
    for name in names:
        decided, _ = measure(name)
        project(name, decided)


if __name__ == "__main__":
    main()
