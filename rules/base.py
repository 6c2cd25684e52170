"""The shared referee interface: one :class:`Game` per rule set, immutable states.

Modelled on python-chess (pseudo-legal generation plus a legality filter,
``ValueError`` subclasses that show the input and the reason, variants found
through a registry) and OpenSpiel's Python games (one file per game: constants,
metadata, state, legal actions / apply / terminal / returns, helpers).

A game module subclasses :class:`Game`, decorates it with :func:`register`,
and overrides the hooks marked *hook*. Everything else (legal-move listing,
applying with error reporting, perft, game records and their validation) is
shared here.

Players are ``0`` (Light / White / player 1, who moves first unless an option
says otherwise) and ``1`` (Dark / Black / player 2). A state is a frozen
dataclass with at least the fields ``to_move`` and ``ply`` (moves made so far).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Hashable, Iterable, Iterator, Mapping

from powertwo.boards import Board, BoardError, load as load_board

Player = int
Move = Hashable
"""A game's own move value (a frozen dataclass); formatted and parsed by the game."""


class RulesError(ValueError):
    """Base of every error the referee raises; the message is one line a person can read."""


class InvalidMoveError(RulesError):
    """The move text cannot be read (syntax, unknown node)."""


class IllegalMoveError(RulesError):
    """The move breaks a rule. Carries the move text, the player, the move number and the reason.

    ``str(err)`` reads ``move 12 (Dark) 31-28: destination 28 is occupied``.
    """

    def __init__(self, reason: str, *, move: str = "", player: str = "", number: int | None = None):
        self.reason = reason
        self.move = move
        self.player = player
        self.number = number
        super().__init__(self._text())

    def _text(self) -> str:
        head = []
        if self.number is not None:
            head.append(f"move {self.number}")
        if self.player:
            head.append(f"({self.player})")
        if self.move:
            head.append(self.move)
        return (" ".join(head) + ": " if head else "") + self.reason

    def located(self, *, move: str | None = None, player: str | None = None,
                number: int | None = None) -> "IllegalMoveError":
        return IllegalMoveError(self.reason, move=self.move if move is None else move,
                                player=self.player if player is None else player,
                                number=self.number if number is None else number)


class RecordError(RulesError):
    """A game record or position file is malformed (bad JSON, unknown game, missing field...)."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: ``winner`` is a player, or ``None`` for a draw; ``reason`` says why."""

    winner: Player | None
    reason: str

    @property
    def draw(self) -> bool:
        return self.winner is None


@dataclass(frozen=True)
class Option:
    """A rule option of a game: its name (``exact_reserve``), default and help text."""

    name: str
    default: Any
    help: str
    choices: tuple | None = None

    @property
    def is_flag(self) -> bool:
        """A yes/no option (default ``False`` or ``True``): the CLI offers it as ``--name`` / ``--no-name``."""
        return isinstance(self.default, bool)

    def coerce(self, value: Any) -> Any:
        """``"true"``/``"false"`` (and yes/no, on/off, 1/0) for a yes/no option; other values unchanged."""
        if self.is_flag and isinstance(value, (str, int)) and not isinstance(value, bool):
            text = str(value).strip().lower()
            return {"true": True, "yes": True, "on": True, "1": True,
                    "false": False, "no": False, "off": False, "0": False}.get(text, value)
        return value


