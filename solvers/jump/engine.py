"""Get a Jump On: the search engine (forward placement, reverse peg solitaire by moves).

Positions are ``int`` bitmasks: bit ``v - 1`` set means a stone on node ``v``. Every
table is computed once per board from its jump triples (:attr:`powertwo.boards.Board.jumps`),
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

import sys
import time
from dataclasses import dataclass
from typing import Iterable, Sequence

from powertwo.boards import Board, NodeId

from .invariants import Pagoda, merson_regions, target_setup
from .tables import PERIMETER_STONES, JumpTables, Mask, Progress, TimeUp, bit, mask_of, nodes_of, popcount


@dataclass(frozen=True)
class ReverseResult:
    """Best sequence found (positions, start first), proven lower bound, counters."""

    positions: list[Mask] | None
    bound: int
    proven: bool
    """The bound is the sequence's moves, or the position is proven to have no finish."""
    infeasible: bool
    nodes: int
    seconds: float
    first_found_seconds: float | None = None
    first_found_moves: int | None = None
    log: tuple[str, ...] = ()
    improvements: tuple[tuple[float, int], ...] = ()
    """(seconds, moves) of every better answer found, in order."""
    interrupted: bool = False
    """Ctrl-C ended the run: ``positions`` is the best answer so far, ``bound`` the bound so far."""

    @property
    def moves(self) -> int | None:
        return None if self.positions is None else len(self.positions) - 1


class ReverseSearch:
    """IDA* on moves with a symmetric transposition table, pagoda pruning and the
    unjumpable-stone lower bound. ``targets``: nodes allowed for the last stone
    (default: any node the position classes allow)."""

    def __init__(self, board: Board, start: Sequence[NodeId] | Mask, *, targets: Iterable[NodeId] | None = None,
                 symmetry: bool = True, pagodas: bool = True, merson: bool = True, perimeter: int = 300_000,
                 perimeter_from: int = PERIMETER_STONES, progress: Progress | None = None,
                 deadline: float | None = None):
        """``deadline`` (a ``time.perf_counter()`` instant) ends the set-up's pagodas and perimeter
        early: the search then runs with what was built (both only prune)."""
        self.board = board
        self.start = start if isinstance(start, int) else mask_of(start)
        self.progress = progress or (lambda _: None)
        if symmetry:
            board.symmetries   # noqa: B018  (computed once per board, before the pagodas watch the deadline)
        setup = target_setup(board, self.start, targets, pagodas=pagodas, deadline=deadline)
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
            self.tables.deadline = deadline
            try:
                self._build_perimeter(perimeter)
            except TimeUp:   # the layers completed so far are kept
                pass
            self.tables.deadline = None

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
                self.perimeter, self.radius = dist, radius   # complete up to here if time runs out
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
        if (self.nodes & 15 == 0 and self.nodes > self._node_cap
                or self._deadline is not None and time.perf_counter() > self._deadline):
            raise TimeUp
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
        """See :meth:`_minimise`; the move generation watches the same deadline as the search."""
        sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))   # the depth-first search recurses per move
        try:
            return self._minimise(time_limit, max_moves, upper_share, node_limit)
        finally:
            self._deadline = self.tables.deadline = None

    def _minimise(self, time_limit: float | None, max_moves: int | None, upper_share: float,
                  node_limit: int | None) -> ReverseResult:
        """Minimise moves. With a time limit, first a depth-first branch and bound (budget = best
        found - 1, successors with fewest stones first) spends ``upper_share`` of the time on
        upper bounds; then IDA* raises the lower bound from the admissible bound up to the best
        found. Both share the transposition table (an entry = a budget proven insufficient),
        so every failed budget is a proof. Without a time limit, IDA* alone (complete).
        ``node_limit`` (positions searched) works like the time limit but is reproducible
        on any machine."""
        started = time.perf_counter()
        deadline = None if time_limit is None else started + time_limit
        cap = popcount(self.start) - 1 if max_moves is None else min(max_moves, popcount(self.start) - 1)
        log: list[str] = []
        if not self.targets:
            return ReverseResult(positions=None, bound=cap + 1, proven=True, infeasible=True, nodes=0,
                                 seconds=time.perf_counter() - started,
                                 log=("no node is left for the last stone by position classes and pagodas",))
        def note(msg: str) -> None:
            msg = f"{msg} ({self.nodes} nodes, {len(self.tt)} table entries, {time.perf_counter() - started:.1f} s)"
            log.append(msg)
            self.progress(msg)

        best: list[Mask] | None = None
        first_s = first_m = None
        improvements: list[tuple[float, int]] = []

        def result(positions: list[Mask] | None, bound: int, *, proven: bool, infeasible: bool = False,
                   interrupted: bool = False) -> ReverseResult:
            return ReverseResult(positions=positions, bound=bound, proven=proven, infeasible=infeasible,
                                 nodes=self.nodes, seconds=time.perf_counter() - started, first_found_seconds=first_s,
                                 first_found_moves=first_m, log=tuple(log), improvements=tuple(improvements),
                                 interrupted=interrupted)

        low = self.lower_bound(self.start, self.targets)
        limited = deadline is not None or node_limit is not None
        if limited and upper_share > 0:
            self._deadline = self.tables.deadline = None if time_limit is None else started + time_limit * upper_share
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
            except TimeUp:
                pass
            except KeyboardInterrupt:  # Ctrl-C: the best answer so far, the bound so far
                note("branch and bound: interrupted (Ctrl-C)")
                return result(best, low, proven=False, interrupted=True)
        self._deadline = self.tables.deadline = deadline
        self._node_cap = float("inf") if node_limit is None else node_limit
        top = cap if best is None else len(best) - 2
        budget = low
        while budget <= top:
            path = []
            try:
                found = self._dfs(self.start, budget, path)
            except (TimeUp, KeyboardInterrupt) as stop:
                ctrl_c = isinstance(stop, KeyboardInterrupt)
                note(f"{'interrupted (Ctrl-C)' if ctrl_c else 'time limit reached'} while searching {budget} moves")
                return result(best, budget, proven=False, interrupted=ctrl_c)
            note(f"{budget} moves: {'found' if found else 'none'}")
            if found:
                best = [self.start] + path[::-1]
                improvements.append((time.perf_counter() - started, budget))
                if first_s is None:
                    first_s, first_m = time.perf_counter() - started, budget
                return result(best, budget, proven=True)
            budget += 1
        if best is not None:
            return result(best, len(best) - 1, proven=True)
        return result(None, cap + 1, proven=True, infeasible=True)


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


