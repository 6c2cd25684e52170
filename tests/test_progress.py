"""Progress on a pipe or in a log (issue 50 item 11): work that goes on past two seconds gets a
timestamped line even when the library says nothing (``check`` was silent for 20 s on a pipe,
``board info`` too)."""

from __future__ import annotations

import re
import subprocess
import sys
import time

from powertwo.cli import common

LINE = re.compile(r"^\[\d\d:\d\d:\d\d\] (.*)$")


def heard(path, count: int, guard: float = 120.0) -> list[str]:
    """The lines written to ``path`` once there are ``count`` of them (waiting on the file, not a
    clock: ``guard`` seconds only keep a broken heartbeat from hanging the test)."""
    end = time.monotonic() + guard
    while time.monotonic() < end:
        lines = path.read_text().splitlines()
        if len(lines) >= count:
            return lines
        time.sleep(0.05)
    raise AssertionError(f"{path.read_text()!r}: fewer than {count} lines within {guard} s")


def test_silent_work_on_a_pipe_is_heard_of_then_heard_of_again(tmp_path, monkeypatch):
    """The heartbeat of a silent job, then of one whose last message says what it does."""
    log = tmp_path / "stderr.log"
    monkeypatch.setattr(common, "HEARTBEAT_FIRST", 0.2)
    monkeypatch.setattr(common, "HEARTBEAT_EVERY", 0.3)
    with log.open("w") as stream:
        monkeypatch.setattr(sys, "stderr", stream)
        with common.progress_display("checking f.json", after=0.0) as progress:
            first = heard(log, 1)
            progress("re-proving the bound")
            later = heard(log, 3)
    assert re.fullmatch(r"checking f\.json \(still working, \d+ s\)", LINE.match(first[0])[1])
    assert LINE.match(later[1])[1] == "re-proving the bound"
    assert re.fullmatch(r"checking f\.json: re-proving the bound \(still working, \d+ s\)", LINE.match(later[2])[1])
    time.sleep(0.5)
    assert len(log.read_text().splitlines()) == len(heard(log, 3))  # the timer stops with the work


def test_check_on_a_pipe_says_it_is_working(tmp_path):
    """``powertwo check`` through a pipe: every line on stderr is a timestamped progress line (a
    line past two seconds when the check takes that long), the verdict on stdout."""
    res = subprocess.run([sys.executable, "-m", "powertwo", "check", "results/one-by-one.json"], capture_output=True,
                         text=True, timeout=600, cwd=common.__file__.rsplit("/powertwo/", 1)[0])
    assert res.returncode == 0 and res.stdout.startswith("valid: 12 stones"), res.stderr
    for line in res.stderr.splitlines():
        assert re.fullmatch(r"\[\d\d:\d\d:\d\d\] checking results/one-by-one\.json \(still working, \d+ s\)", line)


def test_prove_on_a_pipe_says_it_is_working():
    """``powertwo prove`` through a pipe (issue 50 item 11 names it): a search held to 5 s runs past
    the first heartbeat (2 s), so stderr holds at least one timestamped line (the heartbeat, and the
    search's own count of positions when it reports one), and nothing else."""
    res = subprocess.run([sys.executable, "-m", "powertwo", "prove", "thats-my-line", "--time-limit", "5"],
                         capture_output=True, text=True, timeout=600, cwd=common.__file__.rsplit("/powertwo/", 1)[0])
    assert res.returncode == 3 and "not decided, no result" in res.stdout, res.stderr
    lines = res.stderr.splitlines()
    assert lines and all(re.fullmatch(r"\[\d\d:\d\d:\d\d\] (proving thats-my-line \(still working, \d+ s\)|"
                                      r"[\d,]+ positions expanded, \d+ s)", line) for line in lines), res.stderr
    assert any("still working" in line for line in lines), res.stderr
