"""The census of a jump puzzle's whole game tree: every position reachable from a start, by single
jumps (the jump sequences reaching each, the dead ends, the solutions, exactly and up to the
symmetries of the start) or by moves (the fewest moves to each position, forward from the start or
backward from the target). Engines: compiled in memory (:mod:`.engine`, :mod:`.moves`), compiled
out of core (:mod:`.disk`), on Dask (:mod:`.distributed`), and the plain breadth-first referee
(:mod:`.reference`)."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Iterable

import numba
from numba.core.config import NUMBA_NUM_THREADS  # type: ignore[attr-defined]

from powertwo.boards import Board, NodeId

from .counts import Census, Level, MovesCensus, MovesLevel
from .engine import Plan, peak_rss, run_levels, solvable_levels, up_to_symmetry
from .options import BY, ENGINES, CensusOptions, Progress, no_progress
from .reference import plain_levels, plain_moves_levels, stopped_after
from .reference import up_to_symmetry as plain_up_to_symmetry
from .store import is_solvable, save_moves_table, save_solvable, solvable_set
from ..bitsets import mask_of as position_of, nodes_of as nodes_in
from .tables import CensusError, CensusTables, census_tables, move_tables


def run_census(board: Board, start: Iterable[NodeId], options: CensusOptions | None = None,
               progress: Progress = no_progress) -> Census:
    """The census by jumps of ``board`` from ``start`` as ``options`` ask (see :class:`CensusOptions`;
    by default in memory, without a target)."""
    options = _ready(options or CensusOptions(), "jumps")
    return _by_jumps(board, start, options, progress)


def moves_census(board: Board, start: Iterable[NodeId], options: CensusOptions | None = None,
                 progress: Progress = no_progress) -> MovesCensus:
    """The census by moves of ``board`` from ``start`` (backward from the target when ``options``
    say so)."""
    options = _ready(options or CensusOptions(by="moves"), "moves")
    return _by_moves(board, start, options, progress)


def _ready(options: CensusOptions, by: str) -> CensusOptions:
    if options.by != by:
        raise CensusError(f"--by {options.by}: this is the census by {by}")
    options.check()
    if options.workers is not None and options.engine in ("numba", "disk"):
        numba.set_num_threads(min(options.workers, NUMBA_NUM_THREADS))
    return options


def _by_jumps(board: Board, start: Iterable[NodeId], options: CensusOptions, progress: Progress) -> Census:
    tables = census_tables(board, start, options.target)
    began = time.perf_counter()
    kept: list = []
    stopped = None
    if options.engine == "plain":
        levels, on_target = plain_levels(tables, options.max_levels)
    elif options.engine == "numba":
        run = run_levels(tables, Plan(options.budget), progress, keep=options.solvable, max_levels=options.max_levels)
        levels, kept, on_target, stopped = run.levels, run.kept, run.on_target, run.stopped
    elif options.engine == "disk":
        from .disk import disk_levels

        on_disk = disk_levels(tables, options, progress)
        levels, on_target, stopped = on_disk.levels, on_disk.on_target, on_disk.stopped
    else:
        from .distributed import dask_levels

        levels, on_target = dask_levels(tables, options, progress)
    if stopped is None and options.max_levels is not None and levels[-1].positions != levels[-1].dead_positions:
        stopped = stopped_after(levels[-1].jumps, "jumps")
    complete = levels[-1].positions == levels[-1].dead_positions
    if options.solvable:
        progress("backward pass: the positions that can still reach one stone")
        marks = solvable_levels(tables, kept)
        levels = [replace(lv, solvable_classes=int(mark.sum()), solvable_positions=int(arrays.orbits[mark].sum()))
                  for lv, arrays, mark in zip(levels, kept, marks, strict=True)]
        if options.store is not None:
            save_solvable(options.store, tables, [a.positions[m] for a, m in zip(kept, marks, strict=True)])
    census = Census(board=board.name, start=[board.label(v) for v in nodes_in(tables.start)],
                    target=None if options.target is None else board.label(options.target),
                    group_size=tables.group_size, engine=options.engine, levels=levels, complete=complete,
                    target_solutions=on_target, stopped=stopped)
    if complete:
        progress(f"the sequences each of the {tables.group_size - 1} other symmetries keeps (Burnside)")
        count = plain_up_to_symmetry if options.engine == "plain" else up_to_symmetry
        census = replace(census, symmetric=count(tables, levels, census.solutions))
    return replace(census, seconds=time.perf_counter() - began, peak_memory_bytes=peak_rss())


def moves_census_tables(board: Board, start: Iterable[NodeId], options: CensusOptions) -> CensusTables:
    """The tables of a census by moves: forward those of the start (and target); backward those of
    the target's one stone, or of the whole board (every one-stone position) without a target."""
    if not options.backward:
        return census_tables(board, start, options.target)
    if options.target is None:
        return census_tables(board, board.nodes)
    return census_tables(board, [options.target], options.target)


def _by_moves(board: Board, start: Iterable[NodeId], options: CensusOptions, progress: Progress) -> MovesCensus:
    from .moves import moves_levels, solvable_moves

    tables = moves_census_tables(board, start, options)
    began = time.perf_counter()
    stopped = None
    if options.engine == "plain":
        levels, stopped = plain_moves_levels(tables, options.backward, options.max_levels)
    else:
        run = moves_levels(tables, move_tables(board, options.backward), Plan(options.budget), progress,
                           options.max_levels)
        if not options.backward and (options.target is not None or options.solvable):
            progress("the positions of each level that can still reach one stone")
            run = solvable_moves(tables, run)
        if options.store is not None:
            path = save_moves_table(options.store, tables, run.sets, options.backward, complete=run.stopped is None)
            progress(f"fewest-moves table written: {path}")
        levels, stopped = run.levels, run.stopped
    complete = stopped is None
    start_nodes = nodes_in(tables.start) if not options.backward else [] if options.target is None \
        else [options.target]
    return MovesCensus(board=board.name, start=[board.label(v) for v in start_nodes],
                       target=None if options.target is None else board.label(options.target),
                       backward=options.backward, group_size=tables.group_size, engine=options.engine,
                       levels=levels, complete=complete, stopped=stopped,
                       seconds=time.perf_counter() - began, peak_memory_bytes=peak_rss())


__all__ = ["BY", "ENGINES", "Census", "CensusError", "CensusOptions", "CensusTables", "Level", "MovesCensus",
           "MovesLevel", "census_tables", "is_solvable", "moves_census", "nodes_in", "position_of", "run_census",
           "solvable_set"]
