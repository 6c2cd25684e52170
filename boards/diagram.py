"""What a diagram shows, as plain values: stones, arrows, marked lines and the legend.

The rules' ``diagram`` hooks and the solvers build these; only :mod:`powertwo.boards.draw`
turns them into pictures with matplotlib. This module imports no drawing library, so a game
or a checker can describe a diagram without loading matplotlib.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import LineId, NodeId

ARROW = "#1f77b4"

LINE_KINDS = ("highlight", "too many", "too few", "none")
"""How a line can be marked: ``highlight`` (thick red: the lines the caption names, e.g. the
lines with exactly one stone) and the three faults of a wrong answer."""


@dataclass(frozen=True)
class Stone:
    """A stone to draw: ``color`` is ``"light"``, ``"dark"`` or ``"energy"`` (a neutral
    Netzwerk energy stone, drawn smaller); an aged stone is drawn
    hatched with a dashed rim (felt down), a fresh one plain; ``text`` is written on it
    (a stack height, a placing order)."""

    node: NodeId
    color: str
    aged: bool = False
    text: str = ""


@dataclass(frozen=True)
class Arrow:
    """A move or a chain of jumps: the nodes visited, in order. ``numbered`` writes 1, 2, ...
    beside each leg (the jumps of a chain, in order)."""

    path: tuple[NodeId, ...]
    color: str = ARROW
    numbered: bool = False


@dataclass(frozen=True)
class LineMark:
    """A line drawn in the colour of its ``kind`` (one of :data:`LINE_KINDS`)."""

    line: LineId
    kind: str = "highlight"

    def __post_init__(self) -> None:
        if self.kind not in LINE_KINDS:
            raise ValueError(f"line mark kind {self.kind!r} is not one of {', '.join(LINE_KINDS)}")


@dataclass(frozen=True)
class Overlay:
    """What a diagram draws over its board: ``stones``; lines marked by id, ``highlight`` (thick
    red), and by kind, ``lines`` (:class:`LineMark`); ``arrows``; nodes ringed, ``marks`` dashed red
    (free nodes of interest) and ``last`` blue (what the last move placed). Any iterable is kept as
    a tuple."""

    stones: tuple[Stone, ...] = ()
    highlight: tuple[LineId, ...] = ()
    lines: tuple[LineMark, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    marks: tuple[NodeId, ...] = ()
    last: tuple[NodeId, ...] = ()

    def __post_init__(self) -> None:
        for name in OVERLAY_FIELDS:
            object.__setattr__(self, name, tuple(getattr(self, name)))


OVERLAY_FIELDS = ("stones", "highlight", "lines", "arrows", "marks", "last")
"""The fields of :class:`Overlay`: a diagram's keywords (:func:`powertwo.boards.draw.figure`)
that go over the board; the others (``names``, ``title``, ``legend``) say how it is drawn."""

BARE = Overlay()
"""Nothing over the board: the empty board."""


LEGEND_KEYS = ("light", "dark", "aged", "energy", "number", "highlight", "too many", "too few", "none",
               "ring", "move", "arrow", "chain", "labels", "ids")
"""The legend's entries, in the order drawn: stones, numbers on stones, marked lines, ringed
nodes, arrows. A diagram's ``legend`` maps some of these keys to its own wording; the drawing
adds the default wording (:data:`DEFAULT_LEGEND`) for any other element it draws."""

DEFAULT_LEGEND = {
    "light": "Light stone",
    "dark": "Dark stone",
    "aged": "aged stone (hatched, dashed rim)",
    "energy": "energy stone",
    "number": "number on a stone",
    "highlight": "red line: marked line",
    "too many": "line with too many stones",
    "too few": "line with too few stones",
    "none": "line with no stone",
    "ring": "dashed red ring: marked node",
    "move": "blue ring: placed by the last move",
    "arrow": "arrow: the last move",
    "chain": "1, 2, ... beside an arrow: the jumps of one chain, in order",
    "labels": "small text: node names",
    "ids": "small numbers: node ids",
}

NODE_NAMES = ("labels", "ids")
"""What a diagram may write beside every node: its label (``a13``: what players call it, the
default of ``powertwo draw``) or its id (``60``: what answer files store)."""

