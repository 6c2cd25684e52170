"""Census benchmark: the English 33-hole central game counted in full by the compiled engine and by
the Dask engine on a LocalCluster of 1 and 2 worker processes (same totals required), then the
first levels of the Power of Two default reverse position. Prints one row per run and, for the
compiled English run, the seconds and memory of every level."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from powertwo.boards import load
from powertwo.solvers.census import census_tables, run_census
from powertwo.solvers.census.distributed import dask_levels
from powertwo.solvers.census.engine import peak_rss, run_levels
from powertwo.solvers.census.tables import centre_node, default_start, english_board

REVERSE = Path(__file__).resolve().parent.parent / "results" / "jump-reverse.json"


def _row(name: str, levels, seconds: float, memory: str) -> str:
    widest = max(levels, key=lambda lv: lv.positions)
    positions = sum(lv.positions for lv in levels)
    games = sum(lv.dead_sequences for lv in levels)
    return (f"{name:<34} {len(levels) - 1:>6} {positions:>14,} {widest.positions:>13,} {games:>28,} "
            f"{seconds:>8.1f} {memory:>9}")


def main(reverse_levels: int = 6, dask: bool = True) -> None:
    board = english_board()
    centre = centre_node(board)
    tables = census_tables(board, default_start(board), centre)
    print("census: whole game trees by single jumps (positions distinct, not up to symmetry)")
    print(f"{'run':<34} {'jumps':>6} {'positions':>14} {'widest level':>13} {'game sequences':>28} "
          f"{'seconds':>8} {'peak RSS':>9}")
    began = time.perf_counter()
    census = run_census(board, default_start(board), target=centre)
    print(_row("english, numba", census.levels, time.perf_counter() - began, f"{peak_rss() / 2 ** 30:.1f} GiB"))
    by_level = census.levels
    if dask:
        for workers in (1, 2):
            began = time.perf_counter()
            levels, _ = dask_levels(tables, workers=workers)
            name = f"english, dask LocalCluster {workers} worker{'s' * (workers > 1)}"
            same = [lv.key() for lv in levels] == [lv.key() for lv in by_level]
            print(_row(name + ("" if same else " DIFFERS"), levels, time.perf_counter() - began, "-"))
    import json

    start = json.loads(REVERSE.read_text(encoding="utf-8"))["position"]
    real = load("power-of-two")
    began = time.perf_counter()
    levels, _, _ = run_levels(census_tables(real, start), max_levels=reverse_levels)
    print(_row(f"power-of-two reverse, {reverse_levels} jumps", levels, time.perf_counter() - began,
               f"{peak_rss() / 2 ** 30:.1f} GiB"))
    print()
    print(f"{'english level':>13} {'positions':>12} {'up to sym':>10} {'seconds':>8} {'MiB':>6}")
    for lv in by_level:
        mib = lv.memory_bytes / 2 ** 20
        print(f"{lv.jumps:>13} {lv.positions:>12,} {lv.classes:>10,} {lv.seconds:>8.2f} {mib:>6.0f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
