"""David and Goliath (RULES.md 3): ranges, throws, reuse, the mandatory throw, the end, separation.

The rules are tested on hand-made positions of ``power-of-two-sketch``; the start, notation, records
and position JSON on the real board ``power-of-two``, by labels. Perft: tests/test_rules_perft.py."""

from __future__ import annotations

import pytest

from powertwo.boards import load as load_board
from powertwo.rules import IllegalMoveError, InvalidMoveError, Outcome, RecordError, get_game, validate_record
from powertwo.rules.david_goliath import DavidGoliathState, Hurl
from powertwo.rules.plain import david_goliath as plain

SKETCH = "power-of-two-sketch"  # the rule mechanics below are hand-made positions (node ids) of this board
F = frozenset
# David's 15 thrown stones: 45 and 61 stand on the border, the rest inside
DAVID_15 = F({45, 61, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 34})


def sketch_game(**options):
    return get_game("david-goliath", load_board(SKETCH), **options)


@pytest.fixture(scope="module")
def game():
    return sketch_game()


@pytest.fixture(scope="module")
def real():
    return get_game("david-goliath")


def texts(game, state):
    return [game.format_move(m) for m in game.legal_moves(state)]


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
        validate_record({"game": "david-goliath", "board": SKETCH, "position": game.state_to_json(walled),
                         "moves": ["60-45*30"]})
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
    counting = sketch_game(count_win=True)
    assert counting.outcome(FENCED) == Outcome(1, "the candidates are separated and Goliath has more free nodes "
                                                  "to move in (1 to 56; option count_win)")
    assert counting.notes(FENCED) == ["the candidates are separated: David reaches 1 free node, Goliath 56 "
                                      "(Goliath has more room and wins: option count_win)"]
    assert counting.legal_moves(FENCED) == []
    assert plain.check(counting, FENCED, Hurl(60, 61, 60)) is not None
    assert plain.check(sketch_game(), FENCED, Hurl(60, 61, 60)) is None
    # David with more room: the winner is David, whoever is to move
    roomy = DavidGoliathState(60, 5, F(), F({3, 7, 9, 13, 20}), to_move=1, ply=12)
    assert counting.separation(roomy) == {"david": 56, "goliath": 1}
    assert counting.outcome(roomy) == Outcome(0, "the candidates are separated and David has more free nodes "
                                                 "to move in (56 to 1; option count_win)")
    assert sketch_game().outcome(roomy) is None
    # not separated: the option changes nothing
    assert counting.outcome(counting.start()) is None
    assert sketch_game(count_win="true").options["count_win"] is True


def test_count_win_equal_counts_play_on(game):
    counting = sketch_game(count_win=True)
    assert counting.separation(BOTH_FENCED) == {"david": 1, "goliath": 1}
    assert counting.outcome(BOTH_FENCED) is None and game.outcome(BOTH_FENCED) is None
    assert counting.notes(BOTH_FENCED) == ["the candidates are separated: David reaches 1 free node, Goliath 1 "
                                           "(equal counts: the game goes on)"]
    assert texts(counting, BOTH_FENCED) == texts(game, BOTH_FENCED) == ["60-61*60"]
    assert plain.check(counting, BOTH_FENCED, Hurl(60, 61, 60)) is None


# ---------------------------------------------------------------- the real board
def test_start_on_the_real_board(real):
    assert real.start() == DavidGoliathState(real.board.node("a13"), real.board.node("m1")) == DavidGoliathState(60, 5)
    state = real.play(real.start(), "a13-e13*c11")
    assert (state.david, state.light_thrown, state.reserve(0)) == (61, {52}, 14)