class Game:
    """A rule set on a board, with its options; stateless apart from them.

    Subclasses set the class attributes and override the hooks.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    board_name: ClassVar[str] = ""
    player_names: ClassVar[tuple[str, str]] = ("Light", "Dark")
    options_spec: ClassVar[tuple[Option, ...]] = ()
    default_start: ClassVar[str] = "standard"
    notation_help: ClassVar[str] = ""

    def __init__(self, board: Board | None = None, **options: Any):
        self.board = board if board is not None else load_board(self.board_name)
        known = {o.name: o for o in self.options_spec}
        for key in options:
            if key not in known:
                raise RecordError(f"game {self.name}: unknown option {key!r} (known: {', '.join(known) or 'none'})")
        self.options = {o.name: o.coerce(options[o.name]) if o.name in options else o.default
                        for o in self.options_spec}
        for key, value in self.options.items():
            opt = known[key]
            if opt.choices is not None and value not in opt.choices:
                raise RecordError(f"game {self.name}: option {key} must be one of {list(opt.choices)}, not {value!r}")

    # ------------------------------------------------------------ hooks
    def start(self, start: str | None = None, **kwargs: Any):
        """*hook*: the start position named ``start`` (default :attr:`default_start`)."""
        raise NotImplementedError

    def pseudo_legal_moves(self, state) -> Iterator[Move]:
        """*hook*: candidate moves; :meth:`legal_moves` keeps those :meth:`illegality` accepts.
        A game whose generator is already exact returns the legal moves here and
        leaves :meth:`is_pseudo_exact` true."""
        raise NotImplementedError

    is_pseudo_exact: ClassVar[bool] = True

    def illegality(self, state, move: Move) -> str | None:
        """*hook*: why ``move`` is illegal in ``state`` (a reason a person understands), or ``None``."""
        raise NotImplementedError

    def _apply(self, state, move: Move):
        """*hook*: the state after a move already known to be legal."""
        raise NotImplementedError

    def outcome(self, state) -> Outcome | None:
        """*hook*: ``None`` while the game goes on."""
        raise NotImplementedError

    def parse_move(self, text: str, state=None) -> Move:
        """*hook*: read the notation; raise :class:`InvalidMoveError` on bad syntax."""
        raise NotImplementedError

    def format_move(self, move: Move, state=None) -> str:
        """*hook*: the notation of a move."""
        raise NotImplementedError

    def state_to_json(self, state) -> dict:
        """*hook*: a JSON object for the position (with ``"game"``)."""
        raise NotImplementedError

    def state_from_json(self, data: Mapping) -> Any:
        """*hook*: the position from its JSON object; raise :class:`RecordError` naming the bad field."""
        raise NotImplementedError

    def render_text(self, state) -> str:
        """*hook*: the position as text, for ``powertwo play``."""
        raise NotImplementedError

    def diagram(self, state, last_move: Move | None = None) -> dict:
        """*hook*: keyword arguments for :func:`powertwo.boards.draw.draw_on` (stones, arrows, title...).
        Returns plain data; the caller imports the drawing module."""
        raise NotImplementedError

    start_names: ClassVar[tuple[str, ...]] = ()
    """Named start positions that need no further arguments (for listings and tests)."""

    def notes(self, state) -> list[str]:
        """Optional *hook*: remarks on a position that are no part of the outcome
        (David and Goliath's separation report). Default: none."""
        return []

    # ------------------------------------------------------------ shared
    def player_name(self, player: Player) -> str:
        return self.player_names[player]

    def legal_moves(self, state) -> list[Move]:
        """Every legal move (none once the game is over), in the generator's order."""
        if self.outcome(state) is not None:
            return []
        moves = self.pseudo_legal_moves(state)
        if self.is_pseudo_exact:
            return list(moves)
        return [m for m in moves if self.illegality(state, m) is None]

    def first_legal_moves(self, state, limit: int) -> list[Move]:
        """Up to ``limit`` legal moves in the generator's order, without listing them all
        (for games whose :meth:`legal_moves` refuses positions with too many moves)."""
        if self.outcome(state) is not None:
            return []
        out = []
        for move in self.pseudo_legal_moves(state):
            if self.is_pseudo_exact or self.illegality(state, move) is None:
                out.append(move)
                if len(out) >= limit:
                    break
        return out

    def is_legal(self, state, move: Move) -> bool:
        return self.reason_illegal(state, move) is None

    def reason_illegal(self, state, move: Move) -> str | None:
        out = self.outcome(state)
        if out is not None:
            return f"the game is over ({out.reason})"
        return self.illegality(state, move)

    def apply(self, state, move: Move):
        """The state after ``move``; raises :class:`IllegalMoveError` with the reason."""
        reason = self.reason_illegal(state, move)
        if reason is not None:
            raise IllegalMoveError(reason, move=self.format_move(move, state),
                                   player=self.player_name(state.to_move), number=state.ply + 1)
        return self._apply(state, move)

    def play(self, state, text: str):
        """Parse and apply one move written in notation."""
        return self.apply(state, self.parse_move(text, state))

    def perft(self, state, depth: int) -> int:
        """Number of legal move sequences of exactly ``depth`` moves (a finished game has none)."""
        if depth < 0:
            raise ValueError("perft depth must be at least 0")
        if depth == 0:
            return 1
        moves = self.legal_moves(state)
        if depth == 1:
            return len(moves)
        return sum(self.perft(self._apply(state, m), depth - 1) for m in moves)

    # ------------------------------------------------------------ records
    def record(self, moves: Iterable[str], *, start: str | None = None, position: dict | None = None) -> dict:
        """A game record object (see :func:`validate_record`)."""
        out: dict[str, Any] = {"game": self.name}
        non_default = {k: v for k, v in self.options.items()
                       if v != next(o.default for o in self.options_spec if o.name == k)}
        if non_default:
            out["options"] = non_default
        if position is not None:
            out["position"] = position
        else:
            out["start"] = start or self.default_start
        out["moves"] = list(moves)
        return out


REGISTRY: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game known by its :attr:`Game.name`."""
    REGISTRY[cls.name] = cls
    return cls


def game_names() -> tuple[str, ...]:
    _import_all()
    return tuple(REGISTRY)


def get_game(name: str, board: Board | None = None, **options: Any) -> Game:
    """The game called ``name`` with its options; :class:`RecordError` if unknown."""
    _import_all()
    if name not in REGISTRY:
        raise RecordError(f"unknown game {name!r} (known: {', '.join(REGISTRY)})")
    return REGISTRY[name](board, **options)


def _import_all() -> None:
    import powertwo.rules  # noqa: F401  (importing the package registers every game module)


# ---------------------------------------------------------------- game records
@dataclass(frozen=True)
class RecordResult:
    """What a valid record comes to: the final state, the moves played, and the outcome."""

    game: Game
    states: tuple
    moves: tuple
    outcome: Outcome | None

    @property
    def final(self):
        return self.states[-1]


def parse_record(data: Any, where: str = "record") -> tuple[Game, Any, list]:
    """Read a record object: ``{"game", "options"?, "start"? | "position"?, "moves": [...]}``."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            msg = getattr(exc, "msg", str(exc))
            raise RecordError(f"{where}: not valid JSON ({msg})") from None
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a game record must be a JSON object")
    if "game" not in data:
        raise RecordError(f"{where}: missing field 'game'")
    if not isinstance(data["game"], str):
        raise RecordError(f"{where}: field 'game' must be a string")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"{where}: field 'options' must be an object")
    board = None
    if "board" in data and data["board"] is not None:
        if not isinstance(data["board"], str):
            raise RecordError(f"{where}: field 'board' must be a board name or file")
        try:
            board = load_board(data["board"])
        except BoardError as exc:
            raise RecordError(f"{where}: {exc}") from None
    game = get_game(data["game"], board, **options)
    if "position" in data and data["position"] is not None:
        if not isinstance(data["position"], dict):
            raise RecordError(f"{where}: field 'position' must be an object")
        state = game.state_from_json(data["position"])
    else:
        start = data.get("start", game.default_start)
        if not isinstance(start, str):
            raise RecordError(f"{where}: field 'start' must be a string")
        try:
            state = game.start(start)
        except BoardError as exc:
            raise RecordError(f"{where}: {exc}") from None
    moves = data.get("moves")
    if moves is None:
        raise RecordError(f"{where}: missing field 'moves'")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(f"{where}: field 'moves' must be a list of move strings")
    return game, state, moves


