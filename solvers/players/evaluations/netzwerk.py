"""Netzwerk: captures and the race to the opponent's home row decide, and a piece moves only with
energy, so count pieces, ranks gained and the energy near the pieces that still have to advance.

A start position has millions of turns (the energy phase multiplies them), so the search
considers one turn per result of the piece phase, with no energy move, and :func:`finish`
then adds the energy phase that brings the most energy toward the own pieces still short of
the goal row. Energy counts for a piece by its distance: a stone on one of the piece's four
points counts 1, one a step away :data:`NEAR`, two steps ``NEAR ** 2``, so a stone is drawn
step by step, over several turns, toward a piece that has none and cannot move.
"""

from __future__ import annotations

import random
from functools import lru_cache

from powertwo.rules.netzwerk import NetTurn, Netzwerk, NetzwerkGeometry, NetzwerkState, Nodes

PLAYOUT_PLIES = 0
SCALE = 3.0
NEAR = 0.3
"""The worth of an energy stone one step from a piece's points (a touching stone is worth 1)."""


def evaluate(game: Netzwerk, state: NetzwerkState, player: int) -> float:
    """Per piece: three, the ranks advanced and two on the goal row; per piece short of the goal row
    the energy by it (:func:`energy_weights`); own minus the opponent's."""
    xy, nearness = game.geometry.field_xy, _nearness(game.geometry)

    def side(p: int) -> float:
        goal, home = game.home_rank(1 - p), game.home_rank(p)
        score = sum(3 + abs(xy[f][1] - home) + (2 if xy[f][1] == goal else 0) for f in state.pieces[p])
        return score + sum(nearness[f][q] for f in state.pieces[p] if xy[f][1] != goal for q in state.energy)
    return side(player) - side(1 - player)


def energy_weights(game: Netzwerk, own: Nodes, opp: Nodes, me: int) -> list[float]:
    """The worth of an energy stone on each point (by bit index) to ``me``: its nearness to the own
    pieces short of the goal row, less one per opponent piece it touches (it would feed that piece)."""
    geo = game.geometry
    goal, nearness = game.home_rank(1 - me), _nearness(geo)
    weight = [0.0] * len(geo.points)
    for k, q in enumerate(geo.points):
        weight[k] = (sum(nearness[f][q] for f in own if geo.field_xy[f][1] != goal)
                     - sum(1 for f in geo.fields_of[q] if f in opp))
    return weight


@lru_cache(maxsize=8)
def _nearness(geo: NetzwerkGeometry) -> dict[int, dict[int, float]]:
    """For each field and point: 1 when the point touches the field, else NEAR to the power of the
    point's distance (in steps along the energy grid, diagonals counting one) to the field's points."""
    ij = geo.point_ij
    out = {}
    for f in geo.fields:
        corners = [ij[t] for t in geo.touch[f]]
        out[f] = {q: NEAR ** min(max(abs(ij[q][0] - i), abs(ij[q][1] - j)) for i, j in corners) for q in geo.points}
    return out


def candidates(game: Netzwerk, state: NetzwerkState) -> list[NetTurn]:
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
    return NetTurn(steps, game.geometry.energy_steps(tuple(phase.steps)))


def finish(game: Netzwerk, state: NetzwerkState, move: NetTurn) -> NetTurn:
    """The chosen piece phase with energy steps taken greedily while each brings energy nearer the
    own pieces short of the goal row (:func:`energy_weights`)."""
    after = game._apply(state, move)
    me = state.to_move
    own, opp = after.pieces[me], after.pieces[1 - me]
    weight = energy_weights(game, own, opp, me)
    phase = _EnergyPhase(game, state, own, opp)
    while True:
        best = max(phase.open_steps(), key=lambda st: weight[st[1]] - weight[st[0]], default=None)
        if best is None or weight[best[1]] - weight[best[0]] <= 1e-9:
            break
        phase.take(best)
    return NetTurn(move.pieces, game.geometry.energy_steps(tuple(phase.steps)))


class _EnergyPhase:
    """Phase (b) step by step on bit masks: the occupied points, the stones not yet moved, the lines used."""

    def __init__(self, game: Netzwerk, state: NetzwerkState, own: Nodes, opp: Nodes):
        me = state.to_move
        pieces = (own, opp) if me == 0 else (opp, own)
        bit = game.geometry.bit
        self.rays = game.geometry.energy_bit_rays
        self.current = sum(bit[p] for p in state.energy)
        self.unmoved = sum(bit[p] for p in game.movable_stones(state.energy, pieces, me))
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
