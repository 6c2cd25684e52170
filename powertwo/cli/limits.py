"""The ranges of the CLI's options that size work, checked before any work starts.

* ``--workers``: 1 to the machine's core count (:func:`os.cpu_count`).
* ``--memory``: 1 MiB to the machine's physical memory (in MiB; the census's takes units: ``2GiB``).
* ``check --time-limit``: a positive number of seconds; :data:`CHECK_SECONDS` when not given.

A value outside its range is one line on stderr and exit code 2 (click's usage error, made one
line by the command group).
"""

from __future__ import annotations

import math
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


class MemorySize(click.ParamType):
    """An amount of memory: a number with a unit (``2GiB``, ``512MiB``, ``1.5G``; plain numbers are
    MiB), from 1 MiB to the machine's physical memory; converted to bytes."""

    name = "size"
    UNITS = {"": 2**20, "k": 2**10, "kb": 10**3, "kib": 2**10, "m": 2**20, "mb": 10**6, "mib": 2**20,
             "g": 2**30, "gb": 10**9, "gib": 2**30, "t": 2**40, "tb": 10**12, "tib": 2**40}

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        number = text.rstrip("abcdefghijklmnopqrstuvwxyz")
        unit = text[len(number):].strip()
        try:
            amount = float(number) if len(number) <= 12 and unit in self.UNITS else None
        except ValueError:
            amount = None
        top = memory_mib() * 2**20
        if amount is None or not math.isfinite(amount):
            self.fail(f"{str(value)[:40]} is not an amount of memory (say 2GiB or 512MiB)", param, ctx)
        size = int(amount * self.UNITS[unit])
        if not 2**20 <= size <= top:
            self.fail(f"{str(value)[:40]} is outside 1MiB..{memory_mib()}MiB (the memory of this machine)", param, ctx)
        return size
