"""The disk engine (sorted runs merged window by window on disk) against the in-memory engine on
small boards with tiny chunks, batches and windows (many runs, many windows), a run that resumes
from its folder, a folder whose levels or figures were changed refused, the memory budget of the
in-memory engine (a sentence and the levels so far, never a level past it), and the command line's
bounds (--workers, --memory)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from powertwo.cli import main
from powertwo.cli.limits import cores
from powertwo.cli.solve_options import option_params
from powertwo.solvers.census import CensusError, CensusOptions, census_tables, run_census
from powertwo.solvers.census import disk as disk_engine
from powertwo.solvers.census.engine import Plan, run_levels
from powertwo.solvers.census.levelstore import STATE
from powertwo.solvers.registry import get_puzzle

from test_census import GAMES

TINY = disk_engine.Budget(parents=50, children=300, window=200)  # with FANIN 3: runs merged in tiers


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setattr(disk_engine.Budget, "of", staticmethod(lambda total: TINY))
    monkeypatch.setattr(disk_engine, "FANIN", 3)


@pytest.mark.parametrize("name", GAMES)
def test_disk_engine_equals_the_in_memory_engine_level_for_level(name, tiny, tmp_path):
    board, start, target = GAMES[name]()
    tables = census_tables(board, start, target)
    fast = run_levels(tables, Plan(1 << 30))
    run = disk_engine.disk_levels(tables, CensusOptions(target=target, engine="disk", scratch=str(tmp_path)),
                                  lambda _: None)
    assert [lv.key() for lv in run.levels] == [lv.key() for lv in fast.levels]
    assert run.on_target == fast.on_target
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == []  # the runs are gone
    census = run_census(board, start, CensusOptions(target=target, engine="disk"))
    assert census.complete and census.symmetric == run_census(board, start, CensusOptions(target=target)).symmetric


@pytest.mark.slow  # about 10 s of engine time
def test_disk_engine_equals_the_in_memory_engine_on_the_power_of_two_reverse_census(monkeypatch, tmp_path):
    """The reverse census of The Power of Two's default position (``results/jump-reverse.json``) to
    level 5 (602,642 positions), the disk engine with a small budget (tens of runs, tiers, many
    windows): the in-memory engine's figures level for level. Levels 6-8 are compared by the
    measured run in ``results/census-power-of-two-reverse.json`` (docs/census.md)."""
    from pathlib import Path

    from powertwo.boards import load
    from powertwo.solvers.census.tables import CensusTables

    monkeypatch.setattr(disk_engine.Budget, "of", staticmethod(
        lambda total: disk_engine.Budget(parents=20_000, children=150_000, window=60_000)))
    monkeypatch.setattr(disk_engine, "FANIN", 4)
    answer = json.loads((Path(__file__).resolve().parent.parent / "results" / "jump-reverse.json").read_text())
    tables: CensusTables = census_tables(load("power-of-two"), answer["position"])
    fast = run_levels(tables, Plan(1 << 32), max_levels=5)
    run = disk_engine.disk_levels(tables, CensusOptions(engine="disk", scratch=str(tmp_path), max_levels=5),
                                  lambda _: None)
    assert [lv.positions for lv in run.levels] == [1, 35, 623, 7_726, 75_084, 602_642]
    assert [lv.key() for lv in run.levels] == [lv.key() for lv in fast.levels]
    assert run.levels[5].sequences == 24_941_630


def test_disk_engine_resumes_and_refuses_a_changed_folder(tiny, tmp_path):
    board, start, target = GAMES["triangle-15"]()
    tables = census_tables(board, start, target)
    options = CensusOptions(target=target, engine="disk", scratch=str(tmp_path))
    first = disk_engine.disk_levels(tables, CensusOptions(**{**options.__dict__, "max_levels": 5}), lambda _: None)
    assert len(first.levels) == 6 and (tmp_path / "level-05.pos").is_file() and not (tmp_path / "level-06.pos").exists()
    seen: list[str] = []
    whole = disk_engine.disk_levels(tables, options, seen.append)
    fast = run_levels(tables, Plan(1 << 30))
    assert [lv.key() for lv in whole.levels] == [lv.key() for lv in fast.levels]
    assert seen[0] == f"resuming from level 5 in {tmp_path}" and seen[1].startswith("disk level 5 ")
    state = json.loads((tmp_path / STATE).read_text())
    state["levels"][2]["positions"] += 1
    (tmp_path / STATE).write_text(json.dumps(state))
    with pytest.raises(CensusError, match=r"level 2 does not match its hash \(its figures in census.json changed"):
        disk_engine.disk_levels(tables, options, lambda _: None)
    state["levels"][2]["positions"] -= 1
    (tmp_path / STATE).write_text(json.dumps(state))
    data = (tmp_path / "level-04.cnt").read_bytes()
    (tmp_path / "level-04.cnt").write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    with pytest.raises(CensusError, match=r"level 4 does not match its hash \(its stored positions changed"):
        disk_engine.disk_levels(tables, options, lambda _: None)
    (tmp_path / "level-04.cnt").unlink()
    with pytest.raises(CensusError, match=r"level 4 is missing"):
        disk_engine.disk_levels(tables, options, lambda _: None)


def test_a_level_past_the_free_disk_is_not_begun(tiny, tmp_path, monkeypatch):
    board, start, target = GAMES["triangle-15"]()
    tables = census_tables(board, start, target)
    fast = run_levels(tables, Plan(1 << 30))
    monkeypatch.setattr(disk_engine, "disk_reserve", lambda folder: 1 << 30)
    monkeypatch.setattr(disk_engine, "free_disk", lambda folder: (1 << 30) + 20_000)
    run = disk_engine.disk_levels(tables, CensusOptions(target=target, engine="disk", scratch=str(tmp_path)),
                                  lambda _: None)
    k = len(run.levels)
    assert 1 < k < len(fast.levels) and [lv.key() for lv in run.levels] == [lv.key() for lv in fast.levels[:k]]
    assert run.stopped.startswith(f"stopped before level {k}: building it needs about 0.0 GiB of disk in {tmp_path} ")
    assert run.stopped.endswith(", 1.0 GiB is free; the levels so far are counted")
    assert not (tmp_path / f"runs-{k:02d}").exists()


def test_runs_past_half_the_free_disk_are_squeezed_into_one(tiny, tmp_path, monkeypatch):
    """Runs that pass half the disk left are merged into one (the union so far), as often as they
    pass it again, and the levels stay the in-memory engine's."""
    board, start, target = GAMES["cross-21"]()
    tables = census_tables(board, start, target)
    monkeypatch.setattr(disk_engine, "disk_reserve", lambda folder: 1 << 30)
    monkeypatch.setattr(disk_engine, "free_disk", lambda folder: (1 << 30) + 2 * 24 * 200)  # room: 200 rows
    monkeypatch.setattr(disk_engine.DiskLevels, "room_for", lambda self, k: None)
    seen: list[str] = []
    run = disk_engine.disk_levels(tables, CensusOptions(target=target, engine="disk", scratch=str(tmp_path)),
                                  seen.append)
    assert [lv.key() for lv in run.levels] == [lv.key() for lv in run_levels(tables, Plan(1 << 30)).levels]
    squeezes = [line for line in seen if line.startswith("squeezing ")]
    assert len(squeezes) > 3 and squeezes[0].endswith(" into one: they pass half the free disk")


