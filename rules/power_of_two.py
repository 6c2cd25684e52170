"""The Power of Two (RULES.md section 2): slide, open doorways, bring in stones, age, retire.

A turn (one move value, :class:`Turn`) is a slide ``frm -> to`` plus the set of
nodes where the mover places reserve stones. After the slide (the origin is then
free) the moved stone opens a *doorway* with every occupied node adjacent to its
destination. Each doorway needs its own free *third corner* (a free node adjacent
to both doorway ends): a slide is legal only if the doorways can be given pairwise
distinct free third corners (a matching that covers every doorway; Kuhn's
augmenting paths). The mover places ``min(doorways, reserve)`` stones, fresh, on
distinct third corners of distinct doorways (**Decision** of RULES.md for a short
reserve; the placed set need not extend to a full matching, the full matching only
has to exist). With the option ``exact_reserve`` a slide opening more doorways
than the reserve holds is illegal. Then every own stone at the end of a doorway
that *received a stone* (a placed stone completes its triangle; the moved stone
is an end of every doorway) ages if it was fresh and retires to the reserve if
it was already aged, once per turn; a doorway left empty because the reserve ran
short ages nobody (RULES.md §2 step 4; the option
``age_unserved`` keeps the earlier reading, where every doorway stone ages).
Opponent stones are never changed.

A player with 16 stones on the board after a completed turn wins; a player
without a legal move on their turn loses. Two turns are distinct when their
slide or their set of placed nodes differ, so placements are enumerated as sets.

Notation: ``e9-d7 +c6`` (labels or ids; placements in any order, written sorted by id).
Start positions: ``standard``, ``corners`` (from the board file) and ``custom``,
given as ``custom:a13,m13,c8,k8/a1,m1,c6,k6`` (Light / Dark) or
``start("custom", light=..., dark=...)``. A custom start obeys the spacing rule of RULES.md §1
(revised): two start stones on a common line are at least 2 steps apart on it, never adjacent, so
the standard start typed as custom (``custom:a13,m13,e9,i9/a1,m1,e5,i5``: e5-g5-i5 has one node
between) is accepted. **Decision** (the rule says "4 stones each"; the publisher's and the server's
short start has 2): a custom start gives each side the same number of stones, 1 to 4, so the
``corners`` start typed as custom (``custom:a13,m13/a1,m1``) is accepted too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import Any, Iterable, Iterator, Mapping

from powertwo.boards import BoardError, NodeError, NodeId, read_node
from powertwo.boards.words import counted

from .base import (
    Game, InvalidMoveError, Option, Outcome, Player, RecordError, nodes_from_json, ray_between, register, text_picture,
)

# ---------------------------------------------------------------- constants
LIGHT, DARK = 0, 1
STONES = 16
"""Stones per player."""
CUSTOM_STONES = 4
"""The most stones per player in a custom start (both sides give the same number, 1 to 4)."""
SPACING = 2
"""Two start stones on a common line of a custom start are at least this many steps apart on it."""


# ---------------------------------------------------------------- state and moves
@dataclass(frozen=True)
class PowerOfTwoState:
    """A position: each side's stones on the board, which of them are aged, whose turn, moves made.

    The reserve of a player is ``16`` minus their stones on the board.
    """

    light: frozenset[NodeId]
    dark: frozenset[NodeId]
    aged: frozenset[NodeId] = frozenset()
    to_move: Player = 0
    ply: int = 0

    def stones(self, player: Player) -> frozenset[NodeId]:
        return self.dark if player else self.light

    def reserve(self, player: Player) -> int:
        return STONES - len(self.stones(player))

    @property
    def occupied(self) -> frozenset[NodeId]:
        return self.light | self.dark


@dataclass(frozen=True)
class Turn:
    """Slide ``frm -> to``, then place reserve stones on ``placed``."""

    frm: NodeId
    to: NodeId
    placed: frozenset[NodeId] = frozenset()


# ---------------------------------------------------------------- metadata
@register
class PowerOfTwo(Game[PowerOfTwoState, Turn]):
    name = "power-of-two"
    title = "The Power of Two"
    board_name = "power-of-two"
    default_start = "standard"
    start_names = ("standard", "corners")
    player_keys = ("light", "dark")
    position_fields = ("light", "dark")
    position_extras = ("aged",)
    move_types = (Turn,)
    options_spec = (
        Option("exact_reserve", False,
               "advanced rule (Hinweis 5): a slide opening more doorways than the reserve holds is illegal",
               choices=(False, True)),
        Option("age_unserved", False,
               "the earlier reading: a doorway left empty by a short reserve ages (or retires) its own stones too",
               choices=(False, True)),
    )
    notation_help = "FROM-TO then +NODE for every placed stone, e.g. 'e9-d7 +c6' (labels or ids)"
    rules_summary = (
        "Light and Dark have 16 stones each; the rest of a player's stones wait in reserve. A turn: slide "
        "one of your stones along a line, any distance, to a free node, passing no stone. The moved stone "
        "opens a doorway with every stone (either colour) next to where it lands; for each doorway place "
        "a stone from your reserve on a free node next to both ends of it (the third corner of a "
        "triangle); a move whose doorways cannot all get their own free corner is not allowed (with too "
        "small a reserve you place what you have). Then each of your stones in a doorway that received a "
        "stone ages: a fresh stone turns aged, an already aged one retires to your reserve. Opponent "
        "stones are never changed. You win with all 16 stones on the board after your turn; a player "
        "with no legal move loses.")

    def __init__(self, board=None, **options: Any):
        super().__init__(board, **options)
        self.exact_reserve: bool = bool(self.options["exact_reserve"])
        self.age_unserved: bool = bool(self.options["age_unserved"])

    # ------------------------------------------------------------ geometry
    @cached_property
    def common(self) -> dict[tuple[NodeId, NodeId], tuple[NodeId, ...]]:
        """The third corners of every adjacent pair (both orders)."""
        out = {}
        for a, b in self.board.edges:
            out[a, b] = out[b, a] = self.board.third_corners(a, b)
        return out

    # ------------------------------------------------------------ starts
    def start(self, start: str | None = None, **kwargs: Any) -> PowerOfTwoState:
        name = start or self.default_start
        if name.startswith("custom"):
            if name != "custom":
                kwargs = dict(kwargs, **self._custom_text(name))
            return self.custom_start(kwargs.get("light", ()), kwargs.get("dark", ()))
        try:
            sides = self.board.start(name)
        except BoardError as exc:
            raise RecordError(f"game {self.name}: {exc}; or custom:L,L,L,L/D,D,D,D") from None
        return PowerOfTwoState(frozenset(sides.get("light", ())), frozenset(sides.get("dark", ())))

    def _custom_text(self, text: str) -> dict[str, list[str]]:
        body = text[len("custom"):]
        if not body.startswith(":") or body.count("/") != 1:
            raise RecordError(f"start {text!r}: write a custom start as custom:L,L,L,L/D,D,D,D "
                              "(1 to 4 stones each, the same number; labels or ids)")
        light, dark = body[1:].split("/")
        return {"light": [t for t in light.split(",") if t.strip()], "dark": [t for t in dark.split(",") if t.strip()]}

    def custom_start(self, light: Iterable, dark: Iterable) -> PowerOfTwoState:
        """A custom start: the same number of stones each, 1 to 4, any two on a common line at least
        2 steps apart (never adjacent)."""
        sides = []
        for side, raw in (("Light", light), ("Dark", dark)):
            nodes = []
            for v in raw:
                try:
                    nodes.append(read_node(self.board, v, f"custom start: {side}"))
                except NodeError as exc:
                    raise RecordError(str(exc)) from None
            if not 1 <= len(nodes) <= CUSTOM_STONES:
                raise RecordError(f"custom start: {side} has {stones(len(nodes))}; give each side 1 to "
                                  f"{CUSTOM_STONES}, the same number")
            sides.append(nodes)
        if len(sides[0]) != len(sides[1]):
            raise RecordError(f"custom start: Light has {stones(len(sides[0]))} and Dark {len(sides[1])}; "
                              f"give each side the same number (1 to {CUSTOM_STONES})")
        every = sides[0] + sides[1]
        for v in every:
            if every.count(v) > 1:
                raise RecordError(f"custom start: node {self.board.label(v)} is used twice")
        broken = self.spacing_fault(every)
        if broken:
            raise RecordError(f"custom start: {broken}")
        return PowerOfTwoState(frozenset(sides[0]), frozenset(sides[1]))

    def spacing_fault(self, nodes: Iterable[NodeId]) -> str | None:
        """Why a set of start stones breaks the spacing rule (naming the pair and the line), or ``None``."""
        nodes = set(nodes)
        for line in self.board.lines:
            on = [i for i, v in enumerate(line) if v in nodes]
            for i, j in zip(on, on[1:], strict=False):
                if j - i < SPACING:
                    a, b = self.board.label(line[i]), self.board.label(line[j])
                    return (f"start stones {a} and {b} are adjacent on line {self.board.line_text(line)} "
                            f"(start stones on a common line must be at least {SPACING} steps apart)")
        return None

    # ------------------------------------------------------------ the fast generator
    def destinations(self, state: PowerOfTwoState, frm: NodeId) -> Iterator[NodeId]:
        """Free nodes reachable by sliding from ``frm`` along a line without passing a stone."""
        occ = state.occupied
        for ray in self.board.rays[frm]:
            for v in ray:
                if v in occ:
                    break
                yield v

    def doorways(self, occupied_after: frozenset[NodeId], to: NodeId) -> list[NodeId]:
        """The other ends of the doorways the stone arriving on ``to`` opens (sorted)."""
        return sorted(n for n in self.board.adjacency[to] if n in occupied_after)

    def corner_options(self, occupied_after: frozenset[NodeId], to: NodeId,
                       ends: list[NodeId]) -> list[tuple[NodeId, ...]]:
        """For each doorway ``to``-``end``, its free third corners."""
        return [tuple(c for c in self.common[to, e] if c not in occupied_after) for e in ends]

    def placements(self, options: list[tuple[NodeId, ...]], count: int) -> list[frozenset[NodeId]]:
        """Every distinct set of ``count`` nodes that can go to distinct doorways, once a full
        matching exists (else none)."""
        if len(options) <= 1:  # no doorway, or one: no matching needed
            if not options:
                return [frozenset()]
            if not options[0]:
                return []
            return [frozenset()] if count == 0 else [frozenset((c,)) for c in options[0]]
        if match_all(options) is None:
            return []
        if count == 0:
            return [frozenset()]
        union = sorted({c for opts in options for c in opts})
        out = []
        for chosen in combinations(union, count):
            # each chosen node needs its own doorway: match nodes to doorways
            per_node = [tuple(i for i, opts in enumerate(options) if c in opts) for c in chosen]
            if match_all(per_node) is not None:
                out.append(frozenset(chosen))
        return out

    def pseudo_legal_moves(self, state: PowerOfTwoState) -> Iterator[Turn]:
        me = state.to_move
        reserve = state.reserve(me)
        occ = state.occupied
        adjacency, common = self.board.adjacency, self.common
        for frm in sorted(state.stones(me)):
            for to in self.destinations(state, frm):
                # the board after the slide: occ without frm, with to (inlined for speed)
                ends = sorted(n for n in adjacency[to] if n in occ and n != frm)
                if not ends:
                    yield Turn(frm, to)
                    continue
                if self.exact_reserve and len(ends) > reserve:
                    continue
                options = [tuple(c for c in common[to, e] if c not in occ or c == frm) for e in ends]
                for placed in self.placements(options, min(len(ends), reserve)):
                    yield Turn(frm, to, placed)

    def has_legal_move(self, state: PowerOfTwoState) -> bool:
        me = state.to_move
        reserve = state.reserve(me)
        occ = state.occupied
        for frm in state.stones(me):
            for to in self.destinations(state, frm):
                after = (occ - {frm}) | {to}
                ends = self.doorways(after, to)
                if self.exact_reserve and len(ends) > reserve:
                    continue
                if match_all(self.corner_options(after, to, ends)) is not None:
                    return True
        return False

    # ------------------------------------------------------------ legality with reasons
    def illegality(self, state: PowerOfTwoState, move: Turn) -> str | None:
        b = self.board
        me = state.to_move
        lab = b.label
        if not (b.has_node(move.frm) and b.has_node(move.to)) or not all(b.has_node(v) for v in move.placed):
            return "the move names a node that is not on the board"
        if move.frm not in state.stones(me):
            if move.frm in state.stones(1 - me):
                return f"the stone on {lab(move.frm)} is {self.player_name(1 - me)}'s"
            return f"{self.player_name(me)} has no stone on {lab(move.frm)}"
        if move.to == move.frm:
            return "the stone must move (origin and destination are the same)"
        if move.to in state.occupied:
            return f"destination {lab(move.to)} is occupied"
        ray = ray_between(b, move.frm, move.to)
        if ray is None:
            return f"{lab(move.frm)} and {lab(move.to)} are not on a common line"
        blocker = next((v for v in ray[:-1] if v in state.occupied), None)
        if blocker is not None:
            return f"the slide {lab(move.frm)}-{lab(move.to)} passes over the stone on {lab(blocker)}"
        after = (state.occupied - {move.frm}) | {move.to}
        ends = self.doorways(after, move.to)
        reserve = state.reserve(me)
        if self.exact_reserve and len(ends) > reserve:
            return (f"the slide opens {len(ends)} doorways but the reserve holds {reserve} "
                    f"(option exact_reserve)")
        options = self.corner_options(after, move.to, ends)
        for e, opts in zip(ends, options, strict=False):
            if not opts:
                return (f"blocked doorway: doorway {lab(move.to)}-{lab(e)} has no free third corner "
                        f"(every doorway needs its own free third corner)")
        if match_all(options) is None:
            names = ", ".join(f"{lab(move.to)}-{lab(e)}" for e in ends)
            return f"blocked doorways: the doorways {names} cannot each get their own free third corner"
        need = min(len(ends), reserve)
        if len(move.placed) != need:
            why = (f"the slide opens {counted(len(ends), 'doorway')}"
                   + (f" and the reserve holds {reserve}" if reserve < len(ends) else ""))
            return f"{why}: place {counted(need, 'stone')}, not {len(move.placed)}"
        for v in sorted(move.placed):
            if v in after:
                return f"placement {lab(v)} is occupied"
            if not any(v in opts for opts in options):
                return f"placement {lab(v)} is not a third corner of any doorway of {lab(move.to)}"
        chosen = sorted(move.placed)
        if match_all([tuple(i for i, o in enumerate(options) if c in o) for c in chosen]) is None:
            return (f"placements {' '.join(lab(v) for v in chosen)} cannot serve distinct doorways "
                    f"(each placed stone needs a doorway of its own)")
        return None

    # ------------------------------------------------------------ applying
    def _apply(self, state: PowerOfTwoState, move: Turn) -> PowerOfTwoState:
        me = state.to_move
        mine = set(state.stones(me))
        mine.discard(move.frm)
        mine.add(move.to)
        aged = set(state.aged)
        was_aged = {v for v in state.aged if v in state.stones(me)}
        if move.frm in was_aged:
            was_aged.discard(move.frm)
            was_aged.add(move.to)
            aged.discard(move.frm)
            aged.add(move.to)
        after = state.occupied - {move.frm} | {move.to}
        ends = self.served(move, self.doorways(after, move.to))
        mine |= move.placed
        if ends:
            for v in [move.to] + [e for e in ends if e in mine]:
                if v in was_aged:  # retiring: back to the reserve
                    mine.discard(v)
                    aged.discard(v)
                else:  # ageing: once per turn
                    aged.add(v)
        light, dark = (frozenset(mine), state.dark) if me == LIGHT else (state.light, frozenset(mine))
        return PowerOfTwoState(light, dark, frozenset(aged), 1 - me, state.ply + 1)

    def served(self, move: Turn, ends: list[NodeId]) -> list[NodeId]:
        """The ends of the doorways whose stones age this turn: those that received a stone, i.e. a
        placed stone completes the triangle ``to``-end-placed (seed, Aktion 4: "die zum o.g. Dreieck
        ergänzt wurden ... nach Einsetzen des neuen Steins"); with the option ``age_unserved`` every
        doorway, served or not (the earlier reading)."""
        if self.age_unserved:
            return ends
        return [e for e in ends if any(c in move.placed for c in self.common[move.to, e])]

    def outcome(self, state: PowerOfTwoState) -> Outcome | None:
        cache = self._outcomes
        if state in cache:
            return cache[state]
        if len(cache) > 100_000:
            cache.clear()
        cache[state] = result = self._outcome(state)
        return result

    @cached_property
    def _outcomes(self) -> dict[PowerOfTwoState, Outcome | None]:
        return {}

    def _outcome(self, state: PowerOfTwoState) -> Outcome | None:
        last = 1 - state.to_move
        if len(state.stones(last)) >= STONES:
            return Outcome(last, f"{self.player_name(last)} has all {STONES} stones on the board")
        if not self.has_legal_move(state):
            return Outcome(last, f"{self.player_name(state.to_move)} has no legal move")
        return None

    # ------------------------------------------------------------ notation
    def parse_move(self, text: str, state: PowerOfTwoState | None = None) -> Turn:
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move must be text, not {type(text).__name__}")
        tokens = text.replace("+", " +").split()
        if not tokens:
            raise InvalidMoveError("empty move (write FROM-TO +NODE ..., e.g. e9-d7 +c6)")
        slide = tokens[0].split("-")
        if len(slide) != 2 or not all(slide):
            raise InvalidMoveError(f"{tokens[0]!r} is not a slide FROM-TO (e.g. e9-d7)")
        frm, to = (self.node_from_text(t) for t in slide)
        placed = []
        for tok in tokens[1:]:
            if not tok.startswith("+") or len(tok) == 1:
                raise InvalidMoveError(f"{tok!r}: write each placement as +NODE")
            v = self.node_from_text(tok[1:])
            if v in placed:
                raise InvalidMoveError(f"placement {tok[1:]} is written twice")
            placed.append(v)
        return Turn(frm, to, frozenset(placed))

    def format_move(self, move: Turn, state: PowerOfTwoState | None = None) -> str:
        lab = self.board.label
        return " ".join([f"{lab(move.frm)}-{lab(move.to)}"] + [f"+{lab(v)}" for v in sorted(move.placed)])

    # ------------------------------------------------------------ JSON
    def state_to_json(self, state: PowerOfTwoState) -> dict:
        return {
            "game": self.name,
            "light": sorted(state.light),
            "dark": sorted(state.dark),
            "aged": sorted(state.aged),
            "to_move": self.player_to_json(state.to_move),
            "ply": state.ply,
        }

    def state_from_json(self, data: Mapping) -> PowerOfTwoState:
        self.check_position(data)
        light = nodes_from_json(self.board, data["light"], "position field 'light'")
        dark = nodes_from_json(self.board, data["dark"], "position field 'dark'")
        aged = nodes_from_json(self.board, data.get("aged", []), "position field 'aged'")
        both = light & dark
        if both:
            raise RecordError(f"position: node {self.board.label(min(both))} holds both a Light and a Dark stone")
        for player, stones in ((0, light), (1, dark)):
            if len(stones) > STONES:
                raise RecordError(f"position: {self.player_name(player)} has {len(stones)} stones, at most {STONES}")
        stray = aged - light - dark
        if stray:
            raise RecordError(f"position field 'aged': node {self.board.label(min(stray))} holds no stone")
        to_move, ply = self.to_move_and_ply(data)
        return PowerOfTwoState(light, dark, aged, to_move, ply)

    # ------------------------------------------------------------ display
    def render_text(self, state: PowerOfTwoState, last_move: Turn | None = None) -> str:
        cells = {}
        for v in state.light:
            cells[v] = "l" if v in state.aged else "L"
        for v in state.dark:
            cells[v] = "d" if v in state.aged else "D"
        lines = [text_picture(self.board, cells, marked=self.last_move_nodes(state, last_move)),
                 "L/D fresh stone, l/d aged stone, names: free nodes"]
        for p in (LIGHT, DARK):
            stones = " ".join(self.board.label(v) + ("*" if v in state.aged else "")
                              for v in sorted(state.stones(p)))
            lines.append(f"{self.player_name(p):5} {len(state.stones(p)):2} on board, "
                         f"{state.reserve(p):2} in reserve: {stones or '-'}  (* aged)")
        lines.append(self.position_caption(state))
        return "\n".join(lines)

    def diagram(self, state: PowerOfTwoState, last_move: Turn | None = None) -> dict:
        from powertwo.boards.diagram import Arrow, Stone

        stones = [Stone(v, "light", v in state.aged) for v in sorted(state.light)]
        stones += [Stone(v, "dark", v in state.aged) for v in sorted(state.dark)]
        kw: dict = {"stones": stones, "title": f"{self.title}: {self.position_caption(state)}",
                    "legend": self.stone_legend() | {"aged": "aged stone (hatched, dashed rim): felt down",
                                                     "arrow": "arrow: the last move's slide",
                                                     "move": "blue ring: stone placed by the last move"}}
        if isinstance(last_move, Turn):
            kw["arrows"] = [Arrow((last_move.frm,) + (ray_between(self.board, last_move.frm, last_move.to)
                                                      or (last_move.to,)))]
            kw["last"] = sorted(last_move.placed)
        return kw



# ---------------------------------------------------------------- helpers
def match_all(options: list[tuple[NodeId, ...]]) -> dict[int, NodeId] | None:
    """Give every entry ``i`` of ``options`` its own node from ``options[i]`` (Kuhn's augmenting
    paths); the assignment, or ``None`` when no assignment covers every entry."""
    owner: dict[NodeId, int] = {}

    def augment(i: int, seen: set[NodeId]) -> bool:
        for node in options[i]:
            if node not in seen:
                seen.add(node)
                if node not in owner or augment(owner[node], seen):
                    owner[node] = i
                    return True
        return False

    for i in range(len(options)):
        if not augment(i, set()):
            return None
    return {i: node for node, i in owner.items()}


PowerState = PowerOfTwoState
"""The earlier name of :class:`PowerOfTwoState`, kept for code written against it."""


def stones(count: int) -> str:
    """``1 stone``, ``3 stones``."""
    return f"{count} stone{'s' if count != 1 else ''}"
