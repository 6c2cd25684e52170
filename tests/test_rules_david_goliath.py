"""David and Goliath (RULES.md 3): ranges, throws, reuse, the mandatory throw, the end, separation."""

from __future__ import annotations

import pytest

from powertwo.rules import IllegalMoveError, InvalidMoveError, Outcome, RecordError, get_game, validate_record
from powertwo.rules.david_goliath import DavidGoliathState, Hurl
from powertwo.rules.plain import david_goliath as plain

F = frozenset
# David's 15 thrown stones: 45 and 61 stand on the border, the rest inside
DAVID_15 = F({45, 61, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 34})


@pytest.fixture(scope="module")
def game():
    return get_game("david-goliath")


def texts(game, state):
    return [game.format_move(m) for m in game.legal_moves(state)]


@pytest.mark.slow
def test_perft_depths_1_to_3(game):
    # the plain module confirms depths 1 and 2
    start = game.start()
    assert [game.perft(start, d) for d in (1, 2, 3)] == [222, 26828, 2879032]
    plain_moves = [m for m in plain.candidates(game, start) if plain.check(game, start, m) is None]
    assert len(plain_moves) == 222
    assert sum(len([m for m in plain.candidates(game, s) if plain.check(game, s, m) is None])
               for s in (game._apply(start, m) for m in plain_moves)) == 26828


def test_start_and_player_names(game):
    assert game.start() == DavidGoliathState(60, 5)
    assert game.player_name(0) == "Light/David" and game.player_name(1) == "Dark/Goliath"
    with pytest.raises(RecordError, match="unknown start 'corners'"):
        game.start("corners")


def test_david_moves_any_distance_goliath_one_or_two(game):
    start = game.start()
    state = game.play(start, "60-64*63")  # David slides 4 nodes
    assert state.david == 64 and state.light_thrown == {63}
    assert game.play(state, "5-3*60").goliath == 3  # 2 nodes
    with pytest.raises(IllegalMoveError) as err:
        game.play(state, "5-2*1")
    assert str(err.value) == "move 2 (Dark/Goliath) 5-2*1: Goliath moves 1 or 2 nodes, not 3 (5-2)"
    with pytest.raises(IllegalMoveError, match="the way 64-60 passes over the stone on 63"):
        game.play(game.play(state, "5-4*3"), "64-60*61")
    with pytest.raises(IllegalMoveError, match="David stands on 60, not on 5"):
        game.play(start, "5-4*3")


def test_throw_ranges(game):
    start = game.start()
    with pytest.raises(IllegalMoveError) as err:
        game.play(start, "60-64*61")  # 64-63-62-61: 3 nodes
    assert err.value.reason == "David's throw reaches 1 or 2 nodes, not 3 (64-61)"
    state = game.play(start, "60-64*63")
    assert "5-3*60" in texts(game, state)  # Goliath throws 7 nodes, 3 to 60 along the long line
    with pytest.raises(IllegalMoveError, match="landing node 64 is occupied"):
        game.play(state, "5-3*64")
    assert game.play(state, "5-4*1").dark_thrown == {1}  # 3 nodes: beyond David's range, within Goliath's
    with pytest.raises(IllegalMoveError, match="4 and 61 are not on a common line"):
        game.play(state, "5-4*61")


def test_throw_is_mandatory_when_possible(game):
    with pytest.raises(IllegalMoveError) as err:
        game.play(game.start(), "60-45")
    assert err.value.reason == "a throw is possible (e.g. to 52), so it is mandatory"
    assert all(m.throw is not None for m in game.legal_moves(game.start()))


def test_thrown_stones_stay_and_block(game):
    state = game.play(game.start(), "60-45*30")
    assert state.light_thrown == {30} and state.reserve(0) == 14 and state.reserve(1) == 15
    state = game.play(state, "5-4*3")
    with pytest.raises(IllegalMoveError, match="destination 30 is occupied"):
        game.play(state, "45-30*16")


def test_reuse_of_interior_stones_when_the_reserve_is_empty(game):
    state = DavidGoliathState(60, 5, DAVID_15, F({2, 3}), to_move=0, ply=30)
    assert state.reserve(0) == 0
    moves = game.legal_moves(state)
    assert moves and all(m.pickup is not None and m.pickup not in (45, 61) for m in moves)
    assert {m.pickup for m in moves} == DAVID_15 - {45, 61}  # every interior stone; 2 and 3 lie on the border
    with pytest.raises(IllegalMoveError, match="David's reserve is empty: pick up a thrown stone not on a border line"):
        game.play(state, "60-56*52")
    with pytest.raises(IllegalMoveError, match="the stone on 45 stands on a border line and cannot be reused"):
        game.play(state, "60-56*52^45")
    after = game.play(state, "60-56*52^21")
    assert 21 not in after.light_thrown and 52 in after.light_thrown and after.reserve(0) == 0
    # an opponent's interior stone may be reused too (it keeps its colour)
    mixed = DavidGoliathState(60, 5, DAVID_15, F({2, 47}), to_move=0, ply=30)
    after = game.play(mixed, "60-56*52^47")
    assert after.dark_thrown == {2, 52} and after.light_thrown == DAVID_15
    with pytest.raises(IllegalMoveError, match="there is no thrown stone on 50 to pick up"):
        game.play(mixed, "60-56*52^50")


def test_no_pickup_while_the_reserve_holds_stones(game):
    state = game.play(game.play(game.start(), "60-45*30"), "5-4*3")
    with pytest.raises(IllegalMoveError, match="David's reserve still holds 14 stones: no stone may be picked up"):
        game.play(state, "45-60*61^30")


