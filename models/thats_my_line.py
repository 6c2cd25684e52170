"""That's My Line solitaire: the final position of a legal game with the most stones.

One person plays both sides of That's My Line cooperatively (RULES.md sections 4
and 5) and wants as many stones on the board as possible when the game ends.
Rather than searching game trees, the models describe the *final position* and
ask exactly when a legal game leads to it.

Variables (one per node ``v`` and line ``k``)::

    x_v  Light stone on v              y_v  Dark stone on v
    z_v  Dark stone placed before Light's first pass (case "Light passes first")
    w_v  Light stone placed before Dark's first pass (case "Dark passes first")
    colour_k                           line k may hold Light stones (true) or Dark stones (false)
    light_line_k / dark_line_k         line k holds a Light / Dark stone (one direction:
                                       the flag implies a stone of that colour on the line)
    early_dark_line_k / early_light_line_k   the same for the z / w stones
    light_passes_first, dark_passes_first    the case of condition (c)
    light_spent, dark_spent            the side has placed its whole supply

Conditions, with ``l = sum x``, ``d = sum y`` and supply ``S`` (``None``: unlimited):

(a) no line holds both colours: ``x_u -> colour_k``, ``y_u -> not colour_k`` for every
    node ``u`` of line ``k`` (one colour flag per line suffices).
(b) the game is over: every free node is closed to each side that still has stones.
    For every node ``v``: ``x_v or y_v or light_spent or OR(dark_line_k, k through v)`` and the
    same with colours swapped; ``light_spent -> l = S``. Without a supply limit there are no
    ``*_spent`` variables. Supply: ``l <= S``, ``d <= S``.
(c) reachable by alternating turns, Light first, passing only when forced. Once a side cannot
    place it can never place again (stones are never removed, so free nodes only shrink,
    closed nodes only grow, and a spent supply stays spent): after a side's first pass it
    passes for the rest of the game. Hence exactly three shapes of game:

    * no pass before the end: ``d <= l <= d + 1``; any order of the stones is legal by (a).
    * Light passes first, after ``l`` Light and ``l`` Dark stones (``d >= l + 1``): then a set
      ``Z`` of ``l`` Dark stones stood on the board with all of Light's, and Light was shut out
      there: every node outside ``L`` and ``Z`` (the later Dark stones' nodes included) lies on
      a line holding a stone of ``Z``. Encoded ``d >= l + 1 -> light_passes_first``,
      ``light_passes_first -> (z_v -> y_v, sum z = l, and for every v:
      x_v or z_v or OR(early_dark_line_k, k through v))``.
    * Dark passes first, after ``d + 1`` Light and ``d`` Dark stones (``l >= d + 2``): a set
      ``W`` of ``d + 1`` Light stones shuts Dark out together with all of Dark's:
      ``l >= d + 2 -> dark_passes_first``, ``dark_passes_first -> (w_v -> x_v,
      sum w = d + 1, and for every v: y_v or w_v or OR(early_light_line_k, k through v))``.

    A spent supply never explains the first pass: a side that passes first has fewer stones
    than the other side places, and neither side places more than ``S``. So (c) is geometric
    for every supply. The case flags may be true when not needed (that only restricts); they
    must be true when the counts demand it, which makes the model exact: its solutions are
    precisely the final positions of legal games (with a witness order, see
    :class:`FinalPosition`).

Symmetry (optional): lexicographic leader constraints on ``(x_1, y_1, x_2, y_2, ...)`` for
every board symmetry; the conditions are geometric, so every symmetric image of a legal final
position is legal and the leader keeps one of each orbit.

The two encodings share the clauses above (:func:`clauses`); CP-SAT adds the counts as
linear constraints, the SAT encoding as totalizers whose outputs ``L_j`` mean exactly
"at least j" (both directions), so comparisons between counts are clauses.

A given result (``score = (L, D)``: the game ends with ``L`` Light and ``D`` Dark stones) is two
more count constraints on the same model, ``l = L`` and ``d = D`` (CP-SAT: two equalities and no
objective; SAT: the literals of :meth:`SatModel.score_literals`, ``L_L and not L_{L+1}`` and the
same for Dark, assumed or added as unit clauses). Since the model's solutions are exactly the final
positions of legal games, nothing else is needed: the case of (c) follows from the counts
(``D >= L + 1``: Light passed first; ``L >= D + 2``: Dark did; otherwise nobody passed before the
end), and so does the winner (on equal counts the game had no pass, so Dark placed last).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from powertwo.boards import Board, NodeId

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel as CpSatModel

Supply = int | None
"""Stones per side; ``None`` for unlimited."""

Score = tuple[int, int]
"""A game's result: (Light stones, Dark stones) on the board when it ends."""

