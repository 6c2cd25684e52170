"""The fewest moves from any position to one stone on a target, from a backward census by moves
(George Bell's B[-k]: the positions that finish in k moves and no fewer) met by a forward census
from the position (its B[k]): a meet in the middle.

A table is stored by ``powertwo census --by moves --backward --store DIR`` (:mod:`.store`), or
shipped with the package for the English central game (:data:`SHIPPED`). Its first ``exact``
levels are complete; later levels may hold only some of their positions (the shipped table keeps,
past its complete levels, the positions the central game reaches). A position found at level k
finishes in k moves at fewest. Otherwise the levels by moves from the position are built one by
one (in memory, on every core); a position of level n found at table level k gives a finish in
n + k moves, and a position of level n not found needs at least n + exact + 1: the search stops
when no level can beat the best found, or when the table is complete (none found: no finish). The
moves are then read back: a parent for each level of the forward half, a child in the level below
for each of the table's half, and the real positions by the symmetries."""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from powertwo.boards import Board, NodeId

from .engine import Plan
from .moves import children_of, leads_to, moves_group
from .options import default_memory
from .reference import plain_moves
from .sortmerge import difference, member_of
from .store import MovesTable, moves_table, read_moves_table, table_name
from ..bitsets import mask_of as position_of
from .tables import CensusError, CensusTables, MoveTables, census_tables, move_tables

SEARCH_LIMIT = 50_000_000
"""Positions the forward half may hold before it gives up (about 400 MiB of keys)."""
SHIPPED = "data"
"""The package folder of the shipped tables (``powertwo.solvers.census.data``)."""


@dataclass(frozen=True)
class FewestMoves:
    """The fewest moves from a position to one stone on the target (None: no finish there), the
    positions of one such finish in order (the start first), the positions the forward half
    built, and how the answer is known (a sentence)."""

    moves: int | None
    positions: tuple[int, ...]
    searched: int
    how: str


def shipped_table(board: Board, target: NodeId | None) -> MovesTable | None:
    """The table shipped with the package for this board and target, if any."""
    tables = census_tables(board, [target] if target is not None else board.nodes, target)
    name = table_name(tables, True)
    found = resources.files(__package__).joinpath(SHIPPED).joinpath(name)
    if not found.is_file():
        return None
    with resources.as_file(found) as path:
        return read_moves_table(tables, str(path), Path(path).stat().st_mtime_ns)


def find_table(board: Board, target: NodeId | None, store: str | Path | None = None) -> MovesTable:
    """The stored table (else the shipped one) of ``board`` and ``target``; a :class:`CensusError`
    saying how to make one when there is none."""
    table = moves_table(board, target, store) or shipped_table(board, target)
    if table is None:
        where = "any node" if target is None else board.label(target)
        flag = "" if target is None else f" --target {board.label(target)}"
        raise CensusError(f"no fewest-moves table of board {board.name} to one stone on {where} is stored; "
                          f"'powertwo census --board {board.name} --by moves --backward{flag}' makes one")
    return table


def fewest_moves(board: Board, position: Iterable[NodeId], target: NodeId | None = None,
                 store: str | Path | None = None, limit: int = SEARCH_LIMIT) -> FewestMoves:
    """The fewest moves from ``position`` to one stone on ``target`` (any node when None), from the
    stored table met by a forward search (see the module docstring)."""
    table = find_table(board, target, store)
    tables = table.tables
    moves = move_tables(board)
    start = tables.canonical(position_of(position))
    found = table.level_of(start)
    if found is not None:
        chain = [start, *descend(table, moves, start, found)]
        return FewestMoves(found, real_path(board, tables, position_of(position), chain), 1,
                           f"census: the fewest-moves table holds the position at {found} moves from the end")
    if table.complete:
        return FewestMoves(None, (), 1, "census: the complete fewest-moves table does not hold the position: "
                                        "no finish on the target")
    return meet(board, table, moves, position_of(position), limit)


