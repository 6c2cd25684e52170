"""Tower of Power (RULES.md §6): every rule by name, perft, fast against plain, malformed input."""

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from powertwo.rules import IllegalMoveError, InvalidMoveError, RecordError, get_game, validate_record
from powertwo.rules.plain import tower_of_power as plain
from powertwo.rules.tower_of_power import Step, TowerMove
from rules_fuzz import JSON_VALUES, check_parse, check_position, check_record

GAME = get_game("tower-of-power")


def pos(stacks, to_move="White", ply=None, game=GAME):
    if ply is None:  # the fewest moves after which this player is to move
        ply = 0 if to_move.lower() == "white" else 1
    return game.state_from_json({"stacks": stacks, "to_move": to_move, "ply": ply})


def stacks(state):
    return GAME.state_to_json(state)["stacks"]


def reason(state, text):
    return GAME.reason_illegal(state, GAME.parse_move(text, state))


def texts(state):
    return sorted(GAME.format_move(m) for m in GAME.legal_moves(state))


def plain_legal(state):
    return {m for m in plain.candidates(GAME, state) if plain.check(GAME, state, m) is None}


# ---------------------------------------------------------------- perft
@pytest.mark.parametrize("depth, count", [(1, 614), (2, 376308), pytest.param(3, 182677450, marks=pytest.mark.slow)])
def test_perft_from_the_start(depth, count):
    assert GAME.perft(GAME.start(), depth) == count


def test_generic_perft_agrees_with_the_counting_shortcut():
    # perft counts the last level with count_moves; building every move gives the same number
    start = GAME.start()
    assert sum(len(GAME.legal_moves(GAME.apply(start, m))) for m in GAME.moves(start)) == 376308
    assert GAME.moves(start).count() == len(GAME.legal_moves(start)) == 614
    for move in GAME.legal_moves(GAME.start())[::7]:
        child = GAME.apply(GAME.start(), move)
        assert GAME.count_moves(child) == len(GAME.legal_moves(child))


def test_plain_agrees_with_fast_at_the_start_and_after_sampled_first_moves():
    start = GAME.start()
    assert set(GAME.legal_moves(start)) == plain_legal(start)
    for move in random.Random(6).sample(GAME.legal_moves(start), 25):
        child = GAME.apply(start, move)
        assert set(GAME.legal_moves(child)) == plain_legal(child), GAME.format_move(move)


def random_position(rng):
    while True:  # at most the 15 stones of a side's start
        squares = rng.sample(list(GAME.board.nodes), rng.randint(2, 24))
        raw = {GAME.board.label(v): "".join(rng.choice("WB") for _ in range(rng.choice([1, 1, 1, 2, 3])))
               for v in squares}
        if all("".join(raw.values()).count(c) <= 15 for c in "WB"):
            return pos(raw, rng.choice(["White", "Black"]))


def test_plain_agrees_with_fast_on_seeded_random_positions():
    rng = random.Random(6)
    compared = 0
    for _ in range(40):
        state = random_position(rng)
        fast = GAME.legal_moves(state)
        assert set(fast) == plain_legal(state), GAME.render_text(state)
        assert GAME.count_moves(state) == len(fast)
        compared += len(fast)
    assert compared > 1000


def test_plain_agrees_with_fast_along_seeded_random_games():
    rng = random.Random(66)
    for _ in range(2):
        state = GAME.start()
        for _ in range(25):
            moves = GAME.legal_moves(state)
            assert set(moves) == plain_legal(state)
            if not moves:
                break
            state = GAME.apply(state, rng.choice(moves))


# ---------------------------------------------------------------- tower moves
def test_tower_move_lifts_the_top_stones_of_the_run_onto_the_base_and_sows_them():
    state = pos({"a1": "WW", "a2": "BW", "a3": "W", "h8": "B"})
    after = GAME.play(state, "a3-a1/b1")
    # the base keeps its stones; a2 loses its top and shows Black again; b1 and c1 receive one stone each
    assert stacks(after) == {"a1": "WW", "b1": "W", "c1": "W", "a2": "B", "h8": "B"}


