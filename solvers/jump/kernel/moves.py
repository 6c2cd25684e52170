"""Whole moves on the compiled side: the board's jump arrays and the move generator (successors,
perft), the same positions as the Python engine's :meth:`~powertwo.solvers.jump.tables.JumpTables.successors`."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numba import njit
from powertwo.boards import Board

from .hashing import _U1, _U8, _low_index, _slot


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
    The same positions in the same order as :meth:`powertwo.solvers.jump.tables.JumpTables.successors`:
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
    :meth:`powertwo.solvers.jump.tables.JumpTables.successors`, which the tests and the bench compare
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


