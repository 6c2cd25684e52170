"""The driver of the compiled reverse search (:class:`KernelSearch`): tables, walks, deepening, beam,
branch and bound, time and Ctrl-C."""

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
from ..tables import PERIMETER_STONES, JumpTables, mask_of, nodes_of, popcount
from .frames import BUDGET, DEPTH, ENTERING, LANDING, LAST, MOVER, ORDER, PERIMETER_HIT, STONES, new_frames
from .hashing import _build_perimeter, _canon, _per_get, _rehash_dead, _rehash_tt
from .leaves import _lower_bound
from .modes import ANY_CHAIN_FIRST, ANY_NODE_ORDER, WITHIN_BUDGET
from .moves import MoveGenerator, jump_arrays
from .tuning import (
    ANY_SHARE,
    BEAM_PROBE,
    BEAM_SHARE,
    BEAM_WIDTH,
    DEAD_BYTES,
    DEFAULT_MEMORY_MB,
    DEFAULT_PERIMETER,
    EXHAUSTED,
    FIRST_NODES,
    FIRST_STEP,
    FOUND,
    HALTED,
    KERNEL_LOADING,
    MIN_SLOTS,
    ORDER_MOVES,
    PAUSED,
    REHASH_SECONDS,
    SLICE,
    STALL_NODES,
    TICK,
    TT_BYTES,
    UPPER_SHARE,
)
from .walk import _run
from .workspace import scratch_for
from ...fields import counted