def test_tower_that_may_not_be_sown_back_along_its_run_is_refused():
    state = pos({"a1": "W", "a2": "W", "a3": "W", "h8": "B"})
    with pytest.raises(IllegalMoveError) as err:
        GAME.play(state, "a3-a1/a2")
    assert str(err.value) == "move 1 (White) a3-a1/a2: the stones may not be sown back along their run (a3-a1/a2)"
    assert "a3-a1/a2" not in texts(state)
    # sowing straight on beyond the base, away from the run, is allowed
    assert GAME.play(state, "a1-a3/a4") is not None


def test_sowing_needs_a_square_for_every_stone():
    state = pos({"h5": "W", "h6": "W", "h7": "W", "a1": "B"})
    assert reason(state, "h5-h7/h8") == "2 stones to sow from h7 toward h8 but only 1 square there"
    assert reason(state, "h6-h7/h8") is None


def test_part_of_a_longer_run_may_build_a_tower():
    state = pos({"a1": "W", "a2": "W", "a3": "W", "a4": "W", "h8": "B"})
    assert {"a2-a4/a5", "a3-a4/a5", "a1-a4/a5", "a4-a2/b2"} <= set(texts(state))


def test_run_must_be_straight_unbroken_and_controlled_by_the_mover():
    state = pos({"a1": "W", "a2": "WB", "a3": "W", "c2": "W", "h8": "B"})
    assert reason(state, "a1-a3/b4") == "the run a1-a3 is broken: a2 is not controlled by White"
    assert reason(state, "a1-c2/d2") == "a1 and c2 are not two squares of one straight line"
    assert reason(state, "a1-a1/b1") == "a1 and a1 are not two squares of one straight line"
    assert reason(state, "a3-c2/d3") == "a3 and c2 are not two squares of one straight line"
    assert reason(state, "c2-a2/b3") == "the run c2-a2 is broken: a2 is not controlled by White"


def test_sowing_starts_on_a_neighbour_of_the_base():
    state = pos({"a1": "W", "a2": "W", "h8": "B"})
    assert reason(state, "a1-a2/c4") == "sowing starts next to the base: c4 is not next to a2"


def test_capture_removes_only_the_top_stone_of_an_enemy_tower():
    state = pos({"a1": "W", "b1": "W", "c1": "WBB", "h8": "B"})
    after = GAME.play(state, "a1-b1/c1")
    assert stacks(after) == {"b1": "W", "c1": "WBW", "h8": "B"}


def test_sown_stones_stack_on_own_and_fill_empty_squares_and_pass_over_anything():
    state = pos({"a1": "W", "a2": "W", "a3": "W", "a4": "W", "b1": "BW", "c1": "B", "d1": "BB", "h8": "B"})
    after = GAME.play(state, "a4-a1/b1")
    # b1 own tower grows, c1 Black single is captured, d1 Black tower loses its top only
    assert stacks(after) == {"a1": "W", "b1": "BWW", "c1": "W", "d1": "BW", "h8": "B"}


def test_capturing_is_not_compulsory():
    state = pos({"a1": "W", "b1": "W", "c1": "B", "h8": "B"})
    assert {"a1-b1/c1", "a1-b1/b2", "a1-b1/c2"} <= set(texts(state))


# ---------------------------------------------------------------- single steps
def test_isolated_stone_steps_one_square_in_any_direction():
    state = pos({"d4": "BW", "h8": "B"})
    assert texts(state) == ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e4", "d4-e5"]
    after = GAME.play(state, "d4-d5")
    assert stacks(after) == {"d4": "B", "d5": "W", "h8": "B"}


def test_single_step_of_a_stone_that_is_not_isolated_is_refused():
    state = pos({"d4": "W", "e5": "BW", "h8": "B"})
    assert reason(state, "d4-d5") == "the stone on d4 is not isolated (e5 is also controlled by White)"
    assert reason(state, "d4-d6") == "a single step goes to a neighbouring square; d6 is not next to d4"


