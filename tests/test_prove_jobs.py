"""The job runner (``prove --engine dask``): a split run on a LocalCluster of 2 in-process workers
against a brute-force minimax through the plain referee, every ply and every opening; the SQLite
store resumed by a second run; a store of another split refused; an unreachable scheduler in one
line; the certificates of proven jobs accepted by the independent checker; the CLI."""

from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner

from powertwo.cli import main
from powertwo.rules import get_game
from powertwo.solvers.proof_check import check_certificate
from powertwo.solvers.registry import SolutionError
from powertwo.solvers.prove import Limits, ProveError, Value
from powertwo.solvers.prove.jobs import Cluster, prove_split, split, write_certificates
from powertwo.solvers.prove.positions import Positions
from powertwo.solvers.prove.store import JobRow, JobStore

from test_prove import minimax
from test_thats_my_line_solitaire import grid

LIMITS = Limits(seconds=120, memory_mib=128)
THREADS = Cluster(workers=2, processes=False)
NEAR_END = {"david": 59, "goliath": 51, "light_thrown": [9, 12, 17, 19, 22, 26, 37, 42, 55, 60, 63],
            "dark_thrown": [2, 6, 8, 23, 38, 39, 44, 46, 53, 62, 64], "to_move": "dark", "ply": 23}


def _value(winner, to_move):
    return Value.NEITHER if winner is None else (Value.WON if winner == to_move else Value.LOST)


@pytest.mark.parametrize("stones,depth", [(2, 2), ("unlimited", 1)])
def test_split_run_agrees_with_plain_minimax_at_every_ply(stones, depth):
    game = get_game("thats-my-line", grid(3, False), stones=stones)
    start = game.start()
    result = prove_split(game, start, depth=depth, limits=LIMITS, cluster=THREADS)
    assert result.value == _value(minimax(game, start, 20), start.to_move)
    tree = split(game, start, depth, Positions.of(game))
    for count, keys in zip(result.plies, tree.plies(), strict=True):
        states = [tree.nodes[k].state for k in keys]
        values = [_value(minimax(game, s, 20), s.to_move) for s in states]
        assert (count.positions, count.won, count.lost, count.neither, count.unknown) == (
            len(states), values.count(Value.WON), values.count(Value.LOST), values.count(Value.NEITHER), 0)
    assert result.decided_depth == 0
    moves = game.legal_moves(start)
    assert len(result.openings) == len(moves)
    for opening in result.openings:
        after = game.apply(start, game.parse_move(opening.move, start))
        winner = minimax(game, after, 20)
        assert opening.value == (Value.WON if winner == start.to_move else Value.LOST)


def test_a_store_resumes_and_proven_jobs_carry_checked_certificates(tmp_path):
    game = get_game("david-goliath")
    state = game.state_from_json(NEAR_END)
    store = tmp_path / "jobs.sqlite"
    first = prove_split(game, state, depth=1, limits=LIMITS, store=str(store), cluster=THREADS)
    assert first.value == _value(minimax(game, state, 3), state.to_move) == Value.WON
    assert (first.figures.jobs, first.figures.run, first.figures.from_store) == (6, 6, 0)
    assert first.plies[1].unknown == 0 and first.decided_depth == 0
    seen: list[str] = []
    again = prove_split(game, state, depth=1, limits=LIMITS, store=str(store), cluster=THREADS,
                        progress=seen.append)
    assert (again.figures.run, again.figures.from_store) == (0, 6) and again.to_json() | {"jobs": 0} == \
        first.to_json() | {"jobs": 0}
    assert "6 jobs: 6 settled in the store, 0 to run" in seen
    with sqlite3.connect(store) as db:
        db.execute("DELETE FROM jobs WHERE rowid = (SELECT min(rowid) FROM jobs)")
    third = prove_split(game, state, depth=1, limits=LIMITS, store=str(store), cluster=THREADS)
    assert (third.figures.run, third.figures.from_store) == (1, 5) and third.value == first.value
    index = write_certificates(third, tmp_path / "certs")
    assert len(index) == 6 and json.loads((tmp_path / "certs" / "index.json").read_text()) == index
    report = check_certificate(tmp_path / "certs" / index[0]["file"])
    assert report.valid, report.faults


def test_an_unknown_job_is_run_again_only_under_a_longer_limit(tmp_path):
    row = JobRow(key="k", position={}, value="unknown", move=None, time_limit=5.0, seconds=5.0, expanded=9,
                 figures={})
    assert row.settled(5.0) and row.settled(1.0) and not row.settled(6.0) and not row.settled(None)
    assert JobRow(key="k", position={}, value="lost", move=None, time_limit=1.0, seconds=1.0, expanded=1,
                  figures={}).settled(None)
    store = JobStore(tmp_path / "s.sqlite", {"game": "david-goliath"})
    store.put(row)
    assert list(store.rows()) == [row]
    store.close()
    with pytest.raises(ProveError, match=r"s\.sqlite: holds the jobs of another split \(game differ\)"):
        JobStore(tmp_path / "s.sqlite", {"game": "power-of-two"})


