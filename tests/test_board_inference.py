"""The inference of the default board's lines from the server's display (solvers/inference/):
the evidence, the exact geometry against the board builder, the search's solutions, and the
inferred board's maximality, necessity, rounding, longest line and symmetries."""

import random
import re
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest

from powertwo.boards import from_segments, load
from powertwo.boards.build import SQUARE_SYMMETRIES, orbit_segments
from powertwo.solvers import inference as bi

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT.parent / "shared" / "RULES.md"
SHIPPED = ("power-of-two", "power-of-two-square-sides")


@pytest.fixture(scope="module")
def evidence():
    return bi.load_evidence()


@pytest.fixture(scope="module")
def diamond(evidence):
    return bi.search("diamond", evidence)


@pytest.fixture(scope="module")
def p2():
    return load("power-of-two")


def _exact(seg):
    return tuple((Fraction(x), Fraction(y)) for x, y in seg)


# ----------------------------------------------------------------------------- evidence
def test_evidence_holds_the_64_cells_and_12_drawn_lines(evidence, p2):
    assert len(evidence.nodes) == 64 and len(evidence.drawn_lines) == 12
    assert evidence.nodes == p2.labels  # the board's ids follow the display's reading order
    assert (evidence.cell("a1"), evidence.cell("m13"), evidence.cell("f3")) == ((-6, 6), (6, -6), (-1, 4))
    assert evidence.name((-1, 4)) == "f3"


def test_evidence_rows_equal_rules_md(evidence):
    if not RULES_MD.exists():
        pytest.skip(f"{RULES_MD} is not there")
    text = RULES_MD.read_text(encoding="utf-8")
    section = text[text.index("## 1. The Power of Two board"):text.index("## 2. ")]
    rows = {}
    for row in re.findall(r"^\| (\d+) \| ([a-m ]+) \| (?:(\d+) \| ([a-m ]+) |\| )\|$", section, flags=re.M):
        rows[int(row[0])] = row[1].split()
        if row[2]:
            rows[int(row[2])] = row[3].split()
    assert sorted(rows) == list(range(1, 14))
    assert [f"{c}{r}" for r in sorted(rows) for c in rows[r]] == list(evidence.nodes)


@pytest.mark.parametrize("text, message", [
    ("{", "x.json: not valid JSON (Expecting property name enclosed in double quotes, line 1)"),
    ('{"rows": {}}', "x.json: needs the fields source, columns, first, rows and drawn_lines"),
    ('{"source": "", "columns": "ab", "first": [0, 0], "rows": {"1": "ac"}, "drawn_lines": []}',
     "x.json: row 1 names column c, not one of ab"),
    ('{"source": "", "columns": "ab", "first": [0, 0], "rows": {"1": "ab"}, "drawn_lines": [["a1", "b2"]]}',
     "x.json: drawn line a1-b2 names cells without a node: b2"),
])
def test_bad_evidence_is_refused_naming_the_problem(text, message):
    with pytest.raises(bi.InferenceError) as err:
        bi.load_evidence(text, "x.json")
    assert str(err.value) == message


# ----------------------------------------------------------------------------- geometry
def _enters_by_separating_axes(p, q, square):
    """Independent of bi.enters: a closed segment misses an open convex polygon exactly when their
    projections on some edge normal or on the segment's normal do not overlap (open intervals)."""
    corners = bi.CENTRAL_SQUARES[square]
    axes = [(b[1] - a[1], a[0] - b[0]) for a, b in zip(corners, corners[1:] + corners[:1], strict=True)]
    axes.append((q[1] - p[1], p[0] - q[0]))
    for ax, ay in axes:
        seg = sorted(ax * x + ay * y for x, y in (p, q))
        poly = sorted(ax * x + ay * y for x, y in corners)
        if seg[1] <= poly[0] or seg[0] >= poly[-1]:
            return False
    return True


@pytest.mark.parametrize("square, boundary", [("diamond", 8), ("axis", 16)])
def test_candidate_endpoints_and_segments(square, boundary):
    points = bi.endpoints(square)
    assert len(points) == 48 + boundary  # the outer border's 48 lattice points and the central square's
    assert all(max(abs(x), abs(y)) == 6 or (abs(x) + abs(y) == 2 if square == "diamond" else max(abs(x), abs(y)) == 2)
               for x, y in points)
    for p, q in combinations(points, 2):
        assert bi.enters(p, q, square) == _enters_by_separating_axes(p, q, square), (p, q)


