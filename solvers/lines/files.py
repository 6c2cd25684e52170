"""Line-puzzle solution files: the typed result (:class:`LineResult`), its JSON form, and its
diagram. A solution file is::

    {"puzzle", "board", "backend", "status" (a :data:`~powertwo.solvers.status.Status`),
     "objective", "bound", "stones": [node ids], "lines_with_two": [line texts] (two-by-two),
     "strict", "stones_rule": "exactly"|"at most" (two-by-two), "seconds" (solve only; result files
     keep timings apart), ...}

A Two by Two file without ``stones_rule`` was made before the exact reading (or by hand): it is
read by :func:`inferred_stones_rule`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from powertwo.boards import Board, NodeId
from powertwo.boards.words import counted
from powertwo.models.cards import line_counts, orbit

from ..certify import Certificate
from ..fields import SolutionError, board_fields, bool_field, choice_field, node_list, require
from .answers import Answers
from .backends import Outcome
from .variants import STONES, Variant, lines_with_two, variant


@dataclass(frozen=True)
class LineResult:
    """One solve of a line puzzle, with what was added to it: the answers (``--all``), the other
    backend's outcome, the certificate and the files it was written to."""

    board: Board
    var: Variant
    backend: str
    outcome: Outcome
    stones: tuple[NodeId, ...]
    stone_limit: int = STONES
    symmetry_breaking: bool | None = None
    answers: Answers | None = None
    others: tuple[tuple[str, Outcome], ...] = ()
    answer_count_backends_agreeing: bool | None = None
    certificate: Certificate | None = None
    certificate_files: dict[str, str] = field(default_factory=dict)

    @property
    def backends_agreeing(self) -> list[str]:
        o = self.outcome
        return [self.backend] + [name for name, other in self.others
                                 if (other.status, other.objective) == (o.status, o.objective)]

    def to_json(self, timings: bool = True) -> dict[str, Any]:
        """The solution file; without ``timings`` no field depends on the machine or the run."""
        o = self.outcome
        out: dict[str, Any] = {
            "puzzle": self.var.puzzle, **board_fields(self.board), "backend": self.backend, "status": o.status,
            "objective": o.objective, "bound": o.bound, "stones": list(self.stones),
        }
        if self.var.lists_lines:
            out["lines_with_two"] = lines_with_two(self.board, self.stones)
            out["strict"] = self.var.strict
            out["stones_rule"] = self.var.stones_rule
        if timings:
            out["seconds"] = round(o.seconds, 3)
        if self.stone_limit != STONES:
            out["stone_limit"] = self.stone_limit
        if self.symmetry_breaking is not None:
            out["symmetry_breaking"] = self.symmetry_breaking
        if self.others:
            out["backends_agreeing"] = self.backends_agreeing
            for name, other in self.others:
                out[name] = {"status": other.status, "objective": other.objective}
                if timings:
                    out[name]["seconds"] = round(other.seconds, 3)
        if self.answers is not None:
            out.update(answer_fields(self.answers))
        if self.answer_count_backends_agreeing is not None:
            out["answer_count_backends_agreeing"] = self.answer_count_backends_agreeing
        if self.certificate is not None:
            out["certified"] = self.certificate.verified
            summary = self.certificate.summary()
            if not timings:
                summary = {k: v for k, v in summary.items() if not k.endswith("seconds")}
            out["certificate"] = summary | self.certificate_files
        return out


def answer_fields(answers: Answers) -> dict[str, Any]:
    out: dict[str, Any] = {
        "optimal_answers": answers.total,
        "optimal_answers_up_to_symmetry": len(answers.representatives),
    }
    if not answers.complete:
        out["optimal_answers_complete"] = False
    out["answers_up_to_symmetry"] = [list(s) for s in answers.representatives]
    return out


