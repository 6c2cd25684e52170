"""Epaminondas (RULES.md §8): phalanxes on a 14x12 board.

A *phalanx* is one or more own pieces standing contiguously on a line
(orthogonal or diagonal). It moves along its own line, either way, by 1..n
squares (a single piece: one square in any of the 8 directions). Every square
entered must be empty, except that the head may stop on the first opponent
piece when the opponent's contiguous run on that line, from that square on, is
shorter than the phalanx: that whole run is captured. A single piece never
captures, equal strength never captures, nothing passes over a piece.

A player wins when, at the start of their own turn, they have more pieces on
the opponent's home row than the opponent has on theirs (the opponent had one
turn to equalise). A player with no pieces or no legal move loses.

Notation ``a1-a4``: the *tail* square of the phalanx (its rearmost piece, seen
in the direction of the move) and the square its *head* reaches. The phalanx is
every own piece standing contiguously from the tail in the direction of the
move: a phalanx can only move forward if nothing of its own stands in front of
it, so these are exactly the pieces the move carries and the notation is never
ambiguous. ``a2-a3`` moves the single piece a2 (if a3 is empty and a2 has no
own piece in front); ``a1-a4`` with White on a1, a2 moves that pair two squares.
A capture is written the same way (the head's square is the first captured
piece), optionally with ``x``: ``c4xc7``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterator, Mapping

from powertwo.boards import BoardError, NodeId
from powertwo.boards.words import counted

from .base import (Game, InvalidMoveError, Outcome, RecordError, marked_row, nodes_from_json, register, square_key,
                   start_supply)

# ---------------------------------------------------------------- constants
WHITE, BLACK = 0, 1
SIDE_KEYS = ("light", "dark")
"""Keys of the board's start positions for White and Black."""
MOVE_RE = re.compile(r"^\s*([a-z]\d{1,2}|\d+)\s*[-x]\s*([a-z]\d{1,2}|\d+)\s*$")
"""Squares are written by name (``a1``) or node id."""


# ---------------------------------------------------------------- state and moves
@dataclass(frozen=True, order=True)
class PhalanxMove:
    """A phalanx move: from its tail square ``frm`` (the rearmost piece seen in the direction of the
    move), the head reaches ``to``."""

    frm: NodeId
    to: NodeId


@dataclass(frozen=True)
class EpaminondasState:
    """``pieces[0]`` White's squares, ``pieces[1]`` Black's; ``to_move``; ``ply`` moves made."""

    pieces: tuple[frozenset[NodeId], frozenset[NodeId]]
    to_move: int
    ply: int


