"""The shared referee interface: one :class:`Game` per rule set, immutable states.

Modelled on python-chess (exact move generation, a separate reason why a given move is
illegal, a lazy view of the legal moves with ``count()``, ``ValueError`` subclasses that show the
input and the reason, variants found through a registry) and OpenSpiel's Python
games (one file per game, every file in the same order).

A game module subclasses ``Game[State, Move]``, decorates it with :func:`register`,
and overrides the hooks marked *hook*. Everything else (the legal-move view and list,
applying with error reporting, the wrong-move-type guard, perft, position-file
helpers, game records and their validation) is shared here.

The convention every game module follows (checked for every registered game by
``tests/test_rules_conformance.py``): constants; the state and move values (frozen
dataclasses, the state named ``<GameClass>State`` with at least ``to_move`` and
``ply``, a move between two nodes with fields ``frm`` and ``to``); the game class
(metadata, tables built from the board on first use, start, legal moves, legality,
apply, outcome, notation, JSON, display); helpers. Players are ``0`` (Light / White /
player 1, who moves first unless an option says otherwise) and ``1`` (Dark / Black /
player 2), written in position JSON by :attr:`Game.player_keys`. Nodes are read by
id or label everywhere. The rules layer reads no files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice
from typing import Any, Callable, ClassVar, Generic, Hashable, Iterable, Iterator, Mapping, Protocol, Sequence, TypeVar

from powertwo.boards import (MAX_NODE_NAME, Board, BoardError, NodeError, NodeId, load as load_board, read_node,
                             shipped_with, valid_elsewhere)
from powertwo.boards.jsonfile import loads as json_loads, short_value, validated
from powertwo.boards.words import counted, plural
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, create_model, model_validator

Player = int


class GameState(Protocol):
    """What the shared code reads of every state: whose turn, and how many moves were made."""

    @property
    def to_move(self) -> Player: ...

    @property
    def ply(self) -> int: ...


S = TypeVar("S", bound=GameState)
"""A game's state type."""
M = TypeVar("M", bound=Hashable)
"""A game's move type."""


class RulesError(ValueError):
    """Base of every error the referee raises; the message is one line a person can read."""


class InvalidMoveError(RulesError):
    """The move text cannot be read (syntax, unknown node)."""


class IllegalMoveError(RulesError):
    """The move breaks a rule. Carries the move text, the player, the move number and the reason.

    ``str(err)`` reads ``move 12 (Dark) d7-c6: destination c6 is occupied``.
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
class ClickOptions:
    """What may follow a prefix of clicks (see :meth:`Game.click_options`): the nodes that may be
    clicked next, and the legal moves whose clicks are exactly the prefix (a move may be complete
    while longer moves still continue it, e.g. a Tower of Power step and a tower move)."""

    next: frozenset[int]
    complete: tuple[Any, ...]


@dataclass(frozen=True)
class Option:
    """A rule option of a game: its name (``exact_reserve``), default and help text."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    parse: Callable[[Any], Any] | None = None
    """Reads a given value into the option's value (``"5"`` -> 5); raises :class:`ValueError`
    with the reason (``must be a whole number >= 0, not -1``)."""

    def to_json(self) -> dict[str, Any]:
        """The option as the workbench offers it: name, default, help and choices (``None``: free text)."""
        return {"name": self.name, "default": self.default, "help": self.help,
                "choices": None if self.choices is None else list(self.choices)}

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


class LegalMoves(Generic[M]):
    """The legal moves of a position as a lazy view (python-chess's ``board.legal_moves``):
    iterate it, ``count()`` it (a game may count without building the moves), test ``move in
    view``, take the ``first(n)``; nothing is listed until asked for."""

    def __init__(self, game: "Game[Any, M]", state: Any):
        self.game = game
        self.state = state

    def __iter__(self) -> Iterator[M]:
        game, state = self.game, self.state
        if game.outcome(state) is not None:
            return
        yield from game.pseudo_legal_moves(state)

    def count(self) -> int:
        """How many legal moves (none once the game is over), by the game's :meth:`Game.count_moves`."""
        if self.game.outcome(self.state) is not None:
            return 0
        return self.game.count_moves(self.state)

    def __bool__(self) -> bool:
        return next(iter(self), None) is not None

    def __contains__(self, move: object) -> bool:
        return self.game.reason_illegal(self.state, move) is None

    def first(self, limit: int) -> list[M]:
        """Up to ``limit`` legal moves in the generator's order."""
        return list(islice(self, limit))


