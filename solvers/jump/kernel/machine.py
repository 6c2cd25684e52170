"""The machine of the compiled reverse search (:class:`KernelMachine`): its tables, the walks, their
slices and ticks, table growth, the backward perimeter, and one search (any finish, or a finish
within a budget). The strategies that drive it (first finish, bounds, deepening) are
:class:`~.search.KernelSearch`."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Iterable, Sequence

import numpy as np
from powertwo.boards import Board, NodeId

from ..invariants import TargetSetup, merson_regions, target_setup
from ..tables import PERIMETER_STONES, mask_of, nodes_of
from .frames import BUDGET, DEPTH, ENTERING, HIT, LANDING, LAST, MOVER, ORDER, STONES, new_frames
from .groups import DEAD_ENTRIES, NODES, TT_ENTRIES, Frames, Hashes, Tables, new_counts
from .hashing import _build_perimeter, _canon, _per_get, _rehash_dead, _rehash_tt
from .modes import ANY_CHAIN_FIRST, ANY_NODE_ORDER, WITHIN_BUDGET
from .moves import jump_arrays
from .tuning import (
    DEAD_BYTES,
    DEFAULT_MEMORY_MB,
    DEFAULT_PERIMETER,
    EXHAUSTED,
    FOUND,
    HALTED,
    KERNEL_LOADING,
    MIN_SLOTS,
    ORDER_MOVES,
    PAUSED,
    REHASH_SECONDS,
    SLICE,
    TICK,
    TT_BYTES,
)
from .walk import _run
from .workspace import scratch_for
from ...progress import Progress

Jumps = list[tuple[int, int]]
"""Single jumps as (from, to), 0-based nodes."""


@dataclass
class Walk:
    """One depth-first search held in arrays (see :func:`~.walk._run`), resumable."""

    mode: int
    sym: int
    frames: Frames
    counts: np.ndarray = field(default_factory=new_counts)
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


class KernelMachine:
    """The compiled search's machine for ``start`` towards one stone on one of ``targets`` (node ids,
    default every node the position classes and pagodas allow; or their :class:`TargetSetup`
    already computed). ``memory_mb`` caps the hash tables; ``pagodas``, ``merson`` and ``symmetry``
    switch those prunings; ``perimeter``: the backward perimeter's size (0: none).

    ``workers`` > 1 runs that many walks at once in threads (the kernel releases the GIL), sharing
    both tables: a budgeted search walks the same tree from as many symmetric images of the start
    (so in different orders; whichever walk ends first answers, and each reuses what the others
    refuted), the search for any finish runs its portfolio that many walks at a time. The answer is
    as proven as with one worker, but which finish is found and how many positions are counted
    depend on the threads' timing; with ``workers=1`` (the default) every run is the same."""

    order_moves = ORDER_MOVES
    """A budgeted walk's first fresh moves whose movers are tried by promise (:data:`ORDER_MOVES`;
    0: node order throughout)."""

    def __init__(self, board: Board, start: Iterable[NodeId], *,
                 targets: Iterable[NodeId] | TargetSetup | None = None, symmetry: bool = True, pagodas: bool = True,
                 merson: bool = True, memory_mb: int = DEFAULT_MEMORY_MB, progress: Progress | None = None,
                 perimeter: int = DEFAULT_PERIMETER, workers: int = 1):
        jstart, jover, jto = jump_arrays(board)   # first: it refuses a board over 64 nodes
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
        self.setup = targets if isinstance(targets, TargetSetup) else target_setup(
            board, mask_of(self.start_nodes), targets, pagodas=pagodas)
        self.n = board.size
        self.stones = len(self.start_nodes)
        self.memory = max(1, memory_mb) * (1 << 20)
        self.counts = new_counts()
        self.tables = self._tables(board, (jstart, jover, jto), symmetry, merson, pagodas)
        if perimeter and 0 < len(nodes_of(self.setup.targets)) <= 4 and self.stones >= PERIMETER_STONES:
            self.build_perimeter(perimeter)
        self._scratch: list[np.ndarray] = []
        self.reset()
        self.search(1, node_cap=1)    # compiles the kernel (or loads it from numba's cache) before any clock runs
        self.reset()

    # ------------------------------------------------------------- the read-only tables
    def _tables(self, board: Board, jumps: tuple[np.ndarray, np.ndarray, np.ndarray], symmetry: bool, merson: bool,
                pagodas: bool) -> Tables:
        """:class:`Tables` without a perimeter (:meth:`build_perimeter` adds it)."""
        ends, unj, ostart, ovec, regions = self._line_tables(board, merson)
        perm = self._symmetry_tables(board, symmetry)
        pags = self.setup.pagodas if pagodas else []
        self.pw = np.array([w for _, w, _ in pags], dtype=np.int64).reshape(len(pags), self.n)
        """The pagodas' weights, ``pw[t, v]``."""
        jimg, jpag = self._jump_changes(jumps, perm)
        jstart, jover, jto = jumps
        return Tables(jstart=jstart, jover=jover, jto=jto, jimg=jimg, jpag=jpag, perm=perm, unj=unj, regions=regions,
                      targets=np.uint64(self.setup.targets), ends=ends,
                      pneed=np.array([need for _, _, need in pags], dtype=np.int64),
                      pbit=np.array([1 << (t - 1) for t, _, _ in pags], dtype=np.uint64), ostart=ostart, ovec=ovec,
                      pk=np.zeros(1, dtype=np.uint64), pd=np.zeros(1, dtype=np.int8), radius=0, table_from=1)

    def _line_tables(self, board: Board, merson: bool) -> tuple[np.ndarray, np.uint64, np.ndarray, np.ndarray,
                                                                np.ndarray]:
        """The jump triples' tables: ``over`` (kept), ``ends[b]`` (the nodes ``a`` of the triples
        ``(a, b, c)``), the unjumpable nodes, the lines across each node (``ostart``, ``ovec``: the bits
        ``e_a + e_c`` of its two neighbours on the line) and the Merson regions clear of the unjumpable
        nodes."""
        n = self.n
        self.over = {(a - 1, c - 1): b - 1 for a, b, c in board.jumps}
        middles = {b for _, b, _ in board.jumps}
        unjumpable = mask_of(v for v in board.nodes if v not in middles)
        ends = np.zeros(n, dtype=np.uint64)
        for a, b, _ in board.jumps:
            ends[b - 1] |= np.uint64(1 << (a - 1))
        across: list[list[int]] = [[] for _ in range(n)]
        for a, b, c in board.jumps:
            if a < c:
                across[b - 1].append((1 << (a - 1)) | (1 << (c - 1)))
        ostart = np.array([0] + list(np.cumsum([len(x) for x in across])), dtype=np.int64)
        ovec = np.array([v for x in across for v in x] or [0], dtype=np.uint64)
        regions = [r for r in merson_regions(board) if not r & unjumpable] if merson else []
        return ends, np.uint64(unjumpable), ostart, ovec, np.array(regions, dtype=np.uint64)

    def _symmetry_tables(self, board: Board, symmetry: bool) -> np.ndarray:
        """The symmetries that map the targets onto themselves (``perms``, kept, with their images of
        each byte of a position, ``symtab[s, chunk, byte]``) and ``perm[s, i]``."""
        n = self.n
        tmask = self.setup.targets
        syms = board.symmetries if symmetry else board.symmetries[:1]
        fixed = nodes_of(tmask)
        syms = tuple(p for p in syms if mask_of(p[v - 1] for v in fixed) == tmask) or board.symmetries[:1]
        self.perms = syms
        self.nchunks = (n + 7) // 8
        self.symtab = np.zeros((len(syms), self.nchunks, 256), dtype=np.uint64)
        perm = np.zeros((len(syms), n), dtype=np.int64)
        for s, p in enumerate(syms):
            for i in range(n):
                perm[s, i] = p[i] - 1
            for c in range(self.nchunks):
                for x in range(256):
                    img = 0
                    for j in range(8):
                        if x >> j & 1 and c * 8 + j < n:
                            img |= 1 << (p[c * 8 + j] - 1)
                    self.symtab[s, c, x] = img
        return perm

    def _jump_changes(self, jumps: tuple[np.ndarray, np.ndarray, np.ndarray],
                      perm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """What jump ``k`` (from, over, to) changes: its nodes' image under each symmetry ``jimg[s, k]``,
        each pagoda sum ``jpag[t, k]``."""
        jstart, jover, jto = jumps
        n = self.n
        froms = [i for i in range(n) for _ in range(jstart[i], jstart[i + 1])] or [0]
        jimg = np.zeros((len(self.perms), len(jto)), dtype=np.uint64)
        jpag = np.zeros((self.pw.shape[0], len(jto)), dtype=np.int64)
        for k, (f, o, t) in enumerate(zip(froms, jover, jto, strict=True)):
            for si in range(len(self.perms)):
                jimg[si, k] = np.uint64(sum(1 << int(perm[si, v]) for v in (f, o, t)))
            jpag[:, k] = self.pw[:, t] - self.pw[:, f] - self.pw[:, o]
        return jimg, jpag

    def reset(self) -> None:
        """Empties the transposition and dead tables and the counters: the next search runs as on a
        fresh instance (the same positions in the same order)."""
        self.hashes = Hashes(*self._new_tt(MIN_SLOTS), self._new_dead(MIN_SLOTS))
        self.counts[:] = 0
        self.frozen = False
        """Set when a table's growth would end after the search's deadline: the tables stay as they
        are for the rest of that search (a full table overwrites entries)."""
        self.rehash_seconds = REHASH_SECONDS
        """Seconds per slot of the last growth (its old table's slots), to foresee the next one."""

    # ------------------------------------------------------------- the hash tables
    @staticmethod
    def _new_tt(slots: int) -> tuple[np.ndarray, np.ndarray]:
        # a key and its entry side by side: one cache line holds both (6% faster than two arrays:
        # seed 116's 5-move refutation, one thread, 28.3-28.9 s against 30.2-30.6 s)
        table = np.zeros((slots, 2), dtype=np.uint64)
        return table[:, 0], table[:, 1]

    @staticmethod
    def _new_dead(slots: int) -> np.ndarray:
        return np.zeros(slots, dtype=np.uint64)

    def _limits(self) -> tuple[int, int]:
        """Entry counts at which the kernel pauses to let a table grow (never, once it cannot)."""
        tt_slots, dead_slots = self.hashes.tk.shape[0], self.hashes.dk.shape[0]
        total = tt_slots * TT_BYTES + dead_slots * DEAD_BYTES
        never = 1 << 62
        if self.frozen:
            return never, never
        tt = tt_slots // 2 if total + tt_slots * TT_BYTES <= self.memory else never
        dead = dead_slots // 2 if total + dead_slots * DEAD_BYTES <= self.memory else never
        return tt, dead

    def _grow(self, deadline: float | None = None) -> None:
        """Doubles a table whose load passed one half, while both stay within the memory option.
        With a ``deadline``, a growth that would end after it (timed by the last one: about 90 ns
        per slot, 6 s for a table of 64 million) is not begun: the tables are then frozen for the
        rest of the search (:attr:`frozen`)."""
        if self.frozen:
            return
        tk, td, dk = self.hashes
        total = tk.shape[0] * TT_BYTES + dk.shape[0] * DEAD_BYTES
        grow_tt = self.counts[TT_ENTRIES] * 2 > tk.shape[0] and total + tk.shape[0] * TT_BYTES <= self.memory
        grow_dead = (self.counts[DEAD_ENTRIES] * 2 > dk.shape[0]
                     and total + grow_tt * tk.shape[0] * TT_BYTES + dk.shape[0] * DEAD_BYTES <= self.memory)
        slots = grow_tt * tk.shape[0] + grow_dead * dk.shape[0]
        if not slots:
            return
        began = time.perf_counter()
        if deadline is not None and began + slots * self.rehash_seconds > deadline:
            self.frozen = True
            return
        if grow_tt:
            tk2, td2 = self._new_tt(tk.shape[0] * 2)
            _rehash_tt(tk, td, tk2, td2, self.counts)
            tk, td = tk2, td2
        if grow_dead:
            dk2 = self._new_dead(dk.shape[0] * 2)
            _rehash_dead(dk, dk2, self.counts)
            dk = dk2
        self.hashes = Hashes(tk, td, dk)
        if slots >= MIN_SLOTS << 4:   # long enough to time (smaller tables rehash in the caches)
            self.rehash_seconds = max(REHASH_SECONDS, (time.perf_counter() - began) / slots)

    # ------------------------------------------------------------- perimeter
    def build_perimeter(self, limit: int) -> None:
        """The backward perimeter (:func:`~.hashing._build_perimeter`) of at most ``limit`` positions,
        into the tables."""
        slots = 1 << max(4, (2 * limit).bit_length())
        pk = np.zeros(slots, dtype=np.uint64)
        pd = np.zeros(slots, dtype=np.int8)
        goals = np.array([1 << (t - 1) for t in nodes_of(self.setup.targets)], dtype=np.uint64)
        tb = self.tables
        radius, self.perimeter_size = (int(x) for x in _build_perimeter(
            goals, self.stones, limit, pk, pd, tb.jstart, tb.jover, tb.jto, self.symtab, self.nchunks))
        self.tables = tb._replace(pk=pk, pd=pd, radius=radius, table_from=max(1, radius))

    @property
    def radius(self) -> int:
        """The backward perimeter's radius (0: no perimeter)."""
        return self.tables.radius

    def distance(self, nodes: Sequence[NodeId]) -> int | None:
        """Moves from ``nodes`` to a goal by the perimeter, or ``None`` when it is outside."""
        key, _ = _canon(np.uint64(mask_of(nodes)), self.symtab, self.nchunks)
        d = int(_per_get(self.tables.pk, self.tables.pd, np.uint64(key)))   # uint64: an int key compiles another
        return None if d < 0 else d

    def _complete(self, nodes: Sequence[NodeId], dist: int | None) -> Jumps:
        """Single jumps from ``nodes`` (``dist`` moves from a goal by the perimeter) to the goal: a
        search within ``dist`` moves that may not stop at its own root, repeated."""
        jumps: Jumps = []
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
        """Positions searched since the last :meth:`reset` (all threads together)."""
        return int(self.counts[NODES])

    # ------------------------------------------------------------- walks
    def walk(self, mode: int, budget: int, sym: int, start: Sequence[NodeId], order: int = 0,
             scratch: np.ndarray | None = None) -> Walk:
        """A depth-first search of ``mode`` (see :func:`~.walk._run`) from the image of ``start`` under
        symmetry ``sym``, movers tried from the lowest node up (``order`` 0) or the highest down (1),
        ready for :meth:`advance`. ``scratch``: the parity tests' work space (:func:`scratch_for`;
        default a new one). After each position a walk leaves it as the next position's tests need
        it (not all zero: what a test reads it sets first), so a later walk may take it over
        (:meth:`search` does, one per walk running at once)."""
        if len(start) > self.stones:   # the frames are sized by the instance's start (no bounds checks in _run)
            raise ValueError(f"a search from {len(start)} stones on an instance built for {self.stones}: "
                             "build the KernelSearch from the larger position")
        fr = new_frames(self.stones, len(self.perms), self.pw.shape[0],
                        scratch_for(self.tables.ovec) if scratch is None else scratch)
        p = self.perms[sym]
        fr.fu[0, STONES] = np.uint64(mask_of(p[v - 1] for v in start))
        fr.fi[0, LAST] = -1
        fr.fi[0, BUDGET] = budget
        fr.fimg[0], fr.fps[0] = self.images(int(fr.fu[0, STONES])), self.pagoda_sums(int(fr.fu[0, STONES]))
        fr.state[ENTERING], fr.state[ORDER] = 1, order
        return Walk(mode, sym, fr)

    def _scratches(self, count: int) -> list[np.ndarray]:
        """``count`` work spaces for the walks of one search, kept for the next: a new one costs more
        than a beam probe's whole search (1.2 MB to clear)."""
        while len(self._scratch) < count:
            self._scratch.append(scratch_for(self.tables.ovec))
        return self._scratch[:count]

    def _bits(self, pos: int) -> np.ndarray:
        """The nodes (0-based) of the bitmask ``pos`` as a boolean array."""
        return np.unpackbits(np.array([pos], dtype="<u8").view(np.uint8), bitorder="little")[:self.n].astype(bool)

    def images(self, pos: int) -> np.ndarray:
        """The images of the bitmask ``pos`` under the symmetries in use (index 0: the identity)."""
        perm = self.tables.perm
        return np.bitwise_or.reduce(np.uint64(1) << perm[:, self._bits(pos)].astype(np.uint64), axis=1)

    def pagoda_sums(self, pos: int) -> np.ndarray:
        """The sums of the bitmask ``pos`` under the pagoda functions in use."""
        return self.pw[:, self._bits(pos)].sum(axis=1).astype(np.int64)

    def advance(self, w: Walk, max_nodes: int, shortcut: int = 0, share: int = 0,
                halt: np.ndarray | None = None) -> int:
        """Runs the walk ``w`` for at most ``max_nodes`` positions: FOUND, EXHAUSTED, PAUSED or HALTED
        (``halt`` set; it resumes where it stopped on the next call). ``share`` > 0: one of that many walks running at
        once in threads; it counts into its own ``w.counts``, pauses for table growth at its share, and
        soon after another walk sharing ``halt`` has ended the search."""
        grow_tt, grow_dead = self._limits()
        counts = self.counts
        if share:
            counts = w.counts
            grow_tt = max(1, (grow_tt - int(self.counts[TT_ENTRIES])) // share)
            grow_dead = max(1, (grow_dead - int(self.counts[DEAD_ENTRIES])) // share)
        return int(_run(w.mode, w.frames, self.tables, self.hashes, counts, max_nodes, grow_tt, grow_dead, shortcut,
                        np.zeros(1, dtype=np.int64) if halt is None else halt, self.order_moves))

    # ------------------------------------------------------------- slices and ticks
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
                before = self.nodes
                status = self.advance(group[0], steps[0], shortcut, halt=halt)
                return [status], [self.nodes - before]
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="jump-kernel")
            futures = [self._pool.submit(self.advance, w, step, shortcut, len(group), halt)
                       for w, step in zip(group, steps, strict=True)]
            statuses = [f.result() for f in futures]
            done = [int(w.counts[NODES]) for w in group]
            for w in group:
                self.counts += w.counts
                w.counts[:] = 0
            return statuses, done
        finally:
            timer.cancel()
            halt[0] = 1     # Ctrl-C while waiting for the threads: they pause within 1024 positions

    def search(self, budget: int | None, deadline: float | None = None, node_cap: int | None = None,
               label: str = "", start: Sequence[NodeId] | None = None,
               complete: bool = False) -> tuple[int, Jumps]:
        """``budget=None``: any finish (the two modes for any finish); else a finish within ``budget`` moves. Returns
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
        finish ends the search (a finish comes after far fewer positions than with one walk, a
        refutation after about as many)."""
        start = self.start_nodes if start is None else start
        if budget is None:
            scratch = self._scratches(2 * len(self.perms))
            walks = [partial(self.walk, mode, 0, s, start, scratch=scratch[2 * s + i])
                     for s in range(len(self.perms)) for i, mode in enumerate((ANY_CHAIN_FIRST, ANY_NODE_ORDER))]
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
            walks = [partial(self.walk, WITHIN_BUDGET, budget, i % images, start, order=(i // images) % 2,
                             scratch=scratch)
                     for i, scratch in enumerate(self._scratches(count))]
            step_size = SLICE if len(walks) <= self.workers else SLICE >> 3
        self.frozen = False
        try:
            return self._slices(walks, step_size, deadline, node_cap, label, complete)
        except KeyboardInterrupt:  # Ctrl-C between two ticks of compiled work
            self.interrupted = True
            return PAUSED, []

    def _slices(self, walks: Sequence[Callable[[], Walk]], step_size: int, deadline: float | None, node_cap: int | None,
                label: str, complete: bool) -> tuple[int, Jumps]:
        """The walks of :meth:`search` in turns of ``step_size`` positions, each turn in ticks
        (:meth:`_tick`): between two ticks the deadline, the position cap, Ctrl-C and the progress
        line are seen to, and a walk halted by the tick goes on with the rest of its turn (so the
        turns, and with one thread the positions searched, do not depend on the clock). A walk is
        built when its first turn comes: most searches end in the first (a beam probe's always)."""
        began = shown = time.perf_counter()
        start_nodes = self.nodes
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
                        entries, dead = int(self.counts[TT_ENTRIES]), int(self.counts[DEAD_ENTRIES])
                        self.progress(f"{label}: {self.nodes:,} positions, {rate / 1e6:.1f} M/s, "
                                      f"table {entries:,} + dead {dead:,}")
                    turn = [(w, left - n) for (w, left), status, n in zip(turn, statuses, done, strict=True)
                            if status == HALTED and left > n]

    def _found_jumps(self, w: Walk, complete: bool) -> Jumps:
        """The single jumps (0-based from, to) of the walk ``w`` that found a finish, mapped back from
        its symmetric image; a perimeter hit is completed by the distances (unless ``complete``)."""
        fr = w.frames
        back = {self.perms[w.sym][i] - 1: i for i in range(self.n)}   # the inverse symmetry
        jumps = [(back[int(fr.fi[i, MOVER])], back[int(fr.fi[i, LANDING])]) for i in range(int(fr.state[DEPTH]))]
        if fr.state[HIT] and not complete:   # a perimeter hit: finish from there by the distances
            pos = fr.fu[int(fr.state[DEPTH]), STONES]
            rest = [v + 1 for v in range(self.n) if int(pos) >> v & 1]
            rest = sorted(back[v - 1] + 1 for v in rest)
            jumps += self._complete(rest, self.distance(rest))
        return jumps
