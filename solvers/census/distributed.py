"""The Dask engine: each level a partitioned frame of (canonical position, residues of its orbit
total); the children of a partition by the compiled kernel in ``map_partitions`` (combined within
the partition), merged across partitions by a hash shuffle on the position, summed modulo the
primes. Runs on ``dask.distributed`` (a ``LocalCluster`` unless a scheduler address is given),
whose workers spill to disk under their memory limits; with a store folder every level is written
as Parquet with the figures so far, and a later run resumes from the last level written."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd  # type: ignore[import-untyped]

from ..cluster import connect
from . import kernel
from .counts import PRIME_ARRAY, PRIMES, Level, crt
from .engine import Progress, no_progress
from .tables import CensusError, CensusTables

COLUMNS = [f"c{r}" for r in range(len(PRIMES))]
ROWS = 1 << 20
"""Rows per partition the engine aims at."""
STATE = "census.json"


def frame(positions: np.ndarray, counts: np.ndarray) -> pd.DataFrame:
    data: dict[str, Any] = {"pos": positions.astype(np.uint64)}
    for r, name in enumerate(COLUMNS):
        data[name] = counts[:, r].astype(np.uint32)
    return pd.DataFrame(data)


def _counts(df: pd.DataFrame) -> np.ndarray:
    return np.ascontiguousarray(np.stack([df[c].to_numpy(np.uint32) for c in COLUMNS], axis=1))


def expand(df: pd.DataFrame, need, land, flip, symtab) -> pd.DataFrame:
    """The children of one partition (canonical), each once with its parents' summed counts."""
    parents = np.ascontiguousarray(df["pos"].to_numpy(np.uint64))
    successors = kernel.count_successors_one(parents, need, land)
    offsets = np.zeros(len(parents) + 1, dtype=np.int64)
    np.cumsum(successors, out=offsets[1:])
    keys = np.empty(int(offsets[-1]), dtype=np.uint64)
    owner = np.empty(int(offsets[-1]), dtype=np.int64)
    kernel.fill_children_one(parents, offsets, 0, need, land, flip, symtab, keys, owner)
    k, c = kernel.combine_sorted(keys, owner, _counts(df), PRIME_ARRAY)
    return frame(k, c)


def merge(df: pd.DataFrame) -> pd.DataFrame:
    """One partition after the shuffle: equal positions summed modulo the primes."""
    wide = df.astype({c: np.uint64 for c in COLUMNS}).groupby("pos", sort=True).sum()
    for c, p in zip(COLUMNS, PRIMES, strict=True):
        wide[c] = (wide[c] % np.uint64(p)).astype(np.uint32)
    return wide.reset_index()


def figures(df: pd.DataFrame, need, land, group_size, symtab, goal) -> pd.DataFrame:
    """One partition's share of its level's figures (one row)."""
    pos = np.ascontiguousarray(df["pos"].to_numpy(np.uint64))
    counts = _counts(df).astype(np.uint64)
    successors = kernel.count_successors_one(pos, need, land)
    orbits = kernel.orbits_one(pos, group_size, symtab)
    dead = successors == 0
    row: dict[str, Any] = {"classes": [len(pos)], "positions": [int(orbits.sum())], "children": [int(successors.sum())],
                           "dead_classes": [int(dead.sum())], "dead_positions": [int(orbits[dead].sum())]}
    for r, p in enumerate(PRIMES):
        row[f"s{r}"] = [int(counts[:, r].sum() % np.uint64(p))]
        row[f"d{r}"] = [int(counts[dead, r].sum() % np.uint64(p))]
        row[f"t{r}"] = [int(counts[pos == goal, r].sum())]
    return pd.DataFrame(row)


def _level(rows: pd.DataFrame, jumps: int, stones: int) -> tuple[Level, int, int]:
    def total(prefix: str) -> int:
        return crt([int(rows[f"{prefix}{r}"].sum()) % p for r, p in enumerate(PRIMES)])

    lv = Level(jumps=jumps, stones=stones, classes=int(rows["classes"].sum()), positions=int(rows["positions"].sum()),
               sequences=total("s"), dead_classes=int(rows["dead_classes"].sum()),
               dead_positions=int(rows["dead_positions"].sum()), dead_sequences=total("d"))
    return lv, int(rows["children"].sum()), total("t")


def _resume(store: Path | None, tables: CensusTables) -> dict:
    """The figures of the levels a previous run stored for the same census, or a fresh state."""
    key = {"board": tables.board.fingerprint, "start": tables.start, "target": tables.target}
    state: dict = {"census": key, "levels": [], "targets": []}
    path = None if store is None else store / STATE
    if path is not None and path.is_file():
        old = json.loads(path.read_text(encoding="utf-8"))
        if old.get("census") != key:
            raise CensusError(f"{store}: holds the levels of another census (board, start or target differ)")
        state = old
    return state


def dask_levels(tables: CensusTables, progress: Progress = no_progress, *, store: str | None = None,
                scheduler: str | None = None, workers: int = 2, max_levels: int | None = None,
                processes: bool = True) -> tuple[list[Level], int]:
    """Every level on a Dask cluster; the figures equal the single-machine engine's."""
    import dask.dataframe as dd

    folder = None if store is None else Path(store)
    state = _resume(folder, tables)
    jumps = max(0, len(state["levels"]) - 1)  # the last level stored is counted again: it may be unexpanded
    del state["levels"][jumps:]
    del state["targets"][jumps:]
    client, cluster = connect(scheduler, workers, processes)
    try:
        if jumps:
            level = dd.read_parquet(folder / f"level-{jumps:02d}")  # type: ignore[operator]
        else:
            level = dd.from_pandas(frame(np.array([tables.start], dtype=np.uint64),
                                         np.ones((1, len(PRIMES)), dtype=np.uint32)), npartitions=1)
            if folder is not None:
                level.to_parquet(folder / "level-00", write_index=False, overwrite=True)
        goal = np.uint64(0 if tables.target is None else 1 << (tables.target - 1))
        meta = frame(np.zeros(0, dtype=np.uint64), np.zeros((0, len(PRIMES)), dtype=np.uint32))
        stones = bin(tables.start).count("1")
        while True:
            began = time.perf_counter()
            rows = level.map_partitions(figures, tables.need, tables.land, tables.group_size, tables.symtab,
                                        goal).compute()
            lv, children, on_target = _level(rows, jumps, stones - jumps)
            done = children == 0 or (max_levels is not None and jumps >= max_levels)
            if not done:
                parts = max(1, -(-children // (3 * ROWS)))
                nxt = level.map_partitions(expand, tables.need, tables.land, tables.flip, tables.symtab, meta=meta)
                nxt = nxt.shuffle(on="pos", npartitions=parts).map_partitions(merge, meta=meta)
                if folder is not None:
                    nxt.to_parquet(folder / f"level-{jumps + 1:02d}", write_index=False, overwrite=True)
                    nxt = dd.read_parquet(folder / f"level-{jumps + 1:02d}")
                else:
                    nxt = nxt.persist()
            lv.seconds = time.perf_counter() - began
            state["levels"].append(lv.__dict__)
            state["targets"].append(on_target)
            if folder is not None:
                (folder / STATE).write_text(json.dumps(state), encoding="utf-8")
            progress(f"dask level {jumps} ({lv.stones} stones): {lv.positions:,} positions ({lv.classes:,} up to "
                     f"symmetry), {lv.sequences:,} sequences, {lv.seconds:.1f} s")
            if done:
                break
            level = nxt
            jumps += 1
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return [Level(**lv) for lv in state["levels"]], sum(state["targets"])