class Game(Generic[S, M]):
    """A rule set on a board, with its options; stateless apart from them (tables built from
    the board are cached on first use).

    Subclasses set the class attributes and override the hooks. ``S`` is the game's state
    type, ``M`` its move type; :attr:`move_types` names the move classes at run time, so a
    move of another game is refused with a reason instead of crashing a hook.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    board_name: ClassVar[str] = ""
    player_names: ClassVar[tuple[str, str]] = ("Light", "Dark")
    player_keys: ClassVar[tuple[str, str]] = ("light", "dark")
    """How the players are written in position JSON (``"to_move": "light"``); reading also
    accepts :attr:`player_names` in any case and 0/1."""
    position_fields: ClassVar[tuple[str, ...]] = ()
    """Fields a position object must have (besides the optional ``game``, ``to_move``, ``ply``)."""
    position_extras: ClassVar[tuple[str, ...]] = ()
    """Further fields a position object may have; any other field is refused."""
    move_types: ClassVar[tuple[type, ...]] = ()
    """The classes of this game's moves (the wrong-move-type guard of :meth:`reason_illegal`)."""
    options_spec: ClassVar[tuple[Option, ...]] = ()
    default_start: ClassVar[str] = "standard"
    notation_help: ClassVar[str] = ""
    rules_summary: ClassVar[str] = ""
    """The rules in a player's words (RULES.md's reading, the default options), for the workbench's
    rules panel."""

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
                raise RecordError(f"game {self.name}: option {key} must be one of "
                                  f"{', '.join(short_value(c) for c in opt.choices)}, not {short_value(value)}")
            if opt.parse is not None:
                try:
                    self.options[key] = opt.parse(value)
                except ValueError as exc:
                    raise RecordError(f"game {self.name}: option {key} {exc}") from None

    # ------------------------------------------------------------ hooks
    def start(self, start: str | None = None, **kwargs: Any) -> S:
        """*hook*: the start position named ``start`` (default :attr:`default_start`)."""
        raise NotImplementedError

    def pseudo_legal_moves(self, state: S) -> Iterator[M]:
        """*hook*: the legal moves of a position whose game is not over, each once (every game
        generates them exactly; :meth:`illegality` judges a move given from outside)."""
        raise NotImplementedError

    def illegality(self, state: S, move: M) -> str | None:
        """*hook*: why ``move`` is illegal in ``state`` (a reason a person understands), or ``None``.
        Called only with a move of one of :attr:`move_types`."""
        raise NotImplementedError

    def _apply(self, state: S, move: M) -> S:
        """*hook*: the state after a move already known to be legal."""
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        """*hook*: ``None`` while the game goes on."""
        raise NotImplementedError

    def parse_move(self, text: str, state: S | None = None) -> M:
        """*hook*: read the notation; raise :class:`InvalidMoveError` on bad syntax."""
        raise NotImplementedError

    def format_move(self, move: M, state: S | None = None) -> str:
        """*hook*: the notation of a move."""
        raise NotImplementedError

    def state_to_json(self, state: S) -> dict[str, Any]:
        """*hook*: a JSON object for the position (with ``"game"``)."""
        raise NotImplementedError

    def state_from_json(self, data: Mapping[str, Any]) -> S:
        """*hook*: the position from its JSON object; raise :class:`RecordError` naming the bad field."""
        raise NotImplementedError

    def render_text(self, state: S, last_move: M | None = None) -> str:
        """*hook*: the position as text, for ``powertwo play`` and ``validate --show``; the nodes
        of ``last_move`` (the move that led to ``state``) are marked with ``>`` (see
        :meth:`last_move_nodes`)."""
        raise NotImplementedError

    def diagram(self, state: S, last_move: M | None = None) -> dict[str, Any]:
        """*hook*: keyword arguments for :func:`powertwo.boards.draw.draw_on` (stones, arrows, title,
        legend...) built from the plain values of :mod:`powertwo.boards.diagram`; the caller
        imports the drawing module (matplotlib) only to draw."""
        raise NotImplementedError

    start_names: ClassVar[tuple[str, ...]] = ()
    """Named start positions that need no further arguments (for listings and tests)."""

    def notes(self, state: S) -> list[str]:
        """Optional *hook*: remarks on a position that are no part of the outcome
        (David and Goliath's separation report). Default: none."""
        return []

    def count_moves(self, state: S) -> int:
        """Optional *hook*: the number of legal moves of a position whose game is not over
        (perft's last level); a game that can count without building the moves overrides it."""
        return sum(1 for _ in self.pseudo_legal_moves(state))

    # ------------------------------------------------------------ shared
    def position_caption(self, state: S) -> str:
        """The one move-numbering convention of ``play``, records and diagrams: move N is the
        N-th move of the game, as a record's ``moves[N - 1]``. "after move 4, Light to play move 5"."""
        player = self.player_name(state.to_move)
        done = "start" if state.ply == 0 else f"after move {state.ply}"
        return f"{done}, {player} to play move {state.ply + 1}"

    def last_move_nodes(self, state: S, last_move: M | None) -> frozenset[int]:
        """The nodes a text board marks for the move that led to ``state``: where its arrows
        start and end and what it placed, read from the :meth:`diagram` hook."""
        if last_move is None:
            return frozenset()
        spec = self.diagram(state, last_move)
        nodes = set(spec.get("last", ()))
        for arrow in spec.get("arrows", ()):
            nodes |= {arrow.path[0], arrow.path[-1]}
        return frozenset(nodes)

    def stone_legend(self) -> dict[str, str]:
        """Legend words for the two players' stones (their names in this game)."""
        return {"light": f"{self.player_name(0)} stone", "dark": f"{self.player_name(1)} stone"}

    def player_name(self, player: Player) -> str:
        return self.player_names[player]

    def is_move(self, move: object) -> bool:
        """Whether ``move`` is one of this game's move values (any, if :attr:`move_types` is empty)."""
        return not self.move_types or isinstance(move, self.move_types)

    def moves(self, state: S) -> LegalMoves[M]:
        """The legal moves as a lazy view: iterate, ``count()``, ``in``, ``first(n)``."""
        return LegalMoves(self, state)

    def legal_moves(self, state: S) -> list[M]:
        """Every legal move (none once the game is over), in the generator's order."""
        return list(self.moves(state))

    def is_legal(self, state: S, move: object) -> bool:
        return self.reason_illegal(state, move) is None

    def reason_illegal(self, state: S, move: object) -> str | None:
        if not self.is_move(move):
            return f"not a move of {self.name}: {move!r}"
        out = self.outcome(state)
        if out is not None:
            return f"the game is over ({out.reason})"
        return self.illegality(state, move)  # type: ignore[arg-type]  # is_move checked the type

    def apply(self, state: S, move: M) -> S:
        """The state after ``move``; raises :class:`IllegalMoveError` with the reason."""
        reason = self.reason_illegal(state, move)
        if reason is not None:
            shown = self.format_move(move, state) if self.is_move(move) else repr(move)
            raise IllegalMoveError(reason, move=shown, player=self.player_name(state.to_move), number=state.ply + 1)
        return self._apply(state, move)

    def play(self, state: S, text: str) -> S:
        """Parse and apply one move written in notation."""
        return self.apply(state, self.parse_move(text, state))

    def perft(self, state: S, depth: int) -> int:
        """Number of legal move sequences of exactly ``depth`` moves (a finished game has none);
        the last level is counted by :meth:`count_moves`, the others walk the moves lazily."""
        if depth < 0:
            raise ValueError("perft depth must be at least 0")
        if depth == 0:
            return 1
        view = self.moves(state)
        if depth == 1:
            return view.count()
        return sum(self.perft(self._apply(state, m), depth - 1) for m in view)

    # ------------------------------------------------------------ position JSON
    def check_position(self, data: Any, where: str = "position") -> None:
        """A position object must be a JSON object, its optional ``game`` must name this game and
        every field of :attr:`position_fields` must be there (all missing ones are named)."""
        if not isinstance(data, Mapping):
            raise RecordError(f"{where}: must be a JSON object, not {type(data).__name__}")
        if "game" in data and data["game"] != self.name:
            raise RecordError(f"{where}: field 'game' is {short_value(data['game'])}, expected '{self.name}'")
        missing = [f for f in self.position_fields if f not in data]
        if missing:
            names = ", ".join(repr(f) for f in missing)
            raise RecordError(f"{where}: missing {plural('field', len(missing))} {names}")
        validated(position_model(self), dict(data), where, RecordError)
        if data.get("ply") is not None and data.get("to_move") is not None:
            to_move = self.player_from_json(data["to_move"])
            if data["ply"] % 2 != to_move:
                moves = counted(data["ply"], "move")
                raise RecordError(f"{where}: field 'ply' is {data['ply']}, but after {moves} "
                                  f"{self.player_name(data['ply'] % 2)} is to move, not {self.player_name(to_move)}")

    def player_to_json(self, player: Player) -> str:
        return self.player_keys[player]

    def player_from_json(self, value: Any, where: str = "position field 'to_move'") -> Player:
        """A player written as its key (``"light"``), its name in any case (``"White"``,
        ``"Player 1"``: the spelling of older files) or 0/1; :class:`RecordError` otherwise."""
        if isinstance(value, str):
            text = value.strip().lower()
            for player in (0, 1):
                if text in (self.player_keys[player], self.player_names[player].lower()):
                    return player
        if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
            return value
        raise RecordError(f"{where}: must be '{self.player_keys[0]}' or '{self.player_keys[1]}', "
                          f"not {short_value(value)}")

    def to_move_and_ply(self, data: Mapping[str, Any], where: str = "position") -> tuple[Player, int]:
        """The optional fields ``to_move`` (default: the first player) and ``ply`` (default: the
        fewest moves after which that player is to move, 0 or 1)."""
        to_move = self.player_from_json(data.get("to_move", self.player_keys[0]), f"{where} field 'to_move'")
        return to_move, int_from_json(data.get("ply", to_move), f"{where} field 'ply'", high=MAX_PLY)

    def node_from_text(self, text: str) -> NodeId:
        """A node written in a move, by id or label; :class:`InvalidMoveError` for an unknown node."""
        return node_from_text(self.board, text)

    # ------------------------------------------------------------ clicks (the web workbench)
    def move_clicks(self, move: M, state: S | None = None) -> tuple[NodeId, ...]:
        """The nodes a person clicks, in order, to make ``move`` (``()`` for a pass).
        Default: the nodes named in its notation, in the order written."""
        return tuple(self.board.node(token) for token in _CLICK_TOKEN.findall(self.format_move(move, state)))

    def click_options(self, state: S, clicks: Sequence[NodeId]) -> ClickOptions:
        """Which nodes may be clicked after ``clicks``, and which moves they already complete.
        Default: the legal moves whose :meth:`move_clicks` start with ``clicks``. A game with
        too many moves to list overrides it and answers from the prefix alone."""
        prefix = tuple(clicks)
        n = len(prefix)
        following: set[NodeId] = set()
        complete = []
        for move in self.moves(state):
            seq = self.move_clicks(move, state)
            if seq[:n] == prefix:
                if len(seq) == n:
                    complete.append(move)
                else:
                    following.add(seq[n])
        return ClickOptions(frozenset(following), tuple(complete))

    # ------------------------------------------------------------ records
    def record(self, moves: Iterable[str], *, start: str | None = None,
               position: dict[str, Any] | None = None) -> dict[str, Any]:
        """A game record object (see :func:`validate_record`). A game on another board than its
        default names it: ``board`` and ``board_fingerprint``, as answer files do."""
        out: dict[str, Any] = {"game": self.name}
        if self.board.fingerprint != load_board(self.board_name).fingerprint:
            out |= {"board": self.board.name, "board_fingerprint": self.board.fingerprint}
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


