"""The puzzles the toolkit solves, found through one registry.

A puzzle package (``solvers/<family>/``, its ``__init__``) registers a :class:`Puzzle`: how to
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

from powertwo.boards import Board, BoardError, load as load_board, shipped_with, valid_elsewhere
from powertwo.boards.jsonfile import read_json

from .progress import Progress, no_progress
from .fields import SolutionError, board_fields, node_ids, node_list, require
from .schemas import RunFacts, answer_schema, check_shape

__all__ = ["SolutionError", "board_fields", "node_ids", "node_list", "require", "CheckReport", "ResultRow", "Puzzle",
           "PUZZLES", "PUZZLE_MODULES", "PuzzlePage", "PageError", "Clicks", "Verdict", "Steps", "Option",
           "LiveCheck", "DEFAULT_BOARDS", "time_limit_option", "check_answer_shape",
           "register_puzzle", "puzzle_names", "results_dir", "committed_answer", "get_puzzle", "read_json_file",
           "solution_board", "check_file", "Progress", "no_progress"]



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
OPTION_KINDS = ("choice", "int", "float", "bool", "text", "node", "file", "output", "cores", "mib")
PAGE_KINDS = ("choice", "int", "float", "bool", "text")
"""The kinds a workbench page offers; the others are the command line's alone (a node given by its
label, a file read or written, threads up to the cores, MiB up to the machine's memory)."""


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
class Option:
    """A solve option, declared once: the command line's flag and the workbench's control are
    made from it, and an answer file's field when the option is ``recorded``.

    ``name`` is the solve keyword; ``kind`` ``"choice"`` (one of ``choices``), ``"int"`` or
    ``"float"`` (from ``minimum`` to ``maximum``, in ``unit``; ``words`` are texts taken instead of
    a number, such as ``"unlimited"``), ``"bool"``, ``"text"`` (a line the solver reads itself, such
    as a score ``19:16``; empty: the option is not given), and for the command line alone
    (``page`` False) ``"node"`` (a label or an id), ``"file"`` (a file read), ``"output"`` (a file
    written), ``"cores"`` (threads, 1 to the core count) and ``"mib"`` (MiB, 1 to the machine's
    memory). ``default`` is what ``solve`` does without the option; ``help`` the flag's help
    (default: ``label``); ``flag`` the flag's name (default: ``name`` with dashes); ``page``
    whether the workbench offers it; ``recorded`` whether the answer file holds its value under
    ``name`` (its answer schema then checks that field's type)."""

    name: str
    label: str
    kind: str
    default: str | int | float | bool | None
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    unit: str = ""
    words: tuple[str, ...] = ()
    help: str = ""
    flag: str = ""
    page: bool = True
    recorded: bool = False

    def __post_init__(self) -> None:
        _one_of(self.kind, OPTION_KINDS, f"option {self.name}: kind")
        if self.page and self.kind not in PAGE_KINDS:
            raise PageError(f"option {self.name}: a {self.kind} option is the command line's alone (page=False)")
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

    @property
    def flag_name(self) -> str:
        """The command line's flag without its dashes (``time-limit``; ``all`` for ``all_solutions``)."""
        return self.flag or self.name.replace("_", "-")

    @property
    def help_text(self) -> str:
        """The flag's help: ``help``, else the label and the default."""
        if self.help:
            return self.help
        text = self.label[:1].upper() + self.label[1:]
        return text + (f" (default {self.default})." if self.default not in (None, "") and self.kind != "bool" else ".")

    def to_json(self) -> dict[str, Any]:
        """The option as the workbench's page offers it."""
        return {"name": self.name, "label": self.label, "kind": self.kind, "default": self.default,
                "choices": list(self.choices), "minimum": self.minimum, "maximum": self.maximum, "unit": self.unit,
                "words": list(self.words)}


