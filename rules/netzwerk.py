"""Netzwerk (RULES.md §7): pieces on 6x6 fields, fed by energy stones on the 7x7 lattice.

A turn has two phases. (a) The mover moves one or more own pieces, one after another, each at most
once, straight forward or sideways any number of fields. A move costs the fields moved, plus 1 per
own piece jumped over, plus 1 for a capture (ending on an opponent piece, which is removed; the
capturing piece's move ends there). Opponent pieces cannot be jumped (unless variant 5). Every
energy stone gives at most one point per turn, to a piece on one of the four fields it touches, when
that piece moves. If no piece can move, phase (a) is skipped. (b) The mover then moves any number of
energy stones they control, each at most once, along an energy line to the next free point in that
direction (jumping over stones); each of the 14 energy lines carries at most one energy move per
turn. A player controls a stone when at least one own piece stands on its four fields and at least
as many as the opponent's.

End, after every complete turn: a player wins with at least half of their remaining pieces
(rounded up) on the opponent's home row, or when the opponent has no pieces left; if both
qualify, the player who just moved wins.

**How energy is assigned.** A record names only the steps; the validator finds an assignment of
energy stones to piece moves itself: the moves of phase (a) so far are a bipartite supply problem
(each move needs as many distinct stones as it costs, each stone touching the field the piece
started from gives one point). After every piece step it is decided by Hall's condition on bit masks
(every group of moves is touched by at least as many stones as it costs; with at most six moves that
is at most 64 groups), the test the generator uses too; when it fails, a maximum flow (networkx)
says how many points the stones can give. The tests check Hall, the flow and the plain module's
backtracking against each other.

**Moves are turns, identified by their result.** ``legal_moves`` lists one
turn per distinct resulting position (RULES.md §7: the order of independent
steps and which stone fed which piece are not visible in the result). A
:class:`NetTurn` that is known to be legal in a position (from
``legal_moves``, or from ``parse_move(text, state)``) compares equal to every
other legal turn with the same result; otherwise turns compare by their steps.

Notation: the steps of the turn in order, separated by spaces: piece steps
``a1-a3`` (``b4xb5`` for a capture is accepted), then energy steps
``e21-e22``; ``pass`` for a turn without any step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Iterable, Iterator, Mapping, Sequence

from powertwo.boards import Board, BoardError, NodeId

from .base import (
    ClickOptions, Game, InvalidMoveError, Option, Outcome, RecordError, RulesError, marked_row, node_from_json,
    register,
    square_key,
)

# ---------------------------------------------------------------- constants
PLAYER_ONE, PLAYER_TWO = 0, 1
SIDE_KEYS = ("light", "dark")
ENERGY_KEYS = ("light_energy", "dark_energy")
"""The board's start lists the energy stones by the side that sets them up; in play they are neutral."""
FIELD_RE = re.compile(r"^[a-z][1-9]$")
POINT_RE = re.compile(r"^e[0-9][0-9]$")
STEP_RE = re.compile(r"^([a-z][0-9]{1,2}|[0-9]+)[-x]([a-z][0-9]{1,2}|[0-9]+)$")
"""A step: fields and energy points by name (``a1``, ``e21``) or node id."""
PASS = "pass"
MOVE_LIST_LIMIT = 2_000
"""``legal_moves`` refuses to build longer lists (the standard start has 30 million turns);
:meth:`Netzwerk.count_moves` counts them without building them, ``moves(state)`` walks them lazily."""

Nodes = frozenset[NodeId]
"""Fields or energy points: the pieces of a player, the energy stones."""
Pieces = tuple[Nodes, Nodes]
"""Player 1's fields and Player 2's, or the mover's and the opponent's."""
PositionKey = tuple[Nodes, Nodes, Nodes]
"""What a turn leads to: Player 1's fields, Player 2's fields, the occupied energy points."""
PieceSearchNode = tuple[Nodes, Nodes, Nodes, tuple[tuple[int, int], ...]]
"""The piece phase so far: the mover's pieces, the opponent's, the fields moved to, each move's (energy mask, cost)."""
Ray = tuple[NodeId, ...]
"""The fields (or energy points) met going one way from a field (or point), nearest first."""
EnergySteps = tuple[tuple[int, int], ...]
"""Energy steps as (from bit, to bit) of :attr:`NetzwerkGeometry.points`."""


# ---------------------------------------------------------------- state and moves
class TooManyTurnsError(RulesError):
    """The list of legal turns would be too long to build."""


@dataclass(frozen=True, order=True)
class NetStep:
    """One step of a turn: a piece from field to field, or an energy stone from point to point."""

    frm: NodeId
    to: NodeId


@dataclass(frozen=True, eq=False)
class NetTurn:
    """A complete turn: piece steps in order, then energy steps in order.

    ``result`` is the position the turn leads to when the turn is known to be legal
    there; such turns compare equal when their results are equal (RULES.md §7).
    """

    pieces: tuple[NetStep, ...] = ()
    energy: tuple[NetStep, ...] = ()
    result: PositionKey | None = None

    def _identity(self) -> tuple[object, ...]:
        return ("position", self.result) if self.result is not None else ("steps", self.pieces, self.energy)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NetTurn) and self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())