Lit = tuple[str, bool]
"""A literal of the shared clause list: (variable name, positive?)."""

LIGHT, DARK = 0, 1


def _pos(name: str) -> Lit:
    return (name, True)


def _neg(name: str) -> Lit:
    return (name, False)


def check_supply(stones: Supply) -> Supply:
    if stones is not None and (isinstance(stones, bool) or not isinstance(stones, int) or stones < 0):
        raise ValueError(f"stones per side must be a whole number >= 0 or unlimited, not {stones!r}")
    return stones


def clauses(board: Board, stones: Supply, *, symmetry: bool = True) -> list[list[Lit]]:
    """The clause part of conditions (a), (b), (c) and the symmetry breaking (see the module text).

    Counting constraints are added by each backend."""
    check_supply(stones)
    out: list[list[Lit]] = []
    # (a) one colour per line
    for k, line in enumerate(board.lines):
        for u in line:
            out.append([_neg(f"x_{u}"), _pos(f"colour_{k}")])
            out.append([_neg(f"y_{u}"), _neg(f"colour_{k}")])
    # line flags: a flag implies a stone of its kind on the line
    for k, line in enumerate(board.lines):
        out.append([_neg(f"dark_line_{k}")] + [_pos(f"y_{u}") for u in line])
        out.append([_neg(f"light_line_{k}")] + [_pos(f"x_{u}") for u in line])
        out.append([_neg(f"early_dark_line_{k}")] + [_pos(f"z_{u}") for u in line])
        out.append([_neg(f"early_light_line_{k}")] + [_pos(f"w_{u}") for u in line])
    for v in board.nodes:
        # at most one stone per node
        out.append([_neg(f"x_{v}"), _neg(f"y_{v}")])
        through = board.lines_through[v]
        # (b) every free node is closed to each side that still has stones
        spent_l = [_pos("light_spent")] if stones is not None else []
        spent_d = [_pos("dark_spent")] if stones is not None else []
        out.append([_pos(f"x_{v}"), _pos(f"y_{v}")] + spent_l + [_pos(f"dark_line_{k}") for k in through])
        out.append([_pos(f"x_{v}"), _pos(f"y_{v}")] + spent_d + [_pos(f"light_line_{k}") for k in through])
        # (c) the early stones are stones of the final position
        out.append([_neg(f"z_{v}"), _pos(f"y_{v}")])
        out.append([_neg(f"w_{v}"), _pos(f"x_{v}")])
        # (c) at Light's first pass, Light was shut out by the early Dark stones
        out.append([_neg("light_passes_first"), _pos(f"x_{v}"), _pos(f"z_{v}")]
                   + [_pos(f"early_dark_line_{k}") for k in through])
        # (c) at Dark's first pass, Dark was shut out by the early Light stones
        out.append([_neg("dark_passes_first"), _pos(f"y_{v}"), _pos(f"w_{v}")]
                   + [_pos(f"early_light_line_{k}") for k in through])
    if symmetry:
        out.extend(lex_leader_clauses(board))
    return out


def lex_leader_clauses(board: Board) -> list[list[Lit]]:
    """For every symmetry ``g`` of :attr:`Board.symmetry_breakers` (the whole group when it is
    listed, else its generators): ``s <=lex s o g`` with ``s`` the stone vector
    (``x_v``, ``y_v`` in node order) and ``(s o g)_v = s_{g(v)}``.

    ``eq_{g,i}`` is implied by "the first i positions agree"; while it holds, position i of
    ``s`` may not exceed that of the image. Only that direction is needed: a leader can always
    set the ``eq`` flags to the true prefix equalities."""
    out: list[list[Lit]] = []
    for gi, perm in enumerate(board.symmetry_breakers, start=1):
        pairs = []
        for v in board.nodes:
            img = perm[v - 1]
            if img != v:
                pairs.append((f"x_{v}", f"x_{img}"))
                pairs.append((f"y_{v}", f"y_{img}"))
        prev: Lit | None = None  # None: the empty prefix (always equal)
        for i, (a, b) in enumerate(pairs):
            guard = [] if prev is None else [(prev[0], False)]
            out.append(guard + [_neg(a), _pos(b)])  # a <= b while the prefix agrees
            if i + 1 < len(pairs):
                eq = f"eq_{gi}_{i + 1}"
                out.append(guard + [_neg(a), _neg(b), _pos(eq)])
                out.append(guard + [_pos(a), _pos(b), _pos(eq)])
                prev = _pos(eq)
    return out


