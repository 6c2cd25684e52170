"""The ranges of the CLI's options that size work, checked before any work starts.

* ``--workers``: 1 to the machine's core count (:func:`os.cpu_count`).
* ``--memory``: 1 MiB to the machine's physical memory (in MiB).
* ``check --time-limit``: a positive number of seconds; :data:`CHECK_SECONDS` when not given.

A value outside its range is one line on stderr and exit code 2 (click's usage error, made one
line by the command group).
"""

from __future__ import annotations

import os
from typing import Any

import click

CHECK_SECONDS = 300.0
"""``check``'s time limit when none is given: five minutes."""

UNDECIDED_EXIT = 3
"""``check``'s exit code when the check is not decided within its limit (0 valid, 1 faults,
2 a refused input)."""


def cores() -> int:
    """The cores of this machine (at least 1)."""
    return os.cpu_count() or 1


def memory_mib() -> int:
    """The physical memory of this machine in MiB (a large number when the system does not say)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20)
    except (ValueError, OSError, AttributeError):
        return 2**20


class _Bounded(click.ParamType):
    """A whole number within ``1..top()`` (``what`` names the unit and the top in the message)."""

    name = "integer"

    def top(self) -> int:
        raise NotImplementedError

    def range_text(self) -> str:
        raise NotImplementedError

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        text = str(value).strip()
        if isinstance(value, bool) or not (text.isascii() and text.lstrip("+").isdigit()) or len(text) > 12:
            self.fail(f"{str(value)[:40]} is not a whole number in {self.range_text()}", param, ctx)
        number = int(text)
        if not 1 <= number <= self.top():
            self.fail(f"{number} is outside {self.range_text()}", param, ctx)
        return number


class Workers(_Bounded):
    """Search threads: 1 to the core count."""

    def top(self) -> int:
        return cores()

    def range_text(self) -> str:
        return f"1..{cores()} (the cores of this machine)"


class MemoryMiB(_Bounded):
    """MiB of memory: 1 to the machine's physical memory."""

    name = "mib"

    def top(self) -> int:
        return memory_mib()

    def range_text(self) -> str:
        return f"1..{memory_mib()} MiB (the memory of this machine)"
