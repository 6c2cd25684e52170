"""Which line sets fit the real Power of Two board's node display: an exact search over a stated
hypothesis class (RULES.md section 1; the algorithm: ``docs/board-inference.md``).

**Evidence** (:func:`load_evidence`, ``boards/data/evidence/pbmserv-display.json``): the
play-by-mail server's 13 x 13 character display of the board, columns a..m and rows 1..13 (cell
``a1`` is ``(-6, 6)``, ``m13`` is ``(6, -6)``): the 64 cells that hold a node, and the 12
horizontal and vertical lines it draws, by cell names.

**Hypothesis class** (:data:`HYPOTHESIS`): the outer square is ``[-6, 6]^2``; the central square
is either the diamond with corners g5, i7, g9, e7 or the axis-parallel square e5-i5-i9-e9 (both
fit where the drawn lines stop). The lines are a set of *families*; a family is the orbit under
the 8 symmetries of the square of one segment whose two endpoints are lattice points (integer
coordinates) on the outer square's border or on the central square's boundary, and which does not
enter the central square's interior. Collinear segments that touch or overlap are one line
(:func:`powertwo.boards.build.from_segments`), so a family is identified by its merged lines
(two segments with the same merged lines are one candidate), and two chosen families never have
collinear lines that touch or overlap (their union would be a third candidate family, which the
search finds on its own).

**A solution** is a set of families whose exact nodes (every line end and every crossing, exact
``Fraction`` arithmetic) round to exactly the 64 cells of the display, one node a cell, no
coordinate within 1/10 of a half (:func:`powertwo.boards.build.name_by_cells`), and whose
horizontal and vertical lines are exactly the drawn ones, node for node.

**Search** (:func:`search`): CP-SAT, one Boolean per candidate family; every point a family or a
pair of families makes is computed exactly beforehand, points that cannot be nodes forbid their
family or pair, and each of the 64 cells must receive exactly one point. Every solution of the
model is enumerated and rebuilt with the board builder (:func:`verify`), which is the real check.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from powertwo.boards import Board, BoardError
from powertwo.boards.build import ROUNDING_MARGIN, SQUARE_SYMMETRIES, from_segments, name_by_cells, orbit_segments
from powertwo.boards.io import DATA_PACKAGE

from .registry import Progress, ResultRow

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


# ----------------------------------------------------------------------------- geometry
def _image(matrix: tuple[int, int, int, int], p: Lattice) -> Lattice:
    a, b, c, d = matrix
    return a * p[0] + b * p[1], c * p[0] + d * p[1]


def _edges(corners: Sequence[Lattice]) -> list[tuple[int, int, int]]:
    """The central square as half-planes ``a x + b y <= c`` (inside when strict)."""
    out = []
    for p, q in zip(corners, [*corners[1:], corners[0]], strict=True):
        a, b = q[1] - p[1], p[0] - q[0]
        c = a * p[0] + b * p[1]
        inner = sum(a * x + b * y for x, y in corners)  # 4 * value at the centre
        out.append((a, b, c) if inner < 4 * c else (-a, -b, -c))
    return out


def enters(p: Lattice, q: Lattice, square: str) -> bool:
    """Whether segment ``pq`` has a point strictly inside the central square ``square``."""
    lo, hi = Fraction(0), Fraction(1)
    for a, b, c in _edges(CENTRAL_SQUARES[square]):
        start = a * p[0] + b * p[1] - c
        slope = a * (q[0] - p[0]) + b * (q[1] - p[1])
        if slope == 0:
            if start >= 0:
                return False
            continue
        t = Fraction(-start, slope)
        if slope > 0:
            hi = min(hi, t)
        else:
            lo = max(lo, t)
    return lo < hi


def endpoints(square: str) -> list[Lattice]:
    """The candidate endpoints: lattice points on the outer square's border or on the central
    square's boundary, in reading order."""
    edges = _edges(CENTRAL_SQUARES[square])
    out = []
    for y in range(OUTER, -OUTER - 1, -1):
        for x in range(-OUTER, OUTER + 1):
            values = [a * x + b * y - c for a, b, c in edges]
            if max(abs(x), abs(y)) == OUTER or (max(values) == 0):
                out.append((x, y))
    return out


