"""Bounded work and honest outputs at the command line: option ranges checked before any work,
``check --time-limit``, no output overwritten without ``--force``, drawn statuses called claimed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from powertwo.cli import main
from powertwo.cli.limits import UNDECIDED_EXIT, memory_mib

RESULTS = Path(__file__).resolve().parent.parent / "results"


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)), prog_name="powertwo")


def one_line(res) -> str:
    lines = res.output.strip().splitlines()
    assert len(lines) == 1, res.output
    return lines[0]


def test_workers_beyond_the_cores_are_refused_before_work():
    res = run("solve", "jump-reverse", "--time-limit", 10, "--workers", 100000)
    assert res.exit_code == 2
    assert one_line(res) == (f"powertwo solve: Invalid value for '--workers': 100000 is outside 1..{os.cpu_count()} "
                             "(the cores of this machine) (see powertwo solve --help)")


@pytest.mark.parametrize("value", ["0", "-3", "two", "1e3"])
def test_workers_must_be_a_whole_number_in_range(value):
    res = run("solve", "jump-reverse", "--workers", value)
    assert res.exit_code == 2
    assert "--workers" in one_line(res)


def test_memory_beyond_the_machine_is_refused():
    res = run("solve", "jump-reverse", "--memory", memory_mib() + 1)
    assert res.exit_code == 2
    assert one_line(res).endswith(f"{memory_mib() + 1} is outside 1..{memory_mib()} MiB (the memory of this machine) "
                                  "(see powertwo solve --help)")


def test_results_only_refuses_an_unknown_step(tmp_path):
    res = run("results", "--out", tmp_path / "r", "--only", "nonsense")
    assert res.exit_code == 2
    assert one_line(res).startswith("powertwo: --only nonsense: not a step of the results job (known: one-by-one, ")
    assert not (tmp_path / "r").exists()


def test_check_past_its_time_limit_is_not_decided():
    res = run("check", RESULTS / "thats-my-line-unlimited.json", "--time-limit", "0.3")
    assert res.exit_code == UNDECIDED_EXIT == 3
    assert one_line(res) == (f"powertwo: {RESULTS / 'thats-my-line-unlimited.json'}: "
                             "not decided within the limit (0.3 s)")


def test_check_within_its_time_limit_decides():
    res = run("check", RESULTS / "line-cover.json", "--time-limit", 120)
    assert res.exit_code == 0, res.output
    assert res.output.startswith("valid: 10 stones")


def test_solve_does_not_overwrite_without_force(tmp_path):
    out = tmp_path / "cover.json"
    out.write_text("keep")
    res = run("solve", "line-cover", "--out", out)
    assert res.exit_code == 2
    assert one_line(res) == f"powertwo: {out}: already exists, not overwritten (give --force to replace it)"
    assert out.read_text() == "keep"
    res = run("solve", "line-cover", "--out", out, "--force")
    assert res.exit_code == 0, res.output
    assert json.loads(out.read_text())["objective"] == 10


def test_proof_and_out_on_one_file_are_refused(tmp_path):
    both = tmp_path / "x.json"
    res = run("solve", "line-cover", "--backend", "sat", "--proof", both, "--out", both)
    assert res.exit_code == 2
    assert one_line(res) == f"powertwo: {both}: given to both --out and --proof, give two files"
    assert not both.exists()


def test_draw_calls_an_unchecked_status_claimed(tmp_path):
    data = json.loads((RESULTS / "line-cover.json").read_text())
    nodes = sorted(set(range(1, 61)) - set(data["stones"]))
    data["stones"] = sorted(data["stones"] + [nodes[0]])  # 11 stones, still "optimal" in the file
    data["objective"] = data["bound"] = 11
    claim = tmp_path / "claim.json"
    claim.write_text(json.dumps(data))
    out = tmp_path / "claim.svg"
    res = run("draw", claim, "-o", out)
    assert res.exit_code == 0, res.output
    svg = out.read_text()
    assert "11 stones, 32 of 32 lines covered (claimed optimal)" in svg
    assert "(optimal)" not in svg
    res = run("draw", claim, "-o", out)
    assert res.exit_code == 2
    assert one_line(res) == f"powertwo: {out}: already exists, not overwritten (give --force to replace it)"
    res = run("draw", claim, "-o", claim, "--force")
    assert res.exit_code == 2
    assert one_line(res) == f"powertwo: {claim}: is also an input of this command, not overwritten (write elsewhere)"
