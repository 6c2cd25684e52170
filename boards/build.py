"""Building boards exactly: from drawn segments, or from square grids.

:func:`from_segments` is how a user traces a physical board: list the straight
segments by their endpoints and the tool computes every node (endpoints and
crossings, with exact rational arithmetic) and every line (its nodes in order).

* Collinear segments that touch or overlap form one line (a line drawn in two
  pieces is still one line); collinear segments with a gap between them are two
  lines (the two half-diagonals on either side of the central square).
* Node ids are assigned in reading order: y descending, then x ascending.
* A line lists its nodes from the end with the smaller ``(x, y)``; lines are
  sorted by their node-id tuples.

:func:`from_grids` builds square boards (``a1``..``h8``; ``e00``..``e66``).
"""

from __future__ import annotations

import time
from fractions import Fraction
from math import gcd
from typing import Any, Callable, Iterable, Mapping, Sequence

from .board import MAX_NODES, Board, BoardError, NodeId, Point, Starts, format_fraction

Segment = tuple[Point, Point]
FILES = "abcdefghijklmnopqrstuvwxyz"

SQUARE_SYMMETRIES: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
    (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0),
)
"""The 8 symmetries of a square about its centre, as matrices ``(a, b, c, d)``: ``(x, y) -> (a x + b y, c x + d y)``."""
SYMMETRIES = {"square": SQUARE_SYMMETRIES}
"""The symmetry groups a board file may name in its ``"symmetry"`` field."""
MAX_SEGMENTS = 1_000
"""The most segments a board file may list (every pair is tried for a crossing: half a million
pairs, a few seconds)."""
ROUNDING_MARGIN = Fraction(1, 10)
"""How far from a half every coordinate must stay for :func:`name_by_cells` (rounding is unambiguous)."""


def parse_coordinate(value: Any, where: str) -> Fraction:
    """An exact coordinate from an integer or a ``"p/q"`` (or integer) string."""
    if isinstance(value, bool) or value is None:
        raise BoardError(f"{where}: coordinate {value!r} is not a number (use an integer or a 'p/q' string)")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if value.is_integer():
            return Fraction(int(value))
        raise BoardError(f"{where}: coordinate {value!r} is not exact (write it as a 'p/q' string)")
    if isinstance(value, str):
        text = value.strip()
        try:
            num, _, den = text.partition("/")
            digits = num.strip().lstrip("+-")
            if not (digits.isascii() and digits.isdigit()) or (den and not (den.strip().isascii()
                                                                            and den.strip().isdigit())):
                raise ValueError
            result = Fraction(int(num), int(den)) if den else Fraction(int(num))
        except (ValueError, ZeroDivisionError):
            raise BoardError(
                f"{where}: coordinate {value!r} is not a number (use an integer or a 'p/q' string)") from None
        return result
    raise BoardError(f"{where}: coordinate {value!r} is not a number (use an integer or a 'p/q' string)")


def parse_point(value: Any, where: str) -> Point:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise BoardError(f"{where}: a point must be a pair [x, y], got {value!r}")
    return parse_coordinate(value[0], where + " x"), parse_coordinate(value[1], where + " y")


def parse_segments(raw: Any, where: str = "segments") -> list[Segment]:
    """Validate a list of ``[[x1, y1], [x2, y2]]`` into exact segments."""
    if not isinstance(raw, list):
        raise BoardError(f"{where}: must be a list of segments [[x1, y1], [x2, y2]]")
    if not raw:
        raise BoardError(f"{where}: the list of segments is empty")
    out = []
    for i, seg in enumerate(raw):
        here = f"{where}[{i}]"
        if not isinstance(seg, (list, tuple)) or len(seg) != 2:
            raise BoardError(f"{here}: a segment must be a pair of endpoints [[x1, y1], [x2, y2]], got {seg!r}")
        p, q = parse_point(seg[0], here + " start"), parse_point(seg[1], here + " end")
        if p == q:
            raise BoardError(f"{here}: zero-length segment at ({format_fraction(p[0])}, {format_fraction(p[1])})")
        out.append((p, q))
    return out


Carrier = tuple[int, int, Fraction]
"""A segment's supporting line ``a*x + b*y = c``, normalised (:func:`_carrier`)."""
Piece = tuple[Carrier, Point, Point]
"""A maximal piece of a line: its carrier, its low end and its high end."""


