"""The stored sets and tables: after ``powertwo census --solvable --store DIR`` the positions (up to
the start's symmetries) from which one stone (on the target) can still be reached, so that a hint
or a solver can ask in microseconds whether a position is still solvable; after ``powertwo census
--by moves --store DIR`` the levels by moves (forward from a start, or backward from a target): a
fewest-moves table (:mod:`.fewest` answers from it)."""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from powertwo.boards import Board, NodeId
from powertwo.boards.outfile import atomic_path

from ..bitsets import mask_of as position_of
from .tables import CensusError, CensusTables, census_tables

STORE_ENV = "POWERTWO_CENSUS"
"""The folder of stored sets when none is given (default ``~/.cache/powertwo/census``)."""


def default_store() -> Path:
    return Path(os.environ.get(STORE_ENV) or Path.home() / ".cache" / "powertwo" / "census")


def set_name(tables: CensusTables) -> str:
    target = "any" if tables.target is None else str(tables.target)
    return f"solvable-{tables.board.fingerprint}-{tables.start:x}-{target}.npy"


def save_solvable(store: str | Path, tables: CensusTables, levels: list[np.ndarray]) -> Path:
    folder = Path(store)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / set_name(tables)
    every = np.sort(np.concatenate(levels)) if levels else np.zeros(0, dtype=np.uint64)
    with atomic_path(path) as tmp:  # a set cut short by Ctrl-C is never stored
        np.save(tmp, every)
    return path


@dataclass(frozen=True)
class SolvableSet:
    """The solvable positions reachable from one start, up to the start's symmetries."""

    tables: CensusTables
    positions: np.ndarray

    def __len__(self) -> int:
        return len(self.positions)

    def __contains__(self, nodes: Iterable[NodeId]) -> bool:
        key = np.uint64(self.tables.canonical(position_of(nodes)))
        at = int(np.searchsorted(self.positions, key))
        return at < len(self.positions) and self.positions[at] == key


def solvable_set(board: Board, start: Iterable[NodeId], target: NodeId | None = None,
                 store: str | Path | None = None) -> SolvableSet | None:
    """The stored solvable set of this board, start and target, or None when none was stored (the
    tables and the set are kept in memory while the file stays the same)."""
    tables = _tables(board, tuple(sorted(set(start))), target)
    path = Path(store or default_store()) / set_name(tables)
    if not path.is_file():
        return None
    return SolvableSet(tables, _positions(str(path), path.stat().st_mtime_ns))


@functools.lru_cache(maxsize=16)
def _tables(board: Board, start: tuple[NodeId, ...], target: NodeId | None) -> CensusTables:
    return census_tables(board, start, target)


@functools.lru_cache(maxsize=4)
def _positions(path: str, stamp: int) -> np.ndarray:
    """The set stored at ``path``, read again only when its modification time ``stamp`` changes (a
    key of the cache, not read)."""
    positions = np.load(path, allow_pickle=False)
    positions.flags.writeable = False
    return positions


def is_solvable(board: Board, start: Iterable[NodeId], position: Iterable[NodeId], target: NodeId | None = None,
                store: str | Path | None = None) -> bool | None:
    """Whether one stone (on ``target``) can still be reached from ``position``, a position
    reachable from ``start``; None when no set is stored. A position not reachable from the start
    is not in the set (False)."""
    found = solvable_set(board, start, target, store)
    return None if found is None else position in found


def table_name(tables: CensusTables, backward: bool) -> str:
    """Backward tables depend on the board and the target only; forward ones on the start."""
    if backward:
        return f"moves-back-{tables.board.fingerprint}-{'any' if tables.target is None else tables.target}.npz"
    return f"moves-fwd-{tables.board.fingerprint}-{tables.start:x}.npz"


def save_moves_table(store: str | Path, tables: CensusTables, levels: list[np.ndarray], backward: bool,
                     complete: bool) -> Path:
    """The levels by moves (sorted canonical positions each) as one ``.npz`` file; ``complete``
    when every level is there (a position in none of them is then never reached)."""
    folder = Path(store)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / table_name(tables, backward)
    meta = {"board": tables.board.fingerprint, "backward": backward, "start": f"{tables.start:x}",
            "target": tables.target, "complete": complete, "exact": len(levels), "group_size": tables.group_size}
    arrays: dict[str, Any] = {f"level_{k:03d}": level for k, level in enumerate(levels)}
    np.savez(path, meta=np.array(json.dumps(meta)), **arrays)
    return path


@dataclass(frozen=True)
class MovesTable:
    """A stored fewest-moves table: ``levels[k]`` the sorted canonical positions (under
    ``tables``' group) of level ``k``, complete for ``k < exact``; ``complete`` when every position
    of every level is there. A position of level ``k`` finishes in ``k`` moves at fewest."""

    tables: CensusTables
    levels: tuple[np.ndarray, ...]
    exact: int
    complete: bool

    def level_of(self, position: int) -> int | None:
        """The level holding ``position`` (canonical), None when none does."""
        key = np.uint64(position)
        for k, level in enumerate(self.levels):
            at = int(np.searchsorted(level, key))
            if at < len(level) and level[at] == key:
                return k
        return None


def moves_table(board: Board, target: NodeId | None, store: str | Path | None = None) -> MovesTable | None:
    """The stored backward table of ``board`` to one stone on ``target`` (on any node when None),
    or None when none is stored."""
    tables = _tables(board, (target,) if target is not None else tuple(board.nodes), target)
    path = Path(store or default_store()) / table_name(tables, True)
    if not path.is_file():
        return None
    return read_moves_table(tables, str(path), path.stat().st_mtime_ns)


def read_moves_table(tables: CensusTables, path: str, stamp: int) -> MovesTable:
    """The table in ``path`` (kept in memory while the file stays the same)."""
    levels, meta = _table_arrays(path, stamp)
    if meta.get("board") != tables.board.fingerprint or meta.get("target") != tables.target:
        raise CensusError(f"{path}: a fewest-moves table of another board or target")
    return MovesTable(tables, levels, int(meta.get("exact", len(levels))), bool(meta["complete"]))


@functools.lru_cache(maxsize=4)
def _table_arrays(path: str, stamp: int) -> tuple[tuple[np.ndarray, ...], dict]:
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        levels = tuple(data[k] for k in sorted(k for k in data.files if k.startswith("level_")))
    if meta.get("delta"):  # stored as gaps (the shipped tables: they compress to a third)
        levels = tuple(np.cumsum(level, dtype=np.uint64) for level in levels)
    for level in levels:
        level.flags.writeable = False
    return levels, meta


def stored_levels(path: str | Path) -> tuple[np.ndarray, ...]:
    """The levels of a stored table file, as sorted positions."""
    path = Path(path)
    return _table_arrays(str(path), path.stat().st_mtime_ns)[0]
