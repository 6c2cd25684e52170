"""The Dask engine: the disk engine's run-and-merge layout, one partition per task. A level is a
frame of (canonical position, residues of its orbit total) cut into key ranges, each partition
sorted. Each partition's children are sorted and combined into a run (the compiled kernel and
:func:`.sortmerge.sort_combine`, one thread per task); splitters sampled from the runs cut them
into the next level's key ranges, Dask's shuffle (``set_index`` on those divisions, P2P on
distributed) brings each range's pieces of every run together, and one task per range merges them.
Runs on ``dask.distributed`` (a ``LocalCluster`` unless a scheduler address is given), whose
workers spill to disk under their memory limits; with a folder every level is written as Parquet
with its hash and figures (:mod:`.levelstore`), and a later run resumes from the last level written."""

from __future__ import annotations

import asyncio
import shutil
import socket
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numba
import numpy as np
import pandas as pd  # type: ignore[import-untyped]

from . import kernel
from .counts import PRIME_ARRAY, PRIMES, Level, crt
from .engine import chunks_for
from .levelstore import LevelState, check_levels, file_digest, read_state
from .options import CensusOptions, Progress, no_progress
from .sortmerge import sort_combine, splitters
from .tables import CensusError, CensusTables

COLUMNS = [f"c{r}" for r in range(len(PRIMES))]
ROWS = 1 << 20
"""Rows per partition the engine aims at."""
SPARSE = 256
"""Every this many keys of each run are sampled for the splitters."""
CONNECT_SECONDS = 10.0
"""How long a scheduler given by ``--scheduler`` may take to answer."""


def frame(positions: np.ndarray, counts: np.ndarray) -> pd.DataFrame:
    data: dict[str, Any] = {"pos": positions.astype(np.uint64)}
    for r, name in enumerate(COLUMNS):
        data[name] = counts[:, r].astype(np.uint32)
    return pd.DataFrame(data)


def _counts(df: pd.DataFrame) -> np.ndarray:
    return np.ascontiguousarray(np.stack([df[c].to_numpy(np.uint32) for c in COLUMNS], axis=1))


def expand(df: pd.DataFrame, need, land, flip, symtab) -> pd.DataFrame:
    """One partition's children as a sorted run: each canonical child once, with its parents'
    summed counts."""
    numba.set_num_threads(1)
    parents = np.ascontiguousarray(df["pos"].to_numpy(np.uint64))
    successors = kernel.count_successors(parents, need, land)
    offsets = np.zeros(len(parents) + 1, dtype=np.int64)
    np.cumsum(successors, out=offsets[1:])
    keys = np.empty(int(offsets[-1]), dtype=np.uint64)
    owner = np.empty(int(offsets[-1]), dtype=np.int64)
    kernel.fill_children(parents, offsets, 0, need, land, flip, symtab, keys, owner)
    return frame(*sort_combine(keys, owner, _counts(df), PRIME_ARRAY))


def sample(df: pd.DataFrame) -> pd.Series:
    """Every :data:`SPARSE`-th key of a run: what the splitters are drawn from."""
    return df["pos"].iloc[::SPARSE]


def merge(df: pd.DataFrame) -> pd.DataFrame:
    """One key range after the shuffle: its pieces of every run merged, equal positions summed."""
    numba.set_num_threads(1)
    keys = np.ascontiguousarray(df.index.to_numpy(np.uint64))
    return frame(*sort_combine(keys, np.arange(len(keys), dtype=np.int64), _counts(df), PRIME_ARRAY))


def figures(df: pd.DataFrame, need, land, group_size, symtab, goal) -> pd.DataFrame:
    """One partition's share of its level's figures (one row)."""
    numba.set_num_threads(1)
    pos = np.ascontiguousarray(df["pos"].to_numpy(np.uint64))
    counts = _counts(df)
    successors = kernel.count_successors(pos, need, land)
    orbits = kernel.orbit_sizes(pos, group_size, symtab)
    sums = kernel.residue_sums(counts, successors, PRIME_ARRAY, chunks_for(len(pos)))
    dead = successors == 0
    row: dict[str, Any] = {"classes": [len(pos)], "positions": [int(orbits.sum())], "children": [int(successors.sum())],
                           "dead_classes": [int(dead.sum())], "dead_positions": [int(orbits[dead].sum())]}
    for r in range(len(PRIMES)):
        row[f"s{r}"] = [int(sums[0, r])]
        row[f"d{r}"] = [int(sums[1, r])]
        row[f"t{r}"] = [int(counts[pos == goal, r].sum())]
    return pd.DataFrame(row)


