"""That's My Line: more stones placed wins, so count stones placed and nodes still open to place on.

Near the end the game is small enough to solve exactly: :func:`prove` searches it to the end on
bit masks (what each side may still place on, the stones placed, who placed last), remembering
every position it decided: who wins, and a winning move for the mover when the mover wins (the
player plays it; :func:`exact` gives just that move). On a board of at most 64 nodes the compiled
search (:mod:`..endgame_kernel`) does it, its table kept for the game from one move to the next;
:func:`prove_plain`, the same search in Python, is its referee and serves larger boards, and any
board while the compiled search is not ready (:func:`powertwo.solvers.kernels.ready`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache

from powertwo.rules.thats_my_line import Pass, Place, ThatsMyLine, ThatsMyLineMove, ThatsMyLineState
from powertwo.solvers import kernels
from powertwo.solvers.players.endgame_kernel import PASS, EndgameSearch
from powertwo.solvers.players.proof import Proof

PLAYOUT_PLIES = 40
SCALE = 2.0
KERNEL = "endgame"
"""The compiled kernel :func:`prove` uses (:data:`powertwo.solvers.kernels.KERNELS`)."""


def evaluate(game: ThatsMyLine, state: ThatsMyLineState, player: int) -> float:
    """Own stones plus own open nodes, minus the opponent's."""
    def side(p: int) -> int:
        return len(state.stones(p)) + game.open_mask(state, p).bit_count()
    return float(side(player) - side(1 - player))


def prove(game: ThatsMyLine, state: ThatsMyLineState, stop: Callable[[int], bool]) -> Proof | None:
    """Who wins ``state`` with best play, and a winning move when the mover wins, by a complete
    search; ``None`` when ``stop(positions visited)`` ends the search first or the game is over."""
    nodes = sorted(game.board.nodes)
    if len(nodes) > 64 or not kernels.ready(KERNEL):
        return prove_plain(game, state, stop)
    began = time.perf_counter()
    index = {v: i for i, v in enumerate(nodes)}

    def packed(mask: int) -> int:
        return sum(1 << index[v] for v in nodes if mask >> v & 1)
    search = _compiled(game)
    found = search.solve((packed(game.open_mask(state, 0)), packed(game.open_mask(state, 1))),
                         (len(state.light), len(state.dark)), state.to_move, state.last_placer, stop)
    if found is None:
        return None
    me = state.to_move
    move = None if not found[0] or found[1] is None else Pass() if found[1] == PASS else Place(nodes[found[1]])
    return Proof(me if found[0] else 1 - me, move, search.visited, time.perf_counter() - began,
                 "the exact endgame search")


def exact(game: ThatsMyLine, state: ThatsMyLineState, stop: Callable[[int], bool]) -> ThatsMyLineMove | None:
    """A move that wins against every defence, found by a complete search, or ``None`` when the
    mover loses against best play or ``stop(positions visited)`` ends the search first."""
    proof = prove(game, state, stop)
    return None if proof is None else proof.move


