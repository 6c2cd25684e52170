"""The census's device-machine check: one short run on a machine of many cores (16 on the device
machine of issue 52) that measures what a 2-core machine cannot, and carries the long Power of Two
reverse census past level 8 (in memory; about 60 GB at level 9).

``python bench/census_device.py --out DIR [--seconds 480] [--threads 1,2,4,8,16] [--reverse-levels 9]``

In order, each step only while the time left allows it, every result written to ``DIR`` at once
(``census-device.json``, the tables in ``census-device.txt``, the long run's levels as they come in
``reverse.log`` and at its end in ``census-power-of-two-reverse.json``): the English central game by
the numba engine on every thread count (most threads first, then one), building level 7 of the
reverse census from level 6 on every thread count, the long reverse census (last but one: if the
command's time runs out there, its log still holds the levels done), the English census by the disk
engine with a 2 GiB budget (same levels required), and the English census by moves on every core.
Tested here with small sizes: ``--threads 1,2 --reverse-levels 5 --seconds 300``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.census import (  # noqa: E402
    TWO_GIB, Row, english, print_engines, print_scaling, reverse_start, threads, timed_census,
)
from powertwo.solvers.census import CensusOptions, census_tables, moves_census, run_census  # noqa: E402
from powertwo.solvers.census.engine import Plan, next_level, peak_rss, run_levels  # noqa: E402
from powertwo.solvers.census.kernel import count_successors  # noqa: E402


class Report:
    def __init__(self, out: Path, seconds: float):
        self.out = out
        self.until = time.monotonic() + seconds
        self.data: dict = {"cores": os.cpu_count(), "load": os.getloadavg()[0], "steps": {}}
        self.text: list[str] = []
        out.mkdir(parents=True, exist_ok=True)

    def left(self) -> float:
        return self.until - time.monotonic()

    def step(self, name: str, rows: list[Row], show) -> None:
        self.data["steps"][name] = [r.__dict__ | {"rate": r.rate()} for r in rows]
        import contextlib
        import io

        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            print(f"== {name}")
            show(rows)
            print()
        self.text.append(buffer.getvalue())
        sys.stdout.write(buffer.getvalue())
        sys.stdout.flush()
        self.save()

    def save(self) -> None:
        (self.out / "census-device.json").write_text(json.dumps(self.data, indent=1, default=str), encoding="utf-8")
        (self.out / "census-device.txt").write_text("".join(self.text), encoding="utf-8")


def english_scaling(report: Report, counts: list[int]) -> None:
    board, start, centre = english()
    rows: list[Row] = []
    for n in sorted(counts, reverse=True)[:1] + sorted(counts)[:-1]:  # most threads first, then 1, 2, ...
        if report.left() < 60:
            break
        rows.append(timed_census("english census", CensusOptions(target=centre, workers=threads(n)), n))
    report.step("english census by jumps, numba engine", sorted(rows, key=lambda r: r.cores), print_scaling)


def reverse_scaling(report: Report, counts: list[int]) -> None:
    real, first = reverse_start()
    tables = census_tables(real, first)
    threads(max(counts))
    six = run_levels(tables, Plan(1 << 40), keep=True, max_levels=6).kept[-1]
    successors = count_successors(six.positions, tables.need, tables.land)
    rows = []
    for n in sorted(counts, reverse=True)[:1] + sorted(counts)[:-1]:
        if report.left() < 60:
            break
        threads(n)
        began = time.perf_counter()
        seven, _ = next_level(tables, six, successors, Plan(1 << 40))
        rows.append(Row("power-of-two level 6 -> 7", n, time.perf_counter() - began, len(six.positions),
                        (len(seven.positions),)))
    report.step("building level 7 of the reverse census", sorted(rows, key=lambda r: r.cores), print_scaling)


def long_reverse(report: Report, levels: int, cores: int) -> None:
    real, first = reverse_start()
    log = open(report.out / "reverse.log", "a", encoding="utf-8")

    def progress(line: str) -> None:
        log.write(f"[{time.strftime('%H:%M:%S')}] {line} (peak {peak_rss() / 2 ** 30:.1f} GiB)\n")
        log.flush()

    memory = int(0.85 * os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    census = run_census(real, first, CensusOptions(max_levels=levels, workers=threads(cores), memory=memory), progress)
    data = census.to_dict() | {"cores": cores, "machine_memory": memory / 0.85}
    (report.out / "census-power-of-two-reverse.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    report.data["reverse"] = {"levels": len(census.levels) - 1, "seconds": census.seconds,
                              "peak": census.peak_memory_bytes, "stopped": census.stopped}
    report.save()


def disk_and_moves(report: Report, cores: int) -> None:
    board, start, centre = english()
    base = timed_census("numba (in memory)", CensusOptions(target=centre, workers=threads(cores)), cores)
    rows = [base]
    if report.left() > 60:
        rows.append(timed_census("disk (--memory 2GiB)", CensusOptions(target=centre, engine="disk", memory=TWO_GIB,
                                                                       workers=cores), cores))
    report.step("english census by jumps, numba and disk engines", rows, print_engines)
    if report.left() > 120:
        began = time.perf_counter()
        census = moves_census(board, start, CensusOptions(by="moves", workers=threads(cores)))
        report.data["moves"] = {"cores": cores, "seconds": time.perf_counter() - began, "classes": census.classes,
                                "levels": [lv.classes for lv in census.levels]}
        report.save()


def main() -> None:
    parser = argparse.ArgumentParser(prog="census_device")
    parser.add_argument("--out", default=os.environ.get("OUT", "device-out"))
    parser.add_argument("--seconds", type=float, default=480)
    parser.add_argument("--threads", default="1,2,4,8,16")
    parser.add_argument("--reverse-levels", type=int, default=9)
    args = parser.parse_args()
    counts = sorted({min(int(n), os.cpu_count() or 1) for n in args.threads.split(",")})
    report = Report(Path(args.out), args.seconds)
    began = time.perf_counter()
    board, start, centre = english()
    threads(max(counts))
    run_census(board, start, CensusOptions(target=centre, max_levels=4))  # compiles (or loads) the kernels
    moves_census(board, start, CensusOptions(by="moves", max_levels=2))
    report.data["compile_seconds"] = time.perf_counter() - began
    report.save()
    english_scaling(report, counts)
    reverse_scaling(report, counts)
    if report.left() > 120:
        long_reverse(report, args.reverse_levels, max(counts))
    if report.left() > 60:
        disk_and_moves(report, max(counts))
    print(f"done in {time.perf_counter() - began:.0f} s, peak {peak_rss() / 2 ** 30:.1f} GiB")


if __name__ == "__main__":
    main()
