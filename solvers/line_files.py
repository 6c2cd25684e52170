"""Line-puzzle solution files: the typed result (:class:`LineResult`), its JSON form, and its
diagram. A solution file is::

    {"puzzle", "board", "backend", "status": "optimal"|"feasible"|"infeasible"|"unknown",
     "objective", "bound", "stones": [node ids], "lines_with_two": [line texts] (two-by-two),
     "strict" (two-by-two), "seconds" (solve only; result files keep timings apart), ...}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from powertwo.boards import Board, NodeId
from powertwo.models.cards import line_counts

from .certify import Certificate
from .fields import bool_field, node_list, require
from .line_enumerate import Answers
from .line_solve import Outcome
from .line_variants import STONES, Variant, lines_with_two, variant


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
            "puzzle": self.var.puzzle, "board": self.board.name, "backend": self.backend, "status": o.status,
            "objective": o.objective, "bound": o.bound, "stones": list(self.stones),
        }
        if self.var.lists_lines:
            out["lines_with_two"] = lines_with_two(self.board, self.stones)
            out["strict"] = self.var.strict
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


def dumps(data: Mapping) -> str:
    """JSON with one indent level per object, lists of node ids kept on one line."""
    text = json.dumps(data, indent=1)
    return re.sub(r"\[\s+([-\d,\s]+?)\s+\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text) + "\n"


def file_variant(data: Mapping) -> Variant:
    """The variant a solution file names (fields ``puzzle`` and ``strict``)."""
    puzzle = require(data, "puzzle", str, "solution")
    return variant(puzzle, bool(bool_field(data, "strict", f"{puzzle} solution", default=False)))


def diagram(data: Mapping, board: Board) -> Any:
    """Stones, and the lines that satisfy the puzzle highlighted (the file is not trusted:
    the highlighted lines are recomputed from the stones)."""
    from powertwo.boards.draw import Stone, figure

    var = file_variant(data)
    stones = sorted(set(node_list(data, "stones", board, f"{var.puzzle} solution")))
    counts = line_counts(board, stones)
    good = [k for k, n in enumerate(counts) if var.satisfied(n)]
    status = data.get("status", "")
    title = (f"{var.title}: {len(stones)} stones, {len(good)} of {len(board.lines)} lines "
             f"{'with two' if var.lists_lines else 'covered'}")
    if status:
        title += f" ({status})"
    return figure(board, stones=[Stone(v, "dark") for v in stones], highlight=good, ids=True, title=title)