def _compiled(game: ThatsMyLine) -> EndgameSearch:
    """The compiled search of a game (its board's line mates in node order, its supply), with its table."""
    nodes = sorted(game.board.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    mates = tuple(sum(1 << index[u] for u in nodes if game.line_mates[v] >> u & 1) for v in nodes)
    return _search_for(mates, game.supply)


@lru_cache(maxsize=2)
def _search_for(mates: tuple[int, ...], supply: int | None) -> EndgameSearch:
    return EndgameSearch(list(mates), supply)


def prove_plain(game: ThatsMyLine, state: ThatsMyLineState, stop: Callable[[int], bool]) -> Proof | None:
    """:func:`prove` by the plain search in Python: the compiled search's referee."""
    if game.outcome(state) is not None:
        return None
    began = time.perf_counter()
    search = _Endgame(game, stop)
    me = state.to_move
    position = _Position((game.open_mask(state, 0), game.open_mask(state, 1)),
                         (len(state.light), len(state.dark)), me, state.last_placer)

    def proved(winner: int, move: ThatsMyLineMove | None) -> Proof:
        return Proof(winner, move, search.visited, time.perf_counter() - began, "the exact endgame search (plain)")
    try:
        for node in search.ordered(position):
            if not search.wins(position.placed_on(node, game.line_mates), 1 - me):
                return proved(me, Place(node))
        if not search.can_place(position, me) and not search.wins(position.passed(), 1 - me):
            return proved(me, Pass())
    except _OutOfBudget:
        return None
    return proved(1 - me, None)


def exact_plain(game: ThatsMyLine, state: ThatsMyLineState, stop: Callable[[int], bool]) -> ThatsMyLineMove | None:
    """:func:`exact` by the plain search in Python."""
    proof = prove_plain(game, state, stop)
    return None if proof is None else proof.move


class _OutOfBudget(Exception):
    """The search visited more positions than it may."""


class _Position:
    """The open masks of both sides, the stones placed, whose turn, who placed last."""

    __slots__ = ("open", "placed", "mover", "last")

    def __init__(self, open_: tuple[int, int], placed: tuple[int, int], mover: int, last: int | None):
        self.open, self.placed, self.mover, self.last = open_, placed, mover, last

    def key(self) -> tuple:
        return (self.open, self.placed, self.mover, self.last)

    def placed_on(self, node: int, mates: dict[int, int]) -> "_Position":
        me = self.mover
        own, other = self.open[me] & ~(1 << node), self.open[1 - me] & ~mates[node]
        placed = (self.placed[0] + 1, self.placed[1]) if me == 0 else (self.placed[0], self.placed[1] + 1)
        return _Position((own, other) if me == 0 else (other, own), placed, 1 - me, me)

    def passed(self) -> "_Position":
        return _Position(self.open, self.placed, 1 - self.mover, self.last)


class _Endgame:
    """Who wins each position with best play, by a depth-first search that remembers its answers."""

    def __init__(self, game: ThatsMyLine, stop: Callable[[int], bool]):
        self.mates, self.supply, self.stop = game.line_mates, game.supply, stop
        self.known: dict[tuple, bool] = {}
        self.visited = 0

    def can_place(self, pos: _Position, player: int) -> bool:
        return pos.open[player] != 0 and (self.supply is None or pos.placed[player] < self.supply)

    def most(self, pos: _Position, player: int) -> int:
        """The most stones ``player`` can end with: one more per open node, within the supply."""
        most = pos.placed[player] + pos.open[player].bit_count()
        return most if self.supply is None else min(most, self.supply)

    def ordered(self, pos: _Position) -> list[int]:
        """The mover's nodes, those closing the most of the opponent's open nodes first."""
        if not self.can_place(pos, pos.mover):
            return []
        own, other = pos.open[pos.mover], pos.open[1 - pos.mover]
        nodes = [v for v in range(own.bit_length()) if own >> v & 1]
        return sorted(nodes, key=lambda v: -(other & self.mates[v]).bit_count())

    def wins(self, pos: _Position, player: int) -> bool:
        """Whether ``player`` wins from ``pos`` with best play by both."""
        me = pos.mover
        if self.most(pos, me) < pos.placed[1 - me]:
            return player != me
        if self.most(pos, 1 - me) < pos.placed[me]:
            return player == me
        key = pos.key()
        if key not in self.known:
            self.visited += 1
            if self.visited & 1023 == 0 and self.stop(self.visited):
                raise _OutOfBudget
            self.known[key] = self._mover_wins(pos)
        return self.known[key] == (player == me)

    def _mover_wins(self, pos: _Position) -> bool:
        me = pos.mover
        if self.can_place(pos, me):
            return any(not self.wins(pos.placed_on(v, self.mates), 1 - me) for v in self.ordered(pos))
        if self.can_place(pos, 1 - me):
            return not self.wins(pos.passed(), 1 - me)
        a, b = pos.placed[me], pos.placed[1 - me]
        return a > b or (a == b and pos.last == me)
