"""Get a Jump On: positions as bitmasks and the per-board jump tables (jumps by start node, symmetry
images), shared by the Python engine, the forward search and the compiled kernel; the English
33-hole test board and random solvable positions."""

from __future__ import annotations

import random
import time
from fractions import Fraction

from powertwo.boards import Board, NodeId

from ..progress import Progress as Progress
from ..bitsets import Mask as Mask, mask_of as mask_of, nodes_of as nodes_of  # the jump modules read them here

CHUNK = 12  # bits per lookup table in symmetry images and pagoda sums
PERIMETER_STONES = 20
"""A backward perimeter is built only for starts with at least this many stones (smaller
positions are solved faster without it)."""

class TimeUp(Exception):
    """A search reached its time limit (caught inside the search, which returns what it has)."""


def bit(v: NodeId) -> Mask:
    return 1 << (v - 1)


def popcount(m: Mask) -> int:
    return m.bit_count()


class JumpTables:
    """Per-board tables: jumps by start node as bit triples, the over-node of every
    (from, to) pair, unjumpable nodes, symmetry images of bitmasks by lookup."""

    def __init__(self, board: Board, *, symmetry: bool = True, fixing: Mask | None = None):
        """``fixing``: use only the symmetries that map this node set onto itself (a search
        towards a target set may identify two positions only if the targets stay put)."""
        self.board = board
        n = board.size
        self.n = n
        self.full = (1 << n) - 1
        # jumps_from[i] for 0-based node i: (from_bit | over_bit, to_bit, to_index, over_index)
        jf: list[list[tuple[int, int, int, int, int]]] = [[] for _ in range(n)]
        self.over: dict[tuple[NodeId, NodeId], NodeId] = {}
        middles = set()
        for a, b, c in board.jumps:
            span = (1 << (a - 1)) | (1 << (b - 1)) | (1 << (c - 1))
            jf[a - 1].append((1 << (b - 1), 1 << (c - 1), c - 1, span, b - 1))
            self.over[(a, c)] = b
            middles.add(b)
        self.jumps_from = [tuple(x) for x in jf]
        self.unjumpable = mask_of(v for v in board.nodes if v not in middles)
        identity = tuple(board.nodes)  # without symmetry the group (slow to compute) is not needed
        syms = board.symmetries if symmetry else (identity,)
        if fixing is not None:
            fixed = nodes_of(fixing)
            syms = tuple(p for p in syms if mask_of(p[v - 1] for v in fixed) == fixing)
        self.perms = syms
        self.deadline: float | None = None
        """A ``time.perf_counter()`` instant: a move generation that passes it raises :class:`TimeUp`
        (checked between two stones, so a search on a large board stops close to its limit)."""
        self.chunks = (n + CHUNK - 1) // CHUNK
        self.sym_tables = [self._image_tables(p) for p in syms[1:]]

    def _image_tables(self, perm) -> list[list[int]]:
        tables = []
        for k in range(self.chunks):
            base = k * CHUNK
            width = min(CHUNK, self.n - base)
            single = [1 << (perm[base + i] - 1) for i in range(width)]
            t = [0] * (1 << width)
            for x in range(1, 1 << width):
                low = x & -x
                t[x] = t[x ^ low] | single[low.bit_length() - 1]
            tables.append(t)
        return tables

    def image(self, s: int, m: Mask) -> Mask:
        """The image of ``m`` under symmetry ``s`` (0 = identity)."""
        if s == 0:
            return m
        out = 0
        t = self.sym_tables[s - 1]
        k = 0
        while m:
            out |= t[k][m & 0xFFF]
            m >>= CHUNK
            k += 1
        return out

    def canonical(self, m: Mask) -> Mask:
        best = m
        mask = 0xFFF
        for t in self.sym_tables:
            x = m
            out = 0
            k = 0
            while x:
                out |= t[k][x & mask]
                x >>= CHUNK
                k += 1
            if out < best:
                best = out
        return best

    # ------------------------------------------------------------- reverse
    def successors(self, pos: Mask) -> dict[Mask, None]:
        """Every position one move (one stone's chain of jumps) away, deduplicated."""
        return self._one_move(pos, backwards=False)

    def predecessors(self, pos: Mask) -> dict[Mask, None]:
        """Every position one move *before* ``pos``: one stone's chain of jumps played
        backwards (the stone on ``c`` goes back over the free ``b`` to the free ``a``, and a
        stone reappears on ``b``), deduplicated."""
        return self._one_move(pos, backwards=True)

    def _one_move(self, pos: Mask, backwards: bool) -> dict[Mask, None]:
        # forwards the node jumped over holds a stone; backwards it is free (a jump a -> c
        # over b read backwards is the triple (c, b, a), also in the table)
        out: dict[Mask, None] = {}
        jumps_from = self.jumps_from
        over_free = backwards
        deadline = self.deadline
        m = pos
        while m:
            if deadline is not None and time.perf_counter() > deadline:
                raise TimeUp
            low = m & -m
            m ^= low
            stack = [(pos, low.bit_length() - 1)]
            seen = set()
            while stack:
                p, cur = stack.pop()
                for over_bit, to_bit, to_i, _, _ in jumps_from[cur]:
                    if (not p & over_bit) is over_free and not p & to_bit:
                        q = p ^ (1 << cur) ^ over_bit ^ to_bit
                        key = (q, to_i)
                        if key in seen:
                            continue
                        seen.add(key)
                        out[q] = None
                        stack.append((q, to_i))
        return out

    def chain_between(self, pos: Mask, nxt: Mask) -> tuple[NodeId, list[NodeId]]:
        """A chain of one stone that turns ``pos`` into ``nxt`` (as node ids)."""
        jumps_from = self.jumps_from
        m = pos
        while m:
            low = m & -m
            m ^= low
            start = low.bit_length() - 1
            stack: list[tuple[Mask, int, list[int]]] = [(pos, start, [])]
            seen = set()
            while stack:
                p, cur, path = stack.pop()
                for over_bit, to_bit, to_i, _, _ in jumps_from[cur]:
                    if p & over_bit and not p & to_bit:
                        q = p ^ (1 << cur) ^ over_bit ^ to_bit
                        if q == nxt:
                            return start + 1, [v + 1 for v in path + [to_i]]
                        if (q, to_i) in seen:
                            continue
                        seen.add((q, to_i))
                        stack.append((q, to_i, path + [to_i]))
        raise ValueError("no chain between the two positions")  # internal: positions come from successors()

    # ------------------------------------------------------------- forward
    def chain_targets(self, occupied: Mask, start: int) -> dict[int, list[int]]:
        """Forward chains: nodes (0-based) the jumper at ``start`` reaches by jumping over
        stones (which stay) onto free nodes, with a shortest path of landings; ``start``
        itself maps to ``[]`` (no chain)."""
        others = occupied & ~(1 << start)
        paths: dict[int, list[int]] = {start: []}
        frontier = [start]
        while frontier:
            nxt = []
            for cur in frontier:
                for over_bit, to_bit, to_i, _, _ in self.jumps_from[cur]:
                    if others & over_bit and not others & to_bit and to_i not in paths:
                        paths[to_i] = paths[cur] + [to_i]
                        nxt.append(to_i)
            frontier = nxt
        return paths


