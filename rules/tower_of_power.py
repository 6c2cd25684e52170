"""Tower of Power (RULES.md §6): stacks on an 8x8 board, sown like mancala.

Every square holds a stack; its top stone's owner *controls* it. A turn is

* a **tower move**: a straight run (orthogonal or diagonal) of k >= 2
  consecutive squares the mover controls; the top stones of the k-1 squares at
  one end are lifted onto the square at the other end (the *base*), then sown
  one per square on the next k-1 squares from the base in one direction
  (orthogonal or diagonal, never back along the run; that many squares must
  exist). A sown stone landing on an opponent-controlled square captures its
  top stone (only that one) and takes its place; on an empty or own square it
  is simply placed. Since the base keeps its own stones, the net effect is: one
  stone less on each of the k-1 run squares, one mover's stone more on each of
  the k-1 sown squares;
* a **single step** of an *isolated* stone (the top of its square, with no
  square the mover controls among its 8 neighbours) by one square in any
  direction, onto anything (capturing an opponent's top stone). **Decision** of
  RULES.md: the seed ties capture to sowing ("beim Verteilen"), so the capturing
  step is our reading; the option ``step_capture`` off (CLI ``--no-step-capture``)
  restricts steps to empty squares (an isolated stone has no own neighbour).

Moving is compulsory, capturing is not. A player without a legal move loses.
Draw by threefold repetition (same stacks, same player to move), or when the
optional ``move_limit`` (a number of plies, 0 = none) is reached.

Notation: ``b2-b4/c5`` is the run from b2 to the base b4, sown starting on c5
(a neighbour of the base); ``g5-f5`` is a single step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterator, Mapping, Union

from powertwo.boards import BoardError, NodeId
from powertwo.boards.words import counted

from .base import (
    Game, InvalidMoveError, Option, Outcome, RecordError, marked_row, node_from_json, register, square_key,
    start_supply, whole_number,
)

# ---------------------------------------------------------------- constants
WHITE, BLACK = 0, 1
SIDE_KEYS = ("light", "dark")
STONE_CHARS = "WB"
"""How a stack is written in JSON and text: its stones bottom to top, ``W`` White, ``B`` Black."""
TOWER_RE = re.compile(r"^\s*(\w+)\s*-\s*(\w+)\s*/\s*(\w+)\s*$")
STEP_RE = re.compile(r"^\s*([a-z]\d{1,2}|\d+)\s*[-x]\s*([a-z]\d{1,2}|\d+)\s*$")
"""Squares are written by name (``b2``) or node id (``10``)."""
REPETITIONS_FOR_DRAW = 3

Stack = tuple[int, ...]
"""A square's stones, bottom first: ``(0, 1)`` is a White stone under a Black one."""
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
"""The 8 directions (file step, rank step), indexed as in the ray tables."""


# ---------------------------------------------------------------- state and moves
@dataclass(frozen=True, order=True)
class TowerMove:
    """A tower move: the run from ``start`` to ``base``, sown from ``toward`` (next to the base) on."""

    start: NodeId
    base: NodeId
    toward: NodeId


@dataclass(frozen=True, order=True)
class Step:
    """A single step of an isolated stone from ``frm`` to the neighbouring ``to``."""

    frm: NodeId
    to: NodeId


TowerOfPowerMove = Union[TowerMove, Step]


@dataclass(frozen=True)
class TowerOfPowerState:
    """``stacks[v - 1]`` the stones on square ``v`` bottom first; ``history`` the keys
    ``(stacks, to_move)`` of every earlier position of the game, for repetition."""

    stacks: tuple[Stack, ...]
    to_move: int
    ply: int
    history: tuple[tuple[tuple[Stack, ...], int], ...] = ()

    @property
    def key(self) -> tuple[tuple[Stack, ...], int]:
        """What repetition compares: the stacks and the player to move."""
        return (self.stacks, self.to_move)


