"""That's My Line's exact endgame, compiled: the same search as the plain one in
:mod:`.evaluations.thats_my_line` (which stays its referee in the tests), on uint64 masks in numba.

A position is the nodes each side may still place on (two masks), the stones each has placed,
whose turn and who placed last. The search is depth first over an explicit stack of frames, so it
can stop after a number of new positions and go on where it stopped (:class:`EndgameSearch` runs it
in slices and asks its caller between two slices whether to go on). Every decided position goes
into a table of :data:`TABLE_BITS` bits of address, one position a slot, the newer one kept on a
collision: the table only saves work, a position it has forgotten is searched again.

Inside a frame the mover's nodes come in the order of the plain search (those closing the most of
the opponent's open nodes first, ties by node), and a pass is the only move of a mover who cannot
place while the opponent can. A position is decided without a search when a side can no longer
reach the other's stones placed (one more per open node, within the supply) or nobody can place.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

TABLE_BITS = 22
"""Slots in the table of decided positions: 2**22 (about 90 MB)."""
MAX_DEPTH = 160
"""Frames on the stack: more than any game's placements and passes (two sides of at most 64 nodes)."""
SLICE = 1 << 16
"""New positions a slice of the search may visit before the caller is asked whether to go on."""
PASS = 64
"""The move code of a pass (nodes are 0..63)."""
UNKNOWN, LOST, WON = -1, 0, 1

_M1, _M2, _M4 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333), np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit(inline="always")
def _count(x: np.uint64) -> int:
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return int((x * _H01) >> np.uint64(56))


@njit(inline="always")
def _can_place(open_: np.uint64, placed: int, supply: int) -> bool:
    return open_ != np.uint64(0) and (supply < 0 or placed < supply)


@njit(inline="always")
def _most(open_: np.uint64, placed: int, supply: int) -> int:
    most = placed + _count(open_)
    return most if supply < 0 else min(most, supply)


@njit(inline="always")
def _settled(own: np.uint64, other: np.uint64, mine: int, theirs: int, mover: int, last: int,
             supply: int) -> int:
    """WON or LOST for the mover when the position is decided without a search, else UNKNOWN."""
    if _most(own, mine, supply) < theirs:
        return LOST
    if _most(other, theirs, supply) < mine:
        return WON
    if not _can_place(own, mine, supply) and not _can_place(other, theirs, supply):
        return WON if mine > theirs or (mine == theirs and last == mover) else LOST
    return UNKNOWN


@njit(inline="always")
def _slot(own: np.uint64, other: np.uint64, meta: int, mask: int) -> int:
    """The slot of a position: its key mixed by the finaliser of MurmurHash3 (every bit moves every bit)."""
    h = own ^ (other * np.uint64(0x9E3779B97F4A7C15)) ^ np.uint64(meta)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xC4CEB9FE1A85EC53)
    h ^= h >> np.uint64(33)
    return int(h & np.uint64(mask))


@njit(inline="always")
def _meta(mine: int, theirs: int, mover: int, last: int) -> int:
    """The small part of a position's key, never 0 (0 marks an empty slot)."""
    return 1 + mine + 128 * theirs + 16384 * mover + 32768 * (last + 1)


@njit(inline="always")
def _look_up(keys: np.ndarray, metas: np.ndarray, values: np.ndarray, own: np.uint64, other: np.uint64,
             meta: int) -> int:
    s = _slot(own, other, meta, keys.shape[0] - 1)
    if metas[s] == meta and keys[s, 0] == own and keys[s, 1] == other:
        return int(values[s])
    return UNKNOWN


@njit(inline="always")
def _store(keys: np.ndarray, metas: np.ndarray, values: np.ndarray, own: np.uint64, other: np.uint64,
           meta: int, value: int) -> None:
    s = _slot(own, other, meta, keys.shape[0] - 1)
    keys[s, 0], keys[s, 1], metas[s], values[s] = own, other, meta, value


@njit(inline="always")
def _open_frame(d: int, frames: np.ndarray, moves: np.ndarray, counts: np.ndarray, mates: np.ndarray,
                supply: int) -> None:
    """List frame ``d``'s moves: the mover's nodes by the plain search's order, or one pass."""
    own, other = np.uint64(frames[d, 0]), np.uint64(frames[d, 1])
    n = 0
    if _can_place(own, int(frames[d, 2]), supply):
        for v in range(64):  # keys (64 - closed) * 128 + v, sorted in place by insertion
            if (own >> np.uint64(v)) & np.uint64(1):
                key, j = (64 - _count(other & mates[v])) * 128 + v, n
                while j > 0 and moves[d, j - 1] > key:
                    moves[d, j] = moves[d, j - 1]
                    j -= 1
                moves[d, j] = key
                n += 1
        for i in range(n):
            moves[d, i] &= 127
    else:
        moves[d, 0] = PASS
        n = 1
    counts[d, 0], counts[d, 1] = n, 0


