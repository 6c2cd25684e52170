"""Get a Jump On: the search engine (forward placement, reverse peg solitaire by moves).

Positions are ``int`` bitmasks: bit ``v - 1`` set means a stone on node ``v``. Every
table is computed once per board from its jump triples (:attr:`boards.Board.jumps`),
so the engine works on any board given by its lines (the Power of Two board, the
English 33-hole board, ...).

Reverse (peg solitaire). A *move* is one stone's chain of jumps: it jumps over an
adjacent stone onto the free node beyond (the jumped stone is removed) and may go
on jumping. **Decision:** a chain may land on a node it visited earlier in the same
chain (that node is free again once the stone has left it; every single jump is
legal on its own). Two chains count as the same move when they leave the same
position. Minimising moves is done by iterative deepening on the number of moves
(IDA*) with

* a transposition table keyed by the canonical position under the board's
  symmetry group, holding the largest number of moves proven insufficient
  (memoised dead positions are the entries with an unlimited budget);
* *position classes* (the GF(2) invariants of the board's jump triples: every
  ``f`` with ``f(a) + f(b) + f(c) = 0`` for each triple keeps ``sum f`` over the
  stones constant), which fix the nodes where the last stone can stand;
* *pagoda functions* (``p(from) + p(over) >= p(to)`` for every triple, found by a
  linear program per target node), which never increase under a jump: a
  position with ``p(P) < p(t)`` cannot end with one stone on ``t``;
* an admissible lower bound on the moves still needed: a stone on a node that
  is the middle of no jump triple (an *unjumpable* node, e.g. the corners) can
  never be removed, so it must start a move of its own or be the last stone;
  distinct stones start distinct moves.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from powertwo.boards import Board, NodeId

Mask = int
Progress = Callable[[str], None]

CHUNK = 12  # bits per lookup table in symmetry images and pagoda sums
PERIMETER_STONES = 20
"""A backward perimeter is built only for starts with at least this many stones (smaller
positions are solved faster without it)."""


def bit(v: NodeId) -> Mask:
    return 1 << (v - 1)


def mask_of(nodes: Iterable[NodeId]) -> Mask:
    m = 0
    for v in nodes:
        m |= 1 << (v - 1)
    return m


def nodes_of(m: Mask) -> list[NodeId]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length())
        m ^= low
    return out


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
        m = pos
        while m:
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


# ------------------------------------------------------------------ invariants

def position_classes(board: Board) -> list[Mask]:
    """A basis of the GF(2) functions ``f`` (as node bitmasks) with
    ``f(a) + f(b) + f(c) = 0`` for every jump triple: the board's position classes.
    ``|P & f|`` mod 2 never changes under a jump."""
    n = board.size
    rows = sorted({mask_of(t) for t in board.jumps})
    # row-reduce the constraint rows, then the null space
    pivots: dict[int, int] = {}
    for r in rows:
        for col, prow in pivots.items():
            if r >> col & 1:
                r ^= prow
        if r:
            col = (r & -r).bit_length() - 1
            for c2 in list(pivots):
                if pivots[c2] >> col & 1:
                    pivots[c2] ^= r
            pivots[col] = r
    free = [c for c in range(n) if c not in pivots]
    basis = []
    for fc in free:
        f = 1 << fc
        for col, prow in pivots.items():
            if prow >> fc & 1:
                f |= 1 << col
        basis.append(f)
    return basis


def class_targets(board: Board, pos: Mask, basis: Sequence[Mask] | None = None) -> Mask:
    """The nodes where a single last stone is compatible with ``pos``'s position class."""
    basis = position_classes(board) if basis is None else basis
    sig = [popcount(pos & f) & 1 for f in basis]
    return mask_of(v for v in board.nodes if all(((f >> (v - 1)) & 1) == s for f, s in zip(basis, sig, strict=False)))


def pagoda_for(board: Board, start: Mask, target: NodeId) -> list[float] | None:
    """A pagoda function ``p`` (``p(a) + p(b) >= p(c)`` for every jump triple, ``0 <= p <= 1``)
    with ``p(target) = 1`` that minimises ``p(start)``, found by a linear program; ``None``
    when the LP fails. If ``p(start) < 1`` the target is unreachable from ``start``."""
    from scipy.optimize import linprog

    n = board.size
    c = [1.0 if start >> i & 1 else 0.0 for i in range(n)]
    a_ub, b_ub = [], []
    for a, b, t in board.jumps:
        row = [0.0] * n
        row[a - 1] -= 1
        row[b - 1] -= 1
        row[t - 1] += 1
        a_ub.append(row)
        b_ub.append(0.0)
    a_eq = [[1.0 if i == target - 1 else 0.0 for i in range(n)]]
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=[1.0], bounds=[(0, 1)] * n, method="highs")
    if res.status != 0:
        return None
    return [round(x, 9) for x in res.x]