Progress = Callable[[str], None]
Moves = list[tuple[NodeId, list[NodeId]]]

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
        self.n = board.size
        self.stones = len(self.start_nodes)
        self._line_tables(board, merson)
        self._symmetry_tables(board, symmetry)
        self._pagoda_tables(self.setup.pagodas if pagodas else [])
        self.targets = np.uint64(self.setup.targets)
        self.memory = max(1, memory_mb) * (1 << 20)
        self.stats = np.zeros(5, dtype=np.int64)
        self.pk = np.zeros(1, dtype=np.uint64)
        self.pd = np.zeros(1, dtype=np.int8)
        self.radius = self.perimeter_size = 0
        if perimeter and 0 < len(nodes_of(self.setup.targets)) <= 4 and self.stones >= PERIMETER_STONES:
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

    def _line_tables(self, board: Board, merson: bool) -> None:
        """The jump triples' tables: ``over``, ``ends[b]`` (the nodes ``a`` of the triples ``(a, b, c)``),
        the unjumpable nodes ``unj``, the lines across each node (``ostart``, ``ovec``: the bits
        ``e_a + e_c`` of its two neighbours on the line) and the Merson regions clear of ``unj``."""
        n = self.n
        self.over = {(a - 1, c - 1): b - 1 for a, b, c in board.jumps}
        middles = {b for _, b, _ in board.jumps}
        unjumpable = mask_of(v for v in board.nodes if v not in middles)
        self.ends = np.zeros(n, dtype=np.uint64)
        for a, b, _ in board.jumps:
            self.ends[b - 1] |= np.uint64(1 << (a - 1))
        self.unj = np.uint64(unjumpable)
        across: list[list[int]] = [[] for _ in range(n)]
        for a, b, c in board.jumps:
            if a < c:
                across[b - 1].append((1 << (a - 1)) | (1 << (c - 1)))
        self.ostart = np.array([0] + list(np.cumsum([len(x) for x in across])), dtype=np.int64)
        self.ovec = np.array([v for x in across for v in x] or [0], dtype=np.uint64)
        regions = [r for r in merson_regions(board) if not r & unjumpable] if merson else []
        self.regions = np.array(regions, dtype=np.uint64)

    def _symmetry_tables(self, board: Board, symmetry: bool) -> None:
        """The symmetries that map the targets onto themselves (``perms``, ``perm[s, i]``) and their
        images of each byte of a position (``symtab[s, chunk, byte]``)."""
        n = self.n
        tmask = self.setup.targets
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

    def _pagoda_tables(self, pags: list[tuple[NodeId, list[int], int]]) -> None:
        """The pagodas' weights ``pw``, values at their targets ``pneed`` and targets' bits ``pbit``, and
        what jump ``k`` (from, over, to) changes: its nodes' image under each symmetry ``jimg[s, k]``,
        each pagoda sum ``jpag[t, k]``."""
        n = self.n
        self.pw = np.array([w for _, w, _ in pags], dtype=np.int64).reshape(len(pags), n)
        self.pneed = np.array([need for _, _, need in pags], dtype=np.int64)
        self.pbit = np.array([1 << (t - 1) for t, _, _ in pags], dtype=np.uint64)
        froms = [i for i in range(n) for _ in range(self.jstart[i], self.jstart[i + 1])] or [0]
        self.jimg = np.zeros((len(self.perms), len(self.jto)), dtype=np.uint64)
        self.jpag = np.zeros((len(pags), len(self.jto)), dtype=np.int64)
        for k, (f, o, t) in enumerate(zip(froms, self.jover, self.jto, strict=True)):
            for si in range(len(self.perms)):
                self.jimg[si, k] = np.uint64(sum(1 << int(self.perm[si, v]) for v in (f, o, t)))
            self.jpag[:, k] = self.pw[:, t] - self.pw[:, f] - self.pw[:, o]

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
        fu, fi, fimg, fps, fo = new_frames(self.stones, len(self.perms), self.pw.shape[0])
        p = self.perms[sym]
        fu[0, STONES] = np.uint64(mask_of(p[v - 1] for v in start))
        fi[0, LAST] = -1
        fi[0, BUDGET] = budget
        fimg[0], fps[0] = self.images(int(fu[0, STONES])), self.pagoda_sums(int(fu[0, STONES]))
        state = np.zeros(3, dtype=np.int64)
        state[ENTERING], state[ORDER] = 1, order
        return Walk(mode, sym, fu, fi, fimg, fps, state, scratch_for(self.ovec) if scratch is None else scratch, fo)

    def _scratches(self, count: int) -> list[np.ndarray]:
        """``count`` work spaces for the walks of one search, kept for the next: a new one costs more
        than a beam probe's whole search (1.2 MB to clear)."""
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
        jumps = [(back[int(w.fi[i, MOVER])], back[int(w.fi[i, LANDING])]) for i in range(int(w.state[DEPTH]))]
        if w.state[ENTERING] == PERIMETER_HIT and not complete:   # a perimeter hit: finish from there by the distances
            pos = w.fu[int(w.state[DEPTH]), STONES]
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
                            self.progress(f"beam: {counted(len(best), 'move')} ({self.nodes:,} positions)")
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
        r = _Run(self, time.perf_counter(), self.nodes, self.stones - 1 if max_moves is None else max_moves)
        if not self.setup.targets:
            return r.result(None, r.cap + 1, True, True, self.setup.why_none)
        r.low = int(_lower_bound(np.uint64(mask_of(self.start_nodes)), -1, self.targets, self.unj, self.regions))
        first = self._first_finish(r, time_limit, node_limit)
        if isinstance(first, KernelResult):
            return first
        best = first
        if (time_limit is not None or node_limit is not None) and best is not None:
            upper = self._upper_bounds(r, best, time_limit, node_limit, stall)
            if isinstance(upper, KernelResult):
                return upper
            best = upper
        return self._deepen(r, best, time_limit, node_limit, stall, max_moves is None)

    def _first_finish(self, r: _Run, time_limit: float | None, node_limit: int | None) -> KernelResult | Moves | None:
        """The first answer of :meth:`run`: short searches within the bound plus :data:`FIRST_STEP` moves
        (then twice that), else the search for any finish within :data:`ANY_SHARE` of the limit. Returns
        the answer, None (none in its share), or the run's result (infeasible, or Ctrl-C)."""
        any_deadline = None if time_limit is None else r.started + time_limit * ANY_SHARE
        any_nodes = None if node_limit is None else int(node_limit * ANY_SHARE)
        status, jumps = PAUSED, list[tuple[int, int]]()
        first_deadline = None if time_limit is None else r.started + time_limit * ANY_SHARE / 2
        for within in (r.low + self.first_step, r.low + 2 * self.first_step):   # a short first answer, if soon
            if not self.first_step or within > r.cap or self.interrupted:
                break
            first_nodes = FIRST_NODES if any_nodes is None else min(FIRST_NODES, any_nodes // 4)
            status, jumps = self.search(within, first_deadline, first_nodes,
                                        label=f"a finish within {counted(within, 'move')}")
            if status == FOUND:
                r.note(f"first finish within {counted(within, 'move')}: {counted(len(chains(jumps)), 'move')}")
                break
            r.note(f"first finish within {counted(within, 'move')}: "
                   + ("none (search exhausted)" if status == EXHAUSTED else f"none within {first_nodes:,} positions"))
        short = status == FOUND
        if not short:
            status, jumps = self.search(None, any_deadline, any_nodes, label="any finish")
        if status == EXHAUSTED:
            r.note("any finish: none (search exhausted)")
            return r.result(None, r.cap + 1, True, True, "exhausted search: no sequence of jumps leaves one stone"
                            + self.setup.where)
        if status == PAUSED:
            if self.interrupted:
                r.note("any finish: interrupted (Ctrl-C)")
                return r.result(None, r.low, False, False, "")
            r.note("any finish: none within its share of the limit (the deepening goes on)")
            return None
        best = r.better(chains(jumps))
        r.first_s, r.first_m = time.perf_counter() - r.started, len(best)
        if not short:
            r.note(f"any finish: {counted(len(best), 'move')}")
        return best

    def _upper_bounds(self, r: _Run, best: Moves, time_limit: float | None, node_limit: int | None,
                      stall: int) -> KernelResult | Moves:
        """With a limit: the beam, then branch and bound (better answers early; its failed budgets stay
        in the table as proofs for the deepening), until ``stall`` positions bring no better answer or
        :data:`UPPER_SHARE` of the limit is spent. Returns the best answer, or the run's result."""
        low = r.low
        if len(best) - 1 > low:
            beam_nodes = stall if node_limit is None else int(node_limit * BEAM_SHARE)
            shorter = self.beam(best, None if time_limit is None else r.started + time_limit * BEAM_SHARE, beam_nodes)
            best = r.polish(best, shorter)
            if self.interrupted:
                return r.result(best, low, False, False, r.refuted(low))
        share_deadline = None if time_limit is None else r.started + time_limit * UPPER_SHARE
        share_nodes = None if node_limit is None else r.started_nodes + int(node_limit * UPPER_SHARE)
        while len(best) - 1 >= low:
            left = stall if share_nodes is None else min(stall, share_nodes - self.nodes)
            if left <= 0:
                break
            status, jumps = self.search(len(best) - 1, share_deadline, left,
                                        label=f"branch and bound below {len(best)}")
            if status == FOUND:
                best = r.better(chains(jumps))
                r.note(f"branch and bound: {counted(len(best), 'move')}")
            elif status == EXHAUSTED:
                r.note(f"branch and bound: none within {counted(len(best) - 1, 'move')}")
                return r.result(best, len(best), True, False, r.refuted(len(best)))
            elif self.interrupted:
                r.note(f"branch and bound below {len(best)}: interrupted (Ctrl-C)")
                return r.result(best, low, False, False, r.refuted(low))
            else:
                r.note("branch and bound: no better answer within its share of the limit"
                       if share_deadline is not None and time.perf_counter() > share_deadline
                       else f"branch and bound: no better answer within {left:,} positions")
                break
        return best

    def _deepen(self, r: _Run, best: Moves | None, time_limit: float | None, node_limit: int | None, stall: int,
                whole: bool) -> KernelResult:
        """Iterative deepening from the admissible bound up to one below ``best``: the first finish is
        optimal. Without a limit, a budget that takes more than ``stall`` positions ends the run (the
        answer stays feasible, with the bound so far). ``whole``: no cap on the moves was given (so
        refuting every budget up to the cap proves infeasible)."""
        limited = time_limit is not None or node_limit is not None
        deadline = None if time_limit is None else r.started + time_limit
        budget = r.low
        while budget < (r.cap + 1 if best is None else min(len(best), r.cap + 1)):
            remaining = stall if not limited else None if node_limit is None else node_limit - self.nodes
            if remaining is not None and remaining <= 0:
                return r.result(best, budget, False, False, r.refuted(budget))
            status, jumps = self.search(budget, deadline, remaining,
                                        label=f"{counted(budget, 'move')} "
                                              f"(best {'none' if best is None else len(best)})")
            if status == PAUSED:
                why = ("interrupted (Ctrl-C)" if self.interrupted else "time or position limit reached" if limited
                       else f"{stall:,} positions reached")
                r.note(f"{why} while searching {counted(budget, 'move')}")
                if not limited and not self.interrupted and best is not None and len(best) - 1 > budget:
                    best = r.polish(best, self.beam(best, None, stall))   # the bound stays: improve the answer
                return r.result(best, budget, False, False, r.refuted(budget))
            if status == FOUND:
                best = r.better(chains(jumps))
                r.note(f"{counted(budget, 'move')}: found")
                return r.result(best, budget, True, False, r.refuted(budget))
            r.note(f"{counted(budget, 'move')}: none")
            budget += 1
        if best is None:    # every budget up to the cap refuted, and no finish uses more moves
            return r.result(None, r.cap + 1, True, whole, r.refuted(r.cap + 1))
        return r.result(best, len(best), True, False, r.refuted(len(best)))


@dataclass
class _Run:
    """What one :meth:`KernelSearch.run` has so far: its clock, log and answers."""

    search: KernelSearch
    started: float
    started_nodes: int
    cap: int
    """The most moves an answer may have."""
    low: int = 0
    """The admissible lower bound of the start."""
    log: list[str] = field(default_factory=list)
    answers: list[tuple[float, int]] = field(default_factory=list)
    first_s: float | None = None
    first_m: int | None = None

    def note(self, msg: str) -> None:
        msg = f"{msg} ({self.search.nodes:,} positions, {time.perf_counter() - self.started:.2f} s)"
        self.log.append(msg)
        self.search.progress(msg)

    def result(self, moves: Moves | None, bound: int, proven: bool, infeasible: bool, proof: str) -> KernelResult:
        return KernelResult(moves, bound, proven, infeasible, self.search.nodes, time.perf_counter() - self.started,
                            proof, self.log, self.first_s, self.first_m, self.search.interrupted, self.answers)

    def better(self, moves: Moves) -> Moves:
        """Records ``moves`` among the answers when shorter than the ones before."""
        if not self.answers or len(moves) < self.answers[-1][1]:
            self.answers.append((time.perf_counter() - self.started, len(moves)))
        return moves

    def polish(self, given: Moves, shorter: Moves) -> Moves:
        """Logs what the beam brought (its answer is never longer than the one it was given)."""
        self.note(f"beam: {counted(len(shorter), 'move')}" if len(shorter) < len(given) else "beam: no shorter answer")
        return self.better(shorter)

    def refuted(self, budget: int) -> str:
        """The proof that no finish takes fewer than ``budget`` moves (none for ``budget`` 0: the
        position is already one stone)."""
        if budget < 1:
            return ""
        if budget <= self.low:
            return (f"no finish within {counted(budget - 1, 'move')}: admissible lower bound "
                    "(unjumpable stones, Merson regions)")
        return f"exhausted search: no finish within {counted(budget - 1, 'move')}"