@njit(inline="always")
def _child(d: int, move: int, frames: np.ndarray, mates: np.ndarray) -> None:
    """Frame ``d + 1``: frame ``d`` after ``move``, seen from the next mover."""
    own, other = np.uint64(frames[d, 0]), np.uint64(frames[d, 1])
    mine, theirs, mover, last = frames[d, 2], frames[d, 3], frames[d, 4], frames[d, 5]
    if move != PASS:
        own, other, mine, last = own & ~(np.uint64(1) << np.uint64(move)), other & ~mates[move], mine + 1, mover
    frames[d + 1, 0], frames[d + 1, 1] = np.int64(other), np.int64(own)
    frames[d + 1, 2], frames[d + 1, 3], frames[d + 1, 4], frames[d + 1, 5] = theirs, mine, 1 - mover, last


@njit(cache=True)
def run_slice(frames: np.ndarray, moves: np.ndarray, counts: np.ndarray, control: np.ndarray,
              keys: np.ndarray, metas: np.ndarray, values: np.ndarray, mates: np.ndarray, supply: int,
              budget: int) -> int:
    """Search on from the stack as left (``control``: depth, result, winning root move, positions
    visited) until the root is decided (WON or LOST for its mover) or ``budget`` new positions were
    visited (UNKNOWN; call again to go on)."""
    d, visited = int(control[0]), 0
    while True:
        i = counts[d, 1]
        result = UNKNOWN
        if i == counts[d, 0]:
            result = LOST  # no move of the mover wins
        else:
            move = moves[d, i]
            _child(d, move, frames, mates)
            own, other = np.uint64(frames[d + 1, 0]), np.uint64(frames[d + 1, 1])
            mine, theirs, mover, last = frames[d + 1, 2], frames[d + 1, 3], frames[d + 1, 4], frames[d + 1, 5]
            meta = _meta(mine, theirs, mover, last)
            known = _settled(own, other, mine, theirs, mover, last, supply)
            if known == UNKNOWN:
                known = _look_up(keys, metas, values, own, other, meta)
            if known == UNKNOWN:
                if visited >= budget:
                    control[0], control[3] = d, control[3] + visited
                    return UNKNOWN
                visited += 1
                d += 1
                _open_frame(d, frames, moves, counts, mates, supply)
                continue
            counts[d, 1] = i + 1
            if known == LOST:
                result = WON
                if d == 0:
                    control[2] = move
        # frame d is decided (or goes on to its next move)
        while result != UNKNOWN:
            f = frames[d]
            _store(keys, metas, values, np.uint64(f[0]), np.uint64(f[1]), _meta(f[2], f[3], f[4], f[5]), result)
            if d == 0:
                control[0], control[1], control[3] = 0, result, control[3] + visited
                return result
            d -= 1
            counts[d, 1] += 1
            if result == LOST:
                result = WON
                if d == 0:
                    control[2] = moves[0, counts[0, 1] - 1]
            else:
                result = UNKNOWN


@njit(cache=True)
def open_root(frames: np.ndarray, moves: np.ndarray, counts: np.ndarray, mates: np.ndarray, supply: int) -> None:
    """List the root frame's moves (:func:`_open_frame` called from Python, compiled once into the cache)."""
    _open_frame(0, frames, moves, counts, mates, supply)


class EndgameSearch:
    """Who wins a That's My Line position with best play, and a winning move, by the compiled search.
    ``mates[v]`` is the mask of the nodes sharing a line with node ``v`` (``v`` included), nodes
    0..63; ``supply`` the stones a side (``None``: unlimited). The table is kept from one call to the
    next (the same game and supply)."""

    def __init__(self, mates: list[int], supply: int | None, table_bits: int = TABLE_BITS):
        self.mates = np.array([np.uint64(m) for m in mates], dtype=np.uint64)
        self.supply = -1 if supply is None else supply
        size = 1 << table_bits
        self.keys = np.zeros((size, 2), np.uint64)
        self.metas = np.zeros(size, np.int32)
        self.values = np.zeros(size, np.int8)
        self.visited = 0
        """Positions the last :meth:`solve` visited (those the table already held not counted)."""

    def solve(self, open_: tuple[int, int], placed: tuple[int, int], mover: int, last: int | None,
              stop: Callable[[int], bool]) -> tuple[bool, int | None] | None:
        """``(mover wins, a winning move)`` (a node, :data:`PASS`, or ``None`` when the mover loses),
        or ``None`` when ``stop(positions visited)`` ends the search first (asked between slices) or
        the game is over. A position decided by its counts is searched one move deep for the move."""
        self.visited = 0
        frames = np.zeros((MAX_DEPTH, 6), np.int64)
        me = mover
        frames[0] = (np.int64(np.uint64(open_[me])), np.int64(np.uint64(open_[1 - me])), placed[me],
                     placed[1 - me], me, -1 if last is None else last)
        if not any(open_[p] and (self.supply < 0 or placed[p] < self.supply) for p in (0, 1)):
            return None  # the game is over: nobody can place
        moves = np.zeros((MAX_DEPTH, 65), np.int64)
        counts = np.zeros((MAX_DEPTH, 2), np.int64)
        control = np.array([0, UNKNOWN, -1, 0], np.int64)
        open_root(frames, moves, counts, self.mates, self.supply)
        while True:
            result = run_slice(frames, moves, counts, control, self.keys, self.metas, self.values,
                               self.mates, self.supply, SLICE)
            self.visited = int(control[3])
            if result != UNKNOWN:
                return (True, int(control[2])) if result == WON else (False, None)
            if stop(int(control[3])):
                return None


__all__ = ["EndgameSearch", "PASS", "run_slice"]
