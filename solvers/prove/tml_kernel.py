"""That's My Line's compiled proof search: a depth-first AND/OR search on uint64 masks in numba
(the search of :mod:`..players.endgame_kernel`, keeping what the proof needs), and the numbers the
walk that writes the proof (:mod:`.tml_walk`, driven by :mod:`.tml`) reads.

A position is what decides its future: the nodes the side to move may still place on (``own``) and
the other side's (``other``), the stones each has placed, and who placed last, seen from the side to
move (0: it did, 1: the other side, -1: nobody). The colours do not matter, so a position and its
colour-swapped twin share one entry; the table's key is the least image of the two masks under the
board's symmetries (byte tables, one per symmetry).

The search tries the moves of a position in turn, those closing most of the other side's open
nodes first, and stops at the first that leaves the other side lost (the position is won), or finds
every move leaving it won (lost). Why not df-pn here: on That's My Line, with forty moves a position
and proofs thirty moves deep, df-pn's numbers spread the search over the siblings (measured: a
position three stones in, decided by this search after 460,000 positions, was still open after
20 million positions of df-pn, whatever its numbers were set from); the general search
(:mod:`.dfpn`) stays df-pn.

It runs on an explicit stack of frames in slices of a given number of new positions, so the driver
reads the clock between two slices and the search goes on where it stopped. Decided without a
search (:func:`settled`): a side that cannot reach the other's stones placed (one more per node
still open to it, within its supply) has lost, and when neither side can place, more stones win
(equal: the side that placed last).

The table keeps four entries a bucket, each a decided position and the work below it (positions
searched to decide it); a new entry replaces the one of least work. The walk picks each winner's
move from it: to the child lost for its side to move of least work.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

MAX_DEPTH = 160
PASS = 64
UNKNOWN, LOST, WON = -1, 0, 1
BUCKET = 4

Geometry = namedtuple("Geometry", ["mates", "perms", "order", "supply"])
"""``mates[i]``: the mask of the nodes sharing a line with node ``i`` (``i`` included); ``perms[s, b,
byte]``: the image under symmetry ``s`` of byte ``b`` of a mask; ``order``: the node indices in the
order of their labels (the certificate's order of the defences); ``supply``: stones a side (-1:
unlimited), as a one-element array."""
Table = namedtuple("Table", ["keys", "metas", "values", "work"])
"""``keys[slot]``: the two masks; ``metas[slot]``: stones placed and who placed last (0: empty);
``values[slot]``: WON or LOST for the side to move; ``work[slot]``: positions searched to decide it."""
Stack = namedtuple("Stack", ["state", "moves", "info"])
"""Per frame: ``state`` own, other, mine, theirs, last; ``moves``; ``info`` (columns ``N`` .. ``START``)."""
N, AT, KEY0, KEY1, META, START = range(6)
DEPTH, RESULT, EXPANDED, MOVE = range(4)
"""The columns of ``control``: the frame the search stands on, the root's result, positions
searched, the root's winning move."""


@njit(inline="always")
def count(x: np.uint64) -> int:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(inline="always")
def can_place(open_: np.uint64, placed: int, supply: int) -> bool:
    return open_ != np.uint64(0) and (supply < 0 or placed < supply)


@njit(inline="always")
def most(open_: np.uint64, placed: int, supply: int) -> int:
    total = placed + count(open_) if supply < 0 or placed < supply else placed
    return total if supply < 0 else min(total, supply)


@njit(inline="always")
def settled(own: np.uint64, other: np.uint64, mine: int, theirs: int, last: int, supply: int) -> int:
    """WON or LOST for the side to move when decided without a search, else UNKNOWN."""
    if most(own, mine, supply) < theirs:
        return LOST
    if most(other, theirs, supply) < mine:
        return WON
    if not can_place(own, mine, supply) and not can_place(other, theirs, supply):
        return WON if mine > theirs or (mine == theirs and last == 0) else LOST
    return UNKNOWN


@njit(inline="always")
def image(mask: np.uint64, perms: np.ndarray, s: int) -> np.uint64:
    out = np.uint64(0)
    for b in range(8):
        out |= perms[s, b, int((mask >> np.uint64(8 * b)) & np.uint64(255))]
    return out


