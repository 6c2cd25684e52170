"""The single-machine engine: one level at a time. The children of a bounded batch of parents are
written by the compiled kernel on every core, sorted and combined into a run (:mod:`.sortmerge`);
runs are merged into the level so far whenever they outgrow it, and at the end. Memory is the two
levels, the runs and one batch; the level is not built when that would pass the budget."""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass, field, replace

import numba
import numpy as np

from . import kernel
from .counts import PRIME_ARRAY, PRIMES, Level, crt
from .options import Progress, no_progress
from .sortmerge import merge_runs, sort_combine
from .tables import CensusError, CensusTables

BATCH = 1 << 24
"""Children written per batch at most (16 Mi children: 256 MiB of keys and parent indices, and as
much again while they are sorted)."""
ROW_BYTES = 8 + 4 * len(PRIMES)
"""Bytes per position of a level: the position and its residues."""
CHILD_BYTES = 48
"""Bytes per child of a batch while it is sorted and combined: key and parent index, written and
partitioned, and its share of the run."""


class BudgetExceeded(CensusError):
    """The next level would pass the memory budget (the census stops with the levels done)."""


def gib(nbytes: float) -> str:
    return f"{nbytes / 2 ** 30:.1f} GiB"


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


@dataclass(frozen=True)
class Plan:
    """How a level is built: ``batch`` children at most at a time, within ``budget`` bytes."""

    budget: int
    batch: int = BATCH

    def batch_for(self, held: int) -> int:
        """Children per batch: :data:`BATCH` or what the budget leaves beside ``held`` bytes."""
        return max(1024, min(self.batch, (self.budget - held) // (4 * CHILD_BYTES)))


def start_level(tables: CensusTables) -> LevelArrays:
    pos = np.array([tables.start], dtype=np.uint64)
    counts = np.ones((1, len(PRIMES)), dtype=np.uint32)
    return LevelArrays(pos, counts, np.ones(1, dtype=np.int64))


def chunks_for(n: int) -> int:
    return max(1, min(8 * numba.get_num_threads(), n // 4096 + 1))


def level_figures(tables: CensusTables, level: LevelArrays, jumps: int, successors: np.ndarray) -> Level:
    """The figures of a level from its arrays and its parents' successor counts (on every core)."""
    dead = successors == 0
    stones = bin(tables.start).count("1") - jumps
    sums = kernel.residue_sums(level.counts, successors, PRIME_ARRAY, chunks_for(len(successors)))
    return Level(jumps=jumps, stones=stones, classes=len(level.positions), positions=int(level.orbits.sum()),
                 sequences=crt([int(x) for x in sums[0]]), dead_classes=int(dead.sum()),
                 dead_positions=int(level.orbits[dead].sum()), dead_sequences=crt([int(x) for x in sums[1]]))


def batches(offsets: np.ndarray, batch: int):
    """``(lo, hi)`` parent ranges whose children number at most ``batch`` (one parent at least)."""
    n = len(offsets) - 1
    lo = 0
    while lo < n:
        hi = int(np.searchsorted(offsets, offsets[lo] + batch, side="right")) - 1
        hi = min(n, max(hi, lo + 1))
        yield lo, hi
        lo = hi


def children_run(tables: CensusTables, parents: np.ndarray, counts: np.ndarray, offsets: np.ndarray,
                 span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The children of ``parents[lo:hi]`` as a sorted run: distinct canonical positions with the
    sums of their parents' residues."""
    lo, hi = span
    size = int(offsets[hi] - offsets[lo])
    keys = np.empty(size, dtype=np.uint64)
    owner = np.empty(size, dtype=np.int64)
    kernel.fill_children(parents[lo:hi], offsets, lo, tables.need, tables.land, tables.flip, tables.symtab,
                         keys, owner)
    return sort_combine(keys, owner, counts, PRIME_ARRAY)


def next_level(tables: CensusTables, level: LevelArrays, successors: np.ndarray, plan: Plan) -> tuple[LevelArrays, int]:
    """The next level (sorted) and the most bytes its runs held; :class:`BudgetExceeded` when the
    runs outgrow the budget."""
    offsets = np.zeros(len(successors) + 1, dtype=np.int64)
    np.cumsum(successors, out=offsets[1:])
    base = (np.zeros(0, dtype=np.uint64), np.zeros((0, len(PRIMES)), dtype=np.uint32))
    pending: list[tuple[np.ndarray, np.ndarray]] = []
    held = most = 0
    for span in batches(offsets, plan.batch_for(level.nbytes)):
        run = children_run(tables, level.positions, level.counts, offsets, span)
        pending.append(run)
        held += len(run[0]) * ROW_BYTES
        most = max(most, held)
        if level.nbytes + 2 * held > plan.budget:
            raise BudgetExceeded(f"its runs reached {gib(level.nbytes + 2 * held)} with the level before")
        if sum(len(k) for k, _ in pending) > max(len(base[0]), 1 << 20):
            base = merge_runs([base, *pending], PRIME_ARRAY)
            pending = []
            held = len(base[0]) * ROW_BYTES
    positions, counts = merge_runs([base, *pending], PRIME_ARRAY)
    orbits = kernel.orbit_sizes(positions, tables.group_size, tables.symtab)
    return LevelArrays(positions, counts, orbits), most


def peak_rss() -> int:
    """The most memory this process has held (resident), in bytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def current_rss() -> int:
    """The memory this process holds now (resident), in bytes (the peak where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return peak_rss()


@dataclass(frozen=True)
class LevelRun:
    """What :func:`run_levels` returns: the figures of every level built, each level's arrays when
    kept, the sequences to one stone on the target, and why it stopped early (None when it did not)."""

    levels: list[Level]
    kept: list[LevelArrays]
    on_target: int
    stopped: str | None = None


def predicted_bytes(level: LevelArrays, growth: float, children: int) -> int:
    """The memory the next level should take: both levels and the runs beside the next (twice it
    while they merge), from the last growth factor (at most the children written)."""
    nxt = min(children, int(len(level.positions) * max(growth, 1.0))) * ROW_BYTES
    return level.nbytes + 3 * nxt


def run_levels(tables: CensusTables, plan: Plan, progress: Progress = no_progress, keep: bool = False,
               max_levels: int | None = None) -> LevelRun:
    """Every level from the start (up to ``max_levels`` jumps), each built only when the budget
    allows; ``keep`` keeps each level's arrays (for the backward pass and the stored sets)."""
    level = start_level(tables)
    figures: list[Level] = []
    kept: list[LevelArrays] = []
    jumps = on_target = 0
    growth = float(len(tables.need))
    stopped = None
    while True:
        on_target += target_count(tables, level)
        began = time.perf_counter()
        successors = kernel.count_successors(level.positions, tables.need, tables.land)
        fig = level_figures(tables, level, jumps, successors)
        if keep:
            kept.append(level)
        children = int(successors.sum())
        last = children == 0 or (max_levels is not None and jumps >= max_levels)
        nxt, most = None, 0
        if not last:
            need = predicted_bytes(level, growth, children)
            try:
                if need > plan.budget:
                    raise BudgetExceeded(f"about {gib(need)} needed")
                nxt, most = next_level(tables, level, successors, plan)
            except BudgetExceeded as exc:
                stopped = (f"stopped before level {jumps + 1}: building it would pass the memory budget of "
                           f"{gib(plan.budget)} (--memory; {exc}); the levels so far are counted")
        fig = replace(fig, seconds=time.perf_counter() - began,
                      memory_bytes=level.nbytes + (0 if nxt is None else nxt.nbytes + most))
        figures.append(fig)
        progress(f"level {jumps} ({fig.stones} stones): {fig.positions:,} positions ({fig.classes:,} up to "
                 f"symmetry), {fig.sequences:,} sequences, {fig.dead_positions:,} dead ends, "
                 f"{fig.seconds:.1f} s, {fig.memory_bytes / 2**20:.0f} MiB")
        if nxt is None:
            if stopped:
                progress(stopped)
            break
        growth = len(nxt.positions) / max(1, len(level.positions))
        level = nxt
        jumps += 1
    return LevelRun(figures, kept, on_target, stopped)


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


def fixed_paths(tables: CensusTables, perm_table: np.ndarray) -> dict[str, int]:
    """The jump sequences that one symmetry (``perm_table``, its byte tables) maps onto themselves:
    every position on them is fixed by it. A census without symmetry over the fixed positions
    (compiled, on every core): how many in all, to a dead end, to one stone (on the target)."""
    positions = np.array([tables.start], dtype=np.uint64)
    counts = np.ones((1, len(PRIMES)), dtype=np.uint32)
    totals = {"jump_sequences": 0, "game_sequences": 0, "solutions": 0}
    goal = None if tables.target is None else 1 << (tables.target - 1)
    while len(positions):
        successors = kernel.count_successors(positions, tables.need, tables.land)
        sums = kernel.residue_sums(counts, successors, PRIME_ARRAY, chunks_for(len(positions)))
        totals["jump_sequences"] += crt([int(x) for x in sums[0]])
        totals["game_sequences"] += crt([int(x) for x in sums[1]])
        for at in np.flatnonzero((positions & (positions - np.uint64(1))) == 0):
            if goal is None or int(positions[at]) == goal:
                totals["solutions"] += crt([int(x) for x in counts[at]])
        keys, owner = kernel.fixed_children(positions, tables.need, tables.land, tables.flip, perm_table,
                                            np.zeros(len(positions), dtype=np.int64))
        positions, counts = sort_combine(keys, owner, counts, PRIME_ARRAY)
    return totals


def up_to_symmetry(tables: CensusTables, levels: list[Level], solutions: int) -> dict[str, int]:
    """The figures counted up to the symmetries of the start (Burnside: the mean number of
    sequences each symmetry keeps, the identity keeping all)."""
    totals = {"jump_sequences": sum(lv.sequences for lv in levels),
              "game_sequences": sum(lv.dead_sequences for lv in levels), "solutions": solutions}
    for s in range(tables.symtab.shape[0]):
        for key, value in fixed_paths(tables, tables.symtab[s:s + 1]).items():
            totals[key] += value
    out = {"positions": sum(lv.classes for lv in levels)}
    for key, value in totals.items():
        if value % len(tables.group):
            raise ArithmeticError(f"{key}: {value} is no multiple of the group order {len(tables.group)}")
        out[key] = value // len(tables.group)
    return out
