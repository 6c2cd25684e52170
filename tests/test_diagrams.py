"""Diagrams: value types without matplotlib, legends, marked lines, numbering."""

from __future__ import annotations

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

    from powertwo.boards.draw import draw_on

    fig, ax = plt.subplots()
    entries = draw_on(ax, BOARD, stones=[Stone(1, "light", text="3"), Stone(2, "dark", aged=True)],
                      highlight=[0], lines=[LineMark(1, "too many"), LineMark(2, "none")],
                      arrows=[Arrow((1, 2, 3), numbered=True)], marks=[5], last=[1],
                      legend={"highlight": "red line: exactly one stone"})
    plt.close(fig)
    keys = [k for k, _ in entries]
    assert keys == ["light", "dark", "aged", "number", "highlight", "too many", "none", "ring", "move", "arrow",
                    "chain"]
    assert dict(entries)["highlight"] == "red line: exactly one stone"


def test_a_line_id_off_the_board_is_refused():
    import matplotlib.pyplot as plt

    from powertwo.boards.draw import draw_on

    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match=f"highlight: line {len(BOARD.lines)} does not exist"):
        draw_on(ax, BOARD, highlight=[len(BOARD.lines)])
    plt.close(fig)
    with pytest.raises(ValueError, match="line mark kind 'bad'"):
        LineMark(0, "bad")


def test_a_wrong_answer_marks_its_faulty_lines():
    from powertwo.models.cards import line_counts
    from powertwo.solvers.line_files import diagram_spec
    from powertwo.solvers.line_puzzles import variant

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
    assert out.read_text().count("answer ") == 8  # 8 optimal answers, 2 up to symmetry: every one drawn
