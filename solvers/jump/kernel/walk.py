"""The depth-first walk of the compiled search (:func:`_run`), resumable slice by slice."""

from __future__ import annotations

import numpy as np
from numba import njit

from .finishes import _first_of_three
from .frames import (
    BUDGET,
    DEPTH,
    ENTERING,
    KEY,
    KEY_LAST,
    LANDING,
    LAST,
    MAY_START,
    MOVER,
    MOVERS_LEFT,
    NEXT_JUMP,
    ORDER,
    PERIMETER_HIT,
    PHASE,
    STONES,
    TRIED,
)
from .hashing import _U0, _U1, _dead_has, _dead_put, _high_index, _low_index, _per_get, _tt_get, _tt_put
from .leaves import _alone, _can_jump, _first_movers, _last_movers, _lower_bound, _reach
from .modes import ANY_NODE_ORDER, WITHIN_BUDGET
from .params import Frames, Limits, Memo, Tables
from .tuning import EXHAUSTED, FOUND, HALTED, PAUSED
from .workspace import PARITY, REACH


@njit(cache=True)
def _no_movers(fu: np.ndarray, d: int, pos: np.uint64, last: int, targets: np.uint64, jstart: np.ndarray,
               jover: np.ndarray, jto: np.ndarray, ends: np.ndarray, ostart: np.ndarray, ovec: np.ndarray,
               scratch: np.ndarray) -> bool:
    """Keeps :func:`_last_movers` (both tests) in frame ``d``: the stones that may start the last
    fresh move; True when there is none."""
    fu[d, MAY_START] = _last_movers(pos, last, targets, jstart, jover, jto, ends, ostart, ovec, scratch, REACH | PARITY)
    return fu[d, MAY_START] == _U0


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


@njit(cache=True)
def _prune(mode: int, d: int, f: Frames, tb: Tables, lim: Limits, stats: np.ndarray, leaf_tests: int) -> int:
    """The tests of a new frame that need no table: 1 when its position is a finish, 0 when it is
    refuted (a single stone off the targets, no live pagoda, the lower bound, the leaf tests), -1 when
    the walk must look further. Drops the last jumper when it has no jump left (its chain ends)."""
    fu, fi = f.fu, f.fi
    pos = fu[d, STONES]
    last = fi[d, LAST]
    budget = fi[d, BUDGET]
    if last >= 0 and not _can_jump(pos, last, tb.jstart, tb.jover, tb.jto):
        last = -1   # a jumper with no jump left ends its chain: the state is (stones, none)
        fi[d, LAST] = -1
    fu[d, MAY_START] = ~_U0   # the stones that may start a fresh move (see _last_movers)
    if pos & (pos - _U1) == _U0:
        return 1 if pos & tb.targets else 0
    live = tb.targets
    if tb.pneed.shape[0]:
        live = _U0
        for t in range(tb.pneed.shape[0]):
            if f.fps[d, t] >= tb.pneed[t]:
                live |= tb.pbit[t]
    if mode != WITHIN_BUDGET:
        return 0 if live == _U0 else -1
    if budget == 0 and (last < 0 or not _alone(pos, last, tb.targets, tb.jstart, tb.jover, tb.jto, tb.ends,
                                               tb.ostart, tb.ovec, f.scratch, leaf_tests)):
        stats[3] += 1
        return 0
    if live == _U0 or _lower_bound(pos, last, live, tb.unj, tb.regions) > budget:
        return 0
    if budget == 1 and lim.radius == 0 and _no_movers(fu, d, pos, last, tb.targets, tb.jstart, tb.jover, tb.jto,
                                                      tb.ends, tb.ostart, tb.ovec, f.scratch):
        stats[4] += 1
        return 0
    return -1


@njit(cache=True)
def _look_up(mode: int, d: int, f: Frames, tb: Tables, memo: Memo, lim: Limits) -> int:
    """The table tests of a new frame that :func:`_prune` let by: the backward perimeter, the dead table,
    the transposition table (1 finish, 0 refuted, -1 search its children). Readies the frame for its
    children: the last jumper's chain first (phase 0), then the fresh moves."""
    fu, fi, fimg = f.fu, f.fi, f.fimg
    pos = fu[d, STONES]
    last = fi[d, LAST]
    budget = fi[d, BUDGET]
    radius = lim.radius
    result = -1
    key = _U0
    s = 0
    if mode != WITHIN_BUDGET or budget >= lim.table_from or 0 < radius and budget <= radius + 1:
        key = pos
        for si in range(1, fimg.shape[1]):
            if fimg[d, si] < key:
                key = fimg[d, si]
                s = si
    if mode == WITHIN_BUDGET and 0 < radius and budget <= radius + 1:
        # the backward perimeter: exact distances (fresh moves) up to ``radius``; a chain in progress
        # may save one move
        dist = _per_get(memo.pk, memo.pd, key)
        if dist >= 0 and dist <= budget and d >= lim.shortcut_from:
            result = 1
            f.state[ENTERING] = PERIMETER_HIT
        else:
            need = radius + 1 if dist < 0 else dist
            if last >= 0:
                need -= 1
            if budget < need:
                result = 0
    if result < 0 and mode == WITHIN_BUDGET and budget < lim.table_from:
        key = _U0   # near the leaves: cheaper to search than to look up
    elif result < 0 and _dead_has(memo.dk, key):
        result = 0
    elif result < 0 and mode == WITHIN_BUDGET:
        klast = -1
        if last >= 0:
            klast = tb.perm[s, last]
        if _tt_get(memo.tk, memo.td, key, klast) >= budget:
            result = 0
        fi[d, KEY_LAST] = klast
    if result < 0:
        fu[d, KEY] = key
        fi[d, PHASE] = 0
        fi[d, MOVER] = last if mode != ANY_NODE_ORDER else -1
        if last >= 0:
            fi[d, NEXT_JUMP] = tb.jstart[last]
    return result


