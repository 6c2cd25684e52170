"""David and Goliath (RULES.md section 3): two candidates, move then throw.

Light is David, Dark is Goliath, their candidates on the board's ``david-goliath``
start (diagonally opposite outer corners, ``Board.mapped_starts``: a13 and m1 on the
Power of Two board); each has 15 reserve stones;
**Decision:** David moves first. A turn (one :class:`Hurl` value)
moves the own candidate along one line to a free node without passing a stone
(David 1 or more nodes, Goliath exactly 1 or 2), then throws one stone from the
candidate's new node along one line to a free node without passing a stone
(David 1 or 2 nodes, Goliath 1 to 7). **Decision:** the throw is mandatory when
any throw is possible and skipped when none is. A thrower whose reserve is empty
picks up a thrown stone (of either colour) that stands on no border line (outer
side of the board) and throws that one; it leaves its node before the throw, so it
may land back on it. A player whose candidate cannot move on their turn loses.
When the candidates are separated (no path of free nodes between them) the
position's notes say so and give each candidate's count of reachable free nodes
(the seed lets the players stop and count: "es gewinnt, wer mehr Freifelder zur
Bewegung übrig hat"); with the option ``count_win`` the game ends there and the
player with more free nodes wins (equal counts: the game goes on), without it the
report is an adjudication aid and the game goes on (RULES.md §3).

**Decision:** David chooses his throw distance, 1 or 2. With the option ``sling`` (RULES.md §3, the
seed's letter: "dass David lediglich die Richtung des Steinwurfs bestimmen kann") David picks only
the direction: the stone flies 2 nodes when that node is free and the node between is free, else 1
(a direction whose next node is occupied gives no throw; at the end of a line it flies 1). The
notation stays ``FROM-TO*THROWN``: the landing node names the direction, and a landing node the
sling does not give is refused with the node it does give. Goliath's throw is the same either way.

Notation (labels or ids): ``a13-e13*c11`` (move a13-e13, throw to c11); ``a13-e13*c11^e9``
(the stone on e9 picked up and thrown to c11); ``a13-e13`` when no throw is possible.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterator, Mapping

from powertwo.boards import BoardError, NodeId
from powertwo.boards.words import counted

from .base import (
    Game, InvalidMoveError, Option, Outcome, Player, RecordError, node_from_json, nodes_from_json, ray_between,
    register, text_picture,
)

# ---------------------------------------------------------------- constants
DAVID, GOLIATH = 0, 1
"""The players: David plays Light, Goliath Dark."""
RESERVE = 15
"""Reserve stones per player at the start."""
MOVE_RANGE = ((1, None), (1, 2))
"""(fewest, most) nodes a candidate moves: David, Goliath (``None``: no limit)."""
THROW_RANGE = ((1, 2), (1, 7))
"""(fewest, most) nodes a stone is thrown: David, Goliath."""
CANDIDATE = ("David", "Goliath")


# ---------------------------------------------------------------- state and moves
@dataclass(frozen=True)
class DavidGoliathState:
    """A position: the two candidates, each side's thrown stones, whose turn, moves made.

    A side's reserve is ``15`` minus its thrown stones on the board (a reused stone keeps its colour).
    """

    david: NodeId
    goliath: NodeId
    light_thrown: frozenset[NodeId] = frozenset()
    dark_thrown: frozenset[NodeId] = frozenset()
    to_move: Player = 0
    ply: int = 0

    def candidate(self, player: Player) -> NodeId:
        return self.goliath if player else self.david

    def thrown(self, player: Player) -> frozenset[NodeId]:
        return self.dark_thrown if player else self.light_thrown

    def reserve(self, player: Player) -> int:
        return RESERVE - len(self.thrown(player))

    @property
    def occupied(self) -> frozenset[NodeId]:
        return self.light_thrown | self.dark_thrown | {self.david, self.goliath}


@dataclass(frozen=True)
class Hurl:
    """Move the candidate ``frm -> to``; throw a stone to ``throw`` (``None``: no throw possible),
    the stone picked up from ``pickup`` when the reserve is empty."""

    frm: NodeId
    to: NodeId
    throw: NodeId | None = None
    pickup: NodeId | None = None


# ---------------------------------------------------------------- metadata
@register
class DavidGoliath(Game[DavidGoliathState, Hurl]):
    name = "david-goliath"
    title = "David and Goliath"
    board_name = "power-of-two"
    player_names = ("Light/David", "Dark/Goliath")
    default_start = "standard"
    start_names = ("standard",)
    player_keys = ("light", "dark")
    position_fields = ("david", "goliath", "light_thrown", "dark_thrown")
    move_types = (Hurl,)
    options_spec = (
        Option("count_win", False,
               "end the game when the candidates are separated: more free nodes to move in wins (equal: play on)",
               choices=(False, True)),
        Option("sling", False,
               "David picks only the direction of his throw: the stone flies 2 nodes when that node and the one "
               "between are free, else 1",
               choices=(False, True)),
    )
    notation_help = ("FROM-TO*THROWN, with a reused stone FROM-TO*THROWN^PICKED, e.g. a13-e13*c11 or a13-e13*c11^e9 "
                     "(labels or ids)")
    rules_summary = (
        "David (Light, first) and Goliath (Dark) each have one candidate stone on opposite corners and 15 "
        "stones to throw. A turn: move your candidate along a line to a free node, passing no stone "
        "(David any distance, Goliath 1 or 2 nodes), then throw a stone from its new node along a line "
        "onto a free node (David 1 or 2 nodes, Goliath 1 to 7), passing no stone; the throw is skipped "
        "only when none is possible. With no stone left, pick up a thrown stone off the border lines and "
        "throw it. A player whose candidate cannot move loses. When the candidates are cut off from each "
        "other the referee reports the free nodes each can still reach.")

    # ------------------------------------------------------------ geometry
    @cached_property
    def border(self) -> frozenset[NodeId]:
        """Nodes on a border line: a line with every node of the board on one side of it."""
        out: set[NodeId] = set()
        coords = self.board.coords
        for line in self.board.lines:
            (x1, y1), (x2, y2) = self.board.coord(line[0]), self.board.coord(line[-1])
            sides = {(x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) for x, y in coords}
            if all(s >= 0 for s in sides) or all(s <= 0 for s in sides):
                out.update(line)
        return frozenset(out)

    # ------------------------------------------------------------ rules
    def start(self, start: str | None = None, **kwargs: Any) -> DavidGoliathState:
        name = start or self.default_start
        try:
            sides = self.board.start("david-goliath" if name == "standard" else name)
            (david,), (goliath,) = sides["light"], sides["dark"]
        except (BoardError, KeyError, ValueError):
            raise RecordError(f"game {self.name}: unknown start {name!r} (known: standard)") from None
        return DavidGoliathState(david, goliath)

    def reach(self, occupied: frozenset[NodeId], frm: NodeId, low: int, high: int | None) -> Iterator[NodeId]:
        """Free nodes ``low..high`` steps from ``frm`` along a line, never passing a stone."""
        for ray in self.board.rays[frm]:
            for steps, v in enumerate(ray, start=1):
                if v in occupied or (high is not None and steps > high):
                    break
                if steps >= low:
                    yield v

    def slung(self, occupied: frozenset[NodeId], frm: NodeId) -> Iterator[NodeId]:
        """Where David's sling lands a stone thrown from ``frm`` (option ``sling``), one node per
        direction: 2 nodes on when that node and the one between are free, else 1; none when the
        next node is occupied."""
        for ray in self.board.rays[frm]:
            if ray[0] in occupied:
                continue
            yield ray[1] if len(ray) > 1 and ray[1] not in occupied else ray[0]

    def landings(self, occupied: frozenset[NodeId], frm: NodeId, player: Player) -> Iterator[NodeId]:
        """The nodes a stone thrown by ``player`` from ``frm`` may land on."""
        if player == DAVID and self.options["sling"]:
            return self.slung(occupied, frm)
        return self.reach(occupied, frm, *THROW_RANGE[player])

    def throws(self, state: DavidGoliathState, frm: NodeId, to: NodeId) -> list[tuple[NodeId, NodeId | None]]:
        """Every (landing node, picked-up node) after the candidate moved ``frm -> to``."""
        me = state.to_move
        after = (state.occupied - {frm}) | {to}
        if state.reserve(me) > 0:
            return [(t, None) for t in self.landings(after, to, me)]
        out: list[tuple[NodeId, NodeId | None]] = []
        for p in sorted((state.light_thrown | state.dark_thrown) - self.border):
            out.extend((t, p) for t in self.landings(after - {p}, to, me))
        return out

    def pseudo_legal_moves(self, state: DavidGoliathState) -> Iterator[Hurl]:
        me = state.to_move
        frm = state.candidate(me)
        for to in self.reach(state.occupied, frm, *MOVE_RANGE[me]):
            options = self.throws(state, frm, to)
            if not options:
                yield Hurl(frm, to)
            for t, p in options:
                yield Hurl(frm, to, t, p)

    def can_move(self, state: DavidGoliathState, player: Player) -> bool:
        occ = state.occupied
        return any(v not in occ for v in self.board.adjacency[state.candidate(player)])

    def illegality(self, state: DavidGoliathState, move: Hurl) -> str | None:
        b, lab = self.board, self.board.label
        if not all(v is None or b.has_node(v) for v in (move.frm, move.to, move.throw, move.pickup)):
            return "the move names a node that is not on the board"
        me = state.to_move
        who = CANDIDATE[me]
        if move.frm != state.candidate(me):
            return f"{who} stands on {lab(state.candidate(me))}, not on {lab(move.frm)}"
        reason = self._path_fault(state.occupied, move.frm, move.to, MOVE_RANGE[me], f"{who} moves", "destination")
        if reason:
            return reason
        options = self.throws(state, move.frm, move.to)
        if move.throw is None:
            if move.pickup is not None:
                return "a picked-up stone must be thrown (write FROM-TO*THROWN^PICKED)"
            if options:
                return f"a throw is possible (e.g. to {lab(options[0][0])}), so it is mandatory"
            return None
        if state.reserve(me) > 0:
            if move.pickup is not None:
                left = state.reserve(me)
                return f"{who}'s reserve still holds {counted(left, 'stone')}: no stone may be picked up"
            after = (state.occupied - {move.frm}) | {move.to}
        else:
            if move.pickup is None:
                return f"{who}'s reserve is empty: pick up a thrown stone not on a border line (write ^NODE)"
            if move.pickup not in state.light_thrown | state.dark_thrown:
                return f"there is no thrown stone on {lab(move.pickup)} to pick up"
            if move.pickup in self.border:
                return f"the stone on {lab(move.pickup)} stands on a border line and cannot be reused"
            after = (state.occupied - {move.frm} - {move.pickup}) | {move.to}
        fault = self._path_fault(after, move.to, move.throw, THROW_RANGE[me], f"{who}'s throw reaches", "landing node")
        if fault is None and me == DAVID and self.options["sling"]:
            return self._sling_fault(after, move.to, move.throw)
        return fault

    def _sling_fault(self, occupied: frozenset[NodeId], frm: NodeId, throw: NodeId) -> str | None:
        """Why a throw ``frm -> throw`` that David could choose is not where the sling lands it."""
        lab = self.board.label
        ray = next(r for r in self.board.rays[frm] if throw in r)
        if throw == ray[0] and len(ray) > 1 and ray[1] not in occupied:
            return (f"with the sling David picks only the direction: the stone thrown toward {lab(throw)} flies "
                    f"2 nodes, to {lab(ray[1])} (option sling)")
        return None

    def _path_fault(self, occupied, frm: NodeId, to: NodeId, span: tuple[int, int | None], what: str,
                    end: str) -> str | None:
        lab = self.board.label
        if to == frm:
            return f"{end} {lab(to)} is the starting node"
        if to in occupied:
            return f"{end} {lab(to)} is occupied"
        ray = ray_between(self.board, frm, to)
        if ray is None:
            return f"{lab(frm)} and {lab(to)} are not on a common line"
        steps = len(ray)
        low, high = span
        if steps < low or (high is not None and steps > high):
            limit = (f"{low} or more" if high is None
                     else (f"{low} or {high}" if high == low + 1 else f"{low} to {high}"))
            return f"{what} {limit} nodes, not {steps} ({lab(frm)}-{lab(to)})"
        blocker = next((v for v in ray[:steps - 1] if v in occupied), None)
        if blocker is not None:
            return f"the way {lab(frm)}-{lab(to)} passes over the stone on {lab(blocker)}"
        return None

    def _apply(self, state: DavidGoliathState, move: Hurl) -> DavidGoliathState:
        me = state.to_move
        light, dark = set(state.light_thrown), set(state.dark_thrown)
        if move.throw is not None:
            if move.pickup is None:
                (dark if me else light).add(move.throw)
            else:
                pile = light if move.pickup in light else dark
                pile.discard(move.pickup)
                pile.add(move.throw)
        david, goliath = (state.david, move.to) if me else (move.to, state.goliath)
        return DavidGoliathState(david, goliath, frozenset(light), frozenset(dark), 1 - me, state.ply + 1)

    def outcome(self, state: DavidGoliathState) -> Outcome | None:
        me = state.to_move
        if not self.can_move(state, me):
            return Outcome(1 - me, f"{CANDIDATE[me]} ({self.player_names[me].split('/')[0]}) cannot move")
        if self.options["count_win"]:
            sep = self.separation(state)
            if sep is not None and sep["david"] != sep["goliath"]:
                winner = DAVID if sep["david"] > sep["goliath"] else GOLIATH
                return Outcome(winner, f"the candidates are separated and {CANDIDATE[winner]} has more free nodes "
                                       f"to move in ({sep['david']} to {sep['goliath']}; option count_win)")
        return None

    # ------------------------------------------------------------ separation report
    def reachable(self, state: DavidGoliathState, player: Player) -> frozenset[NodeId]:
        """Free nodes the candidate could reach step by step through free nodes."""
        occ = state.occupied
        seen: set[NodeId] = set()
        todo = [state.candidate(player)]
        while todo:
            v = todo.pop()
            for w in self.board.adjacency[v]:
                if w not in occ and w not in seen:
                    seen.add(w)
                    todo.append(w)
        return frozenset(seen)

    def separation(self, state: DavidGoliathState) -> dict | None:
        """``None`` while a path of free nodes joins the candidates; else each one's reachable count."""
        david = self.reachable(state, 0)
        if state.goliath in self.board.adjacency[state.david] or any(
                state.goliath in self.board.adjacency[v] for v in david):
            return None
        return {"david": len(david), "goliath": len(self.reachable(state, 1))}

    def notes(self, state: DavidGoliathState) -> list[str]:
        sep = self.separation(state)
        if sep is None:
            return []
        d, g = sep["david"], sep["goliath"]
        head = f"the candidates are separated: David reaches {counted(d, 'free node')}, Goliath {g} "
        if d == g:
            return [head + "(equal counts: the game goes on)"]
        lead = "David" if d > g else "Goliath"
        if self.options["count_win"]:
            return [head + f"({lead} has more room and wins: option count_win)"]
        return [head + f"(adjudication aid: {lead} has more room; the game goes on without the option count_win)"]

    # ------------------------------------------------------------ notation
    def parse_move(self, text: str, state: DavidGoliathState | None = None) -> Hurl:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        t = "".join(text.split())
        if not t:
            raise InvalidMoveError("empty move (write FROM-TO*THROWN, e.g. a13-e13*c11)")
        pickup = throw = None
        if "^" in t:
            t, _, picked = t.partition("^")
            if "*" not in t:
                raise InvalidMoveError("a picked-up stone (^NODE) must follow a throw (*NODE)")
            pickup = self.node_from_text(picked)
        if "*" in t:
            t, _, thrown = t.partition("*")
            throw = self.node_from_text(thrown)
        parts = t.split("-")
        if len(parts) != 2 or not all(parts):
            raise InvalidMoveError(f"{t!r} is not a move FROM-TO (e.g. a13-e13)")
        frm, to = (self.node_from_text(p) for p in parts)
        return Hurl(frm, to, throw, pickup)

    def format_move(self, move: Hurl, state: DavidGoliathState | None = None) -> str:
        lab = self.board.label
        text = f"{lab(move.frm)}-{lab(move.to)}"
        if move.throw is not None:
            text += f"*{lab(move.throw)}"
            if move.pickup is not None:
                text += f"^{lab(move.pickup)}"
        return text

    # ------------------------------------------------------------ JSON
    def state_to_json(self, state: DavidGoliathState) -> dict:
        return {
            "game": self.name,
            "david": state.david,
            "goliath": state.goliath,
            "light_thrown": sorted(state.light_thrown),
            "dark_thrown": sorted(state.dark_thrown),
            "to_move": self.player_to_json(state.to_move),
            "ply": state.ply,
        }

    def state_from_json(self, data: Mapping) -> DavidGoliathState:
        self.check_position(data)
        david = node_from_json(self.board, data["david"], "position field 'david'")
        goliath = node_from_json(self.board, data["goliath"], "position field 'goliath'")
        if david == goliath:
            raise RecordError(f"position: David and Goliath both stand on {self.board.label(david)}")
        light = nodes_from_json(self.board, data["light_thrown"], "position field 'light_thrown'")
        dark = nodes_from_json(self.board, data["dark_thrown"], "position field 'dark_thrown'")
        taken = {david: "David", goliath: "Goliath"}
        for v in sorted(light | dark):
            if v in taken or (v in light and v in dark):
                raise RecordError(f"position: node {self.board.label(v)} holds two stones")
        for player, thrown in ((0, light), (1, dark)):
            if len(thrown) > RESERVE:
                raise RecordError(f"position: {self.player_name(player)} has thrown {len(thrown)} stones, "
                                  f"at most {RESERVE}")
        to_move, ply = self.to_move_and_ply(data)
        if data.get("ply") is None:  # the fewest moves that throw these stones (David first, one a turn)
            ply = max(2 * len(light) - 1, 2 * len(dark), 0)
            ply += (ply % 2) != to_move
        for player, thrown in ((0, light), (1, dark)):
            turns = (ply + 1 - player) // 2
            if len(thrown) > turns:
                raise RecordError(f"position: {self.player_name(player)} has thrown {counted(len(thrown), 'stone')} "
                                  f"after {counted(ply, 'move')} (ply), but throws at most one a turn: "
                                  f"{counted(turns, 'turn')} (David moves first)")
        return DavidGoliathState(david, goliath, light, dark, to_move, ply)

    # ------------------------------------------------------------ display
    def render_text(self, state: DavidGoliathState, last_move: Hurl | None = None) -> str:
        cells = {v: "l" for v in state.light_thrown} | {v: "d" for v in state.dark_thrown}
        cells |= {state.david: "DAV", state.goliath: "GOL"}
        lines = [text_picture(self.board, cells, marked=self.last_move_nodes(state, last_move)),
                 "DAV David (Light), GOL Goliath (Dark), l/d thrown stones, names: free nodes"]
        for p in (DAVID, GOLIATH):
            lines.append(f"{CANDIDATE[p]:7} on {self.board.label(state.candidate(p))}, "
                         f"{state.reserve(p)} in reserve")
        lines.extend(self.notes(state))
        lines.append(self.position_caption(state))
        return "\n".join(lines)

    def diagram(self, state: DavidGoliathState, last_move: Hurl | None = None) -> dict:
        from powertwo.boards.diagram import Arrow, Stone

        stones = [Stone(state.david, "light", text="D"), Stone(state.goliath, "dark", text="G")]
        stones += [Stone(v, "light", aged=True) for v in sorted(state.light_thrown)]
        stones += [Stone(v, "dark", aged=True) for v in sorted(state.dark_thrown)]
        kw: dict = {"stones": stones, "title": f"{self.title}: {self.position_caption(state)}",
                    "legend": self.stone_legend() | {
                        "number": "D David, G Goliath", "aged": "thrown stone (hatched)",
                        "arrow": "blue arrow: the last move; red arrow: its throw",
                        "ring": "dashed red ring: where the last move picked a stone up"}}
        if isinstance(last_move, Hurl):
            arrows = [Arrow(self._way(last_move.frm, last_move.to))]
            if last_move.throw is not None:
                arrows.append(Arrow(self._way(last_move.to, last_move.throw), color="#d1495b"))
            kw["arrows"] = arrows
            if last_move.pickup is not None:
                kw["marks"] = [last_move.pickup]
        return kw

    def _way(self, frm: NodeId, to: NodeId) -> tuple[NodeId, ...]:
        return (frm,) + (ray_between(self.board, frm, to) or (to,))


DGState = DavidGoliathState
"""The earlier name of :class:`DavidGoliathState`, kept for code written against it."""
