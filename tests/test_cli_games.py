"""The referee commands: moves, perft, validate, play (fed through stdin), and the record commands check/draw."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from powertwo.cli import main


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
    assert len(lines) == 66 and "42-31 +28" in lines and "42-10 +8" in lines and "42-10 +16" in lines
    res = run("moves", "thats-my-line", "--json")
    data = json.loads(res.stdout)
    assert data["to_move"] == "Light" and len(data["moves"]) == 64 and data["outcome"] is None


def test_moves_from_a_position_file(record):
    path = record({"game": "david-goliath", "david": 60, "goliath": 5, "light_thrown": [45, 52, 56, 58, 61],
                   "dark_thrown": [], "to_move": "light", "ply": 10})
    res = run("moves", "david-goliath", "--position", path, "--json")
    data = json.loads(res.stdout)
    assert data["moves"] == [] and data["outcome"] == {"winner": "Dark/Goliath", "reason": "David (Light) cannot move"}
    assert data["notes"][0].startswith("the candidates are separated: David reaches 0 free nodes")


def test_perft_prints_the_count():
    assert run("perft", "power-of-two", "2").stdout.strip() == "4278"
    assert run("perft", "power-of-two", "2", "--start", "corners").stdout.strip() == "2294"
    assert run("perft", "david-goliath", "2").stdout.strip() == "26828"
    assert run("perft", "thats-my-line", "2", "--option", "stones=1").stdout.strip() == "3216"
    assert run("perft", "thats-my-line", "3", "--option", "stones=1").stdout.strip() == "0"  # both supplies used up
    res = run("perft", "power-of-two", "1", "--option", "exact_reserve=true", "--divide")
    assert res.stdout.splitlines()[-1] == "66" and "42-31 +28: 1" in res.stdout


def test_rule_flags_set_yes_no_options(record):
    # David walled in with one free node, Goliath with the rest: separated, Goliath has more room
    path = record({"game": "david-goliath", "david": 60, "goliath": 5, "light_thrown": [45, 52, 56, 58, 62],
                   "dark_thrown": [], "to_move": "light", "ply": 10})
    data = json.loads(run("moves", "david-goliath", "--position", path, "--json").stdout)
    assert data["outcome"] is None and data["moves"] == ["60-61*60"]
    assert data["notes"] == ["the candidates are separated: David reaches 1 free node, Goliath 56 (adjudication "
                             "aid: Goliath has more room; the game goes on without the option count_win)"]
    data = json.loads(run("moves", "david-goliath", "--position", path, "--json", "--count-win").stdout)
    assert data["moves"] == [] and data["outcome"] == {
        "winner": "Dark/Goliath",
        "reason": "the candidates are separated and Goliath has more free nodes to move in (1 to 56; option count_win)"}
    tower = record({"game": "tower-of-power", "stacks": {"d4": "W", "d5": "WB", "h8": "B"}, "to_move": "White"},
                   "tower.json")
    assert run("perft", "tower-of-power", "1", "--position", tower).stdout.strip() == "8"
    assert run("perft", "tower-of-power", "1", "--position", tower, "--no-step-capture").stdout.strip() == "7"
    assert run("perft", "power-of-two", "2", "--age-unserved", "--exact-reserve").stdout.strip() == "4278"
    res = run("perft", "power-of-two", "1", "--count-win")
    assert res.exit_code == 2 and "game power-of-two: unknown option 'count_win'" in res.stderr


def test_start_may_name_a_position_file(record):
    # RULES.md §6 "a start file": the CLI reads it (the rules layer reads no files)
    path = record({"game": "epaminondas", "white": ["a1"], "black": ["n12"], "to_move": "white"}, "p.json")
    res = run("perft", "epaminondas", "1", "--start", path)
    assert res.exit_code == 0 and res.stdout.strip() == "3"
    res = run("perft", "epaminondas", "1", "--start", "nowhere")
    assert res.exit_code == 2 and "board epaminondas has no start position 'nowhere'" in res.stderr


def test_empty_position_is_one_error_line_for_every_game(record):
    from powertwo.rules import get_game, game_names

    for name in game_names():
        path = record({"game": name, "position": {}, "moves": []}, f"{name}.json")
        res = run("validate", name, path)
        fields = get_game(name).position_fields
        assert res.exit_code == 2, name
        assert res.stderr.startswith(f"powertwo: position: missing field{'s' if len(fields) > 1 else ''} "
                                     + ", ".join(repr(f) for f in fields)), res.stderr


def test_perft_from_a_record_position(record):
    path = record({"game": "power-of-two", "moves": ["42-31 +28"]})
    res = run("perft", "power-of-two", "1", "--position", path)
    assert res.exit_code == 0 and res.stdout.strip() == str(len(run("moves", "power-of-two", "--position", path)
                                                               .stdout.splitlines()))


def test_validate_valid_illegal_and_malformed(record):
    ok = record({"game": "power-of-two", "moves": ["42-31 +28", "1-2"]})
    res = run("validate", "power-of-two", ok)
    assert res.exit_code == 0 and res.stdout == "valid: 2 moves, game not over\nLight to move\n"
    bad = record({"game": "power-of-two", "moves": ["42-31 +28", "22-28"]}, "bad.json")
    res = run("validate", "power-of-two", bad)
    assert res.exit_code == 1 and res.stdout == "move 2 (Dark) 22-28: destination 28 is occupied\n"
    over = record({"game": "thats-my-line", "options": {"stones": 1}, "moves": ["26", "60", "39"]}, "over.json")
    res = run("validate", "thats-my-line", over)
    assert res.exit_code == 1 and res.stdout.startswith("move 3 (Light) 39: the game is over")
    dg = record({"game": "david-goliath", "moves": ["60-45*30", "5-2*1"]}, "dg.json")
    res = run("validate", "david-goliath", dg)
    assert res.exit_code == 1 and res.stdout == "move 2 (Dark/Goliath) 5-2*1: Goliath moves 1 or 2 nodes, not 3 (5-2)\n"


@pytest.mark.parametrize("content, message", [
    ('{"game": "power-of-two", "moves": [', "not valid JSON"),
    ('{"game": "chess", "moves": []}', "the record is a game of 'chess', not power-of-two"),
    ('{"game": "power-of-two", "moves": ["42-31 +99"]}', "move 1 (Light) 42-31 +99: unknown node '99'"),
    ('{"game": "power-of-two", "moves": "42-31"}', "field 'moves' must be a list of move strings"),
    ('{"game": "power-of-two"}', "missing field 'moves'"),
    ('[1, 2]', "a game record must be a JSON object"),
    ('{"game": "power-of-two", "position": {"light": [60], "dark": [60]}, "moves": []}',
     "node 60 holds both a Light and a Dark stone"),
])
def test_validate_malformed_record_is_one_line(record, content, message):
    res = run("validate", "power-of-two", record(content))
    assert res.exit_code in (1, 2) and message in (res.stderr + res.stdout)
    assert "Traceback" not in res.output and len((res.stderr or res.stdout).strip().splitlines()) == 1


def test_unknown_game_and_wrong_player_to_move(record):
    res = run("validate", "chess", record({"game": "chess", "moves": []}))
    assert res.exit_code == 2 and "unknown game 'chess'" in res.stderr
    res = run("validate", "power-of-two", record({"game": "power-of-two", "moves": ["1-2"]}))
    assert res.exit_code == 1 and res.stdout == "move 1 (Light) 1-2: the stone on 1 is Dark's\n"


def test_play_refuses_illegal_moves_and_saves(tmp_path):
    out = tmp_path / "saved.json"
    script = f"42-22\n42-31 +28\nmoves\nundo\n60-61\nsave {out}\nquit\n"
    res = run("play", "power-of-two", input=script)
    assert res.exit_code == 0
    assert "refused: move 1 (Light) 42-22: destination 22 is occupied" in res.stdout
    assert "Dark> " in res.stdout and "after move 1, Dark to play move 2" in res.stdout
    # the last move is named with the record's numbering and marked > on the board (from 42, to 31, +28)
    assert "last move: move 1 (Light) 42-31 +28, marked > on the board" in res.stdout
    board = res.stdout.split("last move:")[0]
    assert ">31" not in board and ">L" in board and ">42" in board
    saved = json.loads(out.read_text())
    assert saved == {"game": "power-of-two", "start": "standard", "moves": ["60-61"]}
    assert run("validate", "power-of-two", str(out)).exit_code == 0


def test_play_says_where_the_stones_of_a_slide_may_go():
    res = run("play", "power-of-two", input="60-47\n42-31 +28 +36\nquit\n")
    assert "refused: move 1 (Light) 60-47: the slide opens 2 doorways: place 2 stones, not 0" in res.stdout
    assert "legal moves that begin '60-47': 60-47 +50 +51\n" in res.stdout
    assert "legal moves that begin '42-31 +28 +36'" not in res.stdout  # nothing legal goes on from it


def test_validate_show_prints_the_final_position(record):
    path = record({"game": "power-of-two", "moves": ["42-31 +28", "1-2"]})
    res = run("validate", "power-of-two", path, "--show")
    assert res.exit_code == 0, res.output
    assert "after move 2, Light to play move 3" in res.stdout
    assert "last move: move 2 (Dark) 1-2, marked > on the board" in res.stdout
    assert ">D" in res.stdout and ">1" in res.stdout
    assert "after move 2" not in run("validate", "power-of-two", path).stdout


def test_play_to_the_end_and_eof(tmp_path):
    res = run("play", "thats-my-line", "--option", "stones=1", input="26\n60\n")
    assert res.exit_code == 0
    assert "game over: Dark wins: neither can place; equal counts (1 to 1 stones), Dark placed last" in res.stdout
    res = run("play", "david-goliath", input="60-45\nhelp\n")
    assert "refused: move 1 (Light/David) 60-45: a throw is possible (e.g. to 52), so it is mandatory" in res.stdout
    assert "notation: FROM-TO*THROWN" in res.stdout


def test_check_and_draw_game_records(record, tmp_path):
    path = record({"game": "power-of-two", "moves": ["42-31 +28", "1-2"]})
    res = run("check", path)
    assert res.exit_code == 0 and res.stdout.startswith("valid: 2 moves")
    for move in ("1", "2"):
        out = tmp_path / f"after{move}.svg"
        res = run("draw", path, "--move", move, "-o", str(out))
        assert res.exit_code == 0, res.output
        assert out.read_text().startswith("<?xml")
    dg = record({"game": "david-goliath", "moves": ["60-45*30"]}, "dg.json")
    assert run("draw", dg, "-o", str(tmp_path / "dg.png")).exit_code == 0
    tml = record({"game": "thats-my-line", "moves": ["26"]}, "tml.json")
    assert run("draw", tml, "-o", str(tmp_path / "tml.svg")).exit_code == 0


def test_play_lists_only_the_first_moves_of_a_huge_position():
    # Netzwerk's opening has 30,366,414 distinct turns: `moves` shows the first ones and says so
    res = run("play", "netzwerk", input="moves\nquit\n")
    assert res.exit_code == 0, res.output
    listing = next(line for line in res.stdout.splitlines() if "... (more than 200;" in line)
    assert listing.count(" | ") == 200
    assert listing.endswith("... (more than 200; `powertwo perft GAME 1` counts them)")
