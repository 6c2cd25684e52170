"""Get a Jump On benchmark: the compiled kernel on the Power of Two board (the five benchmark seeds,
20 more seeded forward finals with chain jumps, unsolvable positions), its speed against the
pure-Python engine on the same positions, and the English 33-hole central game through the CLI.

``python -m bench jump``. Environment: ``JUMP_BENCH_LIMIT`` = seconds per position (default 60),
``JUMP_BENCH_EXTRA`` = how many extra seeds (default 20), ``JUMP_BENCH_PYTHON`` = seconds the
Python engine gets per speed sample (default 10).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from powertwo.boards import Board, load, save
from powertwo.solvers.jump import BENCH_SEEDS, solve_forward, solve_reverse
from powertwo.solvers.jump_kernel import KernelSearch
from powertwo.solvers.jump_search import ReverseSearch, english_board, node_at

EXTRA_SEEDS = range(101, 121)
UNSOLVABLE = {
    "22 stones of issue 10": [1, 8, 10, 13, 14, 18, 20, 25, 27, 32, 33, 34, 35, 37, 40, 43, 53, 55, 56, 58, 61, 64],
    "the 8 unjumpable corners": [1, 5, 25, 27, 38, 40, 60, 64],
}


def _row(name: str, res: dict) -> str:
    best = "-" if res["objective"] is None else str(res["objective"])
    return (f"| {name} | {res['status']} | {best} | {res['bound']} | {res['positions_searched']:,} | "
            f"{res['seconds']:.2f} | {res.get('proof', '')} |")


def speed(board: Board, position: list[int], seconds: float) -> tuple[float, float]:
    """Positions per second of the kernel and of the Python engine, each searching the same
    position for the same move budgets (the Python engine for ``seconds``)."""
    ks = KernelSearch(board, position)
    ks.search(None)
    started = time.perf_counter()
    before = ks.nodes
    ks.search(3, deadline=started + seconds)
    kernel_rate = (ks.nodes - before) / (time.perf_counter() - started)
    rs = ReverseSearch(board, position)
    started = time.perf_counter()
    rs.run(time_limit=seconds, upper_share=0)
    python_rate = rs.nodes / (time.perf_counter() - started)
    return kernel_rate, python_rate


def main() -> None:
    limit = float(os.environ.get("JUMP_BENCH_LIMIT", "60"))
    extra = int(os.environ.get("JUMP_BENCH_EXTRA", str(len(EXTRA_SEEDS))))
    py_seconds = float(os.environ.get("JUMP_BENCH_PYTHON", "10"))
    board = load("power-of-two")
    print("## jump: Get a Jump On, reverse (compiled kernel)")
    print()
    print(f"Time limit {limit:.0f} s per position.")
    print()
    print("| position | status | moves | bound | positions searched | seconds | proof |")
    print("|---|---|---|---|---|---|---|")
    runs = [("default (forward answer)", solve_forward(board)["final_position"])]
    runs += [(f"seed {s}", solve_forward(board, seed=s)["final_position"]) for s in BENCH_SEEDS]
    runs += [(f"seed {s}", solve_forward(board, seed=s)["final_position"]) for s in list(EXTRA_SEEDS)[:extra]]
    runs += [(f"unsolvable: {k}", v) for k, v in UNSOLVABLE.items()]
    counts: dict[str, int] = {}
    for name, pos in runs:
        res = solve_reverse(board, position=pos, time_limit=limit)
        counts[res["status"]] = counts.get(res["status"], 0) + 1
        print(_row(name, res), flush=True)
    print()
    print("statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print()
    print("Speed on the same positions (kernel: single-jump states/s in the 3-move search; Python engine:")
    print("whole-move positions/s in its IDA*; the ratio of the two rates):")
    print()
    print("| position | kernel positions/s | Python positions/s | ratio |")
    print("|---|---|---|---|")
    for name, pos in runs[1:4]:
        k, p = speed(board, pos, py_seconds)
        print(f"| {name} | {k:,.0f} | {p:,.0f} | {k / p:.0f}x |", flush=True)
    print()
    english = english_board()
    centre = node_at(english, 0, 0)
    with tempfile.TemporaryDirectory() as tmp:
        board_file = Path(tmp) / "english-33.json"
        save(english, board_file)
        start = Path(tmp) / "start.json"
        start.write_text(json.dumps([v for v in english.nodes if v != centre]))
        cmd = [str(Path(sys.executable).parent / "powertwo"), "solve", "jump-reverse", "--board", str(board_file),
               "--position", str(start), "--target", str(centre), "--json"]
        began = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        took = time.perf_counter() - began
    res = json.loads(out.stdout)
    print(f"English 33-hole central game through the CLI (`powertwo solve jump-reverse --board english-33.json "
          f"--target {centre}`): {res['status']} {res['objective']} moves (bound {res['bound']}), "
          f"{took:.1f} s wall clock including start-up ({res['seconds']:.1f} s in the solver).")
    print()


if __name__ == "__main__":
    main()
