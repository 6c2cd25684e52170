"""The computer player: Monte-Carlo tree search (UCT) over the shared ``Game`` interface.

It asks the referee for moves, applies them and reads the outcome, so it plays every
registered game; a game's evaluation (:mod:`.evaluations`) makes it stronger there:

* **Playouts** play random moves for the game's ``playout_plies`` and score the position
  reached by the evaluation (a logistic of evaluation / scale: a win probability); a
  playout that ends the game scores the result. A game without an evaluation plays its
  playouts to the end.
* **Root moves** are ordered by the evaluation of the position each leads to, and a move
  that wins at once is played at once.
* **Progressive widening**: a node visited ``n`` times considers at most
  ``WIDENING * sqrt(n)`` of its moves (root: best evaluated first; deeper: a random order),
  so wide games (Tower of Power's 614 moves) search deep enough to see replies.
* **Proven results**: a node whose mover has a move that wins at once is a proven loss
  for the player who moved into it; the root and its children look for such moves when
  first expanded (up to :data:`SCAN_LIMIT` moves), so the player takes a win in one and
  avoids a move that allows one when it can.

* **Exact endgames**: a game whose evaluation has an ``exact`` solver (That's My Line) first
  spends a share of the budget on it and plays a move it proves winning.
* **Time management**: the search stops when the choice is decided (a proven root, or a most
  visited root move that no other can overtake in the playouts left), and when its caller's
  ``stop()`` says so (a player's Stop, a cancelled request): it then plays its best move so far.
* **Alpha-beta instead**: a game whose evaluation says ``SEARCH = "alphabeta"`` (The Power of Two)
  is searched by :func:`.alphabeta.deepen` after the win-in-one and exact-endgame checks.

Strength is the thinking time per move (``seconds`` or a named :data:`LEVELS` entry); the
search is seeded, so with a budget counted in ``playouts`` a move is reproducible.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from powertwo.rules import AnyGame, RulesError
from powertwo.solvers import kernels
from powertwo.solvers.players.alphabeta import deepen
from powertwo.solvers.players.evaluations import Evaluation, evaluation_for
from powertwo.solvers.players.proof import Proof

WIDE_LIMIT = 200
"""Moves considered in a position whose legal moves are too many to list (and no evaluation helps)."""
EXPLORATION = 1.0
WIDENING = 2.0
SCAN_LIMIT = 700
"""Most moves a node scans for a win in one."""
SCAN_DEPTH = 2
"""The deepest nodes that scan their moves for a win in one (1: the root's children; 2: the replies
to them, so a reply that allows a win in one is known lost and the search looks at the others)."""
DEEP_SCAN_LIMIT = 100
"""Most moves a node below the root's children scans (wide games scan only the root's children)."""
END_PLIES = 2000
"""Safety bound on a playout of a game without an evaluation; beyond it the playout counts as a draw."""
CHECK_EVERY = 16
"""Playouts between two checks whether the choice is decided."""
EXACT_SHARE = 0.4
"""Share of the time budget an exact endgame solver may use before the tree search."""
EXACT_NODES_PER_PLAYOUT = 20
"""Positions an exact endgame solver may visit per playout of a budget counted in playouts."""
PROOF_SHARE = 0.3
"""The share of a move's seconds given to the ``prover`` (a proof search) before the player's own search."""
POSITIONS_PER_PLAYOUT = 10
"""Positions the alpha-beta search may visit per playout of a budget counted in playouts."""
LEVELS: dict[str, float] = {"easy": 0.25, "normal": 1.0, "strong": 10.0}
"""Seconds a move for each named level (normal is the workbench's default; strong is the most the
workbench allows, and ten times normal: at three times, strong beat normal in only about half of
the games of The Power of Two)."""


@dataclass(eq=False)
class _Node:
    state: Any
    mover: int  # who moved into this node (values are from that player's side)
    move: Any = None
    parent: "_Node | None" = None
    untried: list | None = None  # built on the first expansion
    children: list["_Node"] = field(default_factory=list)
    visits: int = 0
    value: float = 0.0
    proven: float | None = None  # 1.0: a win for the mover, 0.0: a loss


Method = Literal["only move", "win at once", "proven win", "alpha-beta", "tree search"]
"""How the move was chosen: the only legal move, a move that wins at once, a move an exact search
proved winning, the alpha-beta search's best, or the tree search's most visited."""


@dataclass(frozen=True)
class SearchResult:
    """The chosen move, how many playouts were run, and the seconds used."""

    move: Any
    playouts: int
    seconds: float
    value: float
    """The chosen move's mean score for the mover (1 = win, 0.5 = draw)."""
    positions: int = 0
    """Positions the alpha-beta search scored (0 when the tree search chose the move)."""
    method: Method = "tree search"
    proof: Proof | None = None
    """What the exact search proved about the position (also when it proved a loss for the mover)."""
    depth: int = 0
    """The plies the alpha-beta search looked ahead (0 for the other methods)."""
    stopped: bool = False
    """Whether the caller's ``stop()`` ended the search before its budget: the best move so far."""
    notes: tuple[str, ...] = ()
    """Remarks for the player (a compiled search not ready yet, so the plain one ran)."""

    def summary(self) -> str:
        """How the move was found, in a player's words: "a proven win by the exact endgame search,
        1,234 positions, 0.3 s", "alpha-beta 4 plies deep, 12,345 positions, 1.0 s"."""
        took = f"{self.seconds:.1f} s"
        if self.method == "only move":
            parts = ["its only move"]
        elif self.method == "win at once":
            parts = ["it wins at once"]
        elif self.method == "proven win":
            proof = self.proof or Proof(None)
            parts = [f"a proven win by {proof.method or 'an exact search'}", _count(proof.positions, "position"), took]
        elif self.method == "alpha-beta":
            proven = "" if 0.0 < self.value < 1.0 else "a proven win: " if self.value == 1.0 else "a proven loss: "
            deep = _count(self.depth, "ply", "plies")
            parts = [f"{proven}alpha-beta {deep} deep", _count(self.positions, "position"), took]
        else:
            parts = ["tree search", _count(self.playouts, "playout"), took]
        text = ", ".join(parts)
        if self.proof is not None and self.proof.move is None:
            text += "; the exact search proved the position lost against best play"
        if self.stopped:
            text += "; stopped early: the best move so far"
        return "; ".join([text, *self.notes])


