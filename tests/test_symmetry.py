"""Symmetry groups by generators (bliss through igraph): checked generators, group order, node
orbits, the listing cap, and lex-leader breaking from generators on boards with huge groups."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from networkx.algorithms.isomorphism import GraphMatcher

from powertwo.boards import Board, BoardError, from_segments, load
from powertwo.boards.board import SYMMETRY_LIST_CAP


def parallel_segments(lengths: list[int]) -> Board:
    """Disjoint horizontal lines, one per length (in nodes, one unit apart), one above the other."""
    coords, lines = [], []
    for i, n in enumerate(lengths):
        lines.append(tuple(range(len(coords) + 1, len(coords) + n + 1)))
        coords += [(Fraction(j), Fraction(2 * i)) for j in range(n)]
    return Board(name=f"par{len(lengths)}", coords=tuple(coords), lines=tuple(lines))


def networkx_symmetries(board: Board) -> set[tuple[int, ...]]:
    """The symmetries by another path: node permutations of the adjacency graph (VF2) that map
    every line onto a line, filtered by the board's own definition."""
    graph = board.to_networkx()
    perms = {tuple(m[v] for v in board.nodes) for m in GraphMatcher(graph, graph).isomorphisms_iter()}
    return {p for p in perms if board.is_symmetry(p)}


@pytest.mark.parametrize("name", ["power-of-two-sketch", "power-of-two"])
def test_the_group_from_generators_is_every_symmetry(name):
    board = load(name)
    assert set(board.symmetries) == networkx_symmetries(board)
    assert board.symmetries[0] == tuple(board.nodes)
    assert board.symmetry_order == len(board.symmetries) == 8
    assert all(board.is_symmetry(g) for g in board.symmetry_generators)


def test_a_permutation_that_breaks_a_line_is_no_symmetry():
    board = load("power-of-two-sketch")
    swap = list(board.nodes)
    swap[0], swap[1] = swap[1], swap[0]
    assert not board.is_symmetry(tuple(swap))
    assert not board.is_symmetry(tuple(board.nodes)[:-1])


@pytest.mark.parametrize("k", [7, 8, 12])
def test_parallel_segments_have_the_wreath_product_order(k):
    board = parallel_segments([2] * k)
    assert board.symmetry_order == math.factorial(k) * 2 ** k
    assert board.node_orbits == (tuple(board.nodes),)
    assert all(board.is_symmetry(g) for g in board.symmetry_generators)
    assert board.symmetry_breakers == board.symmetry_generators
    with pytest.raises(BoardError) as err:
        _ = board.symmetries
    assert str(err.value) == (f"board par{k}: {board.symmetry_order:,} symmetries, too many to list one by one "
                              f"(at most {SYMMETRY_LIST_CAP:,})")


def test_orbits_keep_segments_of_different_lengths_apart():
    board = parallel_segments([2, 2, 3])
    # the two 2-node segments swap and flip; the 3-node segment flips about its middle node
    assert board.symmetry_order == 2 * 2 * 2 * 2
    assert len(board.symmetries) == 16
    assert sorted(map(len, board.node_orbits)) == [1, 2, 4]


def test_a_segments_file_of_parallel_segments_builds_with_its_order():
    board = from_segments([((0, 2 * i), (2, 2 * i)) for i in range(7)], "par7")
    assert board.symmetry_order == math.factorial(7) * 2 ** 7


def test_info_reports_the_order_without_listing():
    assert parallel_segments([2] * 8).info()["symmetries"] == math.factorial(8) * 2 ** 8


@pytest.mark.parametrize("puzzle, options", [("one-by-one", {}), ("line-cover", {}), ("two-by-two", {"stones": 8}),
                                             ("two-by-two", {"at_most": True})])
def test_breaking_by_generators_keeps_the_optimum(puzzle, options):
    from powertwo.solvers.registry import get_puzzle

    board = parallel_segments([2] * 7 + [3])
    p = get_puzzle(puzzle)
    on = p.solve(board, symmetry=True, **options)
    off = p.solve(board, symmetry=False, **options)
    assert on["status"] == off["status"] == "optimal"
    assert on["objective"] == off["objective"]
