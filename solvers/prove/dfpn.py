"""Depth-first proof-number search (df-pn, Nagai 2002) over the shared ``Game`` interface.

One :class:`Search` tries to prove that one player, the *attacker*, wins: at the attacker's
positions (OR) one move must win, at the defender's (AND) every move must. Each position carries a
proof number (how many more positions must be proven, at least, to prove it) and a disproof number;
the search always descends into a most-proving child, with the thresholds of Nagai's MID and the
1 + epsilon trick of Pawlewicz and Lew (a child is searched until its number passes its sibling's by
a quarter, not by one). The numbers live in a table keyed by the position's key (its stones, without
the move count, up to the board's symmetries: :mod:`.positions`), bounded by the memory limit:
when full, the estimates are dropped and the decided positions kept.

A new position's numbers come from the game's evaluation (:mod:`..players.evaluations`): the more
the evaluation favours the attacker, the smaller its proof number and the larger its disproof
number (1 to 1 + :data:`INITIAL`); a finished game, or one the game's exact shortcut decides, is
proven or disproven at once.

**Repetition** (the graph-history interaction, Kishimoto and Müller): a position that repeats one on
the current path is a success of the defender (endless play is no win), and so is a position of the
game's history before the root (Tower of Power) and one past :data:`MAX_DEPTH`. A proof never uses
such a position, so proofs hold whatever the path (and the shortest winning strategy never repeats a
position: a win is a win in a finite number of moves). A disproof may rest on them: it carries the
depths of the path positions it rests on, is kept apart (not in the table) while those positions
are on the path, and enters the table only once it rests on none. A disproof that rests on the
game's history or the depth cap is never a result: the root's is reported as no answer.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable, Hashable

from powertwo.rules import AnyGame, RulesError

from .positions import Positions
from .values import Stop

INF = 1 << 40
"""An infinite proof or disproof number."""
INITIAL = 4
"""The spread of a new position's numbers set by the evaluation: 1 to 1 + INITIAL."""
EPSILON = 0.25
"""The 1 + epsilon trick: a child's threshold is its sibling's number times 1 + EPSILON."""
MAX_DEPTH = 400
"""Plies below the root past which a position counts as a defender's success (no result rests on it)."""
ENTRY_BYTES = 420
"""What one table entry costs in memory (key tuple, value list, dictionary slot), for the limit."""
TICK = 16
"""Positions expanded between two looks at the clock (an expansion of The Power of Two costs up to
tens of milliseconds on a busy machine: a look at the clock far less)."""
TAINT = -1
"""The depth a disproof rests on when it rests on the game's history or the depth cap: never on the
path, so it never becomes a result."""

Numbers = tuple[int, int, frozenset[int]]
"""A position's proof number, disproof number and (for a disproof) the path depths it rests on."""
PROVEN: Numbers = (0, INF, frozenset())
DISPROVEN: Numbers = (INF, 0, frozenset())


class SearchStopped(Exception):
    """The search reached a limit (carried as a :class:`Stop`)."""

    def __init__(self, reason: Stop):
        super().__init__(reason.value)
        self.reason = reason


class ProveError(ValueError):
    """A position ``prove`` cannot work on (e.g. a game whose moves are too many to list)."""


@dataclass
class Child:
    """A move and the position after it."""

    move: Any
    state: Any
    key: Hashable
    repetition: Hashable


