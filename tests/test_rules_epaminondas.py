"""Epaminondas (RULES.md §8): every rule by name, perft, fast against plain, malformed input."""

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from powertwo.rules import IllegalMoveError, InvalidMoveError, RecordError, get_game, validate_record
from powertwo.rules.epaminondas import PhalanxMove
from powertwo.rules.plain import epaminondas as plain
from rules_fuzz import JSON_VALUES, check_parse, check_position, check_record

GAME = get_game("epaminondas")


def pos(white, black, to_move="White", ply=None):
    if ply is None:  # the fewest moves after which this player is to move
        ply = 0 if to_move.lower() == "white" else 1
    return GAME.state_from_json({"white": white, "black": black, "to_move": to_move, "ply": ply})


def reason(state, text):
    return GAME.reason_illegal(state, GAME.parse_move(text, state))


def texts(state):
    return sorted(GAME.format_move(m) for m in GAME.legal_moves(state))


def plain_legal(state):
    return {m for m in plain.candidates(GAME, state) if plain.check(GAME, state, m) is None}


# ---------------------------------------------------------------- perft
@pytest.mark.parametrize("depth, count", [(1, 114), (2, 12996), (3, 1787292)])
def test_perft_from_the_start(depth, count):
    assert GAME.perft(GAME.start(), depth) == count


def test_plain_agrees_with_fast_on_every_position_after_one_move():
    # equal move sets at the root and at each of its 114 children = equal perft(2)
    start = GAME.start()
    assert set(GAME.legal_moves(start)) == plain_legal(start)
    total = 0
    for move in GAME.legal_moves(start):
        child = GAME.apply(start, move)
        moves = GAME.legal_moves(child)
        assert set(moves) == plain_legal(child), GAME.format_move(move)
        total += len(moves)
    assert total == 12996


def random_position(rng):
    squares = list(GAME.board.nodes)
    rng.shuffle(squares)
    nw, nb = rng.randint(1, 20), rng.randint(1, 20)
    white, black = squares[:nw], squares[nw:nw + nb]
    lab = GAME.board.label
    return pos([lab(v) for v in white], [lab(v) for v in black], rng.choice(["White", "Black"]))


def test_plain_agrees_with_fast_on_seeded_random_positions():
    rng = random.Random(8)
    compared = 0
    for _ in range(60):
        state = random_position(rng)
        fast = set(GAME.legal_moves(state))
        assert fast == plain_legal(state), GAME.render_text(state)
        compared += len(fast)
    assert compared > 500


def test_plain_agrees_with_fast_along_seeded_random_games():
    rng = random.Random(88)
    for _ in range(4):
        state = GAME.start()
        for _ in range(60):
            moves = GAME.legal_moves(state)
            assert set(moves) == plain_legal(state)
            if not moves:
                break
            state = GAME.apply(state, rng.choice(moves))


# ---------------------------------------------------------------- moving
def test_single_piece_moves_one_square_in_any_of_eight_directions():
    assert texts(pos(["e5"], ["a12"])) == ["e5-d4", "e5-d5", "e5-d6", "e5-e4", "e5-e6", "e5-f4", "e5-f5", "e5-f6"]


def test_phalanx_moves_along_its_line_by_one_to_n_squares():
    state = pos(["c3", "d4", "e5"], ["n12"])
    moves = texts(state)
    for text in ("c3-f6", "c3-g7", "c3-h8", "e5-b2", "e5-a1"):
        assert text in moves
    assert reason(state, "c3-i9") == "the phalanx of 3 from c3 moves at most 3 squares, not 4"
    # a1 is only 2 squares beyond c3 for the phalanx e5-d4-c3 moving down-left
    assert "e5-a1" in moves and reason(state, "e5-b2") is None


def test_any_contiguous_part_of_a_row_is_a_phalanx():
    state = pos(["a1", "a2", "a3", "a4"], ["n12"])
    moves = texts(state)
    # the front three, the front two and the front one all move up
    assert {"a2-a5", "a2-a7", "a3-a5", "a3-a6", "a4-a5"} <= set(moves)
    # the rear part cannot move up through its own front
    assert "a1-a6" in moves and "a1-a9" not in moves


