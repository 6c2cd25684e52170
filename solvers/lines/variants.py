"""The line puzzles of RULES.md section 5 as data: each :class:`Variant` names its model module,
the model's options and its :class:`LineRule`; nothing branches on the puzzle's name."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Iterable

from powertwo.boards import Board, NodeId
from powertwo.models import one_by_one, two_by_two
from powertwo.models.cards import LineCnf, line_counts

from ..fields import SolutionError

STONES = 32
"""The default stone limit (RULES.md section 5)."""


@dataclass(frozen=True)
class LineRule:
    """What every line needs: a count in ``allowed`` (``None``: any count of at least
    ``at_least``), described by ``need``; ``highlight`` is the count a diagram marks as
    satisfied (``None``: every allowed count above 0)."""

    need: str
    allowed: frozenset[int] | None = None
    at_least: int = 0
    highlight: int | None = None
    summary: str = ""
    """The rule as said of a valid answer: ``every line holds exactly one``."""

    def fault(self, held: int) -> str | None:
        """What is wrong with a line holding ``held`` stones (None when it is fine)."""
        if held < self.at_least or self.allowed is not None and held not in self.allowed:
            return f"needs {self.need}"
        return None

    def satisfied(self, held: int) -> bool:
        """Whether a line holding ``held`` stones is one the diagram highlights."""
        if self.highlight is not None:
            return held == self.highlight
        return held >= 1 and self.fault(held) is None


@dataclass(frozen=True)
class Variant:
    """One puzzle as solved: ``name`` (the file stem: ``two-by-two-strict``), the registered
    ``puzzle``, whether ``strict``, the objective's ``sense`` and ``unit``, the model module with
    its keyword options, the line rule, and what the objective counts: the stones
    (``counts_lines_with`` None) or the lines holding exactly ``counts_lines_with`` stones."""

    name: str
    puzzle: str
    title: str
    strict: bool
    sense: str  # "min" | "max"
    unit: str
    model: ModuleType
    model_options: tuple[tuple[str, Any], ...]
    rule: LineRule
    counts_lines_with: int | None = None
    exact_stones: bool = False
    """Whether the stone count is placed exactly (Two by Two's reading of RULES.md section 5) rather
    than being a limit (One by One, the line cover, Two by Two ``--at-most``)."""

    def cnf(self, board: Board, stones: int, symmetry: bool) -> LineCnf:
        return self.model.cnf(board, stones=stones, symmetry=symmetry, **dict(self.model_options))

    def cpsat(self, board: Board, stones: int, symmetry: bool) -> Any:
        return self.model.cpsat(board, stones=stones, symmetry=symmetry, **dict(self.model_options))

    def milp(self, board: Board, stones: int) -> Any:
        return self.model.milp(board, stones=stones, **dict(self.model_options))

    def objective(self, board: Board, stones: Iterable[NodeId]) -> int:
        """The objective recomputed from the stones alone."""
        if self.counts_lines_with is not None:
            return sum(1 for n in line_counts(board, stones) if n == self.counts_lines_with)
        return len(set(stones))

    def line_fault(self, held: int) -> str | None:
        return self.rule.fault(held)

    def satisfied(self, held: int) -> bool:
        return self.rule.satisfied(held)

    def better(self, a: int, b: int) -> bool:
        return a < b if self.sense == "min" else a > b

    @property
    def lists_lines(self) -> bool:
        """Whether result files list the lines that count (``lines_with_two``), ``strict`` and
        ``stones_rule``."""
        return self.counts_lines_with is not None

    @property
    def at_most(self) -> bool:
        """Whether this is the at-most reading of a puzzle that has both (Two by Two)."""
        return self.lists_lines and not self.exact_stones

    @property
    def stones_rule(self) -> str:
        """How the stone count is read, as a solution file's ``stones_rule`` says it."""
        return "exactly" if self.exact_stones else "at most"

    @property
    def family(self) -> str:
        """The name the certificates of this puzzle and ``strict`` use (the name before the
        at-most reading had its own variant, kept so that earlier certificates stay valid)."""
        return self.puzzle + ("-strict" if self.strict else "")


VARIANTS = {v.name: v for v in (
    Variant("one-by-one", "one-by-one", "One by One", False, "min", "stones", one_by_one, (("cover", False),),
            LineRule("exactly 1", frozenset({1}), summary="every line holds exactly one")),
    Variant("line-cover", "line-cover", "Line cover (One by One relaxed)", False, "min", "stones", one_by_one,
            (("cover", True),), LineRule("at least 1", at_least=1, summary="every line holds at least one")),
    *(Variant(f"two-by-two{'-strict' if strict else ''}{'-at-most' if at_most else ''}", "two-by-two",
              "Two by Two" + (", strict" if strict else "") + (", at most" if at_most else ""), strict, "max",
              "lines with two", two_by_two, (("strict", strict), ("at_most", at_most)),
              LineRule("0 or 2", frozenset({0, 2}), highlight=2, summary="every line holds 0 or 2") if strict else
              LineRule("any number", highlight=2, summary="lines with two counted"),
              counts_lines_with=2, exact_stones=not at_most)
      for at_most in (False, True) for strict in (False, True)),
)}
PUZZLES = tuple(dict.fromkeys(v.puzzle for v in VARIANTS.values()))


def variant(puzzle: str, strict: bool = False, at_most: bool = False) -> Variant:
    """The variant of a registered line puzzle (``strict`` and ``at_most`` only where such a
    variant exists)."""
    if puzzle not in PUZZLES:
        raise SolutionError(f"unknown line puzzle {puzzle!r}")
    for flag, value in (("strict", strict), ("at-most", at_most)):
        if value and not any(v.puzzle == puzzle and getattr(v, flag.replace("-", "_")) for v in VARIANTS.values()):
            raise SolutionError(f"puzzle {puzzle} does not take --{flag}")
    for v in VARIANTS.values():
        if v.puzzle == puzzle and v.strict == bool(strict) and v.at_most == bool(at_most):
            return v
    raise SolutionError(f"puzzle {puzzle} does not take --strict")  # pragma: no cover - every pair exists


def stone_limit(value: Any, board: Board, var: Variant | None = None) -> int:
    """The ``stones`` option: a number or ``unlimited`` (default 32, RULES.md section 5). For a
    puzzle that places exactly that many stones (``var.exact_stones``) it is a number from 0 to
    the board's nodes."""
    exact = var is not None and var.exact_stones
    if value is None:
        value = STONES
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "unlimited" and not exact:
            return board.size
        if text == "unlimited":
            puzzle = var.puzzle if var else "the puzzle"
            raise SolutionError(f"--stones unlimited: {puzzle} places exactly N stones, give a number from 0 to "
                                f"{board.size} (or --at-most for a limit)")
        if not (text.isascii() and text.isdigit()) or len(text) > 9:
            raise SolutionError(f"--stones {value[:40]!r}: give a number or 'unlimited'")
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SolutionError(f"--stones {str(value)[:40]!r}: give a number or 'unlimited'")
    if exact and value > board.size:
        raise SolutionError(f"--stones {value}: board {board.name} has {board.size} nodes, so {value} stones "
                            f"do not fit; give --stones N with N from 0 to {board.size}, or --at-most")
    return value


def lines_with_two(board: Board, stones: Iterable[NodeId]) -> list[str]:
    counts = line_counts(board, stones)
    return [board.line_text(k) for k, n in enumerate(counts) if n == 2]