class Pagoda:
    """A pagoda function in integer units (scaled) with chunked sum tables."""

    SCALE = 10 ** 6

    def __init__(self, weights: Sequence[float], n: int):
        w = [int(round(x * self.SCALE)) for x in weights]
        self.weights = w
        self.tables = []
        for k in range((n + CHUNK - 1) // CHUNK):
            base = k * CHUNK
            width = min(CHUNK, n - base)
            t = [0] * (1 << width)
            for x in range(1, 1 << width):
                low = x & -x
                t[x] = t[x ^ low] + w[base + low.bit_length() - 1]
            self.tables.append(t)

    def value(self, m: Mask) -> int:
        out = 0
        k = 0
        tables = self.tables
        while m:
            out += tables[k][m & 0xFFF]
            m >>= CHUNK
            k += 1
        return out


def valid_pagoda(board: Board, weights: Sequence[int]) -> bool:
    return all(weights[a - 1] + weights[b - 1] >= weights[c - 1] for a, b, c in board.jumps)


def merson_regions(board: Board, max_size: int = 4) -> list[Mask]:
    """Connected node sets ``R`` (2..``max_size`` nodes) such that no jump triple
    ``(a, b, c)`` has ``b`` in ``R`` and both ``a`` and ``c`` outside: when ``R`` is full,
    the first jump that touches it starts inside it, so a full ``R`` needs a move of a
    stone standing in it. Minimal ones only (no smaller region inside), sorted by size."""
    middles: dict[int, list[tuple[int, int]]] = {}
    for a, b, c in board.jumps:
        middles.setdefault(b, []).append((a, c))

    def is_merson(region: frozenset) -> bool:
        return all(a in region or c in region for b in region for a, c in middles.get(b, ()))

    found: list[frozenset] = []
    seen: set[frozenset] = set()
    frontier = [frozenset([v]) for v in board.nodes]
    for _size in range(2, max_size + 1):
        nxt = []
        for r in frontier:
            for v in r:
                for w in board.adjacency[v]:
                    if w in r:
                        continue
                    r2 = r | {w}
                    if r2 in seen:
                        continue
                    seen.add(r2)
                    nxt.append(r2)
        frontier = nxt
        for r in nxt:
            if is_merson(r) and not any(f <= r for f in found):
                found.append(r)
    return [mask_of(r) for r in sorted(found, key=lambda r: (len(r), sorted(r)))]


# ------------------------------------------------------------------ reverse search

@dataclass
class TargetSetup:
    """Where the last stone may stand: ``targets`` (a mask) after the position classes and one
    pagoda per candidate node (``entries``: node, its pagoda or ``None``, the pagoda's value at
    the node); ``why_none`` says what emptied the set; ``where`` names a target restriction."""

    targets: Mask
    entries: list[tuple[NodeId, Pagoda | None, int]]
    pagoda_excluded: Mask
    why_none: str
    where: str

    @property
    def pagodas(self) -> list[tuple[NodeId, list[int], int]]:
        """The pagodas a search evaluates: all targets' (at most 4), or none."""
        if not 0 < len(self.entries) <= 4 or any(p is None for _, p, _ in self.entries):
            return []
        return [(t, p.weights, need) for t, p, need in self.entries if p is not None]


def target_setup(board: Board, start: Mask, targets: Iterable[NodeId] | None, *, pagodas: bool = True) -> TargetSetup:
    """The last-stone nodes allowed for ``start``: position classes, then a pagoda per node (a
    node whose best pagoda is worth more than the start cannot hold the last stone)."""
    allowed = class_targets(board, start)
    by_class = allowed
    if targets is not None:
        allowed &= mask_of(targets)
    entries: list[tuple[NodeId, Pagoda | None, int]] = []
    excluded = 0
    for t in nodes_of(allowed):
        pag = None
        if pagodas:
            w = pagoda_for(board, start, t)
            if w is not None:
                pag = Pagoda(w, board.size)
                if not valid_pagoda(board, pag.weights):
                    pag = None  # rounding broke it: do without
                elif pag.value(start) < pag.weights[t - 1]:
                    excluded |= bit(t)
                    continue
        entries.append((t, pag, pag.weights[t - 1] if pag else 0))
    where = "" if targets is None else f" on {', '.join(map(board.label, sorted(targets)))}"
    if targets is not None and not by_class & mask_of(targets):
        why = f"position classes: the last stone can stand only on {', '.join(map(board.label, nodes_of(by_class)))}"
    elif not by_class:
        why = "position classes: no node can hold the last stone"
    else:
        nodes = ", ".join(map(board.label, nodes_of(allowed)))
        why = f"pagoda functions: each of the nodes {nodes} is worth more than the start"
    return TargetSetup(allowed & ~excluded, entries, excluded, why, where)



@dataclass
class ReverseResult:
    """Best sequence found (positions, start first), proven lower bound, counters."""

    positions: list[Mask] | None
    bound: int
    proven: bool            # True when bound == moves of the sequence, or infeasibility proven
    infeasible: bool
    nodes: int
    seconds: float
    first_found_seconds: float | None = None
    first_found_moves: int | None = None
    log: list[str] = field(default_factory=list)
    improvements: list[tuple[float, int]] = field(default_factory=list)
    """(seconds, moves) of every better answer found, in order."""
    interrupted: bool = False
    """Ctrl-C ended the run: ``positions`` is the best answer so far, ``bound`` the bound so far."""

    def first_within(self, moves: int) -> float | None:
        """Seconds to the first answer of at most ``moves`` moves."""
        return next((sec for sec, m in self.improvements if m <= moves), None)

    @property
    def moves(self) -> int | None:
        return None if self.positions is None else len(self.positions) - 1


class ReverseSearch:
    """IDA* on moves with a symmetric transposition table, pagoda pruning and the
    unjumpable-stone lower bound. ``targets``: nodes allowed for the last stone
    (default: any node the position classes allow)."""

    def __init__(self, board: Board, start: Sequence[NodeId] | Mask, *, targets: Iterable[NodeId] | None = None,
                 symmetry: bool = True, pagodas: bool = True, merson: bool = True, perimeter: int = 300_000,
                 perimeter_from: int = PERIMETER_STONES, progress: Progress | None = None):
        self.board = board
        self.start = start if isinstance(start, int) else mask_of(start)
        self.progress = progress or (lambda _: None)
        setup = target_setup(board, self.start, targets, pagodas=pagodas)
        self.target_pagodas: list[tuple[Mask, Pagoda | None, int]] = [
            (bit(t), pag, need) for t, pag, need in setup.entries]
        self.targets = setup.targets
        # the table identifies symmetric positions only under symmetries that fix the targets
        self.tables = JumpTables(board, symmetry=symmetry, fixing=self.targets)
        # one target with its pagoda: prune directly; several: a position is dead when
        # every target's pagoda says so (checked only when there are few targets)
        self.regions = [r for r in merson_regions(board) if not r & self.tables.unjumpable] if merson else []
        self.use_pagodas = pagodas and 0 < len(self.target_pagodas) <= 4
        self.tt: dict[Mask, int] = {}
        self.nodes = 0
        self._deadline: float | None = None
        self._node_cap: float = float("inf")
        self.perimeter: dict[Mask, int] = {}
        self.radius = 0
        if perimeter and 0 < popcount(self.targets) <= 4 and popcount(self.start) >= perimeter_from:
            self._build_perimeter(perimeter)

    def _build_perimeter(self, limit: int) -> None:
        """Backward breadth-first search by moves from the single-stone goals: every position
        (canonical) within ``radius`` moves of a goal with its exact distance. Stops before a
        layer would pass ``limit`` positions."""
        tables = self.tables
        layer = [bit(t) for t in nodes_of(self.targets)]
        dist = {tables.canonical(p): 0 for p in layer}
        radius = 0
        while layer:
            nxt = []
            new: dict[Mask, int] = {}
            for p in layer:
                for q in tables.predecessors(p):
                    k = tables.canonical(q)
                    if k not in dist and k not in new:
                        new[k] = radius + 1
                        nxt.append(q)
                if len(dist) + len(new) > limit:
                    self.perimeter, self.radius = dist, radius
                    return
            dist.update(new)
            layer = nxt
            radius += 1
        self.perimeter, self.radius = dist, radius

    def live_targets(self, pos: Mask) -> Mask:
        out = 0
        for tb, pag, need in self.target_pagodas:
            if pag is None or pag.value(pos) >= need:
                out |= tb
        return out

    def lower_bound(self, pos: Mask, live: Mask) -> int:
        """Moves still needed at least: stones on unjumpable nodes each start a move of their
        own unless one of them stays as the last stone (on a live target)."""
        if pos & (pos - 1) == 0:
            return 0
        u = pos & self.tables.unjumpable
        k = popcount(u)  # k == 0 gives max(1, regions)
        regions = 0
        used = u
        for r in self.regions:
            if pos & r == r and not used & r:
                regions += 1
                used |= r
        return max(1, regions + (k - 1 if u & live else k))

    def _dfs(self, pos: Mask, budget: int, path: list[Mask]) -> bool:
        """Is one stone (on a live target) reachable within ``budget`` moves? Fills ``path``
        (reversed) when it is; records a failed budget in the table."""
        if self.nodes & 15 == 0 and (self.nodes > self._node_cap or self._deadline is not None
                                     and time.perf_counter() > self._deadline):
            raise _TimeUp
        self.nodes += 1
        if pos & (pos - 1) == 0:
            return bool(pos & self.targets)
        if budget <= 0:
            return False
        live = self.live_targets(pos) if self.use_pagodas else self.targets
        if not live:
            return False
        if self.lower_bound(pos, live) > budget:
            return False
        key = self.tables.canonical(pos)
        if self.radius:
            d = self.perimeter.get(key)
            if d is not None and d <= budget:
                self._finish_in_perimeter(pos, d, path)
                return True
            if budget <= self.radius:
                return False  # not within ``radius`` moves of a goal
        tt = self.tt
        if tt.get(key, -1) >= budget:
            return False
        for q in sorted(self.tables.successors(pos), key=popcount):
            if self._dfs(q, budget - 1, path):
                path.append(q)
                return True
        tt[key] = budget
        return False

    def _finish_in_perimeter(self, pos: Mask, d: int, path: list[Mask]) -> None:
        """Append (reversed) a shortest path from ``pos`` (``d`` moves from a goal) to the goal."""
        steps = []
        while d:
            pos = next(q for q in self.tables.successors(pos)
                       if self.perimeter.get(self.tables.canonical(q)) == d - 1 and (d > 1 or q & self.targets))
            steps.append(pos)
            d -= 1
        path.extend(reversed(steps))

    def run(self, time_limit: float | None = None, max_moves: int | None = None,
            upper_share: float = 0.3, node_limit: int | None = None) -> ReverseResult:
        """Minimise moves. With a time limit, first a depth-first branch and bound (budget = best
        found - 1, successors with fewest stones first) spends ``upper_share`` of the time on
        upper bounds; then IDA* raises the lower bound from the admissible bound up to the best
        found. Both share the transposition table (an entry = a budget proven insufficient),
        so every failed budget is a proof. Without a time limit, IDA* alone (complete).
        ``node_limit`` (positions searched) works like the time limit but is reproducible
        on any machine."""
        started = time.perf_counter()
        deadline = None if time_limit is None else started + time_limit
        n_stones = popcount(self.start)
        cap = n_stones - 1 if max_moves is None else min(max_moves, n_stones - 1)
        log: list[str] = []
        if not self.targets:
            return ReverseResult(None, cap + 1, True, True, 0, time.perf_counter() - started, log=[
                "no node is left for the last stone by position classes and pagodas"])
        import sys
        sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))

        def note(msg: str) -> None:
            msg = f"{msg} ({self.nodes} nodes, {len(self.tt)} table entries, {time.perf_counter() - started:.1f} s)"
            log.append(msg)
            self.progress(msg)

        best: list[Mask] | None = None
        first_s = first_m = None
        improvements: list[tuple[float, int]] = []
        low = self.lower_bound(self.start, self.targets)
        limited = deadline is not None or node_limit is not None
        if limited and upper_share > 0:
            self._deadline = None if time_limit is None else started + time_limit * upper_share
            self._node_cap = float("inf") if node_limit is None else self.nodes + node_limit * upper_share
            budget = cap
            try:
                while budget >= low:
                    path: list[Mask] = []
                    if not self._dfs(self.start, budget, path):
                        low = budget + 1  # exhausted: nothing within budget
                        note(f"branch and bound: no answer within {budget} moves")
                        break
                    best = [self.start] + path[::-1]
                    improvements.append((time.perf_counter() - started, len(best) - 1))
                    if first_s is None:
                        first_s, first_m = improvements[-1]
                    note(f"branch and bound: {len(best) - 1} moves")
                    budget = len(best) - 2
            except _TimeUp:
                pass
            except KeyboardInterrupt:  # Ctrl-C: the best answer so far, the bound so far
                note("branch and bound: interrupted (Ctrl-C)")
                return ReverseResult(best, low, False, False, self.nodes, time.perf_counter() - started,
                                     first_s, first_m, log, improvements, interrupted=True)
        self._deadline = deadline
        self._node_cap = float("inf") if node_limit is None else node_limit
        top = cap if best is None else len(best) - 2
        budget = low
        while budget <= top:
            path = []
            try:
                found = self._dfs(self.start, budget, path)
            except (_TimeUp, KeyboardInterrupt) as stop:
                ctrl_c = isinstance(stop, KeyboardInterrupt)
                note(f"{'interrupted (Ctrl-C)' if ctrl_c else 'time limit reached'} while searching {budget} moves")
                return ReverseResult(best, budget, False, False, self.nodes, time.perf_counter() - started,
                                     first_s, first_m, log, improvements, interrupted=ctrl_c)
            note(f"{budget} moves: {'found' if found else 'none'}")
            if found:
                best = [self.start] + path[::-1]
                improvements.append((time.perf_counter() - started, budget))
                if first_s is None:
                    first_s, first_m = time.perf_counter() - started, budget
                return ReverseResult(best, budget, True, False, self.nodes, time.perf_counter() - started,
                                     first_s, first_m, log, improvements)
            budget += 1
        if best is not None:
            return ReverseResult(best, len(best) - 1, True, False, self.nodes, time.perf_counter() - started,
                                 first_s, first_m, log, improvements)
        return ReverseResult(None, cap + 1, True, True, self.nodes, time.perf_counter() - started, log=log)


