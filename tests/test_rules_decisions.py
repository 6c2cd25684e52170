"""One test per **Decision** of RULES.md, named after it (the README's list of readings cites
the seed sentence behind each). The revised readings of 2026-11-22 (ageing of unserved
doorways, the count win, the step capture) have their own tests in the game's test file:
``test_ageing_only_of_doorways_that_received_a_stone``, ``test_count_win_*`` and
``test_option_no_step_capture_*``.
"""

from __future__ import annotations

import copy
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from powertwo.boards import load as load_board
from powertwo.cli import main
from powertwo.rules import IllegalMoveError, get_game
from powertwo.rules.david_goliath import DavidGoliathState
from powertwo.rules.power_of_two import PowerOfTwoState

F = frozenset
ROOT = Path(__file__).resolve().parents[1]
RULES_MD = next((p / "shared" / "RULES.md" for p in ROOT.parents if (p / "shared" / "RULES.md").exists()),
                ROOT / "RULES.md")
"""The normative rules beside the repository (``../shared/RULES.md`` of a checkout or worktree)."""


def run(*args):
    return CliRunner().invoke(main, list(args))


# ---------------------------------------------------------------- §1 the board
def test_decision_the_default_board_is_the_inferred_real_board():
    board = get_game("power-of-two").board
    assert board is load_board("power-of-two")
    assert len(board.nodes) == 64 and len(board.lines) == 32 and len(board.symmetries) == 8
    assert board.line_lengths == {3: 4, 5: 16, 7: 4, 8: 8}
    # labels a1..m13 in the server's reading order (row 1..13, then column a..m); rounding the exact
    # coordinates on [-6,6]^2 (column a..m is x = -6..6, row 1..13 is y = 6..-6) gives each node's cell
    assert board.labels[:6] == ("a1", "e1", "g1", "i1", "m1", "d2") and board.labels[-1] == "m13"
    for v in board.nodes:
        x, y = board.coord(v)
        assert board.label(v) == f"{'abcdefghijklm'[round(x) + 6]}{7 - round(y)}"
    assert [board.coord(board.node(a)) for a in ("f3", "c6", "j12", "a13")] == [
        (Fraction(-6, 5), Fraction(18, 5)), (Fraction(-18, 5), Fraction(6, 5)), (Fraction(10, 3), Fraction(-14, 3)),
        (-6, -6)]
    lines = {tuple(board.label(v) for v in line) for line in board.lines}
    lines |= {tuple(reversed(line)) for line in lines}
    for example in ("a13-e13-g13-i13-m13", "a9-c9-e9-g9-i9-k9-m9", "a7-d7-e7", "a13-c11-d10-e9-f8",
                    "a13-d12-e11-f11-g10-i9-k8-m7"):
        assert tuple(example.split("-")) in lines
    named = {name: {side: sorted(board.label(v) for v in nodes) for side, nodes in board.start(name).items()}
             for name in board.start_names}
    assert named == {"standard": {"light": ["a13", "e9", "i9", "m13"], "dark": ["a1", "e5", "i5", "m1"]},
                     "corners": {"light": ["a13", "m13"], "dark": ["a1", "m1"]},
                     "david-goliath": {"light": ["a13"], "dark": ["m1"]}}
    assert get_game("david-goliath").start() == DavidGoliathState(board.node("a13"), board.node("m1"))
    sketch = load_board("power-of-two-sketch")  # the first reconstruction stays, by name
    assert len(sketch.nodes) == 64 and len(sketch.lines) == 32 and sketch.fingerprint != board.fingerprint


def test_decision_the_central_squares_own_four_sides_are_not_lines():
    board = load_board("power-of-two")
    sides = load_board("power-of-two-square-sides")
    assert (len(board.lines), len(sides.lines)) == (32, 36)
    assert sides.coords == board.coords and sides.labels == board.labels
    corners = ["g5", "i7", "g9", "e7"]  # the diamond |x| + |y| = 2
    pairs = [{board.node(a), board.node(b)} for a, b in zip(corners, corners[1:] + corners[:1], strict=True)]
    assert not any(pair <= set(line) for pair in pairs for line in board.lines)
    assert all(sum(pair <= set(line) for line in sides.lines) == 1 for pair in pairs)
    assert {tuple(line) for line in board.lines} <= {tuple(line) for line in sides.lines}


