"""The census engines against the plain breadth-first census on small boards: the compiled engine
level for level, exact big counts, the symmetric counts against sequences enumerated one by one,
the backward solvable pass against a plain recursion, the stored sets and the command line."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
from click.testing import CliRunner

from powertwo.boards import from_segments, load
from powertwo.cli import main
from powertwo.solvers.census import CensusError, CensusOptions, census_tables, is_solvable, run_census, solvable_set
from powertwo.solvers.census.counts import MODULUS, PRIMES, crt, residues
from powertwo.solvers.census.engine import Plan, run_levels
from powertwo.solvers.census.reference import plain_levels
from powertwo.solvers.census.tables import centre_node, image


def triangle(rows: int = 5):
    """The triangular board of ``rows`` rows (15 holes for 5) from its three families of lines."""
    side = rows - 1
    segs = []
    for c in range(side):
        segs.append(((0, c), (side - c, c)))
        segs.append(((c, 0), (c, side - c)))
        segs.append(((c + 1, 0), (0, c + 1)))
    return from_segments(segs, f"triangle-{rows * (rows + 1) // 2}")


def cross():
    """The English board cut down to 21 holes (arms of one row)."""
    segs = []
    for k in range(-2, 3):
        half = 2 if abs(k) <= 1 else 1
        segs.append(((-half, k), (half, k)))
        segs.append(((k, -half), (k, half)))
    return from_segments(segs, "cross-21")


def corner_game():
    board = triangle()
    corner = next(v for v in board.nodes if board.coord(v) == (0, 0))
    return board, [v for v in board.nodes if v != corner], corner


def central_game():
    board = cross()
    centre = centre_node(board)
    return board, [v for v in board.nodes if v != centre], centre


GAMES = {"triangle-15": corner_game, "cross-21": central_game}


@pytest.mark.parametrize("name", GAMES)
def test_compiled_engine_equals_plain_bfs_level_for_level(name):
    board, start, target = GAMES[name]()
    tables = census_tables(board, start, target)
    plain, plain_target = plain_levels(tables)
    fast = run_levels(tables, Plan(1 << 30, batch=64))  # small batches: many runs and merges
    assert [lv.key() for lv in fast.levels] == [lv.key() for lv in plain]
    assert fast.on_target == plain_target
    assert plain[-1].positions == plain[-1].dead_positions > 0


def test_triangle_corner_game_totals_equal_plain_sums():
    board, start, corner = corner_game()
    census = run_census(board, start, CensusOptions(target=corner))
    tables = census_tables(board, start, corner)
    plain, on_corner = plain_levels(tables)
    assert census.group_size == 2  # the reflection through the empty corner
    assert census.positions == sum(lv.positions for lv in plain)
    assert census.game_sequences == sum(lv.dead_sequences for lv in plain)
    assert census.solutions == on_corner
    assert census.to_dict()["totals"]["one_stone_sequences"] == plain[-1].sequences


def _all_sequences(tables):
    """Every jump sequence from the start as its tuple of positions (small boards only)."""
    out = []
    stack = [(tables.start,)]
    while stack:
        seq = stack.pop()
        out.append(seq)
        stack.extend(seq + (child,) for child in tables.successors(seq[-1]))
    return out


def test_counts_up_to_symmetry_equal_orbits_of_enumerated_sequences():
    board = triangle(4)
    centre = centre_node(board)
    start = [v for v in board.nodes if v != centre]
    census = run_census(board, start)
    tables = census_tables(board, start)
    assert tables.group_size == 6
    sequences = _all_sequences(tables)
    orbits = {min(tuple(image(p, pos) for pos in seq) for p in tables.group) for seq in sequences}
    games = {seq for seq in orbits if not tables.successors(seq[-1])}
    assert census.sequences == len(sequences)
    assert census.symmetric["jump_sequences"] == len(orbits)
    assert census.symmetric["game_sequences"] == len(games)
    assert census.symmetric["solutions"] == sum(1 for seq in games if seq[-1].bit_count() == 1)


def test_solvable_pass_equals_plain_recursion(tmp_path):
    board, start, corner = corner_game()
    tables = census_tables(board, start, corner)
    goal = 1 << (corner - 1)

    @lru_cache(maxsize=None)
    def solvable(pos: int) -> bool:
        return pos == goal or any(solvable(child) for child in tables.successors(pos))

    census = run_census(board, start, CensusOptions(target=corner, solvable=True, store=str(tmp_path)))
    level = {tables.start}
    for lv in census.levels:
        assert lv.solvable_positions == sum(1 for p in level if solvable(p))
        assert lv.solvable_classes == len({tables.canonical(p) for p in level if solvable(p)})
        level = {c for p in level for c in tables.successors(p)}
    stored = solvable_set(board, start, corner, store=tmp_path)
    assert stored is not None and len(stored) == sum(lv.solvable_classes for lv in census.levels)
    after_one = tables.successors(tables.start)
    for pos in after_one:
        nodes = [v for v in board.nodes if pos >> (v - 1) & 1]
        assert is_solvable(board, start, nodes, corner, store=tmp_path) is solvable(pos)
    assert is_solvable(board, start, start, None, store=tmp_path) is None  # no set stored for any last node


def test_crt_recombines_counts_past_two_words():
    for value in (0, 1, 2 ** 64 + 12345, 577116156815309849672 * 3, MODULUS - 1):
        assert crt(residues(value)) == value
    assert all(p < 2 ** 31 and p % 2 and all(p % d for d in range(3, 46341, 2)) for p in PRIMES)


def test_board_past_64_nodes_is_refused():
    board = load("netzwerk")
    with pytest.raises(CensusError, match="^board netzwerk: 85 nodes; the census packs a position into 64 bits$"):
        census_tables(board, [1, 2, 3])


def test_cli_census_english_first_levels(tmp_path):
    out = tmp_path / "c.json"
    plot = tmp_path / "c.png"
    result = CliRunner().invoke(main, ["census", "--board", "english", "--max-levels", "4", "--json", str(out),
                                       "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert [lv["positions"] for lv in data["levels"]] == [1, 4, 12, 60, 296]
    assert data["complete"] is False and data["symmetries_of_start"] == 8
    assert plot.stat().st_size > 1000
    assert "stopped after 4 jumps" in result.output


@pytest.mark.parametrize("args, message", [
    (["--board", "english", "--parquet", "x"], "--parquet: only the dask engine writes Parquet levels, not numba"),
    (["--board", "english", "--engine", "dask", "--solvable"],
     "--solvable: the backward pass runs on the numba engine, not dask"),
    (["--board", "netzwerk"], "board netzwerk: 85 nodes; the census packs a position into 64 bits"),
])
def test_cli_refuses_what_it_cannot_count(args, message):
    result = CliRunner().invoke(main, ["census", *args])
    assert result.exit_code == 2
    assert result.output.strip().endswith(message)


def test_cli_plain_engine_equals_compiled_engine_on_the_english_start(tmp_path):
    out = {}
    for engine in ("plain", "numba"):
        path = tmp_path / f"{engine}.json"
        result = CliRunner().invoke(main, ["census", "--board", "english", "--engine", engine, "--target", "17",
                                           "--max-levels", "6", "--json", str(path)])
        assert result.exit_code == 0, result.output
        data = json.loads(path.read_text())
        out[engine] = [{k: v for k, v in lv.items() if k not in ("seconds", "memory_bytes")} for lv in data["levels"]]
    assert out["plain"] == out["numba"]


def test_cli_target_by_label_names_nodes_by_label(tmp_path):
    board = load("english")
    out = {}
    for target in ("d4", "17"):
        path = tmp_path / f"{target}.json"
        result = CliRunner().invoke(main, ["census", "--board", "english-33", "--target", target, "--max-levels", "3",
                                           "--json", str(path)])
        assert result.exit_code == 0, result.output
        out[target] = json.loads(path.read_text())
        out[target].pop("seconds"), out[target].pop("peak_memory_bytes")
        for lv in out[target]["levels"]:
            lv.pop("seconds"), lv.pop("memory_bytes")
    assert out["d4"] == out["17"]
    assert out["d4"]["board"] == "english" and out["d4"]["target"] == "d4"
    assert out["d4"]["start"] == [board.label(v) for v in board.nodes if v != board.node("d4")]


def test_every_census_option_is_a_flag_with_its_help_and_default(monkeypatch):
    """The census's flags are made from the fields of CensusOptions (declared once): each field is
    a flag of the command, with the field's help and default, and a flag given reaches the field."""
    from dataclasses import fields

    params = {p.name: p for p in main.commands["census"].params}
    for f in fields(CensusOptions):
        flag = params[f.name]
        assert flag.opts == [f"--{f.name.replace('_', '-')}"]
        assert flag.help == f.metadata["help"] and flag.default == f.default
    seen = {}

    def capture(board, start, options, progress):
        seen["options"] = options
        raise CensusError("captured")

    monkeypatch.setattr("powertwo.solvers.census.run_census", capture)
    result = CliRunner().invoke(main, ["census", "--board", "english", "--engine", "disk", "--memory", "64MiB",
                                       "--workers", "1", "--scratch", "s", "--max-levels", "3", "--target", "d4"])
    assert result.output.strip().endswith("captured")
    options = seen["options"]
    assert (options.engine, options.memory, options.workers, options.scratch, options.max_levels) == \
        ("disk", 64 << 20, 1, "s", 3)
    assert options.target == load("english").node("d4")