class _TimeUp(Exception):
    pass


def plain_bfs(board: Board, start: Sequence[NodeId], *, targets: Iterable[NodeId] | None = None,
              time_limit: float | None = None, max_positions: int | None = None) -> tuple[int | None, int, bool]:
    """The plain cross-check: breadth-first search over positions by moves, no symmetry,
    no bounds. Returns (minimum moves or None, positions visited, finished); gives up (not
    finished) at the time limit or when more than ``max_positions`` positions are stored."""
    tables = JumpTables(board, symmetry=False)
    tmask = tables.full if targets is None else mask_of(targets)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    layer = {mask_of(start)}
    seen = set(layer)
    depth = 0
    while layer:
        for p in layer:
            if p & (p - 1) == 0 and p & tmask:
                return depth, len(seen), True
        nxt = set()
        for p in layer:
            if deadline is not None and time.perf_counter() > deadline:
                return None, len(seen), False
            if max_positions is not None and len(seen) > max_positions:
                return None, len(seen), False
            for q in tables.successors(p):
                if q not in seen:
                    seen.add(q)
                    nxt.add(q)
        layer = nxt
        depth += 1
    return None, len(seen), True


# ------------------------------------------------------------------ forward search

@dataclass(frozen=True)
class ForwardStep:
    place: NodeId
    jumps: tuple[NodeId, ...]


