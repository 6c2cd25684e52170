"""The Power of Two (RULES.md 1-2): one test per rule, starts, notation, records and position JSON.

The rules themselves are tested on hand-made positions of ``power-of-two-sketch``; starts,
notation, records, position JSON and the errors a player sees on the real board ``power-of-two``,
by labels. Perft from both starts: tests/test_rules_perft.py."""

from __future__ import annotations

import pytest

from powertwo.boards import load as load_board
from powertwo.rules import IllegalMoveError, InvalidMoveError, Outcome, RecordError, get_game, validate_record
from powertwo.rules.plain import power_of_two as plain
from powertwo.rules.power_of_two import PowerOfTwoState, Turn, match_all

SKETCH = "power-of-two-sketch"  # the rule mechanics below are hand-made positions (node ids) of this board
F = frozenset
# Light with 15 stones on the board (reserve 1); the slide 64-47 opens doorways 47-42 and 47-43
FIFTEEN = F({60, 64, 42, 43, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13})
DARK4 = F({1, 5, 22, 23})


def sketch_game(**options):
    return get_game("power-of-two", load_board(SKETCH), **options)


@pytest.fixture(scope="module")
def game():
    return sketch_game()


@pytest.fixture(scope="module")
def real():
    return get_game("power-of-two")


def texts(game, state, frm=None):
    return [game.format_move(m) for m in game.legal_moves(state) if frm is None or m.frm == frm]


# ---------------------------------------------------------------- 1. move
def test_move_slides_along_a_line_never_over_a_stone(game):
    start = game.start()
    with pytest.raises(IllegalMoveError) as err:
        game.play(start, "60-30 +16")  # 60-45-30 is free: legal; now a blocked one
    assert err.value.reason == "the slide opens 0 doorways: place 0 stones, not 1"
    with pytest.raises(IllegalMoveError,
                       match=r"^move 1 \(Light\) 60-38: the slide 60-38 passes over the stone on 42$"):
        game.play(start, "60-38")
    with pytest.raises(IllegalMoveError, match="destination 22 is occupied"):
        game.play(start, "42-22")
    with pytest.raises(IllegalMoveError, match="60 and 2 are not on a common line"):
        game.play(start, "60-2")
    with pytest.raises(IllegalMoveError, match="the stone on 1 is Dark's"):
        game.play(start, "1-2")
    with pytest.raises(IllegalMoveError, match="Light has no stone on 30"):
        game.play(start, "30-31")


def test_move_is_mandatory_no_slide_no_turn(game):
    # Light on 60 is walled in by Dark on every neighbour: no legal move, Light loses
    walled = PowerOfTwoState(F({60}), F({45, 52, 56, 58, 61}), to_move=0, ply=10)
    assert game.legal_moves(walled) == []
    assert game.outcome(walled) == Outcome(1, "Light has no legal move")


# ---------------------------------------------------------------- 2./3. doorways and entry
def test_doorways_need_placements_chosen_by_the_mover(game):
    start = game.start()
    # 42-10 opens one doorway (10-1); it has two free third corners: the mover chooses
    assert texts(game, start, 42).count("42-10 +8") == 1 and "42-10 +16" in texts(game, start, 42)
    with pytest.raises(IllegalMoveError, match="the slide opens 1 doorway: place 1 stone, not 0"):
        game.play(start, "42-10")
    with pytest.raises(IllegalMoveError, match="placement 39 is not a third corner of any doorway of 31"):
        game.play(start, "42-31 +39")
    after = game.play(start, "42-31 +28")
    assert after.light == {28, 31, 43, 60, 64} and after.dark == DARK4


def test_blocked_doorway_of_figure_5_is_refused(game):
    # figure 5: 60-46 would open doorway 46-42, and 46, 42 have no third corner at all
    with pytest.raises(IllegalMoveError) as err:
        game.play(game.start(), "60-46")
    assert err.value.reason == ("blocked doorway: doorway 46-42 has no free third corner "
                                "(every doorway needs its own free third corner)")
    assert not any(m.frm == 60 and m.to == 46 for m in game.legal_moves(game.start()))