def test_errors_name_the_nodes_by_label(real):
    start = real.start()
    for move, message in [
        ("a13-e13", "move 1 (Light/David) a13-e13: a throw is possible (e.g. to d12), so it is mandatory"),
        ("a13-e13*m13", "move 1 (Light/David) a13-e13*m13: David's throw reaches 1 or 2 nodes, not 3 (e13-m13)"),
        ("m1-i1*g1", "move 1 (Light/David) m1-i1*g1: David stands on a13, not on m1"),
    ]:
        with pytest.raises(IllegalMoveError) as err:
            real.play(start, move)
        assert str(err.value) == message
    with pytest.raises(IllegalMoveError) as err:
        validate_record({"game": "david-goliath", "moves": ["a13-e13*c11", "m1-e1*a1"]})
    assert str(err.value) == "move 2 (Dark/Goliath) m1-e1*a1: Goliath moves 1 or 2 nodes, not 3 (m1-e1)"
    with pytest.raises(IllegalMoveError) as err:  # written by ids, shown in labels too
        validate_record({"game": "david-goliath", "moves": ["60-61*52", "5-2*1"]})
    assert str(err.value) == "move 2 (Dark/Goliath) 5-2*1 (m1-e1*a1): Goliath moves 1 or 2 nodes, not 3 (m1-e1)"


def test_notation(real):
    assert real.parse_move("a13-e13*c11^e9") == real.parse_move("60-61*52^42") == Hurl(60, 61, 52, 42)
    assert real.parse_move(" a13-e13 * c11 ") == Hurl(60, 61, 52)
    assert real.parse_move("a13-e13") == Hurl(60, 61)
    assert real.format_move(Hurl(60, 61, 52, 42)) == "a13-e13*c11^e9"
    assert real.format_move(Hurl(60, 61)) == "a13-e13"
    for bad, why in [("", "empty move (write FROM-TO*THROWN, e.g. a13-e13*c11)"),
                     ("a13", "'a13' is not a move FROM-TO (e.g. a13-e13)"),
                     ("a13-e13^e9", "a picked-up stone (^NODE) must follow a throw (*NODE)"),
                     ("a13-e13*n9", "unknown node 'n9'"),
                     ("a13-e13-g13", "'a13-e13-g13' is not a move FROM-TO (e.g. a13-e13)")]:
        with pytest.raises(InvalidMoveError) as err:
            real.parse_move(bad)
        assert str(err.value) == why


def test_position_json(real):
    state = real.play(real.start(), "a13-e13*c11")
    data = real.state_to_json(state)
    assert data == {"game": "david-goliath", "david": 61, "goliath": 5, "light_thrown": [52], "dark_thrown": [],
                    "to_move": "dark", "ply": 1}
    assert real.state_from_json(data) == state
    assert real.state_from_json({"david": "e13", "goliath": "m1", "light_thrown": ["c11"], "dark_thrown": [],
                                 "to_move": "dark", "ply": 1}) == state
    with pytest.raises(RecordError, match="^position: missing fields 'goliath', 'light_thrown', 'dark_thrown'$"):
        real.state_from_json({"david": "a13"})
    with pytest.raises(RecordError) as err:
        real.state_from_json(dict(data, light_thrown=["e13"]))
    assert str(err.value) == "position: node e13 holds two stones"
    with pytest.raises(RecordError) as err:
        real.state_from_json(dict(data, goliath="e13"))
    assert str(err.value) == "position: David and Goliath both stand on e13"


# ---------------------------------------------------------------- option sling (RULES.md §3, added 2026-11-28)
@pytest.fixture(scope="module")
def sling():
    return get_game("david-goliath", sling=True)