@njit(inline="always")
def canonical(own: np.uint64, other: np.uint64, perms: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """The least image of (own, other) under the symmetries (the identity is symmetry 0)."""
    best0, best1 = own, other
    for s in range(1, perms.shape[0]):
        a = image(own, perms, s)
        if a < best0 or (a == best0 and image(other, perms, s) < best1):
            best0, best1 = a, image(other, perms, s)
    return best0, best1


@njit(inline="always")
def meta_of(mine: int, theirs: int, last: int) -> int:
    return 1 + mine + 128 * theirs + 16384 * (last + 1)


@njit(inline="always")
def bucket(k0: np.uint64, k1: np.uint64, meta: int, size: int) -> int:
    h = k0 ^ (k1 * np.uint64(0x9E3779B97F4A7C15)) ^ (np.uint64(meta) * np.uint64(0xC2B2AE3D27D4EB4F))
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xC4CEB9FE1A85EC53)
    h ^= h >> np.uint64(33)
    return int(h & np.uint64(size - 1)) & ~(BUCKET - 1)


@njit(inline="always")
def find(table: Table, k0: np.uint64, k1: np.uint64, meta: int) -> int:
    """The slot holding the key, or -1."""
    base = bucket(k0, k1, meta, table.metas.shape[0])
    for s in range(base, base + BUCKET):
        if table.metas[s] == meta and table.keys[s, 0] == k0 and table.keys[s, 1] == k1:
            return s
    return -1


@njit(inline="always")
def store(table: Table, k0: np.uint64, k1: np.uint64, meta: int, value: int, work: int) -> None:
    """Keep a decided position in place of the entry of least work in its bucket."""
    base = bucket(k0, k1, meta, table.metas.shape[0])
    victim, least = base, -1
    for s in range(base, base + BUCKET):
        if table.metas[s] == meta and table.keys[s, 0] == k0 and table.keys[s, 1] == k1:
            victim = s
            break
        w = 0 if table.metas[s] == 0 else table.work[s]
        if least < 0 or w < least:
            victim, least = s, w
    table.keys[victim, 0], table.keys[victim, 1], table.metas[victim] = k0, k1, meta
    table.values[victim], table.work[victim] = value, work


@njit(inline="always")
def child_of(own: np.uint64, other: np.uint64, mine: int, theirs: int, last: int, move: int,
             mates: np.ndarray) -> tuple[np.uint64, np.uint64, int, int, int]:
    """The position after ``move`` (a node index, or PASS), seen from the next side to move."""
    if move == PASS:
        return other, own, theirs, mine, -1 if last < 0 else 1 - last
    bit = np.uint64(1) << np.uint64(move)
    return other & ~mates[move], own & ~bit, theirs, mine + 1, 1


@njit(inline="always", cache=True)  # called from Python too (the root moves): cached like the entry points
def known(geometry: Geometry, table: Table, own: np.uint64, other: np.uint64, mine: int, theirs: int,
          last: int) -> tuple[int, int]:
    """WON, LOST or UNKNOWN for the side to move, and the work the table holds for it (0: decided
    at once, -1: unknown)."""
    verdict = settled(own, other, mine, theirs, last, geometry.supply[0])
    if verdict != UNKNOWN:
        return verdict, 0
    k0, k1 = canonical(own, other, geometry.perms)
    s = find(table, k0, k1, meta_of(mine, theirs, last))
    if s >= 0:
        return int(table.values[s]), int(table.work[s])
    return UNKNOWN, -1


@njit(inline="always")
def open_frame(d: int, geometry: Geometry, stack: Stack, expanded: int) -> None:
    """List frame ``d``'s moves: the nodes closing most of the other side's open nodes first (ties
    by node), or a pass."""
    st = stack.state
    own, other = np.uint64(st[d, 0]), np.uint64(st[d, 1])
    n = 0
    if can_place(own, st[d, 2], geometry.supply[0]):
        for v in range(64):
            if (own >> np.uint64(v)) & np.uint64(1):
                key, j = (64 - count(other & geometry.mates[v])) * 128 + v, n
                while j > 0 and stack.moves[d, j - 1] > key:
                    stack.moves[d, j] = stack.moves[d, j - 1]
                    j -= 1
                stack.moves[d, j] = key
                n += 1
        for i in range(n):
            stack.moves[d, i] &= 127
    else:
        stack.moves[d, 0] = PASS
        n = 1
    k0, k1 = canonical(own, other, geometry.perms)
    stack.info[d, N], stack.info[d, AT], stack.info[d, KEY0], stack.info[d, KEY1] = n, 0, np.int64(k0), np.int64(k1)
    stack.info[d, META], stack.info[d, START] = meta_of(st[d, 2], st[d, 3], st[d, 4]), expanded