_CLICK_TOKEN = re.compile(r"[A-Za-z]*[0-9]+")
"""A node in move notation (``42``, ``b4``, ``e21``): the default click sequence of a move."""

AnyGame = Game[Any, Any]
"""A game of any rules (its states and moves its own)."""

REGISTRY: dict[str, type[AnyGame]] = {}
"""Every game by name. Complete whenever this module can be used: Python runs the package's
``__init__`` (which imports every game module, each registering its game) before any of its
modules, so the look-ups below import nothing (an import here would close a circle)."""


def register(cls: type[AnyGame]) -> type[AnyGame]:
    """Class decorator: make a game known by its :attr:`Game.name`."""
    REGISTRY[cls.name] = cls
    return cls


def game_names() -> tuple[str, ...]:
    return tuple(REGISTRY)


def get_game(name: str, board: Board | None = None, **options: Any) -> AnyGame:
    """The game called ``name`` with its options; :class:`RecordError` if unknown."""
    if name not in REGISTRY:
        raise RecordError(f"unknown game {name!r} (known: {', '.join(REGISTRY)})")
    return REGISTRY[name](board, **options)


# ---------------------------------------------------------------- game records
@dataclass(frozen=True)
class RecordResult:
    """What a valid record comes to: the final state, the moves played, and the outcome."""

    game: AnyGame
    states: tuple[Any, ...]
    moves: tuple[Any, ...]
    outcome: Outcome | None

    @property
    def final(self) -> Any:
        return self.states[-1]


