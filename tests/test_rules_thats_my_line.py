"""That's My Line (RULES.md 4): placements, forced passes, the end and the winner, the supply option.

The rules are tested on hand-made positions of ``power-of-two-sketch``; notation, records and
position JSON on the real board ``power-of-two``, by labels. Perft: tests/test_rules_perft.py."""

from __future__ import annotations

import pytest

from powertwo.boards import load as load_board
from powertwo.rules import IllegalMoveError, Outcome, RecordError, get_game, validate_record
from powertwo.rules.plain import thats_my_line as plain
from powertwo.rules.thats_my_line import PASS, Place, ThatsMyLineState

SKETCH = "power-of-two-sketch"  # the rule mechanics below are hand-made positions (node ids) of this board
# Dark stones on these nodes close every line for Light (every node shares a line with one of them).
DARK_COVER = frozenset({1, 3, 5, 35, 38, 49, 62})


def plain_perft(game, state, depth):
    if depth == 0:
        return 1
    moves = [m for m in plain.candidates(game, state) if plain.check(game, state, m) is None]
    return sum(plain_perft(game, game._apply(state, m), depth - 1) for m in moves)


def sketch_game(**options):
    return get_game("thats-my-line", load_board(SKETCH), **options)


@pytest.fixture(scope="module")
def game():
    return sketch_game()


@pytest.fixture(scope="module")
def real():
    return get_game("thats-my-line")


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
    game = sketch_game(stones=2)
    result = validate_record({"game": "thats-my-line", "board": SKETCH, "options": {"stones": 2},
                              "moves": ["26", "60", "39", "64"]})
    assert result.outcome is not None and result.outcome.winner == 1  # 2 to 2, Dark placed last
    assert "Dark placed last" in result.outcome.reason
    # Light's supply of 2 is used up and Dark (5 stones in a position file) is closed everywhere
    state = ThatsMyLineState(frozenset({26, 39}), DARK_COVER - {62, 38}, to_move=1, ply=9, last_placer=0)
    out = game.outcome(state)
    assert out == Outcome(1, "neither can place; Dark placed more (2 to 5 stones)")


def test_winner_has_more_stones():
    stuck = ThatsMyLineState(frozenset(), DARK_COVER, to_move=0, ply=7, last_placer=1)
    small = sketch_game(stones=7)
    out = small.outcome(stuck)
    assert out is not None and out.winner == 1 and out.reason == "neither can place; Dark placed more (0 to 7 stones)"
    assert small.legal_moves(stuck) == []


def test_a_move_after_the_end_is_refused():
    with pytest.raises(IllegalMoveError) as err:
        validate_record({"game": "thats-my-line", "board": SKETCH, "options": {"stones": 1},
                         "moves": ["26", "60", "39"]})
    assert str(err.value) == ("move 3 (Light) 39: the game is over "
                              "(neither can place; equal counts (1 to 1 stones), Dark placed last)")


def test_stones_option():
    assert get_game("thats-my-line").supply == 16
    assert get_game("thats-my-line", stones="unlimited").supply is None
    assert get_game("thats-my-line", stones="5").supply == 5
    with pytest.raises(RecordError, match="option stones must be a number >= 0 or 'unlimited'"):
        get_game("thats-my-line", stones="many")
    one = sketch_game(stones=1)
    state = one.play(one.play(one.start(), "26"), "60")
    assert one.legal_moves(state) == []
    # with a supply of 1, Light has no stone left: a placement names the supply
    state = ThatsMyLineState(frozenset({26}), frozenset(), to_move=0, ply=2, last_placer=1)
    assert one.legal_moves(state) == [PASS]
    with pytest.raises(IllegalMoveError, match=r"Light has no stone left \(supply 1\)"):
        one.play(state, "60")


def test_unlimited_supply_game_fills_every_open_node():
    game = sketch_game(stones="unlimited")
    state = game.start()
    while game.outcome(state) is None:
        state = game.apply(state, game.legal_moves(state)[0])
    assert game.placeable(state, 0) == [] and game.placeable(state, 1) == []
    assert game.outcome(state).winner in (0, 1)


# ---------------------------------------------------------------- the real board
def test_placements_and_errors_by_label(real):
    state = real.play(real.start(), "g13")
    with pytest.raises(IllegalMoveError) as err:
        real.play(state, "a13")
    assert str(err.value) == ("move 2 (Dark) a13: node a13 lies on line a13-e13-g13-i13-m13, "
                              "which holds a Light stone on g13")
    with pytest.raises(IllegalMoveError) as err:  # written by id, shown in labels too
        validate_record({"game": "thats-my-line", "moves": ["62", "26", "1", "64"]})
    assert str(err.value) == ("move 2 (Dark) 26 (c6): node c6 lies on line a1-b4-c5-c6-d7-e9-f11-g13, "
                              "which holds a Light stone on g13")
    # the first two moves alone are legal on power-of-two-sketch: a record without a board fingerprint
    # is then told so, with its first illegal move on its own board
    with pytest.raises(RecordError) as err:
        validate_record({"game": "thats-my-line", "moves": ["62", "26"]})
    assert str(err.value) == ("record: not valid on power-of-two (move 2 (Dark) 26 (c6): node c6 lies on line "
                              "a1-b4-c5-c6-d7-e9-f11-g13, which holds a Light stone on g13); valid on "
                              "power-of-two-sketch (made before the default board changed?): name it in the "
                              "record's field 'board'")
    after = validate_record({"game": "thats-my-line", "moves": ["g13", "e1"]}).final
    assert after == validate_record({"game": "thats-my-line", "moves": ["62", "2"]}).final
    assert (after.light, after.dark) == ({62}, {2})
    with pytest.raises(IllegalMoveError, match=r"^move 3 \(Light\) g13: node g13 is occupied$"):
        validate_record({"game": "thats-my-line", "moves": ["g13", "e1", "g13"]})


def test_notation(real):
    assert real.parse_move(" pass ") == PASS
    assert real.parse_move("g13") == real.parse_move("62") == Place(62)
    assert real.format_move(Place(62)) == "g13" and real.format_move(PASS) == "pass"
    from powertwo.rules import InvalidMoveError
    for bad, why in [("65", "unknown node '65'"), ("0", "unknown node '0'"), ("n1", "unknown node 'n1'"),
                     ("", "empty move (write a node, e.g. g13, or 'pass')"), ("g13-g10", "unknown node 'g13-g10'")]:
        with pytest.raises(InvalidMoveError) as err:
            real.parse_move(bad)
        assert str(err.value) == why


def test_position_json(real):
    state = real.play(real.play(real.start(), "g13"), "e1")
    data = real.state_to_json(state)
    assert data == {"game": "thats-my-line", "light": [62], "dark": [2], "to_move": "light", "ply": 2,
                    "last_placer": "dark"}
    assert real.state_from_json(data) == state
    assert real.state_from_json(dict(data, light=["g13"], dark=["e1"])) == state
    for change, message in [
        ({"light": ["c6"], "dark": ["c6"]}, "position: node c6 holds both a Light and a Dark stone"),
        ({"light": ["n1"]}, "position field 'light': node n1 does not exist on board power-of-two"),
        ({"light": [99]}, "position field 'light': node 99 does not exist on board power-of-two"),
        ({"to_move": "blue"}, "position field 'to_move': must be 'light' or 'dark', not 'blue'"),
    ]:
        with pytest.raises(RecordError) as err:
            real.state_from_json(data | change)
        assert str(err.value) == message
    with pytest.raises(RecordError, match="^position: missing fields 'light', 'dark'$"):
        real.state_from_json({})  # not an empty board: the board's content must be written