@dataclass(frozen=True)
class NetzwerkState:
    """``pieces[0]`` Player 1's fields, ``pieces[1]`` Player 2's; ``energy`` the occupied points."""

    pieces: tuple[frozenset[NodeId], frozenset[NodeId]]
    energy: frozenset[NodeId]
    to_move: int
    ply: int


# ---------------------------------------------------------------- geometry
@dataclass(frozen=True, eq=False, slots=True)
class NetzwerkGeometry:
    """The board as the rules read it, built once per board (:func:`geometry_of`): the fields and
    energy points, which points touch which fields, and the rays pieces and energy stones move along.
    Equal only to itself (its hash is its identity): it keys the cache of :func:`energy_phase`."""

    fields: tuple[NodeId, ...]
    """The fields a1..f6, in id order."""
    points: tuple[NodeId, ...]
    """The energy points e00..e66, in id order; ``points[k]`` is bit ``k`` of an energy mask."""
    field_xy: Mapping[NodeId, tuple[int, int]]
    """Field -> (file, rank), both from 1: a1 is (1, 1)."""
    point_ij: Mapping[NodeId, tuple[int, int]]
    """Energy point -> (i, j): e21 is (2, 1)."""
    ranks: int
    """The highest rank: Player 2's home row."""
    bit: Mapping[NodeId, int]
    """Energy point -> its bit in an energy mask."""
    touch: Mapping[NodeId, frozenset[NodeId]]
    """Field -> the energy points at its corners (the board's links)."""
    fields_of: Mapping[NodeId, tuple[NodeId, ...]]
    """Energy point -> the fields it touches."""
    piece_rays: tuple[Mapping[NodeId, tuple[Ray, ...]], Mapping[NodeId, tuple[Ray, ...]]]
    """``piece_rays[player][field]``: the rays a piece of ``player`` moves along, forward then sideways."""
    piece_ray_of: Mapping[tuple[int, NodeId, NodeId], tuple[Ray, int]]
    """(player, from, to) -> the ray from ``from`` that holds ``to``, and the index of ``to`` in it."""
    line_name: Mapping[int, str]
    """Energy line id -> its name (``e20-e26``): vertical line ``i`` has id ``i``, horizontal ``j`` id 7 + ``j``."""
    energy_rays: Mapping[NodeId, tuple[tuple[int, Ray], ...]]
    """Energy point -> (line id, the points met sliding away) for each direction with room."""
    energy_ray_of: Mapping[tuple[NodeId, NodeId], tuple[int, Ray, int]]
    """(from, to) -> the line id, the ray from ``from`` that holds ``to``, and the index of ``to`` in it."""
    energy_bit_rays: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
    """:attr:`energy_rays` by bits: ``energy_bit_rays[k]`` for the point of bit ``k``."""

    def mask(self, field: NodeId, energy: Nodes) -> int:
        """The energy mask of the stones on the points of ``field``."""
        m = 0
        for p in self.touch[field]:
            if p in energy:
                m |= self.bit[p]
        return m

    def strength(self, field: NodeId, energy: Nodes) -> int:
        """Variant 2: the energy stones on a piece's four points."""
        return len(self.touch[field] & energy)

    def controllers(self, point: NodeId, pieces: Pieces) -> tuple[bool, bool]:
        """Whether Player 1 and Player 2 control the energy stone on ``point``."""
        one, two = (sum(1 for f in self.fields_of[point] if f in pieces[p]) for p in (0, 1))
        return one >= 1 and one >= two, two >= 1 and two >= one

    def points_of(self, mask: int) -> frozenset[NodeId]:
        """The energy points of an energy mask."""
        return frozenset(self.points[k] for k in _bits(mask))

    def energy_steps(self, steps: EnergySteps) -> tuple[NetStep, ...]:
        """Energy steps by bits as steps between points."""
        return tuple(NetStep(self.points[a], self.points[b]) for a, b in steps)


