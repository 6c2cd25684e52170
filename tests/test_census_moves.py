"""The census by moves against the plain breadth-first census by moves on small boards (forward,
backward, with and without a target), the solvable positions per level against a plain recursion,
the fewest-moves answer of a table (whole, or partial and met by a forward search) against a plain
search by moves, the ``census-table`` backend of ``solve jump-reverse``, and the command line."""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest
from click.testing import CliRunner

from powertwo.boards import save
from powertwo.cli import main
from powertwo.solvers.bitsets import nodes_of
from powertwo.solvers.census import CensusOptions, census_tables, moves_census
from powertwo.solvers.census.fewest import fewest_moves
from powertwo.solvers.census.reference import plain_moves
from powertwo.solvers.jump import check_reverse, solve_reverse

from test_census import GAMES


@lru_cache(maxsize=None)
def plain_fewest(board, position: int, target: int) -> int | None:
    """Moves to one stone on ``target`` by plain breadth-first search over moves (None: never)."""
    goal = 1 << (target - 1)
    level, seen, moves = {position}, {position}, 0
    while level:
        if goal in level:
            return moves
        level = {q for p in level for q in plain_moves(board, p)} - seen
        seen |= level
        moves += 1
    return None


@pytest.mark.parametrize("name, backward, targeted", [
    ("triangle-15", False, True), ("triangle-15", True, True), ("triangle-15", True, False),
    ("cross-21", False, True), ("cross-21", True, True),
])
def test_compiled_census_by_moves_equals_plain_bfs_level_for_level(name, backward, targeted):
    board, start, target = GAMES[name]()
    options = CensusOptions(target=target if targeted else None, by="moves", backward=backward)
    fast = moves_census(board, start, options)
    plain = moves_census(board, start, CensusOptions(**{**options.__dict__, "engine": "plain"}))
    assert [lv.key() for lv in fast.levels] == [lv.key() for lv in plain.levels]
    assert fast.complete and plain.complete and fast.stopped is None


@pytest.mark.parametrize("name", GAMES)
def test_forward_and_backward_hold_as_many_positions_when_the_start_is_the_targets_complement(name):
    """Backward play from a one-stone finish is forward play from its complement (as George Bell
    notes of the English board, whose two tables both hold 23,475,688 positions up to symmetry)."""
    board, start, target = GAMES[name]()
    assert set(start) == set(board.nodes) - {target}
    forward = moves_census(board, start, CensusOptions(target=target, by="moves"))
    backward = moves_census(board, start, CensusOptions(target=target, by="moves", backward=True))
    assert forward.classes == backward.classes and forward.positions == backward.positions
    assert [lv.classes for lv in forward.levels] != [lv.classes for lv in backward.levels]


def test_solvable_positions_per_level_by_moves_equal_a_plain_recursion():
    board, start, corner = GAMES["triangle-15"]()
    tables = census_tables(board, start, corner)
    goal = 1 << (corner - 1)

    @lru_cache(maxsize=None)
    def solvable(pos: int) -> bool:
        return pos == goal or any(solvable(child) for child in tables.successors(pos))

    census = moves_census(board, start, CensusOptions(target=corner, by="moves"))
    level, seen = {tables.start}, {tables.start}
    for lv in census.levels:
        assert lv.solvable_positions == sum(1 for p in level if solvable(p))
        assert lv.solvable_classes == len({tables.canonical(p) for p in level if solvable(p)})
        level = {q for p in level for q in plain_moves(board, p)} - seen
        seen |= level
    assert census.levels[0].solvable_positions == 1


def _positions(board, start: list[int], count: int, seed: int) -> list[int]:
    """Positions after a few random moves from the start, and one not reached from it."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        p = sum(1 << (v - 1) for v in start)
        for _ in range(rng.randrange(0, 9)):
            children = sorted(plain_moves(board, p))
            if not children:
                break
            p = rng.choice(children)
        out.append(p)
    return out + [((1 << board.size) - 1) ^ 1]


@pytest.mark.parametrize("name, levels", [("triangle-15", None), ("triangle-15", 2), ("cross-21", 3)])
def test_fewest_moves_from_a_table_equal_a_plain_search_by_moves(name, levels, tmp_path):
    """A whole table answers by look-up; a partial one (2 or 3 levels) by a meet in the middle.
    Every answer's positions are legal moves from the position to one stone on the target."""
    board, start, target = GAMES[name]()
    moves_census(board, start, CensusOptions(target=target, by="moves", backward=True, store=str(tmp_path),
                                             max_levels=levels))
    for p in _positions(board, start, 10, seed=levels or 0):
        found = fewest_moves(board, nodes_of(p), target, store=tmp_path)
        assert found.moves == plain_fewest(board, p, target)
        if found.moves is not None:
            assert len(found.positions) == found.moves + 1 and found.positions[0] == p
            assert found.positions[-1] == 1 << (target - 1)
            assert all(b in plain_moves(board, a) for a, b in zip(found.positions, found.positions[1:], strict=False))
            assert found.how.startswith("census: ")