MAX_PLY = 1_000_000
"""The largest move count a position may carry (no game of these rules lasts that long)."""
MAX_MOVES = 100_000
"""The most moves a record may list."""

_STRICT = ConfigDict(extra="forbid", strict=True)


class RecordFile(BaseModel):
    """The fields of a game record (every other field is refused: nothing would check it)."""

    model_config = _STRICT
    game: StrictStr
    board: StrictStr | None = None
    board_fingerprint: StrictStr | None = None
    options: dict[str, Any] = {}
    start: StrictStr | None = None
    position: dict[str, Any] | None = None
    moves: list[StrictStr] = Field(max_length=MAX_MOVES)

    @model_validator(mode="after")
    def _one_start(self) -> "RecordFile":
        if self.start is not None and self.position is not None:
            raise ValueError("give either 'start' or 'position', not both")
        return self


def position_model(game: AnyGame) -> type[BaseModel]:
    """The fields a position of ``game`` may have: :attr:`Game.position_fields` (required, read by
    the game), :attr:`Game.position_extras` (optional), ``game``, ``to_move`` and ``ply``."""
    fields: dict[str, Any] = {name: (Any, ...) for name in game.position_fields}
    fields |= {name: (Any, None) for name in game.position_extras}
    fields |= {"game": (StrictStr | None, None), "to_move": (StrictStr | StrictInt | None, None),
               "ply": (StrictInt | None, Field(default=None, ge=0, le=MAX_PLY))}
    model = _POSITION_MODELS.get(type(game))
    if model is None:
        model = _POSITION_MODELS[type(game)] = create_model(f"{type(game).__name__}Position", __config__=_STRICT,
                                                            **fields)
    return model