def forward_search(board: Board, corner: NodeId, *, stones: int = 32, seed: int | None = None,
                   require_chains: bool = False, time_limit: float | None = None) -> list[ForwardStep] | None:
    """A sequence of ``stones - 1`` forward steps from the jumper on ``corner``.

    Depth-first search over (stones, jumper) with dead states memoised. ``seed=None``
    tries options in a fixed order (no chains first: the plain answer); a seed shuffles
    them (chains preferred) so answers with chain jumps come out reproducibly.
    ``require_chains``: at least one step with a chain jump.
    """
    tables = JumpTables(board, symmetry=False)
    rng = random.Random(seed)
    dead: set[tuple[Mask, int, bool]] = set()
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    target_steps = stones - 1
    steps: list[ForwardStep] = []

    def options(occ: Mask, j: int) -> list[tuple[int, int, list[int]]]:
        out = []
        for over_bit, to_bit, to_i, _, over_i in tables.jumps_from[j]:
            if occ & over_bit or occ & to_bit:
                continue
            occ2 = (occ | over_bit | to_bit) & ~(1 << j)
            for land, path in tables.chain_targets(occ2, to_i).items():
                out.append((over_i, land, [to_i] + path))
        return out

    def dfs(occ: Mask, j: int, depth: int, chained: bool) -> bool:
        if depth == target_steps:
            return chained or not require_chains
        key = (occ, j, chained)
        if key in dead:
            return False
        if deadline is not None and time.perf_counter() > deadline:
            raise _TimeUp
        opts = options(occ, j)
        if seed is None:
            opts.sort(key=lambda o: (len(o[2]), o[0], o[1]))
        else:
            rng.shuffle(opts)
            opts.sort(key=lambda o: len(o[2]) == 1)
        for over_i, land, path in opts:
            occ2 = (occ | (1 << over_i) | (1 << land)) & ~(1 << j)
            steps.append(ForwardStep(over_i + 1, tuple(v + 1 for v in path)))
            if dfs(occ2, land, depth + 1, chained or len(path) > 1):
                return True
            steps.pop()
        dead.add(key)
        return False

    try:
        ok = dfs(bit(corner), corner - 1, 0, False)
    except _TimeUp:
        return None
    return steps if ok else None


