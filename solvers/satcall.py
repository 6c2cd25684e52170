"""The one SAT-call helper of the solvers: a time limit, and Ctrl-C, without losing the search.

PySAT's C solvers neither watch a clock nor let Python see Ctrl-C while they run (CaDiCaL cannot
be interrupted at all), so every call runs in slices of :data:`CONFLICT_SLICE` conflicts
(learnt clauses are kept between slices). Between two slices the deadline is checked and a
pending Ctrl-C arrives as ``KeyboardInterrupt`` (or, caught by PySAT's C code inside a slice, as
its ``error("Caught keyboard interrupt")``), which :func:`sat_call` turns into "no answer"
and records on the :class:`Budget`, so the caller can return its best answer so far.

That is Ctrl-C for one solve (``powertwo solve``: the best answer so far, status ``feasible``). A
job made of many solves (``powertwo results``) runs inside :func:`ctrl_c_stops_the_job`: there the
first Ctrl-C raises :class:`JobInterrupted`, which no solver takes for "stop, best so far" (it is
no ``KeyboardInterrupt``), so the job ends at once and writes nothing more; PySAT's and CP-SAT's own
catches of the signal end in it too (:func:`sat_call`, :func:`cpsat_sigint`).
"""

from __future__ import annotations

import select
import signal
import socket
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

CONFLICT_SLICE = 5_000


class JobInterrupted(BaseException):
    """Ctrl-C inside :func:`ctrl_c_stops_the_job`: the whole job stops (not a ``KeyboardInterrupt``,
    which a solver would take as "stop with the best answer so far")."""

    def __init__(self) -> None:
        super().__init__("interrupted (Ctrl-C): the job stopped, nothing more written")


_JOB: list[bool] = []
"""Non-empty while a job that Ctrl-C stops as a whole runs (see :func:`ctrl_c_stops_the_job`)."""


def _stop_the_job(signum: int, frame: Any) -> None:
    raise JobInterrupted()


@contextmanager
def ctrl_c_stops_the_job() -> Iterator[None]:
    """Inside, the first Ctrl-C (SIGINT) raises :class:`JobInterrupted` wherever the job is (in the
    main thread; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _stop_the_job)
    _JOB.append(True)
    try:
        yield
    finally:
        _JOB.pop()
        signal.signal(signal.SIGINT, previous)


def job_runs() -> bool:
    """Whether Ctrl-C now stops a whole job (rather than one solve, with its best answer so far)."""
    return bool(_JOB)


@dataclass
class Budget:
    """The time a search may still take (``deadline`` on :func:`time.perf_counter`, or None),
    the conflicts it may still spend (``conflicts``, counted in slices: reproducible on any
    machine, unlike a deadline), and whether the user interrupted it."""

    deadline: float | None = None
    interrupted: bool = False
    conflicts: int | None = None
    spent_conflicts: int = 0
    conflict_slice: int = CONFLICT_SLICE
    """Conflicts per call between two looks at the clock (the search path depends on it)."""

    @classmethod
    def seconds(cls, limit: float | None) -> "Budget":
        return cls(None if limit is None else time.perf_counter() + limit)

    @property
    def spent(self) -> bool:
        """Whether the search must stop (deadline passed or Ctrl-C)."""
        return (self.interrupted or self.deadline is not None and time.perf_counter() >= self.deadline
                or self.conflicts is not None and self.spent_conflicts >= self.conflicts)

    @property
    def reason(self) -> str:
        if self.interrupted:
            return "interrupted (Ctrl-C)"
        if self.conflicts is not None and self.spent_conflicts >= self.conflicts:
            return f"{self.conflicts:,} conflicts spent"
        return "time limit"


def sat_call(solver: Any, assumptions: Sequence[int] = (), budget: Budget | None = None) -> bool | None:
    """``solver.solve(assumptions)``: True, False, or None when the budget ran out (deadline or
    Ctrl-C) first."""
    budget = budget if budget is not None else Budget()
    try:
        while not budget.spent:
            solver.conf_budget(budget.conflict_slice)
            answer = solver.solve_limited(assumptions=list(assumptions))
            budget.spent_conflicts += budget.conflict_slice
            if answer is not None:
                return bool(answer)
    except KeyboardInterrupt:
        budget.interrupted = True
    except Exception as exc:  # PySAT's C solvers catch SIGINT themselves: "Caught keyboard interrupt"
        if "keyboard interrupt" not in str(exc).lower():
            raise
        if job_runs():
            raise JobInterrupted() from None
        budget.interrupted = True
    return None


@contextmanager
def cpsat_sigint(solver: Any = None) -> Iterator[None]:
    """Around a CP-SAT solve: CP-SAT catches Ctrl-C itself (``catch_sigint_signal``: the search
    ends as at a time limit) but leaves the process without a SIGINT handler afterwards, so a later
    Ctrl-C would kill it. The Python handler that was in place is installed again.

    Inside :func:`ctrl_c_stops_the_job` (given the ``solver``) CP-SAT does not catch it: a watcher
    thread woken by the signal (:func:`signal.set_wakeup_fd`) stops the search, and the job's
    handler raises :class:`JobInterrupted` as the solve returns."""
    handler = signal.getsignal(signal.SIGINT)
    main = threading.current_thread() is threading.main_thread()
    watch = solver is not None and job_runs() and main
    if watch:
        solver.parameters.catch_sigint_signal = False
        woken, wake = socket.socketpair()
        wake.setblocking(False)
        old_fd = signal.set_wakeup_fd(wake.fileno(), warn_on_full_buffer=False)
        done = threading.Event()

        def stop_on_signal() -> None:
            while not done.is_set():
                if select.select([woken], [], [], 0.1)[0]:
                    solver.stop_search()
                    return

        watcher = threading.Thread(target=stop_on_signal, daemon=True)
        watcher.start()
    try:
        yield
    finally:
        if watch:
            done.set()
            signal.set_wakeup_fd(old_fd)
            watcher.join()
            woken.close()
            wake.close()
        if handler is not None and main:
            signal.signal(signal.SIGINT, handler)