_POSITION_MODELS: dict[type, type[BaseModel]] = {}


def record_object(data: Any, where: str = "record") -> dict[str, Any]:
    """A record given as a JSON object, or as its text (``str`` or UTF-8 ``bytes``), as a dict."""
    if isinstance(data, (str, bytes)):
        try:
            text = data.decode("utf-8") if isinstance(data, bytes) else data
        except UnicodeDecodeError:
            raise RecordError(f"{where}: not valid JSON (not UTF-8)") from None
        data = json_loads(text, where, RecordError)
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a game record must be a JSON object")
    return data


def parse_record(data: Any, where: str = "record") -> tuple[AnyGame, Any, list[Any]]:
    """Read a record object: ``{"game", "board"?, "board_fingerprint"?, "options"?, "start"? |
    "position"?, "moves": [...]}`` (see :func:`record_board` for the fingerprint)."""
    data = record_object(data, where)
    if "game" not in data:
        raise RecordError(f"{where}: missing field 'game'")
    if not isinstance(data["game"], str):
        raise RecordError(f"{where}: field 'game' must be a string")
    moves = data.get("moves")
    if moves is None:
        raise RecordError(f"{where}: missing field 'moves'")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(f"{where}: field 'moves' must be a list of move strings")
    validated(RecordFile, data, where, RecordError)
    options = data.get("options", {})
    board = None
    if "board" in data and data["board"] is not None:
        if not isinstance(data["board"], str):
            raise RecordError(f"{where}: field 'board' must be a board name or file")
        try:
            board = load_board(data["board"])
        except BoardError as exc:
            raise RecordError(f"{where}: {exc}") from None
    game = get_game(data["game"], board, **options)
    record_board(data, game.board, where)
    if "position" in data and data["position"] is not None:
        try:
            state = game.state_from_json(data["position"])
        except RecordError as exc:
            raise RecordError(f"{where}: {exc}") from None
    else:
        start = data.get("start", game.default_start)
        if not isinstance(start, str):
            raise RecordError(f"{where}: field 'start' must be a string")
        try:
            state = game.start(start)
        except BoardError as exc:
            raise RecordError(f"{where}: {exc}") from None
    return game, state, data["moves"]


