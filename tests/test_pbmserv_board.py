"""Issue 14: the real board's node layout (pbmserv), the line-set inference, the shipped
``power-of-two-pbmserv`` board, its starts mapped from geometry, and perft of every game on it."""

from __future__ import annotations

import pytest

from powertwo.boards import load
from powertwo.rules import get_game
from powertwo.rules.plain import david_goliath as plain_dg
from powertwo.rules.plain import power_of_two as plain_p2
from powertwo.rules.plain import thats_my_line as plain_tml
from powertwo.solvers.board_inference import DRAWN_LINES, NODE_TABLE, fewest_lines, infer, node_points

BOARD = "power-of-two-pbmserv"


@pytest.fixture(scope="module")
def board():
    return load(BOARD)


def plain_perft(module, game, state, depth):
    if depth == 0:
        return 1
    moves = [m for m in module.candidates(game, state) if module.check(game, state, m) is None]
    return sum(plain_perft(module, game, game._apply(state, m), depth - 1) for m in moves)


# ---------------------------------------------------------------- the node layout and the board
def test_node_table_has_64_nodes_with_the_symmetries_of_the_square():
    points = {p for _, p in node_points()}
    assert len(points) == 64 == sum(len(cols) for cols in NODE_TABLE.values())
    assert all((-x, y) in points and (y, x) in points for x, y in points)


def test_shipped_board_has_the_table_nodes_and_the_drawn_lines(board):
    names = {p: n for n, p in node_points()}
    assert [names[(int(x), int(y))] for x, y in board.coords] == [n for n, _ in node_points()]
    lines = {tuple(names[(int(board.coord(v)[0]), int(board.coord(v)[1]))] for v in line) for line in board.lines}
    for drawn in DRAWN_LINES:
        assert drawn in lines or tuple(reversed(drawn)) in lines
    assert (board.size, len(board.lines), board.line_lengths) == (64, 32, {3: 16, 5: 12, 7: 4})


def test_starts_are_mapped_from_geometry(board):
    # reconstruction: the rules of RULES.md section 1 give its literal starts back
    recon = load("power-of-two")
    assert {k: dict(v) for k, v in recon.starts} == recon.mapped_starts()
    assert recon.outer_corners == (60, 64, 5, 1)
    # pbmserv board: corners a13 m13 (Light) a1 m1 (Dark); inner start nodes e9 i9 / e5 i5
    assert {k: dict(v) for k, v in board.starts} == board.mapped_starts()
    assert board.start("standard") == {"light": (60, 64, 42, 44), "dark": (1, 5, 21, 23)}
    assert board.diagonal_to_centre(60) == (60, 52, 48, 42, 37)  # a13 c11 d10 e9 f8; f8 is on the square


# ---------------------------------------------------------------- the inference
@pytest.mark.parametrize("square", ["axis", "diamond"])
def test_no_line_set_has_a_longest_line_of_8_nodes(square):
    assert infer(square=square, longest=8, no_loose_ends=False).solutions == []


@pytest.mark.slow
def test_fewest_lines_diamond_square_13_line_sets_and_the_shipped_one(board):
    assert fewest_lines(square="diamond", no_loose_ends=False)[0] == 32
    r = infer(square="diamond", no_loose_ends=False, lines=32, cap=100)
    assert r.complete and len(r.solutions) == 13
    shipped = {frozenset({(int(board.coord(line[0])[0]), int(board.coord(line[0])[1])),
                          (int(board.coord(line[-1])[0]), int(board.coord(line[-1])[1]))}) for line in board.lines}
    assert shipped == {frozenset(seg) for seg in r.segments(r.solutions[0])}
    assert "a1-c3-d4-e5-f6" in r.line_names(r.solutions[0])  # the corner diagonal reaches the square


def test_fewest_lines_axis_square_without_loose_ends_30_line_sets():
    assert fewest_lines(square="axis")[0] == 48
    r = infer(square="axis", lines=48, cap=100)
    assert r.complete and len(r.solutions) == 30


# ---------------------------------------------------------------- perft on the pbmserv board
@pytest.mark.parametrize("name, start, counts, plain, plain_depth", [
    ("power-of-two", "standard", [34, 1178, 37460], plain_p2, 2),
    ("power-of-two", "corners", [16, 274, 5152], plain_p2, 3),
    ("david-goliath", "standard", [82, 4938, 298646], plain_dg, 2),
    ("thats-my-line", "empty", [64, 3528, 192472], plain_tml, 2),
])
def test_perft_on_the_pbmserv_board(board, name, start, counts, plain, plain_depth):
    game = get_game(name, board=board)
    state = game.start(start)
    assert [game.perft(state, d) for d in (1, 2, 3)] == counts
    assert [plain_perft(plain, game, state, d) for d in range(1, plain_depth + 1)] == counts[:plain_depth]


def test_results_readme_puts_both_boards_side_by_side():
    from powertwo.solvers.registry import ResultRow
    from powertwo.solvers.results import _readme

    main = [ResultRow("one-by-one", "-", "16 stones", "optimal", "cp-sat, sat", "8 (2)", 0.03, ("one-by-one.json",))]
    extra = {BOARD: [ResultRow("one-by-one", "-", "14 stones", "optimal", "cp-sat, sat", "16 (1)", 3.2,
                               (f"{BOARD}/one-by-one.json",))]}
    text = _readme(main, [], 1.0, extra)
    assert f"## On `{BOARD}`" in text
    assert "| one-by-one | - | 16 stones (optimal, 0.03 s) | 14 stones (optimal, 3.20 s) |" in text
    assert f"[one-by-one.json]({BOARD}/one-by-one.json)" in text
