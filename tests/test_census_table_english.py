"""The English central game's fewest-moves table shipped with the package (``make census-moves``):
its answers equal the jump solver's on 20 positions of the central game, the start's is 18 moves
(the known optimum of the central game), and the workbench's hint says the fewest moves left."""

from __future__ import annotations

import random

import pytest

from powertwo.solvers.bitsets import mask_of, nodes_of
from powertwo.solvers.census.fewest import fewest_left, fewest_moves, shipped_table
from powertwo.solvers.census.reference import plain_moves
from powertwo.solvers.census.tables import centre_node, default_start, english_board
from powertwo.solvers.jump import solve_reverse

BOARD = english_board()
CENTRE = centre_node(BOARD)
START = mask_of(default_start(BOARD) or [])


@pytest.fixture(autouse=True)
def no_store(tmp_path, monkeypatch):
    monkeypatch.setenv("POWERTWO_CENSUS", str(tmp_path))  # only the shipped table


def game_positions(count: int, seed: int) -> list[int]:
    """Positions of the central game of 2-19 stones after 11-16 random moves that can still finish in
    the centre."""
    rng = random.Random(seed)
    out: list[int] = []
    while len(out) < count:
        p = START
        for _ in range(rng.randrange(11, 17)):
            keep = [q for q in sorted(plain_moves(BOARD, p)) if fewest_left(BOARD, nodes_of(q), CENTRE) is not None]
            if not keep:
                break
            p = rng.choice(keep)
        if p not in out and 1 < bin(p).count("1") < 20:  # the kernel builds no perimeter below 20 stones
            out.append(p)
    return out


def test_the_shipped_table_is_the_central_games():
    table = shipped_table(BOARD, CENTRE)
    assert table is not None and table.exact == 6 and not table.complete
    assert [len(level) for level in table.levels[:6]] == [1, 1, 16, 979, 14115, 126902]  # Bell's B[-0..-5]
    # past them, the central game's positions that can still finish in the centre (1,679,072 up to
    # symmetry, the solvable count of the census by jumps) but those of levels 0-5 (19,076)
    assert sum(len(level) for level in table.levels[6:]) == 1_659_996
    found = fewest_moves(BOARD, nodes_of(START), CENTRE)
    assert found.moves == 18 and len(found.positions) == 19 and found.positions[-1] == 1 << (CENTRE - 1)


@pytest.mark.slow  # 20 searches by the kernel
def test_the_tables_fewest_moves_equal_the_jump_solvers_on_20_positions():
    for p in game_positions(20, seed=52):
        table = solve_reverse(BOARD, position=nodes_of(p), target=CENTRE, backend="census-table")
        search = solve_reverse(BOARD, position=nodes_of(p), target=CENTRE)
        assert (table["status"], search["status"]) == ("optimal", "optimal")
        assert table["objective"] == search["objective"], BOARD.label
