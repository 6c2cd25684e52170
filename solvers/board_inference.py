"""Inferring the real Power of Two board's lines from its published node layout (issue 14).

The play-by-mail server's help page for *The Power of Two* (gamerz.net/~pbmserv/pow2.html)
draws the real board's 64 intersections on a 13 x 13 character grid (columns a..m, rows
1..13, :data:`NODE_TABLE`) and a few of its lines (:data:`DRAWN_LINES`). This module asks
which straight line sets on those 64 points are consistent with the evidence.

Model (CP-SAT, one Boolean per D4 orbit of *candidate segments*; a candidate is the run of
collinear nodes between two nodes, so there is one per node pair):

(a) two chosen segments that cross, cross at a node; two chosen collinear segments never
    touch or overlap (they would be one line); every node lies on two chosen segments or
    ends one (nodes are exactly the endpoints and crossings);
(b) the drawn lines of the server's display are chosen, as whole lines;
(c) symmetry under the 8 symmetries of the square (one variable per orbit);
(d) a line that reaches the central square stops there: no segment has points both strictly
    inside and strictly outside the central square (``square="axis"``: the square
    [-2,2]^2 whose sides lie on columns e, i and rows 5, 9; ``square="diamond"``: the square
    with corners g5, i7, g9, e7);
(e) no loose ends: each end of a segment lies on another, non-collinear segment (every
    line on the reconstruction and on every board in the booklet ends on another line);
(f) the longest line has ``longest`` nodes (the booklet: 8, "a throw of one to seven").

Coordinates: column a..m is x = -6..6, row 1..13 is y = 6..-6, so node ids in reading
order (y descending, then x ascending) follow the server's rows: id 1 = a1, 2 = e1, ...
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Callable, Iterable, Sequence

NODE_TABLE: dict[int, str] = {
    1: "aegim", 2: "dj", 3: "cefhik", 4: "bdgjl", 5: "acegikm", 6: "cfhk", 7: "adeijm",
    8: "cfhk", 9: "acegikm", 10: "bdgjl", 11: "cefhik", 12: "dj", 13: "aegim",
}
"""The server's small display, transcribed: for each row, the columns holding a node."""

DRAWN_LINES: tuple[tuple[str, ...], ...] = (
    ("a1", "a5", "a7", "a9", "a13"), ("m1", "m5", "m7", "m9", "m13"),
    ("a1", "e1", "g1", "i1", "m1"), ("a13", "e13", "g13", "i13", "m13"),
    ("e1", "e3", "e5", "e7", "e9", "e11", "e13"), ("i1", "i3", "i5", "i7", "i9", "i11", "i13"),
    ("a5", "c5", "e5", "g5", "i5", "k5", "m5"), ("a9", "c9", "e9", "g9", "i9", "k9", "m9"),
    ("g1", "g4", "g5"), ("g9", "g10", "g13"), ("a7", "d7", "e7"), ("i7", "j7", "m7"),
)
"""The lines the small display draws with '-' and '|' (it says it does not draw them all)."""

Pt = tuple[int, int]
SQUARES: dict[str, tuple[tuple[int, int, int], ...]] = {
    # half-planes a*x + b*y <= c bounding the central square
    "axis": ((1, 0, 2), (-1, 0, 2), (0, 1, 2), (0, -1, 2)),
    "diamond": ((1, 1, 2), (1, -1, 2), (-1, 1, 2), (-1, -1, 2)),
}


def node_points() -> list[tuple[str, Pt]]:
    """The 64 nodes as (server name, (x, y)) in reading order."""
    out = []
    for row in sorted(NODE_TABLE):
        for col in NODE_TABLE[row]:
            out.append((f"{col}{row}", (ord(col) - ord("a") - 6, 7 - row)))
    return out


def symmetries_of_square() -> list[Callable[[Pt], Pt]]:
    return [
        lambda p: (p[0], p[1]), lambda p: (-p[1], p[0]), lambda p: (-p[0], -p[1]), lambda p: (p[1], -p[0]),
        lambda p: (-p[0], p[1]), lambda p: (p[0], -p[1]), lambda p: (p[1], p[0]), lambda p: (-p[1], -p[0]),
    ]


def _cross(o: Pt, a: Pt, b: Pt) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


@dataclass(frozen=True)
class Candidate:
    """A straight run of collinear nodes from node ``ends[0]`` to node ``ends[1]`` (indices)."""

    ends: tuple[int, int]
    on: tuple[int, ...]          # every node on the closed segment, in order from ends[0]
    line: tuple[int, int, int]   # the geometric line a*x + b*y = c, normalised


def _line_key(p: Pt, q: Pt) -> tuple[int, int, int]:
    from math import gcd

    a, b = q[1] - p[1], p[0] - q[0]
    c = a * p[0] + b * p[1]
    g = gcd(gcd(abs(a), abs(b)), abs(c))
    a, b, c = a // g, b // g, c // g
    if a < 0 or (a == 0 and b < 0):
        a, b, c = -a, -b, -c
    return a, b, c


