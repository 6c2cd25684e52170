"""Which line sets fit the real Power of Two board's node display: an exact search over a stated
hypothesis class (RULES.md section 1; the algorithm: ``docs/board-inference.md``).

**Evidence** (:func:`load_evidence`, ``boards/data/evidence/pbmserv-display.json``): the
play-by-mail server's 13 x 13 character display of the board, columns a..m and rows 1..13 (cell
``a1`` is ``(-6, 6)``, ``m13`` is ``(6, -6)``): the 64 cells that hold a node, and the 12
horizontal and vertical lines it draws, by cell names.

**Hypothesis class** (:data:`HYPOTHESIS`): the outer square is ``[-6, 6]^2``; the central square
is either the diamond with corners g5, i7, g9, e7 or the axis-parallel square e5-i5-i9-e9 (both
fit where the drawn lines stop). The lines are a set of *families*; a family is the orbit under
the 8 symmetries of the square of one segment whose two endpoints are lattice points (integer
coordinates) on the outer square's border or on the central square's boundary, and which does not
enter the central square's interior. Collinear segments that touch or overlap are one line
(:func:`powertwo.boards.build.from_segments`), so a family is identified by its merged lines
(two segments with the same merged lines are one candidate), and two chosen families never have
collinear lines that touch or overlap (their union would be a third candidate family, which the
search finds on its own).

**A solution** is a set of families whose exact nodes (every line end and every crossing, exact
``Fraction`` arithmetic) round to exactly the 64 cells of the display, one node a cell, no
coordinate within 1/10 of a half (:func:`powertwo.boards.build.name_by_cells`), and whose
horizontal and vertical lines are exactly the drawn ones, node for node.

**Search** (:func:`search`): CP-SAT, one Boolean per candidate family; every point a family or a
pair of families makes is computed exactly beforehand, points that cannot be nodes forbid their
family or pair, and each of the 64 cells must receive exactly one point. Every solution of the
model is enumerated and rebuilt with the board builder (:func:`verify`), which is the real check.

The work is split by job: :mod:`.evidence` (the display and the hypothesis class),
:mod:`.geometry` (exact candidate families and points), :mod:`.exact_search` (CP-SAT and the rebuild),
:mod:`.answer` (the answer file) and :mod:`.results_step` (the step of ``make results``).
"""

from __future__ import annotations

from .answer import answer_text, infer
from .evidence import CENTRAL_SQUARES, EVIDENCE_FILE, HYPOTHESIS, OUTER, Evidence, InferenceError, load_evidence
from .exact_search import NotASolution, Solution, SquareResult, axis_parallel_lines, build, search, verify
from .geometry import Family, candidate_families, cell_of, endpoints, enters, meet, own_points, pair_points
from .results_step import cells_figure, results

__all__ = [
    "CENTRAL_SQUARES", "EVIDENCE_FILE", "HYPOTHESIS", "OUTER", "Evidence", "Family", "InferenceError",
    "NotASolution", "Solution", "SquareResult", "answer_text", "axis_parallel_lines", "build", "candidate_families",
    "cell_of", "cells_figure", "endpoints", "enters", "infer", "load_evidence", "meet", "own_points", "pair_points",
    "results", "search", "verify",
]