# ---------------------------------------------------------------------------- results
@dataclass(frozen=True)
class FinalPosition:
    """A model's answer: the stones, and the stones placed before the first pass.

    ``first_pass`` is the side that passed first (``0`` Light, ``1`` Dark) or ``None`` when no
    side passed before the end; ``early`` are then the other side's stones that stood on the
    board at that first pass (``Z`` or ``W`` of the module text), empty when ``first_pass`` is
    ``None``."""

    light: frozenset[NodeId]
    dark: frozenset[NodeId]
    first_pass: int | None
    early: frozenset[NodeId]

    @property
    def total(self) -> int:
        return len(self.light) + len(self.dark)

    def placing_order(self) -> list[tuple[int, NodeId | None]]:
        """A legal order of turns: ``(side, node)`` with ``node`` ``None`` for a pass.

        Before the first pass the sides alternate, Light first; then the side that passed
        passes on every turn while the other places its remaining stones. Stones are taken in
        node order within each phase."""
        light, dark = sorted(self.light), sorted(self.dark)
        if self.first_pass is None:
            first_l, first_d, rest = light, dark, []
        elif self.first_pass == LIGHT:
            first_l = light
            first_d = sorted(self.early)
            rest = [v for v in dark if v not in self.early]
        else:
            first_l = sorted(self.early)
            first_d = dark
            rest = [v for v in light if v not in self.early]
        turns: list[tuple[int, NodeId | None]] = []
        for i in range(max(len(first_l), len(first_d))):
            if i < len(first_l):
                turns.append((LIGHT, first_l[i]))
            if i < len(first_d):
                turns.append((DARK, first_d[i]))
        if self.first_pass is not None:
            mover = 1 - self.first_pass
            for v in rest:
                if turns and turns[-1][0] == mover:
                    turns.append((self.first_pass, None))
                elif not turns and mover == DARK:
                    turns.append((LIGHT, None))
                turns.append((mover, v))
        return turns


def final_from_values(board: Board, value) -> FinalPosition:
    """Read a :class:`FinalPosition` from ``value(name) -> bool`` of a solved model."""
    light = frozenset(v for v in board.nodes if value(f"x_{v}"))
    dark = frozenset(v for v in board.nodes if value(f"y_{v}"))
    if len(dark) >= len(light) + 1:
        return FinalPosition(light, dark, LIGHT, frozenset(v for v in board.nodes if value(f"z_{v}")))
    if len(light) >= len(dark) + 2:
        return FinalPosition(light, dark, DARK, frozenset(v for v in board.nodes if value(f"w_{v}")))
    return FinalPosition(light, dark, None, frozenset())


# ---------------------------------------------------------------------------- CP-SAT
@dataclass(frozen=True)
class CpModel:
    """The CP-SAT model: ``model``, its Boolean variables by name, and the objective expression."""

    model: CpSatModel
    variables: dict
    total: object


def cp_sat_model(board: Board, stones: Supply, *, symmetry: bool = True, at_least: int | None = None,
                 score: Score | None = None) -> CpModel:
    """CP-SAT: maximise the stones of a legal final position (or, with ``at_least``, only ask
    for one with at least that many stones; with ``score``, one with exactly that many Light and
    Dark stones: pure feasibility questions, no objective)."""
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    variables: dict[str, object] = {}

    def var(name: str):
        if name not in variables:
            variables[name] = m.new_bool_var(name)
        return variables[name]

    def lit(item: Lit):
        return var(item[0]) if item[1] else ~var(item[0])

    for clause in clauses(board, stones, symmetry=symmetry):
        m.add_bool_or([lit(item) for item in clause])
    x = {v: var(f"x_{v}") for v in board.nodes}
    y = {v: var(f"y_{v}") for v in board.nodes}
    z = {v: var(f"z_{v}") for v in board.nodes}
    w = {v: var(f"w_{v}") for v in board.nodes}
    n_light, n_dark = sum(x.values()), sum(y.values())
    lp, dp = var("light_passes_first"), var("dark_passes_first")
    m.add(n_dark <= n_light).only_enforce_if(~lp)
    m.add(n_light <= n_dark + 1).only_enforce_if(~dp)
    m.add(sum(z.values()) == n_light).only_enforce_if(lp)
    m.add(sum(w.values()) == n_dark + 1).only_enforce_if(dp)
    if stones is not None:
        m.add(n_light <= stones)
        m.add(n_dark <= stones)
        m.add(n_light == stones).only_enforce_if(var("light_spent"))
        m.add(n_dark == stones).only_enforce_if(var("dark_spent"))
    total = n_light + n_dark
    if score is not None:
        m.add(n_light == score[0])
        m.add(n_dark == score[1])
    if at_least is not None:
        m.add(total >= at_least)
    elif score is None:
        m.maximize(total)
    return CpModel(m, variables, total)


