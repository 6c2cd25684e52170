"""The puzzles the toolkit solves, found through one registry.

A puzzle package (``solvers/<family>/``, its ``__init__``) registers a :class:`Puzzle`: how to
solve it on a board with options (returning the result object that is written
as JSON), how to check a solution file without trusting any field it can
recompute, how to draw one, and what the main job writes to ``results/``.

Library code returns data and never prints: progress goes through the
``progress`` callback the caller passes (the CLI shows it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from powertwo.boards import Board, BoardError, load as load_board, shipped_with, valid_elsewhere
from powertwo.boards.jsonfile import read_json

from .fields import SolutionError, board_fields, node_ids, node_list, require
from .schemas import check_answer_shape

__all__ = ["SolutionError", "board_fields", "node_ids", "node_list", "require", "CheckReport", "ResultRow", "Puzzle",
           "PUZZLES", "PuzzlePage", "PageError", "Clicks", "Verdict", "Steps", "SolveOption", "DEFAULT_BOARDS",
           "time_limit_option",
           "register_puzzle", "puzzle_names", "get_puzzle", "read_json_file", "solution_board", "check_file",
           "Progress", "no_progress"]


Progress = Callable[[str], None]


def no_progress(_: str) -> None:
    return None


@dataclass(frozen=True)
class CheckReport:
    """A checker's verdict: ``faults`` (one precise line each; empty when valid) and ``notes``
    (what was confirmed, e.g. ``optimality confirmed by cp-sat``)."""

    faults: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    summary: str = ""
    """What a valid file was confirmed to be, in words (``16 stones, every line holds exactly one;
    optimal (cp-sat proves 16)``); empty when the checker says no more than valid."""

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
    timings: Mapping[str, float] = field(default_factory=dict)
    """Seconds of each step (``timings.json``; answer files hold none, so reruns change only timings)."""


DEFAULT_BOARDS: tuple[str, ...] = ("power-of-two", "power-of-two-square-sides", "power-of-two-sketch")
"""The boards every puzzle runs on by default: the real board first, then the two the results job
solves beside it."""

CLICK_ACTIONS = ("toggle", "alternate", "jump")
CHECK_REQUESTS = ("check", "jump")
STEP_UNITS = ("stones", "moves", "jumps")
SENSES = ("min", "max", "")
"""Better when smaller, better when larger, or no objective to better (a goal reached or not)."""
OPTION_KINDS = ("choice", "int", "float", "bool", "text")


class PageError(ValueError):
    """A puzzle's page description is inconsistent (a registration fault)."""


def _one_of(value: str, known: tuple[str, ...], what: str) -> None:
    if value not in known:
        raise PageError(f"{what} {value!r} is not one of {', '.join(known)}")


@dataclass(frozen=True)
class Clicks:
    """How a click on a node changes the answer the page builds.

    ``action``: ``"toggle"`` (a stone on the node, or off it again), ``"alternate"`` (the next
    player's stone on the node; a pass is a button) or ``"jump"`` (a stone's node, then each node
    it jumps to; the same node again ends the chain). ``help``: the line the page shows.
    ``answer``: the solution file's field the clicks build. ``request``: what the page sends after
    each click: ``"check"`` (``POST /api/check`` with puzzle, board and the ``answer`` field) or
    ``"jump"`` (``POST /api/jump`` with the chains)."""

    action: str
    help: str
    answer: str
    request: str

    def __post_init__(self) -> None:
        _one_of(self.action, CLICK_ACTIONS, "click action")
        _one_of(self.request, CHECK_REQUESTS, "check request")


@dataclass(frozen=True)
class Verdict:
    """What the live check of the clicks returns and the page shows: ``words`` are the verdicts it
    can begin with (``"invalid"``, ``"valid, optimal"``, ...); ``shows`` the reply's fields the
    page renders besides ``verdict``, ``faults`` and ``notes`` (``bad_lines``: line indices to
    mark, ``next``: nodes the next click may take); ``objective`` counts ``unit``, better when
    smaller (``sense`` ``"min"``) or larger (``"max"``); ``sense`` ``""``: an answer reaches its
    goal or not."""

    words: tuple[str, ...]
    shows: tuple[str, ...]
    unit: str
    sense: str

    def __post_init__(self) -> None:
        _one_of(self.sense, SENSES, "sense")


@dataclass(frozen=True)
class Steps:
    """How an answer is stepped through: ``unit`` ``"stones"`` (one position, shown whole),
    ``"moves"`` (a game record, a frame per move) or ``"jumps"`` (a frame per chain, with arrows);
    ``count`` the label of an answer so far, a template with ``{n}`` (steps taken) and
    ``{stones}`` (stones on the board); ``goal`` what a complete answer reaches (``31 steps``)."""

    unit: str
    count: str
    goal: str

    def __post_init__(self) -> None:
        _one_of(self.unit, STEP_UNITS, "step unit")
        try:
            self.count.format(n=0, stones=0)
        except (KeyError, IndexError, ValueError):
            raise PageError(f"count label {self.count!r} may name only {{n}} and {{stones}}") from None