def test_a_build_that_fills_the_disk_stops_and_a_later_run_resumes(tiny, tmp_path, monkeypatch):
    board, start, target = GAMES["triangle-15"]()
    tables = census_tables(board, start, target)
    options = CensusOptions(target=target, engine="disk", scratch=str(tmp_path))
    monkeypatch.setattr(disk_engine, "disk_reserve", lambda folder: 1 << 30)
    monkeypatch.setattr(disk_engine, "free_disk", lambda folder: 0 if folder.name == "runs-04" else 1 << 40)
    run = disk_engine.disk_levels(tables, options, lambda _: None)
    assert len(run.levels) == 4 and run.stopped == (
        f"stopped while building level 4: the disk of {tmp_path} came within 1.0 GiB of full; its runs are removed "
        "and the levels so far are counted")
    assert not (tmp_path / "runs-04").exists() and not (tmp_path / "level-04.pos").exists()
    monkeypatch.setattr(disk_engine, "free_disk", lambda folder: 1 << 40)
    seen: list[str] = []
    whole = disk_engine.disk_levels(tables, options, seen.append)
    assert seen[0] == f"resuming from level 3 in {tmp_path}" and whole.stopped is None
    assert [lv.key() for lv in whole.levels] == [lv.key() for lv in run_levels(tables, Plan(1 << 30)).levels]