def _carrier(p: Point, q: Point) -> Carrier:
    """The supporting line ``a*x + b*y = c`` of a segment, normalised so equal lines compare equal."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    # direction as a primitive integer vector with a canonical sign
    den = dx.denominator * dy.denominator
    ix, iy = int(dx * den), int(dy * den)
    g = gcd(ix, iy)
    ix, iy = ix // g, iy // g
    if ix < 0 or (ix == 0 and iy < 0):
        ix, iy = -ix, -iy
    a, b = -iy, ix
    return a, b, a * p[0] + b * p[1]


def _order_key(pt: Point) -> tuple[Fraction, Fraction]:
    return pt


def _intersection(s: tuple[int, int, Fraction], t: tuple[int, int, Fraction]) -> Point | None:
    a1, b1, c1 = s
    a2, b2, c2 = t
    det = a1 * b2 - a2 * b1
    if det == 0:
        return None
    return (c1 * b2 - c2 * b1) / Fraction(det), (a1 * c2 - a2 * c1) / Fraction(det)


def orbit_segments(segments: Iterable[Segment], symmetry: str = "square",
                   centre: Point = (Fraction(0), Fraction(0))) -> list[Segment]:
    """Every image of every segment under ``symmetry`` (about ``centre``), each segment once.

    A board closed under a group is written as one representative segment per orbit (RULES.md
    section 1: the Power of Two board is 7 families, each the orbit of one segment)."""
    if symmetry not in SYMMETRIES:
        raise BoardError(f"symmetry {symmetry!r} is not known (known: {', '.join(SYMMETRIES)})")
    cx, cy = Fraction(centre[0]), Fraction(centre[1])
    seen: set[tuple[Point, Point]] = set()
    out: list[Segment] = []
    for p, q in segments:
        for a, b, c, d in SYMMETRIES[symmetry]:
            image = []
            for x, y in (p, q):
                dx, dy = Fraction(x) - cx, Fraction(y) - cy
                image.append((cx + a * dx + b * dy, cy + c * dx + d * dy))
            key = (min(image), max(image))
            if key not in seen:
                seen.add(key)
                out.append(key)
    return out


def name_by_cells(board: Board, columns: str, first: Point) -> Board:
    """The board renumbered and named by the whole cell nearest each node (the play-by-mail server's
    display of the Power of Two board, RULES.md section 1).

    Column ``columns[i]`` is ``x = first_x + i``, row ``r`` (1-based) is ``y = first_y - (r - 1)``;
    a node is named by its rounded coordinates (``f3`` for ``(-6/5, 18/5)``) and ids follow the
    names' reading order (row by row, each row by column). Refused when a coordinate lies within
    :data:`ROUNDING_MARGIN` of a half (the cell would be a guess), a node falls outside the columns
    or above the first row, or two nodes share a cell."""
    x0, y0 = Fraction(first[0]), Fraction(first[1])
    cells: dict[tuple[int, int], NodeId] = {}
    for v in board.nodes:
        x, y = board.coord(v)
        for value in (x - x0, y0 - y):
            frac = value - (value.numerator // value.denominator)
            if abs(frac - Fraction(1, 2)) < ROUNDING_MARGIN:
                raise BoardError(f"board {board.name}: node at ({format_fraction(x)}, {format_fraction(y)}) "
                                 f"lies within {ROUNDING_MARGIN} of a cell border")
        col, row = round(x - x0), round(y0 - y)
        if not (0 <= col < len(columns)) or row < 0:
            raise BoardError(f"board {board.name}: node at ({format_fraction(x)}, {format_fraction(y)}) "
                             f"is outside the named cells")
        if (row, col) in cells:
            other = board.coord(cells[row, col])
            raise BoardError(f"board {board.name}: nodes at ({format_fraction(x)}, {format_fraction(y)}) and "
                             f"({format_fraction(other[0])}, {format_fraction(other[1])}) share cell "
                             f"{columns[col]}{row + 1}")
        cells[row, col] = v
    order = [cells[key] for key in sorted(cells)]
    new_id = {old: k for k, old in enumerate(order, start=1)}
    lines = sorted(tuple(new_id[v] for v in line) for line in board.lines)
    starts = tuple((name, tuple((side, tuple(new_id[v] for v in nodes)) for side, nodes in sides))
                   for name, sides in board.starts)
    return Board(name=board.name, coords=tuple(board.coord(v) for v in order), lines=tuple(lines),
                 labels=tuple(f"{columns[col]}{row + 1}" for row, col in sorted(cells)), links=board.links,
                 starts=starts, cells=board.cells, description=board.description)


def from_segments(segments: Iterable[Segment], name: str = "custom", *, starts: Starts = (),
                  description: str = "", progress: Callable[[str], None] | None = None) -> Board:
    """Compute nodes and lines of the board drawn by ``segments`` (exact endpoints); at most
    :data:`MAX_SEGMENTS` segments and :data:`MAX_NODES` nodes (refused in one line as soon as the
    crossings found pass it). ``progress`` hears how far the crossings are."""
    segs = [((Fraction(p[0]), Fraction(p[1])), (Fraction(q[0]), Fraction(q[1]))) for p, q in segments]
    if not segs:
        raise BoardError("segments: the list of segments is empty")
    if len(segs) > MAX_SEGMENTS:
        raise BoardError(f"segments: {len(segs):,} segments, more than the {MAX_SEGMENTS:,} a board may be "
                         "drawn with")
    for p, q in segs:
        if p == q:
            raise BoardError(f"segments: zero-length segment at ({format_fraction(p[0])}, {format_fraction(p[1])})")

    # 1. group collinear segments, then merge touching/overlapping pieces into maximal lines
    groups: dict[Carrier, list[tuple[Point, Point]]] = {}
    for p, q in segs:
        lo, hi = sorted((p, q), key=_order_key)
        groups.setdefault(_carrier(p, q), []).append((lo, hi))
    pieces: list[Piece] = []
    for carrier, items in groups.items():
        items.sort(key=lambda s: _order_key(s[0]))
        cur_lo, cur_hi = items[0]
        for lo, hi in items[1:]:
            if _order_key(lo) <= _order_key(cur_hi):  # touches or overlaps
                if _order_key(hi) > _order_key(cur_hi):
                    cur_hi = hi
            else:
                pieces.append((carrier, cur_lo, cur_hi))
                cur_lo, cur_hi = lo, hi
        pieces.append((carrier, cur_lo, cur_hi))

    # 2. nodes: all endpoints and all crossings that lie on both pieces; a piece's nodes are its ends
    # and its crossings (another piece's end on it is a crossing: collinear pieces never touch)
    on = _crossings(pieces, progress or (lambda _: None))
    points = set().union(*on)
    ordered = sorted(points, key=lambda pt: (-pt[1], pt[0]))
    ids = {pt: i for i, pt in enumerate(ordered, start=1)}

    # 3. lines: the nodes on each piece, from the smaller (x, y) end
    lines = sorted(tuple(ids[pt] for pt in sorted(held, key=_order_key)) for held in on)
    return Board(name=name, coords=tuple(ordered), lines=tuple(lines), starts=starts, description=description)


def _on_piece(pt: Point, piece: Piece) -> bool:
    (a, b, c), lo, hi = piece
    return a * pt[0] + b * pt[1] == c and _order_key(lo) <= _order_key(pt) <= _order_key(hi)


def _crossings(pieces: list[Piece], progress: Callable[[str], None]) -> list[set[Point]]:
    """The points on each piece: its two ends and every crossing with another piece (pairs whose
    bounding boxes are apart are skipped); :class:`BoardError` once more than :data:`MAX_NODES`
    distinct points are found."""
    on: list[set[Point]] = [{lo, hi} for _, lo, hi in pieces]
    # boxes in floats: rounding is monotone, so boxes apart in floats are apart exactly
    boxes = [(float(min(lo[0], hi[0])), float(max(lo[0], hi[0])), float(min(lo[1], hi[1])), float(max(lo[1], hi[1])))
             for _, lo, hi in pieces]
    points: set[Point] = set().union(*on)
    began = time.monotonic()
    for i, s in enumerate(pieces):
        x0, x1, y0, y1 = boxes[i]
        for j in range(i + 1, len(pieces)):
            u0, u1, v0, v1 = boxes[j]
            if u0 > x1 or u1 < x0 or v0 > y1 or v1 < y0:
                continue
            pt = _intersection(s[0], pieces[j][0])
            if pt is not None and _on_piece(pt, s) and _on_piece(pt, pieces[j]):
                on[i].add(pt)
                on[j].add(pt)
                points.add(pt)
        if len(points) > MAX_NODES:
            raise BoardError(f"segments: more than {MAX_NODES:,} nodes (ends and crossings), the most a board "
                             f"may have")
        if time.monotonic() - began >= 1.0 and i % 50 == 0:
            progress(f"crossings: {i + 1:,} of {len(pieces):,} lines, {len(points):,} nodes so far")
    return on


def square_label(file: int, rank: int) -> str:
    """``(0, 0)`` -> ``a1``."""
    return f"{FILES[file]}{rank + 1}"


def from_grids(grids: Sequence[dict[str, Any]], name: str, *, link_grids: Sequence[int] | None = None,
               starts_by_label: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
               description: str = "") -> Board:
    """Build a board from square grids of points.

    Each grid is ``{"files": F, "ranks": R, "origin": [x, y], "diagonals": bool,
    "labels": "square" | "e{i}{j}"}``: points at ``origin + (i, j)`` for file ``i``
    and rank ``j`` (0-based), lines along every row and column (and both diagonal
    directions when ``diagonals``). ``link_grids = [A, B]`` links each node of
    grid A to the nodes of grid B at offsets ``(±1/2, ±1/2)`` (a field and the
    energy points at its corners). Ids follow reading order like every board.
    """
    pts: list[tuple[Point, str, int]] = []
    grid_lines: list[list[list[Point]]] = []
    for g_index, g in enumerate(grids):
        at, runs = _grid(g, f"grids[{g_index}]")
        pts += [(pt, lab, g_index) for pt, lab in at]
        grid_lines.append(runs)
    ordered = sorted(pts, key=lambda e: (-e[0][1], e[0][0]))
    if len({e[0] for e in ordered}) != len(ordered):
        raise BoardError(f"board {name}: two grid points coincide")
    ids = {e[0]: k for k, e in enumerate(ordered, start=1)}
    labels = tuple(e[1] for e in ordered)
    lines = sorted(tuple(ids[pt] for pt in sorted(run, key=_order_key)) for runs in grid_lines for run in runs)
    links = _grid_links(pts, ids, link_grids) if link_grids else []
    starts = _grid_starts(name, labels, starts_by_label) if starts_by_label else ()
    points = {b for _, b in links}
    cells = tuple(k for k, e in enumerate(ordered, start=1)
                  if grids[e[2]].get("labels", "square") == "square" and k not in points)
    return Board(name=name, coords=tuple(e[0] for e in ordered), lines=tuple(lines), labels=labels,
                 links=tuple(sorted(links)), starts=starts, cells=cells, description=description)


def _grid(g: dict[str, Any], where: str) -> tuple[list[tuple[Point, str]], list[list[Point]]]:
    """One grid of :func:`from_grids`: its points with their labels (file by file), and its runs
    (the points of each row, column and, with ``diagonals``, diagonal, at least two)."""
    try:
        files, ranks = int(g["files"]), int(g["ranks"])
    except (KeyError, TypeError, ValueError):
        raise BoardError(f"{where}: needs whole numbers 'files' and 'ranks'") from None
    if not (1 <= files <= len(FILES)) or ranks < 1:
        raise BoardError(f"{where}: files must be 1..{len(FILES)} and ranks at least 1")
    if files * ranks > MAX_NODES:
        raise BoardError(f"{where}: {files} files of {ranks:,} ranks, more than the {MAX_NODES:,} nodes a board "
                         "may have")
    ox, oy = parse_point(g.get("origin", [0, 0]), where + ".origin")
    scheme = g.get("labels", "square")
    diagonals = bool(g.get("diagonals", False))

    def label(i: int, j: int) -> str:
        return square_label(i, j) if scheme == "square" else str(scheme).format(i=i, j=j)

    at = {(i, j): (ox + i, oy + j) for i in range(files) for j in range(ranks)}
    runs: list[list[Point]] = []
    directions = [(1, 0), (0, 1)] + ([(1, 1), (1, -1)] if diagonals else [])
    for di, dj in directions:
        for (i, j) in at:
            if (i - di, j - dj) in at:
                continue  # not the start of a run
            run = []
            k = 0
            while (i + k * di, j + k * dj) in at:
                run.append(at[i + k * di, j + k * dj])
                k += 1
            if len(run) >= 2:
                runs.append(run)
    return [(pt, label(i, j)) for (i, j), pt in at.items()], runs


def _grid_links(pts: list[tuple[Point, str, int]], ids: dict[Point, NodeId],
                link_grids: Sequence[int]) -> list[tuple[NodeId, NodeId]]:
    """The links of :func:`from_grids`: each node of grid A to the nodes of grid B at ``(±1/2, ±1/2)``."""
    a, b = link_grids
    half = Fraction(1, 2)
    grid_b = {e[0] for e in pts if e[2] == b}
    links = []
    for pt, _, g_index in pts:
        if g_index != a:
            continue
        for sx in (-half, half):
            for sy in (-half, half):
                q = (pt[0] + sx, pt[1] + sy)
                if q in grid_b:
                    links.append((ids[pt], ids[q]))
    return links


def _grid_starts(name: str, labels: tuple[str, ...],
                 starts_by_label: Mapping[str, Mapping[str, Sequence[str]]]) -> Starts:
    """The starts of :func:`from_grids`, their squares given by label, as node ids."""
    by_label = {lab: k for k, lab in enumerate(labels, start=1)}
    entries = []
    for sname, sides in starts_by_label.items():
        side_entries = []
        for side, nodes in sides.items():
            try:
                side_entries.append((side, tuple(by_label[n] for n in nodes)))
            except KeyError as exc:
                raise BoardError(f"board {name}: start {sname!r} names unknown square {exc.args[0]}") from None
        entries.append((sname, tuple(side_entries)))
    return tuple(entries)
