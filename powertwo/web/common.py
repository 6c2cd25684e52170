"""What every part of the workbench reads requests with: fields, boards, committed answers, and
the one-line error a bad request gets."""

from __future__ import annotations

from dataclasses import asdict, is_dataclass
from fractions import Fraction
from typing import Any, Mapping

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request

from powertwo.boards import Board, BoardError, NodeError, from_dict, load as load_board, read_node, shipped
from powertwo.boards.jsonfile import JsonFileError, loads
from powertwo.solvers.registry import DEFAULT_BOARDS

HINT_SECONDS = 1.0
"""How long the Get a Jump On hint's solver may think by default (:attr:`Limits.hint_seconds`): the
hint says only what it can tell within this."""

MAX_BODY = 1 << 20
"""Request bodies larger than this (1 MiB) are refused with 413."""


class BadRequest(HTTPException):
    def __init__(self, message: str, status: int = 400):
        super().__init__(status_code=status, detail=message.splitlines()[0] if message else "bad request")


# ---------------------------------------------------------------- helpers
def plain(value: Any) -> Any:
    """JSON-ready data: dataclasses as objects, Fractions as floats, sets as sorted lists."""
    if is_dataclass(value) and not isinstance(value, type):
        return plain(asdict(value))
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted(plain(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Fraction):
        return float(value)
    return value


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read by the toolkit's one JSON reader
    (:func:`powertwo.boards.jsonfile.loads`: repeated keys, depth, number sizes), so a body is
    refused exactly when ``powertwo check`` refuses the same text in a file. A client that leaves
    in the middle of its body gets 400 (it reads nothing); no trace goes to the server's log."""
    try:
        raw = await request.body()
    except ClientDisconnect:
        raise BadRequest("the client went away before its request body arrived") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest("request body: not UTF-8 text") from None
    try:
        data = loads(text or "null", "request body")
    except JsonFileError as exc:
        raise BadRequest(str(exc)) from None
    if not isinstance(data, dict):
        raise BadRequest("request body must be a JSON object")
    return data


def field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if key not in data or data[key] is None:
        if default is ...:
            raise BadRequest(f"missing field '{key}'")
        return default
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind not in (bool, (bool,))):
        raise BadRequest(f"field '{key}' has the wrong type ({type(value).__name__})")
    return value


def board_view(board: Board) -> dict[str, Any]:
    """What the page needs to draw a board: nodes with coordinates and labels (a cell is drawn as
    a square, a link's end as a point), lines, links, and the fingerprint the page's downloaded
    files carry."""
    points = {b for _, b in board.links}
    cells = set(board.cells)
    return {
        "name": board.name,
        "fingerprint": board.fingerprint,
        "description": board.description,
        "nodes": [{"id": v, "label": board.label(v), "x": float(board.coord(v)[0]), "y": float(board.coord(v)[1]),
                   "point": v in points, "cell": v in cells} for v in board.nodes],
        "lines": [list(line) for line in board.lines],
        "line_texts": [board.line_text(k) for k in range(len(board.lines))],
        "links": [list(link) for link in board.links],
    }


def board_of(value: Any, key: str = "board") -> Board:
    """The board a request's field ``key`` names (``value``; None: the default board): a shipped
    board by name, or an uploaded board as JSON content (never a server path)."""
    if value is None:
        value = DEFAULT_BOARDS[0]
    if isinstance(value, dict):
        try:
            return from_dict(value, where="uploaded board")
        except BoardError as exc:
            raise BadRequest(str(exc)) from None
    if not isinstance(value, str):
        raise BadRequest(f"field '{key}' must be a shipped board name or a board object")
    if value not in shipped():
        raise BadRequest(f"field '{key}': no shipped board {value!r} (shipped: {', '.join(shipped())}; "
                         f"upload other boards as JSON content)")
    return load_board(value)


def no_paths(data: Mapping[str, Any], where: str) -> None:
    """Records and solutions name their board; here only shipped boards (no server paths)."""
    name = data.get("board")
    if name is not None and not (isinstance(name, str) and name in shipped()):
        raise BadRequest(f"{where}: field 'board' must name a shipped board ({', '.join(shipped())})")


def node_field(value: Any, key: str, board: Board) -> int | None:
    """A node named by the request field ``key`` (``value``): its label (``"a13"``) or its id
    (``60``); None when absent."""
    if value is None:
        return None
    try:
        return read_node(board, value, f"field '{key}'")
    except NodeError as exc:
        raise BadRequest(str(exc)) from None


