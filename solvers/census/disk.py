"""The out-of-core engine: every level a pair of files on disk (sorted canonical positions,
``uint64``; their residues, ``uint32`` x 4), read in chunks. The children of a chunk of parents
are sorted and combined in memory (:func:`.sortmerge.sort_combine`, on every core) and written as a
sorted run; when the level's parents are done, the runs are merged window by window (a key range
whose slices of every run fit the budget, read from each run and merged by
:func:`.sortmerge.merge_runs`) into the next level's files. Memory stays within ``--memory``: one
chunk of parents, one batch of children and one window. A folder given by ``--scratch`` keeps the
levels with their hashes (:mod:`.levelstore`), and a later run resumes from the last level stored.
Disk is bounded too: a level whose build would need more than the folder's free disk (the next
level estimated from the last growth factor, twice it while the runs merge) is not begun; while a
level is built, runs that pass half the free disk are squeezed (all merged into one, no larger
than the level); and a build that brings the disk within its reserve (:func:`disk_reserve`) of
full stops. Either way the census ends with a sentence and the levels so far."""

from __future__ import annotations

import shutil
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

import numpy as np

from . import kernel
from .counts import PRIME_ARRAY, PRIMES, Level, crt
from .engine import ROW_BYTES, BudgetExceeded, LevelArrays, chunks_for, current_rss, gib
from .levelstore import check_levels, file_digest, read_state
from .options import CensusOptions, Progress
from .sortmerge import merge_runs, sort_combine
from .tables import CensusError, CensusTables

WIDTH = len(PRIMES)
SPARSE = 256
"""Every this many keys of a run is kept in memory: the sample the merge windows are cut from."""
FANIN = 16
"""Runs of one tier merged into one of the next."""
FLOOR = 64 << 20
"""The least working memory the engine runs with (beside what the process already holds)."""
RESERVE_SHARE = 0.05
"""The share of its disk that a build leaves free (at least 1 GiB): the disk is shared."""
SQUEEZED = 1 << 20
"""The tier of a run that holds every run so far (never merged by tiers again)."""


class DiskFull(CensusError):
    """The scratch folder's disk came within its reserve of full."""


def free_disk(folder: Path) -> int:
    """The bytes free on the disk of ``folder``."""
    return shutil.disk_usage(folder).free


def disk_reserve(folder: Path) -> int:
    """The free disk a build always leaves on the disk of ``folder``: :data:`RESERVE_SHARE` of it,
    at least 1 GiB (a write that would come closer to full stops the build)."""
    return max(1 << 30, int(shutil.disk_usage(folder).total * RESERVE_SHARE))


