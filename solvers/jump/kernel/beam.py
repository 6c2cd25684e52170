"""Upper bounds of the compiled reverse search: a beam search on whole moves (:func:`beam`), probing
positions with the machine's short searches."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from powertwo.boards import NodeId
from powertwo.boards.words import counted

from ..tables import JumpTables, mask_of, nodes_of, popcount
from .leaves import _lower_bound
from .machine import Jumps, KernelMachine, chains
from .moves import MoveGenerator
from .tuning import BEAM_PROBE, BEAM_WIDTH, FOUND, PAUSED

Moves = list[tuple[NodeId, list[NodeId]]]


@dataclass
class _Beam:
    """One beam search: the machine, the best answer so far, and when to stop."""

    machine: KernelMachine
    best: Moves
    deadline: float | None
    node_cap: int
    tables: JumpTables = field(init=False)
    start: int = field(init=False)
    spent_from: int = field(init=False)

    def __post_init__(self) -> None:
        self.tables = JumpTables(self.machine.board, fixing=self.machine.setup.targets)
        self.start = mask_of(self.machine.start_nodes)
        self.spent_from = self.machine.nodes

    def low(self, q: int) -> int:
        tb = self.machine.tables
        return int(_lower_bound(np.uint64(q), -1, tb.targets, tb.unj, tb.regions))

    def answer(self, path: list[int], jumps: Jumps) -> Moves:
        """The moves along ``path`` (whole-move positions after the start), then the finish ``jumps``."""
        steps = [self.start, *path]
        return [self.tables.chain_between(p, q) for p, q in zip(steps, steps[1:], strict=False)] + chains(jumps)

    def spent(self) -> bool:
        m = self.machine
        return (m.interrupted or m.nodes - self.spent_from >= self.node_cap
                or self.deadline is not None and time.perf_counter() > self.deadline)

    def probe(self, depth: int, bound: int, path: list[int]) -> int:
        """A search for any finish from the end of ``path`` (``depth`` moves in), then for a shorter
        one; a finish shorter than the best becomes the best. The first search's status."""
        m = self.machine
        start = nodes_of(path[-1])
        status, jumps = m.search(None, self.deadline, BEAM_PROBE, start=start)
        if status == FOUND:
            finish = jumps
            shorter = min(len(self.best) - depth, len(chains(jumps))) - 1
            if shorter >= bound:
                second, jumps = m.search(shorter, self.deadline, BEAM_PROBE, start=start)
                if second == FOUND:
                    finish = jumps
            if depth + len(chains(finish)) < len(self.best):
                self.best = self.answer(path, finish)
                m.progress(f"beam: {counted(len(self.best), 'move')} ({m.nodes:,} positions)")
        return status

    def next_move(self, depth: int, kept: list[list[int]], moves: MoveGenerator) -> list[list[int]]:
        """The positions one move after those ``kept`` (``depth`` moves in), ranked and probed: those
        kept for the next move."""
        m = self.machine
        ranked: dict[int, tuple[tuple[int, int], list[int]]] = {}
        for path in kept:
            for q in moves.successors(path[-1] if path else self.start):
                key = self.tables.canonical(q)
                if key not in ranked:
                    ranked[key] = ((popcount(q), self.low(q)), [*path, q])
        m.progress(f"beam: move {depth}, {len(ranked):,} positions to probe, best {len(self.best)} "
                   f"({m.nodes:,} positions)")
        with_finish: list[list[int]] = []
        open_ended: list[list[int]] = []
        for (stones, bound), path in sorted(ranked.values(), key=lambda r: r[0]):
            if len(with_finish) >= BEAM_WIDTH or self.spent():
                break
            if stones == 1:   # one move shorter than the best at least (the loop's condition)
                if path[-1] & m.setup.targets:
                    self.best = self.answer(path, [])
                continue
            if depth + bound >= len(self.best):
                continue
            status = self.probe(depth, bound, path)
            if status == FOUND:
                with_finish.append(path)
            elif status == PAUSED:
                open_ended.append(path)
        return (with_finish + open_ended)[:BEAM_WIDTH]


def beam(machine: KernelMachine, best: Moves, deadline: float | None, node_cap: int) -> Moves:
    """Shorter answers than ``best`` (upper bounds) by a beam search on whole moves.

    Move by move, every position one move away from those kept (deduplicated under the
    symmetries that fix the targets) is ranked: fewest stones first, then the lower bound.
    Each in turn is probed: a search for any finish of :data:`BEAM_PROBE` positions (a finish
    is an answer: the moves so far, then the finish's), then one for a finish shorter than the
    best. The first :data:`BEAM_WIDTH` with a finish go on to the next move, topped up with
    those whose probe ran out; probes that exhaust drop theirs (dead positions go to the dead
    table). Ends after ``node_cap`` positions, at ``deadline``, when no position is left, or
    when the moves so far reach the best. Returns the best answer."""
    run = _Beam(machine, best, deadline, node_cap)
    moves = MoveGenerator(machine.board)     # the Python engine's successors, compiled
    kept: list[list[int]] = [[]]
    depth = 0
    try:
        while kept and depth + 1 < len(run.best) and not run.spent():
            depth += 1
            kept = run.next_move(depth, kept, moves)
    except KeyboardInterrupt:   # Ctrl-C while the moves were spelled out in Python
        machine.interrupted = True
    return run.best
