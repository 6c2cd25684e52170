"""Game-specific evaluations for the computer player, one small module per game, a registry by game name.

Every module defines, in this order: ``PLAYOUT_PLIES`` (random plies before a playout is cut and
scored), ``SCALE`` (the evaluation difference worth about 73% winning chances) and
``evaluate(game, state, player)`` (how good ``state`` is for ``player``: positive is better).
A module may add, in this order, ``candidates(game, state)`` (the moves the search considers where
listing every legal move is too slow), ``random_move(game, state, rng)`` (a random move drawn
without listing them), ``finish(game, state, move)`` (the chosen candidate made a full move),
``prove(game, state, stop)`` (who wins with best play and a winning move, a
:class:`~powertwo.solvers.players.proof.Proof` of an exact endgame search, or ``None`` when
``stop(positions visited)`` says the search went too far) with ``KERNEL``, the compiled kernel it
uses (:mod:`powertwo.solvers.kernels`), and ``SEARCH = "alphabeta"`` (the game is searched by
alpha-beta, :mod:`..alphabeta`, instead of the Monte-Carlo tree search).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from powertwo.rules import GAME_MODULES
from powertwo.solvers.players.proof import Proof


@dataclass(frozen=True)
class Evaluation:
    """How the player scores a cut playout in one game, and which moves it considers."""

    game_name: str
    playout_plies: int
    scale: float
    evaluate: Callable[[Any, Any, int], float]
    candidates: Callable[[Any, Any], list] | None = None
    random_move: Callable[[Any, Any, Any], Any] | None = None
    finish: Callable[[Any, Any, Any], Any] | None = None
    prove: Callable[[Any, Any, Callable[[int], bool]], Proof | None] | None = None
    search: str = "mcts"
    """``"mcts"`` (the Monte-Carlo tree search) or ``"alphabeta"``."""
    kernel: str | None = None
    """The compiled kernel ``prove`` uses, when it uses one."""


def _load(module_name: str) -> Evaluation:
    module = import_module(f"{__name__}.{module_name}")
    return Evaluation(module_name.replace("_", "-"), module.PLAYOUT_PLIES, module.SCALE, module.evaluate,
                      getattr(module, "candidates", None), getattr(module, "random_move", None),
                      getattr(module, "finish", None), getattr(module, "prove", None),
                      getattr(module, "SEARCH", "mcts"), getattr(module, "KERNEL", None))


EVALUATIONS: dict[str, Evaluation] = {e.game_name: e for e in map(_load, GAME_MODULES)}
"""The evaluation of every registered game, by game name."""


def evaluation_for(game_name: str) -> Evaluation | None:
    """The game's evaluation, or ``None`` for a game without one (its playouts then run to the end)."""
    return EVALUATIONS.get(game_name)


__all__ = ["EVALUATIONS", "Evaluation", "evaluation_for"]