@dataclass(frozen=True)
class Files:
    """A sorted array of positions with residues on disk: ``<stem>.pos`` and ``<stem>.cnt``."""

    stem: Path

    @property
    def pos(self) -> Path:
        return self.stem.with_suffix(".pos")

    @property
    def cnt(self) -> Path:
        return self.stem.with_suffix(".cnt")

    def __len__(self) -> int:
        return self.pos.stat().st_size // 8 if self.pos.is_file() else 0

    def read(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows ``lo..hi`` (positions and residues)."""
        count = max(0, hi - lo)
        pos = np.fromfile(self.pos, dtype=np.uint64, count=count, offset=8 * lo)
        cnt = np.fromfile(self.cnt, dtype=np.uint32, count=count * WIDTH, offset=4 * WIDTH * lo)
        return pos, cnt.reshape(count, WIDTH)

    def search(self, key: np.uint64, lo: int, hi: int) -> int:
        """The first row in ``lo..hi`` whose position is not below ``key`` (reads a few blocks)."""
        while hi - lo > 4096:
            mid = (lo + hi) // 2
            if np.fromfile(self.pos, dtype=np.uint64, count=1, offset=8 * mid)[0] < key:
                lo = mid + 1
            else:
                hi = mid
        return lo + int(np.searchsorted(self.read(lo, hi)[0], key))

    def remove(self) -> None:
        self.pos.unlink(missing_ok=True)
        self.cnt.unlink(missing_ok=True)


class Writer:
    """Appends rows to a pair of files."""

    def __init__(self, files: Files, scratch: Path | None = None):
        self.files = files
        self.scratch = scratch or files.pos.parent
        self.reserve = disk_reserve(self.scratch)
        self.rows = 0
        self._pos: BinaryIO = open(files.pos, "wb")
        self._cnt: BinaryIO = open(files.cnt, "wb")

    def write(self, pos: np.ndarray, cnt: np.ndarray) -> None:
        """Appends the rows; a :class:`DiskFull` (nothing written) when they would leave less than
        the disk's reserve free."""
        if free_disk(self.files.pos.parent) - len(pos) * ROW_BYTES < self.reserve:
            raise DiskFull(f"the disk of {self.scratch} came within {gib(self.reserve)} of full")
        np.ascontiguousarray(pos).tofile(self._pos)
        np.ascontiguousarray(cnt).tofile(self._cnt)
        self.rows += len(pos)

    def close(self) -> None:
        self._pos.close()
        self._cnt.close()


@dataclass(frozen=True)
class Run:
    """A sorted run on disk with every :data:`SPARSE`-th key in memory; ``tier``: how many merges
    made it (a batch's run is tier 0)."""

    files: Files
    rows: int
    sample: np.ndarray
    tier: int = 0


@dataclass(frozen=True)
class Budget:
    """The engine's sizes from ``--memory``: parents per chunk, children per batch, rows per window."""

    parents: int
    children: int
    window: int

    @staticmethod
    def of(total: int) -> "Budget":
        work = total - current_rss()
        if work < FLOOR:
            raise BudgetExceeded(f"--memory {gib(total)}: the process already holds {gib(current_rss())}; the "
                                 f"disk engine needs {FLOOR >> 20} MiB more")
        return Budget(parents=max(1024, work // 8 // 64), children=max(4096, work // 2 // 64),
                      window=max(4096, work // 2 // 72))


@dataclass(frozen=True)
class DiskRun:
    levels: list[Level]
    on_target: int
    stopped: str | None = None
    scratch_bytes: int = 0


class DiskLevels:
    """The levels of one census in a folder."""

    def __init__(self, tables: CensusTables, folder: Path, budget: Budget, progress: Progress):
        self.tables = tables
        self.folder = folder
        self.budget = budget
        self.progress = progress

    def level(self, k: int) -> Files:
        return Files(self.folder / f"level-{k:02d}")

    def start(self) -> None:
        w = Writer(self.level(0))
        w.write(np.array([self.tables.start], dtype=np.uint64), np.ones((1, WIDTH), dtype=np.uint32))
        w.close()

    def count(self, k: int) -> tuple[Level, int, int]:
        """Level ``k``'s figures, the sequences on the target there, and its children (a pass over
        its files, a chunk at a time)."""
        t = self.tables
        files = self.level(k)
        n = len(files)
        sums = np.zeros((2, WIDTH), dtype=object)
        classes = positions = dead_classes = dead_positions = children = on_target = 0
        goal = None if t.target is None else np.uint64(1 << (t.target - 1))
        for lo in range(0, n, self.budget.parents):
            pos, cnt = files.read(lo, min(n, lo + self.budget.parents))
            successors = kernel.count_successors(pos, t.need, t.land)
            orbits = kernel.orbit_sizes(pos, t.group_size, t.symtab)
            part = kernel.residue_sums(cnt, successors, PRIME_ARRAY, chunks_for(len(pos)))
            sums += part.astype(object)
            dead = successors == 0
            classes += len(pos)
            positions += int(orbits.sum())
            dead_classes += int(dead.sum())
            dead_positions += int(orbits[dead].sum())
            children += int(successors.sum())
            if goal is not None and (at := int(np.searchsorted(pos, goal))) < len(pos) and pos[at] == goal:
                on_target = crt([int(x) for x in cnt[at]])
        mods = [[int(sums[r, c]) % p for c, p in enumerate(PRIMES)] for r in range(2)]
        stones = bin(t.start).count("1") - k
        lv = Level(jumps=k, stones=stones, classes=classes, positions=positions, sequences=crt(mods[0]),
                   dead_classes=dead_classes, dead_positions=dead_positions, dead_sequences=crt(mods[1]))
        return lv, on_target, children

    def runs(self, k: int) -> list[Run]:
        """Level ``k``'s children as sorted runs, a batch of parents' children each; every
        :data:`FANIN` runs of a tier are merged into one of the next (equal children meet, so the
        runs on disk stay near the size of the next level), and all of them into one when they pass
        half the disk left (:meth:`squeeze`)."""
        t = self.tables
        files = self.level(k)
        n = len(files)
        folder = self.folder / f"runs-{k + 1:02d}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        out: list[Run] = []
        names = iter(range(1 << 40))
        room = (free_disk(self.folder) - disk_reserve(self.folder)) // 2
        for lo in range(0, n, self.budget.parents):
            pos, cnt = files.read(lo, min(n, lo + self.budget.parents))
            successors = kernel.count_successors(pos, t.need, t.land)
            offsets = np.zeros(len(pos) + 1, dtype=np.int64)
            np.cumsum(successors, out=offsets[1:])
            a = 0
            while a < len(pos):
                b = int(np.searchsorted(offsets, offsets[a] + self.budget.children, side="right")) - 1
                b = min(len(pos), max(b, a + 1))
                keys = np.empty(int(offsets[b] - offsets[a]), dtype=np.uint64)
                owner = np.empty(len(keys), dtype=np.int64)
                kernel.fill_children(pos[a:b], offsets, a, t.need, t.land, t.flip, t.symtab, keys, owner)
                rk, rc = sort_combine(keys, owner, cnt, PRIME_ARRAY)
                del keys, owner
                run = Files(folder / f"run-{next(names):05d}")
                w = Writer(run, self.folder)
                w.write(rk, rc)
                w.close()
                out.append(Run(run, len(rk), rk[::SPARSE].copy()))
                out = self.squeeze(self.compact(out, folder, names), folder, names, room)
                a = b
        return out

    def compact(self, runs: list[Run], folder: Path, names) -> list[Run]:
        """The runs with every :data:`FANIN` of one tier merged into one of the next tier."""
        while True:
            tier = runs[-1].tier
            same = [r for r in runs if r.tier == tier]
            if len(same) < FANIN:
                return runs
            merged = self.merge_into(same, Files(folder / f"run-{next(names):05d}"), tier + 1)
            for r in same:
                r.files.remove()
            runs = [r for r in runs if r.tier != tier] + [merged]

    def squeeze(self, runs: list[Run], folder: Path, names, room: int) -> list[Run]:
        """The runs, all merged into one when they pass ``room`` bytes and twice the last squeezed
        run (the union of the children so far: no larger than the level they build)."""
        rows = sum(r.rows for r in runs)
        last = max([r.rows for r in runs if r.tier == SQUEEZED], default=0)
        if len(runs) < 2 or rows * ROW_BYTES <= room or rows <= 2 * last:
            return runs
        self.progress(f"squeezing {len(runs)} runs ({gib(rows * ROW_BYTES)}) into one: they pass half the free disk")
        merged = self.merge_into(runs, Files(folder / f"run-{next(names):05d}"), SQUEEZED)
        for r in runs:
            r.files.remove()
        return [merged]

    def merge_into(self, runs: list[Run], target: Files, tier: int = 0) -> Run:
        """The runs merged window by window (a key range whose slices of every run fit the budget)
        into ``target``."""
        keys = np.sort(np.concatenate([r.sample for r in runs])) if runs else np.zeros(0, dtype=np.uint64)
        step = max(1, self.budget.window // SPARSE)
        cuts = keys[step::step]
        w = Writer(target, self.folder)
        samples = []
        at = [0] * len(runs)
        for hi_key in [*cuts, None]:
            pieces = []
            for i, run in enumerate(runs):
                hi = run.rows if hi_key is None else run.files.search(hi_key, at[i], run.rows)
                if hi > at[i]:
                    pieces.append(run.files.read(at[i], hi))
                at[i] = hi
            if pieces:
                pos, cnt = merge_runs(pieces, PRIME_ARRAY)
                w.write(pos, cnt)
                samples.append(pos[::SPARSE].copy())
        w.close()
        sample = np.concatenate(samples) if samples else np.zeros(0, dtype=np.uint64)
        return Run(target, w.rows, sample, tier)

    def merge(self, runs: list[Run], k: int) -> str:
        """The runs merged into level ``k``'s files; the hash of its data."""
        target = self.level(k)
        part = Files(target.stem.with_name(target.stem.name + "-part"))
        self.merge_into(runs, part)
        data = file_digest([part.pos, part.cnt]).hexdigest()
        part.pos.replace(target.pos)
        part.cnt.replace(target.cnt)
        shutil.rmtree(self.folder / f"runs-{k:02d}", ignore_errors=True)
        return data

    def room_for(self, k: int) -> str | None:
        """Why level ``k + 1`` is not begun (None: it is): the disk it would need (the level from
        the last growth factor, which falls from level to level; twice it while its runs merge)
        beyond the folder's free disk."""
        rows, before = len(self.level(k)), len(self.level(k - 1)) if k else 1
        need = 2 * ROW_BYTES * rows * rows // max(1, before)
        free = free_disk(self.folder)
        if need <= free - disk_reserve(self.folder):
            return None
        return (f"stopped before level {k + 1}: building it needs about {gib(need)} of disk in {self.folder} (the "
                f"level from the last growth factor, and its runs), {gib(free)} is free; the levels so far are counted")

    def drop(self, k: int) -> None:
        """The runs and the half-written files of level ``k`` removed (a build that stopped)."""
        shutil.rmtree(self.folder / f"runs-{k:02d}", ignore_errors=True)
        stem = self.level(k).stem
        Files(stem.with_name(stem.name + "-part")).remove()

    def arrays(self, k: int) -> LevelArrays:
        """Level ``k`` read whole (tests and small boards)."""
        pos, cnt = self.level(k).read(0, len(self.level(k)))
        return LevelArrays(pos, cnt, kernel.orbit_sizes(pos, self.tables.group_size, self.tables.symtab))


def disk_levels(tables: CensusTables, options: CensusOptions, progress: Progress) -> DiskRun:
    """Every level out of core (up to ``options.max_levels`` jumps), resumable from
    ``options.scratch``; a temporary folder, removed at the end, without it."""
    folder = Path(options.scratch) if options.scratch else Path(tempfile.mkdtemp(prefix="powertwo-census-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        return _run(DiskLevels(tables, folder, Budget.of(options.budget), progress), options)
    finally:
        if not options.scratch:
            shutil.rmtree(folder, ignore_errors=True)


def _run(disk: DiskLevels, options: CensusOptions) -> DiskRun:
    state = read_state(disk.folder, disk.tables)
    check_levels(state, lambda k: [disk.level(k).pos, disk.level(k).cnt])
    if not state.data:
        disk.start()
        state.stored(0, file_digest([disk.level(0).pos, disk.level(0).cnt]).hexdigest())
        state.save()
    k = len(state.data) - 1  # the last level stored: counted again (it may not be expanded yet)
    if k < len(state.levels):
        disk.progress(f"resuming from level {k} in {disk.folder}")
    most = 0
    while True:
        began = time.perf_counter()
        lv, on_target, children = disk.count(k)
        state.counted(k, lv, on_target)
        last = children == 0 or (options.max_levels is not None and k >= options.max_levels)
        stopped = None if last else disk.room_for(k)
        if not last and stopped is None:
            try:
                runs = disk.runs(k)
                scratch = sum(r.files.pos.stat().st_size + r.files.cnt.stat().st_size for r in runs)
                state.stored(k + 1, disk.merge(runs, k + 1))
                most = max(most, scratch + len(disk.level(k + 1)) * ROW_BYTES)
            except DiskFull as full:
                disk.drop(k + 1)
                stopped = (f"stopped while building level {k + 1}: {full}; its runs are removed and the levels "
                           "so far are counted")
        lv = state.levels[k] = replace(lv, seconds=time.perf_counter() - began, memory_bytes=current_rss())
        state.save()
        disk.progress(f"disk level {k} ({lv.stones} stones): {lv.positions:,} positions ({lv.classes:,} up to "
                      f"symmetry), {lv.sequences:,} sequences, {lv.dead_positions:,} dead ends, {lv.seconds:.1f} s")
        if last or stopped is not None:
            break
        k += 1
    return DiskRun(list(state.levels), sum(state.targets), stopped, most)