# ---------------------------------------------------------------------------- SAT
def totalizer(inputs: list[int], vpool, out: list[list[int]], name: str) -> list[int]:
    """Unary count of ``inputs``: ``r[j - 1]`` is true exactly when at least ``j`` inputs are.

    A totalizer tree with the clauses of both directions, so the outputs can be compared with
    each other in clauses (``d >= j -> l >= j``)."""
    if len(inputs) <= 1:
        return list(inputs)
    half = len(inputs) // 2
    a = totalizer(inputs[:half], vpool, out, name + "a")
    b = totalizer(inputs[half:], vpool, out, name + "b")
    return merge_counts(a, b, vpool, out, name)


def merge_counts(a: list[int], b: list[int], vpool, out: list[list[int]], name: str) -> list[int]:
    """The unary sum of two unary counts (exact in both directions)."""
    r = [vpool.id(f"{name}_{j}") for j in range(1, len(a) + len(b) + 1)]
    for i in range(len(a) + 1):
        for j in range(len(b) + 1):
            if i + j >= 1:  # at least i in a and j in b -> at least i + j
                out.append(([-a[i - 1]] if i else []) + ([-b[j - 1]] if j else []) + [r[i + j - 1]])
            if i + j < len(a) + len(b):  # fewer than i + 1 in a and j + 1 in b -> fewer than i + j + 1
                out.append(([a[i]] if i < len(a) else []) + ([b[j]] if j < len(b) else []) + [-r[i + j]])
    return r


@dataclass(frozen=True)
class SatModel:
    """The CNF (``clauses``), its ``vpool``, and the unary counts: ``at_least[j - 1]`` is the
    literal "at least j stones on the board" (assume it to ask for j stones);
    ``light_at_least`` and ``dark_at_least`` the same for each colour."""

    clauses: list
    vpool: Any  # pysat.formula.IDPool (pysat ships no type hints)
    at_least: list
    light_at_least: list
    dark_at_least: list

    def score_literals(self, score: Score) -> list[int]:
        """The literals that say "exactly ``score[0]`` Light and ``score[1]`` Dark stones"
        (assume them, or add each as a unit clause); :class:`ValueError` for a count that does
        not fit on the board."""
        out = []
        for side, count, want in (("Light", self.light_at_least, score[0]), ("Dark", self.dark_at_least, score[1])):
            if not 0 <= want <= len(count):
                raise ValueError(f"{want} {side} stones do not fit on a board of {len(count)} nodes")
            out += [count[want - 1]] if want else []
            out += [-count[want]] if want < len(count) else []
        return out

    def value_reader(self, model: Iterable[int]):
        true = {lit for lit in model if lit > 0}
        return lambda name: self.vpool.obj2id.get(name) in true


def sat_model(board: Board, stones: Supply, *, symmetry: bool = True) -> SatModel:
    """The SAT encoding: shared clauses plus totalizers for the counts (module text)."""
    from pysat.formula import IDPool

    vpool = IDPool()
    cnf: list[list[int]] = []

    def lit(item: Lit) -> int:
        ident = vpool.id(item[0])
        return ident if item[1] else -ident

    for clause in clauses(board, stones, symmetry=symmetry):
        cnf.append([lit(item) for item in clause])
    n = board.size
    light = totalizer([vpool.id(f"x_{v}") for v in board.nodes], vpool, cnf, "L")
    dark = totalizer([vpool.id(f"y_{v}") for v in board.nodes], vpool, cnf, "D")
    early_dark = totalizer([vpool.id(f"z_{v}") for v in board.nodes], vpool, cnf, "Z")
    early_light = totalizer([vpool.id(f"w_{v}") for v in board.nodes], vpool, cnf, "W")
    lp, dp = vpool.id("light_passes_first"), vpool.id("dark_passes_first")
    for j in range(1, n + 1):
        cnf.append([lp, -dark[j - 1], light[j - 1]])  # not lp -> d <= l
        cnf.append([-lp, -early_dark[j - 1], light[j - 1]])  # lp -> |Z| = l
        cnf.append([-lp, -light[j - 1], early_dark[j - 1]])
        if j < n:
            cnf.append([dp, -light[j], dark[j - 1]])  # not dp -> l <= d + 1
            cnf.append([-dp, -early_light[j], dark[j - 1]])  # dp -> |W| = d + 1
            cnf.append([-dp, -dark[j - 1], early_light[j]])
    cnf.append([-dp, early_light[0]])
    if stones is not None:
        if stones < n:
            cnf.append([-light[stones]])
            cnf.append([-dark[stones]])
        for side, count in (("light_spent", light), ("dark_spent", dark)):
            spent = vpool.id(side)
            if stones >= 1:  # spent -> the count reached the supply (always so for supply 0)
                cnf.append([-spent, count[stones - 1]])
    total = merge_counts(light, dark, vpool, cnf, "T")
    return SatModel(cnf, vpool, total, light, dark)
