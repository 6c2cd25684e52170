"""That's My Line proven by the compiled producer (:mod:`.tml_kernel`, :mod:`.tml_walk`): the
driver that turns a position into masks, runs the search in slices under the limits, writes the
proof as a certificate and answers in the shape of every ``prove`` (:class:`.values.ProofResult`).

Used by :func:`powertwo.solvers.prove.prove` for That's My Line on a board of at most 64 nodes with
a supply of at least one stone (the general search serves the rest).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, TypeGuard

import numpy as np

from powertwo.rules.thats_my_line import Pass, Place, ThatsMyLine, ThatsMyLineState

from ..registry import Progress, no_progress
from . import tml_kernel as kernel
from . import tml_walk as walker
from .tree import certificate_header
from .values import Certificate, Figures, Limits, ProofResult, ProofSize, RootMove, Run, Stop, Value, Verdict

SLICE = 1 << 18
"""Positions a slice of the search expands before the driver reads the clock."""
WALK_SLICE = 1 << 20
"""Records a slice of the walk writes before the driver reports."""
PROGRESS_SECONDS = 5.0
MIN_TABLE_BITS, MAX_TABLE_BITS = 12, 30
FULL_RECORDS = 1 << 20
"""A proof written out in full may have at most this many records; a larger one is written out to
:data:`AUTO_CUT` moves and its frontier claimed (the checker's judge re-proves it)."""
AUTO_CUT = 6
PRODUCER = "compiled depth-first search (That's My Line)"
Position = tuple[int, int, int, int, int]
"""own, other, stones placed by the side to move and by the other, who placed last (0: the side to
move, 1: the other, -1: nobody)."""


def usable(game: Any) -> TypeGuard[ThatsMyLine]:
    """Whether the compiled producer serves ``game``: That's My Line, at most 64 nodes, a supply."""
    return isinstance(game, ThatsMyLine) and game.board.size <= 64 and (game.supply is None or game.supply > 0)


def table_bits(memory_mib: int) -> int:
    """The table's size (a power of two) that fits ``memory_mib`` beside the walk's tables."""
    entries = memory_mib * 2**20 * 3 // 4 // kernel.TABLE_ENTRY_BYTES
    return max(MIN_TABLE_BITS, min(MAX_TABLE_BITS, int(math.log2(max(entries, 1)))))


@dataclass
class _Clock:
    began: float
    deadline: float
    next_report: float = 0.0

    def report(self, progress: Progress, text: str) -> None:
        now = time.monotonic()
        if now >= self.next_report:
            self.next_report = now + PROGRESS_SECONDS
            progress(f"{text}, {now - self.began:.0f} s")


class TmlProver:
    """The compiled search of one That's My Line game (its board and supply), with its table."""

    def __init__(self, game: ThatsMyLine, memory_mib: int = 1024, symmetry: bool = True):
        self.game = game
        board = game.board
        self.nodes = sorted(board.nodes)
        self.index = {v: i for i, v in enumerate(self.nodes)}
        n = len(self.nodes)
        mates = np.zeros(64, np.uint64)
        for v in self.nodes:
            mates[self.index[v]] = np.uint64(self.packed(game.line_mates[v]))
        perms = [tuple(range(1, board.size + 1))] + (list(board.symmetries[1:]) if symmetry else [])
        tables = np.zeros((len(perms), 8, 256), np.uint64)
        for s, perm in enumerate(perms):
            for i in range(n):
                image = self.index[perm[self.nodes[i] - 1]]
                for byte in range(256):
                    if byte >> (i % 8) & 1:
                        tables[s, i // 8, byte] |= np.uint64(1) << np.uint64(image)
        order = np.full(64, -1, np.int64)
        order[:n] = sorted(range(n), key=lambda i: board.label(self.nodes[i]))
        supply = np.array([-1 if game.supply is None else game.supply], np.int64)
        self.geometry = kernel.Geometry(mates=mates, perms=tables, order=order, supply=supply)
        self.table = kernel.new_table(table_bits(memory_mib))
        self.stack = kernel.new_stack()
        self.control = np.zeros(4, np.int64)

    def packed(self, mask: int) -> int:
        """A mask over node ids (bit ``v``) as a mask over node indices (bit ``index[v]``)."""
        return sum(1 << self.index[v] for v in self.nodes if mask >> v & 1)

    def position(self, state: ThatsMyLineState) -> Position:
        me = state.to_move
        game = self.game
        last = -1 if state.last_placer is None else (0 if state.last_placer == me else 1)
        return (self.packed(game.open_mask(state, me)), self.packed(game.open_mask(state, 1 - me)),
                len(state.stones(me)), len(state.stones(1 - me)), last)

    def solve(self, position: Position, clock: _Clock, progress: Progress) -> int:
        """WON or LOST for the side to move; UNKNOWN when the deadline comes first."""
        own, other, mine, theirs, last = position
        verdict = kernel.open_root(self.geometry, self.stack, self.control, np.uint64(own), np.uint64(other), mine,
                                   theirs, last)
        while verdict == kernel.UNKNOWN:
            if time.monotonic() > clock.deadline:
                return kernel.UNKNOWN
            verdict = kernel.search_slice(self.geometry, self.table, self.stack, self.control, SLICE)
            clock.report(progress, f"{int(self.control[kernel.EXPANDED]):,} positions expanded")
        return verdict

    def expanded(self) -> int:
        return int(self.control[kernel.EXPANDED])

    def entries(self) -> int:
        return int(np.count_nonzero(self.table.metas))

    def write(self, state: ThatsMyLineState, winner: int, clock: _Clock, progress: Progress,
              cut: int | None = None) -> tuple[bytes, ProofSize]:
        """The certificate body of the proof that ``winner`` wins ``state`` and its size; positions
        the table has forgotten are searched again on the way. With ``cut``, the positions that many
        moves from the root are claimed (the checker's judge re-proves them), not written out."""
        walk = walker.new_walk()
        light, dark = self.packed(_mask(state.light)), self.packed(_mask(state.dark))
        own, other, mine, theirs, last = self.position(state)
        walk.state[0] = (np.int64(np.uint64(light)), np.int64(np.uint64(dark)), np.int64(np.uint64(own)),
                         np.int64(np.uint64(other)), mine, theirs, state.to_move, last)
        records = np.zeros((1 << 20, 3), np.int64)
        seen = walker.new_seen(20)
        control = np.array([-1, 0, 0, 0, winner, 0, -1 if cut is None else cut], np.int64)
        while True:
            status = walker.walk_slice(self.geometry, self.table, walk, records, seen, control, WALK_SLICE)
            clock.report(progress, f"writing the proof: {int(control[walker.W_RECORDS]):,} records")
            if status == walker.DONE:
                break
            if status == walker.RECORDS_FULL:
                if cut is None and records.shape[0] >= FULL_RECORDS:
                    raise _TooLarge
                records = np.concatenate([records, np.zeros_like(records)])
            elif status == walker.SEEN_FULL:
                bigger = walker.new_seen(int(math.log2(seen.ids.shape[0])) + 1)
                walker.rehash(seen, bigger)
                seen = bigger
            elif status == walker.NEED_SOLVE:
                st = walk.state[int(control[walker.W_DEPTH]) + 1]
                position = (int(np.uint64(st[2])), int(np.uint64(st[3])), int(st[4]), int(st[5]), int(st[7]))
                if self.solve(position, _Clock(clock.began, math.inf), progress) != kernel.WON:
                    raise RuntimeError("That's My Line's proof walk met a position its winner does not win")
            elif status == walker.BROKEN:
                raise RuntimeError("That's My Line's proof walk met a decided position its winner does not win")
        return self._encode(records, int(control[walker.W_RECORDS]), int(control[walker.W_IDS]))

    def _encode(self, records: np.ndarray, count: int, ids: int) -> tuple[bytes, ProofSize]:
        labels = np.zeros((65, 16), np.uint8)
        sizes = np.zeros(65, np.int64)
        for i, text in enumerate([self.game.board.label(v) for v in self.nodes] + ["pass"] * (65 - len(self.nodes))):
            data = text.encode("utf-8")[:16]
            labels[i, :len(data)] = np.frombuffer(data, np.uint8)
            sizes[i] = len(data)
        out = np.zeros(count * 20 + 16, np.uint8)
        length, winners, defenders, leaves, claims, refs, kept = walker.encode(records, count, ids, labels, sizes, out)
        size = ProofSize(positions=winners + defenders + leaves + claims, winner_nodes=winners,
                         defender_nodes=defenders, leaves=leaves, claims=claims, references=refs, kept=kept)
        return out[:length].tobytes(), size

    def move_text(self, code: int) -> str:
        return "pass" if code == kernel.PASS else self.game.board.label(self.nodes[code])

    def known(self, state: ThatsMyLineState) -> int:
        """WON or LOST for the side to move of ``state`` when the table (or the count bound) knows it."""
        own, other, mine, theirs, last = self.position(state)
        value, _ = kernel.known(self.geometry, self.table, np.uint64(own), np.uint64(other), mine, theirs, last)
        return int(value)


class _TooLarge(Exception):
    """A proof written out in full would pass :data:`FULL_RECORDS` records."""


def _mask(nodes: Any) -> int:
    return sum(1 << v for v in nodes)


def prove_tml(game: ThatsMyLine, state: ThatsMyLineState, *, limits: Limits, symmetry: bool = True,
              progress: Progress = no_progress, board_name: str | None = None, cut: int | None = None) -> ProofResult:
    """:func:`powertwo.solvers.prove.prove` for That's My Line by the compiled producer; ``cut``:
    claim the positions that many moves from the root (see :meth:`TmlProver.write`); without it
    the proof is written out in full, or to :data:`AUTO_CUT` moves when that is too large."""
    began = time.monotonic()
    clock = _Clock(began, began + limits.seconds if limits.seconds is not None else math.inf)
    prover = TmlProver(game, limits.memory_mib, symmetry)
    me = state.to_move
    try:
        verdict = prover.solve(prover.position(state), clock, progress)
    except KeyboardInterrupt:
        verdict = -2
    stopped = None if verdict in (kernel.WON, kernel.LOST) else (Stop.INTERRUPTED if verdict == -2 else Stop.TIME)
    size = certificate = first = winner = None
    value = Value.UNKNOWN
    if stopped is None:
        winner = me if verdict == kernel.WON else 1 - me
        value = Value.WON if winner == me else Value.LOST
        progress("writing the proof")
        try:
            body, size = prover.write(state, winner, clock, progress, cut)
        except _TooLarge:
            progress(f"the proof is larger than {FULL_RECORDS:,} records: written out to {AUTO_CUT} moves")
            body, size = prover.write(state, winner, clock, progress, AUTO_CUT)
        first = _first_move(body) if winner == me else None
        header = certificate_header(game, state, value, winner, first, size, symmetry=symmetry,
                                    board_name=board_name, producer=PRODUCER)
        certificate = Certificate(header=header, body=body)
    seconds = time.monotonic() - began
    verdict_of_run = {Value.WON: Verdict.PROVEN, Value.LOST: Verdict.DISPROVEN}.get(value, Verdict.OPEN)
    run = Run(attacker=game.player_name(me), verdict=verdict_of_run, proof_number=None, disproof_number=None,
              expanded=prover.expanded())
    figures = Figures(expanded=prover.expanded(), table_entries=prover.entries(), seconds=seconds, stopped=stopped,
                      runs=(run,))
    return ProofResult(game=game.name, board=board_name or game.board.name, options=dict(game.options),
                       to_move=game.player_name(me), value=value,
                       winner=None if winner is None else game.player_name(winner), move=first, proof=size,
                       figures=figures, root_moves=_root_moves(prover, state), certificate=certificate)


def _first_move(body: bytes) -> str | None:
    """The root's move in a body that opens with a winner's position (tag, length, text); ``None``
    when the root is a leaf."""
    if body[0] == 0:
        return None
    return body[2:2 + body[1]].decode("utf-8")


def _root_moves(prover: TmlProver, state: ThatsMyLineState) -> tuple[RootMove, ...]:
    game = prover.game
    if game.outcome(state) is not None:
        return ()
    out = []
    for move in sorted(game.legal_moves(state), key=lambda m: game.format_move(m, state)):
        after = game._apply(state, move)
        known = prover.known(after)
        value = Value.LOST if known == kernel.WON else Value.WON if known == kernel.LOST else Value.UNKNOWN
        out.append(RootMove(move=game.format_move(move, state), value=value))
    return tuple(out)


__all__ = ["TmlProver", "prove_tml", "usable", "Place", "Pass"]