def test_nothing_passes_over_a_piece():
    state = pos(["d3", "d4", "d5"], ["d7"])
    assert reason(state, "d3-d8") == "nothing passes over a piece: d7 is occupied"
    own = pos(["d4", "d5", "d7"], ["n12"])
    assert reason(own, "d4-d7") == "d7 is occupied by a White piece"


def test_move_must_follow_a_line_and_start_from_an_own_piece():
    state = pos(["d4"], ["e6"])
    assert reason(state, "d4-e6") == "e6 is not on a line through d4"
    assert reason(state, "e6-e5") == "e6 holds no White piece"
    assert reason(state, "c3-c4") == "c3 holds no White piece"


# ---------------------------------------------------------------- capturing
def test_larger_phalanx_captures_the_whole_opposing_run_on_its_line():
    state = pos(["c1", "c2", "c3", "c4"], ["c6", "c7", "c8", "h12"])
    after = GAME.play(state, "c1-c6")
    assert GAME.state_to_json(after)["white"] == ["c3", "c4", "c5", "c6"]
    assert GAME.state_to_json(after)["black"] == ["h12"]


def test_capture_takes_only_the_run_on_the_line_not_pieces_beyond_a_gap():
    state = pos(["c1", "c2", "c3"], ["c4", "c5", "c7"])
    after = GAME.play(state, "c1xc4")
    assert GAME.state_to_json(after)["black"] == ["c7"]
    assert GAME.state_to_json(after)["white"] == ["c2", "c3", "c4"]


def test_capture_ends_the_move_on_the_first_opposing_piece():
    state = pos(["c1", "c2", "c3"], ["c5", "n12"])
    assert reason(state, "c1-c6") == "nothing passes over a piece: c5 is occupied"
    assert reason(state, "c1-c5") is None


def test_equal_phalanx_that_tries_to_capture_is_refused():
    state = pos(["c1", "c2"], ["c3", "c4"])
    with pytest.raises(IllegalMoveError) as err:
        GAME.play(state, "c1-c3")
    assert str(err.value) == "move 1 (White) c1-c3: equal strength never captures: 2 against 2 on that line"
    assert "c1-c3" not in texts(state)


def test_weaker_phalanx_cannot_capture_a_stronger_run():
    state = pos(["c1", "c2"], ["c3", "c4", "c5"])
    assert reason(state, "c1-c3") == "a phalanx of 2 cannot capture a stronger run of 3"


def test_single_piece_never_captures():
    state = pos(["c2"], ["c3"])
    assert reason(state, "c2-c3") == "a single piece never captures"
    assert "c2-c3" not in texts(state)


def test_strength_counts_only_the_pieces_on_the_line_of_the_move():
    # Black's c4 stands in a horizontal row of three, but on the file it is alone
    state = pos(["c1", "c2"], ["b4", "c4", "d4"])
    assert reason(state, "c1-c4") is None


# ---------------------------------------------------------------- the end
def test_home_row_majority_that_the_opponent_could_still_equalise_is_not_yet_a_win():
    # White has just reached rank 12; Black is to move and can still reach rank 1
    state = pos(["c12", "a5"], ["e2", "h9"], to_move="Black", ply=9)
    assert GAME.outcome(state) is None
    equalised = GAME.play(state, "e2-e1")
    assert GAME.outcome(equalised) is None  # 1 against 1 at the start of White's turn


def test_home_row_majority_wins_at_the_start_of_the_own_turn():
    state = pos(["c12", "a5"], ["e2", "h9"], to_move="Black", ply=9)
    after = GAME.play(state, "h9-h8")
    out = GAME.outcome(after)
    assert out.winner == 0
    assert out.reason == "White has 1 on the opponent's home row against 0 at the start of their turn"
    assert GAME.legal_moves(after) == []
    with pytest.raises(IllegalMoveError, match=r"the game is over"):
        GAME.play(after, "a5-a6")


