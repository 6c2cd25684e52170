"""The one progress callback of the toolkit: long work reports what it is doing as one line at a
time through a ``progress`` function its caller passes (the CLI shows it on stderr, the workbench
streams it to the page, :func:`no_progress` drops it). Library code never prints."""

from __future__ import annotations

from typing import Callable

Progress = Callable[[str], None]
"""Takes one line of progress."""


def no_progress(_: str) -> None:
    """The progress of a caller who does not want any."""
    return None


__all__ = ["Progress", "no_progress"]
