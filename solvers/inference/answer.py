"""The board inference's answer file."""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from .evidence import CENTRAL_SQUARES, HYPOTHESIS, LatticeSegment, load_evidence
from .exact_search import search


def _segment_json(seg: LatticeSegment) -> list[list[int]]:
    return [list(seg[0]), list(seg[1])]


def infer(squares: Sequence[str] = ("diamond", "axis"), shipped: Sequence[str] = (), *,
          time_limit: float = 600.0) -> tuple[dict, dict[str, float]]:
    """The answer file of the search over every central square of the class (no timings in it) and
    the seconds of each search. Each solution names the ``shipped`` boards it equals (same nodes,
    labels and lines: the same fingerprint)."""
    from powertwo.boards import load

    evidence = load_evidence()
    prints = {load(name).fingerprint: name for name in shipped}
    results = [search(square, evidence, time_limit=time_limit) for square in squares]
    out: dict[str, Any] = {
        "evidence": {"file": "boards/data/evidence/pbmserv-display.json", "source": evidence.source,
                     "nodes": len(evidence.nodes), "drawn_lines": ["-".join(line) for line in evidence.drawn_lines]},
        "hypothesis": HYPOTHESIS,
        "search": ("CP-SAT over one Boolean per candidate family with every point a family or a pair of families "
                   "makes computed exactly beforehand; each of the 64 cells receives exactly one point; every "
                   "solution enumerated, then rebuilt by the board builder and checked against the display."),
        "squares": [],
        "solutions": sum(len(r.solutions) for r in results),
        "complete": all(r.complete for r in results),
    }
    for r in results:
        entry: dict[str, Any] = {
            "square": r.square, "corners": [evidence.name(c) for c in CENTRAL_SQUARES[r.square]],
            "candidate_endpoints": r.endpoints, "candidate_segments": r.candidate_segments,
            "candidate_families": r.candidate_families, "usable_families": len(r.usable),
            "complete": r.complete, "solutions": [],
        }
        for s in r.solutions:
            b = s.board
            entry["solutions"].append({
                "families": len(s.segments),
                "segments": [_segment_json(seg) for seg in s.segments],
                "nodes": b.size, "lines": len(b.lines),
                "line_lengths": {str(k): v for k, v in b.line_lengths.items()},
                "longest_line": max(len(line) for line in b.lines),
                "fingerprint": b.fingerprint, "equals": prints.get(b.fingerprint),
            })
        out["squares"].append(entry)
    return out, {f"search {r.square}": round(r.seconds, 3) for r in results}


def answer_text(answer: Mapping) -> str:
    """The answer file's text: indented JSON with every point and segment on one line."""
    import re

    text = json.dumps(answer, indent=1)
    text = re.sub(r"\[\s+(-?\d+),\s+(-?\d+)\s+\]", r"[\1, \2]", text)
    return re.sub(r"\[\s+(\[-?\d+, -?\d+\]),\s+(\[-?\d+, -?\d+\])\s+\]", r"[\1, \2]", text) + "\n"


