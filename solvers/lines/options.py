"""A line puzzle's solve options, read once into :class:`LineOptions`, and the keywords a solve
takes (:func:`keywords`): each option by its name with its default, so that
``inspect.signature`` shows a line puzzle's ``solve`` as taking its declared options (the
registry's convention) while the code passes one frozen object."""

from __future__ import annotations

import inspect
from dataclasses import dataclass, fields
from typing import Any

from ..registry import no_progress


@dataclass(frozen=True)
class LineOptions:
    """What ``powertwo solve`` passes to a line puzzle, by keyword; the defaults are the options'
    own (one-by-one and line-cover leave ``strict``, ``at_most`` and ``table`` at theirs)."""

    backend: str = "cp-sat"
    time_limit: float | None = None
    all_solutions: bool = False
    strict: bool = False
    symmetry: bool = True
    proof: str | None = None
    stones: Any = None
    """A number, a numeral or ``"unlimited"``; ``None``: the puzzle's own (:func:`.variants.stone_limit`)."""
    at_most: bool = False
    table: bool = False
    """Two by Two for every stone count instead (:mod:`.table`; ``time_limit`` is then per count)."""


def keywords(*first: inspect.Parameter) -> inspect.Signature:
    """The signature of a solve that takes ``first``, then every field of :class:`LineOptions` as
    a keyword with its default, then ``progress``; an unknown keyword is refused by
    ``LineOptions(**options)`` as Python refuses it."""
    options = [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default, annotation=f.type)
               for f in fields(LineOptions)]
    progress = inspect.Parameter("progress", inspect.Parameter.KEYWORD_ONLY, default=no_progress,
                                 annotation="Progress")
    return inspect.Signature([*first, *options, progress], return_annotation="dict[str, Any]")


BOARD = inspect.Parameter("board", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation="Board")