@dataclass(frozen=True)
class SolveOption:
    """A solve option as the page offers it: ``name`` is the solve keyword; ``kind`` ``"choice"``
    (one of ``choices``), ``"int"`` or ``"float"`` (from ``minimum`` to ``maximum``, in ``unit``;
    ``words`` are texts taken instead of a number, such as ``"unlimited"``), ``"bool"`` or ``"text"``
    (a line the solver reads itself, such as a score ``19:16``; empty: the option is not given)."""

    name: str
    label: str
    kind: str
    default: str | int | float | bool | None
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    unit: str = ""
    words: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _one_of(self.kind, OPTION_KINDS, f"option {self.name}: kind")
        if self.kind == "choice" and self.default not in self.choices:
            raise PageError(f"option {self.name}: default {self.default!r} is not among its choices")
        if self.kind in ("int", "float"):
            if self.minimum is None or self.maximum is None or self.minimum > self.maximum:
                raise PageError(f"option {self.name}: a number needs a range from minimum to maximum")
            if isinstance(self.default, (int, float)) and not isinstance(self.default, bool) \
                    and not self.minimum <= self.default <= self.maximum:
                raise PageError(f"option {self.name}: default {self.default} is outside its range")
        if self.kind == "bool" and not isinstance(self.default, bool):
            raise PageError(f"option {self.name}: a bool option needs a bool default")


def time_limit_option(default: float = 30.0, maximum: float = 600.0) -> SolveOption:
    """The ``time_limit`` option every puzzle takes: a search stops at it with the best answer so far."""
    return SolveOption("time_limit", "time limit", "float", default, minimum=0.1, maximum=maximum, unit="s")


@dataclass(frozen=True)
class PuzzlePage:
    """What the workbench needs to render a puzzle without knowing its name: its ``goal`` (one
    line of its rule), its ``clicks``, the ``verdict`` of the live check, its ``steps``, the file
    name of its ``committed`` answer (in ``results/``, and in ``results/<board>/`` for the other
    boards), the ``boards`` it runs on by default and the ``options`` a solve run offers (each a
    keyword of the puzzle's ``solve``). :meth:`to_json` is what ``GET /api/meta`` can list."""

    goal: str
    clicks: Clicks
    verdict: Verdict
    steps: Steps
    committed: str
    boards: tuple[str, ...] = DEFAULT_BOARDS
    options: tuple[SolveOption, ...] = ()

    def to_json(self) -> dict[str, Any]:
        from dataclasses import asdict

        return asdict(self)


@dataclass(frozen=True)
class Puzzle:
    """A registered puzzle.

    ``solve(board, **options) -> dict`` returns the result object;
    ``check(data, board) -> CheckReport`` checks a parsed solution file (with ``base=`` the
    folder of the file when ``reads_files``: certificates name files relative to it);
    ``diagram(data, board, **draw_options) -> matplotlib figure`` draws one (imported lazily by
    the caller); ``draw_options`` names the keywords it takes (``names``: what is written beside
    every node, ``"labels"``, ``"ids"`` or None, each diagram with its own default;
    ``all_answers``: every optimal answer the file lists); the CLI refuses the others;
    ``results(out_dir, progress) -> list[ResultRow]`` is this puzzle's part of the main job.
    ``options`` names the solve options the puzzle accepts (for the CLI); ``page`` describes it
    for the workbench (:class:`PuzzlePage`); ``record(data) -> dict``, for a puzzle whose answer is
    a whole game, is the game record an answer file holds (``powertwo validate`` replays it).
    """

    name: str
    title: str
    solve: Callable[..., dict]
    check: Callable[[Mapping, Board], CheckReport]
    diagram: Callable[..., Any] | None = None
    results: Callable[[Path, Progress], list[ResultRow]] | None = None
    options: tuple[str, ...] = field(default=())
    order: int = 100
    draw_options: tuple[str, ...] = ("names",)
    reads_files: bool = False
    page: PuzzlePage | None = None
    record: Callable[[Mapping], dict] | None = None


PUZZLES: dict[str, Puzzle] = {}

# Puzzle modules, in the order of RULES.md section 5. Importing one registers it.
PUZZLE_MODULES: tuple[str, ...] = (
    "lines", "thats_my_line", "jump",
)

