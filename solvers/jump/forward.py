"""Get a Jump On, forward: 31 placement steps with chain jumps from the jumper's corner, and the stone
bound that proves a corner impossible."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Sequence

from powertwo.boards import Board, NodeId

from .tables import JumpTables, Mask, TimeUp, bit

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
            raise TimeUp
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
    except TimeUp:
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


def forward_final(corner: NodeId, steps: Sequence[ForwardStep]) -> list[NodeId]:
    """The nodes holding stones after ``steps``: the placed stones, with each chain's jumper moved."""
    occ = {corner}
    j = corner
    for s in steps:
        occ.add(s.place)
        occ.discard(j)
        j = s.jumps[-1]
        occ.add(j)
    return sorted(occ)




