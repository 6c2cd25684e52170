"""The depth-first walk of the compiled search (:func:`_run`), resumable slice by slice.

:func:`_run` runs the search held in a walk's frames for at most ``max_nodes`` positions. Its
arrays come in three named groups (:mod:`.groups`): ``fr`` (:class:`~.groups.Frames`, the walk's
own), ``tb`` (:class:`~.groups.Tables`, read only) and ``hs`` (:class:`~.groups.Hashes`, the
tables shared by the walks of a search), with ``counts`` (the counters :data:`~.groups.NODES`,
:data:`~.groups.TT_ENTRIES`, :data:`~.groups.DEAD_ENTRIES`).
Frame ``d``: ``fu[d] = (stones, movers left, canonical key, stones that may start a move)``,
``fi[d] = (last jumper, budget, phase, mover, next jump, landing, key's last node)``.
``state = (depth, entering, order, hit)``; order 1 tries the stones that start a move from the
highest node down (a second walk of the same tree in another order), 0 from the lowest up, or
in the budgeted mode, in the walk's first ``order_moves`` fresh moves, by promise (``fo[d] = (how many
tried, the movers in turn)``, :func:`_order_movers`).
The frames carry what a position's children update by three bits or three weights instead of
recomputing: ``fimg[d, s]`` = the image of the stones under
symmetry ``s`` (``s = 0`` the identity) and ``fps[d, t]`` = the stones' sum under pagoda
``t``; ``jimg[s, k]`` and ``jpag[t, k]`` are jump ``k``'s changes to them (its three nodes'
image; to-weight minus from- and over-weights).
``mode`` (:mod:`.modes`): ANY_CHAIN_FIRST and ANY_NODE_ORDER search any finish (dead table),
WITHIN_BUDGET a finish within the budget (transposition table). In the budgeted mode a
state (stones, last jumper) refuted within ``b`` moves also records (stones, none) as refuted
within ``b``: every finish from (stones, none) is one from (stones, last jumper) at no greater
cost (a fresh move costs the same there, and the last jumper's one costs nothing). So a later
chain state on the same stones whose own chain has failed skips its fresh moves, which are
exactly the moves of (stones, none) at the same budget. Pauses also
when a table holds more than ``grow_tt`` / ``grow_dead`` entries (time to grow it).
Returns FOUND (the jumps are ``(fi[i, MOVER], fi[i, LANDING])`` for ``i < state[DEPTH]``; ``state[HIT] == 1``
when the last position is a perimeter hit still to be completed), EXHAUSTED or PAUSED. The
perimeter (``tb.pk``, ``tb.pd``: canonical position -> moves to a goal, complete up to ``tb.radius``)
answers at depth ``shortcut_from`` and below. ``halt[0]``: set on FOUND or EXHAUSTED; a walk
that sees it set (another walk ended the search, or the driver's tick) pauses within 1024
positions and returns HALTED (PAUSED when its positions or a table's limit came first).

Its steps (:func:`_enter`, :func:`_look_up`, :func:`_next_child`,
:func:`_fresh_movers`, :func:`_push`, :func:`_refute`) compile inline into its loop (``inline="always"``),
which is compiled without reference counting (numba's ``_nrt=False``): with it, every array
handed to an inlined step costs an atomic increment and decrement per position, which made the walk
2.7 times slower on the English board. So it allocates nothing (the work space of
:func:`_order_movers` is the frame's ``fo[d, SCORES:]``). A group is a named tuple: numba passes
its fields as it passed the plain arguments they were, so grouping costs nothing."""

from __future__ import annotations

import numpy as np
from numba import njit

from .finishes import _first_of_three
from .frames import (
    BUDGET,
    DEPTH,
    ENTERING,
    HIT,
    KEY,
    KEY_LAST,
    LANDING,
    LAST,
    MAY_START,
    MOVER,
    MOVERS_LEFT,
    NEXT_JUMP,
    ORDER,
    PHASE,
    STONES,
    SCORES,
    TRIED,
)
from .groups import DEAD_ENTRIES, NODES, TT_ENTRIES, Frames, Hashes, Tables
from .hashing import _U0, _U1, _dead_has, _dead_put, _high_index, _low_index, _per_get, _tt_get, _tt_put
from .leaves import _alone, _can_jump, _first_movers, _last_movers, _lower_bound, _reach
from .modes import ANY_NODE_ORDER, WITHIN_BUDGET
from .tuning import EXHAUSTED, FOUND, HALTED, PAUSED
from .workspace import PARITY, REACH


@njit(cache=True)
def _no_movers(fu: np.ndarray, d: int, pos: np.uint64, last: int, targets: np.uint64, jstart: np.ndarray,
               jover: np.ndarray, jto: np.ndarray, ends: np.ndarray, ostart: np.ndarray, ovec: np.ndarray,
               scratch: np.ndarray) -> bool:
    """Keeps :func:`_last_movers` (both tests) in frame ``d``: the stones that may start the last
    fresh move; True when there is none (not inlined: it takes plain arrays, as the leaf tests do)."""
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