def test_doorway_matching_needs_distinct_third_corners(game):
    # 46-56 opens doorways 56-52 and 56-58; both have only the third corner 60: no matching
    state = PowerOfTwoState(F({46, 64}), F({52, 58, 1, 5}))
    with pytest.raises(IllegalMoveError) as err:
        game.play(state, "46-56 +60")
    assert err.value.reason == "blocked doorways: the doorways 56-52, 56-58 cannot each get their own free third corner"
    assert "46-60 +45 +56" in texts(game, state, 46)
    assert [m for m in game.legal_moves(state) if m.to == 56] == []
    # three doorways 31-22, 31-30, 31-42 with the third corners 28 / 28, 36 / 36 only
    crowded = PowerOfTwoState(F({60, 64, 42, 43}), F({1, 5, 22, 23, 30}))
    with pytest.raises(IllegalMoveError, match="the doorways 31-22, 31-30, 31-42 cannot each get"):
        game.play(crowded, "60-31 +28 +36")
    # from 42 the slide vacates 42: two doorways (31-22, 31-30) with their own corners 28 and 36
    assert [m for m in texts(game, crowded) if "-31" in m] == ["42-31 +28 +36"]
    assert match_all([(60,), (60,)]) is None and match_all([(60, 61), (60,)]) == {0: 61, 1: 60}


def test_placements_are_distinct_sets_one_per_doorway(game):
    state = PowerOfTwoState(F({46, 64}), F({52, 58, 1, 5}))
    # 46-60 opens doorways 60-52 (third corners 45, 56) and 60-58 (56, 61): three distinct sets
    assert texts(game, state, 46)[-3:] == ["46-60 +45 +56", "46-60 +45 +61", "46-60 +56 +61"]
    # a position from a seeded random game: 43 and 62 are both third corners of the same doorway only
    later = game.state_from_json({"light": [32, 42, 44, 51, 53], "dark": [19, 20, 22, 27, 37],
                                  "aged": [19, 42, 53], "to_move": "dark", "ply": 15})
    with pytest.raises(IllegalMoveError) as err:
        game.play(later, "37-47 +43 +62")
    assert err.value.reason == (
        "placements 43 62 cannot serve distinct doorways (each placed stone needs a doorway of its own)")
    # the order of writing does not matter: one turn
    assert game.parse_move("46-60 +61 +45") == game.parse_move("46-60 +45+61") == Turn(46, 60, F({45, 61}))


# ---------------------------------------------------------------- 4./5. ageing and retiring
def test_ageing_once_per_turn_moved_stone_and_own_doorway_stones(game):
    after = game.play(game.start(), "42-10 +8")
    assert after.aged == {10}  # the moved stone ages; Dark's doorway stone 1 is never changed
    # 46-60 opens doorways 60-52 (third corners 45, 56) and 60-58 (56, 61), both to own stones; both served
    state = PowerOfTwoState(F({46, 52, 58}), DARK4)
    after = game.play(state, "46-60 +45 +61")
    assert after.aged == {52, 58, 60}  # every own doorway stone and the moved one age, once
    assert 45 in after.light and 45 not in after.aged


def test_ageing_only_of_doorways_that_received_a_stone(game):
    # Light has 15 stones and 1 in reserve; 64-47 opens doorways 47-42 (third corner 50) and
    # 47-43 (third corner 51); the one stone serves 47-42 only: 43 keeps its side (Aktion 4)
    after = game.play(PowerOfTwoState(FIFTEEN, DARK4), "64-47 +50")
    assert after.aged == {42, 47}
    assert 50 in after.light and 50 not in after.aged
    assert game.play(PowerOfTwoState(FIFTEEN, DARK4), "64-47 +51").aged == {43, 47}