def candidates(points: Sequence[Pt]) -> list[Candidate]:
    """One candidate per node pair: the segment between them with every node on it."""
    out = []
    for i, j in combinations(range(len(points)), 2):
        p, q = points[i], points[j]
        on = [k for k, r in enumerate(points)
              if _cross(p, q, r) == 0 and min(p[0], q[0]) <= r[0] <= max(p[0], q[0])
              and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])]
        on.sort(key=lambda k: (points[k][0] - p[0]) ** 2 + (points[k][1] - p[1]) ** 2)
        out.append(Candidate((i, j), tuple(on), _line_key(p, q)))
    return out


def crosses_square(p: Pt, q: Pt, square: str) -> bool:
    """Whether segment pq has points both strictly inside and strictly outside the square."""
    from fractions import Fraction

    lo_open, hi_open = Fraction(0), Fraction(1)
    lo_closed, hi_closed = Fraction(0), Fraction(1)
    dx, dy = q[0] - p[0], q[1] - p[1]
    for a, b, c in SQUARES[square]:
        start = a * p[0] + b * p[1] - c   # value at t = 0; inside when < 0
        slope = a * dx + b * dy
        if slope == 0:
            if start >= 0:
                lo_open, hi_open = Fraction(1), Fraction(0)
            if start > 0:
                lo_closed, hi_closed = Fraction(1), Fraction(0)
            continue
        t = Fraction(-start, slope)
        if slope > 0:
            hi_open, hi_closed = min(hi_open, t), min(hi_closed, t)
        else:
            lo_open, lo_closed = max(lo_open, t), max(lo_closed, t)
    enters = lo_open < hi_open
    leaves = not (lo_closed <= 0 and hi_closed >= 1)
    return enters and leaves


@dataclass
class Inference:
    """The candidates, the model's answer sets, and the counts behind them."""

    names: list[str]
    points: list[Pt]
    candidates: list[Candidate]
    usable: list[int]                       # candidate indices left after the static filters
    orbits: list[tuple[int, ...]]           # orbits of usable candidates
    solutions: list[tuple[int, ...]] = field(default_factory=list)  # chosen candidate indices
    complete: bool = True                   # False when the enumeration stopped at its cap
    model: Any = None
    line_count: Any = None
    seconds: float = 0.0

    def segments(self, solution: Iterable[int]) -> list[tuple[Pt, Pt]]:
        return [(self.points[self.candidates[k].ends[0]], self.points[self.candidates[k].ends[1]])
                for k in solution]

    def line_names(self, solution: Iterable[int]) -> list[str]:
        return sorted("-".join(self.names[v] for v in self.candidates[k].on) for k in solution)


def fewest_lines(**kwargs: Any) -> tuple[int | None, float]:
    """The fewest lines any line set meeting the constraints has (None: no line set), and seconds."""
    import time

    from ortools.sat.python import cp_model

    started = time.perf_counter()
    shell = infer(cap=1, enumerate_=False, **kwargs)
    model = shell.model
    model.minimize(shell.line_count)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    solver.parameters.max_time_in_seconds = 300
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return None, time.perf_counter() - started
    if status != cp_model.OPTIMAL:
        raise RuntimeError("the fewest-lines search did not finish")
    return int(solver.objective_value), time.perf_counter() - started


