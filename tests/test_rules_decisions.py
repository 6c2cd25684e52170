"""One test per **Decision** of RULES.md, named after it (the README's list of readings cites
the seed sentence behind each). The revised readings of 2026-11-22 (ageing of unserved
doorways, the count win, the step capture) have their own tests in the game's test file:
``test_ageing_only_of_doorways_that_received_a_stone``, ``test_count_win_*`` and
``test_option_no_step_capture_*``.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from powertwo.cli import main
from powertwo.rules import IllegalMoveError, get_game
from powertwo.rules.david_goliath import DavidGoliathState, Hurl
from powertwo.rules.power_of_two import PowerOfTwoState

F = frozenset
ROOT = Path(__file__).resolve().parents[1]
RULES_MD = next((p / "shared" / "RULES.md" for p in ROOT.parents if (p / "shared" / "RULES.md").exists()),
                ROOT / "RULES.md")
"""The normative rules beside the repository (``../shared/RULES.md`` of a checkout or worktree)."""


def run(*args):
    return CliRunner().invoke(main, list(args))


# ---------------------------------------------------------------- §1 the board
def test_decision_the_default_board_is_the_reconstruction():
    board = get_game("power-of-two").board
    assert len(board.nodes) == 64 and max(len(line) for line in board.lines) == 8
    assert board.coord(14) == (Fraction(-4, 5), Fraction(12, 5)) and board.coord(60) == (-4, -4)
    assert (60, 52, 41, 36, 31, 22, 14, 3) in {tuple(line) for line in board.lines} | {
        tuple(reversed(line)) for line in board.lines}


# ---------------------------------------------------------------- §2 The Power of Two
FIFTEEN = F({60, 64, 42, 43, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13})


def test_decision_a_short_reserve_places_all_its_stones_on_distinct_doorways():
    game = get_game("power-of-two")
    state = PowerOfTwoState(FIFTEEN, F({1, 5, 22, 23}))  # reserve 1; 64-47 opens two doorways
    assert sorted(game.format_move(m) for m in game.legal_moves(state) if m.frm == 64 and m.to == 47) == [
        "64-47 +50", "64-47 +51"]
    with pytest.raises(IllegalMoveError, match="the slide opens 2 doorways and the reserve holds 1: place 1 stone"):
        game.play(state, "64-47")
    strict = get_game("power-of-two", exact_reserve=True)  # Hinweis 5, the advanced rule
    assert [m for m in strict.legal_moves(state) if m.frm == 64 and m.to == 47] == []


# ---------------------------------------------------------------- §3 David and Goliath
def test_decision_david_moves_first():
    game = get_game("david-goliath")
    assert game.start().to_move == 0 and game.player_name(0) == "Light/David"
    with pytest.raises(IllegalMoveError, match=r"move 1 \(Light/David\) 5-4\*3: David stands on 60, not on 5"):
        game.play(game.start(), "5-4*3")


def test_decision_the_throw_is_mandatory_when_possible_and_skipped_when_not():
    game = get_game("david-goliath")
    with pytest.raises(IllegalMoveError, match=r"a throw is possible \(e\.g\. to .*\), so it is mandatory"):
        game.play(game.start(), "60-45")
    # David's reserve is empty and every thrown stone stands on a border line: nothing to throw
    border = F({1, 2, 3, 4, 5, 16, 20, 30, 35, 45, 49, 61, 62, 63, 64})
    state = DavidGoliathState(38, 26, border, F(), to_move=0, ply=30)
    assert game.is_legal(state, Hurl(38, 42)) and not game.is_legal(state, Hurl(38, 42, 46, 30))
    assert all(m.throw is None for m in game.legal_moves(state))


def test_decision_david_chooses_his_throw_distance():
    game = get_game("david-goliath")
    throws = {game.format_move(m) for m in game.legal_moves(game.start()) if m.to == 45}
    assert {"60-45*30", "60-45*16"} <= throws  # one node or two, the same direction: David's choice
    assert "60-45*1" not in throws


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
    loose = json.loads(run("solve", "two-by-two", "--board", str(board), "--json").stdout)
    strict = json.loads(run("solve", "two-by-two", "--board", str(board), "--strict", "--json").stdout)
    assert (loose["status"], loose["objective"], len(loose["stones"])) == ("optimal", 4, 8)
    assert (strict["status"], strict["objective"]) == ("optimal", 3)


def test_decision_jump_forward_every_placed_stone_is_jumped_at_once(tmp_path):
    answer = json.loads((ROOT / "results" / "jump-forward.json").read_text())
    assert run("check", str(ROOT / "results" / "jump-forward.json")).exit_code == 0
    answer["steps"][0]["jumps"] = []
    broken = tmp_path / "unjumped.json"
    broken.write_text(json.dumps(answer))
    res = run("check", str(broken))
    assert res.exit_code == 1
    assert f"step 1: the stone placed on {answer['steps'][0]['place']} is not jumped" in res.stdout


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
def decision_count() -> int:
    """The Decision lines of RULES.md (``**Decision:**``, ``**Decision (start...``), not its preamble."""
    return len(re.findall(r"\*\*Decision[:\s(]", RULES_MD.read_text(encoding="utf-8")))


@pytest.mark.skipif(not RULES_MD.exists(), reason="RULES.md lives beside the repository")
def test_every_decision_of_rules_md_has_a_test():
    # one test_decision_* per Decision line; a new Decision in RULES.md makes this fail until it has one
    tests = [name for name in globals() if name.startswith("test_decision_")]
    assert len(tests) == decision_count()
