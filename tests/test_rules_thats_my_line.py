"""That's My Line (RULES.md 4): placements, forced passes, the end and the winner, the supply option."""

from __future__ import annotations

import pytest

from powertwo.rules import IllegalMoveError, Outcome, RecordError, get_game, validate_record
from powertwo.rules.plain import thats_my_line as plain
from powertwo.rules.thats_my_line import PASS, Place, ThatsMyLineState

# Dark stones on these nodes close every line for Light (every node shares a line with one of them).
DARK_COVER = frozenset({1, 3, 5, 35, 38, 49, 62})


def plain_perft(game, state, depth):
    if depth == 0:
        return 1
    moves = [m for m in plain.candidates(game, state) if plain.check(game, state, m) is None]
    return sum(plain_perft(game, game._apply(state, m), depth - 1) for m in moves)


@pytest.fixture(scope="module")
def game():
    return get_game("thats-my-line")


def test_perft_from_the_empty_board(game):
    start = game.start()
    assert [game.perft(start, d) for d in (1, 2, 3)] == [64, 3216, 160992]
    assert [plain_perft(game, start, d) for d in (1, 2, 3)] == [64, 3216, 160992]


def test_perft_depth_3_plain_agrees_on_a_subtree(game):
    state = game.play(game.start(), "26")
    assert plain_perft(game, state, 2) == game.perft(state, 2)


def test_placement_on_a_line_holding_an_opponent_stone_is_refused(game):
    state = game.play(game.start(), "62")  # Light on 62
    with pytest.raises(IllegalMoveError) as err:
        game.play(state, "60")
    assert str(err.value) == "move 2 (Dark) 60: node 60 lies on line 60-61-62-63-64, which holds a Light stone on 62"
    # own lines may be shared: Light may join its own line later
    state = game.play(state, "2")
    assert game.play(state, "60").light == {60, 62}


def test_placement_on_an_occupied_node_is_refused(game):
    state = game.play(game.start(), "26")
    with pytest.raises(IllegalMoveError, match="node 26 is occupied"):
        game.play(state, "26")


def test_forced_pass_when_no_free_node_is_open(game):
    state = ThatsMyLineState(frozenset(), DARK_COVER, to_move=0, ply=7, last_placer=1)
    assert game.legal_moves(state) == [PASS]
    assert game.outcome(state) is None
    after = game.play(state, "pass")
    assert after.to_move == 1 and after.last_placer == 1 and after.ply == 8
    with pytest.raises(IllegalMoveError, match="lies on line"):
        game.play(state, "30")


def test_pass_refused_when_a_placement_is_possible(game):
    with pytest.raises(IllegalMoveError) as err:
        game.play(game.start(), "pass")
    assert err.value.reason == "a player who can place must place (pass only when no placement is possible)"


def test_end_when_neither_can_place_more_stones_win():
    game = get_game("thats-my-line", stones=2)
    result = validate_record({"game": "thats-my-line", "options": {"stones": 2}, "moves": ["26", "60", "39", "64"]})
    assert result.outcome is not None and result.outcome.winner == 1  # 2 to 2, Dark placed last
    assert "Dark placed last" in result.outcome.reason
    # Light's supply of 2 is used up and Dark (5 stones in a position file) is closed everywhere
    state = ThatsMyLineState(frozenset({26, 39}), DARK_COVER - {62, 38}, to_move=1, ply=9, last_placer=0)
    out = game.outcome(state)
    assert out == Outcome(1, "neither can place; Dark placed more (2 to 5 stones)")


def test_winner_has_more_stones():
    stuck = ThatsMyLineState(frozenset(), DARK_COVER, to_move=0, ply=7, last_placer=1)
    small = get_game("thats-my-line", stones=7)
    out = small.outcome(stuck)
    assert out is not None and out.winner == 1 and out.reason == "neither can place; Dark placed more (0 to 7 stones)"
    assert small.legal_moves(stuck) == []


def test_a_move_after_the_end_is_refused():
    with pytest.raises(IllegalMoveError) as err:
        validate_record({"game": "thats-my-line", "options": {"stones": 1}, "moves": ["26", "60", "39"]})
    assert str(err.value) == ("move 3 (Light) 39: the game is over "
                              "(neither can place; equal counts (1 to 1 stones), Dark placed last)")


def test_stones_option():
    assert get_game("thats-my-line").supply == 16
    assert get_game("thats-my-line", stones="unlimited").supply is None
    assert get_game("thats-my-line", stones="5").supply == 5
    with pytest.raises(RecordError, match="option stones must be a number >= 0 or 'unlimited'"):
        get_game("thats-my-line", stones="many")
    one = get_game("thats-my-line", stones=1)
    state = one.play(one.play(one.start(), "26"), "60")
    assert one.legal_moves(state) == []
    # with a supply of 1, Light has no stone left: a placement names the supply
    state = ThatsMyLineState(frozenset({26}), frozenset(), to_move=0, ply=2, last_placer=1)
    assert one.legal_moves(state) == [PASS]
    with pytest.raises(IllegalMoveError, match=r"Light has no stone left \(supply 1\)"):
        one.play(state, "60")


def test_unlimited_supply_game_fills_every_open_node():
    game = get_game("thats-my-line", stones="unlimited")
    state = game.start()
    while game.outcome(state) is None:
        state = game.apply(state, game.legal_moves(state)[0])
    assert game.placeable(state, 0) == [] and game.placeable(state, 1) == []
    assert game.outcome(state).winner in (0, 1)


def test_notation(game):
    assert game.parse_move(" pass ") == PASS
    assert game.parse_move("17") == Place(17)
    assert game.format_move(Place(17)) == "17"
    from powertwo.rules import InvalidMoveError
    for bad in ("65", "0", "", "a1", "17-18"):
        with pytest.raises(InvalidMoveError):
            game.parse_move(bad)


def test_position_json_errors(game):
    with pytest.raises(RecordError, match="node 9 holds both a Light and a Dark stone"):
        game.state_from_json({"light": [9], "dark": [9]})
    with pytest.raises(RecordError, match="position field 'light': node 99 does not exist"):
        game.state_from_json({"light": [99], "dark": []})
    with pytest.raises(RecordError, match="position field 'to_move': must be 'light' or 'dark'"):
        game.state_from_json({"light": [], "dark": [], "to_move": "blue"})
    with pytest.raises(RecordError, match="^position: missing fields 'light', 'dark'$"):
        game.state_from_json({})  # not an empty board: the board's content must be written