def test_aged_stone_of_an_unserved_doorway_stays_and_the_player_wins(game):
    # the example: an aged stone on 43, its doorway 47-43 gets no stone: 43 stays, 16 on the board
    state = PowerOfTwoState(FIFTEEN, DARK4, F({43}))
    after = game.play(state, "64-47 +50")
    assert after.light == FIFTEEN - {64} | {47, 50} and after.aged == {42, 43, 47}
    assert game.outcome(after) == Outcome(0, "Light has all 16 stones on the board")
    assert plain.apply(game, state, game.parse_move("64-47 +50")) == after
    # serving 47-43 instead retires 43
    after = game.play(state, "64-47 +51")
    assert 43 not in after.light and after.aged == {47} and game.outcome(after) is None
    assert plain.apply(game, state, game.parse_move("64-47 +51")) == after


def test_option_age_unserved_keeps_the_earlier_reading():
    old = sketch_game(age_unserved=True)
    state = PowerOfTwoState(FIFTEEN, DARK4, F({43}))
    after = old.play(state, "64-47 +50")  # 47-43 got no stone, but 43 retires all the same
    assert after.light == FIFTEEN - {64, 43} | {47, 50} and after.aged == {42, 47}
    assert old.outcome(after) is None
    assert plain.apply(old, state, old.parse_move("64-47 +50")) == after
    assert old.play(PowerOfTwoState(FIFTEEN, DARK4), "64-47 +50").aged == {42, 43, 47}
    assert get_game("power-of-two", age_unserved="true").age_unserved is True
    assert get_game("power-of-two").age_unserved is False


def test_no_ageing_when_the_reserve_is_empty(game):
    # Light has all 16 stones on the board but it is Light's turn (a position file may say so):
    # the slide opens doorways, none receives a stone, nobody ages; age_unserved ages them
    sixteen = FIFTEEN | {44}
    state = PowerOfTwoState(sixteen, DARK4, F({42}), to_move=0, ply=30)
    move = Turn(64, 47)
    assert game.is_legal(state, move)
    after = game.apply(state, move)
    assert after.aged == {42} and len(after.light) == 16
    assert plain.apply(game, state, move) == after
    old = sketch_game(age_unserved=True)
    after = old.apply(state, move)
    assert after.aged == {43, 47} and 42 not in after.light
    assert plain.apply(old, state, move) == after
    after = game.play(game.start(), "42-31 +28")
    assert after.aged == {31}  # the Dark doorway stone 22 is never changed
    assert after.dark == DARK4


def test_retiring_aged_doorway_stones(game):
    state = PowerOfTwoState(F({31, 60}), F({1, 5}), F({31}))
    after = game.play(state, "60-36 +30")  # doorway 36-31: 31 was aged, so it retires
    assert after.light == {30, 36} and after.aged == {36}
    assert after.reserve(0) == 14


def test_retiring_the_moved_stone_when_it_was_aged(game):
    state = PowerOfTwoState(F({31, 60}), F({1, 5}), F({60}))
    after = game.play(state, "60-36 +30")  # the moved stone was aged: it retires; 31 ages
    assert after.light == {30, 31} and after.aged == {31}


# ---------------------------------------------------------------- reserve
def test_short_reserve_places_what_it_has(game):
    state = PowerOfTwoState(FIFTEEN, DARK4)
    assert max(t.count("+") for t in texts(game, state, 64)) == 1  # one stone in reserve: never two placed
    assert [t for t in texts(game, state, 64) if t.startswith("64-47")] == ["64-47 +50", "64-47 +51"]
    with pytest.raises(IllegalMoveError,
                       match="the slide opens 2 doorways and the reserve holds 1: place 1 stone, not 2"):
        game.play(state, "64-47 +50 +51")


def test_exact_reserve_option_refuses_more_doorways_than_reserve():
    strict = sketch_game(exact_reserve=True)
    state = PowerOfTwoState(FIFTEEN, DARK4)
    with pytest.raises(IllegalMoveError) as err:
        strict.play(state, "64-47 +50")
    assert err.value.reason == "the slide opens 2 doorways but the reserve holds 1 (option exact_reserve)"
    assert get_game("power-of-two", exact_reserve="true").exact_reserve is True
    with pytest.raises(RecordError, match="option exact_reserve must be one of"):
        get_game("power-of-two", exact_reserve="maybe")


