"""``make census-deep``: The Power of Two's reverse census (the default position,
``results/jump-reverse.json``) by the disk engine, as far as the disk allows. It takes hours (level 8
alone is 124,581,084 positions, level 9 about 4.5 times more), so the levels are kept in a scratch
folder and a second run goes on from the last level stored; the engine stops with a sentence before a
level that the free disk cannot hold. The levels counted so far are written to
``results/census-power-of-two-reverse.json`` (per level: positions, jump sequences, dead ends, the
seconds to count it and build the next, and its bytes on disk) after the run, or at any time with
``--collect`` (from what the folder holds, while a run goes on; a level stored but not yet counted
is counted then, read-only: its seconds are null).

Usage: ``python tools/census_deep.py [SCRATCH] [--memory 6GiB] [--collect]`` (SCRATCH default
``.census-deep``; the memory budget default 6GiB).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from powertwo.boards import load
from powertwo.solvers.census import CensusOptions, census_tables, run_census
from powertwo.solvers.census.counts import Level
from powertwo.solvers.census.levelstore import read_state

ROOT = Path(__file__).resolve().parent.parent
POSITION = ROOT / "results" / "jump-reverse.json"
OUT = ROOT / "results" / "census-power-of-two-reverse.json"
ROW_BYTES = 24
"""A stored row: the position (8 bytes) and its residues (4 x 4 bytes)."""


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def start_position() -> list[int]:
    return json.loads(POSITION.read_text(encoding="utf-8"))["position"]


def collect(scratch: Path, memory: str, stopped: str | None) -> dict:
    """The levels the folder holds, as the results file; a level stored but not yet counted there
    (the one a running census expands) is counted here, read-only (its seconds: null)."""
    board = load("power-of-two")
    tables = census_tables(board, start_position())
    state = read_state(scratch, tables)
    levels: list[Level] = list(state.levels)
    timed = len(levels)
    if len(state.data) > len(levels):
        from powertwo.solvers.census.disk import Budget, DiskLevels

        levels.append(DiskLevels(tables, scratch, Budget.of(2 << 30), log).count(len(levels))[0])
    rows = [{"jumps": lv.jumps, "stones": lv.stones, "positions": lv.positions, "sequences": lv.sequences,
             "dead_ends": lv.dead_positions, "dead_sequences": lv.dead_sequences,
             "seconds": round(lv.seconds, 1) if k < timed else None,
             "disk_bytes": lv.classes * ROW_BYTES} for k, lv in enumerate(levels)]
    if stopped is None:
        stopped = (f"levels 0-{len(levels) - 1} counted, level {len(levels)} not yet built: the run goes on (or "
                   "was stopped); make census-deep resumes it")
    return {"board": board.name, "position": str(POSITION.relative_to(ROOT)), "engine": "disk", "memory": memory,
            "levels": rows, "stopped": stopped}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scratch", nargs="?", default=str(ROOT / ".census-deep"))
    parser.add_argument("--memory", default="6GiB")
    parser.add_argument("--collect", action="store_true", help="only write the results from the stored levels")
    args = parser.parse_args()
    scratch = Path(args.scratch)
    stopped = None
    if not args.collect:
        from powertwo.cli.limits import MemorySize

        memory = MemorySize().convert(args.memory, None, None)
        census = run_census(load("power-of-two"), start_position(),
                            CensusOptions(engine="disk", scratch=str(scratch), memory=memory), log)
        stopped = census.stopped or "complete: the last level has no jump left"
    data = collect(scratch, args.memory, stopped)
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    log(f"{OUT.relative_to(ROOT)}: {len(data['levels'])} levels; {data['stopped']}")


if __name__ == "__main__":
    main()