@njit(cache=True, inline="always")
def _enter(mode: int, d: int, fr: Frames, tb: Tables, hs: Hashes, counts: np.ndarray, shortcut_from: int,
           leaf_tests: int) -> int:
    """The tests of the new frame ``d``: 1 a finish, 0 refuted, -1 its children are to be searched
    (the frame is then set up to iterate them)."""
    fu, fi = fr.fu, fr.fi
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
            if fr.fps[d, t] >= tb.pneed[t]:
                live |= tb.pbit[t]
    if mode == WITHIN_BUDGET and budget == 0 and (last < 0 or not _alone(
            pos, last, tb.targets, tb.jstart, tb.jover, tb.jto, tb.ends, tb.ostart, tb.ovec, fr.scratch, leaf_tests)):
        return 0
    if live == _U0:
        return 0
    if mode == WITHIN_BUDGET and _lower_bound(pos, last, live, tb.unj, tb.regions) > budget:
        return 0
    if mode == WITHIN_BUDGET and budget == 1 and tb.radius == 0 and _no_movers(
            fu, d, pos, last, tb.targets, tb.jstart, tb.jover, tb.jto, tb.ends, tb.ostart, tb.ovec, fr.scratch):
        return 0
    return _look_up(mode, d, pos, last, budget, fr, tb, hs, shortcut_from)


@njit(cache=True, inline="always")
def _look_up(mode: int, d: int, pos: np.uint64, last: int, budget: int, fr: Frames, tb: Tables, hs: Hashes,
             shortcut_from: int) -> int:
    """Frame ``d``'s canonical key in the perimeter and the tables (as :func:`_enter`)."""
    fu, fi, fimg = fr.fu, fr.fi, fr.fimg
    radius, table_from = tb.radius, tb.table_from
    result = -1
    key = _U0
    s = 0
    if mode != WITHIN_BUDGET or budget >= table_from or 0 < radius and budget <= radius + 1:
        key = pos
        for si in range(1, fimg.shape[1]):
            if fimg[d, si] < key:
                key = fimg[d, si]
                s = si
    if mode == WITHIN_BUDGET and 0 < radius and budget <= radius + 1:
        # the backward perimeter: exact distances (fresh moves) up to ``radius``;
        # a chain in progress may save one move
        dist = _per_get(tb.pk, tb.pd, key)
        if dist >= 0 and dist <= budget and d >= shortcut_from:
            result = 1
            fr.state[HIT] = 1
        else:
            need = radius + 1 if dist < 0 else dist
            if last >= 0:
                need -= 1
            if budget < need:
                result = 0
    if result < 0 and mode == WITHIN_BUDGET and budget < table_from:
        # near the leaves: cheaper to search than to look up
        key = _U0
    elif result < 0 and _dead_has(hs.dk, key):
        result = 0
    elif result < 0 and mode == WITHIN_BUDGET:
        klast = -1
        if last >= 0:
            klast = tb.perm[s, last]
        if _tt_get(hs.tk, hs.td, key, klast) >= budget:
            result = 0
        fi[d, KEY_LAST] = klast
    if result < 0:
        fu[d, KEY] = key
        # iterate: the last jumper's chain first (phase 0), then the others
        fi[d, PHASE] = 0
        fi[d, MOVER] = last if mode != ANY_NODE_ORDER else -1
        if last >= 0:
            fi[d, NEXT_JUMP] = tb.jstart[last]
    return result


@njit(cache=True, inline="always")
def _fresh_movers(mode: int, d: int, pos: np.uint64, budget: int, fr: Frames, tb: Tables, hs: Hashes,
                  order_from: int) -> None:
    """Frame ``d``'s stones to try as the start of a fresh move, into ``fu[d, MOVERS_LEFT]`` (and by
    promise into ``fo[d]`` when ``budget >= order_from``)."""
    fu = fr.fu
    rest = pos & fu[d, MAY_START]
    last = fr.fi[d, LAST]
    if last >= 0 and mode != ANY_NODE_ORDER:
        rest &= ~(_U1 << np.uint64(last))
        if mode == WITHIN_BUDGET and fu[d, KEY] != _U0 and _tt_get(hs.tk, hs.td, fu[d, KEY], -1) >= budget:
            rest = _U0   # (stones, none) failed this budget: so does every fresh move
    if mode == WITHIN_BUDGET and budget == 2 and tb.radius == 0 and rest != _U0:
        rest &= _first_movers(pos, tb.targets, tb.jstart, tb.jover, tb.jto, tb.ostart, tb.ovec, fr.scratch)
    elif mode == WITHIN_BUDGET and budget == 3 and tb.radius == 0 and rest != _U0:
        rest &= _first_of_three(pos, tb.targets, tb.jstart, tb.jover, tb.jto, tb.ostart, tb.ovec, fr.scratch)
    if budget >= order_from and rest != _U0:
        _order_movers(pos, rest, tb.jstart, tb.jover, tb.jto, tb.ends, fr.fo[d], fr.fo[d, SCORES:])
    fu[d, MOVERS_LEFT] = rest