def _count(n: int, noun: str, plural: str | None = None) -> str:
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def moves_of(game: AnyGame, state: Any) -> list:
    """The moves the player considers: the evaluation's candidates where it has them, else the legal
    moves, or the first :data:`WIDE_LIMIT` where the game refuses to list them all."""
    ev = evaluation_for(game.name)
    if ev is not None and ev.candidates is not None:
        return ev.candidates(game, state)
    try:
        return game.legal_moves(state)
    except RulesError:
        return game.moves(state).first(WIDE_LIMIT)


def random_move(game: AnyGame, state: Any, rng: random.Random) -> Any:
    """A random move: the evaluation's draw where it has one, else one drawn uniformly from
    :func:`moves_of` (``None`` when there is none)."""
    ev = evaluation_for(game.name)
    if ev is not None and ev.random_move is not None:
        return ev.random_move(game, state, rng)
    moves = moves_of(game, state)
    return rng.choice(moves) if moves else None


def seconds_for(level: str) -> float:
    """The seconds a move of a named level; raises :class:`RulesError` for an unknown name."""
    if level not in LEVELS:
        raise RulesError(f"level {level}: unknown (choose one of {', '.join(LEVELS)})")
    return LEVELS[level]


def choose_move(game: AnyGame, state: Any, *, seconds: float = 1.0, playouts: int | None = None,
                seed: int = 0, plies: int | None = None, level: str | None = None,
                stop_early: bool = True, stop: Callable[[], bool] | None = None,
                prover: Callable[[AnyGame, Any, float], Any] | None = None) -> SearchResult:
    """The move the search prefers for the player to move in ``state``. Stops after ``playouts``
    playouts when given, otherwise after ``seconds`` (or the seconds of ``level``), at least one
    playout either way, and earlier when the choice is decided (``stop_early``): a proven result at
    the root, or a most visited move no other can overtake in the playouts left (counted, or
    estimated from the playouts a second so far). A game's exact endgame solver, where it has one,
    first gets a share of the budget (:data:`EXACT_SHARE` of the time, or :data:`EXACT_NODES_PER_PLAYOUT`
    positions a playout) and decides the move when it proves a win. ``prover(game, state, seconds)``,
    when given (e.g. :func:`powertwo.solvers.prove.hint.proven_move`), is asked first for a move
    proven to win within :data:`PROOF_SHARE` of the seconds (not with a budget of playouts), and such
    a move is played. ``plies`` overrides the game's playout length. ``stop()``, when given, is asked
    as the search goes: once true, the search ends and its best move so far is played (``stopped`` in
    the result). Raises :class:`RulesError` when
    the game is over or there is no legal move."""
    if game.outcome(state) is not None:
        raise RulesError("the game is over: there is no move to choose")
    if level is not None:
        seconds = seconds_for(level)
    began = time.perf_counter()
    if prover is not None and playouts is None:
        proven = prover(game, state, PROOF_SHARE * seconds)
        if proven is not None:
            took = time.perf_counter() - began
            return SearchResult(proven, 0, took, 1.0, method="proven win",
                                proof=Proof(state.to_move, proven, seconds=took, method="the proof solver"))
    search = _Search(game, random.Random(seed), None if playouts is not None else began + seconds, plies, stop)
    root = _Node(state, mover=1 - state.to_move)
    root.untried = search.ordered_root_moves(state)
    if not root.untried:
        raise RulesError("no legal move in this position")
    finish = search.ev.finish if search.ev is not None and search.ev.finish is not None else None
    if len(root.untried) == 1 or search.winning is not None:
        move = search.winning if search.winning is not None else root.untried[0]
        if search.winning is None and finish is not None:
            move = finish(game, state, move)
        return SearchResult(move, 0, time.perf_counter() - began, 1.0 if search.winning is not None else 0.5,
                            method="win at once" if search.winning is not None else "only move")
    proof = search.exact(state, began + EXACT_SHARE * seconds, None if playouts is None
                         else EXACT_NODES_PER_PLAYOUT * playouts)
    notes = search.notes()
    if proof is not None and proof.move is not None and proof.winner == state.to_move:
        return SearchResult(proof.move, 0, time.perf_counter() - began, 1.0, method="proven win", proof=proof,
                            notes=notes)
    if search.ev is not None and search.ev.search == "alphabeta":
        return _by_alphabeta(search, state, began, seconds, playouts)
    count = _run(search, root, began + seconds, playouts, stop_early)
    best = _final_choice(root)
    move = finish(game, state, best.move) if finish is not None else best.move
    return SearchResult(move, count, time.perf_counter() - began, best.value / max(best.visits, 1),
                        method="tree search", proof=proof, stopped=search.stopped(), notes=notes)


