"""Get a Jump On: the invariants that bound a reverse search: position classes (GF(2) parity), pagoda
functions, Merson regions, and the last-stone targets they leave."""

from __future__ import annotations

import time
from functools import cached_property
from dataclasses import dataclass
from typing import Iterable, Sequence

from powertwo.boards import Board, NodeId

from .tables import CHUNK, Mask, bit, mask_of, nodes_of, popcount

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
    """A pagoda function in integer units (scaled) with chunked sum tables, built on the first
    :meth:`value` (a set-up that only weighs the start once uses :meth:`total`)."""

    SCALE = 10 ** 6

    def __init__(self, weights: Sequence[float], n: int):
        self.weights = [int(round(x * self.SCALE)) for x in weights]
        self.n = n

    @cached_property
    def tables(self) -> list[list[int]]:
        w, n = self.weights, self.n
        out = []
        for k in range((n + CHUNK - 1) // CHUNK):
            base = k * CHUNK
            width = min(CHUNK, n - base)
            t = [0] * (1 << width)
            for x in range(1, 1 << width):
                low = x & -x
                t[x] = t[x ^ low] + w[base + low.bit_length() - 1]
            out.append(t)
        return out

    def total(self, m: Mask) -> int:
        """The stones' sum, weight by weight (the same as :meth:`value`, without tables)."""
        return sum(self.weights[v - 1] for v in nodes_of(m))

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
    why_none: str
    where: str

    @property
    def pagodas(self) -> list[tuple[NodeId, list[int], int]]:
        """The pagodas a search evaluates: all targets' (at most 4), or none."""
        if not 0 < len(self.entries) <= 4 or any(p is None for _, p, _ in self.entries):
            return []
        return [(t, p.weights, need) for t, p, need in self.entries if p is not None]


def target_setup(board: Board, start: Mask, targets: Iterable[NodeId] | None, *, pagodas: bool = True,
                 deadline: float | None = None) -> TargetSetup:
    """The last-stone nodes allowed for ``start``: position classes, then a pagoda per node (a
    node whose best pagoda is worth more than the start cannot hold the last stone). Past
    ``deadline`` (a ``time.perf_counter()`` instant) no more pagoda is computed: the nodes left
    unchecked stay allowed without one (pagodas only prune, so no answer changes)."""
    allowed = class_targets(board, start)
    by_class = allowed
    if targets is not None:
        allowed &= mask_of(targets)
    entries: list[tuple[NodeId, Pagoda | None, int]] = []
    excluded = 0
    for t in nodes_of(allowed):
        pag = None
        if pagodas and (deadline is None or time.perf_counter() <= deadline):
            w = pagoda_for(board, start, t)
            if w is not None:
                pag = Pagoda(w, board.size)
                if not valid_pagoda(board, pag.weights):
                    pag = None  # rounding broke it: do without
                elif pag.total(start) < pag.weights[t - 1]:
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
    return TargetSetup(allowed & ~excluded, entries, why, where)