def record_board(data: Mapping[str, Any], board: Board, where: str = "record") -> None:
    """A record that carries ``board_fingerprint`` is judged only against the board it was made
    for: refuse it, naming that board, when ``board`` (the one it names, or the game's default)
    has another fingerprint. A record without one is judged against ``board``."""
    fingerprint = data.get("board_fingerprint")
    if fingerprint is None:
        return
    if not isinstance(fingerprint, str):
        raise RecordError(f"{where}: field 'board_fingerprint' must be a string")
    if fingerprint == board.fingerprint:
        return
    made_for = shipped_with(fingerprint)
    if made_for is not None:
        raise RecordError(f"{where}: made for board {made_for}, not for {board.name} "
                          f"(name it in field 'board')")
    raise RecordError(f"{where}: made for a board with fingerprint {fingerprint}, but {board.name} has "
                      f"fingerprint {board.fingerprint}; name the board file it was made for in field 'board'")


def validate_record(data: Any, where: str = "record") -> RecordResult:
    """Replay a record; stop at the first bad move with an error naming it.

    Raises :class:`RecordError` for a malformed record, :class:`InvalidMoveError`
    or :class:`IllegalMoveError` (with move number and player) for the first bad move. A record
    without ``board_fingerprint`` that is illegal on its board but legal on another shipped board
    of that kind (:func:`powertwo.boards.valid_elsewhere`) raises one :class:`RecordError` naming
    that board instead, with the first bad move on its own board (a short record may well be legal
    on another board by chance): ``game.json: not valid on power-of-two (move 1 (Light) 42-31 +28:
    ...); valid on power-of-two-sketch (made before the default board changed?): name it in the
    record's field 'board'``.
    """
    data = record_object(data, where)
    game, state, texts = parse_record(data, where)
    try:
        return replay(game, state, texts)
    except (InvalidMoveError, IllegalMoveError) as exc:
        if data.get("board_fingerprint") is None:
            found = valid_elsewhere(game.board, lambda other: valid_record(dict(data, board=other.name), where),
                                    str(exc))
            if found is not None:
                raise RecordError(f"{where}: {found[1]}: name it in the record's field 'board'") from None
        raise


def valid_record(data: Any, where: str) -> bool:
    """Whether a record replays without an error."""
    try:
        replay(*parse_record(data, where))
    except RulesError:
        return False
    return True


def replay(game: AnyGame, state: Any, texts: list[Any]) -> RecordResult:
    """The record's moves played from ``state``; the first bad move raises, naming it."""
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
            raise exc.located(move=in_labels(game, shown, move, state), player=player, number=number) from None
        states.append(state)
        moves.append(move)
    return RecordResult(game, tuple(states), tuple(moves), game.outcome(state))


def in_labels(game: AnyGame, text: str, move: Any, state: Any) -> str:
    """A record's move as written, followed by its notation in labels when it names a node by an
    id that is not its label: ``42-31 +26 (e9-d7 +c6)``; errors then read as the board does."""
    labels = set(game.board.labels)
    if all(number in labels for number in _BARE_NUMBER.findall(text)):
        return text
    return f"{text} ({game.format_move(move, state)})"


_BARE_NUMBER = re.compile(r"(?<![\w:])\d+(?!\w)")
"""A node written by its id in move text (``42`` in ``42-31 +26``; not the ``3`` of ``a2:3-a5``)."""