@njit(cache=True)
def _fresh_movers(mode: int, d: int, f: Frames, tb: Tables, memo: Memo, lim: Limits, order_from: int,
                  score: np.ndarray) -> None:
    """Phase 1 of frame ``d`` begins: the stones that may start a fresh move into ``fu[d, MOVERS_LEFT]``
    (without the last jumper, none when (stones, none) failed this budget, narrowed by the leaf tests
    with two or three fresh moves left), ordered by promise when the budget is one of the first."""
    fu, fi = f.fu, f.fi
    pos = fu[d, STONES]
    budget = fi[d, BUDGET]
    rest = pos & fu[d, MAY_START]
    last = fi[d, LAST]
    if last >= 0 and mode != ANY_NODE_ORDER:
        rest &= ~(_U1 << np.uint64(last))
        if mode == WITHIN_BUDGET and fu[d, KEY] != _U0 and _tt_get(memo.tk, memo.td, fu[d, KEY], -1) >= budget:
            rest = _U0   # (stones, none) failed this budget: so does every fresh move
    if mode == WITHIN_BUDGET and budget == 2 and lim.radius == 0 and rest != _U0:
        rest &= _first_movers(pos, tb.targets, tb.jstart, tb.jover, tb.jto, tb.ostart, tb.ovec, f.scratch)
    elif mode == WITHIN_BUDGET and budget == 3 and lim.radius == 0 and rest != _U0:
        rest &= _first_of_three(pos, tb.targets, tb.jstart, tb.jover, tb.jto, tb.ostart, tb.ovec, f.scratch)
    if budget >= order_from and rest != _U0:
        _order_movers(pos, rest, tb.jstart, tb.jover, tb.jto, tb.ends, f.fo[d], score)
    fu[d, MOVERS_LEFT] = rest


@njit(cache=True)
def _next_child(mode: int, d: int, f: Frames, tb: Tables, memo: Memo, lim: Limits, high_first: bool,
                order_from: int, score: np.ndarray) -> bool:
    """Finds frame ``d``'s next jump (the current mover's next, else the next mover's first) and records
    it in ``fi[d, MOVER]``, ``fi[d, NEXT_JUMP]``, ``fi[d, LANDING]``; False when none is left."""
    fu, fi, fo = f.fu, f.fi, f.fo
    jstart, jover, jto = tb.jstart, tb.jover, tb.jto
    pos = fu[d, STONES]
    budget = fi[d, BUDGET]
    cur = fi[d, MOVER]
    k = fi[d, NEXT_JUMP]
    while True:
        if cur >= 0:
            end = jstart[cur + 1]
            while k < end:
                o = jover[k]
                t = jto[k]
                k += 1
                if (pos >> np.uint64(o)) & _U1 and not (pos >> np.uint64(t)) & _U1:
                    fi[d, MOVER] = cur
                    fi[d, NEXT_JUMP] = k
                    fi[d, LANDING] = t
                    return True
            cur = -1
        if fi[d, PHASE] == 0:
            fi[d, PHASE] = 1
            if mode == WITHIN_BUDGET and budget == 0:
                return False
            _fresh_movers(mode, d, f, tb, memo, lim, order_from, score)
        rest = fu[d, MOVERS_LEFT]
        if rest == _U0:
            return False
        if budget >= order_from:
            fo[d, TRIED] += 1
            cur = fo[d, fo[d, TRIED]]
        else:
            cur = _high_index(rest) if high_first else _low_index(rest)
        fu[d, MOVERS_LEFT] = rest & ~(_U1 << np.uint64(cur))
        k = jstart[cur]


@njit(cache=True)
def _push(mode: int, d: int, f: Frames, tb: Tables) -> None:
    """Frame ``d + 1`` from frame ``d``'s jump: the stones' images and pagoda sums updated by the jump's
    three nodes, the lander as the last jumper, one fresh move spent unless it continues the chain."""
    fu, fi, fimg, fps = f.fu, f.fi, f.fimg, f.fps
    budget = fi[d, BUDGET]
    if mode == WITHIN_BUDGET and fi[d, MOVER] != fi[d, LAST]:
        budget -= 1
    j = fi[d, NEXT_JUMP] - 1
    for si in range(fimg.shape[1]):
        fimg[d + 1, si] = fimg[d, si] ^ tb.jimg[si, j]
    for pi in range(fps.shape[1]):
        fps[d + 1, pi] = fps[d, pi] + tb.jpag[pi, j]
    fu[d + 1, STONES] = fimg[d + 1, 0]
    fi[d + 1, LAST] = fi[d, LANDING]
    fi[d + 1, BUDGET] = budget