# ---------------------------------------------------------------- metadata
@register
class Netzwerk(Game[NetzwerkState, NetTurn]):
    """Netzwerk on the shipped board (fields a1..f6 and energy points e00..e66)."""

    name = "netzwerk"
    title = "Netzwerk"
    board_name = "netzwerk"
    player_names = ("Player 1", "Player 2")
    player_keys = ("player1", "player2")
    position_fields = ("player1", "player2", "energy")
    move_types = (NetTurn,)
    options_spec = (
        Option("first_player", "Player 1", "who makes the first turn (the seed draws lots)",
               choices=("Player 1", "Player 2")),
        Option("both_control_blocks", False, "variant 1: an energy stone both players control cannot move",
               choices=(False, True)),
        Option("strength_capture", False, "variant 2: capture only by an equal or stronger piece "
               "(strength = energy stones on its four points)", choices=(False, True)),
        Option("compulsory_capture", False, "variant 4: capturing is compulsory (phase (a) may not end "
               "while a capture is still possible)", choices=(False, True)),
        Option("jump_opponents", False, "variant 5: opponent pieces may be jumped (1 point each)",
               choices=(False, True)),
    )
    notation_help = ("the turn's steps in order, pieces first: 'a1-a3 b1-b2 e21-e22' "
                     "(fields a1..f6, energy points e00..e66); 'pass' for an empty turn")
    rules_summary = (
        "Each player has 6 pieces on the home row and 7 energy stones on the points before it. First move pieces, each"
        " at most once, straight forward or sideways any number of fields, paying a point a field, one per own piece "
        "jumped and one for a capture (ending on an opponent's piece). An energy stone gives at most one point a turn,"
        " to a piece on a field it touches, whoever owns it. Then move energy stones you control (at least as many of "
        "your pieces by it as the opponent's) along their lines to the next free point, one per line. You win with "
        "half your remaining pieces (rounded up) on the opponent's home row, or by capturing every opposing piece.")

    # ------------------------------------------------------------ tables (built on first use)
    @cached_property
    def geometry(self) -> NetzwerkGeometry:
        return geometry_of(self.board)

    # ------------------------------------------------------------ state
    def start(self, start: str | None = None, **kwargs: Any) -> NetzwerkState:
        name = start or self.default_start
        try:
            sides = self.board.start(name)
        except BoardError as exc:
            raise RecordError(f"game {self.name}: {exc}") from None
        energy = frozenset(v for key in ENERGY_KEYS for v in sides.get(key, ()))
        return NetzwerkState(pieces=(frozenset(sides.get(SIDE_KEYS[0], ())), frozenset(sides.get(SIDE_KEYS[1], ()))),
                             energy=energy, to_move=self.player_names.index(self.options["first_player"]), ply=0)

    def home_rank(self, player: int) -> int:
        return 1 if player == PLAYER_ONE else self.geometry.ranks

    # ------------------------------------------------------------ shared rule pieces
    def movable_stones(self, energy: Nodes, pieces: Pieces, player: int) -> Nodes:
        """The energy stones ``player`` may move in phase (b) (control, and variant 1)."""
        controllers, blocks = self.geometry.controllers, self.options["both_control_blocks"]
        return frozenset(p for p in energy
                         if (ctl := controllers(p, pieces))[player] and not (blocks and ctl[1 - player]))

    def _feedable_flow(self, demands: list[tuple[NodeId, int]], energy: Nodes) -> int:
        """Maximum energy points the moves can get: a flow from the moves (capacity = cost)
        through the stones touching their start fields (capacity 1)."""
        import networkx as nx

        g = nx.DiGraph()
        for n, (field, cost) in enumerate(demands):
            g.add_edge("source", ("move", n), capacity=cost)
            for p in self.geometry.touch[field] & energy:
                g.add_edge(("move", n), ("stone", p), capacity=1)
                g.add_edge(("stone", p), "sink", capacity=1)
        if "sink" not in g:
            return 0
        return int(nx.maximum_flow_value(g, "source", "sink"))

    # ------------------------------------------------------------ the referee: walk a turn step by step
    def _walk(self, state: NetzwerkState, turn: NetTurn, *, feed: bool = True,
              complete: bool = True) -> tuple[str | None, PositionKey | None]:
        """The reason the turn is illegal (``None`` if legal) and the position it leads to.
        ``feed=False`` skips the energy supply check (for turns already known to be legal);
        ``complete=False`` judges the beginning of a turn (compulsory capture waits for its end)."""
        b, geo = self.board, self.geometry
        me = state.to_move
        who = self.player_name(me)
        own, opp = set(state.pieces[me]), set(state.pieces[1 - me])
        energy = state.energy
        moved: set[NodeId] = set()
        captured_at: set[NodeId] = set()
        demands: list[tuple[NodeId, int]] = []
        masks: list[tuple[int, int]] = []
        if feed and not turn.pieces and self.any_piece_move(state):
            return "at least one piece must move in phase (a) (a piece of the mover can move)", None
        for step in turn.pieces:
            src, dst = b.label(step.frm), b.label(step.to)
            text = f"{src}-{dst}"
            if step.frm not in geo.field_xy or step.to not in geo.field_xy:
                return f"{text}: pieces move between fields a1..f6", None
            if step.frm not in own:
                return f"{text}: {src} holds no piece of {who}", None
            if step.frm in captured_at:
                return f"{text}: the piece on {src} has captured, which ended its move", None
            if step.frm in moved:
                return f"{text}: the piece on {src} has already moved this turn", None
            where = geo.piece_ray_of.get((me, step.frm, step.to))
            if where is None:
                return f"{text}: a piece moves straight forward or sideways only", None
            ray, idx = where
            cost = idx + 1
            for f in ray[:idx]:
                if f in own:
                    cost += 1
                elif f in opp:
                    if not self.options["jump_opponents"]:
                        return f"{text}: a piece cannot jump over the opponent's piece on {b.label(f)}", None
                    cost += 1
            if step.to in own:
                return f"{text}: {dst} is occupied by a piece of {who}", None
            capture = step.to in opp
            if capture:
                cost += 1
                if self.options["strength_capture"]:
                    mine, theirs = geo.strength(step.frm, energy), geo.strength(step.to, energy)
                    if mine < theirs:
                        return f"{text}: strength {mine} cannot capture strength {theirs} (variant 2)", None
            demands.append((step.frm, cost))
            masks.append((geo.mask(step.frm, energy), cost))
            need = sum(c for _, c in demands)
            if feed and not _hall_ok(masks[:-1], *masks[-1]):  # a matching exists iff Hall's condition holds
                got = self._feedable_flow(demands, energy)  # how short the supply falls, for the reason
                return (f"{text}: not enough energy (this move costs {cost}; the piece moves so far need {need} "
                        f"points, the energy stones next to them can give {got})"), None
            own.discard(step.frm)
            own.add(step.to)
            moved.add(step.to)
            if capture:
                opp.discard(step.to)
                captured_at.add(step.to)
        if self.options["compulsory_capture"] and feed and complete:
            left = self._capture_left(frozenset(own), frozenset(opp), frozenset(moved), demands, energy, me)
            if left is not None:
                return f"capture is compulsory (variant 4): {left} is still possible", None
        pieces = (frozenset(own), frozenset(opp)) if me == PLAYER_ONE else (frozenset(opp), frozenset(own))
        reason, current = self._walk_energy(state, turn, pieces)
        if current is None:
            return reason, None
        return None, (pieces[0], pieces[1], current)

    def _walk_energy(self, state: NetzwerkState, turn: NetTurn,
                     pieces: Pieces) -> tuple[str | None, Nodes | None]:
        """Phase (b) of a turn after its piece moves: the reason an energy move is illegal, or the
        energy stones' points after them."""
        b, geo = self.board, self.geometry
        me, energy = state.to_move, state.energy
        who = self.player_name(me)
        movable = self.movable_stones(energy, pieces, me)
        current = set(energy)
        used: set[int] = set()
        arrived: set[NodeId] = set()  # where the stones moved this turn stand now
        for step in turn.energy:
            src, dst = b.label(step.frm), b.label(step.to)
            text = f"{src}-{dst}"
            if step.frm not in geo.point_ij or step.to not in geo.point_ij:
                return f"{text}: energy stones move between points e00..e66", None
            if step.frm not in current:
                return f"{text}: there is no energy stone on {src}", None
            if step.frm in arrived:
                return f"{text}: the energy stone on {src} has already moved this turn", None
            if step.frm not in movable:
                ctl = geo.controllers(step.frm, pieces)
                if not any(ctl):
                    return f"{text}: nobody controls the energy stone on {src}", None
                if not ctl[me]:
                    other = self.player_name(1 - me)
                    return f"{text}: the energy stone on {src} is controlled by {other}, not by {who}", None
                return f"{text}: both players control the energy stone on {src}, so it cannot move (variant 1)", None
            along = geo.energy_ray_of.get((step.frm, step.to))
            if along is None:
                return f"{text}: an energy stone moves straight along an energy line", None
            line, ray, idx = along
            if line in used:
                return f"{text}: the energy line {geo.line_name[line]} is already used this turn", None
            free = next((n for n, p in enumerate(ray) if p not in current), None)
            if free != idx:
                nxt = "no free point" if free is None else f"the next free point is {b.label(ray[free])}"
                return f"{text}: an energy stone goes to the next free point in its direction ({nxt})", None
            current.discard(step.frm)
            current.add(step.to)
            arrived.add(step.to)
            used.add(line)
        return None, frozenset(current)

    def _capture_left(self, own: Nodes, opp: Nodes, moved: Nodes, demands: list[tuple[NodeId, int]], energy: Nodes,
                      me: int) -> str | None:
        """A capture an unmoved piece could still make with the energy left (variant 4), as text."""
        masks = [(self.geometry.mask(f, energy), c) for f, c in demands]
        for child in self._piece_children(own, opp, moved, masks, energy, me):
            if child[3]:
                return f"{self.board.label(child[0])}-{self.board.label(child[1])}"
        return None

    # ------------------------------------------------------------ the generator
    def _piece_children(self, own: Nodes, opp: Nodes, moved: Nodes, masks: list[tuple[int, int]],
                        energy: Nodes, me: int) -> Iterator[tuple[NodeId, NodeId, int, bool, int]]:
        """Single piece moves possible now: (from, to, cost, captures, energy mask of from)."""
        geo = self.geometry
        jump_opp = self.options["jump_opponents"]
        strength = self.options["strength_capture"]
        for src in sorted(own - moved):
            mask = geo.mask(src, energy)
            avail = bin(mask).count("1")
            if not avail:
                continue
            for ray in geo.piece_rays[me][src]:
                jumped = 0
                for idx, f in enumerate(ray):
                    cost = idx + 1 + jumped
                    if cost > avail:
                        break
                    if f in own:
                        jumped += 1
                        continue
                    if f in opp:
                        if cost + 1 <= avail and (not strength or
                                                  geo.strength(src, energy) >= geo.strength(f, energy)):
                            if _hall_ok(masks, mask, cost + 1):
                                yield (src, f, cost + 1, True, mask)
                        if jump_opp:
                            jumped += 1
                            continue
                        break
                    if _hall_ok(masks, mask, cost):
                        yield (src, f, cost, False, mask)

    def any_piece_move(self, state: NetzwerkState) -> bool:
        me = state.to_move
        return next(self._piece_children(state.pieces[me], state.pieces[1 - me], frozenset(), [], state.energy, me),
                    None) is not None

    def piece_phase_results(self, state: NetzwerkState) -> dict[Pieces, tuple[NetStep, ...]]:
        """Every distinct (own pieces, opponent pieces) after phase (a), with one sequence of steps
        reaching it (depth-first over sequences, each search node visited once)."""
        me, energy = state.to_move, state.energy
        root: PieceSearchNode = (state.pieces[me], state.pieces[1 - me], frozenset(), ())
        seen = {root}
        results: dict[Pieces, tuple[NetStep, ...]] = {}
        stack: list[tuple[PieceSearchNode, tuple[NetStep, ...]]] = [(root, ())]
        compulsory = self.options["compulsory_capture"]
        while stack:
            (own, opp, moved, demands), steps = stack.pop()
            children = list(self._piece_children(own, opp, moved, list(demands), energy, me))
            if steps or not children:
                if not (compulsory and any(c[3] for c in children)) and (own, opp) not in results:
                    results[(own, opp)] = steps
            for src, dst, cost, capture, mask in children:
                node = (own - {src} | {dst}, opp - {dst} if capture else opp, moved | {dst},
                        tuple(sorted(demands + ((mask, cost),))))
                if node not in seen:
                    seen.add(node)
                    stack.append((node, steps + (NetStep(src, dst),)))
        return results

    def _energy_results(self, state: NetzwerkState, own: Nodes, opp: Nodes) -> tuple[Pieces, Mapping[int, EnergySteps]]:
        """After a piece phase that leaves ``own`` and ``opp``: the pieces by player, and phase (b)'s results."""
        me = state.to_move
        pieces = (own, opp) if me == PLAYER_ONE else (opp, own)
        return pieces, energy_phase(self.geometry, state.energy, self.movable_stones(state.energy, pieces, me))

    def _turns(self, state: NetzwerkState, results: Mapping[Pieces, tuple[NetStep, ...]]) -> Iterator[NetTurn]:
        geo = self.geometry
        for (own, opp), steps in results.items():
            pieces, found = self._energy_results(state, own, opp)
            for mask, esteps in found.items():
                yield NetTurn(steps, geo.energy_steps(esteps), (pieces[0], pieces[1], geo.points_of(mask)))

    def _count(self, state: NetzwerkState, results: Iterable[Pieces], stop_above: int | None) -> int:
        """The turns after each piece-phase result, summed (any number above ``stop_above`` once past it)."""
        total = 0
        for own, opp in results:
            total += len(self._energy_results(state, own, opp)[1])
            if stop_above is not None and total > stop_above:
                break
        return total

    def pseudo_legal_moves(self, state: NetzwerkState) -> Iterator[NetTurn]:
        """One legal turn per distinct resulting position (exact), lazily."""
        return self._turns(state, self.piece_phase_results(state))

    def legal_moves(self, state: NetzwerkState) -> list[NetTurn]:
        """As :meth:`Game.legal_moves`; raises :class:`TooManyTurnsError` rather than build a list
        of more than :data:`MOVE_LIST_LIMIT` turns (``moves(state)`` iterates and counts any number)."""
        results = self.piece_phase_results(state) if self.outcome(state) is None else {}
        if self._count(state, results, stop_above=MOVE_LIST_LIMIT) > MOVE_LIST_LIMIT:  # the phases multiplied out
            raise TooManyTurnsError(f"{self.title}: more than {MOVE_LIST_LIMIT:,} distinct turns from this position, "
                                    f"too many to list (perft 1 counts them)")
        return list(self._turns(state, results))

    def count_moves(self, state: NetzwerkState, stop_above: int | None = None) -> int:
        """The number of legal turns without building them: the distinct results of the two phases,
        multiplied out (with ``stop_above``, any number above it as soon as the count passes it)."""
        if self.outcome(state) is not None:
            return 0
        return self._count(state, self.piece_phase_results(state), stop_above)

    def illegality(self, state: NetzwerkState, move: NetTurn) -> str | None:
        return self._walk(state, move)[0]

    # ------------------------------------------------------------ apply
    def _apply(self, state: NetzwerkState, move: NetTurn) -> NetzwerkState:
        reason, key = self._walk(state, move, feed=False)  # legality was checked (apply) or is known (perft)
        if reason is not None or key is None:  # only reached when a caller skips the check
            raise ValueError(reason)
        return NetzwerkState(pieces=(key[0], key[1]), energy=key[2], to_move=1 - state.to_move, ply=state.ply + 1)

    # ------------------------------------------------------------ outcome
    def outcome(self, state: NetzwerkState) -> Outcome | None:
        last = 1 - state.to_move  # who made the turn that led here: checked first, wins a tie
        xy = self.geometry.field_xy
        for p in (last, 1 - last):
            mine, theirs = state.pieces[p], state.pieces[1 - p]
            if mine and not theirs:
                return Outcome(p, f"{self.player_name(p)} has captured every opposing piece")
            goal = self.home_rank(1 - p)
            there = sum(1 for f in mine if xy[f][1] == goal)
            need = (len(mine) + 1) // 2
            if mine and there >= need:
                return Outcome(p, f"{self.player_name(p)} has {there} of {len(mine)} pieces on the opponent's home row")
        return None

    # ------------------------------------------------------------ notation
    def parse_move(self, text: str, state: NetzwerkState | None = None) -> NetTurn:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        words = text.replace(",", " ").split()
        if not words:
            raise InvalidMoveError("an empty turn is written 'pass'")
        if words == [PASS]:
            turn = NetTurn((), ())
        else:
            pieces: list[NetStep] = []
            energy: list[NetStep] = []
            points = self.geometry.point_ij
            for word in words:
                m = STEP_RE.match(word)
                if not m:
                    raise InvalidMoveError(f"cannot read {word!r} in {text!r}: expected steps like a1-a3 or e21-e22")
                try:
                    a, c = (self.node_from_text(g) for g in m.groups())
                except InvalidMoveError as exc:
                    raise InvalidMoveError(f"{text!r}: {exc}") from None
                kinds = {v in points for v in (a, c)}
                if len(kinds) == 2:
                    raise InvalidMoveError(f"{word!r}: a step goes from field to field or from point to point")
                if a in points:
                    energy.append(NetStep(a, c))
                elif energy:
                    raise InvalidMoveError(f"{word!r} in {text!r}: piece steps come before energy steps "
                                           f"(once phase (b) starts no piece moves)")
                else:
                    pieces.append(NetStep(a, c))
            turn = NetTurn(tuple(pieces), tuple(energy))
        if state is not None:
            reason, key = self._walk(state, turn)
            if reason is None:
                return NetTurn(turn.pieces, turn.energy, key)
        return turn

    def format_move(self, move: NetTurn, state: NetzwerkState | None = None) -> str:
        lab = self.board.label
        words = [f"{lab(s.frm)}-{lab(s.to)}" for s in move.pieces + move.energy]
        return " ".join(words) if words else PASS

    # ------------------------------------------------------------ clicks (the web workbench)
    def click_options(self, state: NetzwerkState, clicks: Sequence[NodeId]) -> ClickOptions:
        """As :meth:`Game.click_options`, from the clicks alone (the start has 30 million turns):
        the clicks are the turn's steps, from and to, pieces first. A next click is offered when
        the turn so far plus one step from it is still a legal beginning of a turn."""
        clicks = tuple(clicks)
        if self.outcome(state) is not None:
            return ClickOptions(frozenset(), ())
        steps = [NetStep(clicks[k], clicks[k + 1]) for k in range(0, len(clicks) - 1, 2)]
        fields = self.geometry.field_xy
        pieces = tuple(s for s in steps if s.frm in fields)
        energy = tuple(steps[len(pieces):])
        if any(s.frm in fields for s in energy):
            return ClickOptions(frozenset(), ())  # a piece step after an energy step
        prefix = NetTurn(pieces, energy)
        if len(clicks) % 2:
            src = clicks[-1]
            return ClickOptions(frozenset(dst for dst in self._click_targets(state, src)
                                          if self._begins_turn(state, prefix, NetStep(src, dst))), ())
        reason, key = self._walk(state, prefix)
        complete = (NetTurn(pieces, energy, key),) if reason is None else ()
        me = state.to_move
        own = set(state.pieces[me])
        stones = set(state.energy)
        for s in pieces:
            own.discard(s.frm)
            own.add(s.to)
        for s in energy:
            stones.discard(s.frm)
            stones.add(s.to)
        sources = stones if energy else own | stones
        following = frozenset(src for src in sources
                              if any(self._begins_turn(state, prefix, NetStep(src, dst))
                                     for dst in self._click_targets(state, src)))
        return ClickOptions(following, complete)

    def _click_targets(self, state: NetzwerkState, src: NodeId) -> list[NodeId]:
        geo = self.geometry
        if src in geo.field_xy:
            return [w for ray in geo.piece_rays[state.to_move][src] for w in ray]
        return [w for _, ray in geo.energy_rays.get(src, ()) for w in ray]

    def _begins_turn(self, state: NetzwerkState, prefix: NetTurn, step: NetStep) -> bool:
        """Whether ``prefix`` plus ``step`` can begin a legal turn (compulsory capture is judged
        only when the turn is complete)."""
        if step.frm in self.geometry.field_xy:
            turn = NetTurn(prefix.pieces + (step,), prefix.energy)
        else:
            turn = NetTurn(prefix.pieces, prefix.energy + (step,))
        return self._walk(state, turn, complete=False)[0] is None

    # ------------------------------------------------------------ JSON
    def state_to_json(self, state: NetzwerkState) -> dict[str, Any]:
        lab = self.board.label
        return {
            "game": self.name,
            "to_move": self.player_to_json(state.to_move),
            "ply": state.ply,
            "player1": sorted((lab(v) for v in state.pieces[0]), key=square_key),
            "player2": sorted((lab(v) for v in state.pieces[1]), key=square_key),
            "energy": sorted(lab(v) for v in state.energy),
        }

    def state_from_json(self, data: Mapping[str, Any]) -> NetzwerkState:
        self.check_position(data)
        to_move, ply = self.to_move_and_ply(data)
        sets = []
        geo = self.geometry
        for key, kind, allowed in (("player1", "field", geo.field_xy), ("player2", "field", geo.field_xy),
                                   ("energy", "energy point", geo.point_ij)):
            raw = data[key]
            if not isinstance(raw, list):
                raise RecordError(f"position: field {key!r} must be a list of {kind}s")
            nodes = []
            for item in raw:
                v = node_from_json(self.board, item, f"position: field {key!r}")
                if v not in allowed:
                    raise RecordError(f"position: field {key!r}: {item!r} is not a {kind}")
                nodes.append(v)
            if len(set(nodes)) != len(nodes):
                raise RecordError(f"position: field {key!r} names a {kind} twice")
            sets.append(frozenset(nodes))
        both = sets[0] & sets[1]
        if both:
            raise RecordError(f"position: field {self.board.label(min(both))} holds pieces of both players")
        return NetzwerkState(pieces=(sets[0], sets[1]), energy=sets[2], to_move=to_move, ply=ply)

    # ------------------------------------------------------------ text and diagram
    def render_text(self, state: NetzwerkState, last_move: NetTurn | None = None) -> str:
        """Fields as ``1``/``2``/``.``, energy points between them as ``*``/``+`` (stone/empty);
        ``>`` before what the last turn moved."""
        b = self.board
        marked = self.last_move_nodes(state, last_move)
        size = self.geometry.ranks + 1
        rows = []
        for j in range(size - 1, -1, -1):
            points = [b.node(f"e{i}{j}") for i in range(size)]
            rows.append("  " + marked_row(("*" if v in state.energy else "+" for v in points),
                                          (v in marked for v in points), sep="   ")[2:])
            if j:
                cells, marks = [], []
                for f in range(1, size):
                    v = b.node(f"{chr(96 + f)}{j}")
                    cells.append("1" if v in state.pieces[0] else "2" if v in state.pieces[1] else ".")
                    marks.append(v in marked)
                rows.append(f"{j} " + marked_row(cells, marks, sep="   "))
        rows.append("     " + "   ".join(chr(96 + f) for f in range(1, size)))
        rows.append(f"{self.position_caption(state)}; "
                    f"pieces {len(state.pieces[0])}:{len(state.pieces[1])}, energy stones {len(state.energy)} "
                    f"(* = energy stone; Player 1 plays up from rank 1)")
        return "\n".join(rows)

    def diagram(self, state: NetzwerkState, last_move: NetTurn | None = None) -> dict[str, Any]:
        from powertwo.boards.diagram import Arrow, Stone

        stones = [Stone(v, SIDE_KEYS[p]) for p in (0, 1) for v in sorted(state.pieces[p])]
        stones += [Stone(v, "energy") for v in sorted(state.energy)]
        arrows = []
        if last_move is not None:
            arrows = [Arrow((s.frm, s.to)) for s in last_move.pieces]
            arrows += [Arrow((s.frm, s.to), color="#2a9d8f") for s in last_move.energy]
        return {"stones": stones, "arrows": arrows, "title": f"{self.title}: {self.position_caption(state)}",
                "legend": self.stone_legend() | {
                    "energy": "energy stone (neutral)",
                    "arrow": "blue arrows: the pieces' steps of the last turn; green: its energy steps"}}


