"""The board graph: the Power of Two board against RULES.md §1 (the default, read from
../shared/RULES.md when present, and the first reconstruction kept as power-of-two-sketch), the
builder's invariances, the shipped square boards and their symmetry groups."""

import json
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

from powertwo.boards import BoardError, from_json, from_segments, load, parse_segments, to_json
from powertwo.boards.build import name_by_cells, orbit_segments
from powertwo.boards.io import from_dict

RULES_MD = Path(__file__).resolve().parents[1].parent / "shared" / "RULES.md"

# The first reconstruction (power-of-two-sketch), as RULES.md §1 once listed it: id=(x,y) in reading order.
SKETCH_TABLE = """
1=(-4,4) 2=(-2,4) 3=(0,4) 4=(2,4) 5=(4,4)
6=(-8/3,10/3) 7=(8/3,10/3)
8=(-3,3) 9=(3,3)
10=(-10/3,8/3) 11=(-4/3,8/3) 12=(4/3,8/3) 13=(10/3,8/3)
14=(-4/5,12/5) 15=(4/5,12/5)
16=(-4,2) 17=(-2,2) 18=(0,2) 19=(2,2) 20=(4,2)
21=(-8/3,4/3) 22=(-4/3,4/3) 23=(4/3,4/3) 24=(8/3,4/3)
25=(-1,1) 26=(0,1) 27=(1,1)
28=(-12/5,4/5) 29=(12/5,4/5)
30=(-4,0) 31=(-2,0) 32=(-1,0) 33=(1,0) 34=(2,0) 35=(4,0)
36=(-12/5,-4/5) 37=(12/5,-4/5)
38=(-1,-1) 39=(0,-1) 40=(1,-1)
41=(-8/3,-4/3) 42=(-4/3,-4/3) 43=(4/3,-4/3) 44=(8/3,-4/3)
45=(-4,-2) 46=(-2,-2) 47=(0,-2) 48=(2,-2) 49=(4,-2)
50=(-4/5,-12/5) 51=(4/5,-12/5)
52=(-10/3,-8/3) 53=(-4/3,-8/3) 54=(4/3,-8/3) 55=(10/3,-8/3)
56=(-3,-3) 57=(3,-3)
58=(-8/3,-10/3) 59=(8/3,-10/3)
60=(-4,-4) 61=(-2,-4) 62=(0,-4) 63=(2,-4) 64=(4,-4)
"""


def sketch_table():
    out = {}
    for entry in SKETCH_TABLE.split():
        node, _, xy = entry.partition("=")
        x, y = xy.strip("()").split(",")
        out[int(node)] = (Fraction(x), Fraction(y))
    return out


@pytest.fixture(scope="module")
def p2():
    return load("power-of-two")


@pytest.fixture(scope="module")
def sketch():
    return load("power-of-two-sketch")


def rules_section_1():
    """RULES.md section 1 (the board), or a skip when ../shared/ is not beside the clone."""
    if not RULES_MD.exists():
        pytest.skip(f"{RULES_MD} is not there")
    text = RULES_MD.read_text(encoding="utf-8")
    return text[text.index("## 1. The Power of Two board"):text.index("## 2. ")]


def test_power_of_two_nodes_and_labels_equal_rules_md(p2):
    section = rules_section_1()
    rows = re.findall(r"^row +\d+: (.*)$", section, flags=re.M)
    table = {}
    for row in rows:
        for node, label, x, y in re.findall(r"(\d+)=([a-m]\d+)\((-?[\d/]+),(-?[\d/]+)\)", row):
            table[int(node)] = (label, (Fraction(x), Fraction(y)))
    assert len(rows) == 13 and len(table) == 64
    assert {v: (p2.label(v), p2.coord(v)) for v in p2.nodes} == table


