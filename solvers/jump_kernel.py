"""Get a Jump On, reverse: the compiled search kernel (numba) for boards of at most 64 nodes.

A position is one ``uint64`` (bit ``v - 1`` = a stone on node ``v``). The search runs on
*single jumps*; its state is (stones, node of the last jumper). Continuing the last jumper's
chain costs nothing, a jump of any other stone starts a new move and costs one. Two searches
share the code (:func:`_run`):

* **feasibility** (mode 0): a depth-first search for any one-stone finish, ignoring moves.
  Exhausting it proves the position unsolvable; every position it exhausts is stored in the
  *dead table* (canonical position -> no finish at any cost), which the other search reads.
* **budgeted** (mode 1): "is a finish within ``budget`` moves?" -- iterative deepening on the
  budget. The *transposition table* maps (canonical position, image of the last jumper's node
  under the same symmetry) to the largest budget proven insufficient; entries stay valid
  across iterations.

Shorter answers (upper bounds) come from a beam search on whole moves whose probes are short
searches of both kinds (:meth:`KernelSearch.beam`), and from branch and bound (mode 1 with the
budget one below the best found).

Prunings (both searches unless said): a single stone must stand on a target node; pagoda
functions (one per target, at most 4 targets: when every target's pagoda sum fell below its
value at the target, no target is reachable); the dead table; in mode 1 the admissible lower
bound of :meth:`powertwo.solvers.jump_search.ReverseSearch.lower_bound` adapted to the chain in
progress (stones on unjumpable nodes each start a move unless one of them is the last jumper
or stays as the last stone; full Merson regions clear of those need a move each), the
transposition table, and the leaf tests: with no fresh move left, the last jumper alone must be
able to jump over every other stone (:func:`_alone`); with one left, the last jumper and one other
stone together (:func:`_last_movers`); with two left and the chain ended, two stones
(:func:`_first_movers`, which ones may move first; these two not where the backward perimeter
answers exactly). They test by reach (where a jumper can go) and by parity: a chain is
a trail, so the jumps that clear the board, one across each stone where it stands, sum over GF(2)
to the chains' ends plus the jumps that remove the movers -- on the positions of the Power of Two
board that refutes nearly every state the reach test lets by (seed 1's 4-move refutation: 46
million states before, 1.6 million after). Symmetric positions share
entries only under the symmetries that map the target set onto itself.

The depth-first search keeps its stack in arrays, so it runs in slices of a fixed number of
positions and resumes where it stopped: the driver (:class:`KernelSearch`) checks the time,
reports progress and grows the hash tables between slices. The tables are open-addressing
arrays of a power-of-two size that doubles while the load passes one half, up to the memory
option; a full table overwrites an entry (both tables are caches: a lost entry costs time,
never correctness).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Iterable, Sequence

import numpy as np
from numba import njit

from powertwo.boards import Board, NodeId

from .jump_search import (
    PERIMETER_STONES, JumpTables, TargetSetup, mask_of, merson_regions, nodes_of, popcount, target_setup,
)

Progress = Callable[[str], None]

FOUND, EXHAUSTED, PAUSED, HALTED = 1, 0, 2, 3
SLICE = 1 << 21
"""Positions per walk's turn (0.3 s on the English board; 5-15 s on hard Power of Two positions,
where the parity tests make a position dear: so a turn is cut into ticks)."""
REHASH_SECONDS = 100e-9
"""A table's growth, foreseen: seconds per slot of the old table, at least (the last growth's, if
slower). Measured here 80-90 ns from 4 to 64 million slots."""
ORDER_MOVES = 2
"""A budgeted walk's first fresh moves whose movers are tried in order of promise
(:func:`_order_movers`) instead of node order, in the walk that goes from the lowest node up (the
one walk of one thread; with two threads the second keeps node order, from the highest node down,
so the two differ more). The few states near the root decide where a budget that holds a finish
finds it: seed 104's 6-move finish (one thread, after 5 refuted) after 10.8 instead of 31.6 million
positions, seed 1's optimum of 5 (the results job) after 8.2 instead of 22.1 million, seed 3's
after 22.9 instead of 16.2; deeper down, where the states are many, node order costs nothing."""
TICK = 0.25
"""Seconds of compiled work between two looks at the clock, Ctrl-C and the progress line: a timer
sets the walks' ``halt`` flag, they pause (:data:`HALTED`) and go on with the rest of their turn."""
DEFAULT_MEMORY_MB = 4096
"""Cap of both hash tables together; they start small and double while needed."""
MIN_SLOTS = 1 << 16
ANY_SHARE = 0.25
"""Share of a time or position limit for the first search for any finish (feasibility). When it
ends without one, the deepening goes on from the admissible bound: it finds finishes too (and the
first one it finds is optimal), so a finish the plain search misses in its share is not lost."""
FIRST_STEP = 3
"""Before the search for any finish, a search within the admissible bound plus this many moves, then
plus twice as many (each capped by :data:`FIRST_NODES`, both within half the share of a time limit
that the search for any finish has): an answer a user can use comes early, and within a few moves
of the optimum (on the Power of Two board the plain search for any finish returns 7-26 moves where
2-5 are needed)."""
FIRST_NODES = 250_000
"""Positions each of those first searches may visit (about 0.1-0.3 s) before the next one."""
UPPER_SHARE = 0.12
"""Share of a time or position limit that the beam and branch and bound (upper bounds) may spend
together before the deepening, counted from the start of the run. 0.25 until the portfolio of
symmetric walks made the deepening's finishes come sooner; the 60 s table with 0.12 (2026-11-26):
26 of 28 as with 0.25, the slowest optimal one 51.2 s instead of 57.7 s (seed 116: 42.9 s), seed
117's best answer at the limit 8 moves instead of 7."""
BEAM_SHARE = 0.1
"""Share of a time or position limit for the beam search (upper bounds), run before branch and bound."""
BEAM_WIDTH = 10
"""Positions the beam keeps per move."""
BEAM_PROBE = 200_000
"""Positions of each probe of the beam (a search for any finish, then one for a shorter finish)."""
STALL_NODES = 15_000_000
"""Branch and bound (run when a time or position limit is given) ends after this many positions
without a better answer; without a limit, a deepening step that has not refuted its budget after
this many positions ends the run: it reports ``feasible`` with the bound proven so far instead of
running on for hours. About 2 s on the English board (its 17-move refutation takes 6.3 million),
30-100 s on hard Power of Two positions, where the parity tests make a position dear."""
KERNEL_LOADING = "loading the search kernel (first run: compiling, about 10 s)"
"""The progress message of a search's set-up while the kernel is not yet loaded in this process
(numba loads it from its cache, or compiles it on the first run on a machine: about 10 s)."""
DEFAULT_PERIMETER = 3_000_000
"""Positions of the backward perimeter (built for at most 4 target nodes and 20 or more stones)."""
PROBES = 8
TT_BYTES = 16   # uint64 key, uint64 entry: 48-bit check of the key, last node + 1, budget (see _tt_entry)
DEAD_BYTES = 8
_HASH = np.uint64(0x9E3779B97F4A7C15)
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U8 = np.uint64(8)
_U255 = np.uint64(255)


# ----------------------------------------------------------------------------- kernel
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
def _tt_put(tk: np.ndarray, td: np.ndarray, key: np.uint64, last: int, val: int, stats: np.ndarray) -> None:
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
            stats[1] += 1
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
def _dead_put(dk: np.ndarray, key: np.uint64, stats: np.ndarray) -> None:
    mask = dk.shape[0] - 1
    i = _slot(key, -1, mask)
    first = i
    for _ in range(PROBES):
        k = dk[i]
        if k == key:
            return
        if k == _U0:
            dk[i] = key
            stats[2] += 1
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
def _rehash_tt(tk: np.ndarray, td: np.ndarray, nk: np.ndarray, nd: np.ndarray, stats: np.ndarray) -> None:
    stats[1] = 0
    for i in range(tk.shape[0]):
        e = td[i]
        if tk[i] != _U0 and e & ~_U255 == _tt_entry(tk[i], int((e >> _U8) & _U255) - 1, 0):
            _tt_put(nk, nd, tk[i], int((e >> _U8) & _U255) - 1, int(e & _U255), stats)


@njit(cache=True)
def _rehash_dead(dk: np.ndarray, nk: np.ndarray, stats: np.ndarray) -> None:
    stats[2] = 0
    for i in range(dk.shape[0]):
        if dk[i] != _U0:
            _dead_put(nk, dk[i], stats)


@njit(cache=True)
def _lower_bound(pos: np.uint64, last: int, live: np.uint64, unj: np.uint64, regions: np.ndarray) -> int:
    u = pos & unj
    k = _popcount(u)
    used = u
    if last >= 0:
        lb = _U1 << np.uint64(last)
        used |= lb
        if u & lb:
            k -= 1
            u &= ~lb
    if u & live:
        k -= 1
    for r in range(regions.shape[0]):
        reg = regions[r]
        if pos & reg == reg and not used & reg:
            k += 1
            used |= reg
    if last < 0 and k < 1:
        k = 1
    return k


@njit(cache=True)
def _reach(j: int, over: np.uint64, jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray) -> np.uint64:
    """The nodes a stone on ``j`` may reach by jumps over nodes of ``over``, landings ignored: a
    superset of where it can stand while no stone outside ``over`` arrives (stones only leave)."""
    reach = _U1 << np.uint64(j)
    frontier = reach
    while frontier:
        x = _low_index(frontier)
        frontier &= frontier - _U1
        step = _U0
        for k in range(jstart[x], jstart[x + 1]):   # without branches: a jump's landing, masked by its over
            step |= (_U1 << np.uint64(jto[k])) & (_U0 - ((over >> np.uint64(jover[k])) & _U1))
        step &= ~reach
        reach |= step
        frontier |= step
    return reach


@njit(cache=True)
def _reduce(v: np.uint64, piv: np.ndarray, pivots: np.uint64) -> np.uint64:
    """``v`` modulo the span of the basis ``piv`` (GF(2); ``piv[p]`` for each bit ``p`` of ``pivots``
    holds pivot ``p`` and no other pivot): equal results mean equal cosets."""
    x = v & pivots
    while x:
        p = _low_index(x)
        x &= x - _U1
        v ^= piv[p]
    return v


@njit(cache=True)
def _insert(v: np.uint64, piv: np.ndarray, pivots: np.uint64) -> np.uint64:
    """Adds ``v`` to the basis, keeping it fully reduced; returns the new pivots."""
    v = _reduce(v, piv, pivots)
    if v == _U0:
        return pivots
    p = _high_index(v)
    bit = _U1 << np.uint64(p)
    x = pivots
    while x:
        q = _low_index(x)
        x &= x - _U1
        if piv[q] & bit:
            piv[q] ^= v
    piv[p] = v
    return pivots | bit


@njit(cache=True)
def _first_line(b: int, area: np.uint64, ostart: np.ndarray, ovec: np.ndarray) -> np.uint64:
    """The first line across ``b`` (``ovec``: its two neighbours' bits) with both ends in ``area``; 0: none."""
    for i in range(ostart[b], ostart[b + 1]):
        if ovec[i] & area == ovec[i]:
            return ovec[i]
    return _U0


@njit(cache=True)
def _trail_system(stones: np.uint64, area: np.uint64, ostart: np.ndarray, ovec: np.ndarray, piv: np.ndarray,
                  most_bare: int) -> tuple[np.uint64, np.uint64, np.uint64]:
    """The parity system of jumping every stone of ``stones`` once by jumps inside ``area``: returns
    ``(c, pivots, bare)``, ``c`` the sum (GF(2), over nodes) of each stone's first line inside
    ``area`` (the jump's two ends), ``piv``/``pivots`` a basis of the differences to its other
    lines, ``bare`` the stones with no such line. The jumps that clear them, one per stone, sum to a
    vector of ``c`` + the span. Stops early when more than ``most_bare`` stones are bare."""
    c = _U0
    pivots = _U0
    bare = _U0
    nbare = 0
    rest = stones
    while rest:
        b = _low_index(rest)
        rest &= rest - _U1
        first = _U0
        for i in range(ostart[b], ostart[b + 1]):
            v = ovec[i]
            if v & area == v:
                if first == _U0:
                    first = v
                    c ^= v
                else:
                    pivots = _insert(v ^ first, piv, pivots)
        if first == _U0:
            bare |= _U1 << np.uint64(b)
            nbare += 1
            if nbare > most_bare:
                break
    return c, pivots, bare


