"""Two by Two (RULES.md section 5): place all 32 stones; maximise the number of lines that
hold exactly two stones. **Decisions** (RULES.md): other lines may hold any number;
``strict=True`` requires every line to hold 0 or 2 stones; ``at_most=True`` reads
``stones`` as an upper bound (the earlier reading, whose optimum on the real board is every
line with 24 stones) instead of the exact count.

Three plain functions of a :class:`~powertwo.boards.Board`, as in :mod:`powertwo.models.one_by_one`:

* :func:`cpsat` - one Boolean per line and count, ``held[k][j]`` "line k holds exactly j
  stones" (exactly one per line, the line's stone sum equal to ``sum(j * held[k][j])``;
  strict: only the counts 0 and 2 exist), exactly (or at most) ``stones`` stones, maximise
  the ``held[k][2]``. The count indicators are what make the exact count solvable: their LP
  relaxation knows that a line not holding two holds 0, 1 or at least 3 stones, which the
  one-way ``y -> sum == 2`` model leaves free (its LP bound stays at every line; CP-SAT with
  it does not close the 32-stone bound in 400 s, with the indicators it proves 27 in seconds).
* :func:`cnf` - the puzzle as CNF: ``y_k -> exactly two`` is the sequential-counter
  encoding of "exactly 2" (``pysat.card``) with ``-y_k`` added to every clause (strict adds
  ``-y_k -> no stone on line k``); the stone count is a sequential counter ("exactly" or "at
  most"). Only the direction ``y_k -> exactly two`` is needed: the search maximises the ``y``,
  so at an optimum every line holding two stones has ``y_k`` true. The SAT objective is
  "minimise the false ``y``" (costs ``-y_k``), optimised by the linear SAT-UNSAT search
  described in :mod:`powertwo.models.one_by_one`. The at-most CNF is the one the earlier
  certificates were made on, clause for clause.
* :func:`milp` - the count-indicator model as a 0-1 linear program for ``scipy.optimize.milp``.
"""

from __future__ import annotations

from ortools.sat.python import cp_model
from pysat.formula import IDPool

from powertwo.boards import Board, Line

from .cards import LineCnf, at_most as at_most_clauses, conditional, exactly, lex_leader, lex_leader_cpsat

STONES = 32


def _name(strict: bool, at_most: bool) -> str:
    return "two-by-two" + ("-strict" if strict else "") + ("-at-most" if at_most else "")


def counts(line: Line, strict: bool) -> tuple[int, ...]:
    """The stone counts a line may hold: any (0 to its length), strict: 0 and 2 (2 only on a
    line of at least two nodes)."""
    return tuple(j for j in range(len(line) + 1) if not strict or j in (0, 2))


def cnf(board: Board, *, strict: bool = False, stones: int = STONES, at_most: bool = False,
        symmetry: bool = True) -> LineCnf:
    """Two by Two as CNF; the objective (lines with exactly two) is ``len(lines) - cost``."""
    pool = IDPool()
    x = {v: pool.id(f"x_{v}") for v in board.nodes}
    y = {k: pool.id(f"y_{k}") for k in range(len(board.lines))}
    names = {x[v]: f"x_{v}: stone on node {board.label(v)}" for v in board.nodes}
    names.update({y[k]: f"y_{k}: line {board.line_text(k)} holds exactly two" for k in y})
    clauses = []
    for k, line in enumerate(board.lines):
        lits = [x[v] for v in line]
        clauses += conditional(exactly(lits, 2, pool), y[k])
        if strict:
            clauses += [(y[k], -v) for v in lits]
    count = list(x.values())
    clauses += at_most_clauses(count, stones, pool) if at_most else exactly(count, stones, pool)
    sym = lex_leader(board, x, pool) if symmetry else []
    return LineCnf(puzzle=_name(strict, at_most), board=board, clauses=tuple(clauses), symmetry=tuple(sym),
                   stones=x, costs=tuple(-y[k] for k in y), sign=-1, offset=len(board.lines), top=pool.top,
                   names=names)


def cpsat(board: Board, *, strict: bool = False, stones: int = STONES, at_most: bool = False,
          symmetry: bool = True):
    """The CP-SAT model: ``(model, x, objective)``; the model maximises the lines holding exactly two."""
    model = cp_model.CpModel()
    x = {v: model.new_bool_var(f"x_{v}") for v in board.nodes}
    two = []
    for k, line in enumerate(board.lines):
        held = {j: model.new_bool_var(f"held_{k}_{j}") for j in counts(line, strict)}
        model.add_exactly_one(held.values())
        model.add(sum(x[v] for v in line) == sum(j * b for j, b in held.items()))
        if 2 in held:
            two.append(held[2])
    placed = sum(x.values())
    model.add(placed <= stones if at_most else placed == stones)
    if symmetry:
        lex_leader_cpsat(model, board, x)
    objective = sum(two)
    model.maximize(objective)
    return model, x, objective


def milp(board: Board, *, strict: bool = False, stones: int = STONES, at_most: bool = False):
    """``(c, A, lower, upper, sign)`` for ``scipy.optimize.milp``, all variables binary: the
    first ``N`` are the stones, then per line one indicator per count it may hold (as in
    :func:`cpsat`); minimise ``c @ x`` (= minus the lines with exactly two, so ``sign`` = -1).
    Rows per line: the indicators sum to 1 and the stones on it equal ``sum(j * held_j)``; then
    the stone count."""
    import numpy as np

    n = board.size
    columns = [(k, j) for k, line in enumerate(board.lines) for j in counts(line, strict)]
    index = {key: n + i for i, key in enumerate(columns)}
    width = n + len(columns)
    rows, lower, upper = [], [], []
    for k, line in enumerate(board.lines):
        one, held = np.zeros(width), np.zeros(width)
        held[[v - 1 for v in line]] = 1
        for j in counts(line, strict):
            one[index[k, j]] = 1
            held[index[k, j]] = -j
        rows += [one, held]
        lower += [1.0, 0.0]
        upper += [1.0, 0.0]
    stones_row = np.zeros(width)
    stones_row[:n] = 1
    rows.append(stones_row)
    lower.append(0.0 if at_most else float(stones))
    upper.append(float(stones))
    c = np.zeros(width)
    for (_, j), i in index.items():
        if j == 2:
            c[i] = -1
    return c, np.array(rows), np.array(lower), np.array(upper), -1