def time_limit_option(default: float = 30.0, maximum: float = 600.0) -> Option:
    """The ``time_limit`` option every puzzle takes: a search stops at it with the best answer so far."""
    return Option("time_limit", "time limit", "float", default, minimum=0.1, maximum=maximum, unit="s",
                  help="Seconds of search, set-up included (tables, pagodas); when they run out (or on Ctrl-C), "
                       "the best answer so far with status 'feasible'. Loading the board and, on the first run after "
                       "install, compiling the search kernel (announced on stderr) come on top.")


@dataclass(frozen=True)
class PuzzlePage:
    """What the workbench needs to render a puzzle without knowing its name: its ``goal`` (one
    line of its rule), its ``clicks``, the ``verdict`` of the live check, its ``steps``, the file
    name of its ``committed`` answer (in ``results/``, and in ``results/<board>/`` for the other
    boards) and the ``boards`` it runs on by default. The solve options it offers are the puzzle's
    own (:attr:`Puzzle.page_options`); :meth:`Puzzle.page_json` is what ``GET /api/meta`` lists."""

    goal: str
    clicks: Clicks
    verdict: Verdict
    steps: Steps
    committed: str
    boards: tuple[str, ...] = DEFAULT_BOARDS


LiveCheck = Callable[[Board, Mapping[str, Any]], dict[str, Any]]
"""A puzzle's live check of an answer built by clicks: the board and the request's fields (the
field the clicks build and the options the page sends) -> the verdict the page shows."""


@dataclass(frozen=True)
class Puzzle:
    """A registered puzzle: everything the toolkit knows of it, each fact once.

    ``solve(board, **options) -> dict`` returns the result object;
    ``check(data, board) -> CheckReport`` checks a parsed solution file (with ``base=`` the
    folder of the file when ``reads_files``: certificates name files relative to it);
    ``diagram(data, board, **draw_options) -> matplotlib figure`` draws one (imported lazily by
    the caller); ``draw_options`` names the keywords it takes (``names``: what is written beside
    every node, ``"labels"``, ``"ids"`` or None, each diagram with its own default;
    ``all_answers``: every optimal answer the file lists); the CLI refuses the others;
    ``results(out_dir, progress) -> list[ResultRow]`` is this puzzle's part of the main job.
    ``options`` are the solve options it takes (:class:`Option`: the command line's flags, the
    page's controls and the recorded fields of its answer files are made from them); ``answer``
    is the shape of its answer file (:mod:`.schemas`; :attr:`schema` adds the recorded options);
    ``page`` describes it for the workbench (:class:`PuzzlePage`) and ``live_check`` checks the
    answer its clicks build (:data:`LiveCheck`); ``record(data) -> dict``, for a puzzle whose answer
    is a whole game, is the game record an answer file holds (``powertwo validate`` replays it).
    """

    name: str
    title: str
    solve: Callable[..., dict[str, Any]]
    check: Callable[[Mapping[str, Any], Board], CheckReport]
    diagram: Callable[..., Any] | None = None
    results: Callable[[Path, Progress], list[ResultRow]] | None = None
    options: tuple[Option, ...] = ()
    order: int = 100
    draw_options: tuple[str, ...] = ("names",)
    reads_files: bool = False
    answer: type[RunFacts] = RunFacts
    page: PuzzlePage | None = None
    live_check: LiveCheck | None = None
    record: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        names = [o.name for o in self.options]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise PageError(f"puzzle {self.name}: option {twice[0]} is declared twice")

    @property
    def option_names(self) -> tuple[str, ...]:
        """The solve keywords it takes."""
        return tuple(o.name for o in self.options)

    def option(self, name: str) -> Option | None:
        """Its option ``name``, or None."""
        return next((o for o in self.options if o.name == name), None)

    @property
    def page_options(self) -> tuple[Option, ...]:
        """The options its workbench page offers."""
        return tuple(o for o in self.options if o.page)

    def page_json(self) -> dict[str, Any]:
        """Its page description with the options it offers: what ``GET /api/meta`` lists."""
        from dataclasses import asdict

        if self.page is None:
            raise PageError(f"puzzle {self.name} has no page description")
        return {**asdict(self.page), "options": [o.to_json() for o in self.page_options]}

    @property
    def schema(self) -> type[RunFacts]:
        """The shape of its answer files: :attr:`answer`, with a typed field for each recorded option."""
        return answer_schema(self.answer, tuple((o.name, o.kind, o.words) for o in self.options if o.recorded))