def test_single_step_captures_the_top_stone():
    state = pos({"d4": "W", "d5": "WB", "h8": "B"})
    assert stacks(GAME.play(state, "d4-d5")) == {"d5": "WW", "h8": "B"}


def test_option_no_step_capture_keeps_steps_to_empty_squares():
    plain_game = get_game("tower-of-power", step_capture=False)
    state = pos({"d4": "W", "d5": "WB", "e5": "B", "h8": "B"}, game=plain_game)
    assert sorted(plain_game.format_move(m) for m in plain_game.legal_moves(state)) == [
        "d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3", "d4-e4"]
    assert plain_game.reason_illegal(state, Step(GAME.board.node("d4"), GAME.board.node("d5"))) == (
        "a single step may not capture (option step_capture off): d5 is controlled by Black")
    assert plain_game.count_moves(state) == 6
    legal = {m for m in plain.candidates(plain_game, state) if plain.check(plain_game, state, m) is None}
    assert legal == set(plain_game.legal_moves(state))
    assert len(GAME.legal_moves(state)) == 8  # the default: the step captures
    # tower moves still capture when sown
    sown = pos({"a1": "W", "a2": "W", "b2": "B", "h8": "B"}, game=plain_game)
    assert stacks(plain_game.play(sown, "a2-a1/b2")) == {"a1": "W", "b2": "W", "h8": "B"}
    assert get_game("tower-of-power", step_capture="false").options["step_capture"] is False


# ---------------------------------------------------------------- the end
def test_player_without_stones_loses():
    state = pos({"a1": "W", "b2": "B"})
    after = GAME.play(state, "a1-b2")
    out = GAME.outcome(after)
    assert (out.winner, out.reason) == (0, "Black has no stones")
    assert GAME.legal_moves(after) == [] and GAME.perft(after, 1) == 0


def test_player_who_controls_no_square_has_no_legal_move_and_loses():
    state = pos({"a1": "BW", "b2": "W"}, to_move="Black")
    out = GAME.outcome(state)
    assert (out.winner, out.reason) == (0, "Black has no legal move (controls no square)")


def test_moving_is_compulsory_there_is_no_pass():
    with pytest.raises(InvalidMoveError):
        GAME.parse_move("pass")
    assert GAME.legal_moves(pos({"a1": "W", "h8": "B"}))


def test_threefold_repetition_is_a_draw():
    shuffle = ["a1-a2", "h8-h7", "a2-a1", "h7-h8"]
    result = validate_record({"game": "tower-of-power", "position": {"stacks": {"a1": "W", "h8": "B"}},
                              "moves": shuffle * 2})
    assert result.outcome.draw and result.outcome.reason == "threefold repetition (the position occurred 3 times)"
    assert GAME.outcome(result.states[-2]) is None  # one ply earlier only twice
    with pytest.raises(IllegalMoveError, match=r"move 9 \(White\) a1-a2: the game is over \(threefold"):
        validate_record({"game": "tower-of-power", "position": {"stacks": {"a1": "W", "h8": "B"}},
                         "moves": shuffle * 2 + ["a1-a2"]})


def test_optional_move_limit_draws_the_game():
    game = get_game("tower-of-power", move_limit=2)
    state = game.play(game.play(game.start(), "a4-a5/b5"), "h5-h4/g4")
    assert game.outcome(state).reason == "move limit of 2 plies reached"
    assert GAME.outcome(GAME.play(GAME.play(GAME.start(), "a4-a5/b5"), "h5-h4/g4")) is None
    with pytest.raises(RecordError, match=r"option move_limit must be a whole number >= 0, not -1"):
        get_game("tower-of-power", move_limit=-1)


# ---------------------------------------------------------------- notation, JSON, records
def test_notation_round_trip():
    for move in GAME.legal_moves(GAME.start()):
        assert GAME.parse_move(GAME.format_move(move)) == move
    assert GAME.parse_move("b2-b4/c5") == TowerMove(*(GAME.board.node(x) for x in ("b2", "b4", "c5")))
    assert GAME.parse_move("g5xf5") == Step(GAME.board.node("g5"), GAME.board.node("f5"))