# ---------------------------------------------------------------- end
def test_win_after_a_completed_turn_with_16_on_the_board(game):
    after = game.play(PowerOfTwoState(FIFTEEN, DARK4), "64-47 +50")
    assert len(after.light) == 16
    assert game.outcome(after) == Outcome(0, "Light has all 16 stones on the board")
    assert game.legal_moves(after) == []


def test_no_win_when_the_16th_is_placed_but_one_retires(game):
    after = game.play(PowerOfTwoState(FIFTEEN, DARK4, F({42})), "64-47 +50")  # 50 serves doorway 47-42
    assert len(after.light) == 15 and 42 not in after.light
    assert game.outcome(after) is None
    assert plain.apply(game, PowerOfTwoState(FIFTEEN, DARK4, F({42})), Turn(64, 47, F({50}))) == after


def test_loss_when_no_legal_move(game):
    # every slide of Light's only stone opens a doorway without a free third corner
    walled = PowerOfTwoState(F({60}), F({45, 52, 56, 58, 61}), to_move=0, ply=4)
    result = validate_record({"game": "power-of-two", "board": SKETCH, "position": game.state_to_json(walled),
                              "moves": []})
    assert result.outcome == Outcome(1, "Light has no legal move")
    with pytest.raises(IllegalMoveError, match=r"move 5 \(Light\) 60-45: the game is over \(Light has no legal move\)"):
        validate_record({"game": "power-of-two", "board": SKETCH, "position": game.state_to_json(walled),
                         "moves": ["60-45"]})


# ---------------------------------------------------------------- the real board: starts
def test_starts(real):
    # RULES.md section 1: Light a13 m13 e9 i9, Dark a1 m1 e5 i5; corners: the outer corners only
    node = real.board.node
    assert real.start("standard") == PowerOfTwoState(F(map(node, ["a13", "m13", "e9", "i9"])),
                                                     F(map(node, ["a1", "m1", "e5", "i5"])))
    assert real.start("standard") == PowerOfTwoState(F({60, 64, 42, 44}), F({1, 5, 21, 23}))
    assert real.start("corners") == PowerOfTwoState(F({60, 64}), F({1, 5}))
    # RULES.md §1 (revised): two start stones on a common line are at least 2 steps apart, so the
    # standard start meets the custom starts' spacing rule (e9-g9-i9 has one node between)
    assert real.spacing_fault([60, 64, 42, 44, 1, 5, 21, 23]) is None
    custom = real.start("custom:a13,m13,c8,k8/a1,m1,c6,k6")
    assert custom == PowerOfTwoState(F({60, 64, 36, 39}), F({1, 5, 26, 29}))
    assert custom == real.start("custom:60,64,36,39/1,5,26,29")
    assert real.start("custom", light=["a13", "m13", "c8", "k8"], dark=[1, 5, "c6", "k6"]) == custom


def test_standard_and_corners_starts_typed_as_custom_are_accepted(real):
    # the standard start (4 each) and the corners start (2 each: custom takes 1 to 4, the same number each)
    assert real.start("custom:a13,m13,e9,i9/a1,m1,e5,i5") == real.start("standard")
    assert real.start("custom:a13,m13/a1,m1") == real.start("corners")
    assert real.start("custom:a13/m1") == PowerOfTwoState(F({60}), F({5}))
    assert real.perft(real.start("custom:a13,m13/a1,m1"), 2) == real.perft(real.start("corners"), 2) == 2388


