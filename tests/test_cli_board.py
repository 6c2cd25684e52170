"""``powertwo board info|draw|build``: output, files, and one-line errors with exit code 2."""

import json

import pytest
from click.testing import CliRunner

from powertwo.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_board_info_json():
    res = run("board", "info", "power-of-two", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["name"] == "power-of-two"
    assert (data["nodes"], data["lines"], data["symmetries"]) == (64, 32, 8)
    assert data["line_lengths"] == {"3": 8, "5": 16, "8": 8}
    assert data["coordinates"]["1"] == ["-4", "4"]
    assert data["coordinates"]["6"] == ["-8/3", "10/3"]


def test_board_info_text():
    res = run("board", "info", "tower-of-power")
    assert res.exit_code == 0
    assert res.output.splitlines()[0] == "board tower-of-power: 64 nodes, 42 lines, 8 symmetries"


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


def test_board_draw_svg_lists_every_id(tmp_path):
    out = tmp_path / "b.svg"
    run("board", "draw", "power-of-two", "-o", str(out), "--ids")
    text = out.read_text()
    # matplotlib writes text as paths with the string in a comment per label
    for node in (1, 14, 36, 64):
        assert f"<!-- {node} -->" in text


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
    assert rows[0] == " 0: 1 2 3 4 5"
    assert [[int(v) for v in row.split(":")[1].split()] for row in rows] == [list(line) for line in board.lines]
    data = json.loads(run("board", "lines", "tower-of-power", "--json").stdout)
    assert data[0]["nodes"][0] == load("tower-of-power").label(load("tower-of-power").lines[0][0])
    assert run("board", "lines", "nope").exit_code == 2