def test_power_of_two_families_and_example_lines_equal_rules_md(p2):
    section = rules_section_1()
    families = re.findall(r"^\| [a-z ,]+ \| \((-?\d+),(-?\d+)\)-\((-?\d+),(-?\d+)\) \| (\d+) \| (\d+) \|$",
                          section, flags=re.M)
    assert len(families) == 7
    segments = [((Fraction(a), Fraction(b)), (Fraction(c), Fraction(d))) for a, b, c, d, _, _ in families]
    built = name_by_cells(from_segments(orbit_segments(segments), "power-of-two"), "abcdefghijklm",
                          (Fraction(-6), Fraction(6)))
    assert (built.coords, built.labels, built.lines) == (p2.coords, p2.labels, p2.lines)
    # each family's line count and nodes per line as the table states
    for a, b, c, d, lines, nodes in families:
        seg = ((Fraction(a), Fraction(b)), (Fraction(c), Fraction(d)))
        family = {line for line in p2.lines
                  if {p2.coord(line[0]), p2.coord(line[-1])} in ({q, r} for q, r in orbit_segments([seg]))}
        assert (len(family), {len(line) for line in family}) == (int(lines), {int(nodes)})
    examples = re.findall(r"`([a-m]\d+(?:-[a-m]\d+)+)`", section[section.index("Example lines"):])
    assert len(examples) == 5
    texts = {p2.line_text(k) for k in range(len(p2.lines))} | {
        "-".join(reversed(p2.line_text(k).split("-"))) for k in range(len(p2.lines))}
    assert set(examples) <= texts


def test_power_of_two_line_counts_and_symmetries(p2):
    assert len(p2.lines) == 32
    assert p2.line_lengths == {3: 4, 5: 16, 7: 4, 8: 8}
    assert max(len(line) for line in p2.lines) == 8  # a throw of at most seven intersections
    assert len(p2.symmetries) == 8
    assert {perm[p2.node("a13") - 1] for perm in p2.symmetries} == {p2.node(n) for n in ("a1", "m1", "a13", "m13")}


def test_power_of_two_starts_follow_the_mapping_rule(p2):
    def names(nodes):
        return tuple(p2.label(v) for v in nodes)

    assert {k: names(v) for k, v in p2.start("standard").items()} == {
        "light": ("a13", "m13", "e9", "i9"), "dark": ("a1", "m1", "e5", "i5")}
    mapped = p2.mapped_starts()
    for name in ("standard", "corners", "david-goliath"):
        assert {k: set(v) for k, v in mapped[name].items()} == {k: set(v) for k, v in p2.start(name).items()}


def test_half_medians_stop_at_the_central_square(p2):
    def line(text):
        return tuple(p2.node(n) for n in text.split("-"))

    assert line("a7-d7-e7") in p2.lines and line("i7-j7-m7") in p2.lines
    assert not any(p2.node("e7") in ln and p2.node("i7") in ln for ln in p2.lines)


def test_square_sides_board_adds_the_four_sides(p2):
    sides = load("power-of-two-square-sides")
    assert (sides.coords, sides.labels) == (p2.coords, p2.labels)
    assert set(p2.lines) < set(sides.lines)
    added = {sides.line_text(line) for line in set(sides.lines) - set(p2.lines)}
    assert added == {"e7-f6-g5", "e7-f8-g9", "g5-h6-i7", "g9-h8-i7"}
    assert sides.line_lengths == {3: 8, 5: 16, 7: 4, 8: 8} and len(sides.symmetries) == 8


def test_sketch_ids_and_coordinates_equal_its_table(sketch):
    table = sketch_table()
    assert len(table) == 64
    assert {v: sketch.coord(v) for v in sketch.nodes} == table


def test_sketch_line_counts(sketch):
    assert len(sketch.lines) == 32
    assert sketch.line_lengths == {3: 8, 5: 16, 8: 8}


def test_sketch_example_lines(sketch):
    for line in [(60, 61, 62, 63, 64), (60, 56, 46, 42, 38), (60, 52, 41, 36, 31, 22, 14, 3), (30, 31, 32)]:
        assert line in sketch.lines


def test_sketch_lines_ending_at_the_central_square_are_not_continued(sketch):
    # the median 30-31-32 stops at the central square; 33-34-35 is a line of its own
    assert (30, 31, 32) in sketch.lines and (33, 34, 35) in sketch.lines
    assert not any(32 in line and 33 in line for line in sketch.lines if len(line) > 3)


def test_sketch_symmetry_group_is_dihedral_of_order_8(sketch):
    syms = sketch.symmetries
    assert len(syms) == 8
    assert syms[0] == tuple(sketch.nodes)
    lines = {frozenset(line) for line in sketch.lines}
    for perm in syms:
        assert {frozenset(perm[v - 1] for v in line) for line in sketch.lines} == lines
    # the four corners are one orbit; 60 maps to each corner
    assert {perm[60 - 1] for perm in syms} == {1, 5, 60, 64}


def test_adjacency_rays_and_triangles(sketch):
    assert sketch.adjacency[30] == frozenset({16, 45, 21, 28, 31, 36, 41})
    assert (31, 32) in sketch.rays[30] and (45, 60) in sketch.rays[30]
    assert set(sketch.third_corners(42, 46)) <= set(sketch.adjacency[42])
    for a, b, c in sketch.triangles:
        assert sketch.adjacent(a, b) and sketch.adjacent(b, c) and sketch.adjacent(a, c)