@njit(cache=True)
def _ends_at(t: np.uint64, ends: np.uint64, piv: np.ndarray, pivots: np.uint64) -> bool:
    """Is some node ``w`` of ``ends`` in the coset ``t`` (already reduced): ``_reduce(e_w) == t``?"""
    if t != _U0 and t & (t - _U1) == _U0 and t & ends:
        return True     # a reduced single bit is not a pivot: it is its own coset's node
    x = pivots & ends
    while x:
        w = _low_index(x)
        x &= x - _U1
        if piv[w] ^ (_U1 << np.uint64(w)) == t:
            return True
    return False


@njit(cache=True)
def _end_cosets(ends: np.uint64, piv: np.ndarray, pivots: np.uint64, out: np.ndarray) -> int:
    """The cosets of ``e_w`` for the nodes ``w`` of ``ends`` into ``out``, in a row; returns how many."""
    n = 0
    while ends:
        w = _low_index(ends)
        ends &= ends - _U1
        out[n] = _reduce(_U1 << np.uint64(w), piv, pivots)
        n += 1
    return n


@njit(cache=True)
def _hash_slot(table: np.ndarray, key: np.uint64) -> np.int64:
    """Where the nonzero ``key`` stands in the open-addressing set ``table`` (a power-of-two size,
    0 = empty), or the empty slot where it would go."""
    mask = table.shape[0] - 1
    i = np.int64((key * _HASH) >> np.uint64(40)) & mask
    while table[i] != _U0 and table[i] != key:
        i = (i + 1) & mask
    return i


WIDE_FILTER_BITS = 21
"""The filter of :func:`_no_bare_finish`: 2^21 bits (256 KB, two bits a sum; cleared whole after
each test, cheaper than finding the set bits again)."""
WIDE_MOST = (1 << WIDE_FILTER_BITS) // 16
"""More sums than this (a bit in eight set): the test allows every first mover without looking."""
PAIR_FILTER_BITS = 19
"""The filter of :func:`_one_bare_finish` (some 3,300 sums of two removals): 2^19 bits, inside the wide
filter's place (the two tests never run at once)."""
SIDE_SET = 1 << 14
"""Slots of the exact set of the J3 sides of :func:`_no_bare_finish` (at most 1 + 64 + 2016 sums)."""

REACH, PARITY = 1, 2
"""The leaf tests (:func:`_alone`, :func:`_last_movers`): by reach, by parity; the kernel runs both."""


@njit(cache=True)
def _table_sizes(lines: int) -> tuple[int, int]:
    """The sizes of the parity tests' hash sets for a board with ``lines`` lines across nodes: the
    removals of the last jumper (:func:`_last_movers`), the first moves (:func:`_first_movers`)."""
    small = 16
    while small < 2 * lines:
        small *= 2
    big = 16
    while big < 128 * lines:
        big *= 2
    return small, big


def scratch_for(ovec: np.ndarray) -> np.ndarray:
    """The work space of the parity tests for a board whose lines across nodes are ``ovec``: a basis
    (64), the cosets of the ends (64), the small hash set of :func:`_table_sizes`, a coset per line,
    the big hash set with its masks and its used slots, two lists of reach groups (64 each), a filter
    of 65536 bits (:func:`_first_of_three`), and the wide filter and the side set of
    :func:`_no_bare_finish`."""
    small, big = _table_sizes(ovec.shape[0])
    return np.zeros(128 + small + ovec.shape[0] + 3 * big + 128 + 1024 + (1 << WIDE_FILTER_BITS) // 64 + SIDE_SET,
                    dtype=np.uint64)


@njit(cache=True)
def _alone(pos: np.uint64, j: int, targets: np.uint64, jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray,
           ends: np.ndarray, ostart: np.ndarray, ovec: np.ndarray, scratch: np.ndarray, tests: int) -> bool:
    """Can the stone on ``j`` alone still jump over every other stone, ending on a target (necessary
    conditions)? By reach: the nodes it can reach are at most those reached by jumps over stones
    standing now (stones only leave); every other stone needs a jump over it from such a node, and
    the jumper must be able to end on a target. By parity (see :func:`_last_movers`): its jumps,
    one across each other stone inside that reach, must sum to ``e_j + e_end``."""
    reach = _reach(j, pos, jstart, jover, jto)
    if not reach & targets:
        return False
    jb = _U1 << np.uint64(j)
    if tests & REACH:
        rest = pos & ~jb
        while rest:
            b = _low_index(rest)
            rest &= rest - _U1
            if not ends[b] & reach:
                return False
    return not tests & PARITY or _alone_by_parity(pos, j, reach, targets, ostart, ovec, scratch[:64]) == 1


@njit(cache=True)
def _alone_by_parity(pos: np.uint64, j: int, reach: np.uint64, targets: np.uint64, ostart: np.ndarray,
                     ovec: np.ndarray, piv: np.ndarray) -> int:
    """1 when the jumps of the stone on ``j`` (reach ``reach``), one across each other stone, may sum
    to ``e_j + e_end`` with the end on a target (see :func:`_last_movers`), else 0."""
    jb = _U1 << np.uint64(j)
    c, pivots, bare = _trail_system(pos & ~jb, reach, ostart, ovec, piv, 0)
    return 1 if bare == _U0 and _ends_at(_reduce(c ^ jb, piv, pivots), reach & targets, piv, pivots) else 0


@njit(cache=True)
def _last_movers(pos: np.uint64, last: int, targets: np.uint64, jstart: np.ndarray, jover: np.ndarray,
                 jto: np.ndarray, ends: np.ndarray, ostart: np.ndarray, ovec: np.ndarray, scratch: np.ndarray,
                 tests: int) -> np.uint64:
    """With one fresh move left (budget 1), which stones may make it (necessary conditions; none: the
    position is refuted)? ``last >= 0``: the chain of the stone on ``last`` goes on, then one other
    stone ``J`` moves and ends as the last stone; ``last < 0``: one stone ``J`` clears the rest.
    Returns the mask of the stones that may be ``J``, or every node when the chain of ``last`` may
    clear the board alone.

    **By reach.** The stones the chain of ``last`` cannot jump over (no jump over them starts in its
    reach) are *left to J*: J's reach, over the stones and wherever ``last`` may stand, must hold a
    start of a jump over each of them but J itself, a start of a jump over a node where ``last``
    may end, and a target. A stone inside another's reach has a reach inside it, so one reach per
    group of stones decides: a failed group has no J; a group missing one stone left to J allows
    only that stone.

    **By parity.** A chain is a trail: summed over GF(2), the vectors ``e_a + e_c`` of its jumps
    ``(a, b, c)`` give ``e_start + e_end``. Clearing the board, every stone but the movers is jumped
    once where it stands, across one of its lines, by a jumper whose reach holds both ends; so those
    jumps sum to a vector of ``c + span`` (:func:`_trail_system`), and the trails' ends fix it:
    ``e_last + e_u`` when the chain of ``last`` clears alone (ending on ``u``, a target); ``e_J +
    e_w`` when ``J`` clears alone (``last < 0``); ``e_last + e_u + e_J + e_w + e_a + e_c`` when the
    chain of ``last`` ends on ``u`` and ``J`` then clears the rest, jumping ``last`` on ``u`` from
    ``a`` to ``c`` and ending on ``w`` (a target). A chain's ends fix all but a few parities, so on
    the positions the search meets this test refutes nearly every state the reach test lets by.
    ``tests``: REACH, PARITY or both."""
    piv = scratch[:64]
    end_cosets = scratch[64:128]
    removals = scratch[128:128 + _table_sizes(ovec.shape[0])[0]]
    by_reach = tests & REACH != 0
    by_parity = tests & PARITY != 0
    if last >= 0:
        lb = _U1 << np.uint64(last)
        rl = _reach(last, pos, jstart, jover, jto)
        left = _U0      # stones the chain of last cannot jump over
        if by_reach:
            rest = pos & ~lb
            while rest:
                b = _low_index(rest)
                rest &= rest - _U1
                if not ends[b] & rl:
                    left |= _U1 << np.uint64(b)
        alone = -1      # may the chain of last clear the board alone by parity (-1: not yet known)?
        if not by_parity:
            alone = 1
        elif left == _U0:
            alone = _alone_by_parity(pos, last, rl, targets, ostart, ovec, piv)
        if left == _U0 and alone == 1:
            return ~_U0
        over = pos | rl
        last_ends = _U0   # nodes from which a jump over a node where ``last`` may end starts
        rest = rl
        while rest:
            b = _low_index(rest)
            rest &= rest - _U1
            last_ends |= ends[b]
    else:
        lb = _U0
        rl = _U0
        left = pos if by_reach else _U0
        alone = 0 if by_parity else 1
        over = pos
        last_ends = ~_U0
    stones = pos & ~lb
    seen = _U0
    movers = _U0
    while stones & ~seen:
        reach = _reach(_low_index(stones & ~seen), over, jstart, jover, jto)
        seen |= reach
        if not reach & targets:
            continue
        cand = reach & stones
        if left != _U0:   # the reach test
            if not reach & last_ends:
                continue
            missed = _U0   # stones left to J that no jump from its reach passes over: J itself at most
            rest = left
            while rest:
                b = _low_index(rest)
                rest &= rest - _U1
                if not ends[b] & reach:
                    if missed:
                        missed = ~_U0
                        break
                    missed = _U1 << np.uint64(b)
            if missed == ~_U0:
                continue
            if missed:
                cand &= missed
        if cand == _U0:
            continue
        if alone < 0:   # known only now that some stone passed the reach test
            alone = _alone_by_parity(pos, last, rl, targets, ostart, ovec, piv)
        if alone == 1:
            movers |= cand
            continue
        # the parity test, for the stones of cand
        area = rl | reach
        c, pivots, bare = _trail_system(stones, area, ostart, ovec, piv, 1)
        if bare & (bare - _U1):
            continue    # two stones no jump inside the reaches passes over: neither is J
        if bare:
            cand &= bare
        n_ends = _end_cosets(reach & targets, piv, pivots, end_cosets)
        removal_zero = False
        if last >= 0:
            # last's end u and the jump (a, u, c) by which J removes it, a and c in J's reach
            removals[:] = _U0
            rest = rl
            while rest:
                u = _low_index(rest)
                rest &= rest - _U1
                for i in range(ostart[u], ostart[u + 1]):
                    if ovec[i] & reach == ovec[i]:
                        q = _reduce(ovec[i] ^ (_U1 << np.uint64(u)), piv, pivots)
                        if q == _U0:
                            removal_zero = True
                        else:
                            removals[_hash_slot(removals, q)] = q
        while cand:
            j = _low_index(cand)
            cand &= cand - _U1
            jb = _U1 << np.uint64(j)
            t = _reduce(c ^ _first_line(j, area, ostart, ovec) ^ lb ^ jb, piv, pivots)
            for e in range(n_ends):
                y = t ^ end_cosets[e]    # last < 0: 0; else the coset of the removal of last
                if y == _U0:
                    found = last < 0 or removal_zero
                else:
                    found = last >= 0 and removals[_hash_slot(removals, y)] == y
                if found:
                    movers |= jb
                    break
    return movers


@njit(cache=True)
def _can_jump(pos: np.uint64, j: int, jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray) -> bool:
    """Has the stone on ``j`` a jump?"""
    for k in range(jstart[j], jstart[j + 1]):
        if (pos >> np.uint64(jover[k])) & _U1 and not (pos >> np.uint64(jto[k])) & _U1:
            return True
    return False


@njit(cache=True)
def _movable(pos: np.uint64, jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray) -> np.uint64:
    """The stones of ``pos`` that have a jump."""
    movable = _U0
    rest = pos
    while rest:
        j = _low_index(rest)
        rest &= rest - _U1
        if _can_jump(pos, j, jstart, jover, jto):
            movable |= _U1 << np.uint64(j)
    return movable


@njit(cache=True)
def _removal_cosets(nodes: np.uint64, pos: np.uint64, area: np.uint64, ostart: np.ndarray, ovec: np.ndarray,
                    piv: np.ndarray, pivots: np.uint64, out: np.ndarray) -> int:
    """The cosets of the removals of a mover on the nodes ``nodes`` (``e_u`` + a line across ``u``
    inside ``area``) into ``out``; returns how many. The lines across a stone of ``pos`` differ by
    the span, so a stone's node has one."""
    m = 0
    while nodes:
        u = _low_index(nodes)
        nodes &= nodes - _U1
        ub = _U1 << np.uint64(u)
        for i in range(ostart[u], ostart[u + 1]):
            if ovec[i] & area == ovec[i]:
                out[m] = _reduce(ovec[i] ^ ub, piv, pivots)
                m += 1
                if pos & ub:
                    break
    return m


@njit(cache=True)
def _groups(stones: np.uint64, over: np.uint64, jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray,
            out: np.ndarray) -> tuple[int, np.uint64]:
    """The reaches over ``over`` of the groups of ``stones`` (one reach per group: a stone inside
    another's reach has the same one), into ``out``; returns how many and their union."""
    count = 0
    union = _U0
    while stones & ~union:
        r = _reach(_low_index(stones & ~union), over, jstart, jover, jto)
        out[count] = r
        count += 1
        union |= r
    return count, union