# ---------------------------------------------------------------- helpers
def _mask_of(nodes: Iterable[NodeId], bit: Mapping[NodeId, int]) -> int:
    m = 0
    for v in nodes:
        m |= bit[v]
    return m


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _hall_ok(masks: Iterable[tuple[int, int]], mask: int, cost: int) -> bool:
    """Whether the earlier moves ``masks`` (energy mask, cost; already feedable together) and a new
    move can all be fed: Hall's condition over every group of earlier moves with the new one."""
    masks = list(masks)
    for chosen in range(1 << len(masks)):
        union, need = mask, cost
        for k, (m, c) in enumerate(masks):
            if chosen >> k & 1:
                union |= m
                need += c
        if need > bin(union).count("1"):
            return False
    return True


@lru_cache(maxsize=16)
def geometry_of(board: Board) -> NetzwerkGeometry:
    """The geometry of a Netzwerk board: fields named a1.., energy points e00.., linked to the fields
    they touch (the shipped board's ``links``)."""
    fields = tuple(v for v in board.nodes if FIELD_RE.match(board.label(v)))
    points = tuple(v for v in board.nodes if POINT_RE.match(board.label(v)))
    xy = {v: (ord(board.label(v)[0]) - 96, int(board.label(v)[1])) for v in fields}
    ij = {v: (int(board.label(v)[1]), int(board.label(v)[2])) for v in points}
    touch: dict[NodeId, frozenset[NodeId]] = {v: frozenset() for v in fields}
    for a, c in board.links:
        field, point = (a, c) if a in xy else (c, a)
        touch[field] = touch[field] | {point}
    field_at, point_at = {p: v for v, p in xy.items()}, {p: v for v, p in ij.items()}
    piece_rays = tuple({v: tuple(ray for _, ray in _rays(field_at, xy[v], ((0, forward, 0), (-1, 0, 0), (1, 0, 0))))
                        for v in fields} for forward in (1, -1))  # forward, then sideways
    size = max(i for i, _ in ij.values()) + 1  # vertical energy line i has id i, horizontal line j id size + j
    energy_rays = {v: _rays(point_at, (i, j), ((0, 1, i), (0, -1, i), (1, 0, size + j), (-1, 0, size + j)))
                   for v, (i, j) in ij.items()}
    index = {v: k for k, v in enumerate(points)}
    return NetzwerkGeometry(
        fields=fields, points=points, field_xy=xy, point_ij=ij, ranks=max(r for _, r in xy.values()),
        bit={v: 1 << k for k, v in enumerate(points)}, touch=touch,
        fields_of={p: tuple(f for f in fields if p in touch[f]) for p in points},
        piece_rays=(piece_rays[PLAYER_ONE], piece_rays[PLAYER_TWO]),
        piece_ray_of={(player, v, w): (ray, n) for player in (PLAYER_ONE, PLAYER_TWO) for v in fields
                      for ray in piece_rays[player][v] for n, w in enumerate(ray)},
        line_name={i: f"e{i}0-e{i}{size - 1}" for i in range(size)} | {
            size + j: f"e0{j}-e{size - 1}{j}" for j in range(size)},
        energy_rays=energy_rays, energy_ray_of={(v, w): (line, ray, n) for v in points for line, ray in energy_rays[v]
                                                for n, w in enumerate(ray)},
        energy_bit_rays=tuple(tuple((line, tuple(index[w] for w in ray)) for line, ray in energy_rays[v])
                              for v in points))