def _segments():
    raw = json.loads((Path(__file__).resolve().parents[1] / "boards/data/power-of-two.json").read_text())
    return orbit_segments(parse_segments(raw["segments"]))


def test_building_is_invariant_under_shuffle_reverse_and_split(p2):
    segs = _segments()
    whole = from_segments(segs, "power-of-two")
    assert name_by_cells(whole, "abcdefghijklm", (Fraction(-6), Fraction(6))).coords == p2.coords
    rng = random.Random(7)
    for _trial in range(5):
        s = [(q, p) if rng.random() < 0.5 else (p, q) for p, q in segs]
        rng.shuffle(s)
        split = []
        for p, q in s:  # split some segments at an interior rational point, overlap some others
            if rng.random() < 0.4:
                t = Fraction(rng.randint(1, 9), 10)
                m = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
                split += [(p, m), (m, q)]
            elif rng.random() < 0.2:
                split += [(p, q), (q, p)]
            else:
                split.append((p, q))
        b = from_segments(split, "power-of-two")
        assert b.coords == whole.coords
        assert b.lines == whole.lines


def test_a_gap_between_collinear_segments_makes_two_lines():
    b = from_segments([((0, 0), (1, 1)), ((2, 2), (3, 3))])
    assert len(b.lines) == 2
    touching = from_segments([((0, 0), (1, 1)), ((1, 1), (3, 3))])
    # the joint of two pieces is not a node: the same board as one segment drawn whole
    assert touching == from_segments([((0, 0), (3, 3))])
    assert touching.lines == ((2, 1),) and touching.coords == ((3, 3), (0, 0))


@pytest.mark.parametrize("segments, message", [
    ([], "segments: the list of segments is empty"),
    ([[[0, 0], [0, 0]]], "segments[0]: zero-length segment at (0, 0)"),
    ([[[0, "x"], [1, 1]]], "segments[0] start y: coordinate 'x' is not a number (use an integer or a 'p/q' string)"),
    ([[[0, 0]]], "segments[0]: a segment must be a pair of endpoints [[x1, y1], [x2, y2]], got [[0, 0]]"),
    ([[[0, 0], [1]]], "segments[0] end: a point must be a pair [x, y], got [1]"),
    ([[[0, None], [1, 1]]], "segments[0] start y: coordinate None is not a number (use an integer or a 'p/q' string)"),
])
def test_bad_segments_are_rejected_with_a_message(segments, message):
    with pytest.raises(BoardError) as err:
        from_dict({"name": "t", "segments": segments}, "t.json")
    assert str(err.value) == "t.json: " + message


def test_save_and_load_round_trip(p2, sketch, tmp_path):
    again = from_json(to_json(p2))
    assert again == p2 and again.fingerprint == p2.fingerprint
    assert again.start("standard") == {"light": (60, 64, 42, 44), "dark": (1, 5, 21, 23)}
    assert from_json(to_json(sketch)).start("standard") == {"light": (60, 64, 42, 43), "dark": (1, 5, 22, 23)}


@pytest.mark.parametrize("name, nodes, lines, symmetries", [
    ("tower-of-power", 64, 42, 8),
    ("epaminondas", 168, 72, 4),
    ("netzwerk", 85, 26, 8),
])
def test_square_boards(name, nodes, lines, symmetries):
    b = load(name)
    assert (b.size, len(b.lines), len(b.symmetries)) == (nodes, lines, symmetries)


def test_square_board_names_and_lines():
    b = load("tower-of-power")
    a1, h8 = b.node("a1"), b.node("h8")
    assert b.coord(a1) == (0, 0) and b.coord(h8) == (7, 7)
    assert tuple(b.node(f"{f}{f_i + 1}") for f_i, f in enumerate("abcdefgh")) in b.lines  # long diagonal
    assert len(b.start("standard")["light"]) == 15 and len(b.start("standard")["dark"]) == 15
    n = load("netzwerk")
    field = n.node("a1")
    assert {n.label(q) for p, q in n.links if p == field} == {"e00", "e10", "e01", "e11"}
    assert n.line_lengths == {6: 12, 7: 14}


def test_graph_exports(p2):
    g = p2.to_networkx()
    assert g.number_of_nodes() == 64 and g.number_of_edges() == len(p2.edges)
    assert "<graphml" in p2.to_graphml()