@dataclass(frozen=True)
class Family:
    """A candidate family: ``lines`` are its merged lines (the orbit of ``segment`` under the 8
    symmetries, collinear touching pieces joined), each as its two ends in ascending order."""

    segment: LatticeSegment
    lines: tuple[LatticeSegment, ...]

    @property
    def axis_parallel(self) -> bool:
        (x1, y1), (x2, y2) = self.lines[0]
        return x1 == x2 or y1 == y2


def _exact(seg: LatticeSegment) -> tuple[ExactPoint, ExactPoint]:
    return (Fraction(seg[0][0]), Fraction(seg[0][1])), (Fraction(seg[1][0]), Fraction(seg[1][1]))


def _merged_lines(segment: LatticeSegment) -> tuple[LatticeSegment, ...]:
    board = from_segments(orbit_segments([_exact(segment)]))
    out = []
    for line in board.lines:
        ends = sorted((board.coord(line[0]), board.coord(line[-1])))
        out.append(tuple((int(x), int(y)) for x, y in ends))
    return tuple(sorted(out))  # type: ignore[arg-type]


def candidate_families(square: str) -> tuple[int, list[Family]]:
    """Every candidate segment of the class for ``square`` (their number), and the distinct
    families they make, each named by its least segment, sorted by their merged lines."""
    points = endpoints(square)
    segments = [(p, q) if p < q else (q, p) for p, q in combinations(points, 2) if not enters(p, q, square)]
    by_lines: dict[tuple[LatticeSegment, ...], LatticeSegment] = {}
    seen: set[LatticeSegment] = set()
    for seg in sorted(segments):
        if seg in seen:
            continue
        orbit = {tuple(sorted((_image(m, seg[0]), _image(m, seg[1])))) for m in SQUARE_SYMMETRIES}
        seen |= orbit  # type: ignore[arg-type]
        lines = _merged_lines(seg)
        if lines not in by_lines:
            by_lines[lines] = lines[0]
    families = [Family(rep, lines) for lines, rep in by_lines.items()]
    return len(segments), sorted(families, key=lambda f: f.lines)


def _cross(o: Lattice, a: Lattice, b: Lattice) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def meet(s: LatticeSegment, t: LatticeSegment) -> ExactPoint | None | str:
    """The point where two segments meet (ends included), None when they do not, ``"collinear"``
    when they are collinear and share a point (they would be one line)."""
    (p1, p2), (q1, q2) = s, t
    d = (p2[0] - p1[0]) * (q2[1] - q1[1]) - (p2[1] - p1[1]) * (q2[0] - q1[0])
    if d == 0:
        if _cross(p1, p2, q1) != 0:
            return None
        return "collinear" if max(p1, q1) <= min(p2, q2) else None
    tn = (q1[0] - p1[0]) * (q2[1] - q1[1]) - (q1[1] - p1[1]) * (q2[0] - q1[0])
    un = (q1[0] - p1[0]) * (p2[1] - p1[1]) - (q1[1] - p1[1]) * (p2[0] - p1[0])
    if d < 0:
        d, tn, un = -d, -tn, -un
    if not (0 <= tn <= d and 0 <= un <= d):
        return None
    along = Fraction(tn, d)
    return p1[0] + along * (p2[0] - p1[0]), p1[1] + along * (p2[1] - p1[1])