@pytest.mark.parametrize("text, message", [
    ("b2-b4/", "cannot read 'b2-b4/': expected a tower move like b2-b4/c5 or a step like g5-f5"),
    ("b2-b9/c5", "'b2-b9/c5': unknown node 'b9'"),
    ("i1-h1", "'i1-h1': unknown node 'i1'"),
])
def test_bad_notation_is_refused_with_its_text(text, message):
    with pytest.raises(InvalidMoveError) as err:
        GAME.parse_move(text)
    assert str(err.value) == message


def test_position_json_round_trip_with_history():
    state = GAME.play(GAME.play(GAME.start(), "a4-a5/b5"), "h5-h4/g4")
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert data["stacks"]["b5"] == "W" and "a4" not in data["stacks"] and len(data["history"]) == 2
    assert GAME.state_from_json(data) == state


@pytest.mark.parametrize("data, message", [
    ({"stacks": {"a1": "WX"}},
     "position: field 'stacks': square a1 must hold stones written with W and B, bottom first, not 'WX'"),
    ({"stacks": {"q1": "W"}}, "position: field 'stacks': node q1 does not exist on board tower-of-power"),
    ({"stacks": []}, "position: field 'stacks' must map squares to stones like \"WWB\""),
    ({"stacks": {}, "history": [3]}, "position: history[0] must be an object with 'to_move' and 'stacks'"),
    ({"stacks": {}, "to_move": "Red"}, "position field 'to_move': must be 'white' or 'black', not 'Red'"),
    ({}, "position: missing field 'stacks'"),
])
def test_bad_positions_are_refused_naming_the_field(data, message):
    with pytest.raises(RecordError) as err:
        GAME.state_from_json(data)
    assert str(err.value) == message


def test_record_stops_at_the_first_illegal_move():
    with pytest.raises(IllegalMoveError) as err:
        validate_record({"game": "tower-of-power", "moves": ["a4-a5/b5", "h5-h4/g4", "a3-a1/a2"]})
    assert str(err.value) == ("move 3 (White) a3-a1/a2: the stones may not be sown back along their run (a3-a1/a2)")


def test_diagram_shows_tower_height_and_top_colour():
    state = pos({"a1": "W", "b1": "W", "c1": "WBB", "h8": "B"})
    move = GAME.parse_move("a1-b1/c1")
    kw = GAME.diagram(GAME.apply(state, move), move)
    by_node = {GAME.board.label(s.node): (s.color, s.text) for s in kw["stones"]}
    assert by_node == {"b1": ("light", ""), "c1": ("light", "3"), "h8": ("dark", "")}
    assert [a.path for a in kw["arrows"]] == [(GAME.board.node("a1"), GAME.board.node("b1")),
                                              (GAME.board.node("b1"), GAME.board.node("c1"))]


# ---------------------------------------------------------------- fuzzing
SQUARE = st.builds(lambda f, r: f"{f}{r}", st.sampled_from("abhiz"), st.integers(0, 10))
MOVE_TEXT = st.one_of(
    st.text(max_size=9),
    st.builds(lambda a, b, c: f"{a}-{b}/{c}", SQUARE, SQUARE, SQUARE),
    st.builds(lambda a, b: f"{a}-{b}", SQUARE, SQUARE),
)


@settings(max_examples=300, deadline=None)
@given(MOVE_TEXT)
def test_parse_move_either_reads_or_refuses_cleanly(text):
    check_parse(GAME, text)


@settings(max_examples=120, deadline=None)
@given(st.lists(MOVE_TEXT, max_size=6))
def test_validate_record_stops_with_a_rules_error_or_replays(moves):
    check_record(GAME, moves)


@settings(max_examples=150, deadline=None)
@given(JSON_VALUES)
def test_malformed_positions_raise_record_errors(data):
    check_position(GAME, data)