def test_sling_david_picks_only_the_direction(real, sling):
    # from a9 (lines a9-c9-e9-..., a9-b10-c11-..., a13-a9-a7-a5-a1): David chooses 1 or 2 nodes in each
    # direction; the sling flies 2 where both nodes are free and 1 at the end of a line (a13)
    start = real.start()

    def from_a9(game, state):
        return sorted(game.format_move(m) for m in game.legal_moves(state) if m.to == game.board.node("a9"))

    assert from_a9(real, start) == ["a13-a9*a13", "a13-a9*a5", "a13-a9*a7", "a13-a9*b10", "a13-a9*c11",
                                    "a13-a9*c9", "a13-a9*e9"]
    assert from_a9(sling, start) == ["a13-a9*a13", "a13-a9*a5", "a13-a9*c11", "a13-a9*e9"]
    with pytest.raises(IllegalMoveError) as err:
        sling.play(start, "a13-a9*a7")
    assert str(err.value) == ("move 1 (Light/David) a13-a9*a7: with the sling David picks only the direction: "
                              "the stone thrown toward a7 flies 2 nodes, to a5 (option sling)")
    with pytest.raises(IllegalMoveError) as err:  # the sling's reach is still at most 2 nodes
        sling.play(start, "a13-a9*a1")
    assert err.value.reason == "David's throw reaches 1 or 2 nodes, not 3 (a9-a1)"
    # a stone 2 nodes on stops the sling at 1; a stone on the next node leaves that direction without a throw
    node = sling.board.node
    state = DavidGoliathState(node("a13"), node("m1"), F(), F({node("a5")}), to_move=0, ply=2)
    assert "a13-a9*a7" in from_a9(sling, state) and "a13-a9*a5" not in from_a9(sling, state)
    state = DavidGoliathState(node("a13"), node("m1"), F(), F({node("c9")}), to_move=0, ply=2)
    assert [t for t in from_a9(sling, state) if t.endswith(("c9", "e9"))] == []
    # Goliath throws as before
    after = sling.play(start, "a13-a9*a5")
    assert texts(sling, after) == texts(real, after)
    assert sling.perft(start, 1) == 141 and real.perft(start, 1) == 256


def test_sling_with_a_picked_up_stone(sling):
    # David's reserve is empty: the stone picked up from c9 leaves it before the throw, so toward c9
    # the sling flies on to e9; another pickup leaves c9 in the way (no throw that way)
    node = sling.board.node
    light = F(map(node, "c9 g5 g4 f3 h3 d4 j4 e3 i3 c3 k3 c5 k5 d2 j2".split()))
    state = DavidGoliathState(node("a13"), node("m1"), light, F(), to_move=0, ply=30)
    assert sling.play(state, "a13-a9*e9^c9").light_thrown == light - {node("c9")} | {node("e9")}
    for move, reason in [
        ("a13-a9*c9^c9", "with the sling David picks only the direction: the stone thrown toward c9 flies 2 nodes, "
                         "to e9 (option sling)"),
        ("a13-a9*e9^g5", "the way a9-e9 passes over the stone on c9"),
    ]:
        assert sling.reason_illegal(state, sling.parse_move(move)) == reason
        assert plain.check(sling, state, sling.parse_move(move)) == "not a possible throw"
    assert plain.check(sling, state, sling.parse_move("a13-a9*e9^c9")) is None


def test_sling_in_records_and_the_plain_referee(real, sling):
    # the option travels in the record's "options"; without it the same 1-node throw is David's choice
    record = sling.record(["a13-a9*a5", "m1-i1*g1"])
    assert record == {"game": "david-goliath", "options": {"sling": True}, "start": "standard",
                      "moves": ["a13-a9*a5", "m1-i1*g1"]}
    assert validate_record(record).game.options["sling"] is True
    with pytest.raises(IllegalMoveError) as err:
        validate_record({"game": "david-goliath", "options": {"sling": True}, "moves": ["a13-e13*g13"]})
    assert str(err.value) == ("move 1 (Light/David) a13-e13*g13: with the sling David picks only the direction: "
                              "the stone thrown toward g13 flies 2 nodes, to i13 (option sling)")
    assert validate_record({"game": "david-goliath", "moves": ["a13-e13*g13"]}).final.light_thrown == {62}
    with pytest.raises(RecordError, match="option sling must be one of false, true, not 'sometimes'"):
        get_game("david-goliath", sling="sometimes")
    # the plain referee's sling, read from RULES.md alone, gives the same moves from the start
    start = sling.start()
    accepted = {m for m in plain.candidates(sling, start) if plain.check(sling, start, m) is None}
    assert accepted == set(sling.legal_moves(start)) and len(accepted) == 141
