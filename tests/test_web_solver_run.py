"""The workbench's one solver run (:class:`powertwo.web.work.SolverRun`) against a stand-in
pool whose runs end only when the test says so, so that the order of events is fixed."""

from __future__ import annotations

import threading
import time

from powertwo.solvers.bounded import CANCELLED, DONE, Outcome
from powertwo.web.work import SolverRun


class HeldPool:
    """Each run waits until the test releases it (a cancelled run also waits: a worker
    process takes a while to stop), then ends as cancelled or with ``{"status": "optimal"}``."""

    def __init__(self) -> None:
        self.release: list[threading.Event] = []

    def load(self) -> dict[str, int]:
        return {"running": 0, "waiting": 0, "workers": 2, "queue": 4}

    def run(self, func, *args, time_limit, cancel, on_progress):
        release = threading.Event()
        self.release.append(release)
        release.wait(10)
        if cancel.is_set():
            return Outcome(CANCELLED, message="cancelled")
        return Outcome(DONE, value={"status": "optimal"})


class Stand:
    def __init__(self) -> None:
        self.pool = HeldPool()


def wait_for(predicate, seconds: float = 5.0) -> None:
    deadline = time.time() + seconds
    while not predicate() and time.time() < deadline:
        time.sleep(0.01)


def test_a_cancelled_run_that_ends_late_never_overwrites_the_next_run():
    runs = SolverRun(Stand())
    assert runs.start("one-by-one", "power-of-two", {}, 30, "tab")["state"] == "running"
    assert runs.cancel("tab")["state"] == "cancelled"
    assert runs.start("one-by-one", "power-of-two", {}, 30, "tab")["state"] == "running"
    wait_for(lambda: len(runs.work.pool.release) == 2)
    runs.work.pool.release[0].set()          # the cancelled run's worker stops only now
    time.sleep(0.2)
    assert runs.poll("tab")["state"] == "running"
    runs.work.pool.release[1].set()
    wait_for(lambda: runs.poll("tab")["state"] != "running")
    status = runs.poll("tab")
    assert (status["state"], status["result"]) == ("done", {"status": "optimal"})
    assert status["log"][-1] == "finished: status optimal"
