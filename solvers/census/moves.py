"""The census by moves (a move: one or more jumps by the same stone). Level *k* holds the positions
first reached after *k* moves from the start (forward), or (backward, from the target's one stone,
or from every one-stone position) the positions that finish in *k* moves and no fewer: George Bell's
B[k] and B[-k]. Levels are sets of canonical positions: the children of a batch of parents (every
position one move away, by a walk over each stone's chains, compiled, on every core) are sorted
into a run, the runs merged, and the positions of earlier levels removed (:mod:`.sortmerge`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import numpy as np
from numba import njit, prange

from .counts import MovesLevel
from .engine import BudgetExceeded, Plan, chunks_for, gib
from .kernel import U0, U1, canonical, orbit_sizes, solvable_marks
from .options import Progress, no_progress
from .reference import stopped_after
from .sortmerge import difference, member_of, merge_runs, unique_sorted
from .tables import CensusTables, MoveTables

NO_VALUES = np.zeros((1, 0), dtype=np.uint32)
NO_PRIMES = np.zeros(0, dtype=np.uint64)
DEPTH = 66
"""The deepest chain walked: a chain jumps at most once per stone removed (forward) or hole filled
(backward), so 64 nodes need at most 64 jumps."""


@njit(inline="always")
def _walk(p, moves, symtab, keys, at, write):
    """Every position one move away from ``p`` (canonical when ``write``), written from ``at`` on;
    returns the next free index (with ``write`` False, counts them). A chain may come back to a
    node it left: every jump of it is legal on its own."""
    starts, occupied, free, flip, to = moves
    sq = np.empty(DEPTH, dtype=np.uint64)
    sn = np.empty(DEPTH, dtype=np.int64)
    sj = np.empty(DEPTH, dtype=np.int64)
    for x in range(len(starts) - 1):
        if (p >> np.uint64(x)) & U1 == U0:
            continue
        depth = 0
        sq[0] = p
        sn[0] = x
        sj[0] = starts[x]
        while depth >= 0:
            q = sq[depth]
            j = sj[depth]
            if j == starts[sn[depth] + 1]:
                depth -= 1
                continue
            sj[depth] = j + 1
            if (q & occupied[j]) == occupied[j] and (q & free[j]) == U0:
                r = q ^ flip[j]
                if write:
                    keys[at] = canonical(r, symtab)
                at += 1
                depth += 1
                sq[depth] = r
                sn[depth] = to[j]
                sj[depth] = starts[to[j]]
    return at


@njit(parallel=True, cache=True)
def count_moves(parents, moves, symtab):
    """How many chains (moves, with repeats) leave each position."""
    out = np.zeros(len(parents), dtype=np.int64)
    none = np.zeros(0, dtype=np.uint64)
    for i in prange(len(parents)):
        out[i] = _walk(parents[i], moves, symtab, none, 0, False)
    return out


@njit(parallel=True, cache=True)
def fill_moves(parents, offsets, lo, moves, symtab, keys):
    """The canonical positions one move away from ``parents`` (repeats kept), from
    ``offsets[lo + i] - offsets[lo]`` on."""
    base = offsets[lo]
    for i in prange(len(parents)):
        _walk(parents[i], moves, symtab, keys, offsets[lo + i] - base, True)


@njit(parallel=True, cache=True)
def leads_to(parents, moves, symtab, child):
    """Which of ``parents`` have a move to the canonical position ``child``."""
    out = np.zeros(len(parents), dtype=np.bool_)
    for i in prange(len(parents)):
        n = _walk(parents[i], moves, symtab, np.zeros(0, dtype=np.uint64), 0, False)
        keys = np.empty(n, dtype=np.uint64)
        _walk(parents[i], moves, symtab, keys, 0, True)
        for k in range(n):
            if keys[k] == child:
                out[i] = True
                break
    return out


@njit(cache=True)
def moves_from(p, moves, symtab):
    """The canonical positions one move away from ``p`` (repeats kept), on one thread."""
    keys = np.empty(_walk(p, moves, symtab, np.zeros(0, dtype=np.uint64), 0, False), dtype=np.uint64)
    _walk(p, moves, symtab, keys, 0, True)
    return keys


def moves_group(moves: MoveTables) -> tuple:
    return (moves.starts, moves.occupied, moves.free, moves.flip, moves.to)


def children_of(level: np.ndarray, moves: MoveTables, symtab: np.ndarray, plan: Plan) -> np.ndarray:
    """The distinct canonical positions one move away from the positions of ``level``, in order."""
    group = moves_group(moves)
    if len(level) == 1:
        return np.unique(moves_from(level[0], group, symtab))
    counts = count_moves(level, group, symtab)
    offsets = np.zeros(len(level) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    runs = []
    held = 0
    batch = max(1024, min(plan.batch, (plan.budget - level.nbytes) // 96))
    lo = 0
    while lo < len(level):
        hi = int(np.searchsorted(offsets, offsets[lo] + batch, side="right")) - 1
        hi = min(len(level), max(hi, lo + 1))
        keys = np.empty(int(offsets[hi] - offsets[lo]), dtype=np.uint64)
        fill_moves(level[lo:hi], offsets, lo, group, symtab, keys)
        run = unique_sorted(keys)
        del keys
        runs.append((run, NO_VALUES[:0].reshape(len(run), 0)))
        held += run.nbytes
        if level.nbytes + 2 * held > plan.budget:
            raise BudgetExceeded(f"its runs reached {gib(level.nbytes + 2 * held)}")
        lo = hi
    merged, _ = merge_runs(runs, NO_PRIMES)
    return merged


def popcounts(positions: np.ndarray) -> np.ndarray:
    return np.bitwise_count(positions)


@dataclass(frozen=True)
class MovesRun:
    """The levels by moves: the figures and each level's sorted canonical positions."""

    levels: list[MovesLevel]
    sets: list[np.ndarray]
    stopped: str | None = None