def test_decision_custom_start_stones_are_two_steps_apart():
    # revised 2026-11-28: "mindestens 2 Schnittpunkte zwischen den Steinen" is a distance of two
    # intersections, so the seed's own start (e5-g5-i5: one node between) is a valid custom start
    game = get_game("power-of-two")
    assert game.start("custom:a13,m13,e9,i9/a1,m1,e5,i5") == game.start("standard")
    assert game.spacing_fault(game.board.node(v) for v in ("e5", "e7")) == (
        "start stones e7 and e5 are adjacent on line e13-e11-e9-e7-e5-e3-e1 (start stones on a common line "
        "must be at least 2 steps apart)")


# ---------------------------------------------------------------- §2 The Power of Two
def test_decision_a_short_reserve_places_all_its_stones_on_distinct_doorways():
    game = get_game("power-of-two")
    node = game.board.node
    # Light has 15 stones (reserve 1); a13-d7 opens two doorways, d7-e9 and d7-e5
    light = ["a13", "m13", "e9", "i9", "j2", "k3", "l4", "i3", "j4", "k5", "m5", "m9", "k9", "l10", "k11"]
    state = PowerOfTwoState(F(map(node, light)), F(map(node, ["a1", "m1", "e5", "i5"])))
    assert [game.format_move(m) for m in game.legal_moves(state) if m.frm == node("a13") and m.to == node("d7")] == [
        "a13-d7 +c6", "a13-d7 +e7", "a13-d7 +c8"]
    with pytest.raises(IllegalMoveError) as err:
        game.play(state, "a13-d7 +c6 +e7")
    assert str(err.value) == ("move 1 (Light) a13-d7 +c6 +e7: the slide opens 2 doorways and the reserve holds 1: "
                              "place 1 stone, not 2")
    assert "a13-d7 +c6 +e7" in [game.format_move(m) for m in game.legal_moves(game.start())]  # a full reserve
    strict = get_game("power-of-two", exact_reserve=True)  # Hinweis 5, the advanced rule
    assert [m for m in strict.legal_moves(state) if m.frm == node("a13") and m.to == node("d7")] == []


# ---------------------------------------------------------------- §3 David and Goliath
def test_decision_david_moves_first():
    game = get_game("david-goliath")
    assert game.start().to_move == 0 and game.player_name(0) == "Light/David"
    with pytest.raises(IllegalMoveError) as err:
        game.play(game.start(), "m1-i1*g1")
    assert str(err.value) == "move 1 (Light/David) m1-i1*g1: David stands on a13, not on m1"


def test_decision_the_throw_is_mandatory_when_possible_and_skipped_when_not():
    game = get_game("david-goliath")
    node = game.board.node
    with pytest.raises(IllegalMoveError) as err:
        game.play(game.start(), "a13-e13")
    assert err.value.reason == "a throw is possible (e.g. to d12), so it is mandatory"
    # David's reserve is empty and every thrown stone stands on a border line: nothing to throw
    border = ["a1", "e1", "g1", "i1", "m1", "a5", "a7", "a9", "a13", "m5", "m7", "m9", "e13", "g13", "i13"]
    state = DavidGoliathState(node("g9"), node("e5"), F(map(node, border)), F(), to_move=0, ply=30)
    assert state.reserve(0) == 0
    assert game.is_legal(state, game.parse_move("g9-g10"))
    assert not game.is_legal(state, game.parse_move("g9-g10*h11^a7"))
    moves = game.legal_moves(state)
    assert moves and all(m.throw is None for m in moves)


