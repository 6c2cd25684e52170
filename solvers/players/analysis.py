"""The computer's view of a position and of a game: its evaluation, its best move, and what a
complete search proves within a time.

:func:`prove` is the one question "who wins this position with best play, and with which move,
as far as a proof goes within T seconds" that every caller asks: a finished game's result, else
the game's own exact search where it has one (That's My Line's endgame, its evaluation module's
``prove`` hook), else the proof solver (:func:`powertwo.solvers.prove.prove`: df-pn over every
game, That's My Line's compiled producer) within at most :data:`PROOF_SECONDS`.
:func:`analyse` adds the evaluation and the search's best move; :func:`line_proofs` and
:func:`thrown_wins` find the moves of a game that threw a proven win away.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from powertwo.rules import AnyGame
from powertwo.solvers import kernels
from powertwo.solvers.players.evaluations import evaluation_for
from powertwo.solvers.players.mcts import SearchResult, choose_move
from powertwo.solvers.players.proof import Proof

GAME_OVER = "the game is over"
"""The method of a proof that is a finished game's result."""
PROOF_SECONDS = 1.0
"""The proof solver's time at most in one :func:`prove` (it cannot be stopped sooner: a cancelled
request's worker waits this long at most)."""
PROOF_MEMORY_MIB = 64
"""The proof solver's tables in one :func:`prove`."""
PRODUCER_KERNEL = "prove"
"""The compiled kernel of That's My Line's proof producer (:data:`powertwo.solvers.kernels.KERNELS`):
while it is not ready, the proof solver runs df-pn."""


@dataclass(frozen=True)
class Analysis:
    """A position seen by the computer: ``evaluation``, the game's evaluation for the player to move
    (positive is good for them; None when the game has none or is over), ``best``, the search's
    choice (None when the game is over), and ``proof``, what a complete search proved (or None)."""

    evaluation: float | None
    best: SearchResult | None
    proof: Proof | None


def prove(game: AnyGame, state: Any, seconds: float, stop: Callable[[], bool] | None = None) -> Proof | None:
    """Who wins ``state`` with best play, and a winning move for the mover when the mover wins, as
    proved within ``seconds`` (or until ``stop()``): a finished game's result, else the game's own
    exact search where it has one (That's My Line's endgame: milliseconds near the end, its table
    kept from one position to the next) in half the time, else the proof solver in the time left
    (at most :data:`PROOF_SECONDS`); ``None`` when nothing is proved."""
    out = game.outcome(state)
    if out is not None:
        return Proof(out.winner, None, 0, 0.0, GAME_OVER)
    began = time.perf_counter()
    ev = evaluation_for(game.name)
    if ev is not None and ev.prove is not None:
        half = began + seconds / 2
        proof = ev.prove(game, state, lambda visited: time.perf_counter() >= half or (stop is not None and stop()))
        if proof is not None:
            return proof
    if stop is not None and stop():
        return None
    return solver_proof(game, state, min(began + seconds - time.perf_counter(), PROOF_SECONDS))


def solver_proof(game: AnyGame, state: Any, seconds: float) -> Proof | None:
    """What :func:`powertwo.solvers.prove.prove` proves within ``seconds`` (None: unknown). Its
    compiled producer only once its kernel is ready (:mod:`powertwo.solvers.kernels`), else df-pn;
    positions merged by the board's symmetries once they are known in this process (the warm-up of
    the producer's kernel computes those of every game's board); "neither side can force a win" is
    a proof with no winner."""
    from powertwo.solvers.prove import Limits, Value
    from powertwo.solvers.prove import prove as prove_position
    from powertwo.solvers.prove.tml import usable

    if seconds <= 0:
        return None
    compiled = usable(game) and kernels.ready(PRODUCER_KERNEL)
    known = "symmetries" in vars(game.board)  # else computing them (igraph) would take seconds of no limit
    result = prove_position(game, state, limits=Limits(seconds=seconds, memory_mib=PROOF_MEMORY_MIB),
                            engine="compiled" if compiled else "df-pn", symmetry=known)
    if result.value == Value.UNKNOWN:
        return None
    winner = None if result.winner is None else list(game.player_names).index(result.winner)
    move = None if result.move is None or winner != state.to_move else game.parse_move(result.move, state)
    return Proof(winner, move, result.figures.expanded, result.figures.seconds,
                 "the compiled proof search" if compiled else "the df-pn proof search")


def analyse(game: AnyGame, state: Any, seconds: float, seed: int = 0,
            stop: Callable[[], bool] | None = None) -> Analysis:
    """The evaluation, the best move found in ``seconds`` of search, and a proof sought in as long."""
    proof = prove(game, state, seconds, stop)
    if game.outcome(state) is not None:
        return Analysis(None, None, proof)
    ev = evaluation_for(game.name)
    evaluation = ev.evaluate(game, state, state.to_move) if ev is not None else None
    if proof is not None and proof.move is not None:
        best = SearchResult(proof.move, 0, proof.seconds, 1.0, method="proven win", proof=proof)
    else:
        best = choose_move(game, state, seconds=seconds, seed=seed, stop=stop)
    return Analysis(evaluation, best, proof)


def line_proofs(game: AnyGame, states: Sequence[Any], seconds: float,
                stop: Callable[[], bool] | None = None) -> list[Proof | None]:
    """What :func:`prove` proves about each position of a game, from the last one backwards (so an
    exact search's table, filled by the later positions, serves the earlier ones), within
    ``seconds`` in all: each position gets what is left, and the first one not proved ends the
    walk (the earlier ones, with more left to play, are harder), its predecessors left ``None``."""
    proofs: list[Proof | None] = [None] * len(states)
    deadline = time.perf_counter() + seconds
    for k in range(len(states) - 1, -1, -1):
        left = deadline - time.perf_counter()
        if left <= 0 or (stop is not None and stop()):
            break
        proofs[k] = prove(game, states[k], left, stop)
        if proofs[k] is None:
            break
    return proofs


def thrown_wins(states: Sequence[Any], proofs: Sequence[Proof | None]) -> list[int]:
    """The moves (numbered from 1, as in a record) that threw a proven win away: the position before
    was proven won for its mover, the position after proven not to be."""
    thrown = []
    for k in range(1, len(states)):
        before, after, mover = proofs[k - 1], proofs[k], states[k - 1].to_move
        if before is not None and after is not None and before.winner == mover and after.winner != mover:
            thrown.append(k)
    return thrown


__all__ = ["Analysis", "GAME_OVER", "PROOF_SECONDS", "analyse", "line_proofs", "prove", "solver_proof", "thrown_wins"]
