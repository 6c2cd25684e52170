"""One by One (RULES.md section 5): place stones so that every line holds exactly one stone,
with as few stones as possible; and its relaxation, the minimum line cover (every line at
least one stone).

Three plain functions of a :class:`~powertwo.boards.Board`:

* :func:`cpsat` - the CP-SAT model (``add_exactly_one`` / ``add_bool_or`` per line,
  minimise the stones), optionally with lex-leader symmetry breaking.
* :func:`cnf` - the same puzzle as CNF for PySAT: exactly-one per line by the pairwise
  encoding, the stone limit by a sequential counter (``pysat.card``); the objective is
  "minimise the stone literals" (see :class:`powertwo.models.cards.LineCnf`).
* :func:`milp` - the same as a 0-1 linear program for ``scipy.optimize.milp`` (the
  benchmark's peer).

SAT optimisation (:mod:`powertwo.solvers.lines.backends`) is a linear SAT-UNSAT search on the
objective bound with an incremental totalizer, not RC2 MaxSAT: each improvement is one
more SAT call on the same solver, and the final "no better answer" claim is a single
UNSAT call on a plain CNF (puzzle clauses plus one cardinality bound, no assumptions,
no symmetry clauses), which is exactly what a DRAT proof certifies and what
``powertwo export --format dimacs --bound`` writes. The optima here are small, so the
search needs few calls. The WCNF export serves MaxSAT users (RC2 agrees in the tests).

Stones: at most ``stones`` (default 32, both colours) - RULES.md section 5.
"""

from __future__ import annotations

from ortools.sat.python import cp_model
from pysat.formula import IDPool

from powertwo.boards import Board

from .cards import LineCnf, at_most, exactly, lex_leader, lex_leader_cpsat

STONES = 32


def _name(cover: bool) -> str:
    return "line-cover" if cover else "one-by-one"


def cnf(board: Board, *, cover: bool = False, stones: int = STONES, symmetry: bool = True) -> LineCnf:
    """One by One (``cover=False``: exactly one stone per line) or the line cover
    (``cover=True``: at least one) as CNF; minimise the stones."""
    pool = IDPool()
    x = {v: pool.id(f"x_{v}") for v in board.nodes}
    names = {x[v]: f"x_{v}: stone on node {board.label(v)}" for v in board.nodes}
    clauses: list[tuple[int, ...]] = []
    for line in board.lines:
        lits = [x[v] for v in line]
        clauses += [tuple(lits)] if cover else exactly(lits, 1, pool)
    clauses += at_most(list(x.values()), stones, pool)
    sym = lex_leader(board, x, pool) if symmetry else []
    return LineCnf(puzzle=_name(cover), board=board, clauses=tuple(clauses), symmetry=tuple(sym), stones=x,
                   costs=tuple(x.values()), sign=1, offset=0, top=pool.top, names=names)


def cpsat(board: Board, *, cover: bool = False, stones: int = STONES, symmetry: bool = True):
    """The CP-SAT model: ``(model, x, objective)`` with ``x[v]`` the stone on node ``v``; the model
    minimises the stones."""
    model = cp_model.CpModel()
    x = {v: model.new_bool_var(f"x_{v}") for v in board.nodes}
    for line in board.lines:
        if cover:
            model.add_bool_or(x[v] for v in line)
        else:
            model.add_exactly_one(x[v] for v in line)
    model.add(sum(x.values()) <= stones)
    if symmetry:
        lex_leader_cpsat(model, board, x)
    objective = sum(x.values())
    model.minimize(objective)
    return model, x, objective


def milp(board: Board, *, cover: bool = False, stones: int = STONES):
    """``(c, A, lower, upper, sign)`` for ``scipy.optimize.milp`` (all variables binary):
    minimise ``c @ x`` subject to ``lower <= A @ x <= upper``; variable ``i`` is node ``i + 1``;
    the puzzle's objective is ``sign * c @ x`` (here ``sign`` = 1)."""
    import numpy as np

    n = board.size
    rows = []
    for line in board.lines:
        row = np.zeros(n)
        row[[v - 1 for v in line]] = 1
        rows.append(row)
    rows.append(np.ones(n))
    a = np.array(rows)
    lower = np.array([1.0] * len(board.lines) + [0.0])
    upper = np.array([np.inf if cover else 1.0] * len(board.lines) + [float(stones)])
    return np.ones(n), a, lower, upper, 1
