"""Diagrams: value types without matplotlib, legends, marked lines, numbering."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from powertwo import rules
from powertwo.boards import load
from powertwo.boards.diagram import Arrow, LineMark, Stone

BOARD = load("power-of-two")
RESULTS = Path(__file__).resolve().parents[1] / "results"


def test_rules_describe_diagrams_without_importing_matplotlib():
    script = """
import importlib, pkgutil, sys
import powertwo.rules as rules
for mod in pkgutil.walk_packages(rules.__path__, "powertwo.rules."):
    importlib.import_module(mod.name)
for name in rules.game_names():
    game = rules.get_game(name)
    state = game.start(game.start_names[0] if game.start_names else None)
    move = game.moves(state).first(1)[0]
    after = game.apply(state, move)
    spec = game.diagram(after, move)
    assert spec["stones"] and spec["title"] and spec["legend"], name
print(sorted(m for m in sys.modules if m.split(".")[0] == "matplotlib"))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_every_game_diagram_has_a_legend_and_one_numbering():
    for name in rules.game_names():
        game = rules.get_game(name)
        state = game.start(game.start_names[0] if game.start_names else None)
        spec = game.diagram(state, None)
        assert spec["title"].endswith(f"start, {game.player_name(state.to_move)} to play move 1"), name
        move = game.moves(state).first(1)[0]
        after = game.apply(state, move)
        assert "after move 1, " in game.diagram(after, move)["title"], name


def test_the_legend_lists_what_is_drawn_in_the_callers_words():
    import matplotlib.pyplot as plt

    from powertwo.boards.draw import Overlay, draw_on

    fig, ax = plt.subplots()
    over = Overlay(stones=[Stone(1, "light", text="3"), Stone(2, "dark", aged=True)], highlight=[0],
                   lines=[LineMark(1, "too many"), LineMark(2, "none")], arrows=[Arrow((1, 2, 3), numbered=True)],
                   marks=[5], last=[1])
    entries = draw_on(ax, BOARD, over, legend={"highlight": "red line: exactly one stone"})
    plt.close(fig)
    keys = [k for k, _ in entries]
    assert keys == ["light", "dark", "aged", "number", "highlight", "too many", "none", "ring", "move", "arrow",
                    "chain"]
    assert dict(entries)["highlight"] == "red line: exactly one stone"


def test_a_line_id_off_the_board_is_refused():
    import matplotlib.pyplot as plt

    from powertwo.boards.draw import Overlay, draw_on

    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match=f"highlight: line {len(BOARD.lines)} does not exist"):
        draw_on(ax, BOARD, Overlay(highlight=[len(BOARD.lines)]))
    plt.close(fig)
    with pytest.raises(ValueError, match="line mark kind 'bad'"):
        LineMark(0, "bad")


def test_a_wrong_answer_marks_its_faulty_lines():
    from powertwo.models.cards import line_counts
    from powertwo.solvers.lines.files import diagram_spec
    from powertwo.solvers.lines import variant

    var = variant("one-by-one", False)
    stones = [1, 2, 3]  # the top edge holds three; lines through none of them hold none
    spec = diagram_spec(var, BOARD, stones)
    counts = line_counts(BOARD, stones)
    kinds = {m.line: m.kind for m in spec["lines"]}
    assert {k for k, kind in kinds.items() if kind == "too many"} == {k for k, n in enumerate(counts) if n > 1}
    assert {k for k, kind in kinds.items() if kind == "none"} == {k for k, n in enumerate(counts) if n == 0}
    assert spec["highlight"] == [k for k, n in enumerate(counts) if n == 1]
    assert "WRONG" in spec["title"]
    strict = diagram_spec(variant("two-by-two", True), BOARD, [1])
    assert {m.kind for m in strict["lines"]} == {"too few"}  # lines through node 1 hold one, not 0 or 2