def test_custom_start_spacing_rule_names_the_pair(real):
    with pytest.raises(RecordError) as err:
        real.start("custom:e9,f8,a13,m13/a1,m1,e5,i5")
    assert str(err.value) == ("custom start: start stones e9 and f8 are adjacent on line a13-c11-d10-e9-f8 "
                              "(start stones on a common line must be at least 2 steps apart)")
    with pytest.raises(RecordError) as err:
        real.start("custom", light=["a13", "e13", "c8", "k8"], dark=["a1", "m1", "c6", "k6"])
    assert str(err.value) == ("custom start: start stones a13 and e13 are adjacent on line a13-e13-g13-i13-m13 "
                              "(start stones on a common line must be at least 2 steps apart)")
    # a pair of different colours is refused the same way; one node between is enough (e9, g13)
    assert real.start("custom:e9,g13,a13,m13/a1,m1,e5,i5").light == F({42, 62, 60, 64})
    for text, message in [
        ("custom:a13,m13,c8/a1,m1,c6,k6", "custom start: Light has 3 stones and Dark 4; give each side the same "
                                          "number (1 to 4)"),
        ("custom:a13,m13,c8,k8,a9/a1,m1,c6,k6,m9", "custom start: Light has 5 stones; give each side 1 to 4, "
                                                   "the same number"),
        ("custom:/a1", "custom start: Light has 0 stones; give each side 1 to 4, the same number"),
        ("custom:a13,m13,c8,k8/a13,m1,c6,k6", "custom start: node a13 is used twice"),
        ("custom:a13,m13,c8,k8/n1,m1,c6,k6", "custom start: Dark: node n1 does not exist on board power-of-two"),
        ("custom:a13,m13,e9,i9/a1,m1,e5,g5", "custom start: start stones e5 and g5 are adjacent on line "
                                             "a5-c5-e5-g5-i5-k5-m5 (start stones on a common line must be at "
                                             "least 2 steps apart)"),
        ("custom:a13,m13,e9,i9/a1,m1,e5,f8", "custom start: start stones e9 and f8 are adjacent on line "
                                             "a13-c11-d10-e9-f8"),
        ("custom:a13", "start 'custom:a13': write a custom start as custom:L,L,L,L/D,D,D,D (1 to 4 stones each, "
                       "the same number; labels or ids)"),
        ("nowhere", "game power-of-two: board power-of-two has no start position 'nowhere' "),
    ]:
        with pytest.raises(RecordError) as err:
            real.start(text)
        assert str(err.value).startswith(message), str(err.value)


# ---------------------------------------------------------------- the real board: moves and errors in labels
def test_moves_are_written_with_labels(real):
    start = real.start()
    listed = texts(real, start, real.board.node("e9"))
    # e9-d7 opens one doorway, d7-e5 (Dark), with the free third corners c6 and e7: the mover chooses
    assert listed[:4] == ["e9-f11", "e9-g13", "e9-d7 +c6", "e9-d7 +e7"]
    assert real.parse_move("e9-d7 +c6") == real.parse_move("42-31 +26") == Turn(42, 31, F({26}))
    assert real.parse_move("e9-d7 +26") == Turn(42, 31, F({26}))  # labels and ids may be mixed


def test_slide_errors_name_the_nodes_by_label(real):
    start = real.start()
    for move, message in [
        ("a13-f8", "move 1 (Light) a13-f8: the slide a13-f8 passes over the stone on e9"),
        ("a13-e9", "move 1 (Light) a13-e9: destination e9 is occupied"),
        ("a13-g9", "move 1 (Light) a13-g9: a13 and g9 are not on a common line"),
        ("a1-e1", "move 1 (Light) a1-e1: the stone on a1 is Dark's"),
        ("a7-d7", "move 1 (Light) a7-d7: Light has no stone on a7"),
        ("e9-d7", "move 1 (Light) e9-d7: the slide opens 1 doorway: place 1 stone, not 0"),
        ("e9-d7 +c8", "move 1 (Light) e9-d7 +c8: placement c8 is not a third corner of any doorway of d7"),
        ("e9-f11 +e11", "move 1 (Light) e9-f11 +e11: the slide opens 0 doorways: place 0 stones, not 1"),
    ]:
        with pytest.raises(IllegalMoveError) as err:
            real.play(start, move)
        assert str(err.value) == message


