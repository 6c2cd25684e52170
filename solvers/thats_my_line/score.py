"""That's My Line with a given result (``--score L:D``): the question, read once, and the
DRAT certificate of its "no" answer.

"A game that ends L to D" means (RULES.md section 4): a complete legal game (Light first,
alternating turns, a pass only when the mover cannot place, over when neither side can place)
whose final position holds ``L`` Light and ``D`` Dark stones. The supply ``S`` caps each count
(a side holds at most ``S`` stones, and a side whose supply is spent cannot place, which may end
the game with free nodes still open to it), and ``L + D`` stones must fit on the board. The
counts decide the winner: more stones wins, and on equal counts no side passed before the end
(a side that passes first ends with fewer stones than the other), so Dark placed last and wins.

The model is the solitaire's (:mod:`powertwo.models.thats_my_line`) with ``l = L`` and ``d = D``
added. A score that no supply or board allows (``19:16`` with 16 stones a side, ``40:30`` on 64
nodes) is refused before any solve, in one line that says why and what to give instead: the
question, not the game, is wrong there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from powertwo.boards import Board
from powertwo.models.thats_my_line import Supply

from ..fields import SolutionError
from .game import PUZZLE

SCORE_FORM = re.compile(r"(\d{1,9}):(\d{1,9})")
"""``--score`` as typed: Light's stones, a colon, Dark's stones (``19:16``)."""
PROOF_SUFFIX, CNF_SUFFIX = ".drat.gz", ".cnf.gz"
"""A score's certificate files: the proof named by ``--proof``, its CNF beside it."""


@dataclass(frozen=True)
class Score:
    """The stones each side holds when the game ends."""

    light: int
    dark: int

    @property
    def pair(self) -> tuple[int, int]:
        return (self.light, self.dark)

    @property
    def text(self) -> str:
        return f"{self.light}:{self.dark}"

    def to_json(self) -> dict[str, int]:
        return {"light": self.light, "dark": self.dark}

    def winner(self) -> str | None:
        """Who wins a game that ends with this score (RULES.md 4: on equal counts Dark placed last);
        ``None`` for 0:0, where nobody placed."""
        if self.light == self.dark == 0:
            return None
        return "Light" if self.light > self.dark else "Dark"


def read_score(value: Any, where: str = "--score") -> Score:
    """``"19:16"`` (an option: ``where`` names it, ``--score``) or ``{"light": 19, "dark": 16}`` (a
    file's field, or an option) as a :class:`Score`; :class:`SolutionError` naming ``where`` and
    the input otherwise."""
    if isinstance(value, Score):
        return value
    if isinstance(value, Mapping) or not where.startswith("--"):  # a file's field: the object form only
        light, dark = (value.get("light"), value.get("dark")) if isinstance(value, Mapping) else (None, None)
        if isinstance(value, Mapping) and set(value) == {"light", "dark"} and all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in (light, dark)):
            return Score(int(light), int(dark))  # type: ignore[arg-type]
        raise SolutionError(f"{PUZZLE}: {where} must be {{\"light\": N, \"dark\": N}} with two whole numbers >= 0")
    text = value.strip() if isinstance(value, str) else None
    found = SCORE_FORM.fullmatch(text) if text is not None else None
    if found is None:
        shown = str(value)[:40]
        raise SolutionError(f"{PUZZLE}: {where} must be LIGHT:DARK, the stones of each side at the end as two "
                            f"whole numbers >= 0 such as 19:16, not {shown!r}")
    return Score(int(found[1]), int(found[2]))


def fitting_score(value: Any, board: Board, supply: Supply, where: str = "--score") -> Score:
    """:func:`read_score`, refused (before any solve) when the supply or the board rules the
    score out by counting alone."""
    score = read_score(value, where)
    over = [(side, n) for side, n in (("Light", score.light), ("Dark", score.dark))
            if supply is not None and n > supply]
    if over:
        side, n = over[0]
        raise SolutionError(f"{PUZZLE}: no game ends {score.text} with {supply} stones per side: {side} would need "
                            f"{n} (give --stones unlimited, or --stones {max(score.pair)} or more)")
    if score.light + score.dark > board.size:
        raise SolutionError(f"{PUZZLE}: no game ends {score.text} on board {board.name}: "
                            f"{score.light + score.dark} stones do not fit on its {board.size} nodes")
    return score


def certificate_paths(proof: str | Path) -> tuple[Path, Path]:
    """The files of a score's certificate: the DRAT proof ``--proof`` names (``NAME.drat.gz``) and
    its CNF beside it (``NAME.cnf.gz``)."""
    path = Path(proof)
    if not path.name.endswith(PROOF_SUFFIX) or len(path.name) == len(PROOF_SUFFIX):
        raise SolutionError(f"{PUZZLE}: --proof must name a NAME{PROOF_SUFFIX} file (the DRAT proof, gzipped; "
                            f"its CNF is written beside it as NAME{CNF_SUFFIX}), not {str(proof)[:60]!r}")
    cnf = path.with_name(path.name[:-len(PROOF_SUFFIX)] + CNF_SUFFIX)
    if cnf.exists() and not path.exists():
        raise SolutionError(f"{cnf}: already exists and is not the CNF of {path.name}; not overwritten "
                            "(remove it or choose another --proof name)")
    return cnf, path
