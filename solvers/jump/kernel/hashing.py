"""Bit tricks and the kernel's hash tables: canonical keys under the board's symmetries, the
transposition table, the dead table, the backward perimeter and the open-addressing sets."""

from __future__ import annotations

import numpy as np
from numba import njit

from .groups import DEAD_ENTRIES, TT_ENTRIES
from .tuning import PROBES

_HASH = np.uint64(0x9E3779B97F4A7C15)
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U8 = np.uint64(8)
_U255 = np.uint64(255)


@njit(cache=True)
def _popcount(x: np.uint64) -> int:
    x = x - ((x >> _U1) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DEBRUIJN_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _DEBRUIJN_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 % (1 << 64)) >> 58] = _i


@njit(cache=True)
def _low_index(x: np.uint64) -> int:
    """Index of the lowest set bit of ``x`` (non-zero)."""
    return _DEBRUIJN_INDEX[((x & (~x + _U1)) * _DEBRUIJN) >> np.uint64(58)]


@njit(cache=True)
def _high_index(x: np.uint64) -> int:
    """Index of the highest set bit of ``x`` (non-zero)."""
    for sh in (1, 2, 4, 8, 16, 32):
        x |= x >> np.uint64(sh)
    return _low_index(x ^ (x >> _U1))


@njit(cache=True)
def _canon(pos: np.uint64, symtab: np.ndarray, nchunks: int) -> tuple[np.uint64, int]:
    best = pos
    bs = 0
    for s in range(1, symtab.shape[0]):
        img = _U0
        x = pos
        for c in range(nchunks):
            img |= symtab[s, c, x & _U255]
            x >>= _U8
        if img < best:
            best = img
            bs = s
    return best, bs


@njit(cache=True)
def _slot(key: np.uint64, extra: int, mask: int) -> np.int64:
    h = (key ^ np.uint64(extra + 1) * np.uint64(0xD6E8FEB86659FD93)) * _HASH
    h = (h ^ (h >> np.uint64(32))) * np.uint64(0x94D049BB133111EB)   # every key bit reaches the low bits
    return np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))


@njit(cache=True)
def _tt_entry(key: np.uint64, last: int, val: int) -> np.uint64:
    """A table entry in one word: a 48-bit check of ``key`` (never 0), ``last + 1`` and the budget.
    Two search threads may write one slot at once (``workers``); a word is written whole, so an
    entry whose check does not match the key beside it is a torn write and is not read."""
    check = ((key * np.uint64(0xC2B2AE3D27D4EB4F)) >> np.uint64(16)) | _U1
    return (check << np.uint64(16)) | (np.uint64(last + 1) << _U8) | np.uint64(val)


@njit(cache=True)
def _tt_get(tk: np.ndarray, td: np.ndarray, key: np.uint64, last: int) -> int:
    mask = tk.shape[0] - 1
    i = _slot(key, last, mask)
    want = _tt_entry(key, last, 0)
    for _ in range(PROBES):
        k = tk[i]
        if k == key:
            e = td[i]
            if e & ~_U255 == want:
                return int(e & _U255)
        if k == _U0:
            return -1
        i = (i + 1) & mask
    return -1


@njit(cache=True)
def _tt_put(tk: np.ndarray, td: np.ndarray, key: np.uint64, last: int, val: int, counts: np.ndarray) -> None:
    mask = tk.shape[0] - 1
    i = _slot(key, last, mask)
    want = _tt_entry(key, last, 0)
    victim = i
    for _ in range(PROBES):
        k = tk[i]
        e = td[i]
        if k == key and e & ~_U255 == want:
            if e & _U255 < np.uint64(val):
                td[i] = want | np.uint64(val)
            return
        if k == _U0:
            tk[i] = key
            td[i] = want | np.uint64(val)
            counts[TT_ENTRIES] += 1
            return
        if e & _U255 < td[victim] & _U255:
            victim = i
        i = (i + 1) & mask
    tk[victim] = key
    td[victim] = want | np.uint64(val)


@njit(cache=True)
def _dead_has(dk: np.ndarray, key: np.uint64) -> bool:
    mask = dk.shape[0] - 1
    i = _slot(key, -1, mask)
    for _ in range(PROBES):
        k = dk[i]
        if k == key:
            return True
        if k == _U0:
            return False
        i = (i + 1) & mask
    return False


@njit(cache=True)
def _dead_put(dk: np.ndarray, key: np.uint64, counts: np.ndarray) -> None:
    mask = dk.shape[0] - 1
    i = _slot(key, -1, mask)
    first = i
    for _ in range(PROBES):
        k = dk[i]
        if k == key:
            return
        if k == _U0:
            dk[i] = key
            counts[DEAD_ENTRIES] += 1
            return
        i = (i + 1) & mask
    dk[first] = key


