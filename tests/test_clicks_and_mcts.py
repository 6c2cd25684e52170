"""The referee's click hook (``Game.click_options``: what may come next after some clicks) and
the generic Monte-Carlo tree search player, for every registered game."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from powertwo.cli import main
from powertwo.rules import Game, RulesError, game_names, get_game
from powertwo.solvers.players import choose_move
from powertwo.solvers.players.evaluations import EVALUATIONS


def walk_clicks(game, state, move) -> None:
    """Every click of ``move`` is offered after the clicks before it, and the last completes it."""
    clicks = game.move_clicks(move, state)
    for k, v in enumerate(clicks):
        options = game.click_options(state, clicks[:k])
        assert v in options.next, (game.name, game.format_move(move, state), k)
    done = game.click_options(state, clicks).complete
    assert game.format_move(move, state) in [game.format_move(m, state) for m in done]


@pytest.mark.parametrize("name", [n for n in game_names() if n != "netzwerk"])
def test_every_start_move_is_reachable_by_clicks(name):
    game = get_game(name)
    state = game.start()
    moves = game.legal_moves(state)
    for move in moves[::max(1, len(moves) // 60)]:  # at most ~60 moves walked (Tower of Power has 614)
        walk_clicks(game, state, move)
    first = game.click_options(state, ())
    assert first.next == {game.move_clicks(m, state)[0] for m in moves if game.move_clicks(m, state)}


def test_click_options_refuse_what_the_referee_refuses():
    game = get_game("power-of-two")
    state = game.start()
    e9, a1 = game.board.node("e9"), game.board.node("a1")
    options = game.click_options(state, (e9,))
    legal = {game.format_move(m, state) for m in game.legal_moves(state)}
    assert any(t.startswith("e9-") for t in legal)
    for v in game.board.nodes:
        started = any(t.split()[0] == f"e9-{game.board.label(v)}" for t in legal)
        assert (v in options.next) == started
    assert game.click_options(state, (a1,)).next == frozenset()  # a dark stone: not Light's


def test_netzwerk_clicks_agree_with_the_referee_without_listing_turns():
    game = get_game("netzwerk")
    state = game.start()
    b = game.board
    assert game.click_options(state, ()).next == {b.node(f"{c}1") for c in "abcdef"}
    for turn in game.moves(state).first(40):
        walk_clicks(game, state, turn)
    # a step the referee refuses is not offered: f1-f4 costs 3, f1's stones give 2
    assert b.node("f4") not in game.click_options(state, (b.node("f1"),)).next
    assert game.reason_illegal(state, game.parse_move("f1-f4", state))
    # where the turns can be listed, the lazy answer contains the generic one
    small = game.state_from_json({"game": "netzwerk", "to_move": "Player 1", "player1": ["a1"],
                                  "player2": ["f6"], "energy": ["e00", "e10"]})
    for turn in game.legal_moves(small):
        clicks = game.move_clicks(turn, small)
        for k in range(len(clicks) + 1):
            lazy, generic = game.click_options(small, clicks[:k]), Game.click_options(game, small, clicks[:k])
            assert generic.next <= lazy.next


@pytest.mark.parametrize("name", game_names())
def test_mcts_plays_a_legal_move_reproducibly(name):
    game = get_game(name)
    state = game.start()
    a = choose_move(game, state, playouts=3, seed=7, plies=4)
    b = choose_move(game, state, playouts=3, seed=7, plies=4)
    assert game.is_legal(state, a.move)
    assert game.format_move(a.move, state) == game.format_move(b.move, state)
    if EVALUATIONS[name].search == "alphabeta":  # 3 playouts' worth of positions, scored without a playout
        assert (a.playouts, a.positions) == (0, 30)
    else:
        assert (a.playouts, a.positions) == (3, 0)


def test_mcts_refuses_a_finished_game():
    game = get_game("thats-my-line", stones=1)
    state = game.play(game.play(game.start(), "1"), "64")
    while game.outcome(state) is None:
        state = game.apply(state, game.legal_moves(state)[0])
    with pytest.raises(RulesError, match="the game is over"):
        choose_move(game, state, playouts=1)


def test_play_against_the_computer():
    out = CliRunner().invoke(main, ["play", "thats-my-line", "--computer", "dark", "--seconds", "0.1"],
                             input="17\nquit\n")
    assert out.exit_code == 0, out.output
    line = next(t for t in out.output.splitlines() if t.startswith("computer (Dark) plays "))
    reply = line.split()[3]
    game = get_game("thats-my-line")
    assert game.is_legal(game.play(game.start(), "17"), game.parse_move(reply))


@pytest.mark.slow
def test_mcts_takes_a_win_in_one():
    """Player 1 captures Player 2's last piece (a1xa2) in 283 of the 1,277 turns; the search finds one."""
    game = get_game("netzwerk")
    state = game.state_from_json({"game": "netzwerk", "to_move": "player1", "player1": ["a1", "d1"],
                                  "player2": ["a2"], "energy": ["e00", "e10", "e01", "e11", "e30", "e40"]})
    turns = game.legal_moves(state)
    wins = [t for t in turns if game.outcome(game.apply(state, t)) is not None]
    assert (len(wins), len(turns)) == (283, 1277)
    found = choose_move(game, state, playouts=300, seed=1)
    assert game.outcome(game.apply(state, found.move)) == game.outcome(game.apply(state, wins[0]))
    assert found.value == 1.0