def _rays(node_at: Mapping[tuple[int, int], NodeId], at: tuple[int, int],
          directions: Iterable[tuple[int, int, int]]) -> tuple[tuple[int, Ray], ...]:
    """``(tag, the nodes met going from at by (dx, dy))`` for each ``(dx, dy, tag)`` with room to go."""
    out = []
    for dx, dy, tag in directions:
        ray = []
        x, y = at[0] + dx, at[1] + dy
        while (x, y) in node_at:
            ray.append(node_at[(x, y)])
            x, y = x + dx, y + dy
        if ray:
            out.append((tag, tuple(ray)))
    return tuple(out)


@lru_cache(maxsize=256)
def energy_phase(geometry: NetzwerkGeometry, energy: frozenset[NodeId],
                 movable: frozenset[NodeId]) -> Mapping[int, EnergySteps]:
    """Phase (b) as bit masks: every reachable mask of occupied points, with one sequence of
    (from bit, to bit) steps reaching it (depth-first; each search node visited once).

    A pure function of immutable values, cached: perft and the players meet the same energy
    stones with the same movable ones in many positions (the piece phase changes the pieces,
    rarely which stones move), and this search is most of a turn's generation."""
    bit, rays = geometry.bit, geometry.energy_bit_rays
    root = (_mask_of(energy, bit), _mask_of(movable, bit), 0)
    seen = {root}
    found: dict[int, EnergySteps] = {}
    stack: list[tuple[tuple[int, int, int], EnergySteps]] = [(root, ())]
    while stack:
        (current, unmoved, used), steps = stack.pop()
        if current not in found:
            found[current] = steps
        rest = unmoved
        while rest:
            low = rest & -rest
            rest ^= low
            p = low.bit_length() - 1
            for line, ray in rays[p]:
                if used >> line & 1:
                    continue
                for q in ray:
                    if not current >> q & 1:
                        node = (current ^ low | 1 << q, unmoved ^ low, used | 1 << line)
                        if node not in seen:
                            seen.add(node)
                            stack.append((node, steps + ((p, q),)))
                        break
    return found
