"""The one status vocabulary of every solve: what an answer file's ``status`` says, and what each
backend's run reports.

* ``optimal``: an answer, and the proof that none is better;
* ``feasible``: an answer, not proven best (a time limit, Ctrl-C or a cap ended the search);
* ``infeasible``: the proof that no answer exists;
* ``unknown``: neither an answer nor a proof.

The statuses are plain strings in the answer files (JSON), so they are a :data:`Status` literal
type here, with one named constant each; code compares with the constants, never with the words.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

Status = Literal["optimal", "feasible", "infeasible", "unknown"]
OPTIMAL: Final = "optimal"
FEASIBLE: Final = "feasible"
INFEASIBLE: Final = "infeasible"
UNKNOWN: Final = "unknown"
STATUSES: tuple[Status, ...] = get_args(Status)
"""Every status, in the order above."""
ANSWERED: tuple[Status, ...] = (OPTIMAL, FEASIBLE)
"""The statuses of a run that found an answer."""
PROVEN: tuple[Status, ...] = (OPTIMAL, INFEASIBLE)
"""The statuses that claim a proof (of the optimum, or that no answer exists)."""


def is_status(value: object) -> bool:
    """Whether ``value`` is one of the :data:`STATUSES`."""
    return value in STATUSES


__all__ = ["ANSWERED", "FEASIBLE", "INFEASIBLE", "OPTIMAL", "PROVEN", "STATUSES", "UNKNOWN", "Status", "is_status"]
