"""The compiled successor kernel (numba): positions are ``uint64`` bit sets, counts are residues
modulo :data:`~.counts.PRIMES` in ``uint32`` columns. Each function exists twice: ``*_par`` runs
its outer loop on every core (the single-machine engine), ``*_one`` on one thread (inside a Dask
task, whose workers are the parallelism)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

U0 = np.uint64(0)
U1 = np.uint64(1)
U8 = np.uint64(8)
BYTE = np.uint64(255)
EMPTY = np.uint64(0)  # no position is empty (a census position has a stone), so 0 marks a free slot


@njit(inline="always")
def image(pos, symtab, s):
    """The image of ``pos`` under the tables' symmetry ``s`` (one table lookup per byte)."""
    img = U0
    for k in range(symtab.shape[1]):
        img |= symtab[s, k, pos & BYTE]
        pos >>= U8
    return img


@njit(inline="always")
def canonical(pos, symtab):
    """The least image of ``pos`` under the group (the identity and the tables' symmetries)."""
    best = pos
    for s in range(symtab.shape[0]):
        img = image(pos, symtab, s)
        if img < best:
            best = img
    return best


@njit(inline="always")
def fixers(pos, symtab):
    """How many group elements map ``pos`` onto itself (the identity included)."""
    same = 1
    for s in range(symtab.shape[0]):
        if image(pos, symtab, s) == pos:
            same += 1
    return same


@njit(inline="always")
def mix(k):
    h = k * np.uint64(0x9E3779B97F4A7C15)
    h ^= h >> np.uint64(31)
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(29)
    return h


def _count_successors(parents, need, land):
    out = np.zeros(len(parents), dtype=np.int64)
    for i in prange(len(parents)):
        p = parents[i]
        c = 0
        for j in range(len(need)):
            if (p & need[j]) == need[j] and (p & land[j]) == U0:
                c += 1
        out[i] = c
    return out


def _fill_children(parents, offsets, lo, need, land, flip, symtab, keys, owner):
    """Children of ``parents`` (their canonical forms) from ``offsets[i] - offsets[lo]`` on, with
    the index of their parent."""
    base = offsets[lo]
    for i in prange(len(parents)):
        p = parents[i]
        at = offsets[lo + i] - base
        for j in range(len(need)):
            if (p & need[j]) == need[j] and (p & land[j]) == U0:
                keys[at] = canonical(p ^ flip[j], symtab)
                owner[at] = lo + i
                at += 1


def _orbits(positions, group_size, symtab):
    out = np.empty(len(positions), dtype=np.int64)
    for i in prange(len(positions)):
        out[i] = group_size // fixers(positions[i], symtab)
    return out


count_successors_par = njit(parallel=True, cache=True)(_count_successors)
count_successors_one = njit(cache=True)(_count_successors)
fill_children_par = njit(parallel=True, cache=True)(_fill_children)
fill_children_one = njit(cache=True)(_fill_children)
orbits_par = njit(parallel=True, cache=True)(_orbits)
orbits_one = njit(cache=True)(_orbits)


@njit(parallel=True, cache=True)
def insert_children(keys, owner, counts, primes, tkeys, tcounts, fill, start_at, limit):
    """Adds each child's parent counts into the hash table part its hash names (one part per
    thread: no locks). A part that reaches ``limit`` entries stops and returns where it stopped
    (-1 when it got through), so the caller can grow the table and go on."""
    parts, cap = tkeys.shape
    shift = np.uint64(64 - int(np.log2(parts))) if parts > 1 else np.uint64(0)
    mask = np.uint64(cap - 1)
    stopped = np.full(parts, -1, dtype=np.int64)
    for part in prange(parts):
        for i in range(start_at[part], len(keys)):
            k = keys[i]
            h = mix(k)
            if parts > 1 and np.int64(h >> shift) != part:
                continue
            slot = h & mask
            while tkeys[part, slot] != EMPTY and tkeys[part, slot] != k:
                slot = (slot + U1) & mask
            if tkeys[part, slot] == EMPTY:
                if fill[part] >= limit:
                    stopped[part] = i
                    break
                tkeys[part, slot] = k
                fill[part] += 1
            src = owner[i]
            for r in range(len(primes)):
                s = np.uint64(tcounts[part, slot, r]) + np.uint64(counts[src, r])
                if s >= primes[r]:
                    s -= primes[r]
                tcounts[part, slot, r] = np.uint32(s)
    return stopped


@njit(parallel=True, cache=True)
def rehash(tkeys, tcounts, new_cap):
    parts = tkeys.shape[0]
    nkeys = np.zeros((parts, new_cap), dtype=np.uint64)
    ncounts = np.zeros((parts, new_cap, tcounts.shape[2]), dtype=np.uint32)
    mask = np.uint64(new_cap - 1)
    for part in prange(parts):
        for i in range(tkeys.shape[1]):
            k = tkeys[part, i]
            if k == EMPTY:
                continue
            slot = mix(k) & mask
            while nkeys[part, slot] != EMPTY:
                slot = (slot + U1) & mask
            nkeys[part, slot] = k
            ncounts[part, slot, :] = tcounts[part, i, :]
    return nkeys, ncounts


@njit(parallel=True, cache=True)
def solvable_marks(positions, need, land, flip, symtab, next_solvable):
    """Which positions have a jump to a position of the sorted array ``next_solvable``."""
    out = np.zeros(len(positions), dtype=np.bool_)
    n = len(next_solvable)
    if n == 0:
        return out
    for i in prange(len(positions)):
        p = positions[i]
        for j in range(len(need)):
            if (p & need[j]) == need[j] and (p & land[j]) == U0:
                c = canonical(p ^ flip[j], symtab)
                at = np.searchsorted(next_solvable, c)
                if at < n and next_solvable[at] == c:
                    out[i] = True
                    break
    return out


@njit(cache=True)
def combine_sorted(keys, owner, counts, primes):
    """Children sorted by key, merged: each distinct key once with the sum of its parents' counts."""
    order = np.argsort(keys, kind="mergesort")
    n = len(keys)
    out_keys = np.empty(n, dtype=np.uint64)
    out_counts = np.zeros((n, len(primes)), dtype=np.uint32)
    m = -1
    last = EMPTY
    for t in range(n):
        i = order[t]
        k = keys[i]
        if m < 0 or k != last:
            m += 1
            out_keys[m] = k
            last = k
        src = owner[i]
        for r in range(len(primes)):
            s = np.uint64(out_counts[m, r]) + np.uint64(counts[src, r])
            if s >= primes[r]:
                s -= primes[r]
            out_counts[m, r] = np.uint32(s)
    return out_keys[:m + 1], out_counts[:m + 1]