# ---------------------------------------------------------------- helpers for game modules
def node_from_json(board: Board, value: Any, where: str) -> int:
    """One node of a position file (id or label); :class:`RecordError` naming ``where`` otherwise."""
    try:
        return read_node(board, value, where)
    except NodeError as exc:
        raise RecordError(str(exc)) from None


def nodes_from_json(board: Board, value: Any, where: str) -> frozenset[int]:
    """A list of distinct nodes of a position file; :class:`RecordError` naming ``where`` otherwise."""
    if not isinstance(value, list):
        raise RecordError(f"{where}: must be a list of nodes")
    nodes = [node_from_json(board, v, where) for v in value]
    if len(set(nodes)) != len(nodes):
        dup = next(v for v in nodes if nodes.count(v) > 1)
        raise RecordError(f"{where}: node {board.label(dup)} is listed twice")
    return frozenset(nodes)


def start_supply(board: Board, side: str) -> int:
    """The most pieces ``side`` has in any start position of ``board`` (no move adds a piece, so
    a position with more cannot arise)."""
    return max((len(board.start(name).get(side, ())) for name in board.start_names), default=0)


def int_from_json(value: Any, where: str, low: int = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f"at least {low}"
        raise RecordError(f"{where}: must be an integer {span}, not {short_value(value)}")
    return value


def node_from_text(board: Board, text: str) -> int:
    """A node written in a move; :class:`InvalidMoveError` for an unknown node (a long name is
    quoted by its first characters and its length)."""
    try:
        return read_node(board, text, "")
    except NodeError:
        if len(text) > MAX_NODE_NAME:
            raise InvalidMoveError(f"unknown node '{text[:MAX_NODE_NAME]}...' ({len(text)} characters)") from None
        raise InvalidMoveError(f"unknown node {text!r}") from None


def text_picture(board: Board, cells: Mapping[int, str], *, x_scale: float = 9, y_scale: float = 2.5,
                 marked: Iterable[int] = ()) -> str:
    """The board as text: every node at its (scaled) coordinates, written as ``cells[node]``
    or, when absent, its label; right-aligned in 3 characters; a ``marked`` node (the last
    move's) gets ``>`` before it. For ``powertwo play``."""
    marked = frozenset(marked)
    xs = [x for x, _ in board.coords]
    ys = [y for _, y in board.coords]
    x0, y1 = min(xs), max(ys)
    rows: dict[int, list[tuple[int, str]]] = {}
    for v in board.nodes:
        x, y = board.coord(v)
        text = (">" if v in marked else "") + cells.get(v, board.label(v))
        rows.setdefault(round((y1 - y) * y_scale), []).append((round((x - x0) * x_scale), text))
    out = []
    for r in range(max(rows) + 1):
        line: list[str] = []
        for col, text in sorted(rows.get(r, [])):
            pad = col + 3 - len(text) - len("".join(line))
            line.append(" " * max(pad, 1 if line else 0) + text)
        out.append("".join(line).rstrip())
    return "\n".join(out)


def whole_number(value: Any) -> int:
    """An option that is a whole number >= 0 (``"5"`` is read as 5); :class:`ValueError` otherwise."""
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"must be a whole number >= 0, not {value!r}")
    return value


def marked_row(cells: Iterable[str], marked: Iterable[bool], sep: str = " ") -> str:
    """Grid cells joined by ``sep``, each marked cell with ``>`` in place of the separator's last
    character before it (the columns stay aligned)."""
    out = ""
    for text, mark in zip(cells, marked, strict=True):
        out += (sep[:-1] + ">" if mark else sep) + text
    return out


# helpers shared by the square-board games and the Power of Two board
def square_key(label: str) -> tuple[int, str]:
    """Sort key of a square name: rank, then file."""
    return (int(label[1:]), label[0])


def ray_between(board: Board, frm: NodeId, to: NodeId) -> tuple[NodeId, ...] | None:
    """The nodes met sliding along one line from ``frm`` (excluded) to ``to`` (included), or
    ``None`` when no line holds both."""
    for ray in board.rays[frm]:
        if to in ray:
            return ray[:ray.index(to) + 1]
    return None