# The module that registers each puzzle, so that looking up one puzzle imports only its module
# (the line puzzles' package loads OR-Tools, about a second of every `powertwo solve jump-reverse`
# before). A test checks it against what the modules register.
PUZZLE_HOMES: Mapping[str, str] = {
    "one-by-one": "lines", "line-cover": "lines", "two-by-two": "lines",
    "thats-my-line": "thats_my_line", "jump-forward": "jump", "jump-reverse": "jump",
}


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
    from importlib import import_module

    if name in PUZZLE_HOMES:
        import_module(f"powertwo.solvers.{PUZZLE_HOMES[name]}")
    if name not in PUZZLES:
        _import_all()
    if name not in PUZZLES:
        raise SolutionError(f"unknown puzzle {name!r} (known: {', '.join(puzzle_names())})")
    return PUZZLES[name]


def read_json_file(path: str | Path) -> Any:
    """A JSON file through the one safe reader (size, depth and digit limits), or a
    :class:`SolutionError` saying why it cannot be read."""
    return read_json(path, SolutionError)


def solution_board(data: Mapping, where: str, board: Board | None = None) -> Board:
    """The board a solution file is judged against.

    Without ``board`` (the user's ``--board``): the board the file names (field ``board``, default
    ``power-of-two``). A file that carries ``board_fingerprint`` (every file the toolkit writes) is
    judged only against the board it was made for: when the fingerprint is not that of the board
    loaded, the file is refused with the name of the board it was made for, never judged against
    the wrong lines. A file without a fingerprint (a hand-written claim, or a file made before
    fingerprints) is judged against ``board`` when given, else against the board it names."""
    name = data.get("board", "power-of-two")
    if not isinstance(name, str):
        raise SolutionError(f"{where}: field 'board' must be a board name or file")
    fingerprint = data.get("board_fingerprint")
    if fingerprint is not None and not isinstance(fingerprint, str):
        raise SolutionError(f"{where}: field 'board_fingerprint' must be a string")
    if board is None:
        try:
            board = load_board(name)
        except BoardError as exc:
            raise SolutionError(f"{where}: field 'board': {exc}") from None
        if fingerprint is not None and fingerprint != board.fingerprint:
            shipped = shipped_with(fingerprint)
            if shipped:
                raise SolutionError(f"{where}: made for {shipped}, not for {name}; pass --board {shipped}")
            raise SolutionError(f"{where}: made for a board named {name} with fingerprint {fingerprint}, but "
                                f"{name} here has fingerprint {board.fingerprint}; pass --board with the board "
                                f"file it was made for")
        return board
    if fingerprint is not None and fingerprint != board.fingerprint:
        made_for = shipped_with(fingerprint) or name
        raise SolutionError(f"{where}: made for {made_for}, not for {board.name}; pass --board {made_for}")
    return board


def answer_record(data: Mapping, where: str) -> dict:
    """The game record an answer file holds (its puzzle's ``record``), or a :class:`SolutionError`
    saying that this puzzle's answers are not games."""
    puzzle = get_puzzle(str(data.get("puzzle")))
    if puzzle.record is None:
        raise SolutionError(f"{where}: a {puzzle.name} answer is not a game record (powertwo check checks it)")
    return puzzle.record(data)


def check_file(path: str | Path, board: Board | None = None) -> CheckReport:
    """Check a solution file: read it safely, load the board it was made for (or ``board``, see
    :func:`solution_board`), and let its puzzle's checker verify (or refuse) every field.

    A file without ``board_fingerprint`` that is not valid on the board it names (or the default),
    checked without ``board``, is tried on the other shipped boards of that kind
    (:func:`powertwo.boards.valid_elsewhere`); valid on one, it is refused in one line naming it
    (``f.json: not valid on power-of-two; valid on power-of-two-sketch (made before the default
    board changed?): pass --board power-of-two-sketch``), since a file made before the default
    board changed names ``power-of-two`` and means the sketch."""
    path = Path(path)
    data = read_json_file(path)
    if not isinstance(data, dict) or "puzzle" not in data:
        raise SolutionError(f"{path}: not a solution file (no field 'puzzle')")
    if not isinstance(data["puzzle"], str):
        raise SolutionError(f"{path}: field 'puzzle' must be a string")
    puzzle = get_puzzle(data["puzzle"])
    judged = solution_board(data, str(path), board)

    def check_on(on: Board) -> CheckReport:
        check_answer_shape(data, str(path), on)
        if puzzle.reads_files:
            return puzzle.check(data, on, base=path.parent)  # type: ignore[call-arg]
        return puzzle.check(data, on)

    def valid_on(on: Board) -> bool:
        try:
            return check_on(on).valid
        except SolutionError:
            return False

    def refuse_if_valid_elsewhere() -> None:
        if board is None and data.get("board_fingerprint") is None:
            found = valid_elsewhere(judged, valid_on)
            if found is not None:
                raise SolutionError(f"{path}: {found[1]}: pass --board {found[0].name}")

    try:
        report = check_on(judged)
    except SolutionError:
        refuse_if_valid_elsewhere()
        raise
    if not report.valid:
        refuse_if_valid_elsewhere()
    return report