PUZZLES: dict[str, Puzzle] = {}

PUZZLE_MODULES: Mapping[str, tuple[str, ...]] = {
    "lines": ("one-by-one", "line-cover", "two-by-two"),
    "thats_my_line": ("thats-my-line",),
    "jump": ("jump-forward", "jump-reverse"),
}
"""The puzzle packages (``powertwo.solvers.<name>``, in the order of RULES.md section 5; importing
one registers its puzzles) and the puzzles each registers, so that looking up one puzzle imports
only its package (the line puzzles' package loads OR-Tools: seconds of every ``powertwo solve
jump-reverse`` otherwise). A test checks it against what the packages register; a puzzle
registered from elsewhere (a plug-in, a test) is found once registered."""


RESULTS_PACKAGE = "powertwo.results"
"""The package whose data are the committed answers and the certificate files they name (the
repository's ``results/`` folder)."""


def results_dir() -> Path | None:
    """The folder of the committed answers (``results/``, installed as :data:`RESULTS_PACKAGE`;
    ``results/<board>/`` for the boards beside the default), or None where this installation has
    none."""
    from importlib import resources

    try:
        folder = Path(str(resources.files(RESULTS_PACKAGE)))
    except (ModuleNotFoundError, TypeError):
        return None
    return folder if folder.is_dir() else None


def committed_answer(puzzle: Puzzle, board: Board, strict: bool = False) -> dict[str, Any] | None:
    """The committed answer of ``puzzle`` (the file its page names, its strict variant's beside it)
    among the committed results (:func:`results_dir`; ``<board>/`` for boards other than the
    default), when there is one made for ``board`` (by its fingerprint)."""
    results = results_dir()
    if results is None or puzzle.page is None:
        return None
    name = puzzle.page.committed
    if strict:
        name = name.removesuffix(".json") + "-strict.json"
    path = (results if board.name == DEFAULT_BOARDS[0] else results / board.name) / name
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("board_fingerprint") != board.fingerprint:
        return None
    return data


def register_puzzle(puzzle: Puzzle) -> Puzzle:
    PUZZLES[puzzle.name] = puzzle
    return puzzle


def _import_all() -> None:
    from importlib import import_module

    for module in PUZZLE_MODULES:
        import_module(f"powertwo.solvers.{module}")


def puzzle_names() -> tuple[str, ...]:
    _import_all()
    return tuple(sorted(PUZZLES, key=lambda k: (PUZZLES[k].order, k)))


def get_puzzle(name: str) -> Puzzle:
    from importlib import import_module

    if name not in PUZZLES:
        home = next((module for module, names in PUZZLE_MODULES.items() if name in names), None)
        if home is not None:
            import_module(f"powertwo.solvers.{home}")
    if name not in PUZZLES:
        _import_all()
    if name not in PUZZLES:
        raise SolutionError(f"unknown puzzle {name!r} (known: {', '.join(puzzle_names())})")
    return PUZZLES[name]


def check_answer_shape(data: Mapping[str, Any], where: str, board: Board | None = None) -> None:
    """Refuse (one :class:`SolutionError` naming the field's path) an answer file whose shape no
    run of its puzzle can write (its puzzle's :attr:`Puzzle.schema`; an unknown puzzle: the run
    facts only), before its checker does any work."""
    name = data.get("puzzle")
    try:
        model = get_puzzle(name).schema if isinstance(name, str) else RunFacts
    except SolutionError:
        model = RunFacts
    check_shape(data, where, model, board)


def read_json_file(path: str | Path) -> Any:
    """A JSON file through the one safe reader (size, depth and digit limits), or a
    :class:`SolutionError` saying why it cannot be read."""
    return read_json(path, SolutionError)


def solution_board(data: Mapping[str, Any], where: str, board: Board | None = None) -> Board:
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


