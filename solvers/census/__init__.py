"""The census of a jump puzzle's whole game tree: every position reachable by single jumps from a
start, the jump sequences reaching each, the dead ends, the solutions, exactly and up to the
symmetries of the start; by a compiled single-machine engine (:mod:`.engine`), a Dask engine
(:mod:`.distributed`) and a plain breadth-first referee (:mod:`.reference`)."""

from __future__ import annotations

import time
from typing import Iterable

from powertwo.boards import Board, NodeId

from .counts import Census, Level
from .engine import Progress, no_progress, peak_rss, run_levels, solvable_levels
from .reference import plain_levels, up_to_symmetry
from .store import is_solvable, save_solvable, solvable_set
from .tables import CensusError, CensusTables, census_tables, nodes_in, position_of

ENGINES = ("numba", "dask", "plain")


def run_census(board: Board, start: Iterable[NodeId], *, target: NodeId | None = None, engine: str = "numba",
               solvable: bool = False, max_levels: int | None = None, store: str | None = None,
               scheduler: str | None = None, workers: int = 2, progress: Progress = no_progress) -> Census:
    """The census of ``board`` from ``start`` with the named engine. ``solvable`` adds the backward
    pass (numba engine); ``store`` a folder: the numba engine writes the solvable sets there, the
    Dask engine every level as Parquet (a later run resumes from it); ``scheduler`` the address of
    a running Dask scheduler (else a local cluster of ``workers`` workers)."""
    if engine not in ENGINES:
        raise CensusError(f"--engine {engine}: use one of {', '.join(ENGINES)}")
    if solvable and engine != "numba":
        raise CensusError(f"--solvable: the backward pass runs on the numba engine, not {engine}")
    tables = census_tables(board, start, target)
    began = time.perf_counter()
    kept: list = []
    if engine == "plain":
        levels, on_target = plain_levels(tables, max_levels)
    elif engine == "numba":
        levels, kept, on_target = run_levels(tables, progress, keep=solvable, max_levels=max_levels)
    else:
        from .distributed import dask_levels

        levels, on_target = dask_levels(tables, progress, store=store, scheduler=scheduler, workers=workers,
                                        max_levels=max_levels)
    complete = levels[-1].positions == levels[-1].dead_positions
    census = Census(board=board.name, start=[board.label(v) for v in nodes_in(tables.start)],
                    target=None if target is None else board.label(target), group_size=tables.group_size,
                    engine=engine, levels=levels, complete=complete, target_solutions=on_target)
    if solvable:
        progress("backward pass: the positions that can still reach one stone")
        marks = solvable_levels(tables, kept)
        for lv, arrays, mark in zip(levels, kept, marks, strict=True):
            lv.solvable_classes = int(mark.sum())
            lv.solvable_positions = int(arrays.orbits[mark].sum())
        if store is not None:
            save_solvable(store, tables, [a.positions[m] for a, m in zip(kept, marks, strict=True)])
    if complete:
        progress(f"the sequences each of the {tables.group_size - 1} other symmetries keeps (Burnside)")
        census.symmetric = up_to_symmetry(tables, levels, census.solutions)
    census.seconds = time.perf_counter() - began
    census.peak_memory_bytes = peak_rss()
    return census


__all__ = ["Census", "CensusError", "CensusTables", "ENGINES", "Level", "census_tables", "is_solvable",
           "nodes_in", "position_of", "run_census", "solvable_set"]
