"""The Power of Two (RULES.md 1-2): one test per rule, perft from both starts, starts and notation."""

from __future__ import annotations

import pytest

from powertwo.rules import IllegalMoveError, InvalidMoveError, Outcome, RecordError, get_game, validate_record
from powertwo.rules.plain import power_of_two as plain
from powertwo.rules.power_of_two import PowerOfTwoState, Turn, match_all

F = frozenset
# Light with 15 stones on the board (reserve 1); the slide 64-47 opens doorways 47-42 and 47-43
FIFTEEN = F({60, 64, 42, 43, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13})
DARK4 = F({1, 5, 22, 23})


@pytest.fixture(scope="module")
def game():
    return get_game("power-of-two")


def plain_perft(game, state, depth):
    if depth == 0:
        return 1
    moves = [m for m in plain.candidates(game, state) if plain.check(game, state, m) is None]
    return sum(plain_perft(game, game._apply(state, m), depth - 1) for m in moves)


def texts(game, state, frm=None):
    return [game.format_move(m) for m in game.legal_moves(state) if frm is None or m.frm == frm]


# ---------------------------------------------------------------- perft
@pytest.mark.parametrize("start, counts", [("standard", [66, 4278, 246348]), ("corners", [48, 2294, 86460])])
def test_perft_depths_1_to_3(game, start, counts):
    # the plain module confirms depths 1-2 here and depth 3 below
    state = game.start(start)
    assert [game.perft(state, d) for d in (1, 2, 3)] == counts
    assert [plain_perft(game, state, d) for d in (1, 2)] == counts[:2]


@pytest.mark.slow
@pytest.mark.parametrize("start, count", [("standard", 246348), ("corners", 86460)])
def test_perft_depth_3_by_the_plain_rules(game, start, count):
    assert plain_perft(game, game.start(start), 3) == count


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
    old = get_game("power-of-two", age_unserved=True)
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
    old = get_game("power-of-two", age_unserved=True)
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
    strict = get_game("power-of-two", exact_reserve=True)
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
    walled = PowerOfTwoState(F({60}), F({45, 52, 56, 58, 61}), to_move=0, ply=3)
    result = validate_record({"game": "power-of-two", "position": game.state_to_json(walled), "moves": []})
    assert result.outcome == Outcome(1, "Light has no legal move")
    with pytest.raises(IllegalMoveError, match=r"move 4 \(Light\) 60-45: the game is over \(Light has no legal move\)"):
        validate_record({"game": "power-of-two", "position": game.state_to_json(walled), "moves": ["60-45"]})


# ---------------------------------------------------------------- starts
def test_starts(game):
    assert game.start("standard") == PowerOfTwoState(F({60, 64, 42, 43}), F({1, 5, 22, 23}))
    assert game.start("corners") == PowerOfTwoState(F({60, 64}), F({1, 5}))
    assert game.spacing_fault([60, 64, 42, 43, 1, 5, 22, 23]) is None  # the standard start obeys the rule
    custom = game.start("custom:60,64,42,43/1,5,22,23")
    assert custom == game.start("standard")
    assert game.start("custom", light=[60, 64, 42, 43], dark=[1, 5, 22, 23]) == custom


def test_custom_start_spacing_rule_names_the_pair(game):
    with pytest.raises(RecordError) as err:
        game.start("custom:60,62,20,44/1,5,22,23")
    assert str(err.value) == ("custom start: start stones 60 and 62 lie on line 60-61-62-63-64 "
                              "with 1 node between them (at least 2 needed)")
    with pytest.raises(RecordError, match="start stones 60 and 61 lie on line 60-61-62-63-64 with 0 nodes between"):
        game.start("custom", light=[60, 61, 42, 43], dark=[1, 5, 22, 23])
    with pytest.raises(RecordError, match="custom start: Light needs 4 stones, not 3"):
        game.start("custom:60,64,42/1,5,22,23")
    with pytest.raises(RecordError, match="custom start: node 60 is used twice"):
        game.start("custom:60,64,42,43/60,5,22,23")
    with pytest.raises(RecordError, match="custom start: Dark: node 99 does not exist"):
        game.start("custom:60,64,42,43/99,5,22,23")
    with pytest.raises(RecordError, match="write a custom start as custom:L,L,L,L/D,D,D,D"):
        game.start("custom:60")
    with pytest.raises(RecordError, match="has no start position 'nowhere'"):
        game.start("nowhere")


def test_record_with_custom_start():
    record = {"game": "power-of-two", "start": "custom:60,64,42,43/1,5,22,23", "moves": ["42-31 +28", "1-2"]}
    result = validate_record(record)
    assert result.final.light == {28, 31, 43, 60, 64}
    with pytest.raises(IllegalMoveError) as err:
        validate_record(dict(record, moves=["42-31 +28", "22-28"]))
    assert str(err.value) == "move 2 (Dark) 22-28: destination 28 is occupied"


# ---------------------------------------------------------------- notation and JSON
def test_notation(game):
    assert game.format_move(Turn(42, 47, F({53, 46}))) == "42-47 +46 +53"
    assert game.parse_move(" 42-47  +53 +46 ") == Turn(42, 47, F({46, 53}))
    for bad, why in [("", "empty move"), ("42", "is not a slide"), ("42-", "is not a slide"),
                     ("42-99", "unknown node '99'"), ("42-47 46", "write each placement as \\+NODE"),
                     ("42-47 +46 +46", "placement 46 is written twice"), ("42-47 +", "write each placement")]:
        with pytest.raises(InvalidMoveError, match=why):
            game.parse_move(bad)


def test_position_json(game):
    state = game.play(game.start(), "42-31 +28")
    data = game.state_to_json(state)
    assert data == {"game": "power-of-two", "light": [28, 31, 43, 60, 64], "dark": [1, 5, 22, 23],
                    "aged": [31], "to_move": "dark", "ply": 1}
    assert game.state_from_json(data) == state
    with pytest.raises(RecordError, match="position field 'aged': node 30 holds no stone"):
        game.state_from_json(dict(data, aged=[30]))
    with pytest.raises(RecordError, match="field 'game' is 'netzwerk'"):
        game.state_from_json(dict(data, game="netzwerk"))
    with pytest.raises(RecordError, match="Light has 17 stones, at most 16"):
        game.state_from_json(dict(data, light=list(range(30, 47)), dark=[]))


def test_diagram_shows_fresh_and_aged_stones_and_the_last_move(game):
    from powertwo.boards.diagram import Arrow, Stone

    move = game.parse_move("42-31 +28")
    after = game.apply(game.start(), move)
    kw = game.diagram(after, move)
    assert Stone(31, "light", True) in kw["stones"] and Stone(28, "light", False) in kw["stones"]
    assert Stone(22, "dark", False) in kw["stones"] and len(kw["stones"]) == 9
    # the placed stone is ringed (node 28), no line is highlighted (line 28 does not hold node 28)
    assert kw["arrows"] == [Arrow((42, 31))] and kw["last"] == [28] and "highlight" not in kw
    assert kw["title"] == "The Power of Two: after move 1, Dark to play move 2"
