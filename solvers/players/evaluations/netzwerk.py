"""Netzwerk: captures and the race to the opponent's home row decide, and a piece moves only with
energy, so count pieces, ranks gained and energy stones touching the pieces.

A start position has millions of turns (the energy phase multiplies them), so the search
considers one turn per result of the piece phase, with no energy move, and :func:`finish`
then adds the energy phase that leaves the most energy by the own pieces.
"""

from __future__ import annotations

import random

from powertwo.rules.netzwerk import NetTurn, Netzwerk, NetzwerkState

PLAYOUT_PLIES = 0
SCALE = 3.0


def evaluate(game: Netzwerk, state: NetzwerkState, player: int) -> float:
    """Per piece: three, the ranks advanced, two on the goal row and one per touching energy stone;
    own minus the opponent's."""
    def side(p: int) -> int:
        goal, home = game.home_rank(1 - p), game.home_rank(p)
        return sum(3 + abs(game._xy[f][1] - home) + (2 if game._xy[f][1] == goal else 0)
                   + len(game.touch[f] & state.energy) for f in state.pieces[p])
    return float(side(player) - side(1 - player))


def candidates(game: Netzwerk, state: NetzwerkState) -> list:
    """One turn per distinct result of the piece phase, with no energy move."""
    if game.outcome(state) is not None:
        return []
    return [NetTurn(steps, ()) for steps in game.piece_phase_results(state).values()]


def random_move(game: Netzwerk, state: NetzwerkState, rng: random.Random) -> NetTurn | None:
    """A random turn: a piece-phase result drawn uniformly, then random energy steps (each further
    step with probability one half, drawn uniformly from the steps still open)."""
    results = list(game.piece_phase_results(state).items()) if game.outcome(state) is None else []
    if not results:
        return None
    (own, opp), steps = rng.choice(results)
    phase = _EnergyPhase(game, state, own, opp)
    while True:
        options = phase.open_steps()
        if not options or rng.random() < 0.5:
            break
        phase.take(rng.choice(options))
    return NetTurn(steps, game._energy_steps(tuple(phase.steps)))


def finish(game: Netzwerk, state: NetzwerkState, move: NetTurn) -> NetTurn:
    """The chosen piece phase with energy steps taken greedily while each puts more energy stones by
    the own pieces (less those by the opponent's)."""
    after = game._apply(state, move)
    me = state.to_move
    own, opp = after.pieces[me], after.pieces[1 - me]
    weight: dict[int, int] = {}
    for sign, fields in ((1, own), (-1, opp)):
        for f in fields:
            for p in game.touch[f]:
                k = game._bit[p].bit_length() - 1
                weight[k] = weight.get(k, 0) + sign
    phase = _EnergyPhase(game, state, own, opp)
    while True:
        best = max(phase.open_steps(), key=lambda st: weight.get(st[1], 0) - weight.get(st[0], 0), default=None)
        if best is None or weight.get(best[1], 0) - weight.get(best[0], 0) <= 0:
            break
        phase.take(best)
    return NetTurn(move.pieces, game._energy_steps(tuple(phase.steps)))


class _EnergyPhase:
    """Phase (b) step by step on bit masks: the occupied points, the stones not yet moved, the lines used."""

    def __init__(self, game: Netzwerk, state: NetzwerkState, own: frozenset, opp: frozenset):
        me = state.to_move
        pieces = (own, opp) if me == 0 else (opp, own)
        self.rays = game._energy_bit_rays
        self.current = sum(game._bit[p] for p in state.energy)
        self.unmoved = sum(game._bit[p] for p in game.movable_stones(state.energy, pieces, me))
        self.used = 0
        self.steps: list[tuple[int, int]] = []

    def open_steps(self) -> list[tuple[int, int, int]]:
        """Every step still open: (from bit, to bit, line): a stone not yet moved, along an unused line,
        to the next free point in that direction."""
        out = []
        rest = self.unmoved
        while rest:
            low = rest & -rest
            rest ^= low
            p = low.bit_length() - 1
            for line, ray in self.rays[p]:
                if not self.used >> line & 1:
                    q = next((q for q in ray if not self.current >> q & 1), None)
                    if q is not None:
                        out.append((p, q, line))
        return out

    def take(self, step: tuple[int, int, int]) -> None:
        p, q, line = step
        self.current ^= 1 << p | 1 << q
        self.unmoved ^= 1 << p
        self.used |= 1 << line
        self.steps.append((p, q))