def first_level(tables: CensusTables, backward: bool) -> np.ndarray:
    """Level 0: the start, or backward the target's one stone (every one-stone position without a
    target), canonical."""
    if not backward:
        return np.array([tables.start], dtype=np.uint64)
    if tables.target is not None:
        return np.array([1 << (tables.target - 1)], dtype=np.uint64)
    singles = [tables.canonical(1 << (v - 1)) for v in tables.board.nodes]
    return np.unique(np.array(singles, dtype=np.uint64))


def moves_levels(tables: CensusTables, moves: MoveTables, plan: Plan, progress: Progress = no_progress,
                 max_levels: int | None = None) -> MovesRun:
    """Every level by moves (up to ``max_levels`` moves), each built only within the budget."""
    level = first_level(tables, moves.backward)
    figures: list[MovesLevel] = []
    sets: list[np.ndarray] = []
    stopped = None
    while len(level):
        began = time.perf_counter()
        k = len(figures)
        stones = popcounts(level)
        orbits = orbit_sizes(level, tables.group_size, tables.symtab)
        sets.append(level)
        nxt = np.zeros(0, dtype=np.uint64)
        if max_levels is not None and k >= max_levels:
            if count_moves(level, moves_group(moves), tables.symtab).any():
                stopped = stopped_after(k, "moves")
        else:
            try:
                nxt = difference(children_of(level, moves, tables.symtab, plan), sets)
            except BudgetExceeded as exc:
                stopped = (f"stopped before level {k + 1}: building it would pass the memory budget of "
                           f"{gib(plan.budget)} (--memory; {exc}); the levels so far are counted")
        fig = MovesLevel(moves=k, classes=len(level), positions=int(orbits.sum()), fewest_stones=int(stones.min()),
                         most_stones=int(stones.max()), seconds=time.perf_counter() - began,
                         memory_bytes=sum(a.nbytes for a in sets) + nxt.nbytes)
        figures.append(fig)
        progress(f"{'backward ' if moves.backward else ''}level {k} by moves ({fig.fewest_stones}-"
                 f"{fig.most_stones} stones): {fig.positions:,} positions ({fig.classes:,} up to symmetry), "
                 f"{fig.seconds:.1f} s")
        if stopped:
            progress(stopped)
            break
        level = nxt
    return MovesRun(figures, sets, stopped)


def solvable_moves(tables: CensusTables, run: MovesRun) -> MovesRun:
    """The levels with their solvable positions (one stone on the target still reachable; any
    one stone without a target): the positions of every level grouped by stones, marked from one
    stone up by their single jumps (a move is a chain of them)."""
    every = np.concatenate(run.sets)
    stones = popcounts(every)
    goal = None if tables.target is None else np.uint64(1 << (tables.target - 1))
    found = [np.zeros(0, dtype=np.uint64)]
    for s in range(1, int(stones.max()) + 1):
        group = np.sort(every[stones == s])
        if s == 1:
            mark = np.ones(len(group), dtype=np.bool_) if goal is None else group == goal
        else:
            mark = solvable_marks(group, tables.need, tables.land, tables.flip, tables.symtab, found[-1])
        found.append(group[mark])
    solvable = np.sort(np.concatenate(found))
    levels = []
    for lv, level in zip(run.levels, run.sets, strict=True):
        mark = member_of(level, solvable)
        orbits = orbit_sizes(level[mark], tables.group_size, tables.symtab)
        levels.append(replace(lv, solvable_classes=int(mark.sum()), solvable_positions=int(orbits.sum())))
    return replace(run, levels=levels)


__all__ = ["MovesRun", "children_of", "chunks_for", "count_moves", "fill_moves", "first_level", "leads_to",
           "moves_levels", "solvable_moves"]
