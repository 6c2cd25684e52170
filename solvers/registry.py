"""The puzzles the toolkit solves, found through one registry.

A puzzle module (``solvers/<puzzle>.py``) registers a :class:`Puzzle`: how to
solve it on a board with options (returning the result object that is written
as JSON), how to check a solution file without trusting any field it can
recompute, how to draw one, and what the main job writes to ``results/``.

Library code returns data and never prints: progress goes through the
``progress`` callback the caller passes (the CLI shows it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from powertwo.boards import Board, BoardError, load as load_board


class SolutionError(ValueError):
    """A solution file (or solve request) is malformed: bad JSON, unknown puzzle, missing field,
    unknown node. The message names the file and field. Faults in a well-formed answer are not
    errors: the checker reports them as a list."""


Progress = Callable[[str], None]


def no_progress(_: str) -> None:
    return None


@dataclass(frozen=True)
class CheckReport:
    """A checker's verdict: ``faults`` (one precise line each; empty when valid) and ``notes``
    (what was confirmed, e.g. ``optimality confirmed by cp-sat``)."""

    faults: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.faults


@dataclass(frozen=True)
class ResultRow:
    """One row of ``results/README.md``."""

    puzzle: str
    variant: str
    optimum: str
    status: str
    backends: str
    answers: str
    seconds: float
    files: tuple[str, ...] = ()


@dataclass(frozen=True)
class Puzzle:
    """A registered puzzle.

    ``solve(board, **options) -> dict`` returns the result object;
    ``check(data, board) -> CheckReport`` checks a parsed solution file;
    ``diagram(data, board, **draw_options) -> matplotlib figure`` draws one (imported lazily by
    the caller); ``draw_options`` names the keywords it takes (``ids``: node ids on or off,
    ``all_answers``: every optimal answer the file lists); the CLI refuses the others;
    ``results(out_dir, progress) -> list[ResultRow]`` is this puzzle's part of the main job.
    ``options`` names the solve options the puzzle accepts (for the CLI).
    """

    name: str
    title: str
    solve: Callable[..., dict]
    check: Callable[[Mapping, Board], CheckReport]
    diagram: Callable[..., Any] | None = None
    results: Callable[[Path, Progress], list[ResultRow]] | None = None
    options: tuple[str, ...] = field(default=())
    order: int = 100
    draw_options: tuple[str, ...] = ("ids",)


PUZZLES: dict[str, Puzzle] = {}

# Puzzle modules, in the order of RULES.md section 5. Importing one registers it.
PUZZLE_MODULES: tuple[str, ...] = (
    "line_puzzles", "thats_my_line", "jump",
)


def register_puzzle(puzzle: Puzzle) -> Puzzle:
    PUZZLES[puzzle.name] = puzzle
    return puzzle


def _import_all() -> None:
    from importlib import import_module

    for name in PUZZLE_MODULES:
        import_module(f"powertwo.solvers.{name}")


def puzzle_names() -> tuple[str, ...]:
    _import_all()
    return tuple(sorted(PUZZLES, key=lambda k: (PUZZLES[k].order, k)))


def get_puzzle(name: str) -> Puzzle:
    _import_all()
    if name not in PUZZLES:
        raise SolutionError(f"unknown puzzle {name!r} (known: {', '.join(puzzle_names())})")
    return PUZZLES[name]


def read_json_file(path: str | Path) -> Any:
    """A JSON file, or a :class:`SolutionError` saying why it cannot be read."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SolutionError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SolutionError(f"{path}: cannot read ({exc.__class__.__name__})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise SolutionError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None


def solution_board(data: Mapping, where: str) -> Board:
    """The board a solution file names (field ``board``, default ``power-of-two``)."""
    name = data.get("board", "power-of-two")
    if not isinstance(name, str):
        raise SolutionError(f"{where}: field 'board' must be a board name or file")
    try:
        return load_board(name)
    except BoardError as exc:
        raise SolutionError(f"{where}: field 'board': {exc}") from None


def require(data: Mapping, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``data[key]`` of the given type, or a :class:`SolutionError` naming the field."""
    if key not in data:
        raise SolutionError(f"{where}: missing field '{key}'")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise SolutionError(f"{where}: field '{key}' must be {names}")
    return value


def node_list(data: Mapping, key: str, board: Board, where: str) -> list[int]:
    """A list of node ids from field ``key``; unknown nodes name the board."""
    return node_ids(require(data, key, list, where), board, where, field=key)


def node_ids(raw: list, board: Board, where: str, *, field: str | None = None) -> list[int]:
    """Every entry of ``raw`` as a node id of ``board``, in order; a non-id or an unknown node
    raises :class:`SolutionError` naming ``where`` (and the ``field``, when given)."""
    out = []
    for v in raw:
        if isinstance(v, bool) or not isinstance(v, int):
            prefix = f"field '{field}': " if field else ""
            raise SolutionError(f"{where}: {prefix}{v!r} is not a node id")
        if not board.has_node(v):
            raise SolutionError(f"{where}: node {v} does not exist on board {board.name}")
        out.append(v)
    return out