@njit(inline="always")
def child_state(d: int, move: int, geometry: Geometry, stack: Stack) -> None:
    """Frame ``d + 1``'s position: frame ``d``'s after ``move``."""
    st = stack.state
    c = child_of(np.uint64(st[d, 0]), np.uint64(st[d, 1]), st[d, 2], st[d, 3], st[d, 4], move, geometry.mates)
    st[d + 1, 0], st[d + 1, 1], st[d + 1, 2], st[d + 1, 3], st[d + 1, 4] = \
        np.int64(c[0]), np.int64(c[1]), c[2], c[3], c[4]


@njit(cache=True)
def search_slice(geometry: Geometry, table: Table, stack: Stack, control: np.ndarray, budget: int) -> int:
    """Search on from the stack as left until the root (frame 0, opened by :func:`open_root`) is
    decided (WON or LOST for its side to move; its winning move in ``control[MOVE]``) or ``budget``
    more positions were searched (UNKNOWN: call again to go on)."""
    d, spent = int(control[DEPTH]), 0
    while True:
        i = stack.info[d, AT]
        result = UNKNOWN
        if i == stack.info[d, N]:
            result = LOST  # no move wins
        else:
            child_state(d, stack.moves[d, i], geometry, stack)
            st = stack.state
            value, _ = known(geometry, table, np.uint64(st[d + 1, 0]), np.uint64(st[d + 1, 1]), st[d + 1, 2],
                             st[d + 1, 3], st[d + 1, 4])
            if value == UNKNOWN:
                if spent >= budget:
                    control[DEPTH] = d
                    return UNKNOWN
                spent += 1
                control[EXPANDED] += 1
                d += 1
                open_frame(d, geometry, stack, control[EXPANDED])
                continue
            stack.info[d, AT] = i + 1
            if value == LOST:
                result = WON
        while result != UNKNOWN:  # frame d is decided: keep it, hand it to its parent
            store(table, np.uint64(stack.info[d, KEY0]), np.uint64(stack.info[d, KEY1]), int(stack.info[d, META]),
                  result, control[EXPANDED] - stack.info[d, START] + 1)
            if d == 0:
                control[DEPTH], control[RESULT] = 0, result
                if result == WON:
                    control[MOVE] = stack.moves[0, stack.info[0, AT] - 1]
                return result
            d -= 1
            stack.info[d, AT] += 1
            result = WON if result == LOST else UNKNOWN


@njit(cache=True)
def open_root(geometry: Geometry, stack: Stack, control: np.ndarray, own: np.uint64, other: np.uint64,
              mine: int, theirs: int, last: int) -> int:
    """Set frame 0 to a position: WON or LOST when it is decided without a search, else UNKNOWN."""
    verdict = settled(own, other, mine, theirs, last, geometry.supply[0])
    if verdict != UNKNOWN:
        return verdict
    stack.state[0, 0], stack.state[0, 1] = np.int64(own), np.int64(other)
    stack.state[0, 2], stack.state[0, 3], stack.state[0, 4] = mine, theirs, last
    control[DEPTH], control[RESULT], control[MOVE] = 0, UNKNOWN, -1
    control[EXPANDED] += 1
    open_frame(0, geometry, stack, control[EXPANDED])
    return UNKNOWN


def new_stack() -> Stack:
    return Stack(state=np.zeros((MAX_DEPTH, 5), np.int64), moves=np.zeros((MAX_DEPTH, 65), np.int64),
                 info=np.zeros((MAX_DEPTH, 6), np.int64))


def new_table(bits: int) -> Table:
    size = 1 << bits
    return Table(keys=np.zeros((size, 2), np.uint64), metas=np.zeros(size, np.uint32),
                 values=np.zeros(size, np.int8), work=np.zeros(size, np.int64))


TABLE_ENTRY_BYTES = 16 + 4 + 1 + 8
"""Bytes of one table entry (keys, meta, value, work)."""

__all__ = ["Geometry", "Table", "Stack", "search_slice", "open_root", "new_stack", "new_table", "known",
           "child_of", "settled", "canonical", "meta_of", "find", "PASS", "WON", "LOST", "UNKNOWN",
           "TABLE_ENTRY_BYTES", "count", "can_place"]
