"""The referee commands: moves, perft, validate, play (fed through stdin), and the record commands check/draw."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from powertwo.cli import main
from powertwo.rules import get_game


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.fixture()
def record(tmp_path):
    def write(data, name="game.json"):
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return str(path)
    return write


def test_moves_lists_every_legal_move():
    res = run("moves", "power-of-two")
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    assert len(lines) == 110 and lines[:4] == ["e9-f11", "e9-g13", "e9-d7 +c6", "e9-d7 +e7"]
    game = get_game("power-of-two")
    assert lines == [game.format_move(m) for m in game.legal_moves(game.start())]
    res = run("moves", "thats-my-line", "--json")
    data = json.loads(res.stdout)
    assert data["to_move"] == "Light" and len(data["moves"]) == 64 and data["outcome"] is None


def test_moves_from_a_position_file(record):
    # David on a13 with a thrown stone on each neighbour (labels in the position file)
    path = record({"game": "david-goliath", "david": "a13", "goliath": "m1",
                   "light_thrown": ["a9", "b10", "c11", "d12", "e13"], "dark_thrown": [], "to_move": "light",
                   "ply": 10})
    res = run("moves", "david-goliath", "--position", path, "--json")
    data = json.loads(res.stdout)
    assert data["moves"] == [] and data["outcome"] == {"winner": "Dark/Goliath", "reason": "David (Light) cannot move"}
    assert data["notes"][0].startswith("the candidates are separated: David reaches 0 free nodes")


@pytest.mark.parametrize("game_name, depth, start, options, count", [
    # the references of tests/perft_power_of_two_boards.txt, on the default board
    ("power-of-two", 2, "standard", {}, 11834), ("power-of-two", 2, "corners", {}, 2388),
    ("david-goliath", 2, "standard", {}, 36584), ("david-goliath", 2, "standard", {"sling": "true"}, 20024),
    ("thats-my-line", 2, "empty", {"stones": "1"}, 3072),
    ("thats-my-line", 3, "empty", {"stones": "1"}, 0),  # both supplies used up
])
def test_perft_prints_the_count(game_name, depth, start, options, count):
    args = ["perft", game_name, str(depth), "--start", start]
    for key, value in options.items():
        args += ["--option", f"{key}={value}"]
    assert run(*args).stdout.strip() == str(count)
    game = get_game(game_name, **options)
    assert game.perft(game.start(start), depth) == count


def test_perft_divide_names_the_moves_by_label():
    res = run("perft", "power-of-two", "1", "--option", "exact_reserve=true", "--divide")
    lines = res.stdout.splitlines()
    assert lines[-1] == "110" and "e9-d7 +c6: 1" in lines and "a13-d7 +c6 +e7: 1" in lines
    res = run("perft", "power-of-two", "2", "--start", "corners", "--divide")
    lines = res.stdout.splitlines()
    game = get_game("power-of-two")
    after = game.play(game.start("corners"), "a13-a5 +b4")
    assert lines[-1] == "2388" and lines[:3] == ["a13-a9: 47", "a13-a7: 49", "a13-a5 +b4: 38"]
    assert game.perft(after, 1) == 38


def test_rule_flags_set_yes_no_options(record):
    # David walled in with one free node, Goliath with the rest: separated, Goliath has more room
    path = record({"game": "david-goliath", "david": "a13", "goliath": "m1",
                   "light_thrown": ["a9", "b10", "c11", "d12", "g13", "e11"], "dark_thrown": [], "to_move": "light",
                   "ply": 12})
    data = json.loads(run("moves", "david-goliath", "--position", path, "--json").stdout)
    assert data["outcome"] is None and data["moves"] == ["a13-e13*a13"]
    assert data["notes"] == ["the candidates are separated: David reaches 1 free node, Goliath 55 (adjudication "
                             "aid: Goliath has more room; the game goes on without the option count_win)"]
    data = json.loads(run("moves", "david-goliath", "--position", path, "--json", "--count-win").stdout)
    assert data["moves"] == [] and data["outcome"] == {
        "winner": "Dark/Goliath",
        "reason": "the candidates are separated and Goliath has more free nodes to move in (1 to 55; option count_win)"}
    tower = record({"game": "tower-of-power", "stacks": {"d4": "W", "d5": "WB", "h8": "B"}, "to_move": "White"},
                   "tower.json")
    assert run("perft", "tower-of-power", "1", "--position", tower).stdout.strip() == "8"
    assert run("perft", "tower-of-power", "1", "--position", tower, "--no-step-capture").stdout.strip() == "7"
    assert run("perft", "power-of-two", "2", "--age-unserved", "--exact-reserve").stdout.strip() == "11834"
    res = run("perft", "power-of-two", "1", "--count-win")
    assert res.exit_code == 2 and "game power-of-two: unknown option 'count_win'" in res.stderr


def test_sling_flag_and_record_option(record):
    # RULES.md §3 option sling: the flag of moves/perft/play and a record's "options" come from one declaration
    assert run("perft", "david-goliath", "2", "--sling").stdout.strip() == "20024"
    res = run("moves", "david-goliath", "--sling")
    assert res.exit_code == 0 and len(res.stdout.splitlines()) == 141 and "a13-a9*a7" not in res.stdout.split()
    path = record({"game": "david-goliath", "options": {"sling": True}, "moves": ["a13-a9*a5", "m1-i1*g1", "a9-a7*a9"]})
    res = run("validate", "david-goliath", path)
    assert res.exit_code == 1 and res.stdout == (
        "move 3 (Light/David) a9-a7*a9: with the sling David picks only the direction: the stone thrown toward a9 "
        "flies 2 nodes, to a13 (option sling)\n")
    res = run("perft", "power-of-two", "1", "--sling")
    assert res.exit_code == 2 and "game power-of-two: unknown option 'sling'" in res.stderr


def test_an_old_record_names_the_board_it_is_legal_on(record):
    # a record made on the sketch board (by ids) before the default changed, without a fingerprint:
    # illegal on power-of-two, legal on power-of-two-sketch; one line naming it, exit 2
    path = record({"game": "power-of-two", "moves": ["42-31 +28", "1-2"]})
    expected = (f"powertwo: {path}: not valid on power-of-two (move 1 (Light) 42-31 +28 (e9-d7 +h6): placement h6 "
                "is not a third corner of any doorway of d7); valid on power-of-two-sketch (made before the "
                "default board changed?): name it in the record's field 'board'\n")
    for args in (("validate", "power-of-two", path), ("check", path)):
        res = run(*args)
        assert (res.exit_code, res.stdout, res.stderr) == (2, "", expected), args
    named = record({"game": "power-of-two", "board": "power-of-two-sketch", "moves": ["42-31 +28", "1-2"]},
                   "named.json")
    assert run("check", named).exit_code == 0
    # a record that names the sketch but was played on the real board is told the other way round
    real = record({"game": "power-of-two", "board": "power-of-two-sketch", "moves": ["e9-d7 +c6"]}, "real.json")
    res = run("check", real)
    assert (res.exit_code, res.stderr) == (2, f"powertwo: {real}: not valid on power-of-two-sketch (move 1 (Light) "
                                              "e9-d7 +c6: unknown node 'e9'); valid on power-of-two: name it in "
                                              "the record's field 'board'\n")
    # illegal on every board of its kind: the first illegal move, exit 1
    bad = record({"game": "power-of-two", "moves": ["a1-a1"]}, "bad.json")
    res = run("check", bad)
    assert res.exit_code == 1 and res.stdout.startswith("move 1 (Light) a1-a1: ")


def test_start_may_name_a_position_file(record):
    # RULES.md §6 "a start file": the CLI reads it (the rules layer reads no files)
    path = record({"game": "epaminondas", "white": ["a1"], "black": ["n12"], "to_move": "white"}, "p.json")
    res = run("perft", "epaminondas", "1", "--start", path)
    assert res.exit_code == 0 and res.stdout.strip() == "3"
    res = run("perft", "epaminondas", "1", "--start", "nowhere")
    assert res.exit_code == 2 and "board epaminondas has no start position 'nowhere'" in res.stderr


def test_custom_start_on_the_command_line(record):
    # RULES.md §1 (revised): the standard and corners starts typed as custom are accepted; an
    # adjacent pair is one line naming both stones and their line, exit 2
    res = run("moves", "power-of-two", "--start", "custom:a13,m13,e9,i9/a1,m1,e5,i5")
    assert res.exit_code == 0 and res.stdout == run("moves", "power-of-two").stdout
    res = run("perft", "power-of-two", "2", "--start", "custom:a13,m13/a1,m1")
    assert res.exit_code == 0 and res.stdout.strip() == "2388"
    res = run("moves", "power-of-two", "--start", "custom:a13,m13,e9,i9/a1,m1,e5,g5")
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr == ("powertwo: custom start: start stones e5 and g5 are adjacent on line a5-c5-e5-g5-i5-k5-m5 "
                          "(start stones on a common line must be at least 2 steps apart)\n")
    # a record with a custom start is validated from it
    path = record({"game": "power-of-two", "start": "custom:a13,m13/a1,m1", "moves": ["a13-a5 +b4"]})
    res = run("validate", "power-of-two", path)
    assert res.exit_code == 0 and res.stdout.startswith("valid: 1 move")


def test_empty_position_is_one_error_line_for_every_game(record):
    from powertwo.rules import get_game, game_names

    for name in game_names():
        path = record({"game": name, "position": {}, "moves": []}, f"{name}.json")
        res = run("validate", name, path)
        fields = get_game(name).position_fields
        assert res.exit_code == 2, name
        assert res.stderr.startswith(f"powertwo: {path}: position: missing field{'s' if len(fields) > 1 else ''} "
                                     + ", ".join(repr(f) for f in fields)), res.stderr


def test_perft_from_a_record_position(record):
    path = record({"game": "power-of-two", "moves": ["e9-d7 +c6"]})
    res = run("perft", "power-of-two", "1", "--position", path)
    assert res.exit_code == 0 and res.stdout.strip() == str(len(run("moves", "power-of-two", "--position", path)
                                                               .stdout.splitlines()))


def test_validate_valid_illegal_and_malformed(record):
    ok = record({"game": "power-of-two", "moves": ["e9-d7 +c6", "a1-e1"]})
    res = run("validate", "power-of-two", ok)
    assert res.exit_code == 0 and res.stdout == "valid: 2 moves, game not over\nLight to move\n"
    assert run("validate", "power-of-two", record({"game": "power-of-two", "moves": ["42-31 +26", "1-2"]},
                                                  "ids.json")).stdout == res.stdout
    bad = record({"game": "power-of-two", "moves": ["e9-d7 +c6", "e5-c6"]}, "bad.json")
    res = run("validate", "power-of-two", bad)
    assert res.exit_code == 1 and res.stdout == "move 2 (Dark) e5-c6: destination c6 is occupied\n"
    bad = record({"game": "power-of-two", "moves": ["42-31 +26", "21-26"]}, "bad-ids.json")
    res = run("validate", "power-of-two", bad)
    assert res.exit_code == 1 and res.stdout == "move 2 (Dark) 21-26 (e5-c6): destination c6 is occupied\n"
    over = record({"game": "thats-my-line", "options": {"stones": 1}, "moves": ["g13", "e1", "a9"]}, "over.json")
    res = run("validate", "thats-my-line", over)
    assert res.exit_code == 1 and res.stdout.startswith("move 3 (Light) a9: the game is over")
    dg = record({"game": "david-goliath", "moves": ["a13-e13*c11", "m1-e1*a1"]}, "dg.json")
    res = run("validate", "david-goliath", dg)
    assert res.exit_code == 1 and res.stdout == (
        "move 2 (Dark/Goliath) m1-e1*a1: Goliath moves 1 or 2 nodes, not 3 (m1-e1)\n")


def test_validate_refuses_a_record_made_for_another_board(record):
    from powertwo.boards import load as load_board

    sketch = load_board("power-of-two-sketch")
    made = {"game": "power-of-two", "board": "power-of-two-sketch", "board_fingerprint": sketch.fingerprint,
            "moves": ["42-31 +28"]}
    assert run("validate", "power-of-two", record(made)).exit_code == 0
    res = run("validate", "power-of-two", record({k: v for k, v in made.items() if k != "board"}, "nameless.json"))
    assert res.exit_code == 2
    assert "made for board power-of-two-sketch, not for power-of-two (name it in field 'board')" in res.stderr


@pytest.mark.parametrize("content, message", [
    ('{"game": "power-of-two", "moves": [', "not valid JSON"),
    ('{"game": "chess", "moves": []}', "the record is a game of 'chess', not power-of-two"),
    ('{"game": "power-of-two", "moves": ["e9-d7 +n9"]}', "move 1 (Light) e9-d7 +n9: unknown node 'n9'"),
    ('{"game": "power-of-two", "moves": "42-31"}', "field 'moves' must be a list of move strings"),
    ('{"game": "power-of-two"}', "missing field 'moves'"),
    ('[1, 2]', "a game record must be a JSON object"),
    ('{"game": "power-of-two", "position": {"light": ["a13"], "dark": [60]}, "moves": []}',
     "node a13 holds both a Light and a Dark stone"),
])
def test_validate_malformed_record_is_one_line(record, content, message):
    res = run("validate", "power-of-two", record(content))
    assert res.exit_code in (1, 2) and message in (res.stderr + res.stdout)
    assert "Traceback" not in res.output and len((res.stderr or res.stdout).strip().splitlines()) == 1


def test_unknown_game_and_wrong_player_to_move(record):
    res = run("validate", "chess", record({"game": "chess", "moves": []}))
    assert res.exit_code == 2 and "unknown game 'chess'" in res.stderr
    res = run("validate", "power-of-two", record({"game": "power-of-two", "moves": ["a1-e1"]}))
    assert res.exit_code == 1 and res.stdout == "move 1 (Light) a1-e1: the stone on a1 is Dark's\n"


def test_play_refuses_illegal_moves_and_saves(tmp_path):
    out = tmp_path / "saved.json"
    script = f"e9-e5\n42-31 +26\nmoves\nundo\na13-e13\nsave {out}\nquit\n"
    res = run("play", "power-of-two", input=script)
    assert res.exit_code == 0
    assert "refused: move 1 (Light) e9-e5: destination e5 is occupied" in res.stdout
    assert "Dark> " in res.stdout and "after move 1, Dark to play move 2" in res.stdout
    # the last move is named in labels with the record's numbering and marked > on the board (from e9, to d7, +c6)
    assert "last move: move 1 (Light) e9-d7 +c6, marked > on the board" in res.stdout
    board = res.stdout.split("last move:")[0]
    assert ">d7" not in board and ">L" in board and ">e9" in board and ">l" in board
    saved = json.loads(out.read_text())
    assert saved == {"game": "power-of-two", "start": "standard", "moves": ["a13-e13"]}
    assert run("validate", "power-of-two", str(out)).exit_code == 0


def test_play_says_where_the_stones_of_a_slide_may_go():
    res = run("play", "power-of-two", input="a13-d7\ne9-d7 +c6 +e7\nquit\n")
    assert "refused: move 1 (Light) a13-d7: the slide opens 2 doorways: place 2 stones, not 0" in res.stdout
    assert "legal moves that begin 'a13-d7': a13-d7 +c6 +e7 | a13-d7 +c6 +c8 | a13-d7 +e7 +c8\n" in res.stdout
    assert "legal moves that begin 'e9-d7 +c6 +e7'" not in res.stdout  # nothing legal goes on from it


def test_validate_show_prints_the_final_position(record):
    path = record({"game": "power-of-two", "moves": ["e9-d7 +c6", "1-2"]})
    res = run("validate", "power-of-two", path, "--show")
    assert res.exit_code == 0, res.output
    assert "after move 2, Light to play move 3" in res.stdout
    assert "last move: move 2 (Dark) a1-e1, marked > on the board" in res.stdout
    assert ">D" in res.stdout and ">a1" in res.stdout
    assert "after move 2" not in run("validate", "power-of-two", path).stdout


def test_play_to_the_end_and_eof(tmp_path):
    res = run("play", "thats-my-line", "--option", "stones=1", input="g13\ne1\n")
    assert res.exit_code == 0
    assert "game over: Dark wins: neither can place; equal counts (1 to 1 stones), Dark placed last" in res.stdout
    res = run("play", "david-goliath", input="a13-e13\nhelp\n")
    assert "refused: move 1 (Light/David) a13-e13: a throw is possible (e.g. to d12), so it is mandatory" in res.stdout
    assert "notation: FROM-TO*THROWN" in res.stdout


def test_check_and_draw_game_records(record, tmp_path):
    path = record({"game": "power-of-two", "moves": ["e9-d7 +c6", "a1-e1"]})
    res = run("check", path)
    assert res.exit_code == 0 and res.stdout.startswith("valid: 2 moves")
    for move in ("1", "2"):
        out = tmp_path / f"after{move}.svg"
        res = run("draw", path, "--move", move, "-o", str(out))
        assert res.exit_code == 0, res.output
        assert out.read_text().startswith("<?xml")
    dg = record({"game": "david-goliath", "moves": ["a13-e13*c11"]}, "dg.json")
    assert run("draw", dg, "-o", str(tmp_path / "dg.png")).exit_code == 0
    tml = record({"game": "thats-my-line", "moves": ["g13"]}, "tml.json")
    assert run("draw", tml, "-o", str(tmp_path / "tml.svg")).exit_code == 0


def test_play_lists_only_the_first_moves_of_a_huge_position():
    # Netzwerk's opening has 30,366,414 distinct turns: `moves` shows the first ones and says so
    res = run("play", "netzwerk", input="moves\nquit\n")
    assert res.exit_code == 0, res.output
    listing = next(line for line in res.stdout.splitlines() if "... (more than 200;" in line)
    assert listing.count(" | ") == 200
    assert listing.endswith("... (more than 200; `powertwo perft GAME 1` counts them)")
