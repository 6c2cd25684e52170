"""Leaf tests with three stones left to move: the bare-finish filters and :func:`_first_of_three`."""

from __future__ import annotations

import numpy as np
from numba import njit

from .hashing import _HASH, _U0, _U1, _hash_slot, _low_index, _popcount
from .leaves import _end_cosets, _first_line, _groups, _movable, _reduce, _removal_cosets, _trail_system
from .workspace import PAIR_FILTER_BITS, WIDE_FILTER_BITS, WIDE_MOST, _layout


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
    removal a removal?). The filter is cheaper per state than an exact hash set of the pairs."""
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
def _sides(stones: np.uint64, area: np.uint64, ostart: np.ndarray, ovec: np.ndarray, piv: np.ndarray,
           pivots: np.uint64, out: np.ndarray) -> int:
    """The sides ``p_X`` (``e_X`` + its first line inside ``area``, reduced) of the stones ``X`` of
    ``stones`` into ``out``, in node order; returns how many."""
    n = 0
    rest = stones
    while rest:
        x = _low_index(rest)
        rest &= rest - _U1
        out[n] = _reduce(_first_line(x, area, ostart, ovec) ^ (_U1 << np.uint64(x)), piv, pivots)
        n += 1
    return n


@njit(cache=True)
def _last_mover_filter(sides: np.ndarray, n: int, end: np.ndarray, n_ends: int, side_set: np.ndarray,
                       wide: np.ndarray) -> None:
    """The J3 side of :func:`_no_bare_finish`: the sums ``S`` of two, one or no sides into the hash
    set ``side_set`` (but 0), and each ``e_w + S`` as two bits into the filter ``wide``."""
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


@njit(cache=True)
def _fits_a_finish(base: np.uint64, tied: np.ndarray, mt: int, removal: np.ndarray, m: int, end: np.ndarray,
                   n_ends: int, side_set: np.ndarray, wide: np.ndarray) -> bool:
    """The J1 side of :func:`_no_bare_finish` for one J1 (``base``: ``c + p_J1``): is some ``base``
    + a tied removal (or none) + a removal anywhere (or none) + an end one of the sums ``S``?"""
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
                    return True
    return False


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
    set of the 16,000 sums costs about three times as much. The keys are looked up J1 by J1, and
    the J1s with a fit are the answer (on seed 117's states that pass, 202 of the 835 stones that
    can jump). More than :data:`WIDE_MOST` sums: every stone that can jump, without
    looking. ``scratch`` as in :func:`_first_of_three`."""
    lay = _layout(ovec.shape[0])
    small = lay.small
    end = scratch[lay.ends:lay.ends + 64]
    tied = scratch[lay.tied:lay.tied + small]
    removal = scratch[lay.removal:lay.removal + ovec.shape[0]]
    sides = scratch[lay.used:lay.used + 64]     # (used slots of the big set)
    home = scratch[lay.home:lay.home + 64]
    wide = scratch[lay.filter:lay.filter + (1 << WIDE_FILTER_BITS) // 64]
    n_ends = _end_cosets(targets & area, piv, pivots, end)
    n = _sides(pos, area, ostart, ovec, piv, pivots, sides)
    n_side = 1 + n + n * (n - 1) // 2
    if n_side * n_ends > WIDE_MOST:
        return movable
    size = 64
    while size < 4 * n_side:
        size *= 2
    side_set = scratch[lay.sides:lay.sides + size]      # the S but 0 (0 is always one)
    _last_mover_filter(sides, n, end, n_ends, side_set, wide)     # the J3 side: e_w + S into the filter
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
            if _fits_a_finish(base, tied, mt, removal, m, end, n_ends, side_set, wide):
                movers |= _U1 << np.uint64(j1)
    wide[:] = _U0
    side_set[:] = _U0
    return movers


@njit(cache=True)
def _one_bare_first(pos: np.uint64, bare: np.uint64, k: np.uint64, area: np.uint64, movable: np.uint64,
                    removal: np.ndarray, m: int, end: np.ndarray, n_ends: int, ostart: np.ndarray, ovec: np.ndarray,
                    piv: np.ndarray, pivots: np.uint64, sides: np.ndarray, keys: np.ndarray, used: np.ndarray,
                    pairs: np.ndarray) -> np.uint64:
    """:func:`_first_of_three` with one bare stone (``bare``; ``k``: ``c`` + ``e_b``): the bare stone
    and the other movers of every choice that fits (:func:`_one_bare_finish`), those that can jump."""
    n = _sides(pos & ~bare, area, ostart, ovec, piv, pivots, sides)
    found, which = _one_bare_finish(k, removal, m, end, n_ends, sides, n, keys, used, pairs)
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


@njit(cache=True)
def _removals_fit_ends(k: np.uint64, bare: np.uint64, nbare: int, removal: np.ndarray, m: int, end: np.ndarray,
                       n_ends: int, keys: np.ndarray, used: np.ndarray, seen: np.ndarray) -> np.uint64:
    """:func:`_first_of_three` with two or three bare stones moving alone: ``bare`` when ``k`` + an
    end is one removal (two movers) or, with three, the sum of two removals; else 0."""
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
    return allowed


@njit(cache=True)
def _third_movers(pos: np.uint64, bare: np.uint64, k: np.uint64, area: np.uint64, movable: np.uint64,
                  removal: np.ndarray, m: int, end: np.ndarray, n_ends: int, ostart: np.ndarray, ovec: np.ndarray,
                  piv: np.ndarray, pivots: np.uint64, keys: np.ndarray, masks: np.ndarray, used: np.ndarray,
                  seen: np.ndarray) -> np.uint64:
    """:func:`_first_of_three` with two bare stones and a third mover X: the Xs whose ``k + p_X +
    e_w`` (in a hash set behind the filter ``seen``) is the sum of two removals."""
    xs = pos & ~bare
    if bare & movable == _U0:
        xs &= movable        # J1 is X
    size = 16
    while size < 4 * n_ends * _popcount(xs) and size < keys.shape[0]:
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
    return found


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
    lay = _layout(ovec.shape[0])
    big = lay.big
    piv = scratch[lay.basis:lay.basis + 64]
    end = scratch[lay.ends:lay.ends + 64]
    removal = scratch[lay.removal:lay.removal + ovec.shape[0]]
    keys = scratch[lay.keys:lay.keys + big]
    masks = scratch[lay.masks:lay.masks + big]
    used = scratch[lay.used:lay.used + big]
    home = scratch[lay.home:lay.home + 64]
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
    seen = scratch[lay.seen:lay.seen + 1024]     # 65536 bits: most sums miss
    if nbare == 1:
        pairs = scratch[lay.filter:lay.filter + (1 << PAIR_FILTER_BITS) // 64]  # wide filter
        return _one_bare_first(pos, bare, k, area, movable, removal, m, end, n_ends, ostart, ovec, piv, pivots,
                               masks, keys, used, pairs)
    allowed = _removals_fit_ends(k, bare, nbare, removal, m, end, n_ends, keys, used, seen)
    if nbare == 3:
        return allowed & movable
    found = _third_movers(pos, bare, k, area, movable, removal, m, end, n_ends, ostart, ovec, piv, pivots, keys,
                          masks, used, seen)
    if found != _U0:
        allowed |= bare | found
    return allowed & movable