def _by_alphabeta(search: "_Search", state: Any, began: float, seconds: float, playouts: int | None) -> SearchResult:
    """The move of the alpha-beta search (:mod:`.alphabeta`) for a game whose evaluation asks for it;
    ``playouts`` counts :data:`POSITIONS_PER_PLAYOUT` positions each. No playout is run."""
    assert search.ev is not None
    found = deepen(search.game, state, search.ev.evaluate, moves_of, began + seconds,
                   None if playouts is None else POSITIONS_PER_PLAYOUT * playouts, search.rng, search.stop)
    value = (1.0 if found.score > 0 else 0.0) if found.proven else \
        1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, found.score / search.ev.scale))))
    return SearchResult(found.move, 0, time.perf_counter() - began, value, found.positions, method="alpha-beta",
                        depth=found.depth, stopped=search.stopped(), notes=search.notes())


def _run(search: "_Search", root: _Node, deadline: float, playouts: int | None, stop_early: bool) -> int:
    """Iterate until the budget is spent or (``stop_early``) the choice is decided; the playouts run."""
    count, began = 0, time.perf_counter()
    while root.proven is None:
        search.iterate(root)
        count += 1
        if search.stopped():
            break
        if playouts is not None:
            left = float(playouts - count)
        else:
            now = time.perf_counter()
            left = count / max(now - began, 1e-9) * (deadline - now)
        if left <= 0 or (stop_early and count % CHECK_EVERY == 0 and _decided(root, left)):
            break
    return count