def test_blocked_doorways_on_the_real_board(real):
    # a position of a seeded random game: Dark on b4 leaves doorway a5-a1 no third corner, and the
    # doorways i7-i5 and i7-i9 of m7-i7 share their only free third corner
    state = real.state_from_json({"light": ["m7", "e9", "i9", "a13"], "dark": ["a1", "m1", "c3", "b4", "i5"],
                                  "aged": ["a1", "c3"], "to_move": "light", "ply": 2})
    with pytest.raises(IllegalMoveError) as err:
        real.play(state, "a13-a5")
    assert str(err.value) == ("move 3 (Light) a13-a5: blocked doorway: doorway a5-a1 has no free third corner "
                              "(every doorway needs its own free third corner)")
    with pytest.raises(IllegalMoveError) as err:
        real.play(state, "m7-i7 +j7")
    assert err.value.reason == ("blocked doorways: the doorways i7-i5, i7-i9 cannot each get their own "
                                "free third corner")
    assert not any(m.to in (real.board.node("a5"), real.board.node("i7")) and m.frm in (60, 35)
                   for m in real.legal_moves(state))
    assert plain.check(real, state, real.parse_move("m7-i7 +j7")) is not None


# ---------------------------------------------------------------- the real board: records
def test_records_with_labels_or_ids_validate_alike(real):
    by_label = {"game": "power-of-two", "moves": ["e9-d7 +c6", "a1-e1", "d7-e7 +d7"]}
    by_id = {"game": "power-of-two", "moves": ["42-31 +26", "1-2", "31-32 +31"]}
    mixed = {"game": "power-of-two", "moves": ["e9-31 +c6", "1-e1", "d7-32 +31"]}
    finals = [validate_record(r).final for r in (by_label, by_id, mixed)]
    assert finals[0] == finals[1] == finals[2]
    # d7-e7 opens doorway e7-e5; the stone from d7 was aged, so it retires; d7 is placed again, fresh
    assert [real.board.label(v) for v in sorted(finals[0].light)] == ["c6", "d7", "i9", "a13", "m13"]
    assert finals[0].aged == F() and finals[0].dark == {2, 5, 21, 23}


def test_record_errors_show_labels(real):
    with pytest.raises(IllegalMoveError) as err:
        validate_record({"game": "power-of-two", "moves": ["e9-d7 +c6", "a1-e1", "c6-e9 +d7"]})
    assert str(err.value) == "move 3 (Light) c6-e9 +d7: the slide c6-e9 passes over the stone on d7"
    with pytest.raises(IllegalMoveError) as err:  # a move written by ids is shown in labels too
        validate_record({"game": "power-of-two", "moves": ["42-31 +26", "21-26"]})
    assert str(err.value) == "move 2 (Dark) 21-26 (e5-c6): destination c6 is occupied"
    with pytest.raises(InvalidMoveError) as err:
        validate_record({"game": "power-of-two", "moves": ["e9-d7 +c6", "a1-n1"]})
    assert str(err.value) == "move 2 (Dark) a1-n1: unknown node 'n1'"


def test_record_with_custom_start(real):
    record = {"game": "power-of-two", "start": "custom:a13,m13,c8,k8/a1,m1,c6,k6", "moves": ["c8-d7 +e5", "a1-e1"]}
    result = validate_record(record)
    assert [real.board.label(v) for v in sorted(result.final.light)] == ["e5", "d7", "k8", "a13", "m13"]
    with pytest.raises(IllegalMoveError) as err:
        validate_record(dict(record, moves=["c8-d7 +e5", "c6-e5"]))
    assert str(err.value) == "move 2 (Dark) c6-e5: destination e5 is occupied"