@njit(cache=True)
def _refuted(mode: int, d: int, f: Frames, memo: Memo) -> None:
    """Frame ``d`` has no finish (within its budget): the transposition table learns it for (stones,
    last jumper) and for (stones, none) -- every finish from (stones, none) is one from (stones, last
    jumper) at no greater cost --, or the dead table for (stones)."""
    fu, fi = f.fu, f.fi
    if mode == WITHIN_BUDGET:
        if fu[d, KEY] != _U0:
            _tt_put(memo.tk, memo.td, fu[d, KEY], fi[d, KEY_LAST], fi[d, BUDGET], memo.stats)
            if fi[d, KEY_LAST] >= 0:   # (stones, none) cannot do better
                _tt_put(memo.tk, memo.td, fu[d, KEY], -1, fi[d, BUDGET], memo.stats)
    else:
        _dead_put(memo.dk, fu[d, KEY], memo.stats)


@njit(cache=True, nogil=True)
def _run(mode: int, f: Frames, tb: Tables, memo: Memo, lim: Limits, halt: np.ndarray) -> int:
    """Runs the depth-first search held in the frames ``f`` for at most ``lim.max_nodes`` positions, in
    ``mode`` (:mod:`.modes`).

    Frame ``d`` is the position after ``d`` single jumps (its columns: :mod:`.frames`). ``state[ORDER]``
    1 tries the stones that start a move from the highest node down (a second walk of the same tree in
    another order), 0 from the lowest up, or, in the budgeted mode, in the walk's first
    ``lim.order_moves`` fresh moves, by promise (:func:`_order_movers`). The frames carry what a
    position's children update by three bits or three weights instead of recomputing (:func:`_push`).
    In the budgeted mode a state (stones, last jumper) refuted within ``b`` moves also records (stones,
    none) as refuted within ``b`` (:func:`_refuted`), so a later chain state on the same stones whose
    own chain has failed skips its fresh moves, which are exactly the moves of (stones, none) at the
    same budget. Pauses also when a table holds more than ``lim.grow_tt`` / ``lim.grow_dead`` entries
    (time to grow it). Returns FOUND (the jumps are ``(fi[i, MOVER], fi[i, LANDING])`` for
    ``i < state[DEPTH]``; ``state[ENTERING] == PERIMETER_HIT`` when the last position is a perimeter hit
    still to be completed), EXHAUSTED or PAUSED. The perimeter (``memo.pk``, ``memo.pd``: canonical
    position -> moves to a goal, complete up to ``lim.radius``) answers at depth ``lim.shortcut_from``
    and below. ``halt[0]``: set on FOUND or EXHAUSTED; a walk that sees it set (another walk ended the
    search, or the driver's tick) pauses within 1024 positions and returns HALTED (PAUSED when its
    positions or a table's limit came first)."""
    state, stats = f.state, memo.stats
    d = state[DEPTH]
    entering = state[ENTERING]
    high_first = state[ORDER] == 1
    leaf_tests = REACH | PARITY if lim.radius == 0 else REACH   # the perimeter answers near the leaves
    result = -1
    count = 0
    score = np.zeros(64, dtype=np.int64)   # work space of _order_movers
    # the budgets whose movers go by promise: the walk's first order_moves fresh moves (budgeted, low-first walk)
    order_from = 1 << 30
    if mode == WITHIN_BUDGET and lim.order_moves > 0 and not high_first:
        order_from = f.fi[0, BUDGET] - lim.order_moves + 1
    while True:
        if entering:
            entering = 0
            count += 1
            result = _prune(mode, d, f, tb, lim, stats, leaf_tests)
            if result < 0:
                result = _look_up(mode, d, f, tb, memo, lim)
        if result >= 0:
            if result == 1 or d == 0:
                stats[0] += count
                state[DEPTH] = d
                if result == 0 or state[ENTERING] != PERIMETER_HIT:
                    state[ENTERING] = 0
                halt[0] = 1
                return FOUND if result == 1 else EXHAUSTED
            d -= 1
            result = -1
        spent = count >= lim.max_nodes or stats[1] > lim.grow_tt or stats[2] > lim.grow_dead
        if spent or halt[0] and count & 1023 == 0:
            stats[0] += count
            state[DEPTH] = d
            state[ENTERING] = 0
            return PAUSED if spent else HALTED
        if _next_child(mode, d, f, tb, memo, lim, high_first, order_from, score):
            _push(mode, d, f, tb)
            d += 1
            entering = 1
        else:
            _refuted(mode, d, f, memo)
            result = 0
