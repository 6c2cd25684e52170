"""``python -m bench prove --projection``: how df-pn's work grows with the plies left to play in David
and Goliath and The Power of Two, and what proving the start would take at that growth.

Seeded random games (the computer player's random moves) are played to their end. From the position
``d`` plies before the end (d = 1, 2, ...) df-pn proves each game's position within :data:`LIMIT`
seconds; the positions it expanded and its seconds are measured, until a ``d`` at which no game's
position is decided. A least-squares line through log(expanded) against ``d`` (decided positions
only) gives the growth per ply; extrapolated to the plies of a whole game (the random games' median
length: best play may be longer or shorter) at the measured positions a second of one core, it gives
core-years for the start. A projection from positions near the end, not a measurement of the start.
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
LIMIT = 30.0
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


def project(name: str, decided: list[tuple[int, int, float]], lengths: list[int]) -> None:
    if len(decided) < 2 or len({d for d, _, _ in decided}) < 2:
        print(f"{name}: too few decided positions to fit a growth")
        return
    xs = [d for d, _, _ in decided]
    ys = [math.log(max(1, e)) for _, e, _ in decided]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    rate = sum(e for _, e, _ in decided) / max(sum(s for _, _, s in decided), 1e-9)
    plies = statistics.median(lengths)
    positions = math.exp(my + slope * (plies - mx))
    core_years = positions / rate / YEAR
    print(f"{name}: growth {math.exp(slope):.2f}x a ply (fit over d = {min(xs)}..{max(xs)}, {len(decided)} "
          f"positions), {rate:,.0f} positions a second on one core; random games {min(lengths)}-{max(lengths)} "
          f"plies (median {plies:g}): the start ~ {positions:.1e} positions, {core_years:.1e} core-years, "
          f"{core_years * YEAR / 1000 / 86400:.1e} days on 1,000 cores")


def main() -> None:
    names = [a for a in sys.argv[1:] if a in GAMES] or list(GAMES)
    print(f"projection: df-pn from positions d plies before the end of {len(SEEDS)} seeded random games, "
          f"{LIMIT:g} s each; median positions expanded and seconds of the decided ones (wall-clock, this machine)")
    print(f"{'game':<16} {'d':>4} {'dec':>7} {'expanded':>12} {'seconds':>9}")
    for name in names:
        decided, lengths = measure(name)
        project(name, decided, lengths)


if __name__ == "__main__":
    main()