@njit(cache=True)
def _first_movers(pos: np.uint64, targets: np.uint64, jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray,
                  ostart: np.ndarray, ovec: np.ndarray, scratch: np.ndarray) -> np.uint64:
    """With two fresh moves left and no chain in progress, which stones may make the first (J1, then
    J2 clears the rest; necessary conditions by parity, see :func:`_last_movers`)? None: refuted.

    The stones but J1 and J2 are jumped where they stand, J1 is removed on the end ``u`` of its
    trail by a jump ``(a, u, c)`` of J2, and J2 ends on ``w``; summed over GF(2) the stones' jumps
    (lines ``e_a + e_c``) give ``e_J1 + e_u + e_a + e_c + e_J2 + e_w``. J1 moves now, so it has a
    jump and ``u`` lies in its reach over the stones; J2's reach and the stones' jumps are taken in
    one common area, every node a stone can reach while the other mover stands anywhere it can (a
    relaxation: cheaper than one test per pair of movers, and on the positions the search meets as
    strong). Meet in the middle: the J1 side (``e_J1`` + its first line + the removal) goes into a
    hash set keyed by coset, with the mask of the J1s; each J2 side is looked up in it. A J1 that
    may clear the board alone (two moves of one stone are one trail) stays too."""
    small, big = _table_sizes(ovec.shape[0])
    piv = scratch[:64]
    end = scratch[64:128]     # the cosets of e_w for the targets w of one wide group
    removal = scratch[128 + small:128 + small + ovec.shape[0]]    # a group's cosets of e_u + a line across u
    o = 128 + small + ovec.shape[0]
    keys = scratch[o:o + big]
    masks = scratch[o + big:o + 2 * big]
    used = scratch[o + 2 * big:o + 3 * big]
    home = scratch[o + 3 * big:o + 3 * big + 64]          # the groups' reaches over the stones
    wide = scratch[o + 3 * big + 64:o + 3 * big + 128]    # ... and over the stones and all they reach
    n_home, reached = _groups(pos, pos, jstart, jover, jto, home)
    over = pos | reached
    n_wide, area = _groups(pos, over, jstart, jover, jto, wide)   # wherever the other mover may stand
    c, pivots, bare = _trail_system(pos, area, ostart, ovec, piv, 2)
    nbare = _popcount(bare)
    if nbare > 2:
        return _U0    # stones no jump inside the area passes over must move: at most J1 and J2
    # the J1 side
    movers = _U0
    nused = 0
    rc = _reduce(c, piv, pivots)
    zero = _U0        # the J1s whose side is the coset 0
    movable = _movable(pos, jstart, jover, jto)
    for g in range(n_home):
        r = home[g]
        group = movable & r
        if group == _U0:
            continue
        m = _removal_cosets(r, pos, area, ostart, ovec, piv, pivots, removal)   # once per group
        while group:
            j = _low_index(group)
            group &= group - _U1
            jb = _U1 << np.uint64(j)
            side = _reduce(_first_line(j, area, ostart, ovec) ^ jb, piv, pivots)
            if bare & ~jb == _U0 and _ends_at(rc ^ side, r & targets, piv, pivots):
                movers |= jb     # it may clear the board alone (its second move goes on from its first)
            for x in range(m):
                key = side ^ removal[x]
                if key == _U0:
                    zero |= jb
                    continue
                # written out, here and in _first_of_three: a helper called per key made this test
                # 35% slower (numba counts the references to the arrays passed, inlined or not)
                slot = _hash_slot(keys, key)
                if keys[slot] == _U0:
                    keys[slot] = key
                    used[nused] = slot
                    nused += 1
                masks[slot] |= jb
    # the J2 side
    for g in range(n_wide):
        r = wide[g]
        n_ends = _end_cosets(r & targets, piv, pivots, end)
        group = pos & r
        while group:
            j2 = _low_index(group)
            group &= group - _U1
            b2 = _U1 << np.uint64(j2)
            allowed = ~b2
            if nbare == 2:
                allowed &= bare if bare & b2 else _U0
            elif nbare == 1 and not bare & b2:
                allowed &= bare
            if allowed & ~movers == _U0:
                continue
            side = _reduce(c ^ _first_line(j2, area, ostart, ovec) ^ b2, piv, pivots)
            for e in range(n_ends):
                key = side ^ end[e]
                if key == _U0:
                    movers |= zero & allowed
                else:
                    slot = _hash_slot(keys, key)
                    if keys[slot] == key:
                        movers |= masks[slot] & allowed
    for i in range(nused):
        keys[used[i]] = _U0
        masks[used[i]] = _U0
    return movers


@njit(cache=True)
def _filter_bit(key: np.uint64) -> np.uint64:
    """Where ``key`` stands in a filter of 65,536 bits (the top bits of its product with a constant)."""
    return (key * _HASH) >> np.uint64(48)


@njit(cache=True)
def _shifted_set(table: np.ndarray, used: np.ndarray, k: np.uint64, values: np.ndarray, count: int,
                 seen: np.ndarray) -> tuple[int, bool]:
    """Puts ``k ^ values[i]`` (``i < count``) into the open-addressing set ``table`` (0 marks an
    empty slot; ``used``: where to note the slots it fills) and, with a filter ``seen`` (size > 0),
    their bits into it. Returns how many slots it filled and whether some ``k ^ values[i]`` is 0
    (kept out)."""
    nused = 0
    zero = False
    for i in range(count):
        key = k ^ values[i]
        if key == _U0:
            zero = True
            continue
        slot = _hash_slot(table, key)
        if table[slot] == _U0:
            table[slot] = key
            used[nused] = slot
            nused += 1
            if seen.shape[0]:
                h = _filter_bit(key)
                seen[h >> np.uint64(6)] |= _U1 << (h & np.uint64(63))
    return nused, zero


@njit(cache=True)
def _empty_set(table: np.ndarray, used: np.ndarray, nused: int, seen: np.ndarray) -> None:
    """Empties the ``nused`` slots ``used`` of ``table`` and, with a filter ``seen`` (size > 0),
    its bits for their keys."""
    for i in range(nused):
        if seen.shape[0]:
            h = _filter_bit(table[used[i]])
            seen[h >> np.uint64(6)] = _U0
        table[used[i]] = _U0


@njit(cache=True)
def _two_bits(key: np.uint64, bits: int) -> tuple[np.uint64, np.uint64]:
    """The two bits of ``key`` in a filter of 2^``bits`` bits (:func:`_one_bare_finish`,
    :func:`_no_bare_finish`): two slices of its product with a constant."""
    h = key * _HASH
    return h >> np.uint64(64 - bits), (h >> np.uint64(64 - 2 * bits)) & np.uint64((1 << bits) - 1)


@njit(cache=True)
def _one_bare_finish(k: np.uint64, removal: np.ndarray, m: int, end: np.ndarray, n_ends: int, sides: np.ndarray,
                     n: int, keys: np.ndarray, used: np.ndarray, pairs: np.ndarray) -> tuple[bool, np.uint64]:
    """May one bare stone ``b`` (``k``: ``c`` + ``e_b``), alone or with one or two other movers
    ``X``, ``Y`` (``sides[:n]``: ``e_X`` + its line, each stone's), clear the board within three
    moves, by parity (see :func:`_first_of_three`), and with which others? Is ``k`` an end
    (``end[:n_ends]``), or ``k`` + a removal (``removal[:m]``) + a side + an end zero, or ``k`` + two
    removals (one twice allowed) + two sides + an end? Returns whether some choice fits and the
    sides (bit ``a`` for ``sides[a]``) of every fitting choice: the first mover is ``b`` or one of
    them. The sums of ``k`` and a removal go into a hash set, the sums of ``k`` and two removals set
    two bits each in the filter ``pairs`` (:data:`PAIR_FILTER_BITS`; left empty); the sums of sides
    and an end are looked up, and a key with both bits set is checked exactly (is ``key + k`` + a
    removal a removal?). The filter took 31 us a state on seed 116's, an exact hash set of the
    pairs behind a filter of 65,536 bits 47 (2026-11-26)."""
    found = False
    for e in range(n_ends):
        if end[e] == k:
            found = True     # b alone
            break
    # b and X: k + a removal against X + an end
    size = 16
    while size < 4 * m:     # at most a quarter full (``keys`` holds 128 slots a line)
        size *= 2
    table = keys[:size]
    nused, zero = _shifted_set(table, used, k, removal, m, pairs[:0])
    which = _U0
    for a in range(n):
        for e in range(n_ends):
            v = sides[a] ^ end[e]
            if v == _U0 and zero or v != _U0 and table[_hash_slot(table, v)] == v:
                which |= _U1 << np.uint64(a)
                break
    _empty_set(table, used, nused, pairs[:0])
    # b, X and Y: k + two removals (one coset twice: they cancel) against X + Y + an end
    for i in range(m):
        ki = k ^ removal[i]
        for j in range(i, m):
            f, g = _two_bits(ki ^ removal[j], PAIR_FILTER_BITS)
            pairs[f >> np.uint64(6)] |= _U1 << (f & np.uint64(63))
            pairs[g >> np.uint64(6)] |= _U1 << (g & np.uint64(63))
    zero = False     # the removals, exactly (``table`` is empty again)
    for i in range(m):
        if removal[i] == _U0:
            zero = True
        else:
            table[_hash_slot(table, removal[i])] = removal[i]
    for a in range(n):
        for b in range(a + 1, n):
            ab = (_U1 << np.uint64(a)) | (_U1 << np.uint64(b))
            if which & ab == ab:
                continue     # both known to fit already
            xy = sides[a] ^ sides[b]
            fits = False
            for e in range(n_ends):
                v = xy ^ end[e]
                f, g = _two_bits(v, PAIR_FILTER_BITS)
                if not pairs[f >> np.uint64(6)] >> (f & np.uint64(63)) & _U1:
                    continue
                if not pairs[g >> np.uint64(6)] >> (g & np.uint64(63)) & _U1:
                    continue
                t = v ^ k          # is it r_i + r_j for some i <= j?
                for i in range(m):
                    w = t ^ removal[i]
                    if w == _U0 and zero or w != _U0 and table[_hash_slot(table, w)] == w:
                        fits = True
                        break
                if fits:
                    break
            if fits:
                which |= ab
    pairs[:] = _U0
    table[:] = _U0
    return found or which != _U0, which


@njit(cache=True)
def _area_of_three(pos: np.uint64, jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray,
                   work: np.ndarray) -> np.uint64:
    """The area of three (:func:`_first_of_three`); ``work``: 64 words."""
    _, reached = _groups(pos, pos, jstart, jover, jto, work)           # where J1 may stand
    _, area = _groups(pos, pos | reached, jstart, jover, jto, work)    # ... J2
    _, area = _groups(pos, pos | area, jstart, jover, jto, work)       # ... J3
    return area