def infer(*, square: str = "axis", no_loose_ends: bool = True, longest: int | None = None,
          drawn: bool = True, symmetric: bool = True, triangulated: bool = False,
          lines: int | None = None, cap: int = 2000, time_limit: float = 120.0,
          enumerate_: bool = True) -> Inference:
    """Enumerate every line set meeting the constraints (up to ``cap`` of them)."""
    import time

    from ortools.sat.python import cp_model

    started = time.perf_counter()
    named = node_points()
    names = [n for n, _ in named]
    points = [p for _, p in named]
    index = {p: k for k, p in enumerate(points)}
    by_name = {n: k for k, n in enumerate(names)}
    cands = candidates(points)
    by_ends = {c.ends: k for k, c in enumerate(cands)}

    fixed: set[int] = set()
    if drawn:
        for line in DRAWN_LINES:
            a, b = sorted((by_name[line[0]], by_name[line[-1]]))
            k = by_ends[(a, b)]
            if [names[v] for v in cands[k].on] not in (list(line), list(reversed(line))):
                raise ValueError(f"drawn line {'-'.join(line)} is not a straight run of nodes")
            fixed.add(k)

    def allowed(k: int) -> bool:
        c = cands[k]
        if k in fixed:
            return True
        if longest is not None and len(c.on) > longest:
            return False
        return not crosses_square(points[c.ends[0]], points[c.ends[1]], square)

    usable = [k for k in range(len(cands)) if allowed(k)]
    usable_set = set(usable)

    # orbits under D4
    maps = symmetries_of_square() if symmetric else symmetries_of_square()[:1]
    orbit_of: dict[int, int] = {}
    orbits: list[tuple[int, ...]] = []
    for k in usable:
        if k in orbit_of:
            continue
        members = set()
        for f in maps:
            a, b = (index[f(points[v])] for v in cands[k].ends)
            members.add(by_ends[(min(a, b), max(a, b))])
        if not members <= usable_set:
            continue  # an image is excluded, so the whole orbit is
        for m in members:
            orbit_of[m] = len(orbits)
        orbits.append(tuple(sorted(members)))
    live = sorted(orbit_of)

    model = cp_model.CpModel()
    x = [model.new_bool_var(f"orbit{o}") for o in range(len(orbits))]

    def var(k: int):
        return x[orbit_of[k]]

    for k in fixed:
        if k not in orbit_of:
            raise ValueError("a drawn line is excluded by the constraints")
        model.add(var(k) == 1)

    # (a) pairwise: collinear touching/overlapping, or crossing away from a node
    conflicts: set[tuple[int, int]] = set()
    on_sets = {k: frozenset(cands[k].on) for k in live}
    for i, s in enumerate(live):
        cs = cands[s]
        p, q = points[cs.ends[0]], points[cs.ends[1]]
        for t in live[i + 1:]:
            os, ot = orbit_of[s], orbit_of[t]
            pair = (min(os, ot), max(os, ot))
            if pair in conflicts:
                continue
            ct = cands[t]
            if cs.line == ct.line:
                if on_sets[s] & on_sets[t]:
                    conflicts.add(pair)
                continue
            r, u = points[ct.ends[0]], points[ct.ends[1]]
            o1, o2, o3, o4 = _cross(p, q, r), _cross(p, q, u), _cross(r, u, p), _cross(r, u, q)
            if o1 * o2 < 0 and o3 * o4 < 0 and not (on_sets[s] & on_sets[t]):
                conflicts.add(pair)
    for a, b in sorted(conflicts):
        if a == b:
            model.add(x[a] == 0)
        else:
            model.add_bool_or([x[a].Not(), x[b].Not()])

    # (a) every node on two segments or the end of one
    through: dict[int, list[int]] = {v: [] for v in range(len(points))}
    ending: dict[int, list[int]] = {v: [] for v in range(len(points))}
    for k in live:
        for v in cands[k].on:
            through[v].append(k)
        for v in cands[k].ends:
            ending[v].append(k)
    for v in range(len(points)):
        model.add(sum(var(k) for k in through[v]) + sum(var(k) for k in ending[v]) >= 2)

    # (e) no loose ends
    if no_loose_ends:
        for k in live:
            for v in cands[k].ends:
                support = [var(t) for t in through[v] if cands[t].line != cands[k].line]
                model.add_bool_or([var(k).Not()] + support)

    # (f) the longest line
    if longest is not None:
        model.add_bool_or([var(k) for k in live if len(cands[k].on) == longest] or [model.new_constant(0)])

    # (g) every adjacent pair is a side of a triangle
    if triangulated:
        edge_cover: dict[tuple[int, int], list[int]] = {}
        for k in live:
            on = cands[k].on
            for a, b in zip(on, on[1:], strict=False):
                edge_cover.setdefault((min(a, b), max(a, b)), []).append(k)
        edge = {}
        for pair, ks in edge_cover.items():
            e = model.new_bool_var(f"edge{pair}")
            model.add_max_equality(e, [var(k) for k in ks])
            edge[pair] = e
        nbrs: dict[int, set[int]] = {v: set() for v in range(len(points))}
        for a, b in edge:
            nbrs[a].add(b)
            nbrs[b].add(a)
        for (a, b), e in edge.items():
            corners: list[Any] = []
            for c in sorted(nbrs[a] & nbrs[b]):
                if _cross(points[a], points[b], points[c]) == 0:
                    continue
                tri = model.new_bool_var("")
                e1, e2 = edge[(min(a, c), max(a, c))], edge[(min(b, c), max(b, c))]
                model.add_implication(tri, e1)
                model.add_implication(tri, e2)
                model.add_bool_or([e1.Not(), e2.Not(), tri])
                corners.append(tri)
            model.add_bool_or([e.Not()] + corners)

    line_count = sum(len(orbits[o]) * x[o] for o in range(len(orbits)))
    if lines is not None:
        model.add(line_count == lines)

    result = Inference(names, points, cands, usable, orbits)
    result.model = model
    result.line_count = line_count

    if not enumerate_:
        return result

    class Collect(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()

        def on_solution_callback(self) -> None:
            chosen = tuple(sorted(m for o, xv in enumerate(x) if self.value(xv) for m in orbits[o]))
            if result.solutions and chosen in result.solutions:
                return
            result.solutions.append(chosen)
            if len(result.solutions) >= cap:
                result.complete = False
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    status = solver.solve(model, Collect())
    if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE, cp_model.FEASIBLE):
        result.complete = False
    if status == cp_model.FEASIBLE and len(result.solutions) < cap:
        result.complete = False  # stopped by the time limit
    result.seconds = time.perf_counter() - started
    return result
