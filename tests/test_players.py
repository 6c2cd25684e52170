"""The computer player (powertwo.solvers.players): legal, reproducible, takes a win in one, avoids a
move that allows one, finishes its playouts, and has its levels. Budgets are in playouts, never in time."""

from __future__ import annotations

import math
import random

import pytest

from powertwo.rules import RulesError, game_names, get_game
from powertwo.solvers.players import LEVELS, choose_move, moves_of, random_move, seconds_for
from powertwo.solvers.players.evaluations import EVALUATIONS
from powertwo.solvers.players.mcts import _Search

ALL = game_names()


def random_game(game, seed: int, limit: int = 3000):
    """The positions of one random game (by the player's random mover), from the start to its end."""
    rng, state = random.Random(seed), game.start()
    states = [state]
    while game.outcome(state) is None and len(states) < limit:
        state = game._apply(state, random_move(game, state, rng))
        states.append(state)
    return states


def wins_in_one(game, state) -> list:
    """The mover's moves that end the game at once in their favour (listed by the referee)."""
    me = state.to_move
    return [m for m in moves_of(game, state) if (o := game.outcome(game._apply(state, m))) and o.winner == me]


def test_levels_are_named_by_time():
    assert list(LEVELS) == ["easy", "normal", "strong"]
    assert LEVELS["easy"] < LEVELS["normal"] == 1.0 < LEVELS["strong"]
    assert seconds_for("strong") == LEVELS["strong"]
    with pytest.raises(RulesError, match="^level hard: unknown \\(choose one of easy, normal, strong\\)$"):
        seconds_for("hard")


def test_every_game_has_an_evaluation():
    assert set(EVALUATIONS) == set(ALL)


@pytest.mark.parametrize("name", ALL)
def test_legal_and_reproducible_moves(name):
    game = get_game(name)
    for state in (game.start(), random_game(game, 5, limit=7)[-1]):
        if game.outcome(state) is not None:
            continue
        a = choose_move(game, state, playouts=3, seed=3)
        b = choose_move(game, state, playouts=3, seed=3)
        assert a.move == b.move and a.playouts == b.playouts
        assert game.is_legal(state, a.move), game.format_move(a.move, state)


@pytest.mark.parametrize("name", ALL)
def test_a_random_playout_finishes_the_game(name):
    game = get_game(name)
    states = random_game(game, 11)
    assert game.outcome(states[-1]) is not None, f"{name}: no end after {len(states) - 1} plies"


@pytest.mark.parametrize("name", ALL)
def test_a_cut_playout_is_scored_by_the_evaluation(name):
    game = get_game(name)
    ev = EVALUATIONS[name]
    state = next(s for s in random_game(game, 2) if ev.evaluate(game, s, 0) != 0 and game.outcome(s) is None)
    value = _Search(game, random.Random(0), None, 0)._playout(state)
    assert value == pytest.approx(1 / (1 + math.exp(-ev.evaluate(game, state, 0) / ev.scale)))
    assert (value > 0.5) == (ev.evaluate(game, state, 1) < 0)


@pytest.mark.parametrize("name", ["power-of-two", "david-goliath", "thats-my-line", "tower-of-power", "netzwerk"])
def test_takes_a_win_in_one(name):
    game = get_game(name)
    for seed in range(40):
        found = next((s for s in random_game(game, seed) if game.outcome(s) is None and wins_in_one(game, s)), None)
        if found is not None:
            break
    assert found is not None
    move = choose_move(game, found, playouts=5, seed=1).move
    assert move in wins_in_one(game, found)


def first_threat(game, seed: int):
    """The first position of a random game, read from its end back, where some of the mover's moves
    allow the opponent a win in one and others do not (and the mover has no win in one)."""
    for state in reversed(random_game(game, seed)):
        if game.outcome(state) is not None or wins_in_one(game, state):
            continue
        moves = moves_of(game, state)
        allows = {m for m in moves if wins_in_one(game, game._apply(state, m))}
        if allows and len(allows) < len(moves):
            return state, allows
    return None


@pytest.mark.parametrize("name", ["power-of-two", "david-goliath"])
def test_avoids_a_move_that_allows_a_win_in_one(name):
    game = get_game(name)
    state, allows = next(found for seed in range(20) if (found := first_threat(game, seed)))
    move = choose_move(game, state, playouts=len(moves_of(game, state)) + 40, seed=1).move
    assert move not in allows, game.format_move(move, state)


def test_refuses_a_finished_game():
    game = get_game("thats-my-line")
    state = random_game(game, 1)[-1]
    with pytest.raises(RulesError, match="^the game is over: there is no move to choose$"):
        choose_move(game, state, playouts=1)
