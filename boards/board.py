"""The board graph: nodes with exact coordinates, straight lines, and what follows from them.

A :class:`Board` is a value. Everything a game or puzzle needs (adjacency, rays,
lines through a node, triangles, the symmetry group, jump triples) is derived
from two facts: the nodes (ids ``1..N`` with exact rational coordinates and a
label) and the lines (ordered tuples of node ids, at least two nodes each).

Two nodes are *adjacent* when they are consecutive on some line. A *ray* is the
sequence of nodes met when sliding from a node along one line in one direction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from itertools import combinations
from typing import Any, Iterable

NodeId = int
"""A node of a board: an integer ``1..N`` (reading order for built boards)."""
LineId = int
"""Index of a line in :attr:`Board.lines`."""
Line = tuple[NodeId, ...]
Point = tuple[Fraction, Fraction]
Permutation = tuple[NodeId, ...]
"""A symmetry as a tuple ``p`` with ``p[i - 1]`` the image of node ``i``."""
Starts = tuple[tuple[str, tuple[tuple[str, tuple[NodeId, ...]], ...]], ...]
"""A board's named starts: each name with its sides and each side's nodes (:attr:`Board.starts`)."""
SYMMETRY_LIST_CAP = 10_000
"""The largest symmetry group :attr:`Board.symmetries` lists element by element."""
MAX_NODES = 10_000
"""The most nodes a board may have (the games' boards have under 100; a board file within the
JSON reader's 8 MiB could otherwise ask for millions)."""
MAX_LINES = 20_000
"""The most lines a board may have."""
CONFIRM_WORK = 40_000
"""Nodes times the digits of the symmetry count up to which bliss's count is confirmed by
Schreier-Sims (:attr:`Board.symmetry_confirmed`)."""


class BoardError(ValueError):
    """A board (or its source file) is malformed; the message names the problem."""


MAX_NODE_NAME = 12
"""The longest node id read from text (``63``; a 4,300-digit number is not read as a number)."""


class NodeError(BoardError):
    """``value`` names no node of board ``board``: ``malformed`` when it is neither an id nor a
    label at all (not an int or a str, or a bool), otherwise no node has that label or id. The
    message is ``[where: ]node V does not exist on board B`` or ``[where: ]V is not a node``; a
    reader that words it otherwise builds its own from these fields."""

    def __init__(self, board: str, value: object, where: str, malformed: bool) -> None:
        self.board, self.value, self.where, self.malformed = board, value, where, malformed
        said = f"{value!r} is not a node" if malformed else f"node {value} does not exist on board {board}"
        super().__init__(f"{where}: {said}" if where else said)

    @property
    def shown(self) -> str:
        """The value as an error quotes it: its text, at most 40 characters."""
        return str(self.value)[:40]


def format_fraction(value: Fraction) -> str:
    """Exact text of a coordinate: ``-4``, ``8/3``, ``-12/5``."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def order_value(order: int) -> int | str:
    """A count as ``board info`` gives it: exact up to 100 digits (what the JSON reader reads back),
    else ``"about 1.1831e6337 (6,338 digits)"``."""
    digits = 1 + int(math.log10(order))
    digits += (order >= 10 ** digits) - (order < 10 ** (digits - 1))  # exact where the float is not
    if digits <= 100:
        return order
    lead = order // 10 ** (digits - 5)  # five leading digits, without converting the whole number
    text = str(lead)
    return f"about {text[0]}.{text[1:]}e{digits - 1} ({digits:,} digits)"


def _orbit_product(base: list[int], strong: list[list[int]]) -> int:
    """The product of the basic orbits' lengths of a stabiliser chain: level ``i``'s orbit is that
    of ``base[i]`` under the strong generators that fix ``base[:i]``."""
    moved_at = [next((i for i, b in enumerate(base) if g[b] != b), len(base)) for g in strong]
    product = 1
    for i, point in enumerate(base):
        gens = [g for g, level in zip(strong, moved_at, strict=True) if level >= i]
        orbit, frontier = {point}, [point]
        while frontier:
            frontier = [g[x] for x in frontier for g in gens if g[x] not in orbit]
            orbit.update(frontier)
        product *= len(orbit)
    return product


@dataclass(frozen=True)
class Board:
    """A board: nodes ``1..N`` with exact coordinates, and its straight lines.

    ``coords[i - 1]`` is the position of node ``i``; ``labels[i - 1]`` its name
    (``"17"`` on the Power of Two board, ``"a1"`` on square boards). ``links``
    are extra node pairs that belong to a game's structure without being lines
    (Netzwerk: a field touches an energy point); they take part in the symmetry
    group. ``starts`` maps a start-position name to ``{"light": (...), "dark": (...)}``.
    ``cells`` are the nodes that are squares of a grid (Tower of Power, Epaminondas, Netzwerk's
    fields): drawn as squares, not points.
    """

    name: str
    coords: tuple[Point, ...]
    lines: tuple[Line, ...]
    labels: tuple[str, ...] = ()
    links: tuple[tuple[NodeId, NodeId], ...] = ()
    starts: Starts = ()
    cells: tuple[NodeId, ...] = ()
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        n = len(self.coords)
        if n == 0:
            raise BoardError(f"board {self.name!r}: no nodes")
        if n > MAX_NODES or len(self.lines) > MAX_LINES:
            raise BoardError(f"board {self.name!r}: {n:,} nodes and {len(self.lines):,} lines, more than a board may "
                             f"have ({MAX_NODES:,} nodes, {MAX_LINES:,} lines)")
        if not self.labels:
            object.__setattr__(self, "labels", tuple(str(i) for i in range(1, n + 1)))
        if len(self.labels) != n:
            raise BoardError(f"board {self.name!r}: {len(self.labels)} labels for {n} nodes")
        if len(set(self.labels)) != n:
            raise BoardError(f"board {self.name!r}: node labels are not unique")
        for k, line in enumerate(self.lines):
            if len(line) < 2:
                raise BoardError(f"board {self.name!r}: line {k} has fewer than two nodes")
            if len(set(line)) != len(line):
                raise BoardError(f"board {self.name!r}: line {k} repeats a node")
            for v in line:
                if not isinstance(v, int) or not 1 <= v <= n:
                    raise BoardError(f"board {self.name!r}: line {k} names node {v!r}, not in 1..{n}")
        for a, b in self.links:
            for v in (a, b):
                if not isinstance(v, int) or not 1 <= v <= n:
                    raise BoardError(f"board {self.name!r}: link names node {v!r}, not in 1..{n}")
        for v in self.cells:
            if not isinstance(v, int) or not 1 <= v <= n:
                raise BoardError(f"board {self.name!r}: cell names node {v!r}, not in 1..{n}")

    # ------------------------------------------------------------------ nodes
    @property
    def nodes(self) -> range:
        return range(1, len(self.coords) + 1)

    @property
    def size(self) -> int:
        return len(self.coords)

    def coord(self, node: NodeId) -> Point:
        return self.coords[node - 1]

    def label(self, node: NodeId) -> str:
        return self.labels[node - 1]

    @cached_property
    def _by_label(self) -> dict[str, NodeId]:
        return {lab: i for i, lab in enumerate(self.labels, start=1)}

    def node(self, text: str | int) -> NodeId:
        """The node named ``text`` (its label, or its id as a number); raises :class:`NodeError`."""
        return read_node(self, text, "")

    def has_node(self, node: object) -> bool:
        return isinstance(node, int) and not isinstance(node, bool) and 1 <= node <= self.size

    @cached_property
    def fingerprint(self) -> str:
        """A hash of what the rules see: the nodes (coordinates and labels, in id order) and the
        lines (node ids in order). Two boards with the same fingerprint play the same; an answer
        file carries it beside the board's name (a name alone may be reused by another board)."""
        import hashlib

        text = ";".join(f"{format_fraction(x)},{format_fraction(y)},{lab}"
                        for (x, y), lab in zip(self.coords, self.labels, strict=True))
        text += "|" + ";".join("-".join(map(str, line)) for line in self.lines)
        text += "|" + ";".join(f"{a}-{b}" for a, b in self.links)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # ------------------------------------------------------------------ lines
    def line_text(self, line: LineId | Line) -> str:
        """A line written by its node labels: ``60-61-62-63-64``."""
        nodes = self.lines[line] if isinstance(line, int) else line
        return "-".join(self.label(v) for v in nodes)

    @cached_property
    def lines_through(self) -> dict[NodeId, tuple[LineId, ...]]:
        """For every node, the ids of the lines that pass through it."""
        out: dict[NodeId, list[LineId]] = {v: [] for v in self.nodes}
        for k, line in enumerate(self.lines):
            for v in line:
                out[v].append(k)
        return {v: tuple(ks) for v, ks in out.items()}

    @cached_property
    def line_lengths(self) -> dict[int, int]:
        """How many lines have each length (number of nodes)."""
        out: dict[int, int] = {}
        for line in self.lines:
            out[len(line)] = out.get(len(line), 0) + 1
        return dict(sorted(out.items()))

    @cached_property
    def adjacency(self) -> dict[NodeId, frozenset[NodeId]]:
        """Nodes consecutive with each node on some line."""
        out: dict[NodeId, set[NodeId]] = {v: set() for v in self.nodes}
        for line in self.lines:
            for a, b in zip(line, line[1:], strict=False):
                out[a].add(b)
                out[b].add(a)
        return {v: frozenset(s) for v, s in out.items()}

    def adjacent(self, a: NodeId, b: NodeId) -> bool:
        return b in self.adjacency[a]

    @cached_property
    def edges(self) -> tuple[tuple[NodeId, NodeId], ...]:
        """Every segment between adjacent nodes, as ``(low, high)``, sorted."""
        return tuple(sorted({(min(a, b), max(a, b))
                             for line in self.lines for a, b in zip(line, line[1:], strict=False)}))

    @cached_property
    def rays(self) -> dict[NodeId, tuple[tuple[NodeId, ...], ...]]:
        """For every node, the nodes met sliding from it along each line in each direction.

        Each ray is non-empty and starts with the neighbour of the node; rays are
        listed line by line (lines in id order), forwards before backwards.
        """
        out: dict[NodeId, list[tuple[NodeId, ...]]] = {v: [] for v in self.nodes}
        for line in self.lines:
            for i, v in enumerate(line):
                if i + 1 < len(line):
                    out[v].append(tuple(line[i + 1:]))
                if i > 0:
                    out[v].append(tuple(reversed(line[:i])))
        return {v: tuple(rs) for v, rs in out.items()}

    @cached_property
    def jumps(self) -> tuple[tuple[NodeId, NodeId, NodeId], ...]:
        """Every jump triple ``(from, over, to)``: three consecutive nodes of a line, either way."""
        out = set()
        for line in self.lines:
            for a, b, c in zip(line, line[1:], line[2:], strict=False):
                out.add((a, b, c))
                out.add((c, b, a))
        return tuple(sorted(out))

    @cached_property
    def triangles(self) -> tuple[tuple[NodeId, NodeId, NodeId], ...]:
        """Every set of three pairwise adjacent nodes, as sorted triples."""
        adj = self.adjacency
        out = []
        for a in self.nodes:
            for b, c in combinations(sorted(x for x in adj[a] if x > a), 2):
                if c in adj[b]:
                    out.append((a, b, c))
        return tuple(out)

    def third_corners(self, a: NodeId, b: NodeId) -> tuple[NodeId, ...]:
        """The nodes adjacent to both ``a`` and ``b`` (the third corners of their triangles)."""
        return tuple(sorted(self.adjacency[a] & self.adjacency[b]))

    # ------------------------------------------------------------- symmetries
    def is_symmetry(self, perm: Permutation) -> bool:
        """Whether ``perm`` maps every line onto a line (its order kept up to reversal) and every
        link onto a link: the definition of a symmetry, checked on the board itself."""
        if sorted(perm) != list(self.nodes):
            return False
        lines, links = self._line_and_link_sets
        for line in lines:
            image = tuple(perm[v - 1] for v in line)
            if min(image, image[::-1]) not in lines:
                return False
        return all(frozenset(perm[v - 1] for v in pair) in links for pair in links)

    @cached_property
    def _line_and_link_sets(self) -> tuple[frozenset[Line], frozenset[frozenset[NodeId]]]:
        """The lines (each in its least direction) and the links as sets, for :meth:`is_symmetry`."""
        return (frozenset(min(line, line[::-1]) for line in self.lines),
                frozenset(frozenset(pair) for pair in self.links))

    @cached_property
    def _symmetry_graph(self):
        """The coloured graph whose automorphisms are the symmetries: the nodes (colour 0), one
        vertex per distinct line (1) joined to its nodes, one vertex per consecutive pair of a
        line (2) joined to both nodes and to the line (so the order along it is kept up to
        reversal), one vertex per link (3) joined to both ends."""
        import igraph

        n = self.size
        colours = [0] * n
        edges: list[tuple[int, int]] = []
        for line in sorted({min(line, line[::-1]) for line in self.lines}):
            vertex = len(colours)
            colours.append(1)
            edges += [(v - 1, vertex) for v in line]
            for a, b in zip(line, line[1:], strict=False):
                colours.append(2)
                edges += [(a - 1, len(colours) - 1), (b - 1, len(colours) - 1), (vertex, len(colours) - 1)]
        for pair in sorted({tuple(sorted(pair)) for pair in self.links}):
            colours.append(3)
            edges += [(v - 1, len(colours) - 1) for v in pair]
        return igraph.Graph(n=len(colours), edges=edges), colours

    @cached_property
    def symmetry_generators(self) -> tuple[Permutation, ...]:
        """Generators of the symmetry group (bliss through igraph, on :attr:`_symmetry_graph`),
        each checked with :meth:`is_symmetry`; empty when the identity is the only symmetry."""
        graph, colours = self._symmetry_graph
        out = []
        for gen in graph.automorphism_group(sh="fl", color=colours):
            perm = tuple(gen[v - 1] + 1 for v in self.nodes)
            if not self.is_symmetry(perm):
                raise BoardError(f"board {self.name!r}: a computed symmetry does not map lines onto lines")
            if perm != tuple(self.nodes):
                out.append(perm)
        return tuple(sorted(set(out)))

    @cached_property
    def symmetry_order(self) -> int:
        """How many symmetries the board has: bliss's count of the graph's automorphisms, confirmed
        (when :attr:`symmetry_confirmed`) by the checked generators (:meth:`_generated_at_least`):
        they generate at least that many, and each is a symmetry, so the group has exactly that
        many. Both steps are polynomial in the board's size (100 parallel segments: 200 nodes, a
        group of 10^189 symmetries, in about 2 s)."""
        counted = self._counted_symmetries
        if self.symmetry_confirmed:
            generated = self._generated_at_least(counted)
            if generated != counted:
                raise BoardError(f"board {self.name!r}: the symmetry generators give {generated} symmetries, "
                                 f"the graph has {counted}")
        return counted

    @cached_property
    def _counted_symmetries(self) -> int:
        """bliss's count of the automorphisms of :attr:`_symmetry_graph` (no generators listed)."""
        import sys

        graph, colours = self._symmetry_graph
        limit = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)  # bliss's count comes as digits: 2,000 parallel segments have 6,338
        try:
            return int(graph.count_automorphisms(sh="fs", color=colours))  # "fs": 1.6x "fl" on 1,000 segments
        finally:
            sys.set_int_max_str_digits(limit)

    @property
    def symmetry_confirmed(self) -> bool:
        """Whether :attr:`symmetry_order` is confirmed by the generators as well as counted by bliss:
        when the count's digits times the nodes are at most :data:`CONFIRM_WORK` (the randomised
        Schreier-Sims grows with about the cube of that: 100 parallel segments, 200 nodes and 10^188
        symmetries, take 2 s; 200 of them 20 s). Beyond, the count is bliss's alone, and ``board
        info`` says so."""
        return self._counted_symmetries.bit_length() * math.log10(2) * self.size <= CONFIRM_WORK

    def _generated_at_least(self, counted: int, tries: int = 3) -> int:
        """A lower bound on the order of the group the generators generate, equal to ``counted``
        when it is that group's order: the product of the basic orbits' lengths of a stabiliser
        chain built by the randomised Schreier-Sims algorithm (sympy). The products of the chain's
        transversal elements are distinct members of the group, so the product never exceeds its
        order; a chain left incomplete by bad luck (probability at most 2^-10 a try) gives less,
        and the best of ``tries`` chains is kept. (The deterministic Schreier-Sims, which this
        replaced, took minutes on 200 nodes with 199 generators.)"""
        if not self.symmetry_generators:
            return 1
        from sympy.combinatorics import Permutation as SymPerm, PermutationGroup

        group = PermutationGroup([SymPerm([v - 1 for v in p]) for p in self.symmetry_generators])
        best = 0
        for _ in range(tries):  # two first base points: sympy 1.14 fails on a chain of one level
            base, strong = group.schreier_sims_random(base=[0, 1], consec_succ=10)
            best = max(best, _orbit_product(base, [g.array_form for g in strong]))
            if best >= counted:
                break
        return best

    @cached_property
    def node_orbits(self) -> tuple[tuple[NodeId, ...], ...]:
        """The nodes grouped by orbit under the symmetry group (each sorted, by least node)."""
        root = list(range(self.size + 1))

        def find(v: int) -> int:
            while root[v] != v:
                root[v] = root[root[v]]
                v = root[v]
            return v

        for perm in self.symmetry_generators:
            for v in self.nodes:
                root[find(v)] = find(perm[v - 1])
        orbits: dict[int, list[NodeId]] = {}
        for v in self.nodes:
            orbits.setdefault(find(v), []).append(v)
        return tuple(sorted(tuple(vs) for vs in orbits.values()))

    @cached_property
    def symmetries(self) -> tuple[Permutation, ...]:
        """Every symmetry (see :meth:`is_symmetry`), the identity first, the rest sorted; listed
        only for groups of at most :data:`SYMMETRY_LIST_CAP` elements (raises :class:`BoardError`
        naming the order otherwise: use :attr:`symmetry_generators`)."""
        order = self.symmetry_order
        if order > SYMMETRY_LIST_CAP:
            raise BoardError(f"board {self.name}: {order:,} symmetries, too many to list one by one "
                             f"(at most {SYMMETRY_LIST_CAP:,})")
        identity = tuple(self.nodes)
        seen = {identity}
        frontier = [identity]
        while frontier:
            nxt = []
            for p in frontier:
                for g in self.symmetry_generators:
                    q = tuple(g[v - 1] for v in p)
                    if q not in seen:
                        seen.add(q)
                        nxt.append(q)
            frontier = nxt
        return (identity,) + tuple(sorted(seen - {identity}))

    @cached_property
    def symmetry_breakers(self) -> tuple[Permutation, ...]:
        """The symmetries a model breaks with lex-leader constraints: every non-identity symmetry
        when the group is listed (one answer per orbit), else the generators (fewer answers,
        never an optimum lost, though more than one per orbit may remain)."""
        if self.symmetry_order <= SYMMETRY_LIST_CAP:
            return self.symmetries[1:]
        return self.symmetry_generators

    def image(self, perm: Permutation, nodes: Iterable[NodeId]) -> frozenset[NodeId]:
        return frozenset(perm[v - 1] for v in nodes)

    def canonical(self, nodes: Iterable[NodeId]) -> tuple[NodeId, ...]:
        """The least (sorted tuple) image of a node set under the symmetry group (listed groups only)."""
        nodes = tuple(nodes)
        return min(tuple(sorted(p[v - 1] for v in nodes)) for p in self.symmetries)

    # ------------------------------------------------------------- geometry
    @cached_property
    def outer_corners(self) -> tuple[NodeId, ...]:
        """The four outer corners of a square outline, computed from the coordinates: the nodes
        with the least and greatest ``x + y`` and ``x - y``, in the order bottom-left, bottom-right,
        top-right, top-left (RULES.md section 1: the ``corners`` start)."""
        nodes = list(self.nodes)
        bl = min(nodes, key=lambda v: (self.coord(v)[0] + self.coord(v)[1], v))
        br = max(nodes, key=lambda v: (self.coord(v)[0] - self.coord(v)[1], -v))
        tr = max(nodes, key=lambda v: (self.coord(v)[0] + self.coord(v)[1], -v))
        tl = min(nodes, key=lambda v: (self.coord(v)[0] - self.coord(v)[1], v))
        return bl, br, tr, tl

    @cached_property
    def centre(self) -> Point:
        """The centre of the outer corners (the centre of the board's symmetry)."""
        pts = [self.coord(v) for v in self.outer_corners]
        return (sum((p[0] for p in pts), Fraction(0)) / 4, sum((p[1] for p in pts), Fraction(0)) / 4)

    def diagonal_to_centre(self, corner: NodeId) -> tuple[NodeId, ...]:
        """The nodes on the straight segment from ``corner`` to the board's centre, from the corner."""
        (cx, cy), (x0, y0) = self.centre, self.coord(corner)
        on = []
        for v in self.nodes:
            x, y = self.coord(v)
            if (x - x0) * (cy - y0) != (y - y0) * (cx - x0):
                continue
            t = (x - x0) / (cx - x0) if cx != x0 else (y - y0) / (cy - y0)
            if 0 <= t < 1:
                on.append((t, v))
        return tuple(v for _, v in sorted(on))

    def inner_start_node(self, corner: NodeId) -> NodeId:
        """RULES.md section 1, the ``standard`` start: on the diagonal from ``corner`` towards the
        central square, the last node before the square. The node of the diagonal nearest the
        centre lies on the central square (the midpoint of one of its sides on the Power of Two
        board, a corner of it on the sketch), so this is the second nearest."""
        diagonal = self.diagonal_to_centre(corner)
        if len(diagonal) < 3:
            raise BoardError(f"board {self.name}: the diagonal from corner {self.label(corner)} has too few nodes")
        return diagonal[-2]

    def mapped_starts(self) -> dict[str, dict[str, tuple[NodeId, ...]]]:
        """The ``corners``, ``standard`` and ``david-goliath`` starts by the rules of RULES.md section 1,
        from the geometry: Light on the two bottom corners, Dark on the two top ones; David on the
        bottom-left corner, Goliath on the top-right one."""
        bl, br, tr, tl = self.outer_corners
        return {
            "standard": {"light": (bl, br, self.inner_start_node(bl), self.inner_start_node(br)),
                         "dark": (tl, tr, self.inner_start_node(tl), self.inner_start_node(tr))},
            "corners": {"light": (bl, br), "dark": (tl, tr)},
            "david-goliath": {"light": (bl,), "dark": (tr,)},
        }

    # ---------------------------------------------------------------- starts
    def start(self, name: str) -> dict[str, tuple[NodeId, ...]]:
        for key, sides in self.starts:
            if key == name:
                return dict(sides)
        known = ", ".join(k for k, _ in self.starts) or "none"
        raise BoardError(f"board {self.name} has no start position {name!r} (known: {known})")

    @property
    def start_names(self) -> tuple[str, ...]:
        return tuple(k for k, _ in self.starts)

    # ---------------------------------------------------------------- export
    def to_networkx(self):
        """The adjacency graph: nodes with ``x``, ``y`` (float) and ``label``; edges with ``lines``."""
        import networkx as nx

        g = nx.Graph(name=self.name)
        for v in self.nodes:
            x, y = self.coord(v)
            g.add_node(v, label=self.label(v), x=float(x), y=float(y), xy=f"{format_fraction(x)},{format_fraction(y)}")
        for k, line in enumerate(self.lines):
            for a, b in zip(line, line[1:], strict=False):
                if g.has_edge(a, b):
                    g.edges[a, b]["lines"] += f",{k}"
                else:
                    g.add_edge(a, b, lines=str(k))
        return g

    def to_graphml(self) -> str:
        import networkx as nx

        return "\n".join(nx.generate_graphml(self.to_networkx()))

    def info(self) -> dict[str, Any]:
        """The summary printed by ``powertwo board info --json``."""
        return {
            "name": self.name,
            "fingerprint": self.fingerprint,
            "nodes": self.size,
            "lines": len(self.lines),
            "line_lengths": {str(k): v for k, v in self.line_lengths.items()},
            "symmetries": order_value(self.symmetry_order),
            "symmetries_confirmed": self.symmetry_confirmed,
            "adjacent_pairs": len(self.edges),
            "triangles": len(self.triangles),
            "starts": {k: {side: list(ns) for side, ns in v} for k, v in self.starts},
            "coordinates": {
                str(v): [format_fraction(self.coord(v)[0]), format_fraction(self.coord(v)[1])] for v in self.nodes
            },
            "labels": ({str(v): self.label(v) for v in self.nodes}
                       if self.labels != tuple(str(i) for i in self.nodes) else None),
        }


def read_node(board: Board, value: object, where: str) -> NodeId:
    """The node of ``board`` that ``value`` names: its label (a str, spaces around it ignored) or its
    id (an int, or a str of digits such as ``"60"``). Every reader of a node given as text or JSON
    (a move, a position or answer file, an option, a request field) comes here; anything else raises
    :class:`NodeError`, its message naming ``where`` (when not empty) and the board."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise NodeError(board.name, value, where, malformed=True)
    if isinstance(value, int):
        if 1 <= value <= board.size:
            return value
    else:
        key = value.strip()
        found = board._by_label.get(key)
        if found is not None:
            return found
        if (key.isascii() and key.isdigit() and len(key) <= MAX_NODE_NAME and key == str(int(key))
                and 1 <= int(key) <= board.size):
            return int(key)
    raise NodeError(board.name, value, where, malformed=False)
