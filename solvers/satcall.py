"""The one SAT-call helper of the solvers: a time limit, and Ctrl-C, without losing the search.

PySAT's C solvers neither watch a clock nor let Python see Ctrl-C while they run (CaDiCaL cannot
be interrupted at all), so every call runs in slices of :data:`CONFLICT_SLICE` conflicts
(learnt clauses are kept between slices). Between two slices the deadline is checked and a
pending Ctrl-C arrives as ``KeyboardInterrupt`` (or, caught by PySAT's C code inside a slice, as
its ``error("Caught keyboard interrupt")``), which :func:`sat_call` turns into "no answer"
and records on the :class:`Budget`, so the caller can return its best answer so far.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

CONFLICT_SLICE = 5_000


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
        budget.interrupted = True
    return None


@contextmanager
def cpsat_sigint() -> Iterator[None]:
    """Around a CP-SAT solve: CP-SAT catches Ctrl-C itself (``catch_sigint_signal``: the search
    ends as at a time limit) but leaves the process without a SIGINT handler afterwards, so a later
    Ctrl-C would kill it. The Python handler that was in place is installed again."""
    handler = signal.getsignal(signal.SIGINT)
    try:
        yield
    finally:
        if handler is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, handler)