def test_tower_of_power_is_not_split():
    game = get_game("tower-of-power")
    with pytest.raises(ProveError, match="depends on its history"):
        split(game, game.start(), 1, Positions.of(game))


def test_an_unreachable_scheduler_is_one_line(tmp_path):
    position = tmp_path / "pos.json"
    position.write_text(json.dumps(NEAR_END))
    res = run("prove", "david-goliath", "--position", str(position), "--engine", "dask", "--scheduler",
              "tcp://127.0.0.1:9")
    assert res.exit_code == 2 and res.stderr.startswith("powertwo: --scheduler tcp://127.0.0.1:9: cannot connect (")


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_prove_in_jobs_from_the_command_line(tmp_path):
    position = tmp_path / "pos.json"
    position.write_text(json.dumps(NEAR_END))
    store = tmp_path / "jobs.sqlite"
    res = run("prove", "david-goliath", "--position", str(position), "--engine", "dask", "--split-depth", "1",
              "--store", str(store), "--workers", "1", "--certificates", str(tmp_path / "certs"))
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == ("David and Goliath, the position, Dark/Goliath to move: won (wins with l10-k11*j10); "
                        "split 1 plies down")
    assert lines[2] == ("ply 1: 6 positions up to symmetry: 2 won, 4 lost, 0 neither, 0 unknown (for the side to "
                        "move there)")
    assert "moves at the root: 6: 4 proven winning, 2 proven losing, 0 not decided" in lines
    res = run("prove", "david-goliath", "--position", str(position), "--engine", "dask", "--store", str(store),
              "--json", "--workers", "1")
    data = json.loads(res.stdout)
    assert data["value"] == "won" and data["jobs"]["run"] == 0 and data["jobs"]["from_store"] == 6


@pytest.mark.parametrize("args,message", [
    (("--split-depth", "1"), "--split-depth: the jobs run on Dask: add --engine dask"),
    (("--store", "x.sqlite"), "--store, --scheduler and --certificates apply to --engine dask"),
    (("--engine", "dask", "--proof", "p.proof"), "--proof: a split run has a certificate per proven job"),
    (("--engine", "dask", "--scheduler", "tcp://127.0.0.1:9", "--workers", "1"), "--workers sizes the LocalCluster"),
])
def test_prove_in_jobs_refuses_options_that_do_not_fit(args, message):
    res = run("prove", "david-goliath", *args)
    assert res.exit_code == 2 and message in res.stderr


def test_the_results_step_checks_the_certificates_and_writes_its_table_from_the_json(tmp_path, monkeypatch):
    from powertwo.solvers.prove import split_results

    game = get_game("david-goliath")
    result = prove_split(game, game.state_from_json(NEAR_END), depth=1, limits=LIMITS, cluster=THREADS)
    folder = tmp_path / split_results.FOLDER
    answer = split_results._answer(result, folder / "david-goliath")
    (folder / "david-goliath.json").write_text(json.dumps(answer))
    monkeypatch.setattr(split_results, "GAMES", ("david-goliath",))
    rows, section = split_results.results(tmp_path, lambda message: None)
    assert rows[0].optimum == "won" and rows[0].answers == "jobs: 2 won, 4 lost, 0 unknown; 6 certificates checked"
    assert section[0] == split_results.SECTION
    assert "| 1 | 6 | 2 | 4 | 0 | 0 |" in section
    assert any(line.startswith("**David and Goliath** on `power-of-two`, Dark/Goliath to move from the start: "
                               "**won (wins with l10-k11*j10)**. Split 1 ply down into 6 jobs, each within 120 s")
               for line in section)
    first, second = (folder / job["certificate"] for job in answer["job_list"][:2])
    first.write_bytes(second.read_bytes())
    with pytest.raises(SolutionError, match=r"job-0000\.proof: not the proof of its job \(the position after "):
        split_results.results(tmp_path, lambda message: None)
    header, body = second.read_bytes().split(b"\n", 1)
    second.write_bytes(header + b"\n" + body[:-8])
    first.unlink()
    answer["job_list"][0]["certificate"] = None
    (folder / "david-goliath.json").write_text(json.dumps(answer))
    with pytest.raises(ValueError, match=r"job-0001\.proof: .*cut short|job-0001\.proof: refused by the checker"):
        split_results.results(tmp_path, lambda message: None)
