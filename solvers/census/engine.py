"""The single-machine engine: one level at a time, children of a bounded batch of parents written
by the compiled kernel on every core, merged into a hash table split into one part per thread,
then sorted. Memory stays within the level arrays, one batch and the table."""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass, field

import numba
import numpy as np

from . import kernel
from .counts import PRIME_ARRAY, PRIMES, Level, crt, sum_residues
from .tables import CensusTables
from ..progress import Progress, no_progress

BATCH = 1 << 24
"""Children written per batch (16 Mi children: 192 MiB of keys and parent indices)."""
LOAD = 0.7


@dataclass
class LevelArrays:
    """A level as sorted canonical positions and their orbit totals (residues: the sequences that
    end on any position of the class)."""

    positions: np.ndarray
    counts: np.ndarray
    orbits: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.positions.nbytes + self.counts.nbytes + self.orbits.nbytes


def start_level(tables: CensusTables) -> LevelArrays:
    pos = np.array([tables.start], dtype=np.uint64)
    counts = np.ones((1, len(PRIMES)), dtype=np.uint32)
    return LevelArrays(pos, counts, np.ones(1, dtype=np.int64))


def level_figures(tables: CensusTables, level: LevelArrays, jumps: int, successors: np.ndarray) -> Level:
    """The figures of a level from its arrays and its parents' successor counts."""
    dead = successors == 0
    stones = bin(tables.start).count("1") - jumps
    seq = crt(sum_residues(level.counts))
    dead_seq = crt(sum_residues(level.counts[dead]))
    return Level(jumps=jumps, stones=stones, classes=len(level.positions), positions=int(level.orbits.sum()),
                 sequences=seq, dead_classes=int(dead.sum()), dead_positions=int(level.orbits[dead].sum()),
                 dead_sequences=dead_seq)


def _part_count() -> int:
    threads = max(1, numba.get_num_threads())
    return 1 << (threads - 1).bit_length()


def next_level(tables: CensusTables, level: LevelArrays, successors: np.ndarray,
               batch: int = BATCH) -> tuple[LevelArrays, int]:
    """The next level (sorted) and the most bytes its hash table held."""
    parts = _part_count()
    offsets = np.zeros(len(successors) + 1, dtype=np.int64)
    np.cumsum(successors, out=offsets[1:])
    guess = max(1024, 2 * len(level.positions) // parts)
    cap = 1 << (int(guess / LOAD)).bit_length()
    tkeys = np.zeros((parts, cap), dtype=np.uint64)
    tcounts = np.zeros((parts, cap, len(PRIMES)), dtype=np.uint32)
    fill = np.zeros(parts, dtype=np.int64)
    lo = 0
    n = len(level.positions)
    while lo < n:
        hi = int(np.searchsorted(offsets, offsets[lo] + batch, side="right")) - 1
        hi = min(n, max(hi, lo + 1))
        size = int(offsets[hi] - offsets[lo])
        keys = np.empty(size, dtype=np.uint64)
        owner = np.empty(size, dtype=np.int64)
        kernel.fill_children_par(level.positions[lo:hi], offsets, lo, tables.need, tables.land, tables.flip,
                                 tables.symtab, keys, owner)
        start_at = np.zeros(parts, dtype=np.int64)
        while True:
            stopped = kernel.insert_children(keys, owner, level.counts, PRIME_ARRAY, tkeys, tcounts, fill,
                                             start_at, int(cap * LOAD))
            if (stopped < 0).all():
                break
            cap *= 2
            tkeys, tcounts = kernel.rehash(tkeys, tcounts, cap)
            start_at = np.where(stopped < 0, len(keys), stopped)
        lo = hi
    table_bytes = tkeys.nbytes + tcounts.nbytes
    used = tkeys != 0
    positions = tkeys[used]
    counts = tcounts[used]
    del tkeys, tcounts
    order = np.argsort(positions)
    positions = positions[order]
    counts = counts[order]
    orbits = kernel.orbits_par(positions, tables.group_size, tables.symtab)
    return LevelArrays(positions, counts, orbits), table_bytes


def peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run_levels(tables: CensusTables, progress: Progress = no_progress, keep: bool = False,
               max_levels: int | None = None, batch: int = BATCH) -> tuple[list[Level], list[LevelArrays], int]:
    """Every level from the start (up to ``max_levels`` jumps); ``keep`` keeps each level's arrays
    (for the backward pass and the stored sets). Also the sequences to one stone on the target."""
    level = start_level(tables)
    figures: list[Level] = []
    kept: list[LevelArrays] = []
    jumps = 0
    on_target = 0
    while True:
        on_target += target_count(tables, level)
        began = time.perf_counter()
        successors = kernel.count_successors_par(level.positions, tables.need, tables.land)
        fig = level_figures(tables, level, jumps, successors)
        if keep:
            kept.append(level)
        last = int(successors.sum()) == 0 or (max_levels is not None and jumps >= max_levels)
        if not last:
            nxt, table_bytes = next_level(tables, level, successors, batch)
        fig.seconds = time.perf_counter() - began
        fig.memory_bytes = level.nbytes if last else (level.nbytes + nxt.nbytes + table_bytes
                                                      + min(batch, int(successors.sum())) * 16)
        figures.append(fig)
        progress(f"level {jumps} ({fig.stones} stones): {fig.positions:,} positions ({fig.classes:,} up to "
                 f"symmetry), {fig.sequences:,} sequences, {fig.dead_positions:,} dead ends, "
                 f"{fig.seconds:.1f} s, {fig.memory_bytes / 2**20:.0f} MiB")
        if last:
            break
        level = nxt
        jumps += 1
    return figures, kept, on_target


def target_count(tables: CensusTables, level: LevelArrays) -> int:
    """The sequences that end with one stone on the target, in this level."""
    if tables.target is None:
        return 0
    goal = np.uint64(1 << (tables.target - 1))
    at = int(np.searchsorted(level.positions, goal))
    if at == len(level.positions) or level.positions[at] != goal:
        return 0
    return crt([int(x) for x in level.counts[at]])


def solvable_levels(tables: CensusTables, kept: list[LevelArrays]) -> list[np.ndarray]:
    """The backward pass: per level, a mask of the positions from which one stone (on the target)
    is reachable."""
    marks: list[np.ndarray] = [np.zeros(0, dtype=np.bool_)] * len(kept)
    after = np.zeros(0, dtype=np.uint64)
    goal = None if tables.target is None else np.uint64(1 << (tables.target - 1))
    for k in range(len(kept) - 1, -1, -1):
        pos = kept[k].positions
        single = (pos & (pos - np.uint64(1))) == 0
        if goal is not None:
            single &= pos == goal
        mark = single | kernel.solvable_marks(pos, tables.need, tables.land, tables.flip, tables.symtab, after)
        marks[k] = mark
        after = pos[mark]
    return marks
