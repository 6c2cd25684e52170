"""``powertwo board info|draw|build``: output, files, and one-line errors with exit code 2."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from powertwo.cli import main

RULES_MD = Path(__file__).resolve().parents[1].parent / "shared" / "RULES.md"


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_board_info_json():
    res = run("board", "info", "power-of-two", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["name"] == "power-of-two"
    assert (data["nodes"], data["lines"], data["symmetries"]) == (64, 32, 8)
    assert data["line_lengths"] == {"3": 4, "5": 16, "7": 4, "8": 8}
    assert (data["coordinates"]["1"], data["labels"]["1"]) == (["-6", "6"], "a1")
    assert (data["coordinates"]["10"], data["labels"]["10"]) == (["-6/5", "18/5"], "f3")
    assert data["fingerprint"] == "5fe9c1bb8549d51a"


HEAD = """board power-of-two: 64 nodes, 32 lines, 8 symmetries
line lengths: 4 lines of 3, 16 lines of 5, 4 lines of 7, 8 lines of 8
adjacent pairs: 152, triangles: 80
fingerprint: 5fe9c1bb8549d51a
start positions: standard, corners, david-goliath
"""

NODE_ROWS = """nodes (id=label(x,y)), row by row:
row  1: 1=a1(-6,6) 2=e1(-2,6) 3=g1(0,6) 4=i1(2,6) 5=m1(6,6)
row  2: 6=d2(-10/3,14/3) 7=j2(10/3,14/3)
row  3: 8=c3(-4,4) 9=e3(-2,4) 10=f3(-6/5,18/5) 11=h3(6/5,18/5) 12=i3(2,4) 13=k3(4,4)
row  4: 14=b4(-14/3,10/3) 15=d4(-3,3) 16=g4(0,3) 17=j4(3,3) 18=l4(14/3,10/3)
row  5: 19=a5(-6,2) 20=c5(-4,2) 21=e5(-2,2) 22=g5(0,2) 23=i5(2,2) 24=k5(4,2) 25=m5(6,2)
row  6: 26=c6(-18/5,6/5) 27=f6(-1,1) 28=h6(1,1) 29=k6(18/5,6/5)
row  7: 30=a7(-6,0) 31=d7(-3,0) 32=e7(-2,0) 33=i7(2,0) 34=j7(3,0) 35=m7(6,0)
row  8: 36=c8(-18/5,-6/5) 37=f8(-1,-1) 38=h8(1,-1) 39=k8(18/5,-6/5)
row  9: 40=a9(-6,-2) 41=c9(-4,-2) 42=e9(-2,-2) 43=g9(0,-2) 44=i9(2,-2) 45=k9(4,-2) 46=m9(6,-2)
row 10: 47=b10(-14/3,-10/3) 48=d10(-3,-3) 49=g10(0,-3) 50=j10(3,-3) 51=l10(14/3,-10/3)
row 11: 52=c11(-4,-4) 53=e11(-2,-4) 54=f11(-6/5,-18/5) 55=h11(6/5,-18/5) 56=i11(2,-4) 57=k11(4,-4)
row 12: 58=d12(-10/3,-14/3) 59=j12(10/3,-14/3)
row 13: 60=a13(-6,-6) 61=e13(-2,-6) 62=g13(0,-6) 63=i13(2,-6) 64=m13(6,-6)
"""


def test_board_info_text_of_the_power_of_two_board():
    from powertwo.boards import load

    res = run("board", "info", "power-of-two")
    assert res.exit_code == 0, res.output
    assert res.output == HEAD + load("power-of-two").description + "\n" + NODE_ROWS


def test_board_info_text_of_the_square_sides_board():
    # the four sides add 8 adjacent pairs (two a side) and 8 triangles (each half side with a half diagonal
    # and a line through the thirds: e5-f6-e7, e5-g5-f6, ...)
    res = run("board", "info", "power-of-two-square-sides")
    assert res.exit_code == 0, res.output
    assert res.output.startswith("board power-of-two-square-sides: 64 nodes, 36 lines, 8 symmetries\n"
                                 "line lengths: 8 lines of 3, 16 lines of 5, 4 lines of 7, 8 lines of 8\n"
                                 "adjacent pairs: 160, triangles: 88\n"
                                 "fingerprint: 930cf443b2f6f988\n")
    assert res.output.endswith(NODE_ROWS)


def test_board_info_node_rows_are_those_of_rules_md():
    if not RULES_MD.exists():
        pytest.skip(f"{RULES_MD} is not there")
    text = RULES_MD.read_text(encoding="utf-8")
    section = text[text.index("## 1. The Power of Two board"):text.index("## 2. ")]
    rules_rows = [line for line in section.splitlines() if line.startswith("row ")]
    assert len(rules_rows) == 13
    for name in ("power-of-two", "power-of-two-square-sides"):
        rows = [line for line in run("board", "info", name).output.splitlines() if line.startswith("row ")]
        assert rows == rules_rows


def test_board_info_text():
    res = run("board", "info", "tower-of-power")
    assert res.exit_code == 0
    lines = res.output.splitlines()
    assert lines[0] == "board tower-of-power: 64 nodes, 42 lines, 8 symmetries"
    assert lines[lines.index("nodes (id=label(x,y)), row by row:") + 1] == (
        "row 1: 1=a8(0,7) 2=b8(1,7) 3=c8(2,7) 4=d8(3,7) 5=e8(4,7) 6=f8(5,7) 7=g8(6,7) 8=h8(7,7)")
    sketch = run("board", "info", "power-of-two-sketch").output.splitlines()
    assert sketch[sketch.index("nodes (id=(x,y)), row by row:") + 1] == (
        "row  1: 1=(-4,4) 2=(-2,4) 3=(0,4) 4=(2,4) 5=(4,4)")


@pytest.mark.parametrize("ext", ["svg", "png"])
def test_board_draw(tmp_path, ext):
    out = tmp_path / f"b.{ext}"
    res = run("board", "draw", "power-of-two", "-o", str(out), "--ids")
    assert res.exit_code == 0, res.output
    head = out.read_bytes()[:8]
    if ext == "png":
        assert head.startswith(b"\x89PNG")
    else:
        assert b"<svg" in out.read_bytes()[:400] or head.startswith(b"<?xml")


def test_board_draw_writes_names_by_default_ids_on_request_or_nothing(tmp_path):
    # matplotlib writes text as paths with the string in a comment per label
    out = tmp_path / "names.svg"
    run("board", "draw", "power-of-two", "-o", str(out))
    text = out.read_text()
    assert all(f"<!-- {node} -->" in text for node in ("a1", "b4", "c8", "m13"))
    assert "<!-- 64 -->" not in text
    out = tmp_path / "ids.svg"
    run("board", "draw", "power-of-two", "-o", str(out), "--ids")
    text = out.read_text()
    assert all(f"<!-- {node} -->" in text for node in ("1", "14", "36", "64"))
    assert "<!-- m13 -->" not in text
    out = tmp_path / "none.svg"
    run("board", "draw", "power-of-two", "-o", str(out), "--no-names")
    text = out.read_text()
    assert "<!-- a1 -->" not in text and "<!-- 1 -->" not in text
    res = run("board", "draw", "power-of-two", "-o", str(out), "--ids", "--no-names")
    assert res.exit_code == 2
    assert "--ids and --no-names exclude each other" in res.output


def test_board_draw_rejects_other_formats(tmp_path):
    res = run("board", "draw", "power-of-two", "-o", str(tmp_path / "b.pdf"))
    assert res.exit_code == 2
    assert res.output.strip().endswith("b.pdf: the output must end in .svg or .png")


def test_board_build_round_trip(tmp_path):
    src = tmp_path / "tri.json"
    src.write_text(json.dumps({"name": "tri", "segments": [[[0, 0], [4, 0]], [[4, 0], [0, 4]], [[0, 4], [0, 0]],
                                                             [[0, 0], ["2", "2"]]]}))
    out = tmp_path / "board.json"
    res = run("board", "build", str(src), "-o", str(out))
    assert res.exit_code == 0, res.output
    assert res.output.strip() == f"wrote {out}: 4 nodes, 4 lines, 2 symmetries"
    again = run("board", "info", str(out), "--json")
    data = json.loads(again.output)
    assert data["nodes"] == 4 and data["coordinates"]["1"] == ["0", "4"]


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON (line 1, column 2: Expecting property name enclosed in double quotes)"),
    ('{"name": "x", "segments": []}', "segments: the list of segments is empty"),
    ('{"name": "x", "segments": [[[1, 1], [1, 1]]]}', "segments[0]: zero-length segment at (1, 1)"),
    ('{"name": "x", "segments": [[[1, "a/b"], [2, 2]]]}',
     "segments[0] start y: coordinate 'a/b' is not a number (use an integer or a 'p/q' string)"),
    ('{"name": "x", "segments": [[[1], [2, 2]]]}', "segments[0] start: a point must be a pair [x, y], got [1]"),
    ('{"name": "x"}', "needs exactly one of the fields 'segments', 'grids' or 'nodes' (with 'lines')"),
    ('[1, 2]', "a board file must hold a JSON object"),
])
def test_board_build_bad_input_gives_one_line_and_exit_2(tmp_path, content, message):
    src = tmp_path / "bad.json"
    src.write_text(content)
    res = CliRunner().invoke(main, ["board", "build", str(src), "-o", str(tmp_path / "o.json")])
    assert res.exit_code == 2
    assert res.output == f"powertwo: {src}: {message}\n"
    assert "Traceback" not in res.output


def test_unknown_board_and_missing_file():
    res = run("board", "info", "no-such-board")
    assert res.exit_code == 2
    assert res.output.startswith("powertwo: no board named 'no-such-board' (shipped: ")
    res = run("board", "build", "/nonexistent/segments.json", "-o", "x.json")
    assert res.exit_code == 2
    assert res.output == "powertwo: /nonexistent/segments.json: no such file\n"


def test_board_lines_lists_every_line_with_its_nodes():
    from powertwo.boards import load

    board = load("power-of-two")
    res = CliRunner().invoke(main, ["board", "lines", "power-of-two"])
    assert res.exit_code == 0, res.output
    rows = res.stdout.splitlines()
    assert len(rows) == 32
    assert rows[0] == " 0: a1 e1 g1 i1 m1"
    assert [[board.node(v) for v in row.split(":")[1].split()] for row in rows] == [list(line) for line in board.lines]
    data = json.loads(run("board", "lines", "tower-of-power", "--json").stdout)
    assert data[0]["nodes"][0] == load("tower-of-power").label(load("tower-of-power").lines[0][0])
    assert run("board", "lines", "nope").exit_code == 2
