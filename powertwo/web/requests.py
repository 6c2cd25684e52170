"""The shape of every request body the workbench reads, one model per ``POST`` endpoint.

Each body is checked against its model before any work: a field no model names, at any depth,
and a field of the wrong type are refused with 400 and one line naming the field's path
(:func:`powertwo.boards.jsonfile.schema_fault`); the endpoint then reads the model's fields, never
the raw body (``server.read_model``). What a body embeds is read further by its own
strict reader: an uploaded board by :func:`powertwo.boards.from_dict`, a solution file by the
puzzle's checker (:func:`powertwo.solvers.registry.check_answer_shape`), a game record by
:func:`powertwo.rules.validate_record` (:class:`powertwo.rules.base.RecordFile`); here they are objects.
"""

from __future__ import annotations

from typing import Annotated, Any, Callable, Mapping

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from powertwo.boards.jsonfile import validated

from .common import BadRequest

def one_of(kinds: tuple[type, ...], what: str) -> Callable[[Any], Any]:
    """A check that a value is one of ``kinds`` (never a bool) with one reason naming ``what``
    (a plain union would name each of its members in the field's path)."""
    def check(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise ValueError(f"must be {what}")
        return value
    return check


NodeRef = Annotated[Any, AfterValidator(one_of((int, str), "a node id or label"))]
"""A node named by its id (``60``) or its label (``"a13"``)."""
BoardRef = Annotated[Any, AfterValidator(one_of((str, dict), "a shipped board name or a board object"))]
"""A shipped board's name, or an uploaded board as JSON content."""
Seconds = StrictFloat
"""A time in seconds (a whole number too)."""
Supply = Annotated[Any, AfterValidator(one_of((list, int, str), "a list of nodes, a stone count or a supply name"))]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)


class BoardBody(Body):
    """``POST /api/board``: an uploaded board."""

    board: BoardRef | None = None


class PuzzleBody(Body):
    puzzle: StrictStr | None = None
    board: BoardRef | None = None


class CheckBody(PuzzleBody):
    """``POST /api/check``: a whole file (``solution``), a line puzzle's stones, or the
    solitaire's record and its stone supply (``stones`` a number or a supply name)."""

    solution: dict[str, Any] | None = None
    strict: StrictBool | None = None
    stones: Supply | None = None
    record: list[StrictStr] | None = None


class SequenceBody(Body):
    """``POST /api/sequence``: an answer file or a game record to step through."""

    solution: dict[str, Any]
    board: BoardRef | None = None


class JumpChain(Body):
    """One chain of Get a Jump On as its solution file writes it: forward ``place`` and
    ``jumps``, reverse ``from`` and ``jumps``."""

    place: NodeRef | None = None
    start: NodeRef | None = Field(default=None, alias="from")
    jumps: list[NodeRef] = []


class JumpBody(PuzzleBody):
    """``POST /api/jump``: the chains so far plus one click or an undo."""

    chains: list[JumpChain] | None = None
    position: list[NodeRef] | None = None
    corner: NodeRef | None = None
    click: NodeRef | None = None
    undo: StrictBool | None = None


class HintBody(PuzzleBody):
    """``POST /api/jump/hint``: a position reached by clicks, and the position they started from."""

    position: list[NodeRef]
    origin: list[NodeRef] | None = None


class GameBody(Body):
    """``POST /api/game``: a record's game, options, start and moves, and the clicks so far."""

    game: StrictStr
    options: dict[str, Any] | None = None
    start: StrictStr | None = None
    moves: list[StrictStr] | None = None
    clicks: list[NodeRef] | None = None


class GameClickBody(GameBody):
    """``POST /api/game/click``: as :class:`GameBody`, with the complete move the clicks name, and
    whether a move the clicks complete waits for a confirmation (``confirm``)."""

    play: StrictStr | None = None
    confirm: StrictBool | None = None


class GameMoveBody(GameBody):
    """``POST /api/game/move``: as :class:`GameBody`, with a move in notation."""

    move: StrictStr


class ComputerBody(GameBody):
    """``POST /api/game/computer``: as :class:`GameBody`, with the thinking time, the seed and the
    id under which a Stop finds the move in progress."""

    seconds: Seconds | None = None
    seed: StrictInt | None = None
    think: StrictStr | None = None


class StopBody(Body):
    """``POST /api/game/stop``: the computer move in progress that plays its best move so far."""

    think: StrictStr


class AnalysisBody(GameBody):
    """``POST /api/game/analysis``: as :class:`GameBody`, with the position analysed (``at``: the
    number of moves played to reach it) and the thinking time."""

    at: StrictInt | None = None
    seconds: Seconds | None = None


class SolveBody(PuzzleBody):
    """``POST /api/solve``: a solver run (its ``options`` checked against the puzzle's page)."""

    strict: StrictBool | None = None
    time_limit: Seconds | None = None
    options: dict[str, Any] | None = None
    tab: StrictStr | None = None


class CancelBody(Body):
    """``POST /api/solve/cancel``: the tab whose run ends."""

    tab: StrictStr | None = None


BODIES: dict[str, type[Body]] = {
    "/api/board": BoardBody, "/api/check": CheckBody, "/api/sequence": SequenceBody, "/api/jump": JumpBody,
    "/api/jump/hint": HintBody, "/api/game": GameBody, "/api/game/click": GameClickBody,
    "/api/game/move": GameMoveBody, "/api/game/computer": ComputerBody, "/api/game/stop": StopBody,
    "/api/game/analysis": AnalysisBody, "/api/solve": SolveBody,
    "/api/solve/cancel": CancelBody,
}
"""The model of each ``POST`` endpoint's body."""


def checked(path: str, data: Mapping[str, Any]) -> Body:
    """The body of a request to the endpoint ``path`` as its model, when ``data`` fits it; else
    :class:`BadRequest` naming the first faulty field's path."""
    try:
        body: Body = validated(BODIES[path], data, "request body")
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    return body


__all__ = ["BODIES", "checked"]