def _level(rows: pd.DataFrame, jumps: int, stones: int) -> tuple[Level, int, int]:
    def total(prefix: str) -> int:
        return crt([int(rows[f"{prefix}{r}"].sum()) % p for r, p in enumerate(PRIMES)])

    lv = Level(jumps=jumps, stones=stones, classes=int(rows["classes"].sum()), positions=int(rows["positions"].sum()),
               sequences=total("s"), dead_classes=int(rows["dead_classes"].sum()),
               dead_positions=int(rows["dead_positions"].sum()), dead_sequences=total("d"))
    return lv, int(rows["children"].sum()), total("t")


def scheduler_address(address: str) -> tuple[str, int]:
    """Host and port of ``tcp://HOST:PORT`` (or ``HOST:PORT``); a :class:`CensusError` otherwise."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        port = parts.port
    except ValueError:
        port = None
    if parts.scheme != "tcp" or not parts.hostname or port is None:
        raise CensusError(f"--scheduler {address[:80]}: not a scheduler address (tcp://HOST:PORT)")
    return parts.hostname, port


def connect(scheduler: str | None, workers: int, memory: int, processes: bool = True):
    """A client of the scheduler at ``scheduler`` (checked within :data:`CONNECT_SECONDS`, every
    failure one :class:`CensusError`), or of a new ``LocalCluster`` of ``workers`` processes (threads
    of this process when not ``processes``: the tests) sharing ``memory`` bytes."""
    import logging

    from dask.distributed import Client, LocalCluster

    if not scheduler:
        # Threads of this process share its memory, which Dask would measure whole against each
        # worker's share and pause every worker (the jobs then never come back): no Dask limit there.
        limit = max(1 << 28, memory // workers) if processes else 0
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes, dashboard_address=":0",
                               silence_logs=logging.ERROR, memory_limit=limit)
        return Client(cluster), cluster
    host, port = scheduler_address(scheduler)
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS):
            pass
    except OSError as exc:
        why = "no answer" if isinstance(exc, TimeoutError) else exc.strerror or exc.__class__.__name__
        raise CensusError(f"--scheduler {scheduler}: cannot connect ({why})") from None
    try:
        kind = asyncio.run(asyncio.wait_for(_identity(f"tcp://{host}:{port}"), CONNECT_SECONDS))
    except (TimeoutError, asyncio.TimeoutError):
        raise CensusError(f"--scheduler {scheduler}: no Dask scheduler answered within {CONNECT_SECONDS:g} s") \
            from None
    except Exception as exc:  # noqa: BLE001 - whatever the peer sent, the user gets one line
        raise CensusError(f"--scheduler {scheduler}: not a Dask scheduler (its answer: "
                          f"{exc.__class__.__name__})") from None
    if kind != "Scheduler":
        raise CensusError(f"--scheduler {scheduler}: not a Dask scheduler (it says it is {str(kind)[:40]!r})")
    return Client(scheduler, timeout=CONNECT_SECONDS), None


async def _identity(address: str) -> str:
    """What the peer at ``address`` says it is (Dask's ``identity`` call): ``Scheduler`` for one."""
    from distributed.comm import connect as open_comm

    comm = await open_comm(address, timeout=CONNECT_SECONDS)
    try:
        await comm.write({"op": "identity", "reply": True})
        reply = await comm.read()
    finally:
        comm.abort()
    return str(reply.get("type")) if isinstance(reply, dict) else type(reply).__name__


class ParquetLevels:
    """The levels of one census as Parquet folders ``level-KK/`` beside a state file."""

    def __init__(self, folder: Path | None):
        self.folder = folder

    def path(self, k: int) -> Path:
        assert self.folder is not None
        return self.folder / f"level-{k:02d}"

    def files(self, k: int) -> list[Path]:
        return sorted(self.path(k).glob("*.parquet"))

    def write(self, level, k: int, state: LevelState):
        """``level`` written as level ``k``, its hash kept in ``state``; the level read back."""
        import dask.dataframe as dd

        shutil.rmtree(self.path(k), ignore_errors=True)
        level.to_parquet(self.path(k), write_index=False)
        state.stored(k, file_digest(self.files(k)).hexdigest())
        state.save()
        return dd.read_parquet(self.path(k))


def dask_levels(tables: CensusTables, options: CensusOptions, progress: Progress = no_progress,
                processes: bool = True) -> tuple[list[Level], int]:
    """Every level on a Dask cluster; the figures equal the single-machine engine's."""
    import dask.dataframe as dd

    store = ParquetLevels(None if options.parquet is None else Path(options.parquet))
    state = None
    if store.folder is not None:
        store.folder.mkdir(parents=True, exist_ok=True)
        state = read_state(store.folder, tables)
        check_levels(state, store.files)
    client, cluster = connect(options.scheduler, options.workers or 2, options.budget, processes)
    try:
        return _levels(tables, options, progress, store, state, dd)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _levels(tables, options: CensusOptions, progress: Progress, store: ParquetLevels,
            state: LevelState | None, dd) -> tuple[list[Level], int]:
    figures_done: list[Level] = []
    targets: list[int] = []
    jumps = 0
    if state is not None and state.data:
        jumps = len(state.data) - 1  # the last level stored is counted again: it may be unexpanded
        figures_done, targets = list(state.levels[:jumps]), list(state.targets[:jumps])
        level = dd.read_parquet(store.path(jumps))
        progress(f"resuming from level {jumps} in {store.folder}")
    else:
        level = dd.from_pandas(frame(np.array([tables.start], dtype=np.uint64),
                                     np.ones((1, len(PRIMES)), dtype=np.uint32)), npartitions=1)
        if state is not None:
            level = store.write(level, 0, state)
    goal = np.uint64(0 if tables.target is None else 1 << (tables.target - 1))
    meta = frame(np.zeros(0, dtype=np.uint64), np.zeros((0, len(PRIMES)), dtype=np.uint32))
    stones = bin(tables.start).count("1")
    while True:
        began = time.perf_counter()
        rows = level.map_partitions(figures, tables.need, tables.land, tables.group_size, tables.symtab,
                                    goal).compute()
        lv, children, on_target = _level(rows, jumps, stones - jumps)
        done = children == 0 or (options.max_levels is not None and jumps >= options.max_levels)
        if not done:
            level = next_level(level, tables, children, meta)
            if state is not None:
                level = store.write(level, jumps + 1, state)
        lv = Level(**{**lv.__dict__, "seconds": time.perf_counter() - began})
        figures_done.append(lv)
        targets.append(on_target)
        if state is not None:
            state.counted(jumps, lv, on_target)
            state.save()
        progress(f"dask level {jumps} ({lv.stones} stones): {lv.positions:,} positions ({lv.classes:,} up to "
                 f"symmetry), {lv.sequences:,} sequences, {lv.seconds:.1f} s")
        if done:
            return figures_done, sum(targets)
        jumps += 1


def next_level(level, tables: CensusTables, children: int, meta: pd.DataFrame):
    """The next level: a sorted run per partition, cut into key ranges by splitters sampled from
    the runs, each range's pieces merged."""
    runs = level.map_partitions(expand, tables.need, tables.land, tables.flip, tables.symtab, meta=meta).persist()
    keys = np.sort(runs.map_partitions(sample, meta=("pos", np.uint64)).compute().to_numpy(np.uint64))
    parts = max(1, -(-children // (3 * ROWS)))
    cuts = splitters(keys, parts) if len(keys) else np.zeros(0, dtype=np.uint64)
    divisions = sorted({0, *map(int, cuts), (1 << tables.board.size) - 1})
    ranged = runs.set_index("pos", divisions=divisions)
    return ranged.map_partitions(merge, meta=meta).persist()
