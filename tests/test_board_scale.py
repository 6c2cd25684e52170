"""Boards at scale (issue 50 item 10): the symmetry group of any board within the limits in
seconds, or a clear refusal. ``board info`` on 100 parallel segments took over 120 s, silently:
the deterministic Schreier-Sims (sympy) confirming bliss's count was the cause; the lines were built
by trying every node against every line."""

from __future__ import annotations

import json
import math
import time

import pytest
from click.testing import CliRunner

from powertwo.boards import BoardError, from_dict, load
from powertwo.boards.board import MAX_NODES, order_value
from powertwo.boards.build import MAX_SEGMENTS
from powertwo.cli import main

CPU_GUARD = 60.0
"""Seconds of CPU a board of the limits' size may take here (a generous guard: 2 s expected)."""


def parallel(n: int) -> dict:
    return {"name": f"parallel-{n}", "segments": [[[0, k], [10, k]] for k in range(n)]}


def test_a_hundred_parallel_segments_have_their_symmetry_group_counted_and_confirmed():
    """Issue 50, reproduction 10: each segment may be turned round and any two exchanged: 100! 2^100
    symmetries, counted by bliss and confirmed by a randomised Schreier-Sims."""
    began = time.process_time()
    board = from_dict(parallel(100))
    assert (board.size, len(board.lines), board.symmetry_confirmed) == (200, 100, True)
    assert board.symmetry_order == math.factorial(100) * 2 ** 100
    assert time.process_time() - began < CPU_GUARD
    assert order_value(board.symmetry_order) == "about 1.1830e188 (189 digits)"


def test_board_info_on_a_hundred_parallel_segments(tmp_path):
    path = tmp_path / "parallel.json"
    path.write_text(json.dumps(parallel(100)))
    res = CliRunner().invoke(main, ["board", "info", str(path)])
    assert res.exit_code == 0, res.output
    assert "board parallel-100: 200 nodes, 100 lines, about 1.1830e188 (189 digits) symmetries\n" in res.output
    data = json.loads(CliRunner().invoke(main, ["board", "info", str(path), "--json"]).stdout)
    assert data["symmetries"] == "about 1.1830e188 (189 digits)" and data["symmetries_confirmed"] is True


def test_past_the_confirmation_bound_the_count_is_bliss_s_and_says_so():
    board = from_dict(parallel(400))
    began = time.process_time()
    assert board.symmetry_order == math.factorial(400) * 2 ** 400 and not board.symmetry_confirmed
    assert time.process_time() - began < CPU_GUARD


@pytest.mark.parametrize("name", ["power-of-two", "english", "netzwerk", "tower-of-power"])
def test_the_shipped_boards_keep_their_groups(name):
    board = load(name)
    assert board.symmetry_confirmed
    assert board.symmetry_order == len(board.symmetries) == {"netzwerk": 8, "tower-of-power": 8}.get(name, 8)


def test_sympy_s_one_level_chain_is_avoided():
    """A group of two symmetries: sympy 1.14's randomised Schreier-Sims fails on a stabiliser chain
    of one level (IndexError); two first base points avoid it."""
    board = from_dict({"name": "two", "segments": [[[0, 0], [2, 0]], [[1, 0], [1, 3]]]})
    assert board.symmetry_order == 2


def test_boards_past_the_limits_are_refused_in_one_line():
    with pytest.raises(BoardError, match=f"^segments: 1,001 segments, more than the {MAX_SEGMENTS:,} a board may be "
                                         "drawn with$"):
        from_dict(parallel(MAX_SEGMENTS + 1), "big")
    grid = [[[0, k], [200, k]] for k in range(101)] + [[[k, 0], [k, 200]] for k in range(101)]  # 10,201 crossings
    with pytest.raises(BoardError, match=f"^segments: more than {MAX_NODES:,} nodes \\(ends and crossings\\), the "
                                         "most a board may have$"):
        from_dict({"name": "grid", "segments": grid}, "grid")
    with pytest.raises(BoardError, match=r"^grids\[0\]: 26 files of 1,000,000 ranks, more than the 10,000 "):
        from_dict({"name": "tall", "grids": [{"files": 26, "ranks": 1_000_000}]})
    nodes = {str(k): [k, 0] for k in range(1, MAX_NODES + 2)}
    with pytest.raises(BoardError, match="^board: 10,001 nodes, more than the 10,000 a board may have$"):
        from_dict({"name": "many", "nodes": nodes, "lines": []})


def test_crossings_and_lines_are_built_as_before():
    """The lines come from each segment's own crossings (not every node tried on every line): the
    shipped boards keep their fingerprints, and a board with T-junctions and collinear pieces too."""
    assert load("power-of-two").fingerprint == "5fe9c1bb8549d51a"
    board = from_dict({"name": "t", "segments": [[[0, 0], [4, 0]], [[2, 0], [2, 2]], [[5, 0], [6, 0]],
                                                 [[0, 1], [4, 1]]]})
    assert [[board.coord(v) for v in line] for line in board.lines] == [
        [(0, 1), (2, 1), (4, 1)], [(0, 0), (2, 0), (4, 0)], [(2, 0), (2, 1), (2, 2)], [(5, 0), (6, 0)]]