def test_draw_refuses_options_that_do_not_apply(tmp_path):
    from click.testing import CliRunner

    from powertwo.cli import main

    runner = CliRunner()
    out = tmp_path / "x.svg"
    res = runner.invoke(main, ["draw", str(RESULTS / "one-by-one.json"), "--move", "2", "-o", str(out)])
    assert res.exit_code == 2 and "--move applies to game records; this is a one-by-one solution" in res.output
    res = runner.invoke(main, ["draw", str(RESULTS / "thats-my-line-16.json"), "--all", "-o", str(out)])
    assert res.exit_code == 2 and "--all does not apply to a thats-my-line solution" in res.output
    res = runner.invoke(main, ["draw", str(RESULTS / "one-by-one.json"), "--all", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_text().count("answer ") == 2  # 2 optimal answers, 1 up to symmetry: every one drawn
    # the jump diagrams' small panels name no node by default; --labels and --ids name them
    res = runner.invoke(main, ["draw", str(RESULTS / "jump-reverse.json"), "-o", str(out), "--force"])
    assert res.exit_code == 0, res.output
    assert not [t for t in node_texts(out.read_text()) if t[0].isalpha()]  # (numbers: the chains' jumps)
    for flag, names in (("--labels", {"a13", "m13"}), ("--ids", {"60", "64"})):
        res = runner.invoke(main, ["draw", str(RESULTS / "jump-reverse.json"), flag, "-o", str(out), "--force"])
        assert res.exit_code == 0, res.output
        assert names <= set(node_texts(out.read_text())), flag


def node_texts(svg: str) -> list[str]:
    """The node names an SVG diagram writes (matplotlib keeps each text in a comment)."""
    return re.findall(r"<!-- ([a-m]\d{1,2}|\d{1,2}) -->", svg)


@pytest.mark.parametrize("source", ["one-by-one.json", "thats-my-line-16.json"])
def test_draw_names_the_nodes_by_label_unless_asked_for_ids(source, tmp_path):
    from click.testing import CliRunner

    from powertwo.cli import main

    runner = CliRunner()
    written = {}
    for flags in ((), ("--labels",), ("--ids",), ("--no-names",)):
        out = tmp_path / f"d{len(written)}.svg"
        res = runner.invoke(main, ["draw", str(RESULTS / source), "-o", str(out), *flags])
        assert res.exit_code == 0, res.output
        written[flags] = node_texts(out.read_text())
    assert sorted(written[()]) == sorted(BOARD.labels) == sorted(written[("--labels",)])
    assert sorted(written[("--ids",)]) == sorted(str(v) for v in BOARD.nodes)
    assert written[("--no-names",)] == []


def test_draw_names_game_record_nodes_by_label(tmp_path):
    from click.testing import CliRunner

    from powertwo.cli import main

    record = tmp_path / "game.json"
    record.write_text('{"game": "thats-my-line", "moves": ["a13", "m1"]}')
    runner = CliRunner()
    for flags, names in (((), sorted(BOARD.labels)), (("--ids",), sorted(str(v) for v in BOARD.nodes)),
                         (("--no-names",), [])):
        out = tmp_path / "g.svg"
        res = runner.invoke(main, ["draw", str(record), "-o", str(out), "--force", *flags])
        assert res.exit_code == 0, res.output
        assert sorted(node_texts(out.read_text())) == names


def test_the_sketch_board_s_labels_are_its_ids(tmp_path):
    """power-of-two-sketch names its nodes "1".."64": labels and ids write the same."""
    import matplotlib.pyplot as plt

    from powertwo.boards.draw import draw_on

    sketch = load("power-of-two-sketch")
    texts = {}
    for names in ("labels", "ids"):
        fig, ax = plt.subplots()
        entries = draw_on(ax, sketch, names=names)
        texts[names] = sorted(t.get_text() for t in ax.texts)
        assert [k for k, _ in entries] == [names]
        plt.close(fig)
    assert texts["labels"] == texts["ids"] == sorted(str(v) for v in sketch.nodes)
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="node names 'numbers': write one of labels, ids"):
        draw_on(ax, sketch, names="numbers")
    plt.close(fig)
