"""Exact geometry of the board inference: candidate segments and families, and the points they make."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Sequence

from powertwo.boards.build import ROUNDING_MARGIN, SQUARE_SYMMETRIES, from_segments, orbit_segments

from .evidence import CENTRAL_SQUARES, OUTER, Cell, ExactPoint, Lattice, LatticeSegment


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


def exact_ends(seg: LatticeSegment) -> tuple[ExactPoint, ExactPoint]:
    """The segment's ends as exact points."""
    return (Fraction(seg[0][0]), Fraction(seg[0][1])), (Fraction(seg[1][0]), Fraction(seg[1][1]))


def _merged_lines(segment: LatticeSegment) -> tuple[LatticeSegment, ...]:
    board = from_segments(orbit_segments([exact_ends(segment)]))
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