def test_candidate_families_are_the_distinct_orbit_boards():
    count, families = bi.candidate_families("diamond")
    points = bi.endpoints("diamond")
    segments = [(p, q) for p, q in combinations(points, 2) if not _enters_by_separating_axes(p, q, "diamond")]
    assert count == len(segments) == 1180
    boards = {from_segments(orbit_segments([_exact(s)])).fingerprint for s in segments}
    assert len(families) == len(boards) == 134


def test_points_of_families_agree_with_the_board_builder(diamond):
    _, families = bi.candidate_families("diamond")
    usable = [f for f in families if f.segment in diamond.usable]
    rng = random.Random(5)
    pairs = list(combinations(usable, 2)) + [tuple(rng.sample(families, 2)) for _ in range(150)]
    merged = 0
    for a, b in pairs:
        board = from_segments(orbit_segments([_exact(a.segment), _exact(b.segment)]))
        met = bi.pair_points(a, b)
        if met is None:  # collinear lines that touch: the builder joins them
            assert len(board.lines) < len(a.lines) + len(b.lines)
            merged += 1
            continue
        assert set(board.coords) == bi.own_points(a) | bi.own_points(b) | met
    assert merged > 0


def test_cell_of_rounds_exactly_and_refuses_near_halves():
    assert bi.cell_of((Fraction(-18, 5), Fraction(6, 5))) == (-4, 1)
    assert bi.cell_of((Fraction(-14, 3), Fraction(10, 3))) == (-5, 3)
    assert bi.cell_of((Fraction(7, 5), Fraction(0))) == (1, 0)  # 1.4: exactly 1/10 from a half
    assert bi.cell_of((Fraction(3, 2), Fraction(0))) is None
    assert bi.cell_of((Fraction(0), Fraction(-29, 20))) is None  # -1.45


# ----------------------------------------------------------------------------- the search
def test_search_finds_the_shipped_boards_and_nothing_else(diamond, evidence):
    prints = {load(name).fingerprint: name for name in SHIPPED}
    assert diamond.complete
    assert [prints.get(s.board.fingerprint) for s in diamond.solutions] == list(SHIPPED)
    without, with_sides = diamond.solutions
    # the two differ by the central square's four sides, which add no node
    assert set(with_sides.segments) - set(without.segments) == {((-2, 0), (0, -2))}
    assert set(without.segments) < set(with_sides.segments)
    assert with_sides.board.coords == without.board.coords
    axis = bi.search("axis", evidence)
    assert axis.complete and axis.solutions == ()


def test_the_rules_md_families_are_the_solution(diamond, p2):
    raw = load("power-of-two")
    assert bi.verify(diamond.solutions[0].segments).fingerprint == raw.fingerprint == p2.fingerprint


@pytest.mark.slow
def test_every_one_family_change_of_a_solution_fails_or_gives_a_found_board(diamond, evidence):
    """Independent of the CP-SAT model: the board builder judges each neighbour of a solution."""
    _, families = bi.candidate_families("diamond")
    found = {s.board.fingerprint for s in diamond.solutions}
    base = set(diamond.solutions[0].segments)
    passed = set()
    for fam in families:
        try:
            passed.add(bi.verify(sorted(base ^ {fam.segment}), evidence).fingerprint)
        except bi.NotASolution:
            continue
    assert passed and passed <= found


def test_answer_file_is_the_committed_one():
    answer, timings = bi.infer(shipped=SHIPPED)
    assert answer["solutions"] == 2 and answer["complete"]
    assert [s["equals"] for sq in answer["squares"] for s in sq["solutions"]] == list(SHIPPED)
    assert set(timings) == {"search diamond", "search axis"}
    committed = ROOT / "results" / "board-inference.json"
    assert bi.answer_text(answer) == committed.read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- the inferred board
def test_necessity_dropping_any_family_loses_nodes_or_a_drawn_line(diamond, evidence):
    segments = diamond.solutions[0].segments
    reasons = {}
    for seg in segments:
        with pytest.raises(bi.NotASolution) as err:
            bi.verify([s for s in segments if s != seg], evidence)
        reasons[seg] = str(err.value)
    assert len(reasons) == 7
    for seg in diamond.drawn:  # a drawn family's lines are gone
        assert "lines differ from the drawn ones" in reasons[seg] or "missing" in reasons[seg]
    for seg in set(segments) - set(diamond.drawn):
        assert re.match(r"nodes differ from the display: extra .*; missing [a-m]\d+", reasons[seg]), reasons[seg]
    # the square's sides are the only family of the larger solution that can be dropped
    larger = diamond.solutions[1].segments
    droppable = []
    for seg in larger:
        try:
            bi.verify([s for s in larger if s != seg], evidence)
            droppable.append(seg)
        except bi.NotASolution:
            pass
    assert droppable == [((-2, 0), (0, -2))]


