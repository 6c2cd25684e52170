"""``python -m bench opponent``: the computer player's matches, with win rates, 95% Wilson intervals,
one-sided 95% Clopper-Pearson lower bounds, a verdict against the targets and the wins by colour
(``wins L/D``: with the first move, with the second).

Every level plays a uniformly random mover, and the strong level plays the normal level, in
every game, both colours (the player takes Light in even games, Dark in odd ones), with fixed
seeds (game ``i`` seeds the searches with ``1000 * i + ply`` and the random mover with ``i``).
A game in which the referee has declared no result after ``--max-plies`` plies is counted
unfinished (no rule of these games ends one by repetition or by a move limit); it counts as no win.

The verdict: a match against the random mover passes when the one-sided 95% lower bound of the
win rate is at least 95% (for ``n`` wins of ``n`` games the bound is ``0.05 ** (1 / n)``, so 59
straight wins are needed); strong against normal passes at a win rate of at least 70%; no match
passes with an unfinished game.

Options: ``--games N`` games per match and game (default 20), ``--seconds S`` the normal level's
seconds a move (default: the normal level's; easy and strong scale with it),
``--game NAME`` (repeatable; default every game), ``--match random|strong-normal`` (repeatable),
``--levels easy,normal,strong`` (the levels played against the random mover), ``--max-plies``,
``--jobs N`` (games played at once, in N processes; default 1).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from scipy.stats import beta

from powertwo.rules import Game, game_names, get_game
from powertwo.solvers.players import LEVELS, choose_move, random_move

Z95 = 1.959963984540054
RANDOM_TARGET = 0.95
"""The lower confidence bound a level must reach against the random mover."""
STRONG_TARGET = 0.70
"""The win rate the strong level must reach against the normal level."""


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    plies: int = 0
    seconds: float = 0.0
    light_wins: int = 0
    """Wins with the first move (the player takes Light in even games)."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses + self.unfinished


TALLY_FIELD = {"win": "wins", "draw": "draws", "loss": "losses", "unfinished": "unfinished"}


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (``wins`` of ``n``)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def lower_bound(wins: int, n: int, alpha: float = 0.05) -> float:
    """The one-sided ``1 - alpha`` Clopper-Pearson lower bound of a win rate (``wins`` of ``n``): the
    rate at which ``wins`` or more wins of ``n`` have probability ``alpha``."""
    return 0.0 if wins == 0 else float(beta.ppf(alpha, wins, n - wins + 1))


def play_game(game: Game, seconds: tuple[float | None, float | None], seed: int, max_plies: int) -> tuple[Any, int]:
    """One game: side ``p`` thinks ``seconds[p]`` a move (``None``: the random mover).
    Returns the outcome (``None``: unfinished) and the plies played."""
    state = game.start()
    rng = random.Random(seed)
    while game.outcome(state) is None and state.ply < max_plies:
        budget = seconds[state.to_move]
        if budget is None:
            move = random_move(game, state, rng)
        else:
            move = choose_move(game, state, seconds=budget, seed=1000 * seed + state.ply).move
        state = game._apply(state, move)  # both movers choose from the referee's moves
    return game.outcome(state), state.ply


def _one_game(name: str, player: float, opponent: float | None, i: int, max_plies: int) -> tuple[str, int, float]:
    """Game ``i`` of a match: 'win', 'draw', 'loss' or 'unfinished' for the player, the plies, the seconds."""
    colour = i % 2
    began = time.perf_counter()
    out, plies = play_game(get_game(name), (player, opponent) if colour == 0 else (opponent, player), i, max_plies)
    result = ("unfinished" if out is None else "draw" if out.winner is None
              else "win" if out.winner == colour else "loss")
    return result, plies, time.perf_counter() - began


def run_match(name: str, player: float, opponent: float | None, games: int, max_plies: int,
              pool: Executor | None = None) -> Tally:
    """``player`` seconds a move against ``opponent`` (``None``: the random mover), colours alternating;
    the games run in ``pool`` when given."""
    tally = Tally()
    args = ([name] * games, [player] * games, [opponent] * games, range(games), [max_plies] * games)
    results = pool.map(_one_game, *args) if pool is not None else map(_one_game, *args)
    for i, (result, plies, seconds) in enumerate(results):
        if result == "win" and i % 2 == 0:
            tally.light_wins += 1
        counter = TALLY_FIELD[result]
        setattr(tally, counter, getattr(tally, counter) + 1)
        tally.plies += plies
        tally.seconds += seconds
    return tally


def verdict(t: Tally, target: float, by_bound: bool) -> str:
    """PASS when no game is unfinished and the win rate (or its lower bound) reaches ``target``."""
    rate = lower_bound(t.wins, t.games) if by_bound else t.wins / max(t.games, 1)
    return "PASS" if t.unfinished == 0 and t.games and rate >= target else "FAIL"


def row(name: str, match: str, t: Tally, target: float, by_bound: bool) -> str:
    low, high = wilson(t.wins, t.games)
    rate = t.wins / t.games if t.games else 0.0
    return (f"{name:15} {match:18} {t.games:5} {t.wins:4} {t.draws:5} {t.losses:6} {t.unfinished:10} "
            f"{100 * rate:6.1f}% [{100 * low:5.1f}%, {100 * high:5.1f}%] {100 * lower_bound(t.wins, t.games):7.1f}% "
            f"{verdict(t, target, by_bound):>7} {t.light_wins:4}/{t.wins - t.light_wins:<4} "
            f"{t.plies / max(t.games, 1):6.1f} {t.seconds:8.1f}")


def parse(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m bench opponent")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=LEVELS["normal"])
    ap.add_argument("--game", action="append", choices=game_names())
    ap.add_argument("--match", action="append", choices=("random", "strong-normal"))
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--jobs", type=int, default=1)
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    opts = parse([a for a in args if a != "opponent"])
    scale = opts.seconds / LEVELS["normal"]
    level_seconds = {level: LEVELS[level] * scale for level in LEVELS}
    matches = opts.match or ["random", "strong-normal"]
    print(f"opponent: {opts.games} games a match, both colours, {opts.jobs} at once; seconds a move: "
          + ", ".join(f"{k} {v:g}" for k, v in level_seconds.items()) + f"; unfinished after {opts.max_plies} plies; "
          f"targets: v random 95% lower bound >= {100 * RANDOM_TARGET:g}%, strong v normal >= {100 * STRONG_TARGET:g}%")
    print(f"{'game':15} {'match':18} {'games':>5} {'wins':>4} {'draws':>5} {'losses':>6} {'unfinished':>10} "
          f"{'win rate':>7} {'95% Wilson':>16} {'95% low':>8} {'verdict':>7} {'wins L/D':>9} "
          f"{'plies':>6} {'seconds':>8}")
    pool = ProcessPoolExecutor(opts.jobs) if opts.jobs > 1 else None
    for name in opts.game or game_names():
        if "random" in matches:
            for level in opts.levels.split(","):
                t = run_match(name, level_seconds[level], None, opts.games, opts.max_plies, pool)
                print(row(name, f"{level} v random", t, RANDOM_TARGET, True), flush=True)
        if "strong-normal" in matches:
            t = run_match(name, level_seconds["strong"], level_seconds["normal"], opts.games, opts.max_plies, pool)
            print(row(name, "strong v normal", t, STRONG_TARGET, False), flush=True)
    if pool is not None:
        pool.shutdown()


if __name__ == "__main__":
    main()