def test_player_without_pieces_loses():
    state = pos(["c1", "c2"], ["c3"])
    after = GAME.play(state, "c1xc3")
    assert GAME.outcome(after).winner == 0
    assert GAME.outcome(after).reason == "Black has no pieces"


def test_player_without_a_legal_move_loses():
    # Black's single a12 is boxed in by White pieces, and a single piece never captures
    boxed = pos(["a11", "b11", "b12", "n1"], ["a12"], to_move="Black")
    out = GAME.outcome(boxed)
    assert out.winner == 0 and out.reason == "Black has no legal move"
    assert GAME.legal_moves(boxed) == []


# ---------------------------------------------------------------- notation, JSON, records
def test_notation_round_trip_and_capture_mark():
    state = GAME.start()
    for move in GAME.legal_moves(state):
        assert GAME.parse_move(GAME.format_move(move)) == move
    assert GAME.parse_move("c4xc7") == PhalanxMove(GAME.board.node("c4"), GAME.board.node("c7"))


@pytest.mark.parametrize("text, message", [
    ("", "cannot read '': expected tail-head like a1-a3"),
    ("a1a3", "cannot read 'a1a3': expected tail-head like a1-a3"),
    ("a1-z3", "'a1-z3': unknown node 'z3'"),
    ("a1-a13", "'a1-a13': unknown node 'a13'"),
])
def test_bad_notation_is_refused_with_its_text(text, message):
    with pytest.raises(InvalidMoveError) as err:
        GAME.parse_move(text)
    assert str(err.value) == message


def test_position_json_round_trip_and_bad_fields():
    state = GAME.play(GAME.start(), "a1-a4")
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert data["to_move"] == "black" and data["ply"] == 1 and "a4" in data["white"]
    assert GAME.state_from_json(data) == state
    assert GAME.state_from_json(dict(data, to_move="Black")) == state  # the spelling of older files
    with pytest.raises(RecordError, match=r"square c3 is both white and black"):
        pos(["c3"], ["c3"])
    with pytest.raises(RecordError, match=r"field 'white': node z9 does not exist"):
        pos(["z9"], [])
    with pytest.raises(RecordError, match=r"field 'to_move': must be 'white' or 'black', not 'Red'"):
        pos(["a1"], ["a12"], to_move="Red")


def test_record_replays_and_stops_at_the_first_illegal_move():
    ok = validate_record({"game": "epaminondas", "moves": ["a1-a4", "a12-a9", "b2-b3"]})
    assert len(ok.moves) == 3 and ok.outcome is None and ok.final.to_move == 1
    with pytest.raises(IllegalMoveError) as err:
        validate_record({"game": "epaminondas", "moves": ["a1-a4", "a12-a9", "a4-a8"]})
    assert str(err.value) == "move 3 (White) a4-a8: the phalanx of 1 from a4 moves at most 1 square, not 4"
    with pytest.raises(InvalidMoveError) as err:
        validate_record({"game": "epaminondas", "moves": ["a1-a4", "a12"]})
    assert str(err.value) == "move 2 (Black) a12: cannot read 'a12': expected tail-head like a1-a3"


def test_start_names_a_start_position_not_a_file(tmp_path):
    # the rules read no files: a position file as the start is the CLI's job (tests/test_cli_games.py)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(GAME.state_to_json(pos(["a1"], ["n12"]))))
    with pytest.raises(RecordError, match="game epaminondas: board epaminondas has no start position"):
        GAME.start(str(path))


def test_diagram_shows_every_piece_and_the_last_move():
    state = GAME.start()
    move = GAME.parse_move("a1-a4")
    kw = GAME.diagram(GAME.apply(state, move), move)
    assert len(kw["stones"]) == 56 and kw["arrows"][0].path == (move.frm, move.to)
    assert {s.color for s in kw["stones"]} == {"light", "dark"}


# ---------------------------------------------------------------- fuzzing
SQUARE = st.builds(lambda f, r: f"{f}{r}", st.sampled_from("abcdmnoz"), st.integers(0, 14))
MOVE_TEXT = st.one_of(st.text(max_size=8), st.builds(lambda a, s, b: a + s + b, SQUARE, st.sampled_from("-x:"), SQUARE))


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