def _proper_crossing(p, q, r, s):
    """The point where segments pq and rs cross (not collinear), ends included; None otherwise."""
    d = (q[0] - p[0]) * (s[1] - r[1]) - (q[1] - p[1]) * (s[0] - r[0])
    if d == 0:
        return None
    t = ((r[0] - p[0]) * (s[1] - r[1]) - (r[1] - p[1]) * (s[0] - r[0])) / d
    u = ((r[0] - p[0]) * (q[1] - p[1]) - (r[1] - p[1]) * (q[0] - p[0])) / d
    if 0 <= t <= 1 and 0 <= u <= 1:
        return p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])
    return None


def _run(p, q):
    """The straight run through nodes p and q: their carrier inside the outer square [-6,6]^2, cut where
    it enters the central square's interior (the piece holding p and q); None when the central square
    lies between them. Independent of the search's geometry."""
    d = (q[0] - p[0], q[1] - p[1])
    lo, hi = Fraction(-10 ** 9), Fraction(10 ** 9)  # t where the carrier is inside the outer square
    for k in (0, 1):
        if d[k]:
            ts = sorted(((side - p[k]) / d[k]) for side in (-6, 6))
            lo, hi = max(lo, ts[0]), min(hi, ts[1])
    inside_lo, inside_hi = Fraction(-10 ** 9), Fraction(10 ** 9)  # t strictly inside the diamond
    for a, b in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        start, slope = a * p[0] + b * p[1] - 2, a * d[0] + b * d[1]
        if slope == 0:
            if start >= 0:
                inside_lo, inside_hi = Fraction(1), Fraction(0)
            continue
        t = -start / slope
        inside_lo, inside_hi = (inside_lo, min(inside_hi, t)) if slope > 0 else (max(inside_lo, t), inside_hi)
    if inside_lo < inside_hi:
        if 1 <= inside_lo:
            hi = inside_lo
        elif inside_hi <= 0:
            lo = inside_hi
        else:
            return None
    return tuple((p[0] + t * d[0], p[1] + t * d[1]) for t in (lo, hi))


@pytest.mark.parametrize("name", SHIPPED)
def test_maximality_every_run_that_is_not_a_line_crosses_a_line_off_a_node(name):
    """No line can be added through two nodes (running, as lines do, from the border or the central
    square to the border or the central square) without a crossing that is not a node."""
    board = load(name)
    coords = set(board.coords)
    ends = [(board.coord(line[0]), board.coord(line[-1])) for line in board.lines]
    runs = {_run(board.coord(a), board.coord(b)) for a, b in combinations(board.nodes, 2)} - {None}
    runs = {tuple(sorted(r)) for r in runs}
    lines = {tuple(sorted(e)) for e in ends}
    # every line is a run, but the central square's sides (their runs go on to the border)
    assert len(lines - runs) == {"power-of-two": 0, "power-of-two-square-sides": 4}[name]
    for r, s in sorted(runs - lines):
        assert any((pt := _proper_crossing(r, s, a, b)) is not None and pt not in coords for a, b in ends), (r, s)
    assert len(runs - lines) == 656


def test_rounding_every_node_lies_in_its_cell_at_least_a_tenth_from_a_half(p2, evidence):
    margins = []
    for v in p2.nodes:
        x, y = p2.coord(v)
        assert (round(x), round(y)) == evidence.cell(p2.label(v))
        margins += [abs(c - (c.numerator // c.denominator) - Fraction(1, 2)) for c in (x, y)]
    assert min(margins) == Fraction(1, 10)  # 18/5 (c6, k6, c8, k8 and their images): exactly a tenth
    assert {p2.label(v) for v in p2.nodes if Fraction(18, 5) in map(abs, p2.coord(v))} == {
        "f3", "h3", "c6", "k6", "c8", "k8", "f11", "h11"}


def test_longest_line_has_8_nodes_and_the_symmetries_are_the_squares(p2):
    assert max(len(line) for line in p2.lines) == 8
    assert [p2.line_text(k) for k, line in enumerate(p2.lines) if len(line) == 8][0].count("-") == 7
    index = {c: v for v, c in zip(p2.nodes, p2.coords, strict=True)}
    geometric = {tuple(index[(a * x + b * y, c * x + d * y)] for x, y in p2.coords)
                 for a, b, c, d in SQUARE_SYMMETRIES}
    assert set(p2.symmetries) == geometric and len(geometric) == 8
