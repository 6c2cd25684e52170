"""The census's view of a board: jumps as 64-bit masks, the symmetries that keep the start (and
the target) in place as byte lookup tables, and positions as bit sets (node ``v`` is bit ``v - 1``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from powertwo.boards import Board, NodeId, load
from ..bitsets import mask_of as position_of
from ..bitsets import nodes_of as nodes_in

Position = int
"""A position as a bit set: bit ``v - 1`` set when node ``v`` holds a stone."""
MAX_NODES = 64


class CensusError(ValueError):
    """A census input that cannot be counted (board too large, empty start, unknown node)."""


def image(perm: Sequence[NodeId], position: Position) -> Position:
    return position_of(perm[v - 1] for v in nodes_in(position))


@dataclass(frozen=True)
class CensusTables:
    """Everything the engines need, as plain arrays: ``need[j]`` the from and over bits of jump
    ``j``, ``land[j]`` its landing bit, ``flip[j]`` all three; ``symtab[s, k, b]`` the image of byte
    ``b`` of chunk ``k`` under the ``s``-th non-identity symmetry of ``group``."""

    board: Board
    start: Position
    target: NodeId | None
    group: tuple[tuple[NodeId, ...], ...]
    need: np.ndarray
    land: np.ndarray
    flip: np.ndarray
    symtab: np.ndarray

    @property
    def group_size(self) -> int:
        return len(self.group)

    def successors(self, position: Position) -> list[Position]:
        """Every position one jump away (plain Python, for the reference and the symmetry counts)."""
        out = []
        for need, land, flip in zip(self.need.tolist(), self.land.tolist(), self.flip.tolist(), strict=True):
            if position & need == need and not position & land:
                out.append(position ^ flip)
        return out

    def canonical(self, position: Position) -> Position:
        return min(image(p, position) for p in self.group)

    def orbit_size(self, position: Position) -> int:
        return len({image(p, position) for p in self.group})


@dataclass(frozen=True)
class MoveTables:
    """The jumps of a board by the node the moving stone stands on, for a census by moves (a move:
    one stone's chain of jumps): jump ``j`` of node ``x`` (``starts[x] <= j < starts[x + 1]``, node
    ids from 0) needs the nodes of ``occupied[j]`` full and those of ``free[j]`` empty, flips
    ``flip[j]`` and leaves the stone on node ``to[j]``. Forward, a stone on ``a`` jumps over ``b`` onto
    ``c``; backward (the same jump undone), a stone on ``c`` goes back to ``a`` and ``b`` is filled."""

    starts: np.ndarray
    occupied: np.ndarray
    free: np.ndarray
    flip: np.ndarray
    to: np.ndarray
    backward: bool


def move_tables(board: Board, backward: bool = False) -> MoveTables:
    check_size(board)
    rows: list[tuple[int, int, int, int, int]] = []
    for a, b, c in board.jumps:
        flip = (1 << (a - 1)) | (1 << (b - 1)) | (1 << (c - 1))
        if backward:
            rows.append((c - 1, 0, (1 << (a - 1)) | (1 << (b - 1)), flip, a - 1))
        else:
            rows.append((a - 1, 1 << (b - 1), 1 << (c - 1), flip, c - 1))
    rows.sort()
    starts = np.searchsorted(np.array([r[0] for r in rows], dtype=np.int64), np.arange(board.size + 1))
    return MoveTables(starts=starts.astype(np.int64), occupied=np.array([r[1] for r in rows], dtype=np.uint64),
                      free=np.array([r[2] for r in rows], dtype=np.uint64),
                      flip=np.array([r[3] for r in rows], dtype=np.uint64),
                      to=np.array([r[4] for r in rows], dtype=np.int64), backward=backward)


def check_size(board: Board) -> None:
    if board.size > MAX_NODES:
        raise CensusError(f"board {board.name}: {board.size} nodes; the census packs a position into "
                          f"{MAX_NODES} bits")


def census_tables(board: Board, start: Iterable[NodeId], target: NodeId | None = None) -> CensusTables:
    """The tables for a census of ``board`` from ``start``; the symmetry group is the board's
    symmetries that map the start onto itself (and fix ``target`` when one is given), so that
    symmetric positions have equal counts."""
    check_size(board)
    nodes = sorted(set(start))
    if not nodes:
        raise CensusError("start position: no stones")
    pos = position_of(nodes)
    group = tuple(p for p in board.symmetries if image(p, pos) == pos and (target is None or p[target - 1] == target))
    triples = board.jumps
    need = np.array([(1 << (a - 1)) | (1 << (b - 1)) for a, b, _ in triples], dtype=np.uint64)
    land = np.array([1 << (c - 1) for _, _, c in triples], dtype=np.uint64)
    return CensusTables(board=board, start=pos, target=target, group=group, need=need, land=land,
                        flip=need | land, symtab=byte_tables(board.size, group[1:]))


def byte_tables(size: int, perms: Sequence[Sequence[NodeId]]) -> np.ndarray:
    """``out[s, k, b]``: the image under ``perms[s]`` of byte ``b`` put in chunk ``k`` of a position
    (the OR of the images of its bits)."""
    chunks = (size + 7) // 8
    bits = (np.arange(256, dtype=np.uint64)[:, None] >> np.arange(8, dtype=np.uint64)) & np.uint64(1)
    out = np.zeros((len(perms), chunks, 256), dtype=np.uint64)
    for s, perm in enumerate(perms):
        moved = [1 << (perm[v] - 1) if v < size else 0 for v in range(chunks * 8)]
        for k in range(chunks):
            out[s, k] = np.bitwise_or.reduce(bits * np.array(moved[8 * k:8 * k + 8], dtype=np.uint64), axis=1)
    return out


ENGLISH = ("english", "english-33")
"""Board names the census reads as the English 33-hole peg solitaire board (the shipped ``english``)."""


def census_board(name: str) -> Board:
    """A shipped board or board file by ``name``; ``english-33`` is the shipped English board."""
    return english_board() if name in ENGLISH else load(name)


def english_board() -> Board:
    """The English 33-hole board, shipped as ``english`` (labels a3..g5, d4 the centre)."""
    return load("english")


def centre_node(board: Board) -> NodeId:
    """The node at the board's centre (the English central game's first hole and last stone)."""
    from fractions import Fraction

    coords = [board.coord(v) for v in board.nodes]
    centre = tuple(sum((p[i] for p in coords), Fraction(0)) / len(coords) for i in (0, 1))
    found = [v for v in board.nodes if board.coord(v) == centre]
    if not found:
        raise CensusError(f"board {board.name}: no node at its centre")
    return found[0]


def default_start(board: Board) -> list[NodeId] | None:
    """The board's ``central`` start (the English central game: every node but the centre), the
    start a census takes when none is given; None on a board without one (the command line then
    takes the Get a Jump On reverse puzzle's default position: the census imports no puzzle)."""
    check_size(board)
    if "central" not in board.start_names:
        return None
    return sorted(v for side in board.start("central").values() for v in side)
