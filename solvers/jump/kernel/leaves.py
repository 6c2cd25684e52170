"""Leaf tests of the compiled search: the admissible lower bound, reach, the GF(2) trail parity, and
which stones can finish with no or one fresh move left (:func:`_alone`, :func:`_last_movers`) or two
(:func:`_first_movers`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from .hashing import _U0, _U1, _hash_slot, _high_index, _low_index, _popcount
from .workspace import BASIS, PARITY, REACH, _layout


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
    return not tests & PARITY or _alone_by_parity(pos, j, reach, targets, ostart, ovec, scratch[BASIS:BASIS + 64]) == 1


@njit(cache=True)
def _alone_by_parity(pos: np.uint64, j: int, reach: np.uint64, targets: np.uint64, ostart: np.ndarray,
                     ovec: np.ndarray, piv: np.ndarray) -> int:
    """1 when the jumps of the stone on ``j`` (reach ``reach``), one across each other stone, may sum
    to ``e_j + e_end`` with the end on a target (see :func:`_last_movers`), else 0."""
    jb = _U1 << np.uint64(j)
    c, pivots, bare = _trail_system(pos & ~jb, reach, ostart, ovec, piv, 0)
    return 1 if bare == _U0 and _ends_at(_reduce(c ^ jb, piv, pivots), reach & targets, piv, pivots) else 0


@njit(cache=True)
def _left_to_mover(stones: np.uint64, rl: np.uint64, ends: np.ndarray) -> np.uint64:
    """The stones of ``stones`` that no jump starting in the reach ``rl`` passes over: those the chain
    of the last jumper cannot clear, left to the other mover."""
    left = _U0
    rest = stones
    while rest:
        b = _low_index(rest)
        rest &= rest - _U1
        if not ends[b] & rl:
            left |= _U1 << np.uint64(b)
    return left


@njit(cache=True)
def _jump_starts_over(nodes: np.uint64, ends: np.ndarray) -> np.uint64:
    """The nodes from which a jump over a node of ``nodes`` starts."""
    starts = _U0
    rest = nodes
    while rest:
        b = _low_index(rest)
        rest &= rest - _U1
        starts |= ends[b]
    return starts


@njit(cache=True)
def _by_reach(cand: np.uint64, reach: np.uint64, left: np.uint64, last_ends: np.uint64,
              ends: np.ndarray) -> np.uint64:
    """The stones of ``cand`` (a group of reach ``reach``) that pass the reach test of
    :func:`_last_movers`: the reach holds a start of a jump over a node where the last jumper may end
    (``last_ends``) and over every stone left to the mover (``left``) but the mover itself."""
    if not reach & last_ends:
        return _U0
    missed = _U0   # stones left to J that no jump from its reach passes over: J itself at most
    rest = left
    while rest:
        b = _low_index(rest)
        rest &= rest - _U1
        if not ends[b] & reach:
            if missed:
                return _U0
            missed = _U1 << np.uint64(b)
    return cand & missed if missed else cand


@njit(cache=True)
def _removals_of_last(rl: np.uint64, reach: np.uint64, ostart: np.ndarray, ovec: np.ndarray, piv: np.ndarray,
                      pivots: np.uint64, removals: np.ndarray) -> bool:
    """The cosets of the removals of the last jumper by the mover: its end ``u`` in ``rl`` and the
    jump ``(a, u, c)``, ``a`` and ``c`` in the mover's reach, as ``e_u + e_a + e_c``, into the hash
    set ``removals`` (cleared first); returns whether the coset 0 is one of them."""
    removal_zero = False
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
    return removal_zero


@njit(cache=True)
def _by_parity(cand: np.uint64, c: np.uint64, area: np.uint64, lb: np.uint64, last: int, n_ends: int,
               end_cosets: np.ndarray, removals: np.ndarray, removal_zero: bool, ostart: np.ndarray,
               ovec: np.ndarray, piv: np.ndarray, pivots: np.uint64) -> np.uint64:
    """The stones of ``cand`` that pass the parity test of :func:`_last_movers`: the stones' jumps
    (``c`` + the span) plus the mover's trail ends (``e_J + e_w``, ``w`` a target's coset of
    ``end_cosets``) give the removal of the last jumper (``removals``) or 0 when there is none."""
    movers = _U0
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
    lay = _layout(ovec.shape[0])
    piv = scratch[lay.basis:lay.basis + 64]
    end_cosets = scratch[lay.ends:lay.ends + 64]
    removals = scratch[lay.tied:lay.tied + lay.small]
    by_reach = tests & REACH != 0
    by_parity = tests & PARITY != 0
    if last >= 0:
        lb = _U1 << np.uint64(last)
        rl = _reach(last, pos, jstart, jover, jto)
        left = _left_to_mover(pos & ~lb, rl, ends) if by_reach else _U0
        alone = -1      # may the chain of last clear the board alone by parity (-1: not yet known)?
        if not by_parity:
            alone = 1
        elif left == _U0:
            alone = _alone_by_parity(pos, last, rl, targets, ostart, ovec, piv)
        if left == _U0 and alone == 1:
            return ~_U0
        over = pos | rl
        last_ends = _jump_starts_over(rl, ends)   # nodes from which a jump over a node where last may end starts
    else:
        lb = rl = _U0
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
        if left != _U0:
            cand = _by_reach(cand, reach, left, last_ends, ends)
        if cand == _U0:
            continue
        if alone < 0:   # known only now that some stone passed the reach test
            alone = _alone_by_parity(pos, last, rl, targets, ostart, ovec, piv)
        if alone == 1:
            movers |= cand
            continue
        area = rl | reach
        c, pivots, bare = _trail_system(stones, area, ostart, ovec, piv, 1)
        if bare & (bare - _U1):
            continue    # two stones no jump inside the reaches passes over: neither is J
        if bare:
            cand &= bare
        n_ends = _end_cosets(reach & targets, piv, pivots, end_cosets)
        removal_zero = last >= 0 and _removals_of_last(rl, reach, ostart, ovec, piv, pivots, removals)
        movers |= _by_parity(cand, c, area, lb, last, n_ends, end_cosets, removals, removal_zero, ostart, ovec,
                             piv, pivots)
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
def _first_mover_sides(pos: np.uint64, rc: np.uint64, targets: np.uint64, area: np.uint64, bare: np.uint64,
                       home: np.ndarray, n_home: int, jstart: np.ndarray, jover: np.ndarray, jto: np.ndarray,
                       ostart: np.ndarray, ovec: np.ndarray, piv: np.ndarray, pivots: np.uint64, removal: np.ndarray,
                       keys: np.ndarray, masks: np.ndarray, used: np.ndarray) -> tuple[np.uint64, np.uint64, int]:
    """The J1 side of :func:`_first_movers`: each stone that can move now (groups ``home``), its
    ``e_J1`` + first line + a removal of it by J2, into the hash set ``keys``/``masks`` (slots taken
    listed in ``used``). Returns the J1s that may clear the board alone, the J1s whose side is the
    coset 0, and how many slots were taken."""
    movers = _U0
    nused = 0
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
    return movers, zero, nused


@njit(cache=True)
def _second_mover_sides(pos: np.uint64, c: np.uint64, targets: np.uint64, area: np.uint64, bare: np.uint64,
                        nbare: int, wide: np.ndarray, n_wide: int, movers: np.uint64, zero: np.uint64,
                        ostart: np.ndarray, ovec: np.ndarray, piv: np.ndarray, pivots: np.uint64, end: np.ndarray,
                        keys: np.ndarray, masks: np.ndarray) -> np.uint64:
    """The J2 side of :func:`_first_movers`: each stone J2 (groups ``wide``) with each target it may
    end on, looked up among the J1 sides; returns ``movers`` with the J1s found."""
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
    return movers


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
    lay = _layout(ovec.shape[0])
    big = lay.big
    piv = scratch[lay.basis:lay.basis + 64]
    end = scratch[lay.ends:lay.ends + 64]     # the cosets of e_w for the targets w of one wide group
    removal = scratch[lay.removal:lay.removal + ovec.shape[0]]    # a group's cosets of e_u + a line across u
    keys = scratch[lay.keys:lay.keys + big]
    masks = scratch[lay.masks:lay.masks + big]
    used = scratch[lay.used:lay.used + big]
    home = scratch[lay.home:lay.home + 64]    # the groups' reaches over the stones
    wide = scratch[lay.wide:lay.wide + 64]    # ... and over the stones and all they reach
    n_home, reached = _groups(pos, pos, jstart, jover, jto, home)
    over = pos | reached
    n_wide, area = _groups(pos, over, jstart, jover, jto, wide)   # wherever the other mover may stand
    c, pivots, bare = _trail_system(pos, area, ostart, ovec, piv, 2)
    nbare = _popcount(bare)
    if nbare > 2:
        return _U0    # stones no jump inside the area passes over must move: at most J1 and J2
    rc = _reduce(c, piv, pivots)
    movers, zero, nused = _first_mover_sides(pos, rc, targets, area, bare, home, n_home, jstart, jover, jto, ostart,
                                             ovec, piv, pivots, removal, keys, masks, used)
    movers = _second_mover_sides(pos, c, targets, area, bare, nbare, wide, n_wide, movers, zero, ostart, ovec, piv,
                                 pivots, end, keys, masks)
    for i in range(nused):
        keys[used[i]] = _U0
        masks[used[i]] = _U0
    return movers


