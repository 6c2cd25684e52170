"""The compiled successor kernel (numba): positions are ``uint64`` bit sets, counts are residues
modulo :data:`~.counts.PRIMES` in ``uint32`` columns. Every loop over positions runs on every core
(``prange``); inside a Dask task the engine sets numba to one thread (the workers are the
parallelism there)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

U0 = np.uint64(0)
U1 = np.uint64(1)
U8 = np.uint64(8)
BYTE = np.uint64(255)


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


@njit(parallel=True, cache=True)
def count_successors(parents, need, land):
    """How many single jumps each position has."""
    out = np.zeros(len(parents), dtype=np.int64)
    for i in prange(len(parents)):
        p = parents[i]
        c = 0
        for j in range(len(need)):
            if (p & need[j]) == need[j] and (p & land[j]) == U0:
                c += 1
        out[i] = c
    return out


@njit(parallel=True, cache=True)
def fill_children(parents, offsets, lo, need, land, flip, symtab, keys, owner):
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


@njit(parallel=True, cache=True)
def orbit_sizes(positions, group_size, symtab):
    """The size of each position's orbit under the group."""
    out = np.empty(len(positions), dtype=np.int64)
    for i in prange(len(positions)):
        out[i] = group_size // fixers(positions[i], symtab)
    return out


@njit(parallel=True, cache=True)
def residue_sums(counts, successors, primes, chunks):
    """Per column, modulo the primes: the sum of all rows (``[0]``) and of the rows with no
    successor (``[1]``, the dead ends); on every core, a slice each."""
    n, width = counts.shape
    part = np.zeros((chunks, 2, width), dtype=np.uint64)
    for c in prange(chunks):
        for i in range(n * c // chunks, n * (c + 1) // chunks):
            for r in range(width):
                v = np.uint64(counts[i, r])
                part[c, 0, r] = (part[c, 0, r] + v) % primes[r]
                if successors[i] == 0:
                    part[c, 1, r] = (part[c, 1, r] + v) % primes[r]
    out = np.zeros((2, width), dtype=np.uint64)
    for c in range(chunks):
        for k in range(2):
            for r in range(width):
                out[k, r] = (out[k, r] + part[c, k, r]) % primes[r]
    return out


@njit(parallel=True, cache=True)
def fixed_children(parents, need, land, flip, perm_table, keep):
    """The children of ``parents`` that the symmetry of ``perm_table`` maps onto themselves, as
    (child, parent index) pairs: ``keep`` says how many each parent has (counted first)."""
    n = len(parents)
    offsets = np.zeros(n + 1, dtype=np.int64)
    for i in prange(n):
        p = parents[i]
        c = 0
        for j in range(len(need)):
            if (p & need[j]) == need[j] and (p & land[j]) == U0:
                q = p ^ flip[j]
                if image(q, perm_table, 0) == q:
                    c += 1
        keep[i] = c
    for i in range(n):
        offsets[i + 1] = offsets[i] + keep[i]
    keys = np.empty(offsets[n], dtype=np.uint64)
    owner = np.empty(offsets[n], dtype=np.int64)
    for i in prange(n):
        p = parents[i]
        at = offsets[i]
        for j in range(len(need)):
            if (p & need[j]) == need[j] and (p & land[j]) == U0:
                q = p ^ flip[j]
                if image(q, perm_table, 0) == q:
                    keys[at] = q
                    owner[at] = i
                    at += 1
    return keys, owner


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
