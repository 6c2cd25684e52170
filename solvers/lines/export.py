"""``powertwo export``: a line puzzle's SAT encoding as DIMACS or WCNF, its CP-SAT model as
protobuf text, or the board as GraphML, for other tools."""

from __future__ import annotations

from typing import Any

from powertwo.boards import Board
from powertwo.models.cards import cost_bound, without_empty

from ..fields import SolutionError
from .variants import stone_limit, variant

EXPORT_FORMATS = ("dimacs", "wcnf", "cpsat", "graphml")


def export_text(board: Board, puzzle: str, fmt: str, *, strict: bool = False, stones: Any = None,
                at_most: bool = False, symmetry: bool = False, bound: int | None = None) -> str:
    """The text of ``powertwo export``: the SAT encoding as DIMACS CNF (with ``bound``: the
    decision "objective at least as good as ``bound``") or as WCNF (hard clauses plus one
    weight-1 soft clause per objective literal), the CP-SAT model as protobuf text, or the
    board as GraphML. Symmetry-breaking clauses are left out unless ``symmetry``."""
    if fmt not in EXPORT_FORMATS:
        raise SolutionError(f"unknown export format {fmt!r} (known: {', '.join(EXPORT_FORMATS)})")
    if fmt == "graphml":
        return board.to_graphml() + "\n"
    var = variant(puzzle, strict, at_most)
    limit = stone_limit(stones, board, var)
    if fmt == "cpsat":
        model, _, _ = var.cpsat(board, limit, symmetry)
        return str(model.proto)
    from pysat.formula import IDPool

    from ..certify import dimacs

    cnf = var.cnf(board, limit, symmetry)
    pool = IDPool(start_from=cnf.top + 1)
    goal = ("minimise" if var.sense == "min" else "maximise") + f" the {var.unit}"
    placed = "exactly" if var.exact_stones else "at most"
    head = [f"powertwo {var.name} on board {board.name} ({placed} {limit} stones)",
            f"objective: {goal} = {cnf.offset} {'+' if cnf.sign > 0 else '-'} (number of true cost literals)",
            "cost literals: " + " ".join(map(str, cnf.costs)),
            f"symmetry-breaking clauses: {'included' if symmetry else 'not included'}"]
    clauses = cnf.hard(symmetry)
    if fmt == "dimacs" and bound is not None:
        clauses += [list(c) for c in cost_bound(cnf, cnf.cost(bound), pool)]
        head.append(f"bound: objective {'at most' if var.sense == 'min' else 'at least'} {bound}")
    clauses = without_empty(clauses, pool)
    head += ["variables:"] + [f"{v} {text}" for v, text in sorted(cnf.names.items())]
    if fmt == "dimacs":
        return dimacs(clauses, head, top=pool.top)
    if bound is not None:
        raise SolutionError("--bound applies to --format dimacs only")
    top_weight = len(cnf.costs) + 1
    nv = max([pool.top] + [abs(lit) for c in clauses for lit in c])
    out = [f"c {line}" for line in head]
    out.append(f"p wcnf {nv} {len(clauses) + len(cnf.costs)} {top_weight}")
    out += [f"{top_weight} " + " ".join(map(str, c)) + " 0" for c in clauses]
    out += [f"1 {-lit} 0" for lit in cnf.costs]
    return "\n".join(out) + "\n"
