"""Netzwerk (RULES.md §7): every rule by name, perft, fast against plain, malformed input."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from powertwo.rules import IllegalMoveError, InvalidMoveError, RecordError, get_game, validate_record
from powertwo.rules.netzwerk import MOVE_LIST_LIMIT, TooManyTurnsError
from powertwo.rules.plain import netzwerk as plain
from rules_fuzz import JSON_VALUES, check_parse, check_position, check_record

GAME = get_game("netzwerk")


def pos(p1, p2, energy, to_move="Player 1", game=GAME):
    return game.state_from_json({"player1": p1, "player2": p2, "energy": energy, "to_move": to_move})


def reason(state, text, game=GAME):
    return game.reason_illegal(state, game.parse_move(text))


def after(state, text, game=GAME):
    return game.state_to_json(game.play(state, text))


def plain_legal(state, game=GAME):
    return {m for m in plain.candidates(game, state) if plain.check(game, state, m) is None}


# the small endgame used for perft: one piece each, four energy stones
DUEL = dict(p1=["c2"], p2=["d5"], energy=["e12", "e22", "e34", "e44"])


# ---------------------------------------------------------------- perft and counting
def test_perft_from_the_start_counts_thirty_million_distinct_turns():
    # depth 2 would need the turn count of each of these 30 million positions: out of reach
    assert GAME.perft(GAME.start(), 1) == 30366414


def test_legal_moves_refuses_to_list_thirty_million_turns():
    with pytest.raises(TooManyTurnsError) as err:
        GAME.legal_moves(GAME.start())
    assert str(err.value) == ("Netzwerk: more than 2,000 distinct turns from this position, too many to list "
                              "(perft 1 counts them)")
    assert len(GAME.moves(GAME.start()).first(50)) == 50
    # the README quotes the same limit and the same message
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert f"refuses to list more than {MOVE_LIST_LIMIT:,} turns" in readme
    assert ("Netzwerk:\nmore than 2,000 distinct turns from this position, too many to list (perft 1 counts them)"
            in readme)


@pytest.mark.parametrize("depth, count", [(1, 31), (2, 1206), (3, 23047)])
def test_perft_from_a_small_endgame(depth, count):
    assert GAME.perft(pos(**DUEL), depth) == count


def test_plain_agrees_with_fast_on_the_endgame_to_depth_two():
    state = pos(**DUEL)
    root = GAME.legal_moves(state)
    assert set(root) == plain_legal(state)
    total = 0
    for turn in root:
        child = GAME.apply(state, turn)
        moves = GAME.legal_moves(child)
        assert set(moves) == plain_legal(child), GAME.format_move(turn)
        total += len(moves)
    assert total == 1206


def around(field):
    """The four energy points a field touches: field (f, r) touches (f-1, r-1), (f, r-1), (f-1, r), (f, r)."""
    f, r = ord(field[0]) - 96, int(field[1])
    return [f"e{i}{j}" for j in (r - 1, r) for i in (f - 1, f)]


def random_position(rng):
    fields = [f"{f}{r}" for f in "abcdef" for r in range(1, 7)]
    chosen = rng.sample(fields, rng.randint(2, 4))
    cut = rng.randint(1, len(chosen) - 1)
    near = sorted({p for f in chosen for p in around(f)})
    return pos(chosen[:cut], chosen[cut:], rng.sample(near, rng.randint(2, 5)), rng.choice(["Player 1", "Player 2"]))


def test_around_names_the_points_of_the_board_links():
    assert frozenset(GAME.board.node(p) for p in around("c2")) == GAME.geometry.touch[GAME.board.node("c2")]


@pytest.mark.parametrize("options", [{}, {"both_control_blocks": True}, {"strength_capture": True},
                                     {"compulsory_capture": True}, {"jump_opponents": True}])
def test_plain_agrees_with_fast_on_seeded_random_positions(options):
    game = get_game("netzwerk", **options)
    rng = random.Random(7)
    compared = 0
    for _ in range(12):
        state = random_position(rng)
        state = game.state_from_json(GAME.state_to_json(state))
        fast = game.legal_moves(state)
        cands = list(plain.candidates(game, state))
        accepted = {c for c in cands if plain.check(game, state, c) is None}
        assert set(fast) == accepted, game.render_text(state)
        for c in cands[::5]:
            assert game.is_legal(state, c) == (c in accepted), game.format_move(c)
        compared += len(fast)
    assert compared > 250


# ---------------------------------------------------------------- piece moves
def test_piece_moves_straight_forward_or_sideways_any_number_of_fields():
    state = pos(["c2"], ["f6"], around("c2"))
    assert reason(state, "c2-c5") is None  # 3 fields, 3 points from the 4 stones around c2
    assert reason(state, "c2-a2") is None
    assert reason(state, "c2-c1") == "c2-c1: a piece moves straight forward or sideways only"
    assert reason(state, "c2-d3") == "c2-d3: a piece moves straight forward or sideways only"
    player2 = pos(["a1"], ["c5"], ["e24", "e34"], to_move="Player 2")  # c5 touches e24 e34 e25 e35
    assert reason(player2, "c5-c3") is None and reason(player2, "c5-c6") is not None


def test_move_costs_fields_plus_own_pieces_jumped_plus_capture():
    # c2 touches e21 e31 e22 e32 (3 stones here); jumping c3 to c4 costs 2 + 1 = 3
    state = pos(["c2", "c3"], ["c5"], ["e21", "e31", "e22"])
    assert reason(state, "c2-c4") is None
    assert reason(state, "c2-c5").startswith("c2-c5: not enough energy (this move costs 5;")
    short = pos(["c2"], ["c4"], ["e21", "e31"])
    assert reason(short, "c2-c4") == ("c2-c4: not enough energy (this move costs 3; the piece moves so far need 3 "
                                      "points, the energy stones next to them can give 2)")
    assert reason(short, "c2-c3") is None


def test_opponent_pieces_cannot_be_jumped():
    state = pos(["c2"], ["c3", "f6"], around("c2"))
    assert reason(state, "c2-c4") == "c2-c4: a piece cannot jump over the opponent's piece on c3"


def test_capture_removes_the_opponent_piece_and_the_piece_that_captures_cannot_move_on():
    state = pos(["c2"], ["c3", "f6"], ["e21", "e31"])
    assert after(state, "c2xc3")["player2"] == ["f6"]
    with pytest.raises(IllegalMoveError) as err:
        GAME.play(state, "c2-c3 c3-c4")
    assert str(err.value) == "move 1 (Player 1) c2-c3 c3-c4: c3-c4: the piece on c3 has captured, which ended its move"


def test_each_piece_moves_at_most_once_per_turn():
    state = pos(["c2"], ["f6"], around("c2") + around("c3")[2:])
    assert reason(state, "c2-c3 c3-c4") == "c3-c4: the piece on c3 has already moved this turn"


def test_pieces_move_one_after_another_and_may_jump_pieces_that_already_moved():
    state = pos(["b2", "c2"], ["f6"], ["e11", "e21", "e12", "e22", "e31", "e32"])
    # b2 (touching e11 e21 e12 e22) slides right over c2: cost 2 + 1
    assert reason(state, "b2-d2") is None
    assert reason(state, "c2-c3 b2-d2") is None  # after c2 left, b2 passes freely: cost 2


def test_energy_stone_feeds_one_piece_once_per_turn_and_the_assignment_is_found():
    # c2 touches e21 and e31, d2 only e31: c2 must take e21 for d2 to move (a flow, not greedy)
    state = pos(["c2", "d2"], ["f6"], ["e21", "e31"])
    assert reason(state, "c2-c3 d2-d3") is None
    assert reason(state, "d2-d3 c2-c3") is None
    assert reason(state, "c2-c4 d2-d3").startswith("d2-d3: not enough energy")


def test_energy_supply_hall_condition_max_flow_and_backtracking_agree():
    # the generator and the validator decide by Hall's condition on bit masks, the validator reports the
    # shortfall by a networkx maximum flow, the plain module tries every assignment
    from powertwo.rules.netzwerk import _hall_ok

    rng = random.Random(3)
    fields = [f"{f}{r}" for f in "abcdef" for r in range(1, 7)]
    points = [f"e{i}{j}" for i in range(7) for j in range(7)]
    verdicts = set()
    for _ in range(300):
        energy = frozenset(GAME.board.node(p) for p in rng.sample(points, rng.randint(1, 12)))
        chosen = rng.sample(fields, rng.randint(1, 4))
        demands = [(GAME.board.node(f), rng.randint(1, 3)) for f in chosen]
        masks = [(GAME.geometry.mask(f, energy), c) for f, c in demands]
        hall = all(_hall_ok(masks[:k], *masks[k]) for k in range(len(masks)))
        flow = GAME._feedable_flow(demands, energy) == sum(c for _, c in demands)
        backtrack = plain._feedable([(GAME.board.label(f), c) for f, c in demands],
                                    {GAME.board.label(p) for p in energy})
        assert hall == flow == backtrack
        verdicts.add(hall)
    assert verdicts == {True, False}


def test_energy_stones_feed_either_player_regardless_of_control():
    # Player 2 controls e22 (b3 c3 against c2), yet Player 1's c2 may draw on it
    state = pos(["c2"], ["b3", "c3", "f6"], ["e22"])
    assert GAME.geometry.controllers(GAME.board.node("e22"), state.pieces) == (False, True)
    assert reason(state, "c2-b2") is None


def test_a_piece_without_energy_cannot_move_and_a_player_who_cannot_move_skips_phase_a():
    state = pos(["a1"], ["f6"], ["e66", "e56"])
    assert reason(state, "a1-a2").startswith("a1-a2: not enough energy")
    assert GAME.legal_moves(state)[0].pieces == ()
    assert reason(state, "pass") is None


def test_a_player_who_can_move_a_piece_must_move_one():
    state = pos(["c2"], ["f6"], ["e21"])
    assert reason(state, "pass") == "at least one piece must move in phase (a) (a piece of the mover can move)"


# ---------------------------------------------------------------- energy moves
def test_energy_stone_moves_to_the_next_free_point_jumping_stones():
    state = pos(["b1", "c1"], ["f6"], ["e11", "e21", "e31"])
    assert after(state, "b1-b2 e11-e41")["energy"] == ["e21", "e31", "e41"]
    assert reason(state, "b1-b2 e11-e51") == ("e11-e51: an energy stone goes to the next free point in its "
                                               "direction (the next free point is e41)")
    assert reason(state, "b1-b2 e11-e22") == "e11-e22: an energy stone moves straight along an energy line"


def test_energy_line_used_twice_in_one_turn_is_refused():
    state = pos(["b1", "c1", "d1"], ["f6"], ["e11", "e21", "e31"])
    assert reason(state, "b1-b2 e21-e01 e31-e30") is None  # two different lines
    with pytest.raises(IllegalMoveError) as err:
        GAME.play(state, "b1-b2 e21-e01 e31-e41")
    assert str(err.value) == ("move 1 (Player 1) b1-b2 e21-e01 e31-e41: e31-e41: the energy line e01-e61 is already "
                              "used this turn")


def test_energy_stone_nobody_controls_is_refused():
    state = pos(["b1"], ["f6"], ["e11", "e33"])
    with pytest.raises(IllegalMoveError) as err:
        GAME.play(state, "b1-b2 e33-e34")
    assert str(err.value) == "move 1 (Player 1) b1-b2 e33-e34: e33-e34: nobody controls the energy stone on e33"


def test_energy_stone_controlled_only_by_the_opponent_is_refused_and_shared_control_allows():
    # e33 touches c3 d3 c4 d4: Player 2 has c4 and d4 against Player 1's c3
    state = pos(["c3", "a1"], ["c4", "d4", "f6"], ["e00", "e33"])
    assert reason(state, "a1-a2 e33-e32") == (
        "e33-e32: the energy stone on e33 is controlled by Player 2, not by Player 1")
    even = pos(["c3", "a1"], ["c4", "f6"], ["e00", "e33"])
    assert reason(even, "a1-a2 e33-e32") is None  # one against one: both control it


def test_control_is_judged_after_the_piece_phase():
    state = pos(["c3"], ["f6"], ["e23"])
    # c3 touches e23; b3 touches it too, d3 does not
    assert reason(state, "c3-b3 e23-e24") is None
    assert reason(state, "c3-d3 e23-e22") == "e23-e22: nobody controls the energy stone on e23"


def test_energy_stone_moves_once_per_turn_and_no_piece_moves_after_an_energy_step():
    state = pos(["b1", "c1"], ["f6"], ["e11", "e21"])
    assert reason(state, "b1-b2 e11-e12 e12-e13") == "e12-e13: the energy stone on e12 has already moved this turn"
    with pytest.raises(InvalidMoveError) as err:
        GAME.parse_move("e11-e12 b1-b2")
    assert str(err.value) == ("'b1-b2' in 'e11-e12 b1-b2': piece steps come before energy steps "
                              "(once phase (b) starts no piece moves)")


# ---------------------------------------------------------------- the end
@pytest.mark.parametrize("pieces, on_row, wins", [(6, 3, True), (6, 2, False), (5, 3, True), (4, 2, True),
                                                  (3, 1, False), (3, 2, True), (2, 1, True), (1, 1, True)])
def test_win_by_half_the_remaining_pieces_on_the_far_row(pieces, on_row, wins):
    p1 = [f"{f}6" for f in "abcdef"[:on_row]] + [f"{f}4" for f in "abcdef"[:pieces - on_row]]
    state = pos(p1, ["a2"], ["e00"], to_move="Player 2")
    out = GAME.outcome(state)
    assert (out is not None and out.winner == 0) == wins
    if wins:
        assert out.reason == f"Player 1 has {on_row} of {pieces} pieces on the opponent's home row"


def test_win_by_capturing_every_opposing_piece():
    state = pos(["c2"], ["c3"], ["e21", "e31"])
    out = GAME.outcome(GAME.play(state, "c2xc3"))
    assert (out.winner, out.reason) == (0, "Player 1 has captured every opposing piece")


def test_mover_wins_when_both_qualify_after_a_turn():
    # Player 1 reaches rank 6 (1 of 2) by capturing c6; Player 2 is left with f1 on rank 1 of 2
    state = pos(["c5", "a3"], ["f1", "c6", "a4"], ["e24", "e34"])
    assert GAME.outcome(state) is None
    done = GAME.play(state, "c5xc6")
    assert GAME.outcome(done).winner == 0
    other_way = GAME.state_from_json({**GAME.state_to_json(done), "to_move": "Player 1",
                                          "ply": done.ply + 1})
    assert GAME.outcome(other_way).winner == 1  # had Player 2 made that turn, Player 2 would win


def test_capturing_can_make_the_opponent_win():
    # Player 1 has 5 pieces, 2 on rank 6; Player 2 captures one of the others: 2 of 4 is enough
    state = pos(["a6", "b6", "c3", "e3", "f3"], ["c4"], ["e33", "e34", "e23", "e24"], to_move="Player 2")
    out = GAME.outcome(GAME.play(state, "c4xc3"))
    assert (out.winner, out.reason) == (0, "Player 1 has 2 of 4 pieces on the opponent's home row")


# ---------------------------------------------------------------- variants
def test_variant_1_stone_both_control_cannot_move():
    game = get_game("netzwerk", both_control_blocks=True)
    even = pos(["c3", "d3"], ["c4", "d4"], ["e11", "e21", "e33", "e23"], game=game)
    assert reason(even, "d3-e3 e23-e22", game) == ("e23-e22: both players control the energy stone on e23, "
                                                   "so it cannot move (variant 1)")


def test_variant_2_capture_only_by_an_equal_or_stronger_piece():
    game = get_game("netzwerk", strength_capture=True)
    # c2 has strength 2 (e21, e22); c3 has 3 (e22, e23, e33) -> no capture; against 2 it may
    weak = pos(["c2"], ["c3"], ["e21", "e22", "e23", "e33"], game=game)
    assert reason(weak, "c2-c3", game) == "c2-c3: strength 2 cannot capture strength 3 (variant 2)"
    assert reason(weak, "c2-c3") is None
    even = pos(["c2"], ["c3"], ["e21", "e22", "e23"], game=game)
    assert reason(even, "c2-c3", game) is None


def test_variant_4_capture_is_compulsory():
    game = get_game("netzwerk", compulsory_capture=True)
    state = pos(["c2", "a1"], ["c3", "f6"], ["e21", "e31", "e00"], game=game)
    assert reason(state, "a1-a2", game) == "capture is compulsory (variant 4): c2-c3 is still possible"
    assert reason(state, "c2xc3", game) is None
    assert reason(state, "a1-a2") is None


def test_variant_5_opponent_pieces_may_be_jumped():
    game = get_game("netzwerk", jump_opponents=True)
    state = pos(["c2"], ["c3", "f6"], ["e21", "e31", "e22"], game=game)
    assert reason(state, "c2-c4", game) is None
    assert after(state, "c2-c4", game)["player2"] == ["c3", "f6"]


# ---------------------------------------------------------------- turns as results, notation, JSON, records
def test_two_turns_with_the_same_result_are_the_same_move():
    state = pos(["c2", "c3"], ["f6"], sorted(set(around("c2") + around("c3"))))
    one = GAME.parse_move("c3-c4 c2-c3", state)
    two = GAME.parse_move("c2-c4 c3-c5", state)  # c2 jumps c3 (cost 3), then c3 moves on (cost 2)
    three = GAME.parse_move("c3-c5 c2-c4", state)
    assert one != three and two == three
    moves = list(GAME.pseudo_legal_moves(state))  # more than legal_moves lists
    assert three in moves and len(moves) == len(set(moves)) == GAME.perft(state, 1) > 2000
    # without a position turns compare by their steps
    assert GAME.parse_move("c2-c4 c3-c5") != GAME.parse_move("c3-c5 c2-c4")


def test_notation_round_trip_on_every_turn_of_the_endgame():
    state = pos(**DUEL)
    for turn in GAME.legal_moves(state):
        text = GAME.format_move(turn, state)
        assert GAME.parse_move(text, state) == turn
        assert GAME.apply(state, GAME.parse_move(text)) == GAME.apply(state, turn)


@pytest.mark.parametrize("text, message", [
    ("", "an empty turn is written 'pass'"),
    ("a1a2", "cannot read 'a1a2' in 'a1a2': expected steps like a1-a3 or e21-e22"),
    ("a1-e11", "'a1-e11': a step goes from field to field or from point to point"),
    ("a1-a9", "'a1-a9': unknown node 'a9'"),
    ("e11-e17", "'e11-e17': unknown node 'e17'"),
])
def test_bad_notation_is_refused_with_its_text(text, message):
    with pytest.raises(InvalidMoveError) as err:
        GAME.parse_move(text)
    assert str(err.value) == message


def test_position_json_round_trip_and_bad_fields():
    state = GAME.start()
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert data["player1"] == ["a1", "b1", "c1", "d1", "e1", "f1"] and len(data["energy"]) == 14
    assert GAME.state_from_json(data) == state
    with pytest.raises(RecordError, match=r"field 'energy': 'a1' is not a energy point"):
        pos(["a1"], ["b2"], ["a1"])
    with pytest.raises(RecordError, match=r"field c3 holds pieces of both players"):
        pos(["c3"], ["c3"], [])
    with pytest.raises(RecordError, match=r"field 'player1': 'e11' is not a field"):
        pos(["e11"], [], [])


def test_record_of_a_few_turns_and_the_first_illegal_turn():
    moves = ["a1-a2 b1-b2 e01-e00", "a6-a5 f6-f5", "c1-c3"]
    result = validate_record({"game": "netzwerk", "moves": moves})
    assert result.final.ply == 3 and "c3" in GAME.state_to_json(result.final)["player1"]
    with pytest.raises(IllegalMoveError) as err:
        validate_record({"game": "netzwerk",
                         "moves": moves[:2] + ["c1-c3 e11-e12 e21-e22 e31-e32 e41-e42 e51-e52 e61-e62 e62-e63"]})
    assert str(err.value).startswith("move 3 (Player 1) ")
    assert str(err.value).endswith("e62-e63: the energy stone on e62 has already moved this turn")


def test_first_player_option():
    game = get_game("netzwerk", first_player="Player 2")
    assert game.start().to_move == 1
    with pytest.raises(RecordError, match=r"option first_player must be one of"):
        get_game("netzwerk", first_player="Player 3")


def test_diagram_shows_energy_stones_on_the_lattice():
    state = GAME.start()
    turn = GAME.parse_move("a1-a2 e01-e00", state)
    kw = GAME.diagram(GAME.apply(state, turn), turn)
    colours = [s.color for s in kw["stones"]]
    assert colours.count("energy") == 14 and colours.count("light") == 6 and colours.count("dark") == 6
    assert len(kw["arrows"]) == 2


# ---------------------------------------------------------------- fuzzing
WORD = st.one_of(
    st.builds(lambda a, b: f"{a}-{b}", st.sampled_from(["a1", "b2", "f6", "g1", "e11", "e66", "e77"]),
              st.sampled_from(["a2", "b3", "a1", "e12", "e65", "z0"])),
    st.text(max_size=6),
)
TURN_TEXT = st.lists(WORD, max_size=4).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(TURN_TEXT)
def test_parse_move_either_reads_or_refuses_cleanly(text):
    check_parse(GAME, text)


@settings(max_examples=120, deadline=None)
@given(st.lists(TURN_TEXT, max_size=4))
def test_validate_record_stops_with_a_rules_error_or_replays(moves):
    check_record(GAME, moves)


@settings(max_examples=150, deadline=None)
@given(JSON_VALUES)
def test_malformed_positions_raise_record_errors(data):
    check_position(GAME, data)
