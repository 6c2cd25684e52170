"""Two by Two (RULES.md section 5): place at most 32 stones; maximise the number of lines
that hold exactly two stones. **Decision** (RULES.md): other lines may hold any number;
``strict=True`` requires every line to hold 0 or 2 stones.

Three plain functions of a :class:`~powertwo.boards.Board`, as in :mod:`powertwo.models.one_by_one`:

* :func:`cpsat` - ``y[k]`` "line k holds exactly two" with ``sum == 2`` enforced only if
  ``y[k]`` (strict: ``sum == 2 * y[k]``), at most ``stones`` stones, maximise ``sum(y)``.
* :func:`cnf` - the same as CNF: ``y_k -> exactly two`` is the sequential-counter
  encoding of "exactly 2" (``pysat.card``) with ``-y_k`` added to every clause (strict
  adds ``-y_k -> no stone on line k``); the stone limit is a sequential counter. Only the
  direction ``y_k -> exactly two`` is needed: the search maximises the ``y``, so at an
  optimum every line holding two stones has ``y_k`` true. The SAT objective is "minimise
  the false ``y``" (costs ``-y_k``), optimised by the linear SAT-UNSAT search described in
  :mod:`powertwo.models.one_by_one`.
* :func:`milp` - the same as a 0-1 linear program (big-M rows) for ``scipy.optimize.milp``.
"""

from __future__ import annotations

from ortools.sat.python import cp_model
from pysat.formula import IDPool

from powertwo.boards import Board

from .cards import LineCnf, at_most, conditional, exactly, lex_leader, lex_leader_cpsat

STONES = 32


def _name(strict: bool) -> str:
    return "two-by-two-strict" if strict else "two-by-two"


def cnf(board: Board, *, strict: bool = False, stones: int = STONES, symmetry: bool = True) -> LineCnf:
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
    clauses += at_most(list(x.values()), stones, pool)
    sym = lex_leader(board, x, pool) if symmetry else []
    return LineCnf(puzzle=_name(strict), board=board, clauses=tuple(clauses), symmetry=tuple(sym), stones=x,
                   costs=tuple(-y[k] for k in y), sign=-1, offset=len(board.lines), top=pool.top, names=names)


def cpsat(board: Board, *, strict: bool = False, stones: int = STONES, symmetry: bool = True):
    """The CP-SAT model: ``(model, x, objective)``; the model maximises the lines holding exactly two."""
    model = cp_model.CpModel()
    x = {v: model.new_bool_var(f"x_{v}") for v in board.nodes}
    y = {k: model.new_bool_var(f"y_{k}") for k in range(len(board.lines))}
    for k, line in enumerate(board.lines):
        held = sum(x[v] for v in line)
        if strict:
            model.add(held == 2 * y[k])
        else:
            model.add(held == 2).only_enforce_if(y[k])
    model.add(sum(x.values()) <= stones)
    if symmetry:
        lex_leader_cpsat(model, board, x)
    objective = sum(y.values())
    model.maximize(objective)
    return model, x, objective


def milp(board: Board, *, strict: bool = False, stones: int = STONES):
    """``(c, A, lower, upper, sign)`` for ``scipy.optimize.milp``, all variables binary: the
    first ``N`` are the stones, then one ``y`` per line; minimise ``c @ x`` (= minus the lines
    with exactly two, so ``sign`` = -1). Rows: ``held - 2 y >= 0`` and
    ``held + (len - 2) y <= len`` (strict: ``held - 2 y == 0``), and the stone limit."""
    import numpy as np

    n, m = board.size, len(board.lines)
    rows, lower, upper = [], [], []
    for k, line in enumerate(board.lines):
        row = np.zeros(n + m)
        row[[v - 1 for v in line]] = 1
        if strict:
            row[n + k] = -2
            rows.append(row)
            lower.append(0.0)
            upper.append(0.0)
            continue
        low = row.copy()
        low[n + k] = -2
        rows.append(low)
        lower.append(0.0)
        upper.append(np.inf)
        high = row.copy()
        high[n + k] = len(line) - 2
        rows.append(high)
        lower.append(-np.inf)
        upper.append(float(len(line)))
    stones_row = np.zeros(n + m)
    stones_row[:n] = 1
    rows.append(stones_row)
    lower.append(0.0)
    upper.append(float(stones))
    c = np.concatenate([np.zeros(n), -np.ones(m)])
    return c, np.array(rows), np.array(lower), np.array(upper), -1