def cell_of(point: ExactPoint) -> Cell | None:
    """The display cell a point rounds to; None when a coordinate lies within
    :data:`~powertwo.boards.build.ROUNDING_MARGIN` of a half (the cell would be a guess)."""
    out = []
    for value in point:
        frac = value - (value.numerator // value.denominator)
        if abs(frac - Fraction(1, 2)) < ROUNDING_MARGIN:
            return None
        out.append(round(value))
    return out[0], out[1]


def own_points(family: Family) -> set[ExactPoint]:
    """The nodes a family makes alone: its line ends and the crossings of its lines."""
    out: set[ExactPoint] = {(Fraction(x), Fraction(y)) for line in family.lines for x, y in line}
    for s, t in combinations(family.lines, 2):
        pt = meet(s, t)
        if isinstance(pt, tuple):
            out.add(pt)
    return out


def pair_points(a: Family, b: Family) -> set[ExactPoint] | None:
    """The points where the lines of two families meet; None when two of their lines are collinear
    and touch (they would merge). By symmetry, the meetings of ``a``'s first line with ``b``'s
    lines, mapped by the 8 symmetries."""
    found: set[ExactPoint] = set()
    for t in b.lines:
        pt = meet(a.lines[0], t)
        if pt == "collinear":
            return None
        if isinstance(pt, tuple):
            found.add(pt)
    return {(m[0] * x + m[1] * y, m[2] * x + m[3] * y) for x, y in found for m in SQUARE_SYMMETRIES}


# ----------------------------------------------------------------------------- the search
@dataclass(frozen=True)
class Solution:
    """One line set: its families (by representative segment) and the board they build."""

    segments: tuple[LatticeSegment, ...]
    board: Board


@dataclass(frozen=True)
class SquareResult:
    """The search for one central square."""

    square: str
    endpoints: int
    candidate_segments: int
    candidate_families: int
    usable: tuple[LatticeSegment, ...]
    """The families left after the static filters (axis-parallel only when drawn, every point they make
    alone a possible node), by representative segment."""
    drawn: tuple[LatticeSegment, ...]
    """The families of the drawn lines (in every solution)."""
    solutions: tuple[Solution, ...]
    complete: bool
    seconds: float


def _on_segment(point: ExactPoint, seg: LatticeSegment) -> bool:
    (x1, y1), (x2, y2) = seg
    x, y = point
    return (x - x1) * (y2 - y1) == (y - y1) * (x2 - x1) and min(x1, x2) <= x <= max(x1, x2) \
        and min(y1, y2) <= y <= max(y1, y2)


def search(square: str, evidence: Evidence | None = None, *, time_limit: float = 600.0) -> SquareResult:
    """Every solution of the hypothesis class with the central square ``square`` ("diamond" or
    "axis"), each rebuilt and checked by :func:`verify`."""
    from ortools.sat.python import cp_model

    if square not in CENTRAL_SQUARES:
        raise InferenceError(f"central square {square!r} is not one of {', '.join(CENTRAL_SQUARES)}")
    started = time.perf_counter()
    evidence = evidence or load_evidence()
    node_cells = evidence.node_cells
    segment_count, families = candidate_families(square)

    # the drawn lines: each one whole line of some family; no other family is axis-parallel
    drawn: dict[LatticeSegment, tuple[str, ...]] = {}
    for line in evidence.drawn_lines:
        ends = tuple(sorted((evidence.cell(line[0]), evidence.cell(line[-1]))))
        drawn[ends] = line  # type: ignore[index]
    forced, allowed = set(), []
    for k, fam in enumerate(families):
        if fam.axis_parallel:
            if not all(line in drawn for line in fam.lines):
                continue
            forced.add(k)
        allowed.append(k)
    if {line for k in forced for line in families[k].lines} != set(drawn):
        missing = sorted(set(drawn) - {line for k in forced for line in families[k].lines})
        raise InferenceError(f"drawn line {'-'.join(drawn[missing[0]])} is not a whole line of any candidate "
                             f"family with the {square} square")
    drawn_through: dict[Cell, list[LatticeSegment]] = {}
    for seg, line in drawn.items():
        for n in line:
            drawn_through.setdefault(evidence.cell(n), []).append(seg)

    def valid(point: ExactPoint) -> bool:
        cell = cell_of(point)
        if cell is None or cell not in node_cells:
            return False
        if not all(_on_segment(point, seg) for seg in drawn_through.get(cell, ())):
            return False  # a drawn line's cell holds a node off that line
        for seg, line in drawn.items():  # a node on a drawn line must be one of its drawn nodes
            if _on_segment(point, seg) and evidence.name(cell) not in line:
                return False
        return True

    def one_per_cell(points: Iterable[ExactPoint]) -> bool:
        cells = [cell_of(p) for p in points]
        return len(cells) == len(set(cells))

    own: dict[int, set[ExactPoint]] = {}
    for k in allowed:
        pts = own_points(families[k])
        if all(valid(p) for p in pts) and one_per_cell(pts):
            own[k] = pts
    usable = sorted(own)
    if not forced <= set(usable):
        usable = []  # a drawn family makes a point that cannot be a node: no solution

    model = cp_model.CpModel()
    x = {k: model.new_bool_var(f"family{k}") for k in usable}
    sources: dict[ExactPoint, list[Any]] = {}
    for k in usable:
        for p in own[k]:
            sources.setdefault(p, []).append(x[k])
        if k in forced:
            model.add(x[k] == 1)
    for a, b in combinations(usable, 2):
        met = pair_points(families[a], families[b])
        if met is None or not all(valid(p) for p in met) or not one_per_cell(own[a] | own[b] | met):
            model.add_bool_or([x[a].Not(), x[b].Not()])
            continue
        if not met:
            continue
        both = model.new_bool_var(f"pair{a},{b}")
        model.add_bool_and([x[a], x[b]]).only_enforce_if(both)
        model.add_bool_or([x[a].Not(), x[b].Not(), both])
        for p in met:
            sources.setdefault(p, []).append(both)
    in_cell: dict[Cell, list[Any]] = {c: [] for c in node_cells}
    for p, lits in sorted(sources.items()):
        present = model.new_bool_var("")
        model.add_max_equality(present, lits)
        in_cell[cell_of(p)].append(present)  # type: ignore[index]
    for cell in sorted(in_cell):
        model.add_exactly_one(in_cell[cell])

    found: list[tuple[int, ...]] = []

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(tuple(k for k in usable if self.value(x[k])))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    status = solver.solve(model, Collect()) if usable else cp_model.INFEASIBLE
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    solutions = []
    for chosen in sorted(set(found), key=lambda ks: (len(ks), ks)):
        segments = tuple(families[k].segment for k in chosen)
        solutions.append(Solution(segments, verify(segments, evidence)))
    return SquareResult(square, len(endpoints(square)), segment_count, len(families),
                        tuple(families[k].segment for k in usable), tuple(families[k].segment for k in sorted(forced)),
                        tuple(solutions), complete, time.perf_counter() - started)


class NotASolution(InferenceError):
    """A line set that does not reproduce the display."""


def build(segments: Iterable[LatticeSegment], evidence: Evidence | None = None, name: str = "inferred") -> Board:
    """The board of the families of ``segments``, named by the display's cells (refused when
    its nodes do not round to distinct cells)."""
    evidence = evidence or load_evidence()
    board = from_segments(orbit_segments([_exact(seg) for seg in segments]), name)
    try:
        return name_by_cells(board, evidence.columns, (Fraction(evidence.first[0]), Fraction(evidence.first[1])))
    except BoardError as exc:
        raise NotASolution(str(exc)) from None


def axis_parallel_lines(board: Board) -> set[tuple[str, ...]]:
    """The horizontal and vertical lines of a board, by labels, each from its smaller label pair."""
    out = set()
    for line in board.lines:
        (x1, y1), (x2, y2) = board.coord(line[0]), board.coord(line[-1])
        if x1 == x2 or y1 == y2:
            labels = tuple(board.label(v) for v in line)
            out.add(min(labels, labels[::-1]))
    return out


def verify(segments: Iterable[LatticeSegment], evidence: Evidence | None = None) -> Board:
    """The board of ``segments`` when it reproduces the display exactly: its nodes are the
    display's cells (:func:`powertwo.boards.build.name_by_cells`) and its horizontal and vertical
    lines are the drawn ones; otherwise :class:`NotASolution` naming the first difference."""
    evidence = evidence or load_evidence()
    board = build(segments, evidence)
    if set(board.labels) != set(evidence.nodes):
        extra = sorted(set(board.labels) - set(evidence.nodes))
        lost = sorted(set(evidence.nodes) - set(board.labels))
        raise NotASolution(f"nodes differ from the display: extra {', '.join(extra) or 'none'}; "
                           f"missing {', '.join(lost) or 'none'}")
    want = {min(line, line[::-1]) for line in evidence.drawn_lines}
    have = axis_parallel_lines(board)
    if have != want:
        diff = sorted(have ^ want)
        raise NotASolution(f"horizontal and vertical lines differ from the drawn ones at {'-'.join(diff[0])}")
    return board


# ----------------------------------------------------------------------------- the answer file
def _segment_json(seg: LatticeSegment) -> list[list[int]]:
    return [list(seg[0]), list(seg[1])]


def infer(squares: Sequence[str] = ("diamond", "axis"), shipped: Sequence[str] = (), *,
          time_limit: float = 600.0) -> tuple[dict, dict[str, float]]:
    """The answer file of the search over every central square of the class (no timings in it) and
    the seconds of each search. Each solution names the ``shipped`` boards it equals (same nodes,
    labels and lines: the same fingerprint)."""
    from powertwo.boards import load

    evidence = load_evidence()
    prints = {load(name).fingerprint: name for name in shipped}
    results = [search(square, evidence, time_limit=time_limit) for square in squares]
    out: dict[str, Any] = {
        "evidence": {"file": "boards/data/evidence/pbmserv-display.json", "source": evidence.source,
                     "nodes": len(evidence.nodes), "drawn_lines": ["-".join(line) for line in evidence.drawn_lines]},
        "hypothesis": HYPOTHESIS,
        "search": ("CP-SAT over one Boolean per candidate family with every point a family or a pair of families "
                   "makes computed exactly beforehand; each of the 64 cells receives exactly one point; every "
                   "solution enumerated, then rebuilt by the board builder and checked against the display."),
        "squares": [],
        "solutions": sum(len(r.solutions) for r in results),
        "complete": all(r.complete for r in results),
    }
    for r in results:
        entry: dict[str, Any] = {
            "square": r.square, "corners": [evidence.name(c) for c in CENTRAL_SQUARES[r.square]],
            "candidate_endpoints": r.endpoints, "candidate_segments": r.candidate_segments,
            "candidate_families": r.candidate_families, "usable_families": len(r.usable),
            "complete": r.complete, "solutions": [],
        }
        for s in r.solutions:
            b = s.board
            entry["solutions"].append({
                "families": len(s.segments),
                "segments": [_segment_json(seg) for seg in s.segments],
                "nodes": b.size, "lines": len(b.lines),
                "line_lengths": {str(k): v for k, v in b.line_lengths.items()},
                "longest_line": max(len(line) for line in b.lines),
                "fingerprint": b.fingerprint, "equals": prints.get(b.fingerprint),
            })
        out["squares"].append(entry)
    return out, {f"search {r.square}": round(r.seconds, 3) for r in results}


def answer_text(answer: Mapping) -> str:
    """The answer file's text: indented JSON with every point and segment on one line."""
    import re

    text = json.dumps(answer, indent=1)
    text = re.sub(r"\[\s+(-?\d+),\s+(-?\d+)\s+\]", r"[\1, \2]", text)
    return re.sub(r"\[\s+(\[-?\d+, -?\d+\]),\s+(\[-?\d+, -?\d+\])\s+\]", r"[\1, \2]", text) + "\n"


# ----------------------------------------------------------------------------- pictures
def cells_figure(board: Board, evidence: Evidence | None = None):
    """The display's 13 x 13 cells (light squares, the node cells named) over the board's exact
    nodes and lines; a short red stroke joins each cell's centre to its node where they differ."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    from powertwo.boards.draw import draw_on

    evidence = evidence or load_evidence()
    fig, ax = plt.subplots(figsize=(9, 9.6), dpi=100)
    draw_on(ax, board, title=f"{board.name}: the server's cells over the exact nodes")
    nodes = evidence.node_cells
    for x in range(evidence.first[0], evidence.first[0] + len(evidence.columns)):
        for y in range(evidence.first[1], evidence.first[1] - len(evidence.columns), -1):
            filled = (x, y) in nodes
            ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="#eef3fb" if filled else "white",
                                   edgecolor="#b8c4d6", lw=0.5, zorder=0))
            if filled:
                ax.text(x - 0.45, y + 0.45, evidence.name((x, y)), fontsize=6.5, ha="left", va="top",
                        color="#4a5a78", zorder=5)
    for v in board.nodes:
        nx, ny = (float(c) for c in board.coord(v))
        cx, cy = evidence.cell(board.label(v))
        if (nx, ny) != (cx, cy):
            ax.plot([cx, nx], [cy, ny], color="#d1495b", lw=1.4, zorder=3, solid_capstyle="round")
            ax.plot([cx], [cy], marker="+", color="#d1495b", ms=5, zorder=3)
    half = len(evidence.columns) / 2 + 0.2
    ax.set_xlim(-half, half)
    ax.set_ylim(-half, half)
    fig.legend([Rectangle((0, 0), 1, 1, facecolor="#eef3fb", edgecolor="#b8c4d6"),
                Line2D([], [], ls="", marker="o", color="#5b4a33", ms=4),
                Line2D([], [], color="#d1495b", lw=1.4, marker="+")],
               ["a cell of the server's display holding a node (its name)", "exact node, with the board's lines",
                "from a cell's centre to its node (where they differ)"],
               loc="lower center", ncol=1, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 0.98))
    return fig


def results(out: Path, progress: Progress) -> list[ResultRow]:
    """The results job's step: ``board-inference.json`` and the two pictures of the inferred board
    (``boards/power-of-two-labels`` with its node names, ``boards/power-of-two-cells`` with the
    server's cells over the exact nodes)."""
    from powertwo.boards import load
    from powertwo.boards.draw import board_diagram, save

    started = time.perf_counter()
    answer, timings = infer(shipped=("power-of-two", "power-of-two-square-sides"))
    (out / "board-inference.json").write_text(answer_text(answer), encoding="utf-8")
    files = ["board-inference.json"]
    board = load("power-of-two")
    for ext in ("svg", "png"):
        path = board_diagram(board, out / "boards" / f"power-of-two-labels.{ext}", names="labels",
                             title=f"{board.name}: the board inferred from the server's display")
        files.append(str(path.relative_to(out)))
        path = save(cells_figure(board), out / "boards" / f"power-of-two-cells.{ext}")
        files.append(str(path.relative_to(out)))
    found = [s for square in answer["squares"] for s in square["solutions"]]
    for square in answer["squares"]:
        progress(f"board inference, {square['square']} square: {square['candidate_families']} candidate families, "
                 f"{len(square['solutions'])} solutions")
    names = ", ".join(s["equals"] or f"{s['lines']} lines" for s in found)
    return [ResultRow("board-inference", "lines from the server's display", f"{len(found)} line sets ({names})",
                      "complete enumeration" if answer["complete"] else "incomplete: time limit",
                      "cp-sat, board builder", str(len(found)), time.perf_counter() - started, tuple(files),
                      timings)]
