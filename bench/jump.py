"""Get a Jump On benchmark: forward answer time, reverse search speed (positions per second),
time to the first answer of at most 20 moves and to the proof of the minimum, on the
Power of Two board from the default position and from the benchmark positions, and the
English 33-hole central game (18 moves) beside a plain breadth-first Python solver.

``python -m bench jump`` (environment ``JUMP_BENCH_LIMIT`` = seconds per run, default 600).
"""

from __future__ import annotations

import os
import time

from powertwo.boards import load
from powertwo.solvers.jump import BENCH_SEEDS, solve_forward
from powertwo.solvers.jump_search import ReverseSearch, english_board, node_at, plain_bfs


ENGLISH_PERIMETER = 3_000_000


def _row(name: str, res, seconds: float) -> str:
    rate = res.nodes / seconds if seconds > 0 else 0.0
    first = "-" if res.first_found_seconds is None else f"{res.first_found_moves} in {res.first_found_seconds:.2f}"
    within = res.first_within(20)
    twenty = "-" if within is None else f"{within:.2f}"
    # ``seconds`` includes the setup (pagoda LPs, perimeter), ``res.seconds`` only the search
    if res.positions is not None and res.proven:
        proof = f"{res.moves} proven in {seconds:.2f}"
    elif res.infeasible:
        proof = f"infeasible in {seconds:.2f}"
    else:
        best = "-" if res.positions is None else str(res.moves)
        proof = f"best {best}, bound {res.bound} after {seconds:.2f} (limit)"
    return f"| {name} | {res.nodes} | {rate:,.0f} | {first} | {twenty} | {proof} |"


def main() -> None:
    limit = float(os.environ.get("JUMP_BENCH_LIMIT", "600"))
    board = load("power-of-two")
    print("## jump: Get a Jump On")
    print()
    t = time.perf_counter()
    fwd = solve_forward(board)
    print(f"forward answer (corner 60, 31 steps): {time.perf_counter() - t:.3f} s")
    print()
    print("| instance | positions searched | positions/s | first answer (moves in s) "
          "| first answer <= 20 moves (s) | minimum |")
    print("|---|---|---|---|---|---|")
    runs = [("power-of-two, default position", fwd["final_position"], None)]
    for seed in BENCH_SEEDS:
        runs.append((f"power-of-two, bench seed {seed}", solve_forward(board, seed=seed)["final_position"], None))
    for name, pos, targets in runs:
        started = time.perf_counter()
        res = ReverseSearch(board, pos, targets=targets).run(time_limit=limit if "seed" not in name else min(limit, 60))
        print(_row(name, res, time.perf_counter() - started))
    english = english_board()
    centre = node_at(english, 0, 0)
    start = [v for v in english.nodes if v != centre]
    started = time.perf_counter()
    # a larger backward perimeter than the default (radius 7, 2.7 million positions, about a minute
    # to build) pays off on this instance; the build is part of the time reported
    res = ReverseSearch(english, start, targets=[centre], perimeter=ENGLISH_PERIMETER).run(
        time_limit=limit, upper_share=0.1)
    print(_row("english-33 central game (known: 18)", res, time.perf_counter() - started))
    started = time.perf_counter()
    moves, seen, finished = plain_bfs(english, start, targets=[centre], time_limit=min(limit, 300),
                                      max_positions=20_000_000)
    took = time.perf_counter() - started
    outcome = f"{moves} in {took:.2f}" if finished else f"not finished after {took:.0f} s"
    print(f"| english-33 central game, plain breadth-first | {seen} | {seen / took:,.0f} | - | - | {outcome} |")
    print()


if __name__ == "__main__":
    main()