def answer_record(data: Mapping[str, Any], where: str) -> dict[str, Any]:
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
    (:func:`refuse_if_valid_elsewhere`); valid on one, it is refused in one line naming it
    (``f.json: not valid on power-of-two; valid on power-of-two-sketch (made before the default
    board changed?): pass --board power-of-two-sketch``), since a file made before the default
    board changed names ``power-of-two`` and means the sketch."""
    path = Path(path)
    data, check_on = file_checker(path)
    judged = solution_board(data, str(path), board)
    return checked_where_made(data, str(path), judged, check_on, tried_elsewhere=board is None)


def file_checker(path: Path) -> tuple[dict[str, Any], Callable[[Board], CheckReport]]:
    """A solution file read, and its check on a given board (the file's shape, then its puzzle's
    checker, which reads the certificate files it names beside the file)."""
    data = read_json_file(path)
    if not isinstance(data, dict) or "puzzle" not in data:
        raise SolutionError(f"{path}: not a solution file (no field 'puzzle')")
    if not isinstance(data["puzzle"], str):
        raise SolutionError(f"{path}: field 'puzzle' must be a string")
    puzzle = get_puzzle(data["puzzle"])

    def check_on(on: Board) -> CheckReport:
        check_answer_shape(data, str(path), on)
        if puzzle.reads_files:
            return puzzle.check(data, on, base=path.parent)  # type: ignore[call-arg]
        return puzzle.check(data, on)

    return data, check_on


BOARD_OPTION = "pass --board {board}"
"""What the command line tells a user to do about a file valid only on another board."""


def checked_where_made(data: Mapping[str, Any], where: str, judged: Board, check_on: Callable[[Board], CheckReport],
                       tried_elsewhere: bool = True, action: str = BOARD_OPTION) -> CheckReport:
    """``check_on(judged)``; when it fails (faults or a refusal) and ``tried_elsewhere``, first
    :func:`refuse_if_valid_elsewhere`. Every caller that checks an answer file (``check``, ``draw``,
    the workbench's upload) goes through here, so each gives the same one line."""
    try:
        report = check_on(judged)
    except SolutionError:
        if tried_elsewhere:
            refuse_if_valid_elsewhere(data, where, judged, check_on, action)
        raise
    if not report.valid and tried_elsewhere:
        refuse_if_valid_elsewhere(data, where, judged, check_on, action)
    return report


def refuse_if_valid_elsewhere(data: Mapping[str, Any], where: str, judged: Board,
                              check_on: Callable[[Board], CheckReport], action: str = BOARD_OPTION) -> None:
    """For an answer file without a board fingerprint that failed on ``judged``: a
    :class:`SolutionError` in one line when it is valid on another shipped board of that kind
    (:func:`powertwo.boards.valid_elsewhere`): ``where: not valid on power-of-two; valid on
    power-of-two-sketch (made before the default board changed?): pass --board power-of-two-sketch``
    (``action`` with ``{board}``: what the user does about it where they are)."""
    if data.get("board_fingerprint") is not None:
        return
    found = valid_elsewhere(judged, lambda on: _valid_on(check_on, on))
    if found is not None:
        raise SolutionError(f"{where}: {found[1]}: {action.format(board=found[0].name)}")


def refuse_if_made_elsewhere(data: Mapping[str, Any], where: str, judged: Board,
                             check_on: Callable[[Board], CheckReport], action: str = BOARD_OPTION) -> None:
    """:func:`refuse_if_valid_elsewhere` for a caller that has not checked the file yet (``draw``
    draws an answer whatever its check says): a file without a fingerprint is checked on ``judged``
    first, and only when it fails there are the other boards of its kind tried."""
    if data.get("board_fingerprint") is None and not _valid_on(check_on, judged):
        refuse_if_valid_elsewhere(data, where, judged, check_on, action)


def _valid_on(check_on: Callable[[Board], CheckReport], board: Board) -> bool:
    try:
        return check_on(board).valid
    except SolutionError:
        return False
