"""Census benchmark: the English 33-hole central game counted in full by every engine (numba in
memory, disk out of core with a 2 GiB budget, Dask on a LocalCluster of 1 and 2 workers; the same
figures required level for level), in positions per second per core and as a ratio to the in-memory
numba engine; the scaling of the numba engine over threads (the English census, and building level 7
of The Power of Two's reverse census from level 6); the first levels of that census by both compiled
engines.

``python -m bench census [--threads 1,2] [--reverse-levels 6] [--no-dask] [--json FILE]``
(``--threads``: the thread counts of the scaling table, default 1 and every core).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numba

from powertwo.boards import load
from powertwo.solvers.census import CensusOptions, census_tables, run_census
from powertwo.solvers.census.distributed import dask_levels
from powertwo.solvers.census.engine import Plan, next_level, peak_rss, run_levels
from powertwo.solvers.census.kernel import count_successors
from powertwo.solvers.census.tables import centre_node, default_start, english_board

REVERSE = Path(__file__).resolve().parent.parent / "results" / "jump-reverse.json"
TWO_GIB = 2 << 30


@dataclass(frozen=True)
class Row:
    """One run: what, on how many cores, how long, how many positions (up to symmetry: the classes
    the engine handles), and the levels' keys (to compare engines)."""

    name: str
    cores: int
    seconds: float
    classes: int
    keys: tuple

    def rate(self) -> float:
        return self.classes / self.seconds / self.cores if self.seconds else 0.0


def english():
    board = english_board()
    return board, default_start(board) or [], centre_node(board)


def reverse_start() -> tuple:
    board = load("power-of-two")
    return board, json.loads(REVERSE.read_text(encoding="utf-8"))["position"]


def threads(n: int) -> int:
    numba.set_num_threads(n)
    return n


def timed_census(name: str, options: CensusOptions, cores: int) -> Row:
    board, start, centre = english()
    began = time.perf_counter()
    census = run_census(board, start, options)
    seconds = time.perf_counter() - began
    return Row(name, cores, seconds, census.classes, tuple(lv.key() for lv in census.levels))


def engines(cores: int, dask: bool) -> list[Row]:
    """The English central game by every engine (every core each)."""
    board, start, centre = english()
    rows = [timed_census("numba (in memory)", CensusOptions(target=centre, workers=threads(cores)), cores)]
    rows.append(timed_census("disk (--memory 2GiB)", CensusOptions(target=centre, engine="disk", memory=TWO_GIB,
                                                                   workers=cores), cores))
    if dask:
        tables = census_tables(board, start, centre)
        for workers in (1, 2):
            began = time.perf_counter()
            levels, _ = dask_levels(tables, CensusOptions(target=centre, engine="dask", workers=workers))
            rows.append(Row(f"dask LocalCluster, {workers} worker{'s' * (workers > 1)}", workers,
                            time.perf_counter() - began, sum(lv.classes for lv in levels),
                            tuple(lv.key() for lv in levels)))
    return rows


def scaling(counts: list[int]) -> list[Row]:
    """The numba engine on the English census and on building level 7 of the reverse census."""
    board, start, centre = english()
    rows = [timed_census("english census", CensusOptions(target=centre, workers=threads(n)), n) for n in counts]
    real, first = reverse_start()
    tables = census_tables(real, first)
    threads(max(counts))
    run = run_levels(tables, Plan(1 << 40), keep=True, max_levels=6)
    six = run.kept[-1]
    successors = count_successors(six.positions, tables.need, tables.land)
    for n in counts:
        threads(n)
        began = time.perf_counter()
        seven, _ = next_level(tables, six, successors, Plan(1 << 40))
        rows.append(Row("power-of-two level 6 -> 7", n, time.perf_counter() - began, len(six.positions),
                        (len(seven.positions),)))
    return rows


def reverse(levels: int, cores: int) -> list[Row]:
    real, first = reverse_start()
    rows = []
    for name, options in (("numba", CensusOptions(max_levels=levels, workers=threads(cores))),
                          ("disk", CensusOptions(max_levels=levels, engine="disk", memory=TWO_GIB, workers=cores))):
        began = time.perf_counter()
        census = run_census(real, first, options)
        rows.append(Row(f"power-of-two reverse to {levels} jumps, {name}", cores, time.perf_counter() - began,
                        census.classes, tuple(lv.key() for lv in census.levels)))
    return rows


def print_engines(rows: list[Row]) -> None:
    base = rows[0]
    print(f"{'engine':<34} {'cores':>5} {'seconds':>8} {'positions/s/core':>17} {'v numba':>8} {'same':>5}")
    for row in rows:
        print(f"{row.name:<34} {row.cores:>5} {row.seconds:>8.1f} {row.rate():>17,.0f} "
              f"{base.seconds / row.seconds:>8.2f} {'yes' if row.keys == base.keys else 'NO':>5}")


def print_scaling(rows: list[Row]) -> None:
    print(f"{'run':<28} {'threads':>7} {'seconds':>8} {'speed-up':>8} {'efficiency':>10} {'positions/s/core':>17}")
    one = {}
    for row in rows:
        one.setdefault(row.name, row)
        base = one[row.name]
        speed = base.seconds * base.cores / row.seconds
        print(f"{row.name:<28} {row.cores:>7} {row.seconds:>8.1f} {speed:>8.2f} {speed / row.cores:>10.0%} "
              f"{row.rate():>17,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench census")
    parser.add_argument("--threads", default=f"1,{os.cpu_count() or 1}")
    parser.add_argument("--reverse-levels", type=int, default=6)
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(sys.argv[1:])
    counts = sorted({int(n) for n in args.threads.split(",")})
    cores = max(counts)
    print("census bench: positions counted up to symmetry (what the engines handle); the machine's load "
          f"at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print()
    by_engine = engines(cores, not args.no_dask)
    print_engines(by_engine)
    print()
    scaled = scaling(counts)
    print_scaling(scaled)
    print()
    print_engines(reverse(args.reverse_levels, cores))
    print(f"\npeak memory {peak_rss() / 2 ** 30:.1f} GiB")
    if args.json:
        Path(args.json).write_text(json.dumps([r.__dict__ | {"rate": r.rate()} for r in by_engine + scaled],
                                              default=str, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
