"""The Dask engine on a LocalCluster of 2 in-process workers: the same levels as the compiled
engine on small boards, and a run that resumes from the Parquet levels of a stopped one."""

from __future__ import annotations

import json

import pytest

from powertwo.solvers.census import census_tables
from powertwo.solvers.census.distributed import STATE, dask_levels
from powertwo.solvers.census.engine import run_levels

from test_census import GAMES


@pytest.mark.parametrize("name", GAMES)
def test_dask_engine_equals_compiled_engine_level_for_level(name):
    board, start, target = GAMES[name]()
    tables = census_tables(board, start, target)
    fast, _, fast_target = run_levels(tables)
    spread, spread_target = dask_levels(tables, workers=2, processes=False)
    assert [lv.key() for lv in spread] == [lv.key() for lv in fast]
    assert spread_target == fast_target


def test_dask_engine_resumes_from_stored_levels(tmp_path):
    board, start, target = GAMES["triangle-15"]()
    tables = census_tables(board, start, target)
    first, _ = dask_levels(tables, store=str(tmp_path), max_levels=4, workers=2, processes=False)
    assert len(first) == 5 and (tmp_path / "level-04").is_dir() and not (tmp_path / "level-05").exists()
    assert len(json.loads((tmp_path / STATE).read_text())["levels"]) == 5
    seen: list[str] = []
    whole, on_target = dask_levels(tables, seen.append, store=str(tmp_path), workers=2, processes=False)
    fast, _, fast_target = run_levels(tables)
    assert [lv.key() for lv in whole] == [lv.key() for lv in fast] and on_target == fast_target
    assert seen[0].startswith("dask level 4 ")