def _decided(root: _Node, left: float) -> bool:
    """Whether the most visited root child not proven lost leads every other (an untried move counts
    as no visit) by more than ``left`` playouts, so that no budget left could change the choice."""
    visits = sorted((c.visits for c in root.children if c.proven != 0.0), reverse=True)
    if not visits:
        return False
    second = visits[1] if len(visits) > 1 else 0
    return visits[0] - second > left


def _final_choice(root: _Node) -> _Node:
    won = [c for c in root.children if c.proven == 1.0]
    if won:
        return won[0]
    alive = [c for c in root.children if c.proven != 0.0] or root.children
    return max(alive, key=lambda c: (c.visits, c.value))


class _Search:
    """One search's game, random source, deadline, evaluation and the caller's stop."""

    def __init__(self, game: AnyGame, rng: random.Random, deadline: float | None, plies: int | None,
                 stop: Callable[[], bool] | None = None):
        self.game, self.rng, self.deadline = game, rng, deadline
        self.ev: Evaluation | None = evaluation_for(game.name)
        self.plies = plies if plies is not None else (self.ev.playout_plies if self.ev else END_PLIES)
        self.winning: Any = None
        self.stop = stop
        self._stopped = False

    def stopped(self) -> bool:
        """Whether the caller asked the search to stop (asked once more each time until it did)."""
        if not self._stopped and self.stop is not None and self.stop():
            self._stopped = True
        return self._stopped

    def notes(self) -> tuple[str, ...]:
        """The player's remarks: the exact search's compiled kernel was not ready, so the plain one ran."""
        kernel = self.ev.kernel if self.ev is not None else None
        return (kernels.not_ready_note(kernel),) if kernel is not None and not kernels.ready(kernel) else ()

    def exact(self, state: Any, deadline: float, nodes: int | None) -> Proof | None:
        """What the game's exact solver proves about ``state`` within the deadline (or ``nodes``
        positions when given): ``None`` without a solver or a proof in time."""
        if self.ev is None or self.ev.prove is None:
            return None

        def stop(visited: int) -> bool:
            if self.stopped():
                return True
            return visited > nodes if nodes is not None else time.perf_counter() >= deadline
        return self.ev.prove(self.game, state, stop)

    def ordered_root_moves(self, state: Any) -> list:
        """The root's moves, best evaluated last (moves are popped from the end); notes a win in one."""
        game, mover = self.game, state.to_move
        moves = moves_of(game, state)
        scored = []
        for i, move in enumerate(moves):
            after = game._apply(state, move)  # the move came from the referee's list
            out = game.outcome(after)
            if out is not None and out.winner == mover:
                self.winning = move
                return moves
            score = self.ev.evaluate(game, after, mover) if self.ev else 0.0
            scored.append((score, self.rng.random(), i))
        scored.sort()
        return [moves[i] for _, _, i in scored]

    def iterate(self, root: _Node) -> None:
        """One selection, expansion, playout and back-propagation."""
        node, depth = root, 0
        while True:
            if node.proven is not None:
                break
            if node.untried is None:
                self._open(node, depth)
                if node.proven is not None:
                    break
            if node.untried and len(node.children) < max(1, math.ceil(WIDENING * math.sqrt(node.visits))):
                node = self._expand(node)
                depth += 1
                break
            if not node.children:
                break
            node = self._select(node)
            depth += 1
        value0 = self._leaf_value(node)
        self._backpropagate(node, value0)

    def _open(self, node: _Node, depth: int) -> None:
        """Build a node's move list (random order); within :data:`SCAN_DEPTH`, look for a win in one."""
        game, state = self.game, node.state
        node.untried = moves_of(game, state)
        self.rng.shuffle(node.untried)
        if depth <= SCAN_DEPTH and len(node.untried) <= (SCAN_LIMIT if depth == 1 else DEEP_SCAN_LIMIT):
            mover = state.to_move
            for move in node.untried:
                out = game.outcome(game._apply(state, move))
                if out is not None and out.winner == mover:
                    node.proven = 0.0
                    _prove_parent(node)
                    return

    def _expand(self, node: _Node) -> _Node:
        assert node.untried is not None
        move = node.untried.pop()
        state = self.game._apply(node.state, move)
        child = _Node(state, mover=node.state.to_move, move=move, parent=node)
        out = self.game.outcome(state)
        if out is not None:
            child.untried = []
            child.proven = 0.5 if out.winner is None else float(out.winner == child.mover)
            if child.proven == 0.5:
                child.proven = None  # a draw is scored, not proven
        node.children.append(child)
        if child.proven is not None:
            _prove_parent(child)
        return child

    def _select(self, node: _Node) -> _Node:
        log_n = math.log(node.visits or 1)
        best, best_score = node.children[0], -math.inf
        for c in node.children:
            if c.proven is not None:
                score = c.proven * 10.0  # a proven win first, a proven loss last
            else:
                score = c.value / max(c.visits, 1) + EXPLORATION * math.sqrt(log_n / max(c.visits, 1))
            if score > best_score:
                best, best_score = c, score
        return best

    def _leaf_value(self, node: _Node) -> float:
        """Player 0's score of the node: its proven or final result, else a playout's."""
        if node.proven is not None:
            return node.proven if node.mover == 0 else 1.0 - node.proven
        out = self.game.outcome(node.state)
        if out is not None:
            return 0.5 if out.winner is None else float(out.winner == 0)
        return self._playout(node.state)

    def _playout(self, state: Any) -> float:
        """Player 0's score after random plies: the result if the game ends, else the evaluation."""
        game, rng = self.game, self.rng
        for _ in range(self.plies):
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                break
            move = random_move(game, state, rng)
            if move is None:
                break
            state = game._apply(state, move)
            out = game.outcome(state)
            if out is not None:
                return 0.5 if out.winner is None else float(out.winner == 0)
        if self.ev is None:
            return 0.5
        x = self.ev.evaluate(game, state, 0) / self.ev.scale
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))

    @staticmethod
    def _backpropagate(node: _Node, value0: float) -> None:
        up: _Node | None = node
        while up is not None:
            up.visits += 1
            up.value += value0 if up.mover == 0 else 1.0 - value0
            up = up.parent


def _prove_parent(child: _Node) -> None:
    """Carry a proven child up: a won child loses its parent's mover the game; a parent all of whose
    moves are tried and lost is won for its mover."""
    node = child.parent
    while node is not None:
        kids = node.children
        if any(c.proven == 1.0 for c in kids):
            node.proven = 0.0
        elif not node.untried and node.untried is not None and kids and all(c.proven == 0.0 for c in kids):
            node.proven = 1.0
        else:
            return
        node = node.parent


__all__ = ["LEVELS", "SearchResult", "choose_move", "moves_of", "random_move", "seconds_for", "WIDE_LIMIT"]