def dumps(data: Mapping[str, Any]) -> str:
    """JSON with one indent level per object, lists of node ids kept on one line."""
    text = json.dumps(data, indent=1)
    return re.sub(r"\[\s+([-\d,\s]+?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text) + "\n"


STONES_RULES = ("exactly", "at most")
"""How a Two by Two file reads its stone count (field ``stones_rule``)."""


def file_variant(data: Mapping[str, Any]) -> Variant:
    """The variant a solution file names (fields ``puzzle``, ``strict`` and, for Two by Two,
    ``stones_rule``, or its inferred reading)."""
    puzzle = require(data, "puzzle", str, "solution")
    where = f"{puzzle} solution"
    strict = bool(bool_field(data, "strict", where, default=False))
    if not variant(puzzle, strict).lists_lines:
        if "stones_rule" in data:
            raise SolutionError(f"{where}: field 'stones_rule' belongs to two-by-two (this puzzle's stone count "
                                f"is a limit)")
        return variant(puzzle, strict)
    rule = choice_field(data, "stones_rule", STONES_RULES, where, required=False) or inferred_stones_rule(data)
    return variant(puzzle, strict, at_most=rule == "at most")


def inferred_stones_rule(data: Mapping[str, Any]) -> str:
    """The reading of a Two by Two file without ``stones_rule``: one made before RULES.md placed
    all the stones, or by hand. It places fewer stones than its count (``stone_limit``, default
    32) only under the earlier reading, so it is read as ``"at most"``; otherwise as ``"exactly"``
    (a file placing the whole count is an answer under both readings, and the current one judges
    its claims)."""
    stones, count = data.get("stones"), data.get("stone_limit", STONES)
    if isinstance(stones, list) and isinstance(count, int) and not isinstance(count, bool):
        if len({str(v) for v in stones}) < count:
            return "at most"
    return "exactly"


def fault_kind(var: Variant, held: int) -> str | None:
    """How a line holding ``held`` stones breaks the puzzle's rule, as a diagram marks it:
    ``"none"``, ``"too few"``, ``"too many"`` (None: the line is fine)."""
    rule = var.rule
    if rule.fault(held) is None:
        return None
    if held == 0:
        return "none"
    least = max(rule.at_least, min((n for n in (rule.allowed or ()) if n > 0), default=0))
    return "too few" if held < least else "too many"


def diagram_spec(var: Variant, board: Board, stones: Sequence[NodeId], status: str = "") -> dict[str, Any]:
    """Keyword arguments of ``draw_on`` for one answer: its stones, the lines that satisfy the
    puzzle highlighted, and every line that breaks it marked by its fault (the file is not
    trusted: both are recomputed from the stones)."""
    from powertwo.boards.diagram import LineMark, Stone

    counts = line_counts(board, stones)
    good = [k for k, n in enumerate(counts) if var.satisfied(n)]
    faults = [LineMark(k, kind) for k, n in enumerate(counts) if (kind := fault_kind(var, n)) is not None]
    title = (f"{var.title}: {len(stones)} stones, {len(good)} of {len(board.lines)} lines "
             f"{'with two' if var.lists_lines else 'covered'}")
    if faults:
        title += f"; WRONG: the rule is broken on {counted(len(faults), 'line')}"
    if status:
        title += f" ({status})"
    wanted = "exactly two stones" if var.rule.highlight == 2 else f"{var.rule.need} stone"
    return {"stones": [Stone(v, "dark") for v in stones], "highlight": good, "lines": faults, "title": title,
            "legend": {"dark": "stone", "highlight": f"red line: a line with {wanted}",
                       "too many": "purple line: too many stones for the rule",
                       "too few": "orange dashed line: too few stones for the rule",
                       "none": "grey dotted line: no stone, the rule wants one"}}


def diagram(data: Mapping[str, Any], board: Board, *, names: str | None = "labels", all_answers: bool = False) -> Any:
    """The answer (or, with ``all_answers``, every optimal answer the file lists) with the lines
    that satisfy the puzzle highlighted and the faulty lines marked; every node's name written
    beside it (``names``: ``"labels"``, ``"ids"``, or None for none)."""
    from powertwo.boards.draw import figure, panels

    if "table" in data and data.get("puzzle") == "two-by-two":
        from .table import table_figure

        return table_figure(data, board)
    var = file_variant(data)
    where = f"{var.puzzle} solution"
    status = str(data.get("status", ""))
    if all_answers:
        if "answers_up_to_symmetry" not in data:
            raise SolutionError(f"{where}: --all needs the field 'answers_up_to_symmetry' "
                                f"(solve with --all to list every optimal answer)")
        representatives = require(data, "answers_up_to_symmetry", list, where)
        every: list[tuple[int, tuple[NodeId, ...]]] = []  # (orbit number, answer): each orbit drawn in full
        for i, raw in enumerate(representatives, start=1):
            stones = node_list({"stones": raw}, "stones", board, f"{where}: answer {i}")
            every += [(i, answer) for answer in sorted(orbit(board, sorted(set(stones))))]
        frames = []
        for k, (i, answer) in enumerate(every, start=1):
            spec = diagram_spec(var, board, answer)
            spec["title"] = f"answer {k} of {len(every)} (class {i}): {len(answer)} stones"
            spec["names"] = names
            frames.append(spec)
        return panels(board, frames, columns=min(5, len(frames)), panel_px=340)
    stones = sorted(set(node_list(data, "stones", board, where)))
    return figure(board, names=names, **diagram_spec(var, board, stones, status))
