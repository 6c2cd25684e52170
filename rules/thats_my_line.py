"""That's My Line (RULES.md section 4): claim lines by placing stones.

The board starts empty; Light starts. A turn places one own stone on a free node
that lies on no line holding an opponent stone. A player who cannot place
(no such node, or no stone left in the supply) must pass; a player who can place
must place. The game ends when neither can place: more stones placed wins, and
on equal counts the player who placed last wins.

**Decision (RULES.md):** the supply is the option ``stones``: an int (default 16)
or ``"unlimited"``. Notation: the node (id or label), or ``pass``.

The fast generator works on bitmasks: ``line_mates[v]`` is every node sharing a
line with ``v`` (``v`` included), so the nodes closed to a player are the union
of the line mates of the opponent's stones.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterator, Mapping

from powertwo.boards import NodeId
from powertwo.boards.jsonfile import short_value
from powertwo.boards.words import counted

from .base import Game, InvalidMoveError, Option, Outcome, Player, RecordError, int_from_json, nodes_from_json, register

# ---------------------------------------------------------------- constants
LIGHT, DARK = 0, 1
UNLIMITED = "unlimited"


def read_stones(value: Any) -> int | str:
    """The option ``stones`` read: a whole number >= 0 or ``"unlimited"``; :class:`ValueError` otherwise."""
    if value == UNLIMITED or value is None:
        return UNLIMITED
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value.strip()) <= 18:
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise ValueError(f"must be a number >= 0 or 'unlimited', not {str(value)[:40]!r}")


def stones_option(value: Any) -> int | None:
    """The supply option as a number of stones, ``None`` for unlimited; :class:`RecordError` otherwise."""
    try:
        stones = read_stones(value)
    except ValueError as exc:
        raise RecordError(f"game thats-my-line: option stones {exc}") from None
    return None if stones == UNLIMITED else int(stones)


# ---------------------------------------------------------------- state and moves

@dataclass(frozen=True)
class ThatsMyLineState:
    """A position: each side's stones, whose turn, moves made, who placed last (``None``: nobody yet)."""

    light: frozenset[NodeId]
    dark: frozenset[NodeId]
    to_move: Player = 0
    ply: int = 0
    last_placer: Player | None = None

    def stones(self, player: Player) -> frozenset[NodeId]:
        return self.dark if player else self.light

    @property
    def occupied(self) -> frozenset[NodeId]:
        return self.light | self.dark


@dataclass(frozen=True)
class Place:
    """Place one stone of the mover on ``node``."""

    node: NodeId


@dataclass(frozen=True)
class Pass:
    """The forced pass of a player who cannot place."""


PASS = Pass()
ThatsMyLineMove = Place | Pass


