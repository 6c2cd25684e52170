"""Writes (issue 50 items 4, 5 and 7): every file whole or not at all, never a proven answer
replaced by a worse one, ``--force`` for every command that writes, inputs never overwritten, and
Ctrl-C stopping a job (``results``) rather than being taken as "best so far"."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from powertwo.boards import load
from powertwo.boards.outfile import atomic_path, write_text
from powertwo.cli import main

RESULTS = Path(__file__).resolve().parents[1] / "results"


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def only_files(folder: Path) -> list[str]:
    """The names in ``folder`` (temporary files start with a dot: none may stay)."""
    return sorted(p.name for p in folder.iterdir())


# ------------------------------------------------------------------ whole or not at all
def test_an_interrupted_write_leaves_the_old_file_and_no_temporary_one(tmp_path):
    target = tmp_path / "good.json"
    target.write_text("old")
    with pytest.raises(KeyboardInterrupt):
        with atomic_path(target) as tmp:
            tmp.write_text("half of the ne")
            raise KeyboardInterrupt
    assert target.read_text() == "old" and only_files(tmp_path) == ["good.json"]
    write_text(target, "new")
    assert target.read_text() == "new" and only_files(tmp_path) == ["good.json"]
    assert oct(target.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_ctrl_c_while_drawing_with_force_keeps_the_old_diagram(tmp_path, monkeypatch):
    """Issue 50, reproduction 4: an interrupted ``draw -o good.png --force`` left a 0-byte file."""
    import matplotlib.figure

    good = tmp_path / "good.png"
    assert run("draw", RESULTS / "one-by-one.json", "-o", good).exit_code == 0
    before = good.read_bytes()

    def interrupted(self, fname, **kwargs):
        Path(fname).write_bytes(b"")  # the file opened, nothing written yet, then Ctrl-C
        raise KeyboardInterrupt

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", interrupted)
    res = run("draw", RESULTS / "two-by-two.json", "-o", good, "--force")
    assert res.exit_code == 130 and "interrupted" in res.output
    assert good.read_bytes() == before and only_files(tmp_path) == ["good.png"]


# ------------------------------------------------------------------ never worse
def test_an_unproven_answer_never_replaces_a_proven_one(tmp_path, monkeypatch):
    """Issue 50, reproduction 4: Ctrl-C on ``solve --out good.json --force`` replaced a certified
    optimal file with a feasible one. The old file stays; the new answer goes beside it."""
    import dataclasses

    from powertwo.solvers import registry

    good = tmp_path / "good.json"
    good.write_text((RESULTS / "one-by-one.json").read_text())
    before = good.read_text()
    puzzle = registry.get_puzzle("one-by-one")
    stopped = {"puzzle": "one-by-one", "board": "power-of-two", "status": "feasible", "objective": 13,
               "bound": 12, "stones": [], "stopped": "interrupted (Ctrl-C)"}
    halted = dataclasses.replace(puzzle, solve=lambda board, **kw: dict(stopped))
    monkeypatch.setattr(registry, "get_puzzle", lambda name: halted)
    res = run("solve", "one-by-one", "--out", good, "--force")
    assert res.exit_code == 0, res.output
    assert good.read_text() == before
    assert json.loads((tmp_path / "good.feasible.json").read_text())["status"] == "feasible"
    assert res.stderr.strip() == (f"powertwo: {good}: holds a proven answer (status optimal), kept; this run's "
                                  f"feasible answer (interrupted (Ctrl-C)) went to {tmp_path / 'good.feasible.json'}")
    again = run("solve", "one-by-one", "--out", good, "--force")  # a second one takes the next free name
    assert again.exit_code == 0 and (tmp_path / "good.feasible-2.json").exists() and good.read_text() == before
    monkeypatch.undo()
    proven = run("solve", "one-by-one", "--out", good, "--force")  # a proven answer replaces it
    assert proven.exit_code == 0 and "kept" not in proven.stderr
    assert json.loads(good.read_text())["status"] == "optimal"


@pytest.mark.slow
def test_ctrl_c_on_solve_out_force_keeps_the_certified_file(tmp_path):
    """The same with a real Ctrl-C: the jump-reverse kernel on a 32-stone position (the one of
    ``test_ctrl_c_in_jump_reverse_returns_the_best_answer_so_far``) stopped after its first answer,
    with ``--out`` naming a copy of the committed, proven answer file."""
    good = tmp_path / "good.json"
    good.write_text((RESULTS / "jump-reverse.json").read_text())
    before = good.read_text()
    seed_1 = tmp_path / "seed-1.json"
    seed_1.write_text(json.dumps({"position": [
        "e1", "i1", "c3", "e3", "i3", "g4", "a5", "c5", "e5", "i5", "k5", "m5", "k6", "d7", "e7", "j7", "c8", "k8",
        "a9", "e9", "i9", "k9", "m9", "b10", "g10", "c11", "e11", "f11", "i11", "k11", "e13", "i13"]}))
    proc = subprocess.Popen([sys.executable, "-m", "powertwo", "solve", "jump-reverse", "--position", str(seed_1),
                             "--target", "f6", "--out", str(good), "--force"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stderr is not None
    for line in proc.stderr:
        if "moves (best " in line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert good.read_text() == before
    beside = tmp_path / "good.feasible.json"
    assert json.loads(beside.read_text())["stopped"] == "interrupted (Ctrl-C)"
    assert f"{good}: holds a proven answer (status optimal), kept; this run's feasible answer " in err
    assert err.rstrip().endswith(f"went to {beside}") and "Traceback" not in err


# ------------------------------------------------------------------ --force and inputs
def test_census_json_and_plot_need_force_and_never_overwrite_an_input(tmp_path):
    """Issue 50, reproduction 5: ``census --json/--plot`` overwrote without ``--force``, and
    ``--json`` could overwrite its own ``--position``; all refused before any work."""
    position = tmp_path / "position.json"
    position.write_text(json.dumps({"position": ["c1", "d1", "e1", "c2", "d2", "e2"]}))
    taken = tmp_path / "taken.json"
    taken.write_text("{}")
    cases = [
        (("--json", taken), f"{taken}: already exists, not overwritten (give --force to replace it)"),
        (("--plot", taken), f"{taken}: already exists, not overwritten (give --force to replace it)"),
        (("--json", position, "--force"), f"{position}: is also an input of this command, not overwritten"),
        (("--plot", tmp_path / "p.txt"), f"--plot {tmp_path / 'p.txt'}: the output must end in .svg or .png"),
        (("--json", tmp_path / "a.svg", "--plot", tmp_path / "a.svg"), "given to both --json and --plot"),
    ]
    for extra, message in cases:
        res = run("census", "--board", "english", "--position", position, "--max-levels", "1", *extra)
        assert res.exit_code == 2 and message in res.output, res.output
        assert res.output.count("\n") == 1 and "jumps" not in res.output  # refused before the census ran
    assert taken.read_text() == "{}"
    res = run("census", "--board", "english", "--position", position, "--max-levels", "1", "--json", taken,
              "--plot", tmp_path / "plot.svg", "--force")
    assert res.exit_code == 0, res.output
    assert json.loads(taken.read_text())["levels"] and (tmp_path / "plot.svg").stat().st_size > 0
    assert only_files(tmp_path) == ["plot.svg", "position.json", "taken.json"]


def test_prove_proof_needs_force_never_overwrites_an_input_and_an_undecided_run_keeps_the_old_one(tmp_path):
    """``prove --proof`` follows the rules of every output: refused over a file without ``--force``
    and over its own input even with it (before any search); with ``--force`` the certificate is
    replaced whole; a run that proves nothing writes nothing, so the old certificate stays."""
    position = tmp_path / "pos.json"
    position.write_text(json.dumps({"game": "epaminondas", "to_move": "white", "white": ["m3"], "black": ["g2"]}))
    proof = tmp_path / "p.proof"
    proof.write_text("mine")
    prove = ("prove", "epaminondas", "--position", position)
    res = run(*prove, "--proof", proof)
    assert (res.exit_code, res.output) == (2, f"powertwo: {proof}: already exists, not overwritten (give --force "
                                              "to replace it)\n")
    res = run(*prove, "--proof", position, "--force")
    assert (res.exit_code, res.output) == (2, f"powertwo: {position}: is also an input of this command, not "
                                              "overwritten (write elsewhere)\n")
    assert proof.read_text() == "mine" and json.loads(position.read_text())["game"] == "epaminondas"
    res = run(*prove, "--proof", proof, "--force")
    assert res.exit_code == 0 and f"certificate: {proof}" in res.output, res.output
    assert run("check", proof).exit_code == 0
    certificate = proof.read_bytes()
    res = run("prove", "power-of-two", "--time-limit", "1", "--memory", "64", "--proof", proof, "--force")
    assert res.exit_code == 3 and f"no certificate written to {proof}: nothing was proven" in res.output
    assert proof.read_bytes() == certificate
    assert only_files(tmp_path) == ["p.proof", "pos.json"]


def test_results_out_needs_force_for_a_folder_that_holds_files(tmp_path):
    """Issue 50, reproduction 5: ``results --out`` overwrote without ``--force``."""
    (tmp_path / "old.txt").write_text("mine")
    res = run("results", "--out", tmp_path, "--only", "line-cover")
    assert res.exit_code == 2 and res.output == (
        f"powertwo: {tmp_path}: is not empty, not overwritten (give --force to replace what the job writes there)\n")
    res = run("results", "--out", tmp_path / "old.txt", "--force")
    assert res.exit_code == 2 and "is a file" in res.output and res.output.count("\n") == 1
    assert (tmp_path / "old.txt").read_text() == "mine"


def test_every_command_that_writes_takes_force():
    """Every command with an output file or folder refuses to overwrite without ``--force``."""
    writers = {"solve": "--out", "draw": "--out", "export": "--out", "census": "--json", "results": "--out",
               "prove": "--proof"}
    for name, option in writers.items():
        params = {p.name for p in main.commands[name].params}
        assert "force" in params, name
        assert any(option in p.opts for p in main.commands[name].params), name
    for name in ("draw", "build"):
        assert "force" in {p.name for p in main.commands["board"].commands[name].params}, name


# ------------------------------------------------------------------ Ctrl-C stops a job
def _interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.parametrize("backend", ["sat", "cp-sat"])
def test_inside_a_job_ctrl_c_stops_the_solver_instead_of_returning_its_best(backend):
    """Issue 50, reproduction 7: in ``results`` the running solver took Ctrl-C as "best so far"
    and the job went on (exit 0). Inside :func:`ctrl_c_stops_the_job` a SAT call (PySAT catches the
    signal in C) and a CP-SAT solve (stopped by the watcher) end in :class:`JobInterrupted`; the
    That's My Line solitaire with an unlimited supply takes either backend well past the signal."""
    from powertwo.solvers.satcall import JobInterrupted, ctrl_c_stops_the_job, job_runs
    from powertwo.solvers.thats_my_line import solve

    board = load("power-of-two")
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = _interrupt_after(1.0)
    try:
        with pytest.raises(JobInterrupted, match="the job stopped"), ctrl_c_stops_the_job():
            solve(board, backend=backend, stones="unlimited", time_limit=600)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert not job_runs() and signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_stops_the_results_job_with_exit_130_and_writes_nothing_half_done(tmp_path):
    """``powertwo results`` given Ctrl-C while its That's My Line step solves: exit 130 with one
    line, the step's answer files not written (before, the solver returned its best so far and the
    job went on to exit 0)."""
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "powertwo", "results", "--out", str(out), "--only",
                             "thats-my-line"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stderr is not None
    for line in proc.stderr:
        if "step 1/1: thats-my-line" in line:
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert err.rstrip().endswith("powertwo: interrupted (Ctrl-C): the job stopped, nothing more written"), err
    assert "Traceback" not in err
    assert not list(out.glob("thats-my-line*")) and not list(out.glob(".*"))


def test_play_never_saves_over_the_position_it_started_from(tmp_path):
    position = tmp_path / "position.json"
    position.write_text('{"light": [], "dark": []}')
    res = CliRunner().invoke(main, ["play", "thats-my-line", "--position", str(position)],
                             input=f"a1\nsave --force {position}\nsave {tmp_path / 'game.json'}\nquit\n")
    assert res.exit_code == 0, res.output
    assert f"not saved: {position}: is also an input of this command, not overwritten (write elsewhere)" in res.output
    assert position.read_text() == '{"light": [], "dark": []}'
    assert json.loads((tmp_path / "game.json").read_text())["moves"] == ["a1"]