def test_loss_when_the_candidate_cannot_move(game):
    walled = DavidGoliathState(60, 5, F({45, 52, 56, 58, 61}), F(), to_move=0, ply=10)
    assert game.legal_moves(walled) == []
    assert game.outcome(walled) == Outcome(1, "David (Light) cannot move")
    with pytest.raises(IllegalMoveError, match=r"move 11 \(Light/David\) 60-45\*30: the game is over"):
        validate_record({"game": "david-goliath", "position": game.state_to_json(walled), "moves": ["60-45*30"]})
    # the last player able to move wins: Goliath, after a throw walls David in
    before = DavidGoliathState(60, 5, F({45, 52, 56, 58}), F(), to_move=1, ply=9)
    out = game.outcome(game.play(before, "5-4*3"))
    assert out is None  # 61 is still free
    boxed = DavidGoliathState(60, 62, F({45, 52, 56, 58}), F(), to_move=1, ply=9)
    after = game.play(boxed, "62-63*61")
    assert game.outcome(after) == Outcome(1, "David (Light) cannot move")


FENCED = DavidGoliathState(60, 5, F({45, 52, 56, 58, 62}), F(), to_move=0, ply=10)
"""David walled in with one free node (61); Goliath has the rest of the board."""
BOTH_FENCED = DavidGoliathState(60, 5, F({45, 52, 56, 58, 62}), F({3, 7, 9, 13, 20}), to_move=0, ply=20)
"""Each candidate with one free node: David 61, Goliath 4."""


def test_separation_report_is_an_aid_only(game):
    assert game.separation(FENCED) == {"david": 1, "goliath": 56}
    assert game.notes(FENCED) == ["the candidates are separated: David reaches 1 free node, Goliath 56 "
                                  "(adjudication aid: Goliath has more room; the game goes on without the option "
                                  "count_win)"]
    assert game.outcome(FENCED) is None and texts(game, FENCED) == ["60-61*60"]
    assert game.separation(game.start()) is None and game.notes(game.start()) == []


def test_count_win_ends_a_separated_game_with_more_free_nodes():
    counting = get_game("david-goliath", count_win=True)
    assert counting.outcome(FENCED) == Outcome(1, "the candidates are separated and Goliath has more free nodes "
                                                  "to move in (1 to 56; option count_win)")
    assert counting.notes(FENCED) == ["the candidates are separated: David reaches 1 free node, Goliath 56 "
                                      "(Goliath has more room and wins: option count_win)"]
    assert counting.legal_moves(FENCED) == []
    assert plain.check(counting, FENCED, Hurl(60, 61, 60)) is not None
    assert plain.check(get_game("david-goliath"), FENCED, Hurl(60, 61, 60)) is None
    # David with more room: the winner is David, whoever is to move
    roomy = DavidGoliathState(60, 5, F(), F({3, 7, 9, 13, 20}), to_move=1, ply=12)
    assert counting.separation(roomy) == {"david": 56, "goliath": 1}
    assert counting.outcome(roomy) == Outcome(0, "the candidates are separated and David has more free nodes "
                                                 "to move in (56 to 1; option count_win)")
    assert get_game("david-goliath").outcome(roomy) is None
    # not separated: the option changes nothing
    assert counting.outcome(counting.start()) is None
    assert get_game("david-goliath", count_win="true").options["count_win"] is True


def test_count_win_equal_counts_play_on(game):
    counting = get_game("david-goliath", count_win=True)
    assert counting.separation(BOTH_FENCED) == {"david": 1, "goliath": 1}
    assert counting.outcome(BOTH_FENCED) is None and game.outcome(BOTH_FENCED) is None
    assert counting.notes(BOTH_FENCED) == ["the candidates are separated: David reaches 1 free node, Goliath 1 "
                                           "(equal counts: the game goes on)"]
    assert texts(counting, BOTH_FENCED) == texts(game, BOTH_FENCED) == ["60-61*60"]
    assert plain.check(counting, BOTH_FENCED, Hurl(60, 61, 60)) is None


def test_notation(game):
    assert game.parse_move("60-62*47^31") == Hurl(60, 62, 47, 31)
    assert game.parse_move(" 60-62 * 47 ") == Hurl(60, 62, 47)
    assert game.parse_move("60-62") == Hurl(60, 62)
    assert game.format_move(Hurl(60, 62, 47, 31)) == "60-62*47^31"
    for bad, why in [("", "empty move"), ("60", "is not a move FROM-TO"), ("60-62^31", "must follow a throw"),
                     ("60-62*99", "unknown node '99'"), ("60-62-63", "is not a move FROM-TO")]:
        with pytest.raises(InvalidMoveError, match=why):
            game.parse_move(bad)


def test_position_json(game):
    state = game.play(game.start(), "60-45*30")
    data = game.state_to_json(state)
    assert data == {"game": "david-goliath", "david": 45, "goliath": 5, "light_thrown": [30], "dark_thrown": [],
                    "to_move": "dark", "ply": 1}
    assert game.state_from_json(data) == state
    with pytest.raises(RecordError, match="^position: missing fields 'goliath', 'light_thrown', 'dark_thrown'$"):
        game.state_from_json({"david": 60})
    with pytest.raises(RecordError, match="position: node 45 holds two stones"):
        game.state_from_json(dict(data, light_thrown=[45]))
