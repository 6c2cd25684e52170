"""Reading the fields of a solution file (or of solve options): one place, one behaviour.

Every reader raises :class:`SolutionError` naming ``where`` (the file or puzzle) and the field,
so a malformed file is one line and exit code 2 in the CLI. Faults in a well-formed answer are
not errors: checkers report those as a list (:class:`~powertwo.solvers.registry.CheckReport`).
"""

from __future__ import annotations

import math
from pathlib import Path, PurePosixPath
from typing import Any, Collection, Mapping

from powertwo.boards import Board, NodeError, read_node
from powertwo.boards.jsonfile import short_value


class SolutionError(ValueError):
    """A solution file (or solve request) is malformed: bad JSON, unknown puzzle, missing field,
    unknown node. The message names the file and field. Faults in a well-formed answer are not
    errors: the checker reports them as a list."""


def board_fields(board: Board) -> dict[str, str]:
    """How an answer file names its board: ``board`` (the name or file) and ``board_fingerprint``
    (:attr:`Board.fingerprint`: a name may be reused by another board, the fingerprint may not)."""
    return {"board": board.name, "board_fingerprint": board.fingerprint}


def _type_name(kind: type | tuple[type, ...]) -> str:
    return kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)


def require(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``data[key]`` of the given type, or a :class:`SolutionError` naming the field (a bool is
    not taken for an int)."""
    if key not in data:
        raise SolutionError(f"{where}: missing field '{key}'")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise SolutionError(f"{where}: field '{key}' must be {_type_name(kind)}")
    return value


def int_field(data: Mapping[str, Any], key: str, where: str, *, required: bool = True, minimum: int | None = None,
              maximum: int | None = None) -> int | None:
    """An integer field. Absent or ``null``: an error when ``required``, else ``None``. Out of
    ``minimum..maximum``: an error naming the range."""
    value = data.get(key)
    if value is None:
        if required:
            raise SolutionError(f"{where}: missing field '{key}'" if key not in data
                                else f"{where}: field '{key}' must be an integer, not null")
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SolutionError(f"{where}: field '{key}' must be an integer{'' if required else ' or null'}")
    if minimum is not None and value < minimum or maximum is not None and value > maximum:
        span = f"{minimum if minimum is not None else ''}..{maximum if maximum is not None else ''}"
        raise SolutionError(f"{where}: field '{key}' is {value}, outside {span}")
    return value


def bool_field(data: Mapping[str, Any], key: str, where: str, default: bool | None = None) -> bool | None:
    """A ``true``/``false`` field (a string ``"true"`` is refused); ``default`` when absent."""
    if key not in data:
        return default
    value = data[key]
    if not isinstance(value, bool):
        raise SolutionError(f"{where}: field '{key}' must be true or false, not {short_value(value)}")
    return value


def choice_field(data: Mapping[str, Any], key: str, choices: Collection[str], where: str, *, required: bool = True
                 ) -> str | None:
    """A string field with one of ``choices``."""
    if key not in data and not required:
        return None
    value: str = require(data, key, str, where)
    if value not in choices:
        raise SolutionError(f"{where}: field '{key}' is '{value[:60]}', not one of {', '.join(choices)}")
    return value


def node_list(data: Mapping[str, Any], key: str, board: Board, where: str) -> list[int]:
    """A list of nodes from field ``key`` (labels such as ``"a13"`` or ids such as ``60``), as
    node ids; unknown nodes name the board. A list longer than the board has nodes is refused
    before any work (it cannot be a set of stones)."""
    raw = require(data, key, list, where)
    if len(raw) > board.size:
        raise SolutionError(f"{where}: field '{key}' lists {len(raw)} nodes, the board has only {board.size}")
    return node_ids(raw, board, where, field=key)


def node_ids(raw: list[Any], board: Board, where: str, *, field: str | None = None) -> list[int]:
    """Every entry of ``raw`` (a label such as ``"a13"`` or an id such as ``60``) as a node id
    of ``board``, in order; anything else, or an unknown node, raises :class:`SolutionError`
    naming ``where`` (and the ``field``, when given)."""
    out = []
    for v in raw:
        try:
            out.append(read_node(board, v, where))
        except NodeError as exc:
            if exc.malformed:
                prefix = f"field '{field}': " if field else ""
                raise SolutionError(f"{where}: {prefix}{quoted(v)} is not a node (a label or an id)") from None
            shown = f"'{exc.shown}'" if isinstance(v, str) else v
            raise SolutionError(f"{where}: node {shown} does not exist on board {board.name}") from None
    return out


def quoted(value: Any) -> str:
    """A value as a message quotes it: a number or text in quotes, ``null``, ``true``, a list or
    an object by its kind (never a Python repr)."""
    if value is None or isinstance(value, (bool, list, dict)):
        return short_value(value)
    return f"'{str(value)[:40]}'"


def known_fields(data: Mapping[str, Any], known: Collection[str], where: str, prefix: str = "") -> None:
    """Refuse a field the checker does not know (it could not verify it): one error naming it."""
    for key in data:
        if key not in known:
            raise SolutionError(f"{where}: unknown field '{prefix}{key}' (the checker cannot verify it)")


def seconds_value(value: Any, name: str = "--time-limit") -> float | None:
    """A time limit in seconds: positive and finite (``nan``, ``inf``, 0 and negatives refused)."""
    if value is None:
        return None
    try:
        seconds = float(value)
    except (TypeError, ValueError, OverflowError):
        raise SolutionError(f"{name} '{str(value)[:40]}': give a positive number of seconds") from None
    if isinstance(value, bool) or not math.isfinite(seconds) or seconds <= 0:
        raise SolutionError(f"{name} {str(value)[:40]}: give a positive, finite number of seconds")
    return seconds


def sibling_file(base: Path | None, name: Any, where: str, field: str) -> Path:
    """A file a result file names (a certificate's CNF or proof): a plain relative path inside
    the result file's folder. Absolute paths and ``..`` are refused (a checked file must not make
    the checker read elsewhere)."""
    if not isinstance(name, str) or not name:
        raise SolutionError(f"{where}: field '{field}' must be a file name")
    pure = PurePosixPath(name)
    if pure.is_absolute() or Path(name).is_absolute() or ".." in pure.parts or "\\" in name:
        raise SolutionError(f"{where}: field '{field}' '{name[:80]}': certificate files are named relative to "
                            "the result file, without '..'")
    if base is None:
        raise SolutionError(f"{where}: field '{field}' names a file, but the checker was not given the "
                            "result file's folder")
    path = base / pure
    try:
        is_file = path.is_file()
    except OSError:  # e.g. a name longer than the file system takes
        is_file = False
    if not is_file:
        raise SolutionError(f"{where}: field '{field}': {str(path)[:200]} is not a file")
    return path