# ------------------------------------------------------------------ test and benchmark boards

def english_board() -> Board:
    """The English 33-hole peg solitaire board (orthogonal lines only), built from its
    segments: rows and columns of the plus shape; node ids in reading order."""
    from powertwo.boards import from_segments

    segs = []
    for k in range(-3, 4):
        half = 3 if abs(k) <= 1 else 1
        segs.append(((Fraction(-half), Fraction(k)), (Fraction(half), Fraction(k))))
        segs.append(((Fraction(k), Fraction(-half)), (Fraction(k), Fraction(half))))
    return from_segments(segs, "english-33")


def node_at(board: Board, x: int, y: int) -> NodeId:
    return next(v for v in board.nodes if board.coord(v) == (Fraction(x), Fraction(y)))


def random_solvable(board: Board, last: NodeId, stones: int, seed: int) -> list[NodeId]:
    """A position of ``stones`` stones that reaches one stone on ``last``: random jumps
    played backwards (a stone on ``c`` goes back over the free ``b`` to the free ``a``,
    leaving a stone on ``b``)."""
    rng = random.Random(seed)
    occ = {last}
    while len(occ) < stones:
        options = [(a, b, c) for a, b, c in board.jumps if c in occ and a not in occ and b not in occ]
        if not options:
            return sorted(occ)
        a, b, c = rng.choice(options)
        occ.discard(c)
        occ.update((a, b))
    return sorted(occ)
