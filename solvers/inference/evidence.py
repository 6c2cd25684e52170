"""The evidence of the board inference: the play-by-mail server's node display, and the hypothesis class."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import Mapping

from powertwo.boards.io import DATA_PACKAGE


EVIDENCE_FILE = "evidence/pbmserv-display.json"
"""The evidence, relative to the shipped boards' data folder."""

Lattice = tuple[int, int]
"""A lattice point (integer coordinates) of the board's plane."""
LatticeSegment = tuple[Lattice, Lattice]
"""A segment between lattice points, its ends in ascending order."""
ExactPoint = tuple[Fraction, Fraction]
Cell = tuple[int, int]
"""A display cell by the lattice point at its centre."""

OUTER = 6
"""The outer square is ``[-OUTER, OUTER]^2``."""

CENTRAL_SQUARES: Mapping[str, tuple[Lattice, ...]] = {
    "diamond": ((0, 2), (2, 0), (0, -2), (-2, 0)),
    "axis": ((-2, 2), (2, 2), (2, -2), (-2, -2)),
}
"""The two central squares of the hypothesis, by their corners in order around them: the diamond
g5, i7, g9, e7 and the axis-parallel square e5, i5, i9, e9."""

HYPOTHESIS = (
    "The outer square is [-6,6]^2 (cell a1 = (-6,6), m13 = (6,-6)). The central square is either the diamond "
    "with corners g5, i7, g9, e7 (|x| + |y| = 2) or the axis-parallel square e5-i5-i9-e9 (max(|x|, |y|) = 2). "
    "The lines are a set of families, each the orbit under the 8 symmetries of the square of one segment whose "
    "two endpoints are lattice points (integer coordinates) on the outer square's border or on the central "
    "square's boundary and which does not enter the central square's interior. Collinear segments that touch "
    "or overlap form one line; two chosen families never have such segments (their union is another family of "
    "the class). A solution: the exact endpoints and crossings round to exactly the 64 cells of the display "
    "(one node a cell, no coordinate within 1/10 of a half), and the horizontal and vertical lines are exactly "
    "the drawn ones, node for node."
)


class InferenceError(ValueError):
    """The evidence file is malformed or a drawn line does not fit the hypothesis class."""


# ----------------------------------------------------------------------------- evidence
@dataclass(frozen=True)
class Evidence:
    """The server's display: ``nodes`` are the names of the cells holding a node, in reading order
    (row by row, each row by column); ``drawn_lines`` the lines it draws, by cell names in order."""

    source: str
    columns: str
    first: Lattice
    nodes: tuple[str, ...]
    drawn_lines: tuple[tuple[str, ...], ...]

    def cell(self, name: str) -> Cell:
        """The lattice point at the centre of the cell ``name`` (``a1`` -> ``(-6, 6)``)."""
        col, row = self.columns.index(name[0]), int(name[1:])
        return self.first[0] + col, self.first[1] - (row - 1)

    def name(self, cell: Cell) -> str:
        return f"{self.columns[cell[0] - self.first[0]]}{self.first[1] - cell[1] + 1}"

    @property
    def node_cells(self) -> frozenset[Cell]:
        return frozenset(self.cell(n) for n in self.nodes)


def load_evidence(text: str | None = None, where: str = EVIDENCE_FILE) -> Evidence:
    """The shipped evidence file (or ``text`` in its format), checked field by field."""
    if text is None:
        text = resources.files(DATA_PACKAGE).joinpath(EVIDENCE_FILE).read_text(encoding="utf-8")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InferenceError(f"{where}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(raw, dict) or not {"source", "columns", "first", "rows", "drawn_lines"} <= set(raw):
        raise InferenceError(f"{where}: needs the fields source, columns, first, rows and drawn_lines")
    columns, rows = raw["columns"], raw["rows"]
    if not isinstance(columns, str) or not isinstance(rows, dict):
        raise InferenceError(f"{where}: columns must be a string and rows an object")
    nodes = []
    for row in sorted(rows, key=int):
        for col in rows[row]:
            if col not in columns:
                raise InferenceError(f"{where}: row {row} names column {col}, not one of {columns}")
            nodes.append(f"{col}{row}")
    known = set(nodes)
    drawn = []
    for line in raw["drawn_lines"]:
        missing = [n for n in line if n not in known]
        if len(line) < 2 or missing:
            raise InferenceError(f"{where}: drawn line {'-'.join(line)} names cells without a node: "
                                 f"{', '.join(missing) or 'fewer than two cells'}")
        drawn.append(tuple(line))
    first = raw["first"]
    return Evidence(str(raw["source"]), columns, (int(first[0]), int(first[1])), tuple(nodes), tuple(drawn))