def test_decision_david_chooses_his_throw_distance():
    game = get_game("david-goliath")
    throws = {game.format_move(m) for m in game.legal_moves(game.start()) if m.to == game.board.node("a9")}
    assert {"a13-a9*a7", "a13-a9*a5"} <= throws  # one node or two, the same direction: David's choice
    assert "a13-a9*a1" not in throws  # three nodes


# ---------------------------------------------------------------- §4 That's My Line
def test_decision_the_supply_is_an_option_default_16():
    assert get_game("thats-my-line").supply == 16
    assert get_game("thats-my-line", stones="unlimited").supply is None
    # the seed's example ends 19 to 16: only a supply above 16 lets a player place a 17th stone
    game = get_game("thats-my-line", stones="unlimited")
    assert game.options["stones"] == "unlimited"


# ---------------------------------------------------------------- §5 puzzles
def test_decision_two_by_two_other_lines_may_hold_any_number(tmp_path):
    # a comb: a line of four nodes with a line of two hanging from each; all 8 stones make the
    # four teeth hold two each (the back holds four); --strict allows only 0 or 2 per line
    segments = tmp_path / "comb-segments.json"
    segments.write_text(json.dumps({"name": "comb", "segments": [
        [[0, 0], [3, 0]], [[0, 0], [0, 1]], [[1, 0], [1, 1]], [[2, 0], [2, 1]], [[3, 0], [3, 1]]]}))
    board = tmp_path / "comb.json"
    assert run("board", "build", str(segments), "-o", str(board)).exit_code == 0
    # all 32 stones (the default) do not fit on 8 nodes: refused with the reason
    refused = run("solve", "two-by-two", "--board", str(board))
    assert refused.exit_code == 2 and "32 stones do not fit" in refused.output
    loose = json.loads(run("solve", "two-by-two", "--board", str(board), "--stones", "8", "--json").stdout)
    strict = json.loads(run("solve", "two-by-two", "--board", str(board), "--strict", "--stones", "8", "--at-most",
                            "--json").stdout)
    assert (loose["status"], loose["objective"], len(loose["stones"])) == ("optimal", 4, 8)
    assert (strict["status"], strict["objective"]) == ("optimal", 3)
    # strict with exactly 8 stones: each tooth needs both its nodes, so the back would hold 4
    exact = json.loads(run("solve", "two-by-two", "--board", str(board), "--strict", "--stones", "8",
                           "--json").stdout)
    assert exact["status"] == "infeasible"


def test_decision_jump_forward_every_placed_stone_is_jumped_at_once():
    from powertwo.solvers.jump import check_forward, solve_forward

    board = load_board("power-of-two")
    answer = solve_forward(board)
    assert answer["board"] == "power-of-two" and len(answer["steps"]) == 31
    assert all(step["jumps"] for step in answer["steps"]) and check_forward(answer, board).valid
    broken = copy.deepcopy(answer)
    broken["steps"][0]["jumps"] = []
    placed = board.label(board.node(answer["steps"][0]["place"]))
    assert check_forward(broken, board).faults == (f"step 1: the stone placed on {placed} is not jumped "
                                                  f"(no landing given)",)


# ---------------------------------------------------------------- §6 Tower of Power
def test_decision_tower_start_file_plus_rank_at_most_4():
    game = get_game("tower-of-power")
    stacks = game.state_to_json(game.start())["stacks"]
    white = {sq for sq, s in stacks.items() if s == "W"}
    assert white == {f"{f}{r}" for f in "abcdefgh" for r in range(1, 9) if (ord(f) - 97) + (r - 1) <= 4}
    assert len(white) == 15
    black = {sq for sq, s in stacks.items() if s == "B"}
    assert black == {f"{chr(104 - (ord(sq[0]) - 97))}{9 - int(sq[1:])}" for sq in white}  # the point mirror


def test_decision_a_single_step_captures():
    game = get_game("tower-of-power")
    state = game.state_from_json({"stacks": {"d4": "W", "d5": "WB", "h8": "B"}, "to_move": "White"})
    after = game.play(state, "d4-d5")
    assert game.state_to_json(after)["stacks"] == {"d5": "WW", "h8": "B"}
    assert not get_game("tower-of-power", step_capture=False).is_legal(state, game.parse_move("d4-d5"))