@njit(cache=True)
def _per_get(pk: np.ndarray, pd: np.ndarray, key: np.uint64) -> int:
    mask = pk.shape[0] - 1
    i = _slot(key, -2, mask)
    while True:
        k = pk[i]
        if k == key:
            return int(pd[i])
        if k == _U0:
            return -1
        i = (i + 1) & mask


@njit(cache=True)
def _per_add(pk: np.ndarray, pd: np.ndarray, key: np.uint64, dist: int) -> bool:
    """Inserts ``key`` at ``dist`` unless present; True when new."""
    mask = pk.shape[0] - 1
    i = _slot(key, -2, mask)
    while True:
        k = pk[i]
        if k == key:
            return False
        if k == _U0:
            pk[i] = key
            pd[i] = dist
            return True
        i = (i + 1) & mask


@njit(cache=True)
def _build_perimeter(goals: np.ndarray, max_stones: int, limit: int, pk: np.ndarray, pd: np.ndarray,
                     jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray, symtab: np.ndarray,
                     nchunks: int) -> tuple[int, int]:
    """Breadth-first search by moves played backwards from the one-stone ``goals``: a stone
    jumps back over a free node (which gets a stone) onto a free node, and may go on. Layer ``k``
    holds the positions exactly ``k`` moves from a goal (canonical). Stops when the table would
    pass ``limit`` positions; returns (radius of the last complete layer, positions stored)."""
    layer = np.empty(limit + 1, dtype=np.uint64)
    nxt = np.empty(limit + 1, dtype=np.uint64)
    n_layer = 0
    stored = 0
    for g in goals:
        key, _ = _canon(g, symtab, nchunks)
        if _per_add(pk, pd, key, 0):
            layer[n_layer] = g
            n_layer += 1
            stored += 1
    n = jstart.shape[0] - 1
    stack_pos = np.empty(n + 2, dtype=np.uint64)
    stack_at = np.empty(n + 2, dtype=np.int64)
    stack_k = np.empty(n + 2, dtype=np.int64)
    radius = 0
    while n_layer:
        n_next = 0
        for li in range(n_layer):
            q = layer[li]
            rest = q
            while rest:
                x = _low_index(rest)
                rest &= rest - _U1
                # depth-first over this stone's backward chains
                top = 0
                stack_pos[0] = q
                stack_at[0] = x
                stack_k[0] = jstart[x]
                while top >= 0:
                    p = stack_pos[top]
                    at = stack_at[top]
                    k = stack_k[top]
                    if k >= jstart[at + 1]:
                        top -= 1
                        continue
                    stack_k[top] = k + 1
                    o = jover[k]
                    t = jto[k]
                    if (p >> np.uint64(o)) & _U1 or (p >> np.uint64(t)) & _U1:
                        continue
                    p2 = p ^ (_U1 << np.uint64(at)) ^ (_U1 << np.uint64(o)) ^ (_U1 << np.uint64(t))
                    if _popcount(p2) > max_stones:
                        continue
                    key, _ = _canon(p2, symtab, nchunks)
                    if _per_add(pk, pd, key, radius + 1):
                        stored += 1
                        nxt[n_next] = p2
                        n_next += 1
                        if stored >= limit:
                            return radius, stored
                    top += 1
                    stack_pos[top] = p2
                    stack_at[top] = t
                    stack_k[top] = jstart[t]
        for i in range(n_next):
            layer[i] = nxt[i]
        n_layer = n_next
        radius += 1
    return radius, stored


@njit(cache=True)
def _rehash_tt(tk: np.ndarray, td: np.ndarray, nk: np.ndarray, nd: np.ndarray, counts: np.ndarray) -> None:
    counts[TT_ENTRIES] = 0
    for i in range(tk.shape[0]):
        e = td[i]
        if tk[i] != _U0 and e & ~_U255 == _tt_entry(tk[i], int((e >> _U8) & _U255) - 1, 0):
            _tt_put(nk, nd, tk[i], int((e >> _U8) & _U255) - 1, int(e & _U255), counts)


@njit(cache=True)
def _rehash_dead(dk: np.ndarray, nk: np.ndarray, counts: np.ndarray) -> None:
    counts[DEAD_ENTRIES] = 0
    for i in range(dk.shape[0]):
        if dk[i] != _U0:
            _dead_put(nk, dk[i], counts)


@njit(cache=True)
def _hash_slot(table: np.ndarray, key: np.uint64) -> np.int64:
    """Where the nonzero ``key`` stands in the open-addressing set ``table`` (a power-of-two size,
    0 = empty), or the empty slot where it would go."""
    mask = table.shape[0] - 1
    i = np.int64((key * _HASH) >> np.uint64(40)) & mask
    while table[i] != _U0 and table[i] != key:
        i = (i + 1) & mask
    return i

