"""The exact search of the board inference (CP-SAT) and the rebuild of each solution by the board builder."""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any, Callable, Iterable, Mapping, Sequence

from powertwo.boards import Board, BoardError
from powertwo.boards.build import from_segments, name_by_cells, orbit_segments

from ..satcall import cpsat_sigint
from .evidence import CENTRAL_SQUARES, Cell, Evidence, ExactPoint, InferenceError, LatticeSegment, load_evidence
from .geometry import Family, candidate_families, cell_of, endpoints, exact_ends, own_points, pair_points


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
    if square not in CENTRAL_SQUARES:
        raise InferenceError(f"central square {square!r} is not one of {', '.join(CENTRAL_SQUARES)}")
    started = time.perf_counter()
    evidence = evidence or load_evidence()
    segment_count, families = candidate_families(square)
    drawn = drawn_segments(evidence)
    forced, allowed = _drawn_families(families, drawn, square)
    valid = _node_test(evidence, drawn)
    own: dict[int, set[ExactPoint]] = {}
    for k in allowed:
        pts = own_points(families[k])
        if all(valid(p) for p in pts) and _one_per_cell(pts):
            own[k] = pts
    usable = sorted(own)
    if not forced <= set(usable):
        usable = []  # a drawn family makes a point that cannot be a node: no solution
    found, complete = _enumerate(families, usable, own, forced, valid, evidence.node_cells, time_limit)
    solutions = []
    for chosen in sorted(set(found), key=lambda ks: (len(ks), ks)):
        segments = tuple(families[k].segment for k in chosen)
        solutions.append(Solution(segments, verify(segments, evidence)))
    return SquareResult(square, len(endpoints(square)), segment_count, len(families),
                        tuple(families[k].segment for k in usable), tuple(families[k].segment for k in sorted(forced)),
                        tuple(solutions), complete, time.perf_counter() - started)


def drawn_segments(evidence: Evidence) -> dict[LatticeSegment, tuple[str, ...]]:
    """The display's drawn lines by their end cells (a segment, ends in ascending order)."""
    drawn: dict[LatticeSegment, tuple[str, ...]] = {}
    for line in evidence.drawn_lines:
        ends = tuple(sorted((evidence.cell(line[0]), evidence.cell(line[-1]))))
        drawn[ends] = line  # type: ignore[index]
    return drawn


def _drawn_families(families: Sequence[Family], drawn: Mapping[LatticeSegment, tuple[str, ...]],
                    square: str) -> tuple[set[int], list[int]]:
    """The families every solution has (the drawn lines: each one whole line of some family) and
    the families allowed at all (no other family is axis-parallel)."""
    forced, allowed = set(), []
    for k, fam in enumerate(families):
        if fam.axis_parallel:
            if not all(line in drawn for line in fam.lines):
                continue
            forced.add(k)
        allowed.append(k)
    covered = {line for k in forced for line in families[k].lines}
    if covered != set(drawn):
        missing = sorted(set(drawn) - covered)
        raise InferenceError(f"drawn line {'-'.join(drawn[missing[0]])} is not a whole line of any candidate "
                             f"family with the {square} square")
    return forced, allowed


def _node_test(evidence: Evidence, drawn: Mapping[LatticeSegment, tuple[str, ...]]) -> Callable[[ExactPoint], bool]:
    """Whether a point can be a node: it rounds to a node cell of the display, lies on every drawn
    line through its cell, and is one of the drawn nodes of every drawn line it lies on."""
    drawn_through: dict[Cell, list[LatticeSegment]] = {}
    for seg, line in drawn.items():
        for n in line:
            drawn_through.setdefault(evidence.cell(n), []).append(seg)
    node_cells = evidence.node_cells

    def valid(point: ExactPoint) -> bool:
        cell = cell_of(point)
        if cell is None or cell not in node_cells:
            return False
        if not all(_on_segment(point, seg) for seg in drawn_through.get(cell, ())):
            return False  # a drawn line's cell holds a node off that line
        return all(evidence.name(cell) in line for seg, line in drawn.items() if _on_segment(point, seg))

    return valid


def _one_per_cell(points: Iterable[ExactPoint]) -> bool:
    cells = [cell_of(p) for p in points]
    return len(cells) == len(set(cells))


def _enumerate(families: Sequence[Family], usable: list[int], own: Mapping[int, set[ExactPoint]], forced: set[int],
               valid: Callable[[ExactPoint], bool], node_cells: Iterable[Cell],
               time_limit: float) -> tuple[list[tuple[int, ...]], bool]:
    """Every set of usable families (CP-SAT, one Boolean each, one per pair that makes points)
    whose points fill each node cell exactly once; and whether the enumeration is complete."""
    from ortools.sat.python import cp_model

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
        if met is None or not all(valid(p) for p in met) or not _one_per_cell(own[a] | own[b] | met):
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
    with cpsat_sigint(solver):  # within the results job, Ctrl-C stops it
        status = solver.solve(model, Collect()) if usable else cp_model.INFEASIBLE
    return found, status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)


class NotASolution(InferenceError):
    """A line set that does not reproduce the display."""


def build(segments: Iterable[LatticeSegment], evidence: Evidence | None = None, name: str = "inferred") -> Board:
    """The board of the families of ``segments``, named by the display's cells (refused when
    its nodes do not round to distinct cells)."""
    evidence = evidence or load_evidence()
    board = from_segments(orbit_segments([exact_ends(seg) for seg in segments]), name)
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