@njit(cache=True)
def _no_bare_finish(pos: np.uint64, c: np.uint64, area: np.uint64, movable: np.uint64, targets: np.uint64,
                    jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray, ostart: np.ndarray, ovec: np.ndarray,
                    piv: np.ndarray, pivots: np.uint64, scratch: np.ndarray) -> np.uint64:
    """Which stones may make the first of three moves that clear the board when no stone is bare
    (every stone has a line inside the area of three), by parity (see :func:`_first_of_three`)?
    None: refuted. The movers are unknown: J1 (a stone
    with a jump), removed on a node ``u`` of its reach over the stones by a line across ``u``
    (``r_a``, its *tied* removal), J2 removed anywhere in the area (``r_b``), J3 ending on a target
    ``w``: ``c + p_J1 + r_a + r_b + p_J2 + p_J3 + e_w = 0`` (``p_X``: ``e_X`` + X's line). Fewer movers
    drop terms: two (J1 and X, one of them removed anywhere) ``c + p_J1 + r + p_X + e_w``, one
    ``c + p_J1 + e_w``; so each removal may be 0, and the other movers two, one or none.

    The sums ``e_w + S`` (``S`` = ``p_X + p_Y``, ``p_X`` or 0; some 16,000) set two bits each in
    the wide filter, the sums ``c + p_J1 + r_a + r_b`` (some 30,000) are looked up in it; a key
    with both bits set is checked exactly: is ``key + e_w`` one of the ``S`` (a small hash set of
    some 250) for some end? About 50-70 us a state, against some 90 positions of search it spares
    on average (the moves of J1, each chain prefix tested by :func:`_first_movers`); an exact hash
    set of the 16,000 sums, as before, took 165-256 us (2026-11-26). The keys are looked up J1 by
    J1, and the J1s with a fit are the answer: on seed 117's states that pass, 202 of the 835
    stones that can jump (until then a fit let every stone move first, and each of their chains
    cost a two-move test). More than :data:`WIDE_MOST` sums: every stone that can jump, without
    looking. ``scratch`` as in :func:`_first_of_three`."""
    small, big = _table_sizes(ovec.shape[0])
    end = scratch[64:128]
    tied = scratch[128:128 + small]
    removal = scratch[128 + small:128 + small + ovec.shape[0]]
    o = 128 + small + ovec.shape[0]
    sides = scratch[o + 2 * big:o + 2 * big + 64]     # (used slots of the big set)
    home = scratch[o + 3 * big:o + 3 * big + 64]
    w0 = o + 3 * big + 1152
    wide = scratch[w0:w0 + (1 << WIDE_FILTER_BITS) // 64]
    w1 = w0 + (1 << WIDE_FILTER_BITS) // 64
    n_ends = _end_cosets(targets & area, piv, pivots, end)
    n = 0
    rest = pos
    while rest:
        x = _low_index(rest)
        rest &= rest - _U1
        sides[n] = _reduce(_first_line(x, area, ostart, ovec) ^ (_U1 << np.uint64(x)), piv, pivots)
        n += 1
    n_side = 1 + n + n * (n - 1) // 2
    if n_side * n_ends > WIDE_MOST:
        return movable
    size = 64
    while size < 4 * n_side:
        size *= 2
    side_set = scratch[w1:w1 + size]      # the S but 0 (0 is always one)
    # the J3 side: e_w + S into the filter
    for e in range(n_ends):
        f, g = _two_bits(end[e], WIDE_FILTER_BITS)
        wide[f >> np.uint64(6)] |= _U1 << (f & np.uint64(63))
        wide[g >> np.uint64(6)] |= _U1 << (g & np.uint64(63))
    for i in range(n):
        for j in range(i, n):
            side = sides[i] if j == i else sides[i] ^ sides[j]
            if side != _U0:
                side_set[_hash_slot(side_set, side)] = side
            for e in range(n_ends):
                f, g = _two_bits(side ^ end[e], WIDE_FILTER_BITS)
                wide[f >> np.uint64(6)] |= _U1 << (f & np.uint64(63))
                wide[g >> np.uint64(6)] |= _U1 << (g & np.uint64(63))
    # the J1 side: c + p_J1 + r_a (tied, or none), then + r_b (anywhere, or none), J1 by J1
    m = _removal_cosets(area, pos, area, ostart, ovec, piv, pivots, removal)
    movers = _U0
    n_home, _ = _groups(pos, pos, jstart, jover, jto, home)
    for h in range(n_home):
        r = home[h]
        group = movable & r
        if group == _U0:
            continue
        mt = _removal_cosets(r, pos, area, ostart, ovec, piv, pivots, tied)
        while group:
            j1 = _low_index(group)
            group &= group - _U1
            base = c ^ _reduce(_first_line(j1, area, ostart, ovec) ^ (_U1 << np.uint64(j1)), piv, pivots)
            found = False
            for a in range(-1, mt):
                for b in range(-1, m):
                    key = base if a < 0 else base ^ tied[a]
                    if b >= 0:
                        key ^= removal[b]
                    f, g = _two_bits(key, WIDE_FILTER_BITS)
                    if not wide[f >> np.uint64(6)] >> (f & np.uint64(63)) & _U1:
                        continue
                    if not wide[g >> np.uint64(6)] >> (g & np.uint64(63)) & _U1:
                        continue
                    for e in range(n_ends):      # exact: is key + e_w one of the S?
                        v = key ^ end[e]
                        if v == _U0 or side_set[_hash_slot(side_set, v)] == v:
                            found = True
                            break
                    if found:
                        break
                if found:
                    break
            if found:
                movers |= _U1 << np.uint64(j1)
    wide[:] = _U0
    side_set[:] = _U0
    return movers


@njit(cache=True)
def _first_of_three(pos: np.uint64, targets: np.uint64, jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray,
                    ostart: np.ndarray, ovec: np.ndarray, scratch: np.ndarray) -> np.uint64:
    """With three fresh moves left and no chain in progress (budget 3), which stones may make the
    first (J1, then J2 and J3; necessary conditions, see :func:`_first_movers`)? None: refuted.

    Three movers jump inside the *area of three*: J1 over the stones, J2 also over wherever J1 may
    stand, J3 also over wherever J2 may stand (three reaches, each over the nodes of the one
    before). A stone that no jump inside the area passes over (*bare*) cannot be jumped where it
    stands, so it is a mover: more than three bare stones refute. With two or three, the parity
    system (the jumps of the stones that stay: ``c`` + span) leaves few unknowns: the removals of
    two movers (``e_u`` + a line across ``u``, anywhere in the area), the end ``w`` of the last (a
    target) and, with two bare stones, one more mover ``X``; the ``X`` sides go into a hash set
    (behind a filter of 65,536 bits) and the sum of each pair of removals is looked up. Fewer
    distinct movers (a stone moving twice, or two moves in all) give one removal and one end. With
    one bare stone the other two movers are unknown (:func:`_one_bare_finish`): the bare stone and
    the others of every choice that fits may move first. With none all three movers are unknown
    (:func:`_no_bare_finish`, behind a filter): the J1s with a fit may move first."""
    small, big = _table_sizes(ovec.shape[0])
    piv = scratch[:64]
    end = scratch[64:128]
    removal = scratch[128 + small:128 + small + ovec.shape[0]]
    o = 128 + small + ovec.shape[0]
    keys = scratch[o:o + big]
    masks = scratch[o + big:o + 2 * big]
    used = scratch[o + 2 * big:o + 3 * big]
    home = scratch[o + 3 * big:o + 3 * big + 64]
    area = _area_of_three(pos, jstart, jover, jto, home)
    c, pivots, bare = _trail_system(pos, area, ostart, ovec, piv, 3)
    nbare = _popcount(bare)
    if nbare > 3:
        return _U0
    movable = _movable(pos, jstart, jover, jto)
    if nbare < 1:
        return _no_bare_finish(pos, _reduce(c, piv, pivots), area, movable, targets, jstart, jover, jto,
                               ostart, ovec, piv, pivots, scratch)
    if nbare == 3 and bare & movable == _U0:
        return _U0
    k = _reduce(c ^ bare, piv, pivots)      # a bare stone has no line: its part is e_b alone
    m = _removal_cosets(area, pos, area, ostart, ovec, piv, pivots, removal)
    n_ends = _end_cosets(targets & area, piv, pivots, end)
    seen = scratch[o + 3 * big + 128:o + 3 * big + 1152]     # 65536 bits: most sums miss
    if nbare == 1:
        n = 0
        rest = pos & ~bare
        while rest:
            x = _low_index(rest)
            rest &= rest - _U1
            masks[n] = _reduce(_first_line(x, area, ostart, ovec) ^ (_U1 << np.uint64(x)), piv, pivots)
            n += 1
        pairs = scratch[o + 3 * big + 1152:o + 3 * big + 1152 + (1 << PAIR_FILTER_BITS) // 64]  # wide filter
        found, which = _one_bare_finish(k, removal, m, end, n_ends, masks, n, keys, used, pairs)
        if not found:
            return _U0
        allowed = bare       # the bare stone, and the others of the choices that fit
        rest = pos & ~bare
        a = 0
        while rest:
            x = _low_index(rest)
            rest &= rest - _U1
            if which >> np.uint64(a) & _U1:
                allowed |= _U1 << np.uint64(x)
            a += 1
        return allowed & movable
    allowed = _U0
    # the ends: k + e_w (one removal: two movers; two removals: three bare movers)
    size = 16
    while size < 4 * n_ends:
        size *= 2
    table = keys[:size]
    nused, k_end = _shifted_set(table, used, k, end, n_ends, seen[:0])   # k_end: the removals must cancel
    if nbare == 3:
        if k_end:
            allowed = bare     # both removals on one coset
        for i in range(m):
            if allowed != _U0:
                break
            for j in range(i + 1, m):
                x = removal[i] ^ removal[j]
                if x != _U0 and table[_hash_slot(table, x)] == x:
                    allowed = bare
                    break
    else:
        for i in range(m):
            x = removal[i]
            if k_end if x == _U0 else table[_hash_slot(table, x)] == x:
                allowed = bare
                break
    _empty_set(table, used, nused, seen[:0])
    if nbare == 3:
        return allowed & movable
    # two bare stones and a third mover X: k + p_X + e_w against the sums of two removals
    xs = pos & ~bare
    if bare & movable == _U0:
        xs &= movable        # J1 is X
    size = 16
    while size < 4 * n_ends * _popcount(xs) and size < big:
        size *= 2
    table = keys[:size]
    nused = 0
    zero = _U0
    rest = xs
    while rest:
        third = _low_index(rest)
        rest &= rest - _U1
        xb = _U1 << np.uint64(third)
        side = k ^ _reduce(_first_line(third, area, ostart, ovec) ^ xb, piv, pivots)
        for e in range(n_ends):
            key = side ^ end[e]
            if key == _U0:
                zero |= xb
                continue
            h = _filter_bit(key)
            seen[h >> np.uint64(6)] |= _U1 << (h & np.uint64(63))
            slot = _hash_slot(table, key)     # written out: see _first_movers
            if table[slot] == _U0:
                table[slot] = key
                used[nused] = slot
                nused += 1
            masks[slot] |= xb
    found = zero       # two removals on one coset
    for i in range(m):
        if found != _U0 and (bare | found) & movable == movable:
            break
        for j in range(i + 1, m):
            x = removal[i] ^ removal[j]
            h = _filter_bit(x)
            if x == _U0 or not seen[h >> np.uint64(6)] >> (h & np.uint64(63)) & _U1:
                continue
            slot = _hash_slot(table, x)
            if table[slot] == x:
                found |= masks[slot]
    for i in range(nused):
        masks[used[i]] = _U0
    _empty_set(table, used, nused, seen)
    if found != _U0:
        allowed |= bare | found
    return allowed & movable


@njit(cache=True)
def _no_movers(fu: np.ndarray, d: int, pos: np.uint64, last: int, targets: np.uint64, jstart: np.ndarray,
               jover: np.ndarray, jto: np.ndarray, ends: np.ndarray, ostart: np.ndarray, ovec: np.ndarray,
               scratch: np.ndarray) -> bool:
    """Keeps :func:`_last_movers` (both tests) in frame ``d``: the stones that may start the last
    fresh move; True when there is none."""
    fu[d, 3] = _last_movers(pos, last, targets, jstart, jover, jto, ends, ostart, ovec, scratch, REACH | PARITY)
    return fu[d, 3] == _U0


@njit(cache=True)
def _order_movers(pos: np.uint64, movers: np.uint64, jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray,
                  ends: np.ndarray, out: np.ndarray, score: np.ndarray) -> None:
    """The stones of ``movers`` into ``out[1:]``, most promising first: the most other stones the
    nodes of their reach over the stones can jump, ties from the lowest node up; ``out[0] = 0``, how
    many have been tried. ``score``: work space of 64."""
    n = 0
    rest = movers
    while rest:
        j = _low_index(rest)
        rest &= rest - _U1
        reach = _reach(j, pos, jstart, jover, jto)
        sc = 0
        others = pos & ~(_U1 << np.uint64(j))
        while others:
            b = _low_index(others)
            others &= others - _U1
            if ends[b] & reach:
                sc += 1
        i = n
        while i > 0 and score[i - 1] < sc:   # insertion: stable, so ties keep node order
            score[i] = score[i - 1]
            out[i + 1] = out[i]
            i -= 1
        score[i] = sc
        out[i + 1] = j
        n += 1
    out[0] = 0


@njit(cache=True, nogil=True)
def _run(mode: int, fu: np.ndarray, fi: np.ndarray, fimg: np.ndarray, fps: np.ndarray, state: np.ndarray,
         jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray, jimg: np.ndarray, jpag: np.ndarray,
         perm: np.ndarray, unj: np.uint64, regions: np.ndarray, targets: np.uint64, ends: np.ndarray,
         pneed: np.ndarray, pbit: np.ndarray,
         tk: np.ndarray, td: np.ndarray, dk: np.ndarray, stats: np.ndarray,
         max_nodes: int, grow_tt: int, grow_dead: int, table_from: int,
         pk: np.ndarray, pd: np.ndarray, radius: int, shortcut_from: int, halt: np.ndarray,
         ostart: np.ndarray, ovec: np.ndarray, scratch: np.ndarray, fo: np.ndarray, order_moves: int) -> int:
    """Runs the depth-first search held in the frame arrays for at most ``max_nodes`` positions.

    Frame ``d``: ``fu[d] = (stones, movers left, canonical key, stones that may start a move)``,
    ``fi[d] = (last jumper, budget, phase, mover, next jump, landing, key's last node)``.
    ``state = (depth, entering, order)``; order 1 tries the stones that start a move from the
    highest node down (a second walk of the same tree in another order), 0 from the lowest up, or
    in mode 1, in the walk's first ``order_moves`` fresh moves, by promise (``fo[d] = (how many
    tried, the movers in turn)``, :func:`_order_movers`).
    The frames carry what a position's children update by three bits or three weights instead of
    recomputing: ``fimg[d, s]`` = the image of the stones under
    symmetry ``s`` (``s = 0`` the identity) and ``fps[d, t]`` = the stones' sum under pagoda
    ``t``; ``jimg[s, k]`` and ``jpag[t, k]`` are jump ``k``'s changes to them (its three nodes'
    image; to-weight minus from- and over-weights).
    ``mode`` 0: any finish (dead table); 1: within the budget (transposition table). In mode 1 a
    state (stones, last jumper) refuted within ``b`` moves also records (stones, none) as refuted
    within ``b``: every finish from (stones, none) is one from (stones, last jumper) at no greater
    cost (a fresh move costs the same there, and the last jumper's one costs nothing). So a later
    chain state on the same stones whose own chain has failed skips its fresh moves, which are
    exactly the moves of (stones, none) at the same budget. Pauses also
    when a table holds more than ``grow_tt`` / ``grow_dead`` entries (time to grow it).
    Returns FOUND (the jumps are ``(fi[i, 3], fi[i, 5])`` for ``i < state[0]``; ``state[1] == 2``
    when the last position is a perimeter hit still to be completed), EXHAUSTED or PAUSED. The
    perimeter (``pk``, ``pd``: canonical position -> moves to a goal, complete up to ``radius``)
    answers at depth ``shortcut_from`` and below. ``halt[0]``: set on FOUND or EXHAUSTED; a walk
    that sees it set (another walk ended the search, or the driver's tick) pauses within 1024
    positions and returns HALTED (PAUSED when its positions or a table's limit came first).
    """
    d = state[0]
    entering = state[1]
    high_first = state[2] == 1
    leaf_tests = REACH | PARITY if radius == 0 else REACH   # the perimeter answers near the leaves
    result = -1
    count = 0
    score = np.zeros(64, dtype=np.int64)   # work space of _order_movers
    # the budgets whose movers go by promise: the walk's first order_moves fresh moves (mode 1, low-first walk)
    order_from = fi[0, 1] - order_moves + 1 if mode == 1 and order_moves > 0 and not high_first else 1 << 30
    while True:
        if entering:
            entering = 0
            count += 1
            pos = fu[d, 0]
            last = fi[d, 0]
            budget = fi[d, 1]
            if last >= 0 and not _can_jump(pos, last, jstart, jover, jto):
                last = -1   # a jumper with no jump left ends its chain: the state is (stones, none)
                fi[d, 0] = -1
            fu[d, 3] = ~_U0   # the stones that may start a fresh move (see _last_movers)
            if pos & (pos - _U1) == _U0:
                result = 1 if pos & targets else 0
            else:
                live = targets
                if pneed.shape[0]:
                    live = _U0
                    for t in range(pneed.shape[0]):
                        if fps[d, t] >= pneed[t]:
                            live |= pbit[t]
                if mode == 1 and budget == 0 and (last < 0 or not _alone(pos, last, targets, jstart, jover, jto, ends,
                                                                         ostart, ovec, scratch, leaf_tests)):
                    stats[3] += 1
                    result = 0
                elif live == _U0:
                    result = 0
                elif mode == 1 and _lower_bound(pos, last, live, unj, regions) > budget:
                    result = 0
                elif mode == 1 and budget == 1 and radius == 0 and _no_movers(
                        fu, d, pos, last, targets, jstart, jover, jto, ends, ostart, ovec, scratch):
                    stats[4] += 1
                    result = 0
                else:
                    key = _U0
                    s = 0
                    if mode != 1 or budget >= table_from or 0 < radius and budget <= radius + 1:
                        key = pos
                        for si in range(1, fimg.shape[1]):
                            if fimg[d, si] < key:
                                key = fimg[d, si]
                                s = si
                    if mode == 1 and 0 < radius and budget <= radius + 1:
                        # the backward perimeter: exact distances (fresh moves) up to ``radius``;
                        # a chain in progress may save one move
                        dist = _per_get(pk, pd, key)
                        if dist >= 0 and dist <= budget and d >= shortcut_from:
                            result = 1
                            state[1] = 2
                        else:
                            need = radius + 1 if dist < 0 else dist
                            if last >= 0:
                                need -= 1
                            if budget < need:
                                result = 0
                    if result < 0 and mode == 1 and budget < table_from:
                        # near the leaves: cheaper to search than to look up
                        key = _U0
                    elif result < 0 and _dead_has(dk, key):
                        result = 0
                    elif result < 0 and mode == 1:
                        klast = -1
                        if last >= 0:
                            klast = perm[s, last]
                        if _tt_get(tk, td, key, klast) >= budget:
                            result = 0
                        fi[d, 6] = klast
                    if result < 0:
                        fu[d, 2] = key
                        # iterate: the last jumper's chain first (phase 0), then the others
                        fi[d, 2] = 0
                        fi[d, 3] = last if mode != 2 else -1
                        if last >= 0:
                            fi[d, 4] = jstart[last]
        if result >= 0:
            if result == 1:
                stats[0] += count
                state[0] = d
                if state[1] != 2:
                    state[1] = 0
                halt[0] = 1
                return FOUND
            if d == 0:
                stats[0] += count
                state[0] = 0
                state[1] = 0
                halt[0] = 1
                return EXHAUSTED
            d -= 1
            result = -1
        # next child of frame d
        spent = count >= max_nodes or stats[1] > grow_tt or stats[2] > grow_dead
        if spent or halt[0] and count & 1023 == 0:
            stats[0] += count
            state[0] = d
            state[1] = 0
            return PAUSED if spent else HALTED
        pos = fu[d, 0]
        budget = fi[d, 1]
        cur = fi[d, 3]
        k = fi[d, 4]
        child = False
        while True:
            if cur >= 0:
                end = jstart[cur + 1]
                while k < end:
                    o = jover[k]
                    t = jto[k]
                    k += 1
                    if (pos >> np.uint64(o)) & _U1 and not (pos >> np.uint64(t)) & _U1:
                        child = True
                        break
                if child:
                    break
                cur = -1
            if fi[d, 2] == 0:
                fi[d, 2] = 1
                if mode == 1 and budget == 0:
                    break
                rest = pos & fu[d, 3]
                last = fi[d, 0]
                if last >= 0 and mode != 2:
                    rest &= ~(_U1 << np.uint64(last))
                    if mode == 1 and fu[d, 2] != _U0 and _tt_get(tk, td, fu[d, 2], -1) >= budget:
                        rest = _U0   # (stones, none) failed this budget: so does every fresh move
                if mode == 1 and budget == 2 and radius == 0 and rest != _U0:
                    rest &= _first_movers(pos, targets, jstart, jover, jto, ostart, ovec, scratch)
                elif mode == 1 and budget == 3 and radius == 0 and rest != _U0:
                    rest &= _first_of_three(pos, targets, jstart, jover, jto, ostart, ovec, scratch)
                if budget >= order_from and rest != _U0:
                    _order_movers(pos, rest, jstart, jover, jto, ends, fo[d], score)
                fu[d, 1] = rest
            rest = fu[d, 1]
            if rest == _U0:
                break
            if budget >= order_from:
                fo[d, 0] += 1
                cur = fo[d, fo[d, 0]]
            else:
                cur = _high_index(rest) if high_first else _low_index(rest)
            fu[d, 1] = rest & ~(_U1 << np.uint64(cur))
            k = jstart[cur]
        if child:
            fi[d, 3] = cur
            fi[d, 4] = k
            fi[d, 5] = t
            nb = budget
            if mode == 1 and cur != fi[d, 0]:
                nb -= 1
            j = k - 1
            for si in range(fimg.shape[1]):
                fimg[d + 1, si] = fimg[d, si] ^ jimg[si, j]
            for pi in range(fps.shape[1]):
                fps[d + 1, pi] = fps[d, pi] + jpag[pi, j]
            d += 1
            fu[d, 0] = fimg[d, 0]
            fi[d, 0] = t
            fi[d, 1] = nb
            entering = 1
        else:
            if mode == 1:
                if fu[d, 2] != _U0:
                    _tt_put(tk, td, fu[d, 2], fi[d, 6], budget, stats)
                    if fi[d, 6] >= 0:   # (stones, none) cannot do better (see the docstring)
                        _tt_put(tk, td, fu[d, 2], -1, budget, stats)
            else:
                _dead_put(dk, fu[d, 2], stats)
            result = 0


# ----------------------------------------------------------------------------- whole moves
@njit(cache=True)
def _add_new(sets: np.ndarray, row: int, mark: int, key: np.uint64, node: int) -> bool:
    """Adds (``key``, ``node``) to the set ``sets[row]`` of the slots marked ``mark``; True when it was
    not in it. A slot is (key, mark * 256 + node + 1), one cache line for both; a power-of-two number
    of slots, a slot with another mark is empty (so a new mark empties the set)."""
    mask = sets.shape[1] - 1
    i = _slot(key, node, mask)
    tag = np.uint64(mark * 256 + node + 1)
    while sets[row, i, 1] >> _U8 == np.uint64(mark):
        if sets[row, i, 0] == key and sets[row, i, 1] == tag:
            return False
        i = (i + 1) & mask
    sets[row, i, 0] = key
    sets[row, i, 1] = tag
    return True


@njit(cache=True)
def _successors(pos: np.uint64, jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray, out: np.ndarray,
                sets: np.ndarray, tick: np.ndarray, stack_q: np.ndarray, stack_t: np.ndarray) -> int:
    """Every position one whole move (one stone's chain of jumps) after ``pos``, without repeats, into
    ``out``; returns their number, or -1 when the sets passed half their size (the caller grows them).
    The same positions in the same order as :meth:`powertwo.solvers.jump_search.JumpTables.successors`:
    each stone's chains depth first, a (position, jumper's node) state met again not followed twice.
    ``sets``: two sets (:func:`_add_new`), row 0 the positions found (node -1), row 1 the states of the
    stone in hand."""
    half = sets.shape[1] // 2
    tick[0] += 1
    found = tick[0]
    count = 0
    rest = pos
    while rest:
        s = _low_index(rest)
        rest &= rest - _U1
        tick[0] += 1
        chained = tick[0]
        states = 0
        stack_q[0] = pos
        stack_t[0] = s
        top = 1
        while top:
            top -= 1
            p = stack_q[top]
            cur = stack_t[top]
            for k in range(jstart[cur], jstart[cur + 1]):
                o = np.uint64(jover[k])
                t = np.uint64(jto[k])
                if (p >> o) & _U1 and not (p >> t) & _U1:
                    q = p ^ (_U1 << np.uint64(cur)) ^ (_U1 << o) ^ (_U1 << t)
                    if not _add_new(sets, 1, chained, q, jto[k]):
                        continue
                    states += 1
                    if _add_new(sets, 0, found, q, -1):
                        out[count] = q
                        count += 1
                    if states >= half or count >= half:
                        return -1
                    stack_q[top] = q
                    stack_t[top] = jto[k]
                    top += 1
    return count


@njit(cache=True)
def _successor_counts(sources: np.ndarray, counts: np.ndarray, begin: int, jstart: np.ndarray, jover: np.ndarray,
                      jto: np.ndarray, out: np.ndarray, sets: np.ndarray, tick: np.ndarray, stack_q: np.ndarray,
                      stack_t: np.ndarray) -> int:
    """``counts[i]`` = the number of positions one move after ``sources[i]``, from ``begin`` on; returns
    where it stopped: ``len(sources)``, or the first source whose sets ran full (the caller grows them)."""
    for i in range(begin, sources.shape[0]):
        c = _successors(sources[i], jstart, jover, jto, out, sets, tick, stack_q, stack_t)
        if c < 0:
            return i
        counts[i] = c
    return sources.shape[0]


# ----------------------------------------------------------------------------- driver
def jump_arrays(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The board's jumps grouped by start node (0-based) as flat arrays: the jumps of node ``v`` are
    ``k`` in ``range(jstart[v], jstart[v + 1])``, over ``jover[k]`` onto ``jto[k]``, in the order of
    ``board.jumps``. A board over 64 nodes is refused: a position is one ``uint64``."""
    if board.size > 64:
        raise ValueError(f"board {board.name} has {board.size} nodes; the kernel takes at most 64")
    n = board.size
    by_start: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for a, b, c in board.jumps:
        by_start[a - 1].append((b - 1, c - 1))
    jstart = np.zeros(n + 1, dtype=np.int64)
    flat: list[tuple[int, int]] = []
    for i in range(n):
        jstart[i] = len(flat)
        flat.extend(by_start[i])
    jstart[n] = len(flat)
    jover = np.array([o for o, _ in flat] or [0], dtype=np.int64)
    jto = np.array([t for _, t in flat] or [0], dtype=np.int64)
    return jstart, jover, jto


class MoveGenerator:
    """The kernel's whole moves (compiled, :func:`_successors`) on a board of at most 64 nodes: the
    positions one move after a position, and perft (move sequences counted to a depth, each move to
    a different position). The same positions as the Python engine's
    :meth:`powertwo.solvers.jump_search.JumpTables.successors`, which the tests and the bench compare
    (counts, and the rate on the same positions)."""

    def __init__(self, board: Board, slots: int = 1 << 14):
        self.jstart, self.jover, self.jto = jump_arrays(board)
        self.tick = np.zeros(1, dtype=np.int64)
        self._alloc(slots)

    def _alloc(self, slots: int) -> None:
        self.sets = np.zeros((2, slots, 2), dtype=np.uint64)
        self.out = np.zeros(slots, dtype=np.uint64)
        self.stack_q = np.zeros(slots, dtype=np.uint64)
        self.stack_t = np.zeros(slots, dtype=np.int64)
        self.tick[0] = 0

    def _fill(self, pos: int) -> int:
        """Fills ``out`` with the successors of ``pos``; their number."""
        while True:
            count = _successors(np.uint64(pos), self.jstart, self.jover, self.jto, self.out, self.sets, self.tick,
                                self.stack_q, self.stack_t)
            if count >= 0:
                return count
            self._alloc(2 * self.out.shape[0])

    def successors(self, pos: int) -> list[int]:
        """The positions one move after ``pos`` (bit ``v - 1`` = a stone on node ``v``), in the Python
        engine's order."""
        count = self._fill(pos)      # first: it may grow ``out``
        return [int(q) for q in self.out[:count]]

    def counts(self, positions: Sequence[int]) -> list[int]:
        """How many positions are one move after each of ``positions``, in one compiled loop."""
        sources = np.array(positions, dtype=np.uint64)
        counts = np.zeros(len(sources), dtype=np.int64)
        done = 0
        while done < len(sources):
            done = _successor_counts(sources, counts, done, self.jstart, self.jover, self.jto, self.out, self.sets,
                                     self.tick, self.stack_q, self.stack_t)
            if done < len(sources):
                self._alloc(2 * self.out.shape[0])
        return [int(c) for c in counts]

    def perft(self, pos: int, depth: int) -> int:
        """Move sequences of ``depth`` moves from ``pos``, each move to a different position."""
        if depth <= 0:
            return 1
        after = self.successors(pos)
        if depth == 1:
            return len(after)
        if depth == 2:
            return sum(self.counts(after))
        return sum(self.perft(q, depth - 1) for q in after)


@dataclass
class KernelResult:
    """The outcome of :meth:`KernelSearch.run`: best answer as moves ``(from, [landings])``,
    proven lower bound, and how the answer is proven."""

    moves: list[tuple[NodeId, list[NodeId]]] | None
    bound: int
    proven: bool
    infeasible: bool
    nodes: int
    seconds: float
    proof: str = ""
    log: list[str] = field(default_factory=list)
    first_found_seconds: float | None = None
    first_found_moves: int | None = None
    interrupted: bool = False
    """Ctrl-C ended the run: ``moves`` is the best answer so far, ``bound`` the bound so far."""
    answers: list[tuple[float, int]] = field(default_factory=list)
    """Every answer the run found that was shorter than the ones before: (seconds into the run,
    moves); the first is the first answer a user could have."""


@dataclass
class Walk:
    """One depth-first search held in arrays (see :func:`_run`), resumable."""

    mode: int
    sym: int
    fu: np.ndarray
    fi: np.ndarray
    fimg: np.ndarray
    fps: np.ndarray
    state: np.ndarray
    scratch: np.ndarray
    fo: np.ndarray
    stats: np.ndarray = field(default_factory=lambda: np.zeros(5, dtype=np.int64))
    """The walk's own counters while walks run in threads (folded into the search's after each turn)."""


def chains(jumps: Sequence[tuple[int, int]]) -> list[tuple[NodeId, list[NodeId]]]:
    """Single jumps (0-based from, to) grouped into moves (a jump from the last landing continues)."""
    out: list[tuple[NodeId, list[NodeId]]] = []
    for frm, to in jumps:
        if out and out[-1][1][-1] == frm + 1:
            out[-1][1].append(to + 1)
        else:
            out.append((frm + 1, [to + 1]))
    return out


class KernelSearch:
    """The compiled reverse search from ``start`` to one stone on one of ``targets`` (default:
    every node the position classes and pagodas allow). ``memory_mb`` caps the hash tables.

    ``workers`` > 1 runs that many walks at once in threads (the kernel releases the GIL), sharing
    both tables: a budgeted search walks the same tree from as many symmetric images of the start
    (so in different orders; whichever walk ends first answers, and each reuses what the others
    refuted), the search for any finish runs its portfolio that many walks at a time. The answer is
    as proven as with one worker, but which finish is found and how many positions are counted
    depend on the threads' timing; with ``workers=1`` (the default) every run is the same."""

    def __init__(self, board: Board, start: Iterable[NodeId], *, targets: Iterable[NodeId] | None = None,
                 symmetry: bool = True, pagodas: bool = True, merson: bool = True,
                 memory_mb: int = DEFAULT_MEMORY_MB, progress: Progress | None = None,
                 setup: TargetSetup | None = None, perimeter: int = DEFAULT_PERIMETER, workers: int = 1):
        self.jstart, self.jover, self.jto = jump_arrays(board)   # first: it refuses a board over 64 nodes
        if workers < 1:
            raise ValueError(f"workers {workers}: at least 1")
        self.board = board
        self.workers = workers
        self._pool: ThreadPoolExecutor | None = None
        self.start_nodes = sorted(start)
        self.progress = progress or (lambda _: None)
        if not getattr(_run, "signatures", True):   # not yet compiled or loaded in this process
            self.progress(KERNEL_LOADING)
        self.interrupted = False
        """Set by Ctrl-C: the compiled walk cannot be stopped, so the signal arrives as
        ``KeyboardInterrupt`` when a tick returns to Python; every later search returns PAUSED."""
        self.setup = setup or target_setup(board, mask_of(self.start_nodes), targets, pagodas=pagodas)
        n = board.size
        self.n = n
        self.stones = len(self.start_nodes)
        tmask = self.setup.targets
        self.over = {(a - 1, c - 1): b - 1 for a, b, c in board.jumps}
        middles = {b for _, b, _ in board.jumps}
        unjumpable = mask_of(v for v in board.nodes if v not in middles)
        self.ends = np.zeros(n, dtype=np.uint64)   # ends[b]: nodes a of the triples (a, b, c)
        for a, b, _ in board.jumps:
            self.ends[b - 1] |= np.uint64(1 << (a - 1))
        self.unj = np.uint64(unjumpable)
        # the lines across each node b: its two neighbours a, c on the line, as the bits e_a + e_c
        across: list[list[int]] = [[] for _ in range(n)]
        for a, b, c in board.jumps:
            if a < c:
                across[b - 1].append((1 << (a - 1)) | (1 << (c - 1)))
        self.ostart = np.array([0] + list(np.cumsum([len(x) for x in across])), dtype=np.int64)
        self.ovec = np.array([v for x in across for v in x] or [0], dtype=np.uint64)
        syms = board.symmetries if symmetry else board.symmetries[:1]
        fixed = nodes_of(tmask)
        syms = tuple(p for p in syms if mask_of(p[v - 1] for v in fixed) == tmask) or board.symmetries[:1]
        self.perms = syms
        self.nchunks = (n + 7) // 8
        self.symtab = np.zeros((len(syms), self.nchunks, 256), dtype=np.uint64)
        self.perm = np.zeros((len(syms), n), dtype=np.int64)
        for s, p in enumerate(syms):
            for i in range(n):
                self.perm[s, i] = p[i] - 1
            for c in range(self.nchunks):
                for x in range(256):
                    img = 0
                    for j in range(8):
                        if x >> j & 1 and c * 8 + j < n:
                            img |= 1 << (p[c * 8 + j] - 1)
                    self.symtab[s, c, x] = img
        regions = [r for r in merson_regions(board) if not r & unjumpable] if merson else []
        self.regions = np.array(regions, dtype=np.uint64)
        pags = self.setup.pagodas if pagodas else []
        self.pw = np.array([w for _, w, _ in pags], dtype=np.int64).reshape(len(pags), n)
        self.pneed = np.array([need for _, _, need in pags], dtype=np.int64)
        self.pbit = np.array([1 << (t - 1) for t, _, _ in pags], dtype=np.uint64)
        # what jump k (from, over, to) changes: its nodes' image under each symmetry, each pagoda sum
        froms = [i for i in range(n) for _ in range(self.jstart[i], self.jstart[i + 1])] or [0]
        self.jimg = np.zeros((len(syms), len(self.jto)), dtype=np.uint64)
        self.jpag = np.zeros((len(pags), len(self.jto)), dtype=np.int64)
        for k, (f, o, t) in enumerate(zip(froms, self.jover, self.jto, strict=True)):
            for si in range(len(syms)):
                self.jimg[si, k] = np.uint64(sum(1 << int(self.perm[si, v]) for v in (f, o, t)))
            self.jpag[:, k] = self.pw[:, t] - self.pw[:, f] - self.pw[:, o]
        self.targets = np.uint64(tmask)
        self.memory = max(1, memory_mb) * (1 << 20)
        self.stats = np.zeros(5, dtype=np.int64)
        self.pk = np.zeros(1, dtype=np.uint64)
        self.pd = np.zeros(1, dtype=np.int8)
        self.radius = self.perimeter_size = 0
        if perimeter and 0 < len(nodes_of(tmask)) <= 4 and self.stones >= PERIMETER_STONES:
            self.build_perimeter(perimeter)
        self.table_from = max(1, self.radius)
        self._scratch: list[np.ndarray] = []
        self.order_moves = ORDER_MOVES
        """A budgeted walk's first fresh moves whose movers are tried by promise (:data:`ORDER_MOVES`;
        0: node order throughout)."""
        self.first_step = FIRST_STEP
        """The short first searches of :meth:`run` (:data:`FIRST_STEP`; 0: the search for any finish
        comes first)."""
        self.reset()
        self.search(1, node_cap=1)    # compiles the kernel (or loads it from numba's cache) before any clock runs
        self.reset()

    def reset(self) -> None:
        """Empties the transposition and dead tables and the counters: the next search runs as on a
        fresh instance (the same positions in the same order)."""
        self._alloc_tt(MIN_SLOTS)
        self._alloc_dead(MIN_SLOTS)
        self.stats[:] = 0
        self.frozen = False
        """Set when a table's growth would end after the search's deadline: the tables stay as they
        are for the rest of that search (a full table overwrites entries)."""
        self.rehash_seconds = REHASH_SECONDS
        """Seconds per slot of the last growth (its old table's slots), to foresee the next one."""

    # ------------------------------------------------------------- tables
    def _alloc_tt(self, slots: int) -> None:
        # a key and its entry side by side: one cache line holds both (6% faster than two arrays:
        # seed 116's 5-move refutation, one thread, 28.3-28.9 s against 30.2-30.6 s)
        table = np.zeros((slots, 2), dtype=np.uint64)
        self.tk = table[:, 0]
        self.td = table[:, 1]

    def _alloc_dead(self, slots: int) -> None:
        self.dk = np.zeros(slots, dtype=np.uint64)

    def _limits(self) -> tuple[int, int]:
        """Entry counts at which the kernel pauses to let a table grow (never, once it cannot)."""
        total = self.tk.shape[0] * TT_BYTES + self.dk.shape[0] * DEAD_BYTES
        never = 1 << 62
        if self.frozen:
            return never, never
        tt = self.tk.shape[0] // 2 if total + self.tk.shape[0] * TT_BYTES <= self.memory else never
        dead = self.dk.shape[0] // 2 if total + self.dk.shape[0] * DEAD_BYTES <= self.memory else never
        return tt, dead

    def _grow(self, deadline: float | None = None) -> None:
        """Doubles a table whose load passed one half, while both stay within the memory option.
        With a ``deadline``, a growth that would end after it (timed by the last one: about 90 ns
        per slot, 6 s for a table of 64 million) is not begun: the tables are then frozen for the
        rest of the search (:attr:`frozen`)."""
        if self.frozen:
            return
        total = self.tk.shape[0] * TT_BYTES + self.dk.shape[0] * DEAD_BYTES
        grow_tt = self.stats[1] * 2 > self.tk.shape[0] and total + self.tk.shape[0] * TT_BYTES <= self.memory
        grow_dead = (self.stats[2] * 2 > self.dk.shape[0]
                     and total + grow_tt * self.tk.shape[0] * TT_BYTES + self.dk.shape[0] * DEAD_BYTES <= self.memory)
        slots = grow_tt * self.tk.shape[0] + grow_dead * self.dk.shape[0]
        if not slots:
            return
        began = time.perf_counter()
        if deadline is not None and began + slots * self.rehash_seconds > deadline:
            self.frozen = True
            return
        if grow_tt:
            old = (self.tk, self.td)
            self._alloc_tt(old[0].shape[0] * 2)
            _rehash_tt(*old, self.tk, self.td, self.stats)
        if grow_dead:
            old_dk = self.dk
            self._alloc_dead(old_dk.shape[0] * 2)
            _rehash_dead(old_dk, self.dk, self.stats)
        if slots >= MIN_SLOTS << 4:   # long enough to time (smaller tables rehash in the caches)
            self.rehash_seconds = max(REHASH_SECONDS, (time.perf_counter() - began) / slots)

    # ------------------------------------------------------------- perimeter
    def build_perimeter(self, limit: int) -> None:
        """The backward perimeter (:func:`_build_perimeter`) of at most ``limit`` positions."""
        slots = 1 << max(4, (2 * limit).bit_length())
        self.pk = np.zeros(slots, dtype=np.uint64)
        self.pd = np.zeros(slots, dtype=np.int8)
        goals = np.array([1 << (t - 1) for t in nodes_of(self.setup.targets)], dtype=np.uint64)
        self.radius, self.perimeter_size = (int(x) for x in _build_perimeter(
            goals, self.stones, limit, self.pk, self.pd, self.jstart, self.jover, self.jto, self.symtab, self.nchunks))

    def distance(self, nodes: Sequence[NodeId]) -> int | None:
        """Moves from ``nodes`` to a goal by the perimeter, or ``None`` when it is outside."""
        key, _ = _canon(np.uint64(mask_of(nodes)), self.symtab, self.nchunks)
        d = int(_per_get(self.pk, self.pd, np.uint64(key)))   # uint64: an int key compiles another version
        return None if d < 0 else d

    def _complete(self, nodes: Sequence[NodeId], dist: int | None) -> list[tuple[int, int]]:
        """Single jumps from ``nodes`` (``dist`` moves from a goal by the perimeter) to the goal: a
        search within ``dist`` moves that may not stop at its own root, repeated."""
        jumps: list[tuple[int, int]] = []
        pos = set(nodes)
        while len(pos) > 1:
            assert dist is not None   # internal: every position met here lies inside the perimeter
            status, more = self.search(dist, start=sorted(pos), complete=True)
            assert status == FOUND and more
            for f, t in more:
                over = self.over[(f, t)]
                pos -= {f + 1, over + 1}
                pos.add(t + 1)
            jumps += more
            dist = self.distance(sorted(pos)) if len(pos) > 1 else 0
        return jumps

    @property
    def nodes(self) -> int:
        return int(self.stats[0])

    # ------------------------------------------------------------- searches
    def walk(self, mode: int, budget: int, sym: int, start: Sequence[NodeId], order: int = 0,
             scratch: np.ndarray | None = None) -> Walk:
        """A depth-first search of ``mode`` (see :func:`_run`) from the image of ``start`` under
        symmetry ``sym``, movers tried from the lowest node up (``order`` 0) or the highest down (1),
        ready for :meth:`advance`. ``scratch``: the parity tests' work space (:func:`scratch_for`;
        default a new one). After each position a walk leaves it as the next position's tests need
        it (not all zero: what a test reads it sets first), so a later walk may take it over
        (:meth:`search` does, one per walk running at once)."""
        if len(start) > self.stones:   # the frames are sized by the instance's start (no bounds checks in _run)
            raise ValueError(f"a search from {len(start)} stones on an instance built for {self.stones}: "
                             "build the KernelSearch from the larger position")
        fu = np.zeros((self.stones + 1, 4), dtype=np.uint64)
        fi = np.zeros((self.stones + 1, 7), dtype=np.int64)
        p = self.perms[sym]
        fu[0, 0] = np.uint64(mask_of(p[v - 1] for v in start))
        fi[0, 0] = -1
        fi[0, 1] = budget
        fimg = np.zeros((self.stones + 1, len(self.perms)), dtype=np.uint64)
        fps = np.zeros((self.stones + 1, self.pw.shape[0]), dtype=np.int64)
        fimg[0], fps[0] = self.images(int(fu[0, 0])), self.pagoda_sums(int(fu[0, 0]))
        return Walk(mode, sym, fu, fi, fimg, fps, np.array([0, 1, order], dtype=np.int64),
                    scratch_for(self.ovec) if scratch is None else scratch,
                    np.zeros((self.stones + 1, 65), dtype=np.int64))

    def _scratches(self, count: int) -> list[np.ndarray]:
        """``count`` work spaces for the walks of one search, kept for the next: a new one costs more
        than a beam probe's whole search (1.2 MB to clear; 2026-11-26, seed 117's beam: 16 walks a
        probe, 75% of the beam's time went to setting up walks)."""
        while len(self._scratch) < count:
            self._scratch.append(scratch_for(self.ovec))
        return self._scratch[:count]

    def _bits(self, pos: int) -> np.ndarray:
        """The nodes (0-based) of the bitmask ``pos`` as a boolean array."""
        return np.unpackbits(np.array([pos], dtype="<u8").view(np.uint8), bitorder="little")[:self.n].astype(bool)

    def images(self, pos: int) -> np.ndarray:
        """The images of the bitmask ``pos`` under the symmetries in use (index 0: the identity)."""
        return np.bitwise_or.reduce(np.uint64(1) << self.perm[:, self._bits(pos)].astype(np.uint64), axis=1)

    def pagoda_sums(self, pos: int) -> np.ndarray:
        """The sums of the bitmask ``pos`` under the pagoda functions in use."""
        return self.pw[:, self._bits(pos)].sum(axis=1).astype(np.int64)

    def advance(self, w: Walk, max_nodes: int, shortcut: int = 0, share: int = 0,
                halt: np.ndarray | None = None) -> int:
        """Runs the walk ``w`` for at most ``max_nodes`` positions: FOUND, EXHAUSTED, PAUSED or HALTED
        (``halt`` set; it resumes where it stopped on the next call). ``share`` > 0: one of that many walks running at
        once in threads; it counts into its own ``w.stats``, pauses for table growth at its share, and
        soon after another walk sharing ``halt`` has ended the search."""
        grow_tt, grow_dead = self._limits()
        stats = self.stats
        if share:
            stats = w.stats
            grow_tt = max(1, (grow_tt - int(self.stats[1])) // share)
            grow_dead = max(1, (grow_dead - int(self.stats[2])) // share)
        return int(_run(w.mode, w.fu, w.fi, w.fimg, w.fps, w.state, self.jstart, self.jover, self.jto,
                        self.jimg, self.jpag, self.perm, self.unj, self.regions, self.targets, self.ends,
                        self.pneed, self.pbit, self.tk, self.td, self.dk, stats, max_nodes,
                        grow_tt, grow_dead, self.table_from, self.pk, self.pd, self.radius, shortcut,
                        np.zeros(1, dtype=np.int64) if halt is None else halt, self.ostart, self.ovec, w.scratch,
                        w.fo, self.order_moves))

    def _tick(self, group: list[Walk], steps: list[int], shortcut: int,
              deadline: float | None) -> tuple[list[int], list[int]]:
        """The walks of ``group`` (in threads when more than one) for at most ``steps[i]`` positions
        each and about :data:`TICK` seconds (no later than ``deadline``): their statuses and the
        positions each searched."""
        halt = np.zeros(1, dtype=np.int64)
        seconds = TICK if deadline is None else min(TICK, max(0.01, deadline - time.perf_counter()))
        timer = threading.Timer(seconds, halt.fill, (1,))
        timer.daemon = True
        timer.start()
        try:
            if len(group) == 1:
                before = int(self.stats[0])
                status = self.advance(group[0], steps[0], shortcut, halt=halt)
                return [status], [int(self.stats[0]) - before]
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="jump-kernel")
            futures = [self._pool.submit(self.advance, w, step, shortcut, len(group), halt)
                       for w, step in zip(group, steps, strict=True)]
            statuses = [f.result() for f in futures]
            done = [int(w.stats[0]) for w in group]
            for w in group:
                self.stats += w.stats
                w.stats[:] = 0
            return statuses, done
        finally:
            timer.cancel()
            halt[0] = 1     # Ctrl-C while waiting for the threads: they pause within 1024 positions

    def search(self, budget: int | None, deadline: float | None = None, node_cap: int | None = None,
               label: str = "", start: Sequence[NodeId] | None = None,
               complete: bool = False) -> tuple[int, list[tuple[int, int]]]:
        """``budget=None``: any finish (mode 0); else a finish within ``budget`` moves. Returns
        (FOUND with the single jumps (0-based from, to) | EXHAUSTED | PAUSED when the deadline or
        ``node_cap`` positions came first, []).

        The search for any finish is a portfolio: the depth-first search from every symmetric image
        of the start (under the symmetries fixing the targets), in two orders (the last jumper's chain
        first, or plain node order), run in turns of equal slices, so one lucky order is enough; they
        share the dead table, and any of them exhausting proves that no finish exists.

        The search within a budget is a portfolio too: one walk from each symmetric image of the
        start (with one image, one per worker, the second from the highest node down), in turns of
        ``SLICE / 8`` positions. The walks share the transposition table, keyed on canonical
        positions, so a refutation costs about what one walk's does, and the first walk to meet a
        finish ends the search. Measured with one thread (2026-11-26): seed 116's 5-move
        refutation 2,087,386 positions with its 8 walks against 2,086,637 with one; its 6-move
        finish 13.9 million positions (49.8 s) against 36.3 million (130 s); seed 120's 3.3 million
        (9.4 s) against 11.1 million (33 s)."""
        start = self.start_nodes if start is None else start
        if budget is None:
            scratch = self._scratches(2 * len(self.perms))
            walks = [partial(self.walk, mode, 0, s, start, scratch=scratch[2 * s + mode // 2])
                     for s in range(len(self.perms)) for mode in (0, 2)]
            step_size = SLICE >> 3
        else:
            if self.radius and not complete:
                dist = self.distance(start)
                if dist is not None and dist <= budget:
                    return FOUND, self._complete(start, dist)
            # the same tree in other orders, one walk from each symmetric image of the start (under
            # the symmetries fixing the targets; then from the highest node down, for more workers
            # than images), in turns: they share the tables, so each meets the others' refutations
            # (a refutation costs the same positions as one walk's) and the first to meet a finish
            # ends the search
            images = len(self.perms)
            count = 1 if complete else max(self.workers, images)
            walks = [partial(self.walk, 1, budget, i % images, start, order=(i // images) % 2, scratch=scratch)
                     for i, scratch in enumerate(self._scratches(count))]
            step_size = SLICE if len(walks) <= self.workers else SLICE >> 3
        self.frozen = False
        began = time.perf_counter()
        start_nodes = self.nodes
        try:
            return self._slices(walks, step_size, deadline, node_cap, label, complete, began, start_nodes)
        except KeyboardInterrupt:  # Ctrl-C between two ticks of compiled work
            self.interrupted = True
            return PAUSED, []

    def _slices(self, walks: Sequence[Callable[[], Walk]], step_size: int, deadline: float | None, node_cap: int | None,
                label: str, complete: bool, began: float, start_nodes: int) -> tuple[int, list[tuple[int, int]]]:
        """The walks of :meth:`search` in turns of ``step_size`` positions, each turn in ticks
        (:meth:`_tick`): between two ticks the deadline, the position cap, Ctrl-C and the progress
        line are seen to, and a walk halted by the tick goes on with the rest of its turn (so the
        turns, and with one thread the positions searched, do not depend on the clock). A walk is
        built when its first turn comes: most searches end in the first (a beam probe's always)."""
        shown = began
        shortcut = 1 if complete else 0
        size = min(self.workers, len(walks))
        plans = [walks[i:i + size] for i in range(0, len(walks), size)]
        groups: list[list[Walk]] = []
        while True:
            if self.interrupted:
                return PAUSED, []
            for g, plan in enumerate(plans):
                if g == len(groups):
                    groups.append([make() for make in plan])
                group = groups[g]
                step = step_size if node_cap is None else max(
                    1, min(step_size, (start_nodes + node_cap - self.nodes) // len(group)))
                turn = [(w, step) for w in group]   # each walk with the positions left in its turn
                while turn:
                    ticked = [w for w, _ in turn]
                    statuses, done = self._tick(ticked, [left for _, left in turn], shortcut, deadline)
                    for w, status in zip(ticked, statuses, strict=True):
                        if status == FOUND:
                            return FOUND, self._found_jumps(w, complete)
                    if EXHAUSTED in statuses:
                        return EXHAUSTED, []
                    if deadline is not None and time.perf_counter() > deadline:
                        return PAUSED, []
                    self._grow(deadline)
                    now = time.perf_counter()
                    if node_cap is not None and self.nodes - start_nodes >= node_cap:
                        return PAUSED, []
                    if now - shown > 0.5:
                        shown = now
                        rate = (self.nodes - start_nodes) / max(now - began, 1e-9)
                        self.progress(f"{label}: {self.nodes:,} positions, {rate / 1e6:.1f} M/s, "
                                      f"table {int(self.stats[1]):,} + dead {int(self.stats[2]):,}")
                    turn = [(w, left - n) for (w, left), status, n in zip(turn, statuses, done, strict=True)
                            if status == HALTED and left > n]

    def _found_jumps(self, w: Walk, complete: bool) -> list[tuple[int, int]]:
        """The single jumps (0-based from, to) of the walk ``w`` that found a finish, mapped back from
        its symmetric image; a perimeter hit is completed by the distances (unless ``complete``)."""
        back = {self.perms[w.sym][i] - 1: i for i in range(self.n)}   # the inverse symmetry
        jumps = [(back[int(w.fi[i, 3])], back[int(w.fi[i, 5])]) for i in range(int(w.state[0]))]
        if w.state[1] == 2 and not complete:   # a perimeter hit: finish from there by the distances
            pos = w.fu[int(w.state[0]), 0]
            rest = [v + 1 for v in range(self.n) if int(pos) >> v & 1]
            rest = sorted(back[v - 1] + 1 for v in rest)
            jumps += self._complete(rest, self.distance(rest))
        return jumps

    def beam(self, best: list[tuple[NodeId, list[NodeId]]], deadline: float | None,
             node_cap: int) -> list[tuple[NodeId, list[NodeId]]]:
        """Shorter answers than ``best`` (upper bounds) by a beam search on whole moves.

        Move by move, every position one move away from those kept (deduplicated under the
        symmetries that fix the targets) is ranked: fewest stones first, then the lower bound.
        Each in turn is probed: a search for any finish of :data:`BEAM_PROBE` positions (a finish
        is an answer: the moves so far, then the finish's), then one for a finish shorter than the
        best. The first :data:`BEAM_WIDTH` with a finish go on to the next move, topped up with
        those whose probe ran out; probes that exhaust drop theirs (dead positions go to the dead
        table). Ends after ``node_cap`` positions, at ``deadline``, when no position is left, or
        when the moves so far reach the best. Returns the best answer."""
        tables = JumpTables(self.board, fixing=self.setup.targets)
        moves = MoveGenerator(self.board)     # the Python engine's successors, compiled
        spent_from = self.nodes
        start = mask_of(self.start_nodes)

        def low(q: int) -> int:
            return int(_lower_bound(np.uint64(q), -1, self.targets, self.unj, self.regions))

        def answer(path: list[int], jumps: list[tuple[int, int]]) -> list[tuple[NodeId, list[NodeId]]]:
            steps = [start, *path]
            return [tables.chain_between(p, q) for p, q in zip(steps, steps[1:], strict=False)] + chains(jumps)

        def spent() -> bool:
            return (self.interrupted or self.nodes - spent_from >= node_cap
                    or deadline is not None and time.perf_counter() > deadline)

        kept: list[list[int]] = [[]]
        depth = 0
        try:
            while kept and depth + 1 < len(best) and not spent():
                depth += 1
                ranked: dict[int, tuple[tuple[int, int], list[int]]] = {}
                for path in kept:
                    for q in moves.successors(path[-1] if path else start):
                        key = tables.canonical(q)
                        if key not in ranked:
                            ranked[key] = ((popcount(q), low(q)), [*path, q])
                self.progress(f"beam: move {depth}, {len(ranked):,} positions to probe, best {len(best)} "
                              f"({self.nodes:,} positions)")
                with_finish: list[list[int]] = []
                open_ended: list[list[int]] = []
                for (stones, bound), path in sorted(ranked.values(), key=lambda r: r[0]):
                    q = path[-1]
                    if len(with_finish) >= BEAM_WIDTH or spent():
                        break
                    if stones == 1:   # one move shorter than the best at least (the loop's condition)
                        if q & self.setup.targets:
                            best = answer(path, [])
                        continue
                    if depth + bound >= len(best):
                        continue
                    status, jumps = self.search(None, deadline, BEAM_PROBE, start=nodes_of(q))
                    if status == FOUND:
                        finish = jumps
                        shorter = min(len(best) - depth, len(chains(jumps))) - 1
                        if shorter >= bound:
                            status, jumps = self.search(shorter, deadline, BEAM_PROBE, start=nodes_of(q))
                            if status == FOUND:
                                finish = jumps
                        if depth + len(chains(finish)) < len(best):
                            best = answer(path, finish)
                            self.progress(f"beam: {len(best)} moves ({self.nodes:,} positions)")
                        with_finish.append(path)
                    elif status == PAUSED:
                        open_ended.append(path)
                kept = (with_finish + open_ended)[:BEAM_WIDTH]
        except KeyboardInterrupt:   # Ctrl-C while the moves were spelled out in Python
            self.interrupted = True
        return best

    def run(self, time_limit: float | None = None, node_limit: int | None = None,
            max_moves: int | None = None, stall: int = STALL_NODES) -> KernelResult:
        """Feasibility first (any finish: an upper bound, or ``infeasible``), then (with a limit)
        the beam (:meth:`beam`) and branch and bound until it stalls (:data:`STALL_NODES`), together
        within :data:`UPPER_SHARE` of the limit, then iterative deepening on moves from the admissible
        bound up to one below the best found (without a limit, the beam runs when a budget stalls)."""
        started = time.perf_counter()
        started_nodes = self.nodes
        deadline = None if time_limit is None else started + time_limit
        log: list[str] = []

        def note(msg: str) -> None:
            msg = f"{msg} ({self.nodes:,} positions, {time.perf_counter() - started:.2f} s)"
            log.append(msg)
            self.progress(msg)

        def result(moves, bound, proven, infeasible, proof) -> KernelResult:
            return KernelResult(moves, bound, proven, infeasible, self.nodes, time.perf_counter() - started, proof,
                                log, first_s, first_m, self.interrupted, answers)

        answers: list[tuple[float, int]] = []

        def better(moves: list[tuple[NodeId, list[NodeId]]]) -> list[tuple[NodeId, list[NodeId]]]:
            if not answers or len(moves) < answers[-1][1]:
                answers.append((time.perf_counter() - started, len(moves)))
            return moves

        first_s: float | None = None
        first_m: int | None = None
        cap = self.stones - 1 if max_moves is None else max_moves
        if not self.setup.targets:
            return result(None, cap + 1, True, True, self.setup.why_none)
        any_deadline = None if time_limit is None else started + time_limit * ANY_SHARE
        any_nodes = None if node_limit is None else int(node_limit * ANY_SHARE)
        low = int(_lower_bound(np.uint64(mask_of(self.start_nodes)), -1, self.targets, self.unj, self.regions))
        status, jumps = PAUSED, list[tuple[int, int]]()
        first_deadline = None if time_limit is None else started + time_limit * ANY_SHARE / 2
        for within in (low + self.first_step, low + 2 * self.first_step):   # a short first answer, if one comes soon
            if not self.first_step or within > cap or self.interrupted:
                break
            first_nodes = FIRST_NODES if any_nodes is None else min(FIRST_NODES, any_nodes // 4)
            status, jumps = self.search(within, first_deadline, first_nodes, label=f"a finish within {within} moves")
            if status == FOUND:
                note(f"first finish within {within} moves: {len(chains(jumps))} moves")
                break
            note(f"first finish within {within} moves: " + ("none (search exhausted)" if status == EXHAUSTED
                                                            else f"none within {first_nodes:,} positions"))
        short = status == FOUND
        if not short:
            status, jumps = self.search(None, any_deadline, any_nodes, label="any finish")
        if status == EXHAUSTED:
            note("any finish: none (search exhausted)")
            return result(None, cap + 1, True, True, "exhausted search: no sequence of jumps leaves one stone"
                          + self.setup.where)
        best: list[tuple[NodeId, list[NodeId]]] | None = None
        if status == PAUSED:
            if self.interrupted:
                note("any finish: interrupted (Ctrl-C)")
                return result(None, low, False, False, "")
            note("any finish: none within its share of the limit (the deepening goes on)")
        else:
            best = better(chains(jumps))
            first_s, first_m = time.perf_counter() - started, len(best)
            if not short:
                note(f"any finish: {len(best)} moves")

        def refuted(budget: int) -> str:
            if budget <= low:
                return (f"no finish within {budget - 1} moves: admissible lower bound "
                        "(unjumpable stones, Merson regions)")
            return f"exhausted search: no finish within {budget - 1} moves"

        limited = deadline is not None or node_limit is not None

        def polish(given: list[tuple[NodeId, list[NodeId]]],
                   shorter: list[tuple[NodeId, list[NodeId]]]) -> list[tuple[NodeId, list[NodeId]]]:
            """Logs what the beam brought (its answer is never longer than the one it was given)."""
            note(f"beam: {len(shorter)} moves" if len(shorter) < len(given) else "beam: no shorter answer")
            return better(shorter)
        # with a limit, branch and bound first: better answers early (its failed budgets stay in the
        # table as proofs for the deepening below); it ends when STALL_NODES positions bring no better
        # answer (``stall``), or after UPPER_SHARE of the limit
        if limited and best is not None and len(best) - 1 > low:
            beam_nodes = stall if node_limit is None else int(node_limit * BEAM_SHARE)
            shorter = self.beam(best, None if time_limit is None else started + time_limit * BEAM_SHARE, beam_nodes)
            best = polish(best, shorter)
            if self.interrupted:
                return result(best, low, False, False, refuted(low))
        share_deadline = None if time_limit is None else started + time_limit * UPPER_SHARE
        share_nodes = None if node_limit is None else started_nodes + int(node_limit * UPPER_SHARE)
        while limited and best is not None and len(best) - 1 >= low:
            left = stall if share_nodes is None else min(stall, share_nodes - self.nodes)
            if left <= 0:
                break
            status, jumps = self.search(len(best) - 1, share_deadline, left,
                                        label=f"branch and bound below {len(best)}")
            if status == FOUND:
                best = better(chains(jumps))
                note(f"branch and bound: {len(best)} moves")
            elif status == EXHAUSTED:
                note(f"branch and bound: none within {len(best) - 1} moves")
                return result(best, len(best), True, False, refuted(len(best)))
            elif self.interrupted:
                note(f"branch and bound below {len(best)}: interrupted (Ctrl-C)")
                return result(best, low, False, False, refuted(low))
            else:
                note("branch and bound: no better answer within its share of the limit"
                     if share_deadline is not None and time.perf_counter() > share_deadline
                     else f"branch and bound: no better answer within {left:,} positions")
                break
        # iterative deepening raises the proven bound; without a limit, a budget that takes more
        # than ``stall`` positions ends the run (the answer stays feasible, with the bound so far)
        budget = low
        while budget < (cap + 1 if best is None else min(len(best), cap + 1)):
            remaining = stall if not limited else None if node_limit is None else node_limit - self.nodes
            if remaining is not None and remaining <= 0:
                return result(best, budget, False, False, refuted(budget))
            status, jumps = self.search(budget, deadline, remaining,
                                        label=f"{budget} moves (best {'none' if best is None else len(best)})")
            if status == PAUSED:
                why = ("interrupted (Ctrl-C)" if self.interrupted else "time or position limit reached" if limited
                       else f"{stall:,} positions reached")
                note(f"{why} while searching {budget} moves")
                if not limited and not self.interrupted and best is not None and len(best) - 1 > budget:
                    best = polish(best, self.beam(best, None, stall))   # the bound stays: improve the answer
                return result(best, budget, False, False, refuted(budget))
            if status == FOUND:
                best = better(chains(jumps))
                note(f"{budget} moves: found")
                return result(best, budget, True, False, refuted(budget))
            note(f"{budget} moves: none")
            budget += 1
        if best is None:    # every budget up to the cap refuted, and no finish uses more moves
            return result(None, cap + 1, True, max_moves is None, refuted(cap + 1))
        return result(best, len(best), True, False, refuted(len(best)))
