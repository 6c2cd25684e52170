"""``python -m bench opponent``: the computer player's matches, with win rates and 95% Wilson intervals.

Every level plays a uniformly random mover, and the strong level plays the normal level, in
every game, both colours (the player takes Light in even games, Dark in odd ones), with fixed
seeds (game ``i`` seeds the searches with ``1000 * i + ply`` and the random mover with ``i``).
A game still going after ``--max-plies`` plies is counted unfinished.

Options: ``--games N`` games per match and game (default 20), ``--seconds S`` the normal level's
seconds a move (default: the normal level's; easy and strong scale with it),
``--game NAME`` (repeatable; default every game), ``--match random|strong-normal`` (repeatable),
``--levels easy,normal,strong`` (the levels played against the random mover).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass
from typing import Any

from powertwo.rules import Game, game_names, get_game
from powertwo.solvers.players import LEVELS, choose_move, random_move

Z95 = 1.959963984540054


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    plies: int = 0
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses + self.unfinished


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (``wins`` of ``n``)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


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


def run_match(name: str, player: float, opponent: float | None, games: int, max_plies: int) -> Tally:
    """``player`` seconds a move against ``opponent`` (``None``: the random mover), colours alternating."""
    game, tally = get_game(name), Tally()
    for i in range(games):
        colour = i % 2
        seconds = (player, opponent) if colour == 0 else (opponent, player)
        began = time.perf_counter()
        out, plies = play_game(game, seconds, i, max_plies)
        tally.seconds += time.perf_counter() - began
        tally.plies += plies
        if out is None:
            tally.unfinished += 1
        elif out.winner is None:
            tally.draws += 1
        elif out.winner == colour:
            tally.wins += 1
        else:
            tally.losses += 1
    return tally


def row(name: str, match: str, t: Tally) -> str:
    low, high = wilson(t.wins, t.games)
    rate = t.wins / t.games if t.games else 0.0
    return (f"{name:15} {match:18} {t.games:5} {t.wins:4} {t.draws:5} {t.losses:6} {t.unfinished:10} "
            f"{100 * rate:6.1f}% [{100 * low:5.1f}%, {100 * high:5.1f}%] {t.plies / max(t.games, 1):6.1f} "
            f"{t.seconds:8.1f}")


def parse(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m bench opponent")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=LEVELS["normal"])
    ap.add_argument("--game", action="append", choices=game_names())
    ap.add_argument("--match", action="append", choices=("random", "strong-normal"))
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--max-plies", type=int, default=400)
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    opts = parse([a for a in args if a != "opponent"])
    scale = opts.seconds / LEVELS["normal"]
    level_seconds = {level: LEVELS[level] * scale for level in LEVELS}
    matches = opts.match or ["random", "strong-normal"]
    print(f"opponent: {opts.games} games a match, both colours; seconds a move: "
          + ", ".join(f"{k} {v:g}" for k, v in level_seconds.items()) + f"; unfinished after {opts.max_plies} plies")
    print(f"{'game':15} {'match':18} {'games':>5} {'wins':>4} {'draws':>5} {'losses':>6} {'unfinished':>10} "
          f"{'win rate':>7} {'95% Wilson':>16} {'plies':>6} {'seconds':>8}")
    for name in opts.game or game_names():
        if "random" in matches:
            for level in opts.levels.split(","):
                t = run_match(name, level_seconds[level], None, opts.games, opts.max_plies)
                print(row(name, f"{level} v random", t), flush=True)
        if "strong-normal" in matches:
            t = run_match(name, level_seconds["strong"], level_seconds["normal"], opts.games, opts.max_plies)
            print(row(name, "strong v normal", t), flush=True)


if __name__ == "__main__":
    main()