@njit(cache=True, inline="always")
def _next_child(mode: int, d: int, fr: Frames, tb: Tables, hs: Hashes, order_from: int, high_first: bool) -> int:
    """The next jump of frame ``d`` to a child: its index, with its mover and the next jump to try
    kept in the frame; -1 when none is left."""
    fu, fi, fo = fr.fu, fr.fi, fr.fo
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
                    return k - 1
            cur = -1
        if fi[d, PHASE] == 0:
            fi[d, PHASE] = 1
            if mode == WITHIN_BUDGET and budget == 0:
                return -1
            _fresh_movers(mode, d, pos, budget, fr, tb, hs, order_from)
        rest = fu[d, MOVERS_LEFT]
        if rest == _U0:
            return -1
        if budget >= order_from:
            fo[d, TRIED] += 1
            cur = fo[d, fo[d, TRIED]]
        else:
            cur = _high_index(rest) if high_first else _low_index(rest)
        fu[d, MOVERS_LEFT] = rest & ~(_U1 << np.uint64(cur))
        k = jstart[cur]


@njit(cache=True, inline="always")
def _push(mode: int, d: int, j: int, fr: Frames, tb: Tables) -> None:
    """Frame ``d + 1``: frame ``d``'s position after its mover's jump ``j``."""
    fu, fi, fimg, fps = fr.fu, fr.fi, fr.fimg, fr.fps
    t = tb.jto[j]
    fi[d, LANDING] = t
    nb = fi[d, BUDGET]
    if mode == WITHIN_BUDGET and fi[d, MOVER] != fi[d, LAST]:
        nb -= 1
    for si in range(fimg.shape[1]):
        fimg[d + 1, si] = fimg[d, si] ^ tb.jimg[si, j]
    for pi in range(fps.shape[1]):
        fps[d + 1, pi] = fps[d, pi] + tb.jpag[pi, j]
    fu[d + 1, STONES] = fimg[d + 1, 0]
    fi[d + 1, LAST] = t
    fi[d + 1, BUDGET] = nb


@njit(cache=True, inline="always")
def _refute(mode: int, d: int, fr: Frames, hs: Hashes, counts: np.ndarray) -> None:
    """Frame ``d`` has no child left: its state into the table of ``mode``."""
    fu, fi = fr.fu, fr.fi
    if mode == WITHIN_BUDGET:
        if fu[d, KEY] != _U0:
            _tt_put(hs.tk, hs.td, fu[d, KEY], fi[d, KEY_LAST], fi[d, BUDGET], counts)
            if fi[d, KEY_LAST] >= 0:   # (stones, none) cannot do better (see the module docstring)
                _tt_put(hs.tk, hs.td, fu[d, KEY], -1, fi[d, BUDGET], counts)
    else:
        _dead_put(hs.dk, fu[d, KEY], counts)


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # an option numba leaves out of its types
def _run(mode: int, fr: Frames, tb: Tables, hs: Hashes, counts: np.ndarray, max_nodes: int, grow_tt: int,
         grow_dead: int, shortcut_from: int, halt: np.ndarray, order_moves: int) -> int:
    """Runs the depth-first search held in the frames ``fr`` for at most ``max_nodes`` positions:
    FOUND, EXHAUSTED, PAUSED or HALTED (the module docstring says what each array holds)."""
    fi, state = fr.fi, fr.state
    d = state[DEPTH]
    entering = state[ENTERING]
    high_first = state[ORDER] == 1
    leaf_tests = REACH | PARITY if tb.radius == 0 else REACH   # the perimeter answers near the leaves
    result = -1
    count = 0
    # the budgets whose movers go by promise: the walk's first order_moves fresh moves (budgeted, low-first walk)
    order_from = 1 << 30
    if mode == WITHIN_BUDGET and order_moves > 0 and not high_first:
        order_from = fi[0, BUDGET] - order_moves + 1
    while True:
        if entering:
            entering = 0
            count += 1
            result = _enter(mode, d, fr, tb, hs, counts, shortcut_from, leaf_tests)
        if result >= 0:
            if result == 1:
                counts[NODES] += count
                state[DEPTH] = d
                state[ENTERING] = 0
                halt[0] = 1
                return FOUND
            if d == 0:
                counts[NODES] += count
                state[DEPTH] = 0
                state[ENTERING] = 0
                halt[0] = 1
                return EXHAUSTED
            d -= 1
            result = -1
        # next child of frame d
        spent = count >= max_nodes or counts[TT_ENTRIES] > grow_tt or counts[DEAD_ENTRIES] > grow_dead
        if spent or halt[0] and count & 1023 == 0:
            counts[NODES] += count
            state[DEPTH] = d
            state[ENTERING] = 0
            return PAUSED if spent else HALTED
        j = _next_child(mode, d, fr, tb, hs, order_from, high_first)
        if j >= 0:
            _push(mode, d, j, fr, tb)
            d += 1
            entering = 1
        else:
            _refute(mode, d, fr, hs, counts)
            result = 0