def validate_record(data: Any, where: str = "record") -> RecordResult:
    """Replay a record; stop at the first bad move with an error naming it.

    Raises :class:`RecordError` for a malformed record, :class:`InvalidMoveError`
    or :class:`IllegalMoveError` (with move number and player) for the first bad move.
    """
    game, state, texts = parse_record(data, where)
    states = [state]
    moves = []
    for text in texts:
        number = state.ply + 1
        player = game.player_name(state.to_move)
        shown = text if text.isprintable() else repr(text)  # keep the error on one line
        try:
            move = game.parse_move(text, state)
        except InvalidMoveError as exc:
            raise InvalidMoveError(f"move {number} ({player}) {shown}: {exc}") from None
        try:
            state = game.apply(state, move)
        except IllegalMoveError as exc:
            raise exc.located(move=shown, player=player, number=number) from None
        states.append(state)
        moves.append(move)
    return RecordResult(game, tuple(states), tuple(moves), game.outcome(state))


# ---------------------------------------------------------------- helpers for game modules
PLAYER_KEYS: tuple[str, str] = ("light", "dark")
"""How players are written in position JSON (``"to_move": "light"``)."""


def player_to_json(player: Player) -> str:
    return PLAYER_KEYS[player]


def player_from_json(value: Any, where: str) -> Player:
    """``"light"``/``"dark"`` (or 0/1) to a player; :class:`RecordError` naming ``where`` otherwise."""
    if isinstance(value, str) and value.lower() in PLAYER_KEYS:
        return PLAYER_KEYS.index(value.lower())
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return value
    raise RecordError(f"{where}: must be 'light' or 'dark', not {value!r}")