def test_a_folder_of_another_census_is_refused(tiny, tmp_path):
    board, start, target = GAMES["triangle-15"]()
    disk_engine.disk_levels(census_tables(board, start, target),
                            CensusOptions(engine="disk", scratch=str(tmp_path), max_levels=1), lambda _: None)
    with pytest.raises(CensusError, match=r"holds the levels of another census \(board, start or target differ\)$"):
        disk_engine.disk_levels(census_tables(board, start, None),
                                CensusOptions(engine="disk", scratch=str(tmp_path)), lambda _: None)


def test_the_in_memory_engine_stops_before_a_level_past_its_budget():
    board, start, target = GAMES["cross-21"]()
    whole = run_census(board, start, CensusOptions(target=target))
    tables = census_tables(board, start, target)
    sizes = [lv.classes for lv in whole.levels]
    budget = 24 * 3 * sizes[7] + 64 * sizes[6]  # level 7 fits (both levels and the runs), level 8 does not
    stopped = run_levels(tables, Plan(budget))
    assert len(stopped.levels) < len(whole.levels)
    assert [lv.key() for lv in stopped.levels] == [lv.key() for lv in whole.levels[:len(stopped.levels)]]
    k = len(stopped.levels)
    assert stopped.stopped.startswith(f"stopped before level {k}: building it would pass the memory budget of ")
    assert stopped.stopped.endswith("the levels so far are counted")


def test_cli_a_census_past_its_budget_says_so_and_writes_the_levels_so_far(tmp_path):
    out = tmp_path / "c.json"
    result = CliRunner().invoke(main, ["census", "--board", "english", "--memory", "1MiB", "--json", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["complete"] is False and data["stopped"].startswith("stopped before level ")
    assert "(--memory; " in data["stopped"] and data["levels"][0]["positions"] == 1
    assert data["stopped"] in result.output


@pytest.mark.parametrize("args, message", [
    (["--workers", "100000"], f"100000 is outside 1..{cores()} (the cores of this machine)"),
    (["--workers", "0"], f"0 is outside 1..{cores()} (the cores of this machine)"),
    (["--memory", "lots"], "lots is not an amount of memory (say 2GiB or 512MiB)"),
    (["--memory", "1e400"], "1e400 is not an amount of memory (say 2GiB or 512MiB)"),
    (["--memory", "0.5KiB"], "0.5KiB is outside 1MiB.."),
    (["--scratch", "x"], "--scratch: only the disk engine keeps its levels in a folder, not numba"),
    (["--backward"], "--backward: only a census by moves runs backward (use --by moves)"),
    (["--by", "moves", "--engine", "disk"], "--by moves: counted by the numba and plain engines, not disk"),
])
def test_cli_bounds_and_combinations_are_one_line(args, message):
    result = CliRunner().invoke(main, ["census", "--board", "english", *args])
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1


def test_cli_help_says_the_default_memory_budget():
    """Issue 50, item 1: the budget's default is a share of the machine, said in --help."""
    result = CliRunner().invoke(main, ["census", "--help"])
    assert "(default: 60% of this machine's memory)" in " ".join(result.output.split())


def test_cli_a_disk_budget_below_what_the_process_holds_is_one_line():
    result = CliRunner().invoke(main, ["census", "--board", "english", "--engine", "disk", "--memory", "1MiB"])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert lines[0].startswith("powertwo: --memory 0.0 GiB: the process already holds ")
    assert lines[0].endswith("; the disk engine needs 64 MiB more")


@pytest.mark.parametrize("engine", ["numba", "disk", "dask"])
def test_cli_census_takes_its_workers_range_from_where_solve_does(engine):
    """Issue 50, item 2: one range for --workers (the cores), whatever the engine, and the same
    message as solve's."""
    solve = {p.name: p for p in option_params([get_puzzle("jump-reverse")])}["workers"].type
    census = {p.name: p for p in main.commands["census"].params}["workers"].type
    assert type(solve) is type(census)
    many = cores() + 1
    result = CliRunner().invoke(main, ["census", "--board", "english", "--engine", engine, "--workers", str(many)])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1
    assert f"Invalid value for '--workers': {many} is outside 1..{cores()} (the cores of this machine)" in lines[0]


def test_the_census_imports_no_puzzle():
    """The census is a layer below the jump puzzle (which asks it for solvable sets and tables):
    no census module imports the jump package, not even inside a function."""
    import ast
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "solvers" / "census"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                module = ("." * node.level) + (node.module or "")
                assert "jump" not in module, f"{path.name} imports {module}"