# ---------------------------------------------------------------- metadata
@register
class Epaminondas(Game[EpaminondasState, PhalanxMove]):
    """Epaminondas on the shipped 14x12 board (or any square board with labels a1..)."""

    name = "epaminondas"
    title = "Epaminondas"
    board_name = "epaminondas"
    player_names = ("White", "Black")
    player_keys = ("white", "black")
    position_fields = ("white", "black")
    move_types = (PhalanxMove,)
    options_spec = ()
    notation_help = ("tail-head: the rearmost piece of the phalanx and the square its head reaches, "
                     "e.g. a1-a4 (x for a capture is optional: c4xc7)")
    rules_summary = (
        "White and Black have 28 pieces each on their two home rows of the 14x12 board. A phalanx is one "
        "or more of your pieces in a row along a line (straight or diagonal). A turn moves a phalanx of n "
        "pieces along its own line by 1 to n squares onto empty squares; it may stop on the first enemy "
        "piece in its way when the enemy pieces in a row there are fewer than n, capturing them all. A "
        "single piece never captures. You win when, at the start of your turn, you have more pieces on "
        "the opponent's home row than they have on yours; a player with no pieces or no move loses.")

    # ------------------------------------------------------------ tables (built on first use)
    @cached_property
    def _rank(self) -> dict[NodeId, int]:
        return {v: int(self.board.label(v)[1:]) for v in self.board.nodes}

    @cached_property
    def _top_rank(self) -> int:
        return max(self._rank.values())

    @cached_property
    def _home(self) -> tuple[frozenset[NodeId], frozenset[NodeId]]:
        """White's home row (rank 1) and Black's (the top rank)."""
        return (frozenset(v for v in self.board.nodes if self._rank[v] == 1),
                frozenset(v for v in self.board.nodes if self._rank[v] == self._top_rank))

    @cached_property
    def _on_ray(self) -> dict[tuple[NodeId, NodeId], tuple[tuple[NodeId, ...], int]]:
        """(tail, square) -> (ray from tail through square, index of square in the ray)."""
        out = {}
        for v in self.board.nodes:
            for ray in self.board.rays[v]:
                for i, w in enumerate(ray):
                    out[(v, w)] = (ray, i)
        return out

    # ------------------------------------------------------------ state
    def start(self, start: str | None = None, **kwargs: Any) -> EpaminondasState:
        name = start or self.default_start
        try:
            sides = self.board.start(name)
        except BoardError as exc:
            raise RecordError(f"game {self.name}: {exc}") from None
        return EpaminondasState(pieces=(frozenset(sides.get(SIDE_KEYS[0], ())), frozenset(sides.get(SIDE_KEYS[1], ()))),
                                to_move=WHITE, ply=0)

    # ------------------------------------------------------------ legal moves
    def pseudo_legal_moves(self, state: EpaminondasState) -> Iterator[PhalanxMove]:
        """Every legal move (the generator is exact): tails in id order, rays in board order."""
        own, opp = state.pieces[state.to_move], state.pieces[1 - state.to_move]
        for tail in sorted(own):
            for ray in self.board.rays[tail]:
                n = 1
                while n - 1 < len(ray) and ray[n - 1] in own:
                    n += 1
                # the phalanx is tail + ray[:n-1]; the head steps onto ray[n-1], ray[n], ...
                for i in range(n - 1, min(2 * n - 1, len(ray))):
                    square = ray[i]
                    if square in own:
                        break
                    if square in opp:
                        if n >= 2 and _run(ray, i, opp) < n:
                            yield PhalanxMove(tail, square)
                        break
                    yield PhalanxMove(tail, square)

    def illegality(self, state: EpaminondasState, move: PhalanxMove) -> str | None:
        b = self.board
        if not (b.has_node(move.frm) and b.has_node(move.to)):
            return "the move names a square that is not on the board"
        own, opp = state.pieces[state.to_move], state.pieces[1 - state.to_move]
        me = self.player_name(state.to_move)
        tail, dest = b.label(move.frm), b.label(move.to)
        if move.frm not in own:
            return f"{tail} holds no {me} piece"
        if (move.frm, move.to) not in self._on_ray:
            return f"{dest} is not on a line through {tail}"
        ray, t = self._on_ray[(move.frm, move.to)]
        n = 1
        while n - 1 < len(ray) and ray[n - 1] in own:
            n += 1
        steps = t - (n - 2)
        if steps < 1:
            head = b.label(([move.frm] + list(ray))[n - 1])
            return f"{dest} is inside the phalanx of {n} from {tail}; its head is {head}"
        if steps > n:
            return f"the phalanx of {n} from {tail} moves at most {counted(n, 'square')}, not {steps}"
        for i in range(n - 1, t):
            if ray[i] in opp or ray[i] in own:
                return f"nothing passes over a piece: {b.label(ray[i])} is occupied"
        if move.to in own:
            return f"{dest} is occupied by a {me} piece"
        if move.to in opp:
            if n == 1:
                return "a single piece never captures"
            m = _run(ray, t, opp)
            if m == n:
                return f"equal strength never captures: {n} against {m} on that line"
            if m > n:
                return f"a phalanx of {n} cannot capture a stronger run of {m}"
        return None

    # ------------------------------------------------------------ apply
    def _apply(self, state: EpaminondasState, move: PhalanxMove) -> EpaminondasState:
        p = state.to_move
        own, opp = state.pieces[p], state.pieces[1 - p]
        ray, t = self._on_ray[(move.frm, move.to)]
        n = 1
        while n - 1 < len(ray) and ray[n - 1] in own:
            n += 1
        line = (move.frm,) + ray  # line[j]: j squares from the tail
        shift = (t + 1) - (n - 1)
        moved = set(line[:n])
        arrived = line[shift:shift + n]
        captured = frozenset(ray[t:t + _run(ray, t, opp)]) if move.to in opp else frozenset()
        new_own = (own - moved) | frozenset(arrived)
        new_opp = opp - captured
        pieces = (new_own, new_opp) if p == WHITE else (new_opp, new_own)
        return EpaminondasState(pieces=pieces, to_move=1 - p, ply=state.ply + 1)

    # ------------------------------------------------------------ outcome
    def home_row_counts(self, state: EpaminondasState) -> tuple[int, int]:
        """Pieces of White on Black's home row, and of Black on White's."""
        return (len(state.pieces[WHITE] & self._home[BLACK]), len(state.pieces[BLACK] & self._home[WHITE]))

    def outcome(self, state: EpaminondasState) -> Outcome | None:
        p = state.to_move
        counts = self.home_row_counts(state)
        if counts[p] > counts[1 - p]:
            return Outcome(p, f"{self.player_name(p)} has {counts[p]} on the opponent's home row against "
                              f"{counts[1 - p]} at the start of their turn")
        if not state.pieces[p]:
            return Outcome(1 - p, f"{self.player_name(p)} has no pieces")
        if next(iter(self.pseudo_legal_moves(state)), None) is None:
            return Outcome(1 - p, f"{self.player_name(p)} has no legal move")
        return None

    # ------------------------------------------------------------ notation
    def parse_move(self, text: str, state: EpaminondasState | None = None) -> PhalanxMove:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        m = MOVE_RE.match(text)
        if not m:
            raise InvalidMoveError(f"cannot read {text!r}: expected tail-head like a1-a3")
        squares = []
        for token in m.groups():
            try:
                squares.append(self.node_from_text(token))
            except InvalidMoveError as exc:
                raise InvalidMoveError(f"{text!r}: {exc}") from None
        return PhalanxMove(squares[0], squares[1])

    def format_move(self, move: PhalanxMove, state: EpaminondasState | None = None) -> str:
        b = self.board
        if not (b.has_node(move.frm) and b.has_node(move.to)):
            return f"{move.frm}-{move.to}"
        return f"{b.label(move.frm)}-{b.label(move.to)}"

    # ------------------------------------------------------------ JSON
    def state_to_json(self, state: EpaminondasState) -> dict:
        b = self.board
        return {
            "game": self.name,
            "to_move": self.player_to_json(state.to_move),
            "ply": state.ply,
            "white": sorted((b.label(v) for v in state.pieces[WHITE]), key=square_key),
            "black": sorted((b.label(v) for v in state.pieces[BLACK]), key=square_key),
        }

    def state_from_json(self, data: Mapping) -> EpaminondasState:
        self.check_position(data)
        to_move, ply = self.to_move_and_ply(data)
        sides = [nodes_from_json(self.board, data[key], f"position field {key!r}") for key in self.player_keys]
        both = sides[0] & sides[1]
        if both:
            raise RecordError(f"position: square {self.board.label(min(both))} is both white and black")
        for player, key in enumerate(SIDE_KEYS):
            most = start_supply(self.board, key)
            if len(sides[player]) > most:
                raise RecordError(f"position: {self.player_name(player)} has {len(sides[player])} pieces, more than "
                                  f"the {most} a side starts with")
        return EpaminondasState(pieces=(sides[0], sides[1]), to_move=to_move, ply=ply)

    # ------------------------------------------------------------ text and diagram
    def render_text(self, state: EpaminondasState, last_move: PhalanxMove | None = None) -> str:
        b = self.board
        marked = self.last_move_nodes(state, last_move)
        files = sorted({lab[0] for lab in b.labels})
        rows = []
        for r in range(self._top_rank, 0, -1):
            cells, marks = [], []
            for f in files:
                v = b.node(f"{f}{r}")
                cells.append("W" if v in state.pieces[WHITE] else "B" if v in state.pieces[BLACK] else ".")
                marks.append(v in marked)
            rows.append(f"{r:>2}" + marked_row(cells, marks))
        rows.append("   " + " ".join(files))
        w, k = self.home_row_counts(state)
        rows.append(f"{self.position_caption(state)}; "
                    f"White {len(state.pieces[WHITE])} ({w} on rank {self._top_rank}), "
                    f"Black {len(state.pieces[BLACK])} ({k} on rank 1)")
        return "\n".join(rows)

    def diagram(self, state: EpaminondasState, last_move: PhalanxMove | None = None) -> dict:
        from powertwo.boards.diagram import Arrow, Stone

        stones = [Stone(v, "light") for v in sorted(state.pieces[WHITE])]
        stones += [Stone(v, "dark") for v in sorted(state.pieces[BLACK])]
        arrows = [Arrow((last_move.frm, last_move.to))] if last_move is not None else []
        return {"stones": stones, "arrows": arrows, "title": f"{self.title}: {self.position_caption(state)}",
                "legend": self.stone_legend() | {"arrow": "arrow: the last move, from the phalanx's tail"}}


# ---------------------------------------------------------------- helpers
def _run(ray: tuple[NodeId, ...], i: int, group: frozenset) -> int:
    """How many squares of ``group`` stand contiguously on ``ray`` from index ``i`` on."""
    j = i
    while j < len(ray) and ray[j] in group:
        j += 1
    return j - i