def node_from_json(board: Board, value: Any, where: str) -> int:
    """One node of a position file (id or label); :class:`RecordError` naming ``where`` otherwise."""
    if not isinstance(value, (int, str)) or isinstance(value, bool):
        raise RecordError(f"{where}: {value!r} is not a node")
    try:
        return board.node(value)
    except BoardError as exc:
        raise RecordError(f"{where}: {exc}") from None


def nodes_from_json(board: Board, value: Any, where: str) -> frozenset[int]:
    """A list of distinct nodes of a position file; :class:`RecordError` naming ``where`` otherwise."""
    if not isinstance(value, list):
        raise RecordError(f"{where}: must be a list of nodes")
    nodes = [node_from_json(board, v, where) for v in value]
    if len(set(nodes)) != len(nodes):
        dup = next(v for v in nodes if nodes.count(v) > 1)
        raise RecordError(f"{where}: node {board.label(dup)} is listed twice")
    return frozenset(nodes)


def int_from_json(value: Any, where: str, low: int = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f"at least {low}"
        raise RecordError(f"{where}: must be an integer {span}, not {value!r}")
    return value


def check_position_game(game: Game, data: Any) -> None:
    """A position object must be a JSON object; its optional ``"game"`` must name ``game``."""
    if not isinstance(data, Mapping):
        raise RecordError(f"position: must be a JSON object, not {type(data).__name__}")
    if "game" in data and data["game"] != game.name:
        raise RecordError(f"position: field 'game' is {data['game']!r}, expected {game.name!r}")


def node_from_text(board: Board, text: str) -> int:
    """A node written in a move; :class:`InvalidMoveError` for an unknown node."""
    try:
        return board.node(text)
    except BoardError:
        raise InvalidMoveError(f"unknown node {text!r}") from None


def text_picture(board: Board, cells: Mapping[int, str], *, x_scale: float = 9, y_scale: float = 2.5) -> str:
    """The board as text: every node at its (scaled) coordinates, written as ``cells[node]``
    or, when absent, its label; right-aligned in 3 characters. For ``powertwo play``."""
    xs = [x for x, _ in board.coords]
    ys = [y for _, y in board.coords]
    x0, y1 = min(xs), max(ys)
    rows: dict[int, list[tuple[int, str]]] = {}
    for v in board.nodes:
        x, y = board.coord(v)
        rows.setdefault(round((y1 - y) * y_scale), []).append((round((x - x0) * x_scale), cells.get(v, board.label(v))))
    out = []
    for r in range(max(rows) + 1):
        line: list[str] = []
        for col, text in sorted(rows.get(r, [])):
            pad = col + 3 - len(text) - len("".join(line))
            line.append(" " * max(pad, 1 if line else 0) + text)
        out.append("".join(line).rstrip())
    return "\n".join(out)


# helpers shared by the square-board games (position files, players by name, square order)
def square_key(label: str) -> tuple[int, str]:
    """Sort key of a square name: rank, then file."""
    return (int(label[1:]), label[0])


def read_json_file(path: str) -> Any:
    """A position file's JSON; :class:`RecordError` naming the file if unreadable."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: cannot read ({exc.__class__.__name__})") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not valid JSON ({exc.msg})") from None


def player_field(data: Mapping, names: tuple[str, str], where: str = "position") -> int:
    """The player named in the field ``to_move`` (default: the first player)."""
    value = data.get("to_move", names[0])
    if value not in names:
        raise RecordError(f"{where}: field 'to_move' must be one of {list(names)}, not {value!r}")
    return names.index(value)


def ply_field(data: Mapping) -> int:
    """The field ``ply`` (default 0)."""
    ply = data.get("ply", 0)
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise RecordError(f"position: field 'ply' must be a whole number >= 0, not {ply!r}")
    return ply