@dataclass(frozen=True)
class ForwardBound:
    """The most stones a forward game from ``corner`` can ever put on the board (the jumper
    included), and why: the jumper only stands on ``landings`` (nodes reached from the corner by
    jumps), a stone is only placed on a node it jumps over from there (``placeable``), and of each
    pair in ``exclusive`` at most one is ever placed: every jump over one of the two starts or ends
    on the other, which a stone placed there blocks for good. A maximum matching of such pairs
    gives ``most = 1 + |placeable| - |exclusive|``."""

    corner: NodeId
    most: int
    landings: tuple[NodeId, ...]
    placeable: tuple[NodeId, ...]
    exclusive: tuple[tuple[NodeId, NodeId], ...]

    def reason(self, board: Board) -> str:
        """Why at most ``most`` stones, nodes named by their labels on ``board``."""
        name = board.label
        pairs = ", ".join(f"{name(a)}/{name(b)}" for a, b in self.exclusive)
        tail = (f", and of each pair {pairs} at most one (every jump over one starts or ends on the other, which a "
                "stone there blocks)") if pairs else ""
        return (f"at most {self.most} stones: from corner {name(self.corner)} the jumper lands on {len(self.landings)} "
                f"nodes and can place stones on {len(self.placeable)}{tail}")


def forward_bound(board: Board, corner: NodeId) -> ForwardBound:
    """:class:`ForwardBound` of a forward game from ``corner``: a proof of impossibility when
    ``most`` is below the stones wanted."""
    import networkx as nx

    beyond: dict[NodeId, list[NodeId]] = {}
    for f, _, t in board.jumps:
        beyond.setdefault(f, []).append(t)
    landings = {corner}
    todo = [corner]
    while todo:
        for t in beyond.get(todo.pop(), ()):
            if t not in landings:
                landings.add(t)
                todo.append(t)
    ends: dict[NodeId, list[tuple[NodeId, NodeId]]] = {}
    for f, over, t in board.jumps:
        if f in landings:
            ends.setdefault(over, []).append((f, t))
    conflicts = nx.Graph()
    for a, jumps in ends.items():  # a conflicts with b only if b is an end of the first jump over a
        for b in {v for v in jumps[0] if v in ends and a < v}:
            if all(b in ft for ft in jumps) and all(a in ft for ft in ends[b]):
                conflicts.add_edge(a, b)
    pairs = sorted(tuple(sorted(e)) for e in nx.max_weight_matching(conflicts, maxcardinality=True))
    return ForwardBound(corner, 1 + len(ends) - len(pairs), tuple(sorted(landings)), tuple(sorted(ends)),
                        tuple((a, b) for a, b in pairs))


def forward_final(board: Board, corner: NodeId, steps: Sequence[ForwardStep]) -> list[NodeId]:
    occ = {corner}
    j = corner
    for s in steps:
        occ.add(s.place)
        occ.discard(j)
        j = s.jumps[-1]
        occ.add(j)
    return sorted(occ)




# ------------------------------------------------------------------ test and benchmark boards

def english_board() -> Board:
    """The English 33-hole peg solitaire board (orthogonal lines only), built from its
    segments: rows and columns of the plus shape; node ids in reading order."""
    from fractions import Fraction

    from powertwo.boards import from_segments

    segs = []
    for k in range(-3, 4):
        half = 3 if abs(k) <= 1 else 1
        segs.append(((Fraction(-half), Fraction(k)), (Fraction(half), Fraction(k))))
        segs.append(((Fraction(k), Fraction(-half)), (Fraction(k), Fraction(half))))
    return from_segments(segs, "english-33")


def node_at(board: Board, x: int, y: int) -> NodeId:
    return next(v for v in board.nodes if board.coord(v) == (x, y))


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