# ---------------------------------------------------------------- metadata
@register
class TowerOfPower(Game[TowerOfPowerState, TowerOfPowerMove]):
    """Tower of Power on the shipped 8x8 board."""

    name = "tower-of-power"
    title = "Tower of Power"
    board_name = "tower-of-power"
    player_names = ("White", "Black")
    player_keys = ("white", "black")
    position_fields = ("stacks",)
    position_extras = ("history",)
    move_types = (TowerMove, Step)
    options_spec = (
        Option("move_limit", 0, "the game is drawn after this many plies (0: no limit)", parse=whole_number),
        Option("step_capture", True,
               "a single step may capture (RULES.md decision; off: steps go to empty squares only)",
               choices=(False, True)),
    )
    notation_help = "tower move b2-b4/c5 (run b2 to base b4, sown from c5 on); single step g5-f5"
    rules_summary = (
        "White and Black have 15 stones each in opposite corners of the 8x8 board; a square holds a "
        "stack, controlled by its top stone. A turn is a tower move or a single step. Tower move: take a "
        "straight run of two or more squares you control, lift the top stone of each square but the one "
        "at one end and stack them there (the base), then sow them one per square onwards from the base "
        "in any direction but back along the run; a stone sown on an opponent's square captures its top "
        "stone. Single step: a top stone with no own square around it moves one square in any "
        "direction, capturing on an opponent's square. You must move; a player with no legal move loses. "
        "A position repeated three times is a draw.")

    # ------------------------------------------------------------ tables (built on first use)
    @cached_property
    def _rays(self) -> list[list[tuple[NodeId, ...]]]:
        """``_rays[node][d]``: the squares sliding away from ``node`` in direction ``d`` (maybe none)."""
        b = self.board
        rays: list[list[tuple[NodeId, ...]]] = [[() for _ in DIRECTIONS] for _ in range(b.size + 1)]
        for v in b.nodes:
            x, y = b.coord(v)
            for ray in b.rays[v]:
                dx, dy = b.coord(ray[0])[0] - x, b.coord(ray[0])[1] - y
                rays[v][DIRECTIONS.index((int(dx), int(dy)))] = ray
        return rays

    @cached_property
    def _neighbours(self) -> dict[NodeId, tuple[NodeId, ...]]:
        return {v: tuple(r[0] for r in self._rays[v] if r) for v in self.board.nodes}

    @cached_property
    def _direction(self) -> dict[tuple[NodeId, NodeId], int]:
        """The direction index from a square to each neighbour."""
        return {(v, r[0]): d for v in self.board.nodes for d, r in enumerate(self._rays[v]) if r}

    @cached_property
    def _tower_moves_up_to(self) -> list[list[int]]:
        """``[base][j]``: tower moves from ``base`` with a run of up to j + 1 squares along one
        direction (each run length k counts the sowing directions other than the run's own with
        room for k - 1 stones)."""
        out: list[list[int]] = [[] for _ in range(self.board.size + 1)]
        for v in self.board.nodes:
            lengths = [len(r) for r in self._rays[v]]
            cumulative = [0]
            for j in range(1, max(lengths) + 1):
                cumulative.append(cumulative[-1] + sum(1 for n in lengths if n >= j) - 1)
            out[v] = cumulative
        return out

    # ------------------------------------------------------------ state
    def start(self, start: str | None = None, **kwargs: Any) -> TowerOfPowerState:
        name = start or self.default_start
        try:
            sides = self.board.start(name)
        except BoardError as exc:
            raise RecordError(f"game {self.name}: {exc}") from None
        stacks: list[Stack] = [() for _ in self.board.nodes]
        for player, key in enumerate(SIDE_KEYS):
            for v in sides.get(key, ()):
                stacks[v - 1] = (player,)
        return TowerOfPowerState(stacks=tuple(stacks), to_move=WHITE, ply=0, history=())

    # ------------------------------------------------------------ legal moves
    def pseudo_legal_moves(self, state: TowerOfPowerState) -> Iterator[TowerOfPowerMove]:
        """Every legal move (exact): tower moves by base, run direction, length and sowing
        direction, then single steps of isolated stones."""
        me, stacks, rays = state.to_move, state.stacks, self._rays
        mine = [False] * (self.board.size + 1)
        for v in self.board.nodes:
            s = stacks[v - 1]
            mine[v] = bool(s) and s[-1] == me
        for base in self.board.nodes:
            if not mine[base]:
                continue
            for d, ray in enumerate(rays[base]):
                for k1, square in enumerate(ray):  # run = base + ray[:k1 + 1], k - 1 = k1 + 1
                    if not mine[square]:
                        break
                    for e, sow in enumerate(rays[base]):
                        if e != d and len(sow) > k1:
                            yield TowerMove(square, base, sow[0])
        capture = self.options["step_capture"]
        for v in self.board.nodes:
            if mine[v] and not any(mine[w] for w in self._neighbours[v]):
                for w in self._neighbours[v]:
                    if capture or not stacks[w - 1]:  # an isolated stone has no own neighbour
                        yield Step(v, w)

    def count_moves(self, state: TowerOfPowerState) -> int:
        """The number of legal moves without building them (perft's last level; the generator is exact)."""
        me, stacks, rays = state.to_move, state.stacks, self._rays
        mine = [False] * (self.board.size + 1)
        for v in self.board.nodes:
            s = stacks[v - 1]
            mine[v] = bool(s) and s[-1] == me
        total = 0
        for base in self.board.nodes:
            if not mine[base]:
                continue
            up_to = self._tower_moves_up_to[base]
            alone = True
            for ray in rays[base]:
                run = 0
                while run < len(ray) and mine[ray[run]]:
                    run += 1
                if run:
                    alone = False
                    total += up_to[run]
            if alone:
                if self.options["step_capture"]:
                    total += len(self._neighbours[base])
                else:
                    total += sum(1 for w in self._neighbours[base] if not stacks[w - 1])
        return total

    def illegality(self, state: TowerOfPowerState, move: TowerOfPowerMove) -> str | None:
        b = self.board
        nodes = (move.start, move.base, move.toward) if isinstance(move, TowerMove) else (move.frm, move.to)
        if not all(b.has_node(v) for v in nodes):
            return "the move names a square that is not on the board"
        me = state.to_move
        name = self.player_name(me)

        def controls(v: NodeId) -> bool:
            s = state.stacks[v - 1]
            return bool(s) and s[-1] == me

        if isinstance(move, Step):
            src, dst = b.label(move.frm), b.label(move.to)
            if not controls(move.frm):
                return f"{src} is not controlled by {name}"
            if move.to not in self._neighbours[move.frm]:
                return f"a single step goes to a neighbouring square; {dst} is not next to {src}"
            helpers = [w for w in self._neighbours[move.frm] if controls(w)]
            if helpers:
                return f"the stone on {src} is not isolated ({b.label(min(helpers))} is also controlled by {name})"
            if not self.options["step_capture"] and state.stacks[move.to - 1]:
                return (f"a single step may not capture (option step_capture off): {dst} is controlled by "
                        f"{self.player_name(1 - me)}")
            return None
        start, base, toward = b.label(move.start), b.label(move.base), b.label(move.toward)
        if (move.base, move.toward) not in self._direction:
            return f"sowing starts next to the base: {toward} is not next to {base}"
        run = None
        for d, ray in enumerate(self._rays[move.base]):
            if move.start in ray:
                run, run_dir = ray[:ray.index(move.start) + 1], d
        if run is None or move.start == move.base:
            return f"{start} and {base} are not two squares of one straight line"
        for v in (move.base,) + run:
            if not controls(v):
                return f"the run {start}-{base} is broken: {b.label(v)} is not controlled by {name}"
        sow_dir = self._direction[(move.base, move.toward)]
        if sow_dir == run_dir:
            return f"the stones may not be sown back along their run ({start}-{base}/{toward})"
        room = len(self._rays[move.base][sow_dir])
        if room < len(run):
            return (f"{counted(len(run), 'stone')} to sow from {base} toward {toward} "
                    f"but only {counted(room, 'square')} there")
        return None

    # ------------------------------------------------------------ apply
    def _apply(self, state: TowerOfPowerState, move: TowerOfPowerMove) -> TowerOfPowerState:
        me = state.to_move
        stacks = list(state.stacks)
        lifted: tuple[NodeId, ...]
        sown: tuple[NodeId, ...]
        if isinstance(move, Step):
            lifted, sown = (move.frm,), (move.to,)
        else:
            run_dir = next(d for d, r in enumerate(self._rays[move.base]) if move.start in r)
            run = self._rays[move.base][run_dir]
            k1 = run.index(move.start) + 1
            lifted = run[:k1]
            sown = self._rays[move.base][self._direction[(move.base, move.toward)]][:k1]
        for v in lifted:
            stacks[v - 1] = stacks[v - 1][:-1]
        for v in sown:
            s = stacks[v - 1]
            if s and s[-1] != me:
                s = s[:-1]  # the opponent's top stone is captured
            stacks[v - 1] = s + (me,)
        return TowerOfPowerState(stacks=tuple(stacks), to_move=1 - me, ply=state.ply + 1,
                          history=state.history + (state.key,))

    # ------------------------------------------------------------ outcome
    def outcome(self, state: TowerOfPowerState) -> Outcome | None:
        p = state.to_move
        if next(iter(self.pseudo_legal_moves(state)), None) is None:
            has = any(p in s for s in state.stacks)
            return Outcome(1 - p, f"{self.player_name(p)} has no legal move (controls no square)" if has
                           else f"{self.player_name(p)} has no stones")
        return self.draw(state)

    def draw(self, state: TowerOfPowerState) -> Outcome | None:
        """The draw by repetition or by the move limit, if it has come."""
        seen = state.history.count(state.key) + 1
        if seen >= REPETITIONS_FOR_DRAW:
            return Outcome(None, f"threefold repetition (the position occurred {seen} times)")
        limit = self.options["move_limit"]
        if limit and state.ply >= limit:
            return Outcome(None, f"move limit of {limit} plies reached")
        return None

    # ------------------------------------------------------------ notation
    def parse_move(self, text: str, state: TowerOfPowerState | None = None) -> TowerOfPowerMove:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        m = TOWER_RE.match(text)
        if m:
            return TowerMove(*(self._square(g, text) for g in m.groups()))
        m = STEP_RE.match(text)
        if m:
            return Step(*(self._square(g, text) for g in m.groups()))
        raise InvalidMoveError(f"cannot read {text!r}: expected a tower move like b2-b4/c5 or a step like g5-f5")

    def _square(self, token: str, text: str) -> NodeId:
        try:
            return self.node_from_text(token)
        except InvalidMoveError as exc:
            raise InvalidMoveError(f"{text!r}: {exc}") from None

    def format_move(self, move: TowerOfPowerMove, state: TowerOfPowerState | None = None) -> str:
        lab = self.board.label
        if isinstance(move, Step):
            return f"{lab(move.frm)}-{lab(move.to)}"
        return f"{lab(move.start)}-{lab(move.base)}/{lab(move.toward)}"

    # ------------------------------------------------------------ JSON
    def state_to_json(self, state: TowerOfPowerState) -> dict:
        return {
            "game": self.name,
            "to_move": self.player_to_json(state.to_move),
            "ply": state.ply,
            "stacks": self._stacks_json(state.stacks),
            "history": [{"to_move": self.player_to_json(k[1]), "stacks": self._stacks_json(k[0])}
                        for k in state.history],
        }

    def _stacks_json(self, stacks: tuple[Stack, ...]) -> dict[str, str]:
        return {self.board.label(v): "".join(STONE_CHARS[p] for p in stacks[v - 1])
                for v in sorted(self.board.nodes, key=lambda v: square_key(self.board.label(v))) if stacks[v - 1]}

    def _stacks_from_json(self, raw: Any, where: str) -> tuple[Stack, ...]:
        if not isinstance(raw, Mapping):
            raise RecordError(f"{where}: field 'stacks' must map squares to stones like \"WWB\"")
        stacks: list[Stack] = [() for _ in self.board.nodes]
        for label, stones in raw.items():
            v = node_from_json(self.board, label, f"{where}: field 'stacks'")
            if not isinstance(stones, str) or not stones or any(c not in STONE_CHARS for c in stones):
                raise RecordError(f"{where}: field 'stacks': square {label} must hold stones written with W and B, "
                                  f"bottom first, not {stones!r}")
            stacks[v - 1] = tuple(STONE_CHARS.index(c) for c in stones)
        for player, key in enumerate(SIDE_KEYS):
            count, most = sum(s.count(player) for s in stacks), start_supply(self.board, key)
            if count > most:
                raise RecordError(f"{where}: field 'stacks' holds {count} {self.player_name(player)} stones, more "
                                  f"than the {most} a side starts with")
        return tuple(stacks)

    def state_from_json(self, data: Mapping) -> TowerOfPowerState:
        self.check_position(data)
        to_move, ply = self.to_move_and_ply(data)
        stacks = self._stacks_from_json(data.get("stacks"), "position")
        raw_history = data.get("history", [])
        if not isinstance(raw_history, list):
            raise RecordError("position: field 'history' must be a list of earlier positions")
        history = []
        for i, item in enumerate(raw_history):
            where = f"position: history[{i}]"
            if not isinstance(item, Mapping):
                raise RecordError(f"{where} must be an object with 'to_move' and 'stacks'")
            history.append((self._stacks_from_json(item.get("stacks"), where),
                            self.player_from_json(item.get("to_move", self.player_keys[0]),
                                                  f"{where} field 'to_move'")))
        if len(history) > ply:
            raise RecordError(f"position: field 'history' lists {counted(len(history), 'earlier position')}, more "
                              f"than the {counted(ply, 'move')} (ply) made")
        for k, (_, mover) in enumerate(history):  # one position before each move, the players alternating
            expected = (to_move + len(history) - k) % 2
            if mover != expected:
                now, then = self.player_name(to_move), self.player_name(expected)
                raise RecordError(f"position: history[{k}] has {self.player_name(mover)} to move, but it stands "
                                  f"{counted(len(history) - k, 'move')} before this position ({now} to move) and "
                                  f"the players alternate: {then} was to move there")
        return TowerOfPowerState(stacks=stacks, to_move=to_move, ply=ply, history=tuple(history))

    # ------------------------------------------------------------ text and diagram
    def render_text(self, state: TowerOfPowerState, last_move: TowerOfPowerMove | None = None) -> str:
        b = self.board
        marked = self.last_move_nodes(state, last_move)
        files = sorted({lab[0] for lab in b.labels})
        top = max(int(lab[1:]) for lab in b.labels)
        rows = []
        for r in range(top, 0, -1):
            cells, marks = [], []
            for f in files:
                v = b.node(f"{f}{r}")
                s = state.stacks[v - 1]
                cells.append(f"{STONE_CHARS[s[-1]]}{len(s)}" if s else " .")
                marks.append(v in marked)
            rows.append(f"{r}" + marked_row(cells, marks))
        rows.append("  " + " ".join(f" {f}" for f in files))
        counts = [sum(s.count(p) for s in state.stacks) for p in (WHITE, BLACK)]
        rows.append(f"{self.position_caption(state)}; stones White {counts[0]}, "
                    f"Black {counts[1]} (W3 = a tower of 3 with a White stone on top)")
        return "\n".join(rows)

    def diagram(self, state: TowerOfPowerState, last_move: TowerOfPowerMove | None = None) -> dict:
        from powertwo.boards.diagram import Arrow, Stone

        stones = [Stone(v, SIDE_KEYS[s[-1]], text=str(len(s)) if len(s) > 1 else "")
                  for v, s in zip(self.board.nodes, state.stacks, strict=True) if s]
        arrows = []
        if isinstance(last_move, Step):
            arrows = [Arrow((last_move.frm, last_move.to))]
        elif isinstance(last_move, TowerMove) and (last_move.base, last_move.toward) in self._direction:
            sow = self._rays[last_move.base][self._direction[(last_move.base, last_move.toward)]]
            run = next((r for r in self._rays[last_move.base] if last_move.start in r), ())
            if last_move.start in run:
                length = run.index(last_move.start) + 1
                arrows = [Arrow((last_move.start, last_move.base)),
                          Arrow((last_move.base, sow[:length][-1]), color="#2a9d8f")]
        return {"stones": stones, "arrows": arrows, "title": f"{self.title}: {self.position_caption(state)}",
                "legend": {"light": "tower with a White stone on top", "dark": "tower with a Black stone on top",
                           "number": "number: the tower's height (none: a single stone)",
                           "arrow": "blue arrow: the run of the last move; green: where it was sown"}}


TowerState = TowerOfPowerState
"""The earlier name of :class:`TowerOfPowerState`, kept for code written against it."""