def test_record_on_another_board_carries_its_fingerprint(real):
    sketch = sketch_game()
    record = sketch.record(["42-31 +28"])
    assert record == {"game": "power-of-two", "board": SKETCH, "board_fingerprint": sketch.board.fingerprint,
                      "start": "standard", "moves": ["42-31 +28"]}
    assert validate_record(record).final.light == {28, 31, 43, 60, 64}
    assert real.record(["e9-d7 +c6"]) == {"game": "power-of-two", "start": "standard", "moves": ["e9-d7 +c6"]}
    # a record with a fingerprint is judged only against the board it was made for
    with pytest.raises(RecordError) as err:
        validate_record({k: v for k, v in record.items() if k != "board"})
    assert str(err.value) == f"record: made for board {SKETCH}, not for power-of-two (name it in field 'board')"
    with pytest.raises(RecordError) as err:
        validate_record(dict(record, board_fingerprint="0123456789abcdef"))
    assert str(err.value) == (f"record: made for a board with fingerprint 0123456789abcdef, but {SKETCH} has "
                              f"fingerprint {sketch.board.fingerprint}; name the board file it was made for "
                              f"in field 'board'")
    with pytest.raises(RecordError, match="^record: field 'board_fingerprint' must be a string$"):
        validate_record(dict(record, board_fingerprint=7))
    assert validate_record(dict(real.record(["e9-d7 +c6"]), board_fingerprint=real.board.fingerprint)).moves == (
        Turn(42, 31, F({26})),)


# ---------------------------------------------------------------- the real board: notation and JSON
def test_notation(real):
    assert real.format_move(Turn(60, 31, F({32, 26}))) == "a13-d7 +c6 +e7"
    assert real.parse_move(" a13-d7  +e7 +c6 ") == real.parse_move("a13-d7 +c6+e7") == Turn(60, 31, F({26, 32}))
    for bad, why in [("", "empty move (write FROM-TO +NODE ..., e.g. e9-d7 +c6)"),
                     ("e9", "'e9' is not a slide FROM-TO (e.g. e9-d7)"), ("e9-", "'e9-' is not a slide FROM-TO"),
                     ("e9-n7", "unknown node 'n7'"), ("e9-65", "unknown node '65'"),
                     ("e9-d7 c6", "'c6': write each placement as +NODE"),
                     ("e9-d7 +c6 +26", "placement 26 is written twice"), ("e9-d7 +", "'+': write each placement")]:
        with pytest.raises(InvalidMoveError) as err:
            real.parse_move(bad)
        assert str(err.value).startswith(why), str(err.value)


def test_position_json(real):
    state = real.play(real.start(), "e9-d7 +c6")
    data = real.state_to_json(state)
    assert data == {"game": "power-of-two", "light": [26, 31, 44, 60, 64], "dark": [1, 5, 21, 23],
                    "aged": [31], "to_move": "dark", "ply": 1}
    assert real.state_from_json(data) == state
    assert real.state_from_json({"light": ["c6", "d7", "i9", "a13", "m13"], "dark": ["a1", "m1", "e5", "i5"],
                                 "aged": ["d7"], "to_move": "dark", "ply": 1}) == state
    for change, message in [
        ({"aged": ["a7"]}, "position field 'aged': node a7 holds no stone"),
        ({"aged": ["d7", 31]}, "position field 'aged': node d7 is listed twice"),
        ({"dark": ["a1", "m1", "e5", "c6"]}, "position: node c6 holds both a Light and a Dark stone"),
        ({"light": ["n1"]}, "position field 'light': node n1 does not exist on board power-of-two"),
        ({"game": "netzwerk"}, "position: field 'game' is 'netzwerk', expected 'power-of-two'"),
        ({"light": list(range(30, 47)), "dark": [], "aged": []}, "position: Light has 17 stones, at most 16"),
    ]:
        with pytest.raises(RecordError) as err:
            real.state_from_json(data | change)
        assert str(err.value) == message


def test_diagram_shows_fresh_and_aged_stones_and_the_last_move(real):
    from powertwo.boards.diagram import Arrow, Stone

    move = real.parse_move("e9-d7 +c6")
    after = real.apply(real.start(), move)
    kw = real.diagram(after, move)
    assert Stone(31, "light", True) in kw["stones"] and Stone(26, "light", False) in kw["stones"]
    assert Stone(21, "dark", False) in kw["stones"] and len(kw["stones"]) == 9
    # the slide's arrow from e9 to d7, the placed stone c6 ringed
    assert kw["arrows"] == [Arrow((42, 31))] and kw["last"] == [26] and "highlight" not in kw
    assert kw["title"] == "The Power of Two: after move 1, Dark to play move 2"