# ---------------------------------------------------------------- §7 Netzwerk
def test_decision_player_1_starts():
    assert get_game("netzwerk").start().to_move == 0
    assert get_game("netzwerk", first_player="Player 2").start().to_move == 1


def test_decision_phase_a_is_skipped_when_no_piece_can_move():
    game = get_game("netzwerk")
    state = game.state_from_json({"player1": ["a1"], "player2": ["f6"], "energy": ["e66", "e56"],
                                  "to_move": "Player 1"})
    assert game.reason_illegal(state, game.parse_move("pass")) is None
    assert [m.pieces for m in game.legal_moves(state)] == [()] * len(game.legal_moves(state))
    moving = game.state_from_json({"player1": ["c2"], "player2": ["f6"], "energy": ["e21"], "to_move": "Player 1"})
    assert game.reason_illegal(moving, game.parse_move("pass")) == (
        "at least one piece must move in phase (a) (a piece of the mover can move)")


# ---------------------------------------------------------------- every Decision has its test
DECISIONS = {
    "the default board is the board inferred from that display":
        test_decision_the_default_board_is_the_inferred_real_board,
    "the central square's own four sides are not lines": test_decision_the_central_squares_own_four_sides_are_not_lines,
    "mindestens 2 Schnittpunkte zwischen den Steinen\" is read as a distance of two":
        test_decision_custom_start_stones_are_two_steps_apart,
    "if the reserve holds fewer stones than there are doorways":
        test_decision_a_short_reserve_places_all_its_stones_on_distinct_doorways,
    "David moves first": test_decision_david_moves_first,
    "the throw is mandatory when any throw is possible":
        test_decision_the_throw_is_mandatory_when_possible_and_skipped_when_not,
    "David chooses his throw distance": test_decision_david_chooses_his_throw_distance,
    "the seed's own example ends 19 to 16": test_decision_the_supply_is_an_option_default_16,
    "\"die Spielsteine\" are the set's 32 stones": test_decision_two_by_two_other_lines_may_hold_any_number,
    "every placed stone must be": test_decision_jump_forward_every_placed_stone_is_jumped_at_once,
    "White on every square": test_decision_tower_start_file_plus_rank_at_most_4,
    "the seed ties capture to sowing": test_decision_a_single_step_captures,
    "player 1 starts": test_decision_player_1_starts,
    "if no piece of the mover can move, phase (a) is skipped": test_decision_phase_a_is_skipped_when_no_piece_can_move,
}
"""Each Decision of RULES.md, by the words that open it, and the test of it."""


def decision_texts() -> list[str]:
    """The text after each Decision mark of RULES.md (``**Decision:**``, ``**Decision: ...**``,
    ``**Decision (start, ...):**``) to the end of its paragraph or list item (a Decision may wrap
    onto the next lines), on one line; not the preamble's mention."""
    text = RULES_MD.read_text(encoding="utf-8")
    return [" ".join(m.group(1).replace("**", "").split())
            for m in re.finditer(r"\*\*Decision[:\s(](.*(?:\n(?![ \t]*(?:\n|- |\||#)).*)*)", text)]


@pytest.mark.skipif(not RULES_MD.exists(), reason="RULES.md lives beside the repository")
def test_every_decision_of_rules_md_has_a_test():
    # every Decision line is matched by exactly one entry of DECISIONS, every entry by exactly one
    # line, and every test_decision_* is an entry: a new Decision in RULES.md fails here until it has a test
    texts = decision_texts()
    assert len(texts) == 14
    for text in texts:
        assert sum(opening in text for opening in DECISIONS) == 1, text
    for opening in DECISIONS:
        assert sum(opening in text for text in texts) == 1, opening
    tests = {fn for name, fn in globals().items() if name.startswith("test_decision_")}
    assert set(DECISIONS.values()) == tests and len(tests) == len(DECISIONS)
