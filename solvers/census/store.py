"""The stored solvable sets: after ``powertwo census --solvable --store DIR`` the positions (up to
the start's symmetries) from which one stone (on the target) can still be reached, so that a hint
or a solver can ask in microseconds whether a position is still solvable."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from powertwo.boards import Board, NodeId
from powertwo.boards.outfile import atomic_path

from .tables import CensusTables, census_tables, position_of

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
