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
from pathlib import Path
from typing import Any, Iterator, Mapping

from powertwo.boards import Board, BoardError, NodeId

from .base import (
    Game, InvalidMoveError, Outcome, RecordError, player_field, ply_field, read_json_file, register, square_key,
)

# ---------------------------------------------------------------- constants
WHITE, BLACK = 0, 1
SIDE_KEYS = ("light", "dark")
"""Keys of the board's start positions for White and Black."""
HOME_RANK = (1, 12)
"""Home row (rank number) of White and of Black; each player aims at the other's."""
MOVE_RE = re.compile(r"^\s*([a-z]\d{1,2})\s*[-x]\s*([a-z]\d{1,2})\s*$")


# ---------------------------------------------------------------- metadata
@register
class Epaminondas(Game):
    """Epaminondas on the shipped 14x12 board (or any square board with labels a1..)."""

    name = "epaminondas"
    title = "Epaminondas"
    board_name = "epaminondas"
    player_names = ("White", "Black")
    options_spec = ()
    notation_help = ("tail-head: the rearmost piece of the phalanx and the square its head reaches, "
                     "e.g. a1-a4 (x for a capture is optional: c4xc7)")

    def __init__(self, board: Board | None = None, **options: Any):
        super().__init__(board, **options)
        b = self.board
        self._rank = {v: int(b.label(v)[1:]) for v in b.nodes}
        self._top_rank = max(self._rank.values())
        self._home = (frozenset(v for v in b.nodes if self._rank[v] == 1),
                      frozenset(v for v in b.nodes if self._rank[v] == self._top_rank))
        # (tail, square) -> (ray from tail through square, index of square in the ray)
        self._on_ray: dict[tuple[NodeId, NodeId], tuple[tuple[NodeId, ...], int]] = {}
        for v in b.nodes:
            for ray in b.rays[v]:
                for i, w in enumerate(ray):
                    self._on_ray[(v, w)] = (ray, i)

    # ------------------------------------------------------------ state
    def start(self, start: str | None = None, **kwargs: Any) -> "EpaminondasState":
        name = start or self.default_start
        if name not in self.board.start_names and Path(name).is_file():
            return self.state_from_json(read_json_file(name))
        sides = self.board.start(name)
        return EpaminondasState(pieces=(frozenset(sides.get(SIDE_KEYS[0], ())), frozenset(sides.get(SIDE_KEYS[1], ()))),
                                to_move=WHITE, ply=0)

    # ------------------------------------------------------------ legal moves
    def pseudo_legal_moves(self, state: "EpaminondasState") -> Iterator["PhalanxMove"]:
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

    def illegality(self, state: "EpaminondasState", move: "PhalanxMove") -> str | None:
        b = self.board
        if not (b.has_node(move.tail) and b.has_node(move.dest)):
            return "the move names a square that is not on the board"
        own, opp = state.pieces[state.to_move], state.pieces[1 - state.to_move]
        me = self.player_name(state.to_move)
        tail, dest = b.label(move.tail), b.label(move.dest)
        if move.tail not in own:
            return f"{tail} holds no {me} piece"
        if (move.tail, move.dest) not in self._on_ray:
            return f"{dest} is not on a line through {tail}"
        ray, t = self._on_ray[(move.tail, move.dest)]
        n = 1
        while n - 1 < len(ray) and ray[n - 1] in own:
            n += 1
        steps = t - (n - 2)
        if steps < 1:
            head = b.label(([move.tail] + list(ray))[n - 1])
            return f"{dest} is inside the phalanx of {n} from {tail}; its head is {head}"
        if steps > n:
            return f"the phalanx of {n} from {tail} moves at most {n} square{'s' if n > 1 else ''}, not {steps}"
        for i in range(n - 1, t):
            if ray[i] in opp or ray[i] in own:
                return f"nothing passes over a piece: {b.label(ray[i])} is occupied"
        if move.dest in own:
            return f"{dest} is occupied by a {me} piece"
        if move.dest in opp:
            if n == 1:
                return "a single piece never captures"
            m = _run(ray, t, opp)
            if m == n:
                return f"equal strength never captures: {n} against {m} on that line"
            if m > n:
                return f"a phalanx of {n} cannot capture a stronger run of {m}"
        return None

    # ------------------------------------------------------------ apply
    def _apply(self, state: "EpaminondasState", move: "PhalanxMove") -> "EpaminondasState":
        p = state.to_move
        own, opp = state.pieces[p], state.pieces[1 - p]
        ray, t = self._on_ray[(move.tail, move.dest)]
        n = 1
        while n - 1 < len(ray) and ray[n - 1] in own:
            n += 1
        line = (move.tail,) + ray  # line[j]: j squares from the tail
        shift = (t + 1) - (n - 1)
        moved = set(line[:n])
        arrived = line[shift:shift + n]
        captured = frozenset(ray[t:t + _run(ray, t, opp)]) if move.dest in opp else frozenset()
        new_own = (own - moved) | frozenset(arrived)
        new_opp = opp - captured
        pieces = (new_own, new_opp) if p == WHITE else (new_opp, new_own)
        return EpaminondasState(pieces=pieces, to_move=1 - p, ply=state.ply + 1)

    # ------------------------------------------------------------ outcome
    def home_row_counts(self, state: "EpaminondasState") -> tuple[int, int]:
        """Pieces of White on Black's home row, and of Black on White's."""
        return (len(state.pieces[WHITE] & self._home[BLACK]), len(state.pieces[BLACK] & self._home[WHITE]))

    def outcome(self, state: "EpaminondasState") -> Outcome | None:
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
    def parse_move(self, text: str, state: "EpaminondasState | None" = None) -> "PhalanxMove":
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        m = MOVE_RE.match(text)
        if not m:
            raise InvalidMoveError(f"cannot read {text!r}: expected tail-head like a1-a3")
        try:
            return PhalanxMove(self._square(m.group(1)), self._square(m.group(2)))
        except BoardError as exc:
            raise InvalidMoveError(f"{text!r}: {exc}") from None

    def _square(self, label: str) -> NodeId:
        node = self.board.node(label)
        if self.board.label(node) != label:  # refuse bare node ids: squares are written a1..n12
            raise BoardError(f"node {label} does not exist on board {self.board.name}")
        return node

    def format_move(self, move: "PhalanxMove", state: "EpaminondasState | None" = None) -> str:
        b = self.board
        if not (b.has_node(move.tail) and b.has_node(move.dest)):
            return f"{move.tail}-{move.dest}"
        return f"{b.label(move.tail)}-{b.label(move.dest)}"

    # ------------------------------------------------------------ JSON
    def state_to_json(self, state: "EpaminondasState") -> dict:
        b = self.board
        return {
            "game": self.name,
            "to_move": self.player_name(state.to_move),
            "ply": state.ply,
            "white": sorted((b.label(v) for v in state.pieces[WHITE]), key=square_key),
            "black": sorted((b.label(v) for v in state.pieces[BLACK]), key=square_key),
        }

    def state_from_json(self, data: Mapping) -> "EpaminondasState":
        if not isinstance(data, Mapping):
            raise RecordError("position: must be a JSON object")
        if data.get("game", self.name) != self.name:
            raise RecordError(f"position: field 'game' is {data.get('game')!r}, expected {self.name!r}")
        to_move = player_field(data, self.player_names)
        ply = ply_field(data)
        sides = []
        for key in ("white", "black"):
            raw = data.get(key)
            if not isinstance(raw, list):
                raise RecordError(f"position: field {key!r} must be a list of squares")
            nodes = []
            for item in raw:
                if not isinstance(item, str):
                    raise RecordError(f"position: field {key!r}: {item!r} is not a square name")
                try:
                    nodes.append(self._square(item))
                except BoardError as exc:
                    raise RecordError(f"position: field {key!r}: {exc}") from None
            if len(set(nodes)) != len(nodes):
                raise RecordError(f"position: field {key!r} names a square twice")
            sides.append(frozenset(nodes))
        both = sides[0] & sides[1]
        if both:
            raise RecordError(f"position: square {self.board.label(min(both))} is both white and black")
        return EpaminondasState(pieces=(sides[0], sides[1]), to_move=to_move, ply=ply)

    # ------------------------------------------------------------ text and diagram
    def render_text(self, state: "EpaminondasState") -> str:
        b = self.board
        files = sorted({lab[0] for lab in b.labels})
        rows = []
        for r in range(self._top_rank, 0, -1):
            cells = []
            for f in files:
                v = b.node(f"{f}{r}")
                cells.append("W" if v in state.pieces[WHITE] else "B" if v in state.pieces[BLACK] else ".")
            rows.append(f"{r:>2} " + " ".join(cells))
        rows.append("   " + " ".join(files))
        w, k = self.home_row_counts(state)
        rows.append(f"{self.player_name(state.to_move)} to move, ply {state.ply}; "
                    f"White {len(state.pieces[WHITE])} ({w} on rank {self._top_rank}), "
                    f"Black {len(state.pieces[BLACK])} ({k} on rank 1)")
        return "\n".join(rows)

    def diagram(self, state: "EpaminondasState", last_move: "PhalanxMove | None" = None) -> dict:
        from powertwo.boards.draw import Arrow, Stone  # drawing is imported only when drawing

        stones = [Stone(v, "light") for v in sorted(state.pieces[WHITE])]
        stones += [Stone(v, "dark") for v in sorted(state.pieces[BLACK])]
        arrows = [Arrow((last_move.tail, last_move.dest))] if last_move is not None else []
        return {"stones": stones, "arrows": arrows,
                "title": f"{self.title}: {self.player_name(state.to_move)} to move (ply {state.ply})"}


# ---------------------------------------------------------------- values
@dataclass(frozen=True, order=True)
class PhalanxMove:
    """A phalanx move: its tail square and the square its head reaches."""

    tail: NodeId
    dest: NodeId


@dataclass(frozen=True)
class EpaminondasState:
    """``pieces[0]`` White's squares, ``pieces[1]`` Black's; ``to_move``; ``ply`` moves made."""

    pieces: tuple[frozenset, frozenset]
    to_move: int
    ply: int


# ---------------------------------------------------------------- helpers
def _run(ray: tuple[NodeId, ...], i: int, group: frozenset) -> int:
    """How many squares of ``group`` stand contiguously on ``ray`` from index ``i`` on."""
    j = i
    while j < len(ray) and ray[j] in group:
        j += 1
    return j - i