def test_solve_jump_reverse_from_the_census_table_agrees_with_the_search(tmp_path, monkeypatch):
    board, start, target = GAMES["cross-21"]()
    monkeypatch.setenv("POWERTWO_CENSUS", str(tmp_path))
    moves_census(board, start, CensusOptions(target=target, by="moves", backward=True, store=str(tmp_path),
                                             max_levels=3))
    for p in _positions(board, start, 6, seed=7)[:-1]:
        table = solve_reverse(board, position=nodes_of(p), target=target, backend="census-table")
        search = solve_reverse(board, position=nodes_of(p), target=target)
        assert (table["status"], table["objective"]) == (search["status"], search["objective"])
        assert table["engine"] == "census-table" and table["bound"] == search["bound"]
        assert check_reverse(table, board).valid


def test_the_checker_reproves_a_census_table_answer_and_catches_its_mutations(tmp_path, monkeypatch):
    """A census-table answer's proof (kind 'fewest-moves table') is re-proved by the checker's own
    search; a false infeasible under it, or the kind claimed by another engine, is a fault."""
    board, start, target = GAMES["triangle-15"]()
    monkeypatch.setenv("POWERTWO_CENSUS", str(tmp_path))
    moves_census(board, start, CensusOptions(target=target, by="moves", backward=True, store=str(tmp_path),
                                             max_levels=3))
    p = next(p for p in _positions(board, start, 40, seed=7) if (plain_fewest(board, p, target) or 0) >= 2)
    answer = solve_reverse(board, position=nodes_of(p), target=target, backend="census-table")
    assert answer["proof"] == {"kind": "fewest-moves table", "bound": answer["objective"], "engine": "census-table"}
    assert answer["note"].startswith("census: ") and answer["objective"] == plain_fewest(board, p, target)
    report = check_reverse(answer, board)
    assert report.valid and report.notes[-1].startswith(f"status optimal; bound {answer['bound']} re-proved: ")
    false = dict(answer, moves=[], objective=None, status="infeasible", bound=len(nodes_of(p)),
                 proof={"kind": "fewest-moves table", "bound": len(nodes_of(p)), "engine": "census-table"})
    assert check_reverse(false, board).faults[0].startswith("status infeasible but a finish exists: ")
    other = dict(answer, engine="kernel", proof=dict(answer["proof"], engine="kernel"))
    assert check_reverse(other, board).faults == (
        "proof kind 'fewest-moves table': the kernel engine gives no such proof (it gives 'admissible bound', "
        "'exhausted search', 'position classes and pagodas')",)


def test_solve_jump_reverse_without_a_table_says_how_to_make_one(tmp_path, monkeypatch):
    board, start, target = GAMES["cross-21"]()
    monkeypatch.setenv("POWERTWO_CENSUS", str(tmp_path))
    with pytest.raises(ValueError, match=r"^--backend census-table: no fewest-moves table of board cross-21 to one "
                                         r"stone on \S+ is stored; 'powertwo census --board cross-21 --by moves "
                                         r"--backward --target \S+' makes one$"):
        solve_reverse(board, position=start, target=target, backend="census-table")


def test_cli_census_by_moves_on_the_english_board_first_levels(tmp_path):
    """George Bell's table of the central game: 1, 1, 2, 9, 47 positions up to symmetry after 0-4
    moves forward; 1, 1, 16, 979 backward from the centre."""
    for flags, classes in (([], [1, 1, 2, 9, 47]), (["--backward"], [1, 1, 16, 979])):
        out = tmp_path / f"c{len(flags)}.json"
        plot = tmp_path / f"c{len(flags)}.png"
        result = CliRunner().invoke(main, ["census", "--board", "english", "--by", "moves", *flags, "--max-levels",
                                           str(len(classes) - 1), "--store", str(tmp_path), "--json", str(out),
                                           "--plot", str(plot)])
        assert result.exit_code == 0, result.output
        data = json.loads(out.read_text())
        assert [lv["classes"] for lv in data["levels"]] == classes
        assert data["by"] == "moves" and data["complete"] is False
        assert data["target"] == ("d4" if flags else None)  # backward: the central game's centre by default
        assert data["direction"] == ("backward" if flags else "forward")
        assert data["stopped"] == f"stopped after {len(classes) - 1} moves (--max-levels): the totals cover those " \
                                  "levels only"
        assert plot.stat().st_size > 1000


def test_cli_census_by_moves_of_a_board_file_against_the_plain_engine(tmp_path):
    board, start, target = GAMES["cross-21"]()
    path = tmp_path / "cross.json"
    save(board, path)
    out = {}
    for engine in ("plain", "numba"):
        result = CliRunner().invoke(main, ["census", "--board", str(path), "--position", str(_start(tmp_path, board,
                                           start)), "--by", "moves", "--target", str(target), "--engine", engine,
                                           "--store", str(tmp_path), "--json", str(tmp_path / f"{engine}.json")])
        assert result.exit_code == 0, result.output
        data = json.loads((tmp_path / f"{engine}.json").read_text())
        out[engine] = [(lv["moves"], lv["classes"], lv["positions"]) for lv in data["levels"]]
        assert "(3,986 up to the 8 symmetries)" in result.output
    assert out["plain"] == out["numba"]


def _start(folder, board, start):
    path = folder / "start.json"
    path.write_text(json.dumps(start))
    return path
