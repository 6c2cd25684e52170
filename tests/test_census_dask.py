"""The Dask engine on a LocalCluster of 2 in-process workers: the same levels as the compiled
engine on small boards, a run that resumes from the Parquet levels of a stopped one, a folder whose
figures were edited refused, and a scheduler that is not there refused in one line."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from powertwo.solvers.census import CensusError, CensusOptions, census_tables
from powertwo.solvers.census.distributed import connect, dask_levels
from powertwo.solvers.census.engine import Plan, run_levels
from powertwo.solvers.census.levelstore import STATE

from test_census import GAMES


@pytest.mark.parametrize("name", GAMES)
def test_dask_engine_equals_compiled_engine_level_for_level(name):
    board, start, target = GAMES[name]()
    tables = census_tables(board, start, target)
    fast = run_levels(tables, Plan(1 << 30))
    spread, spread_target = dask_levels(tables, CensusOptions(engine="dask", workers=2), processes=False)
    assert [lv.key() for lv in spread] == [lv.key() for lv in fast.levels]
    assert spread_target == fast.on_target


def test_dask_engine_resumes_from_stored_levels_and_refuses_edited_ones(tmp_path):
    board, start, target = GAMES["triangle-15"]()
    tables = census_tables(board, start, target)
    options = CensusOptions(engine="dask", workers=2, parquet=str(tmp_path))
    first, _ = dask_levels(tables, CensusOptions(**{**options.__dict__, "max_levels": 4}), processes=False)
    assert len(first) == 5 and (tmp_path / "level-04").is_dir() and not (tmp_path / "level-05").exists()
    assert len(json.loads((tmp_path / STATE).read_text())["levels"]) == 5
    seen: list[str] = []
    whole, on_target = dask_levels(tables, options, seen.append, processes=False)
    fast = run_levels(tables, Plan(1 << 30))
    assert [lv.key() for lv in whole] == [lv.key() for lv in fast.levels] and on_target == fast.on_target
    assert seen[0] == f"resuming from level 4 in {tmp_path}" and seen[1].startswith("dask level 4 ")
    state = json.loads((tmp_path / STATE).read_text())
    state["levels"][3]["sequences"] += 1
    (tmp_path / STATE).write_text(json.dumps(state))
    with pytest.raises(CensusError, match=r"level 3 does not match its hash \(its figures in census.json changed"):
        dask_levels(tables, options, processes=False)


def _serve(behaviour: str) -> tuple[str, socket.socket]:
    """A local listener that never answers, or sends garbage to whoever connects."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            if behaviour == "garbage":
                conn.sendall(b"\xff" * 64 + b"HTTP/1.1 200 OK\r\n\r\nnot a scheduler" * 10)

    threading.Thread(target=answer, daemon=True).start()
    return f"tcp://127.0.0.1:{server.getsockname()[1]}", server


@pytest.mark.parametrize("behaviour", ["closed", "silent", "garbage"])
def test_a_scheduler_that_is_not_there_is_one_line_within_seconds(behaviour):
    if behaviour == "closed":
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        address, server = f"tcp://127.0.0.1:{probe.getsockname()[1]}", probe
    else:
        address, server = _serve(behaviour)
    began = time.monotonic()
    try:
        with pytest.raises(CensusError) as caught:
            connect(address, 1, 1 << 30)
    finally:
        server.close()
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"--scheduler {address}: ")
    assert time.monotonic() - began < 60  # a guard: the limit is 10 s a step


def test_a_scheduler_address_that_is_not_one_is_refused():
    with pytest.raises(CensusError, match=r"^--scheduler nonsense: not a scheduler address \(tcp://HOST:PORT\)$"):
        connect("nonsense", 1, 1 << 30)


def test_a_running_scheduler_is_connected():
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=1, processes=False, dashboard_address=":0", protocol="tcp") as cluster:
        client, own = connect(cluster.scheduler_address, 1, 1 << 30)
        try:
            assert own is None and client.submit(sum, [1, 2]).result() == 3
        finally:
            client.close()


def _one_line(args: list[str]) -> str:
    from click.testing import CliRunner

    from powertwo.cli import main

    result = CliRunner().invoke(main, ["census", "--board", "english", "--engine", "dask", *args])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    return lines[0]


@pytest.mark.parametrize("behaviour", ["closed", "garbage"])
def test_cli_a_scheduler_that_is_not_there_is_one_line(behaviour):
    """Issue 50, item 6, at the command line: a closed port or a peer sending garbage."""
    if behaviour == "closed":
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    else:
        address, server = _serve(behaviour)
    try:
        line = _one_line(["--scheduler", address])
    finally:
        server.close()
    assert line.startswith(f"powertwo: --scheduler {address}: ")
    assert ("cannot connect" if behaviour == "closed" else "not a Dask scheduler") in line


def test_cli_an_edited_parquet_folder_is_refused_in_one_line(tmp_path):
    """Issue 50, item 9, at the command line: the levels stored by an earlier run are checked by
    their hashes before any work, and an edited figure is one line."""
    from powertwo.solvers.census.tables import default_start, english_board

    board = english_board()
    dask_levels(census_tables(board, default_start(board) or []),
                CensusOptions(engine="dask", workers=1, parquet=str(tmp_path), max_levels=3), processes=False)
    state = json.loads((tmp_path / STATE).read_text())
    state["levels"][2]["positions"] += 1
    (tmp_path / STATE).write_text(json.dumps(state))
    assert _one_line(["--parquet", str(tmp_path)]) == (
        f"powertwo: {tmp_path}: level 2 does not match its hash (its figures in census.json changed since it was "
        "written); remove the folder to start over")