# ---------------------------------------------------------------- metadata
@register
class ThatsMyLine(Game[ThatsMyLineState, ThatsMyLineMove]):
    name = "thats-my-line"
    title = "That's My Line"
    board_name = "power-of-two"
    default_start = "empty"
    start_names = ("empty",)
    player_keys = ("light", "dark")
    position_fields = ("light", "dark")
    position_extras = ("last_placer",)
    move_types = (Place, Pass)
    options_spec = (
        Option("stones", 16, "stones per player: a number, or 'unlimited' (RULES.md 4 decision)", parse=read_stones),
    )
    notation_help = "a node (label or id, e.g. g13) places a stone there; 'pass' when the mover cannot place"
    rules_summary = (
        "Light and Dark have 16 stones each; the board starts empty and Light begins. A turn places one "
        "of your stones on a free node that lies on no line holding an opponent's stone: each stone "
        "claims its lines. A player who cannot place must pass; one who can must place. When neither "
        "can place, whoever placed more stones wins; with equal counts, whoever placed last.")

    def __init__(self, board=None, **options: Any):
        super().__init__(board, **options)
        self.supply: int | None = stones_option(self.options["stones"])

    # ------------------------------------------------------------ geometry
    @cached_property
    def line_mates(self) -> dict[NodeId, int]:
        """Bitmask (bit ``v``) of every node sharing a line with each node, the node included."""
        out = {v: 1 << v for v in self.board.nodes}
        for line in self.board.lines:
            mask = 0
            for v in line:
                mask |= 1 << v
            for v in line:
                out[v] |= mask
        return out

    @cached_property
    def all_nodes(self) -> int:
        return sum(1 << v for v in self.board.nodes)

    # ------------------------------------------------------------ rules
    def start(self, start: str | None = None, **kwargs: Any) -> ThatsMyLineState:
        name = start or self.default_start
        if name != "empty":
            raise RecordError(f"game {self.name}: unknown start {name!r} (known: empty)")
        return ThatsMyLineState(frozenset(), frozenset())

    def has_supply(self, state: ThatsMyLineState, player: Player) -> bool:
        return self.supply is None or len(state.stones(player)) < self.supply

    def open_mask(self, state: ThatsMyLineState, player: Player) -> int:
        """Bitmask of the nodes where ``player`` may place (ignoring the supply)."""
        closed = 0
        mates = self.line_mates
        for v in state.stones(1 - player):
            closed |= mates[v]
        for v in state.stones(player):
            closed |= 1 << v
        return self.all_nodes & ~closed

    def placeable(self, state: ThatsMyLineState, player: Player) -> list[NodeId]:
        """The nodes where ``player`` may place now (empty when the supply is used up)."""
        if not self.has_supply(state, player):
            return []
        mask = self.open_mask(state, player)
        return [v for v in self.board.nodes if mask >> v & 1]

    def can_place(self, state: ThatsMyLineState, player: Player) -> bool:
        return self.has_supply(state, player) and self.open_mask(state, player) != 0

    def pseudo_legal_moves(self, state: ThatsMyLineState) -> Iterator[ThatsMyLineMove]:
        nodes = self.placeable(state, state.to_move)
        if nodes:
            return iter([Place(v) for v in nodes])
        return iter([PASS])

    def illegality(self, state: ThatsMyLineState, move: ThatsMyLineMove) -> str | None:
        me = state.to_move
        if isinstance(move, Pass):
            if self.can_place(state, me):
                return "a player who can place must place (pass only when no placement is possible)"
            return None
        if not self.board.has_node(move.node):
            return f"not a node of the board: {move.node!r}"
        v = move.node
        label = self.board.label(v)
        if v in state.occupied:
            return f"node {label} is occupied"
        if not self.has_supply(state, me):
            return f"{self.player_name(me)} has no stone left (supply {self.supply})"
        for line in self.board.lines:
            if v in line:
                for w in line:
                    if w in state.stones(1 - me):
                        return (f"node {label} lies on line {self.board.line_text(line)}, "
                                f"which holds a {self.player_name(1 - me)} stone on {self.board.label(w)}")
        return None

    def _apply(self, state: ThatsMyLineState, move: ThatsMyLineMove) -> ThatsMyLineState:
        me = state.to_move
        if isinstance(move, Pass):
            return ThatsMyLineState(state.light, state.dark, 1 - me, state.ply + 1, state.last_placer)
        light, dark = state.light, state.dark
        if me == LIGHT:
            light = light | {move.node}
        else:
            dark = dark | {move.node}
        return ThatsMyLineState(light, dark, 1 - me, state.ply + 1, me)

    def outcome(self, state: ThatsMyLineState) -> Outcome | None:
        if self.can_place(state, 0) or self.can_place(state, 1):
            return None
        n_light, n_dark = len(state.light), len(state.dark)
        counts = f"{n_light} to {n_dark} stones"
        if n_light != n_dark:
            winner = LIGHT if n_light > n_dark else DARK
            return Outcome(winner, f"neither can place; {self.player_name(winner)} placed more ({counts})")
        if state.last_placer is None:
            return Outcome(None, "neither can place and nobody placed a stone")
        return Outcome(state.last_placer,
                       f"neither can place; equal counts ({counts}), {self.player_name(state.last_placer)} placed last")

    # ------------------------------------------------------------ notation
    def parse_move(self, text: str, state: ThatsMyLineState | None = None) -> ThatsMyLineMove:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        t = text.strip()
        if t.lower() == "pass":
            return PASS
        if not t:
            raise InvalidMoveError("empty move (write a node, e.g. g13, or 'pass')")
        return Place(self.node_from_text(t))

    def format_move(self, move: ThatsMyLineMove, state: ThatsMyLineState | None = None) -> str:
        if isinstance(move, Pass):
            return "pass"
        return self.board.label(move.node) if self.board.has_node(move.node) else repr(move.node)

    # ------------------------------------------------------------ JSON
    def state_to_json(self, state: ThatsMyLineState) -> dict:
        return {
            "game": self.name,
            "light": sorted(state.light),
            "dark": sorted(state.dark),
            "to_move": self.player_to_json(state.to_move),
            "ply": state.ply,
            "last_placer": None if state.last_placer is None else self.player_to_json(state.last_placer),
        }

    def state_from_json(self, data: Mapping) -> ThatsMyLineState:
        self.check_position(data)
        light = nodes_from_json(self.board, data["light"], "position field 'light'")
        dark = nodes_from_json(self.board, data["dark"], "position field 'dark'")
        both = light & dark
        if both:
            raise RecordError(f"position: node {self.board.label(min(both))} holds both a Light and a Dark stone")
        for line in self.board.lines:
            mixed = [next((v for v in line if v in side), None) for side in (light, dark)]
            if mixed[0] is not None and mixed[1] is not None:
                raise RecordError(f"position: line {self.board.line_text(line)} holds a Light stone on "
                                  f"{self.board.label(mixed[0])} and a Dark stone on {self.board.label(mixed[1])}, "
                                  "which no game reaches (a stone never joins a line of the other colour)")
        for player, stones in ((0, light), (1, dark)):
            if self.supply is not None and len(stones) > self.supply:
                raise RecordError(f"position: {self.player_name(player)} has {len(stones)} stones, "
                                  f"more than the supply of {self.supply}")
        placed = len(light) + len(dark)
        to_move = self.player_from_json(data["to_move"]) if data.get("to_move") is not None else None
        ply = int_from_json(data["ply"], "position field 'ply'") if data.get("ply") is not None else \
            placed + (0 if to_move is None or placed % 2 == to_move else 1)  # no pass, or the fewest
        state = ThatsMyLineState(light, dark, ply % 2, ply, None)
        last = self._last_placer(state)
        raw_last = data.get("last_placer")
        if raw_last is not None and self.player_from_json(raw_last, "position field 'last_placer'") != last:
            said = "nobody" if last is None else self.player_name(last)
            raise RecordError(f"position: field 'last_placer' is {short_value(raw_last)}, but after these "
                              f"{counted(ply, 'move')} the last stone was placed by {said}")
        return ThatsMyLineState(light, dark, ply % 2, ply, last)

    def _last_placer(self, state: ThatsMyLineState) -> Player | None:
        """Who placed the last stone of a position reached from the empty board, from the counts
        (:class:`RecordError` when no game reaches them): Light moves at even plies, Dark at odd
        ones; a move that places nothing is a pass, allowed only to a player who cannot place, and
        a player who cannot place never can again (nodes only close, the supply only shrinks), so
        at most one player has passed, that one cannot place now, and the other placed last."""
        turns = ((state.ply + 1) // 2, state.ply // 2)
        passes = []
        for player, stones in ((LIGHT, state.light), (DARK, state.dark)):
            if len(stones) > turns[player]:
                raise RecordError(f"position: {self.player_name(player)} has {counted(len(stones), 'stone')} after "
                                  f"{counted(state.ply, 'move')} (ply), but places at most one a turn: "
                                  f"{counted(turns[player], 'turn')} (Light moves first)")
            passes.append(turns[player] - len(stones))
        if passes[LIGHT] and passes[DARK]:
            held = counted(len(state.occupied), "stone")
            raise RecordError(f"position: {counted(state.ply, 'move')} (ply) for {held} would need both players "
                              "to pass, which no game does (a pass is forced only while the other player can still "
                              "place)")
        for player in (LIGHT, DARK):
            if passes[player] and self.can_place(state, player):
                where = self.board.label(self.placeable(state, player)[0])
                raise RecordError(f"position: {counted(len(state.occupied), 'stone')} after "
                                  f"{counted(state.ply, 'move')} (ply) means {counted(passes[player], 'pass')} by "
                                  f"{self.player_name(player)}, who can still place (on {where}); a player who can "
                                  "place must place")
        if not state.occupied:
            return None
        passer = next((p for p in (LIGHT, DARK) if passes[p]), None)
        return (state.ply - 1) % 2 if passer is None else 1 - passer

    # ------------------------------------------------------------ display
    def render_text(self, state: ThatsMyLineState, last_move: ThatsMyLineMove | None = None) -> str:
        rows = []
        marked = self.last_move_nodes(state, last_move)
        for player in (LIGHT, DARK):
            stones = " ".join((">" if v in marked else "") + self.board.label(v)
                              for v in sorted(state.stones(player))) or "-"
            left = "unlimited" if self.supply is None else self.supply - len(state.stones(player))
            rows.append(f"{self.player_name(player):5} ({len(state.stones(player))} placed, {left} left): {stones}")
        open_nodes = self.placeable(state, state.to_move)
        rows.append(f"open to {self.player_name(state.to_move)}: "
                    + (" ".join(self.board.label(v) for v in open_nodes) or "none"))
        rows.append(self.position_caption(state))
        return "\n".join(rows)

    def diagram(self, state: ThatsMyLineState, last_move: ThatsMyLineMove | None = None) -> dict:
        from powertwo.boards.diagram import Stone

        stones = [Stone(v, "light") for v in sorted(state.light)] + [Stone(v, "dark") for v in sorted(state.dark)]
        marks = [v for v in self.board.nodes
                 if v not in state.occupied and not self.open_mask(state, 0) >> v & 1
                 and not self.open_mask(state, 1) >> v & 1]
        kw: dict = {"stones": stones, "marks": marks,
                    "title": f"{self.title}: {len(state.light)} Light, {len(state.dark)} Dark; "
                             f"{self.position_caption(state)}",
                    "legend": self.stone_legend() | {"ring": "dashed red ring: free node neither player may take",
                                                     "move": "blue ring: the stone the last move placed"}}
        if isinstance(last_move, Place):
            kw["last"] = [last_move.node]
        return kw


TMLState = ThatsMyLineState
"""The earlier name of :class:`ThatsMyLineState`, kept for code written against it."""