class Search:
    """One df-pn search for a win of ``attacker`` (see the module text)."""

    def __init__(self, game: AnyGame, positions: Positions, attacker: int, *, capacity: int,
                 evaluate: Callable[[Any, Any, int], float] | None = None, scale: float = 1.0):
        self.game, self.positions, self.attacker = game, positions, attacker
        self.capacity = capacity
        self.evaluate, self.scale = evaluate, scale
        self.table: dict[Hashable, list[int]] = {}
        """key -> [proof number, disproof number, serial]; the serial (> 0) orders the decided
        positions: a proof only rests on positions decided before it."""
        self.apart: dict[Hashable, tuple[frozenset[int], int]] = {}
        """key -> (path depths, serial of the deepest one's frame): disproofs that rest on the path."""
        self.on_path: dict[Hashable, int] = {}
        self.frames: list[int] = []
        self.history: frozenset = frozenset()
        self.serial = 0
        self.expanded = 0
        self.deadline = math.inf
        self.ended: dict[Hashable, Numbers | None] = {}
        """key -> the numbers of a decided position, or ``None``: :meth:`terminal` remembered."""
        self.estimates: dict[Hashable, Numbers] = {}
        """key -> a new position's numbers from the evaluation (:meth:`estimate`) remembered: a parent
        searched again meets the same children, and the evaluation is most of a position's cost."""
        self.report: Callable[[], None] | None = None
        """Called every :data:`TICK` positions (the caller's progress line, at most every few seconds)."""

    # ------------------------------------------------------------ the run
    def run(self, root: Any, deadline: float) -> Numbers:
        """Search from ``root`` until it is decided or ``deadline`` (``time.monotonic``) passes
        (:class:`SearchStopped`); a later call goes on from the table."""
        self.deadline = deadline
        self.history = self.positions.history_keys(root)
        repetition = self.positions.repetition_key(root)
        key = self.positions.key(root, repetition)
        known = self.terminal(root)
        if known is not None:
            return known
        entry = self.table.get(key)
        if entry is not None and (entry[0] == 0 or entry[1] == 0):
            return entry[0], entry[1], frozenset()
        return self.mid(root, key, repetition, 0, INF, INF)

    def root_numbers(self, root: Any) -> tuple[int, int]:
        """The root's proof and disproof numbers as the table last stored them (1, 1 before)."""
        entry = self.table.get(self.positions.key(root))
        return (entry[0], entry[1]) if entry is not None else (1, 1)

    def terminal(self, state: Any) -> Numbers | None:
        """The numbers of a finished game or one the game's shortcut decides; ``None`` otherwise."""
        out = self.game.outcome(state)
        winner = out.winner if out is not None else self.positions.shortcut(state)
        if out is None and winner is None:
            return None
        return PROVEN if winner == self.attacker else DISPROVEN

    def children(self, state: Any) -> list[Child]:
        """The positions after each legal move, one per key (symmetric or equal results once)."""
        try:
            moves = self.game.legal_moves(state)
        except RulesError as exc:
            raise ProveError(f"cannot list the moves of a position: {exc}") from None
        seen: dict[Hashable, Child] = {}
        for move in moves:
            after = self.game._apply(state, move)
            repetition = self.positions.repetition_key(after)
            key = self.positions.key(after, repetition)
            if key not in seen:
                seen[key] = Child(move, after, key, repetition)
        return list(seen.values())

    # ------------------------------------------------------------ numbers
    def numbers(self, child: Child, depth: int) -> Numbers:
        """What is known of ``child`` at ``depth``: decided, repeated, in the table, or a new estimate."""
        if child.key in self.ended:
            known = self.ended[child.key]
        else:
            if len(self.ended) > self.capacity:
                self.ended.clear()
            known = self.ended[child.key] = self.terminal(child.state)
        if known is not None:
            return known
        at = self.on_path.get(child.repetition)
        if at is not None:
            return INF, 0, frozenset((at,))
        if child.repetition in self.history or depth > MAX_DEPTH:
            return INF, 0, frozenset((TAINT,))
        entry = self.table.get(child.key)
        if entry is not None:
            return entry[0], entry[1], frozenset()
        apart = self.apart.get(child.key)
        if apart is not None:
            depths, frame = apart
            deepest = max(depths)
            if deepest == TAINT or (deepest < len(self.frames) and self.frames[deepest] == frame):
                return INF, 0, depths
            del self.apart[child.key]
        estimate = self.estimates.get(child.key)
        if estimate is None:
            if len(self.estimates) > self.capacity:
                self.estimates.clear()
            estimate = self.estimates[child.key] = self.estimate(child.state)
        return estimate

    def estimate(self, state: Any) -> Numbers:
        if self.evaluate is None:
            return 1, 1, frozenset()
        score = self.evaluate(self.game, state, self.attacker) / self.scale
        chance = 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, score))))
        return 1 + round(INITIAL * (1.0 - chance)), 1 + round(INITIAL * chance), frozenset()

    def combine(self, values: list[Numbers], attacking: bool, depth: int) -> Numbers:
        """A position's numbers from its children's: OR (the attacker to move) takes the least
        proof number and the sum of the disproof numbers, AND the other way round. A disproof keeps
        the path depths its children's rest on, less the position's own and deeper ones."""
        pns = [v[0] for v in values]
        dns = [v[1] for v in values]
        if attacking:
            pn, dn = min(pns), min(INF, sum(dns))
            rests = frozenset().union(*(v[2] for v in values)) if dn == 0 else frozenset()
        else:
            pn, dn = min(INF, sum(pns)), min(dns)
            rests = frozenset()
            if dn == 0:
                rests = min((v[2] for v in values if v[1] == 0), key=_reliance)
        return pn, dn, frozenset(d for d in rests if d < depth)

    # ------------------------------------------------------------ MID
    def mid(self, state: Any, key: Hashable, repetition: Hashable, depth: int, th_pn: int, th_dn: int) -> Numbers:
        """Nagai's MID: search ``state`` until its proof number reaches ``th_pn`` or its disproof
        number ``th_dn`` (or it is decided); store and return its numbers."""
        self.tick()
        attacking = state.to_move == self.attacker
        children = self.children(state)
        if not children:
            raise ProveError(f"a position of {self.game.name} that is not over has no move")
        self.on_path[repetition] = depth
        self.frames.append(self.expanded)
        try:
            values = [self.numbers(c, depth + 1) for c in children]
            while True:
                pn, dn, rests = self.combine(values, attacking, depth)
                if pn == 0 or dn == 0 or pn >= th_pn or dn >= th_dn:
                    break
                best, second = self.select(values, attacking)
                child = children[best]
                if attacking:
                    th_child = (min(th_pn, _widened(second)), th_dn - dn + values[best][1])
                else:
                    th_child = (th_pn - pn + values[best][0], min(th_dn, _widened(second)))
                values[best] = self.descend(child, depth + 1, *th_child)
        finally:
            del self.on_path[repetition]
            self.frames.pop()
        self.store(key, pn, dn, rests)
        return pn, dn, rests

    def descend(self, child: Child, depth: int, th_pn: int, th_dn: int) -> Numbers:
        known = self.numbers(child, depth)
        if known[0] == 0 or known[1] == 0:
            return known
        return self.mid(child.state, child.key, child.repetition, depth, th_pn, th_dn)

    @staticmethod
    def select(values: list[Numbers], attacking: bool) -> tuple[int, int]:
        """The most-proving child (the least proof number at OR, disproof number at AND; the first
        of equals) and the second least number."""
        best, first, second = 0, INF + 1, INF + 1
        for i, value in enumerate(values):
            n = value[0] if attacking else value[1]
            if n < first:
                best, first, second = i, n, first
            elif n < second:
                second = n
        return best, min(second, INF)

    def store(self, key: Hashable, pn: int, dn: int, rests: frozenset[int]) -> None:
        if dn == 0 and rests:
            deepest = max(rests)
            self.apart[key] = (rests, self.frames[deepest] if deepest != TAINT else 0)
            return
        serial = 0
        if pn == 0 or dn == 0:
            self.serial += 1
            serial = self.serial
        self.table[key] = [pn, dn, serial]

    def tick(self) -> None:
        self.expanded += 1
        if self.expanded % TICK:
            return
        if time.monotonic() > self.deadline:
            raise SearchStopped(Stop.TIME)
        if self.report is not None:
            self.report()
        if len(self.table) + len(self.apart) > self.capacity:
            self.table = {k: v for k, v in self.table.items() if v[2]}
            self.apart.clear()
            if len(self.table) > self.capacity * 0.8:
                raise SearchStopped(Stop.MEMORY)

    def proven_serial(self, key: Hashable) -> int | None:
        """The serial of a position proven won for the attacker, or ``None``."""
        entry = self.table.get(key)
        return entry[2] if entry is not None and entry[0] == 0 else None


def _reliance(rests: frozenset[int]) -> tuple[int, int]:
    """How much a disproof rests on: nothing, then the path (the shallower the deepest depth, the
    sooner it holds for good), then the history or the depth cap (never)."""
    if not rests:
        return 0, 0
    if TAINT in rests:
        return 2, 0
    return 1, max(rests)


def _widened(n: int) -> int:
    """The threshold past a sibling's number ``n``: ``n + 1`` at least, ``n * (1 + EPSILON)`` rounded up."""
    if n >= INF:
        return INF
    return max(n + 1, math.ceil(n * (1 + EPSILON)))


__all__ = ["Search", "SearchStopped", "ProveError", "Child", "INF", "MAX_DEPTH", "ENTRY_BYTES"]
