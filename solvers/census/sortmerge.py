"""Sorting and merging on every core (numba): the step every census engine shares.

A batch of children is a key array (canonical positions, ``uint64``) with, for each key, the row of
a value array it brings (its parent's residues, or its own row in a run): :func:`sort_combine`
returns the distinct keys in order, each with the sum of its rows modulo the primes. It is a sample
sort: splitters drawn from the keys cut them into buckets of a few thousand keys (one pass on every
core that counts, one that scatters), and every bucket is sorted and combined on its own (in the
cache, buckets spread over the threads). Merging sorted runs is the same call on their
concatenation. Sets (no values) pass a value array with no columns.

:func:`difference` removes from a sorted array the keys of another (a merge walk per slice, on
every core); :func:`member_of` marks the keys of one sorted array found in another."""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange
from numba.typed import List

BUCKET = 4096
"""Keys per bucket the sample sort aims at (a bucket and its parent rows stay in the L2 cache)."""
SAMPLE = 16
"""Sampled keys per bucket when the splitters are chosen."""
SMALL = 1 << 15
"""Below this many keys, one thread in numpy does it (waking every core costs more)."""


def splitters(keys: np.ndarray, buckets: int, seed: int = 12345) -> np.ndarray:
    """``buckets - 1`` increasing keys that cut ``keys`` into about equal buckets (from a sample)."""
    if buckets <= 1 or len(keys) == 0:
        return np.zeros(0, dtype=np.uint64)
    rng = np.random.default_rng(seed)
    sample = np.sort(keys[rng.integers(0, len(keys), size=min(len(keys), buckets * SAMPLE))])
    cut = sample[(np.arange(1, buckets) * len(sample)) // buckets]
    return np.unique(cut)


LUT_BITS = 16
U0 = np.uint64(0)
U1 = np.uint64(1)
BYTE = np.uint64(255)


class Cuts:
    """Splitters with a look-up table of their top bits, so that a key finds its bucket in one or
    two steps instead of a binary search."""

    def __init__(self, cuts: np.ndarray):
        self.cuts = cuts
        top = int(cuts[-1]) if len(cuts) else 0
        self.shift = np.uint64(max(0, top.bit_length() - LUT_BITS))
        prefixes = np.arange(1 << LUT_BITS, dtype=np.uint64) << self.shift
        self.first = np.searchsorted(cuts, prefixes, side="right").astype(np.int64)
        self.last = np.searchsorted(cuts, prefixes + ((np.uint64(1) << self.shift) - np.uint64(1)),
                                    side="right").astype(np.int64)


@njit(inline="always")
def _bucket(k, cuts, first, last, shift):
    p = k >> shift
    if p >= len(first):
        return len(cuts)
    lo = first[p]
    hi = last[p]
    while lo < hi:  # the cuts within this prefix (rarely more than one)
        mid = (lo + hi) >> 1
        if cuts[mid] <= k:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(parallel=True, cache=True)
def _histogram(keys, cuts, first, last, shift, chunks):
    n = len(keys)
    counts = np.zeros((chunks, len(cuts) + 1), dtype=np.int64)
    for c in prange(chunks):
        lo = n * c // chunks
        hi = n * (c + 1) // chunks
        for i in range(lo, hi):
            counts[c, _bucket(keys[i], cuts, first, last, shift)] += 1
    return counts


@njit(parallel=True, cache=True)
def _scatter(keys, src, cuts, first, last, shift, offsets, out_keys, out_src):
    n = len(keys)
    chunks = offsets.shape[0]
    for c in prange(chunks):
        lo = n * c // chunks
        hi = n * (c + 1) // chunks
        at = offsets[c].copy()
        for i in range(lo, hi):
            b = _bucket(keys[i], cuts, first, last, shift)
            out_keys[at[b]] = keys[i]
            out_src[at[b]] = src[i]
            at[b] += 1


@njit(inline="always")
def _swap(keys, src, i, j):
    k = keys[i]
    keys[i] = keys[j]
    keys[j] = k
    s = src[i]
    src[i] = src[j]
    src[j] = s


@njit(cache=True)
def sort_pairs(keys, src, lo, hi):
    """Sorts ``keys[lo:hi]`` in place, moving ``src`` along (quicksort, median of three, insertion
    sort below 16 keys; the smaller side first, so the stack stays short)."""
    stack = np.empty(128, dtype=np.int64)
    top = 0
    stack[0] = lo
    stack[1] = hi
    top = 2
    while top > 0:
        top -= 2
        a = stack[top]
        b = stack[top + 1]
        while b - a > 16:
            m = (a + b) >> 1
            if keys[m] < keys[a]:
                _swap(keys, src, m, a)
            if keys[b - 1] < keys[a]:
                _swap(keys, src, b - 1, a)
            if keys[b - 1] < keys[m]:
                _swap(keys, src, b - 1, m)
            pivot = keys[m]
            i = a
            j = b - 1
            while i <= j:
                while keys[i] < pivot:
                    i += 1
                while keys[j] > pivot:
                    j -= 1
                if i <= j:
                    _swap(keys, src, i, j)
                    i += 1
                    j -= 1
            if j + 1 - a < b - i:
                stack[top] = i
                stack[top + 1] = b
                b = j + 1
            else:
                stack[top] = a
                stack[top + 1] = j + 1
                a = i
            top += 2
        for i in range(a + 1, b):
            k = keys[i]
            s = src[i]
            j = i - 1
            while j >= a and keys[j] > k:
                keys[j + 1] = keys[j]
                src[j + 1] = src[j]
                j -= 1
            keys[j + 1] = k
            src[j + 1] = s


@njit(cache=True)
def radix_sort_bucket(keys, src, lo, hi):
    """Sorts ``keys[lo:hi]`` with ``src`` by a radix sort of packed words: each key less the least
    one, shifted past the bits of its index in the bucket, holds both, so one word moves per step
    (8 bits a pass, only the passes the keys' spread needs). False (nothing done) when the spread
    and the index do not fit in 64 bits."""
    m = hi - lo
    low = keys[lo]
    top = keys[lo]
    for i in range(lo, hi):
        if keys[i] < low:
            low = keys[i]
        if keys[i] > top:
            top = keys[i]
    spread = top - low
    key_bits = 0
    while key_bits < 64 and (spread >> np.uint64(key_bits)) != U0:
        key_bits += 1
    index_bits = 1
    while (1 << index_bits) < m:
        index_bits += 1
    if key_bits + index_bits > 64:
        return False
    shift = np.uint64(index_bits)
    words = np.empty(m, dtype=np.uint64)
    spare = np.empty(m, dtype=np.uint64)
    for i in range(m):
        words[i] = ((keys[lo + i] - low) << shift) | np.uint64(i)
    counts = np.empty(257, dtype=np.int64)
    bit = index_bits
    while bit < index_bits + key_bits:
        counts[:] = 0
        b = np.uint64(bit)
        for i in range(m):
            counts[((words[i] >> b) & BYTE) + 1] += 1
        for d in range(256):
            counts[d + 1] += counts[d]
        for i in range(m):
            d = (words[i] >> b) & BYTE
            spare[counts[d]] = words[i]
            counts[d] += 1
        words, spare = spare, words
        bit += 8
    rows = src[lo:hi].copy()
    mask = (U1 << shift) - U1
    for i in range(m):
        keys[lo + i] = (words[i] >> shift) + low
        src[lo + i] = rows[np.int64(words[i] & mask)]
    return True


@njit(parallel=True, cache=True)
def _sort_buckets(keys, src, starts):
    """Sorts every bucket in place (keys with their rows) and counts its distinct keys."""
    buckets = len(starts) - 1
    distinct = np.zeros(buckets, dtype=np.int64)
    for b in prange(buckets):
        lo = starts[b]
        hi = starts[b + 1]
        if hi <= lo:
            continue
        if not radix_sort_bucket(keys, src, lo, hi):
            sort_pairs(keys, src, lo, hi)
        d = 1
        for i in range(lo + 1, hi):
            if keys[i] != keys[i - 1]:
                d += 1
        distinct[b] = d
    return distinct


@njit(parallel=True, cache=True)
def _combine(keys, src, starts, out_at, values, primes, out_keys, out_values):
    """Each bucket's distinct keys written from ``out_at[b]`` on, with their rows summed."""
    width = values.shape[1]
    for b in prange(len(starts) - 1):
        m = out_at[b] - 1
        for i in range(starts[b], starts[b + 1]):
            k = keys[i]
            if i == starts[b] or k != keys[i - 1]:
                m += 1
                out_keys[m] = k
            row = src[i]
            for r in range(width):
                s = np.uint64(out_values[m, r]) + np.uint64(values[row, r])
                if s >= primes[r]:
                    s -= primes[r]
                out_values[m, r] = np.uint32(s)


def _chunk_count(n: int) -> int:
    return max(1, min(4 * numba.get_num_threads(), n // 65536 + 1))


def sort_combine(keys: np.ndarray, src: np.ndarray, values: np.ndarray,
                 primes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``keys`` in increasing order, each with the sum (modulo ``primes``, per
    column) of the rows ``values[src[i]]`` of its copies. ``keys`` and ``src`` are left as they
    were."""
    n = len(keys)
    if n < SMALL:
        return _small_combine(keys, src, values, primes)
    buckets = max(1, n // BUCKET)
    cuts = Cuts(splitters(keys, buckets))
    chunks = _chunk_count(n)
    counts = _histogram(keys, cuts.cuts, cuts.first, cuts.last, cuts.shift, chunks)
    per_bucket = counts.sum(axis=0)
    starts = np.zeros(len(per_bucket) + 1, dtype=np.int64)
    np.cumsum(per_bucket, out=starts[1:])
    offsets = starts[:-1][None, :] + np.cumsum(counts, axis=0) - counts
    part_keys = np.empty(n, dtype=np.uint64)
    part_src = np.empty(n, dtype=np.int64)
    _scatter(keys, src, cuts.cuts, cuts.first, cuts.last, cuts.shift, offsets, part_keys, part_src)
    distinct = _sort_buckets(part_keys, part_src, starts)
    out_at = np.zeros(len(distinct) + 1, dtype=np.int64)
    np.cumsum(distinct, out=out_at[1:])
    out_keys = np.empty(int(out_at[-1]), dtype=np.uint64)
    out_values = np.zeros((int(out_at[-1]), values.shape[1]), dtype=np.uint32)
    _combine(part_keys, part_src, starts, out_at, values, primes, out_keys, out_values)
    return out_keys, out_values


@njit(parallel=True, cache=True)
def _merge_pass(run_keys, run_values, bounds, out_at, primes, out_keys, out_values, write):
    """One pass of the k-way merge, bucket by bucket on every core: each bucket's pieces (one per
    run, ``bounds[r, b]..bounds[r, b + 1]``) gathered, sorted and combined. The first pass
    (``write`` False) returns the distinct keys per bucket; the second writes them from
    ``out_at[b]`` on with their rows summed."""
    runs = bounds.shape[0]
    buckets = bounds.shape[1] - 1
    distinct = np.zeros(buckets, dtype=np.int64)
    for b in prange(buckets):
        total = 0
        for r in range(runs):
            total += bounds[r, b + 1] - bounds[r, b]
        if total == 0:
            continue
        keys = np.empty(total, dtype=np.uint64)
        src = np.empty(total, dtype=np.int64)
        at = 0
        for r in range(runs):
            rk = run_keys[r]
            for i in range(bounds[r, b], bounds[r, b + 1]):
                keys[at] = rk[i]
                src[at] = (r << 40) | i
                at += 1
        if not radix_sort_bucket(keys, src, 0, total):
            sort_pairs(keys, src, 0, total)
        m = out_at[b] - 1
        d = 0
        for t in range(total):
            if t == 0 or keys[t] != keys[t - 1]:
                d += 1
                m += 1
                if write:
                    out_keys[m] = keys[t]
            if write:
                rv = run_values[src[t] >> 40]
                row = src[t] & ((1 << 40) - 1)
                for c in range(out_values.shape[1]):
                    v = np.uint64(out_values[m, c]) + np.uint64(rv[row, c])
                    if v >= primes[c]:
                        v -= primes[c]
                    out_values[m, c] = np.uint32(v)
        distinct[b] = d
    return distinct


def _small_combine(keys: np.ndarray, src: np.ndarray, values: np.ndarray,
                   primes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`sort_combine` of a few keys in numpy on one thread (waking every core costs more)."""
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    first = np.ones(len(keys), dtype=np.bool_)
    first[1:] = ordered[1:] != ordered[:-1]
    starts = np.flatnonzero(first)
    width = values.shape[1]
    out = np.zeros((len(starts), width), dtype=np.uint32)
    if width and len(keys):
        rows = values[src[order]].astype(np.uint64) % primes
        out[:] = np.add.reduceat(rows, starts, axis=0) % primes
    return ordered[starts], out


def merge_runs(runs: list[tuple[np.ndarray, np.ndarray]], primes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted runs (distinct keys each, with their rows) merged into one, equal keys summed: a
    k-way merge cut into buckets by splitters sampled from every run, the buckets on every core;
    memory beyond the runs is the output and one bucket per thread."""
    runs = [r for r in runs if len(r[0])]
    if len(runs) <= 1:
        return runs[0] if runs else (np.zeros(0, dtype=np.uint64), np.zeros((0, len(primes)), dtype=np.uint32))
    total = sum(len(k) for k, _ in runs)
    sample = np.concatenate([k[np.linspace(0, len(k) - 1, num=min(len(k), max(2, SAMPLE * len(k) // BUCKET)))
                               .astype(np.int64)] for k, _ in runs])
    cuts = splitters(sample, max(1, total // BUCKET))
    bounds = np.empty((len(runs), len(cuts) + 2), dtype=np.int64)
    for r, (k, _) in enumerate(runs):
        bounds[r, 0] = 0
        bounds[r, 1:-1] = np.searchsorted(k, cuts, side="left")
        bounds[r, -1] = len(k)
    keys_list = List([k for k, _ in runs])
    values_list = List([v for _, v in runs])
    width = runs[0][1].shape[1]
    no_keys = np.zeros(0, dtype=np.uint64)
    no_values = np.zeros((0, width), dtype=np.uint32)
    zero_at = np.zeros(len(cuts) + 2, dtype=np.int64)
    distinct = _merge_pass(keys_list, values_list, bounds, zero_at, primes, no_keys, no_values, False)
    out_at = np.zeros(len(distinct) + 1, dtype=np.int64)
    np.cumsum(distinct, out=out_at[1:])
    out_keys = np.empty(int(out_at[-1]), dtype=np.uint64)
    out_values = np.zeros((int(out_at[-1]), width), dtype=np.uint32)
    _merge_pass(keys_list, values_list, bounds, out_at, primes, out_keys, out_values, True)
    return out_keys, out_values


@njit(parallel=True, cache=True)
def _keep_marks(keys, drop, chunks, keep):
    """Clears ``keep[i]`` for the keys found in ``drop``: a merge walk per slice where ``drop`` is
    about as dense as ``keys``, a binary search per key where it is much denser."""
    n = len(keys)
    sparse = len(drop) > 16 * n
    for c in prange(chunks):
        lo = n * c // chunks
        hi = n * (c + 1) // chunks
        if hi <= lo:
            continue
        j = np.searchsorted(drop, keys[lo])
        for i in range(lo, hi):
            if sparse:
                j += np.searchsorted(drop[j:], keys[i])
            else:
                while j < len(drop) and drop[j] < keys[i]:
                    j += 1
            if j < len(drop) and drop[j] == keys[i]:
                keep[i] = False


def member_of(keys: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Which keys of the sorted array ``keys`` the sorted array ``other`` holds (on every core)."""
    if len(keys) < SMALL:
        at = np.minimum(np.searchsorted(other, keys), max(0, len(other) - 1))
        return (other[at] == keys) if len(other) else np.zeros(len(keys), dtype=np.bool_)
    keep = np.ones(len(keys), dtype=np.bool_)
    if len(other):
        _keep_marks(keys, other, _chunk_count(len(keys)), keep)
    return ~keep


def difference(keys: np.ndarray, drops: list[np.ndarray]) -> np.ndarray:
    """The keys of the sorted array ``keys`` that none of the sorted arrays ``drops`` holds."""
    keep = np.ones(len(keys), dtype=np.bool_)
    for drop in drops:
        if len(keys) < SMALL:
            keep &= ~member_of(keys, drop)
        elif len(drop):
            _keep_marks(keys, drop, _chunk_count(len(keys)), keep)
    return keys[keep]


def unique_sorted(keys: np.ndarray) -> np.ndarray:
    """The distinct keys in increasing order (a set: :func:`sort_combine` with no values)."""
    out, _ = sort_combine(keys, np.zeros(len(keys), dtype=np.int64), np.zeros((1, 0), dtype=np.uint32),
                          np.zeros(0, dtype=np.uint64))
    return out
