"""The walk that writes That's My Line's compiled proof as certificate records, and their encoding
(numba; driven by :mod:`.tml`).

The walk goes depth first over real positions (each side's stones, whose turn, who placed last),
keeping beside them the masks the search knows them by. At the winner's position it plays the move
to a child the table shows lost for its side to move (one decided at once first, else the one of
least work below it); when the table has forgotten every such child it stops and asks the driver to
search the position again. At the defender's position every move follows, in the order of the
nodes' labels (the certificate's order). A position met before, or a symmetric one, becomes a
reference (a table of finished positions, keyed by the least image of the two stone masks).
Walking a proof re-reads the search's table, never trusts it: every leaf is decided by the count
bound or the end of the game (the certificate's checker judges it again).

A position ``cut`` moves from the root that is not decided at once is claimed (a ``CLAIM`` record,
re-proven by the checker's judge) instead of written out.

Records: ``(LEAF_R, 0, 0)``, ``(WINNER_R, id, move)``, ``(DEFENDER_R, id, count)``, ``(REF_R, id, 0)``,
``(CLAIM_R, 0, 0)``.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from ..proof_format import CLAIM, KEPT, LEAF, NODE, REF
from .tml_kernel import LOST, PASS, UNKNOWN, WON, Geometry, Table, can_place, canonical, child_of, known, settled

LEAF_R, WINNER_R, DEFENDER_R, REF_R, CLAIM_R = 0, 1, 2, 3, 4
MAX_DEPTH = 160
DONE, NEED_SOLVE, RECORDS_FULL, SEEN_FULL, PAUSED, BROKEN = range(6)
Walk = namedtuple("Walk", ["state", "moves", "info", "keys"])
"""Per frame: ``state`` light, dark, own, other, mine, theirs, mover, last; ``moves`` the pending
moves; ``info`` id, count, next; ``keys`` the least image of the stones and the rest of the key."""
Seen = namedtuple("Seen", ["keys", "ids"])
"""Finished positions: ``keys[slot]`` (light, dark, rest; rest 0: empty) -> ``ids[slot]``."""
W_DEPTH, W_RECORDS, W_IDS, W_SEEN, W_WINNER, W_ROOT, W_CUT = range(7)
"""The columns of the walk's ``control``: the frame it stands on (-1 before the root), records
written, ids given, finished positions, the winner, whether the root was entered, the depth (moves
from the root) at which a position is claimed instead of written out (-1: never)."""


@njit(inline="always")
def _seen_slot(seen: Seen, k0: np.uint64, k1: np.uint64, rest: int) -> int:
    size = seen.ids.shape[0]
    h = k0 * np.uint64(0x9E3779B97F4A7C15) ^ k1 ^ (np.uint64(rest) << np.uint64(57))
    h ^= h >> np.uint64(31)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(29)
    s = np.int64(h & np.uint64(size - 1))
    while seen.keys[s, 2] != np.uint64(0) and not (seen.keys[s, 0] == k0 and seen.keys[s, 1] == k1
                                                    and seen.keys[s, 2] == np.uint64(rest)):
        s = (s + 1) & (size - 1)
    return s


@njit(inline="always")
def _record(records: np.ndarray, control: np.ndarray, tag: int, a: int, b: int) -> None:
    r = control[W_RECORDS]
    records[r, 0], records[r, 1], records[r, 2] = tag, a, b
    control[W_RECORDS] = r + 1


@njit(inline="always")
def _winning_move(geometry: Geometry, table: Table, st: np.ndarray) -> int:
    """The winner's move at a position: to a child lost at once, else to the child the table shows
    lost of least work; -1 when the table knows none."""
    own, other = np.uint64(st[2]), np.uint64(st[3])
    mine, theirs, last = int(st[4]), int(st[5]), int(st[7])
    supply = geometry.supply[0]
    best, least = -1, -1
    for m in range(65):
        if m < 64:
            if not can_place(own, mine, supply) or not (own >> np.uint64(m)) & np.uint64(1):
                continue
        elif can_place(own, mine, supply):
            continue
        c = child_of(own, other, mine, theirs, last, m, geometry.mates)
        value, work = known(geometry, table, c[0], c[1], c[2], c[3], c[4])
        if value == LOST and (best < 0 or work < least):
            best, least = m, work
            if work == 0:
                break
    return best


@njit(inline="always")
def _after(st: np.ndarray, move: int, mates: np.ndarray, out: np.ndarray) -> None:
    """``out``: the real position ``st`` after ``move``."""
    mover = int(st[6])
    light, dark = np.uint64(st[0]), np.uint64(st[1])
    if move != PASS:
        bit = np.uint64(1) << np.uint64(move)
        if mover == 0:
            light |= bit
        else:
            dark |= bit
    c = child_of(np.uint64(st[2]), np.uint64(st[3]), int(st[4]), int(st[5]), int(st[7]), move, mates)
    out[0], out[1], out[2], out[3] = np.int64(light), np.int64(dark), np.int64(c[0]), np.int64(c[1])
    out[4], out[5], out[6], out[7] = c[2], c[3], 1 - mover, c[4]


@njit(inline="always")
def _enter(d: int, geometry: Geometry, table: Table, walk: Walk, records: np.ndarray, seen: Seen,
           control: np.ndarray) -> int:
    """Write the record of the position in ``walk.state[d]``: 1 when it opened frame ``d``, 0 when
    it was a leaf or a reference, else the status that stops the walk (NEED_SOLVE, BROKEN)."""
    st = walk.state[d]
    supply, winner = geometry.supply[0], int(control[W_WINNER])
    mover, last = int(st[6]), int(st[7])
    verdict = settled(np.uint64(st[2]), np.uint64(st[3]), int(st[4]), int(st[5]), last, supply)
    if verdict != UNKNOWN:
        if (verdict == WON) != (mover == winner):
            return -BROKEN
        _record(records, control, LEAF_R, 0, 0)
        return 0
    k0, k1 = canonical(np.uint64(st[0]), np.uint64(st[1]), geometry.perms)
    placer = -1 if last < 0 else (mover if last == 0 else 1 - mover)  # who placed last, by colour
    rest = 1 + mover + 2 * (placer + 1)
    s = _seen_slot(seen, k0, k1, rest)
    if seen.keys[s, 2] != np.uint64(0):
        _record(records, control, REF_R, seen.ids[s], 0)
        return 0
    if 0 <= control[W_CUT] <= d:
        _record(records, control, CLAIM_R, 0, 0)
        return 0
    node = control[W_IDS]
    n = 0
    if mover == winner:
        move = _winning_move(geometry, table, st)
        if move < 0:
            return -NEED_SOLVE
        walk.moves[d, 0] = move
        n = 1
        _record(records, control, WINNER_R, node, move)
    else:
        own = np.uint64(st[2])
        if can_place(own, int(st[4]), supply):
            for i in range(64):
                v = geometry.order[i]
                if v >= 0 and (own >> np.uint64(v)) & np.uint64(1):
                    walk.moves[d, n] = v
                    n += 1
        else:
            walk.moves[d, 0] = PASS
            n = 1
        _record(records, control, DEFENDER_R, node, n)
    control[W_IDS] = node + 1
    walk.info[d, 0], walk.info[d, 1], walk.info[d, 2] = node, n, 0
    walk.keys[d, 0], walk.keys[d, 1], walk.keys[d, 2] = k0, k1, np.uint64(rest)
    return 1


@njit(cache=True)
def walk_slice(geometry: Geometry, table: Table, walk: Walk, records: np.ndarray, seen: Seen,
               control: np.ndarray, budget: int) -> int:
    """Go on with the walk (the root in ``walk.state[0]``) until it is DONE, it needs a position
    searched again (NEED_SOLVE: the position is ``walk.state[control[W_DEPTH] + 1]``), the record or
    seen table is nearly full, ``budget`` records were written (PAUSED), or the table shows a
    position the winner does not win (BROKEN)."""
    spent = 0
    while True:
        if records.shape[0] - control[W_RECORDS] < 2:
            return RECORDS_FULL
        if 4 * control[W_SEEN] > 3 * seen.ids.shape[0]:
            return SEEN_FULL
        if spent >= budget:
            return PAUSED
        d = int(control[W_DEPTH])
        if control[W_ROOT] == 0:
            opened = _enter(0, geometry, table, walk, records, seen, control)
            if opened < 0:
                return -opened
            control[W_ROOT] = 1
            if opened == 0:
                return DONE
            control[W_DEPTH] = 0
            continue
        if d < 0:
            return DONE
        i = walk.info[d, 2]
        if i < walk.info[d, 1]:
            _after(walk.state[d], walk.moves[d, i], geometry.mates, walk.state[d + 1])
            opened = _enter(d + 1, geometry, table, walk, records, seen, control)
            if opened < 0:
                return -opened
            walk.info[d, 2] = i + 1
            spent += 1
            if opened == 1:
                control[W_DEPTH] = d + 1
            continue
        s = _seen_slot(seen, walk.keys[d, 0], walk.keys[d, 1], int(walk.keys[d, 2]))
        seen.keys[s, 0], seen.keys[s, 1], seen.keys[s, 2] = walk.keys[d, 0], walk.keys[d, 1], walk.keys[d, 2]
        seen.ids[s] = walk.info[d, 0]
        control[W_SEEN] += 1
        control[W_DEPTH] = d - 1


@njit(cache=True)
def rehash(old: Seen, new: Seen) -> None:
    for s in range(old.ids.shape[0]):
        if old.keys[s, 2] != np.uint64(0):
            t = _seen_slot(new, old.keys[s, 0], old.keys[s, 1], int(old.keys[s, 2]))
            new.keys[t, 0], new.keys[t, 1], new.keys[t, 2] = old.keys[s, 0], old.keys[s, 1], old.keys[s, 2]
            new.ids[t] = old.ids[s]


@njit(inline="always")
def _varint(out: np.ndarray, at: int, value: int) -> int:
    while value >= 128:
        out[at] = (value & 127) | 128
        value >>= 7
        at += 1
    out[at] = value
    return at + 1


@njit(cache=True)
def encode(records: np.ndarray, count: int, ids: int, labels: np.ndarray, sizes: np.ndarray,
           out: np.ndarray) -> tuple[int, int, int, int, int, int, int]:
    """The body's bytes (into ``out``; its length first) and the counts: winner positions, defender
    positions, leaves, claims, references, kept positions."""
    kept = np.full(ids, -1, np.int64)
    for r in range(count):
        if records[r, 0] == REF_R:
            kept[records[r, 1]] = 0
    k = 0
    for i in range(ids):
        if kept[i] == 0:
            kept[i] = k
            k += 1
    at, winners, defenders, leaves, claims, refs = 0, 0, 0, 0, 0, 0
    for r in range(count):
        tag, a, b = records[r, 0], records[r, 1], records[r, 2]
        if tag == LEAF_R:
            at = _varint(out, at, LEAF)
            leaves += 1
        elif tag == CLAIM_R:
            at = _varint(out, at, CLAIM)
            claims += 1
        elif tag == REF_R:
            at = _varint(out, at, REF + kept[a])
            refs += 1
        else:
            at = _varint(out, at, KEPT if kept[a] >= 0 else NODE)
            if tag == WINNER_R:
                winners += 1
                at = _varint(out, at, sizes[b])
                for j in range(sizes[b]):
                    out[at] = labels[b, j]
                    at += 1
            else:
                defenders += 1
                at = _varint(out, at, b)
    return at, winners, defenders, leaves, claims, refs, k


def new_walk() -> Walk:
    return Walk(state=np.zeros((MAX_DEPTH, 8), np.int64), moves=np.zeros((MAX_DEPTH, 65), np.int64),
                info=np.zeros((MAX_DEPTH, 3), np.int64), keys=np.zeros((MAX_DEPTH, 3), np.uint64))


def new_seen(bits: int) -> Seen:
    return Seen(keys=np.zeros((1 << bits, 3), np.uint64), ids=np.zeros(1 << bits, np.int64))


__all__ = ["Walk", "Seen", "walk_slice", "rehash", "encode", "new_walk", "new_seen", "DONE", "NEED_SOLVE",
           "RECORDS_FULL", "SEEN_FULL", "PAUSED", "BROKEN", "W_DEPTH", "W_RECORDS", "W_IDS", "W_SEEN",
           "W_WINNER", "W_ROOT", "WINNER_R"]