def meet(board: Board, table: MovesTable, moves: MoveTables, position: int, limit: int) -> FewestMoves:
    """The forward half: levels by moves from ``position`` until no level can beat the best finish."""
    tables = table.tables
    plan = Plan(default_memory())
    front = [np.array([tables.canonical(position)], dtype=np.uint64)]
    best: tuple[int, int, int] | None = None  # (moves, forward level, the meeting position)
    searched = 1
    while best is None or best[0] > len(front) - 1 + table.exact:
        nxt = difference(children_of(front[-1], moves, tables.symtab, plan), front)
        if len(nxt) == 0:
            break
        front.append(nxt)
        searched += len(nxt)
        if searched > limit:
            raise CensusError(f"the meet in the middle passed {limit:,} positions before the table answered")
        n = len(front) - 1
        for k, level in enumerate(table.levels):
            if best is not None and n + k >= best[0]:
                break
            hits = member_of(nxt, level)
            if hits.any():
                best = (n + k, n, int(nxt[np.flatnonzero(hits)[0]]))
    if best is None:
        return FewestMoves(None, (), searched, f"census: no position of the {len(front) - 1} levels by moves from "
                                               "here is in the fewest-moves table: no finish on the target")
    total, n, meeting = best
    chain = [meeting]
    for i in range(n - 1, -1, -1):
        parents = front[i]
        chain.append(int(parents[np.flatnonzero(leads_to(parents, moves_group(moves), tables.symtab,
                                                         np.uint64(chain[-1])))[0]]))
    chain.reverse()
    chain += descend(table, moves, meeting, total - n)
    how = (f"census: meet in the middle, {n} levels by moves from here meet the fewest-moves table "
             f"({table.exact} complete levels) at {total - n} moves from the end")
    return FewestMoves(total, real_path(board, tables, position, chain), searched, how)


def descend(table: MovesTable, moves: MoveTables, position: int, level: int) -> list[int]:
    """From a canonical position of table level ``level``, a child in each level below, to the end."""
    out = []
    plan = Plan(default_memory())
    for k in range(level - 1, -1, -1):
        children = children_of(np.array([position], dtype=np.uint64), moves, table.tables.symtab, plan)
        position = int(children[np.flatnonzero(member_of(children, table.levels[k]))[0]])
        out.append(position)
    return out


def real_path(board: Board, tables: CensusTables, position: int, chain: list[int]) -> tuple[int, ...]:
    """The positions of ``chain`` (canonical) as the real positions played from ``position``."""
    out = [position]
    for want in chain[1:]:
        out.append(next(q for q in sorted(plain_moves(board, out[-1])) if tables.canonical(q) == want))
    return tuple(out)


def shipped(back: MovesTable, forward: list[np.ndarray], exact: int) -> MovesTable:
    """The table to ship: the first ``exact`` levels of the backward table whole, and of the later
    levels the positions that the forward census from a start reaches (``forward``: its levels)."""
    reached = np.sort(np.concatenate(forward))
    levels = tuple(level if k < exact else level[member_of(level, reached)] for k, level in enumerate(back.levels))
    return MovesTable(back.tables, levels, min(exact, len(levels)), len(levels) <= exact and back.complete)


def save_shipped(table: MovesTable, folder: Path) -> Path:
    """``table`` written into the package's data folder, each level as gaps between its sorted
    positions (compressed; see ``make census-moves``)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / table_name(table.tables, True)
    meta = {"board": table.tables.board.fingerprint, "backward": True, "start": f"{table.tables.start:x}",
            "target": table.tables.target, "complete": table.complete, "exact": table.exact,
            "group_size": table.tables.group_size, "delta": True}
    arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta))}
    arrays.update({f"level_{k:03d}": np.diff(level, prepend=np.uint64(0)) for k, level in enumerate(table.levels)})
    with zipfile.ZipFile(path, "w") as archive:  # as numpy.savez_compressed, with fixed dates: the same bytes
        for name, array in arrays.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asanyarray(array), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, buffer.getvalue())
    return path


def fewest_left(board: Board, position: Iterable[NodeId], target: NodeId | None,
                store: str | Path | None = None) -> int | None:
    """The fewest moves from ``position`` to one stone on ``target`` when a stored or shipped table
    holds the position (a look-up, no search: for a hint); None otherwise."""
    try:
        table = moves_table(board, target, store) or shipped_table(board, target)
    except CensusError:
        return None
    return None if table is None else table.level_of(table.tables.canonical(position_of(position)))
