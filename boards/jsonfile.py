"""The one safe JSON reader: every file the toolkit reads (boards, solution files, game records,
positions) goes through :func:`read_json` or :func:`loads`.

Safe means: a file larger than :data:`MAX_BYTES`, a directory, JSON nested deeper than
:data:`MAX_DEPTH`, a number with more digits than Python converts, or text that is not UTF-8
gives a :class:`JsonFileError` (a ``ValueError``: the CLI prints one line and exits 2) naming
the file, never a traceback and never minutes of work on something that cannot be an answer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MAX_BYTES = 8 * 1024 * 1024
"""The largest file read (8 MiB; the largest shipped or generated file is under 100 KB)."""
MAX_DEPTH = 64
"""The deepest nesting of arrays and objects accepted (real files nest at most 4 deep)."""


class JsonFileError(ValueError):
    """A file that cannot be read as JSON: the message names the file and the reason."""


def _depth_fault(text: str) -> int | None:
    """The position where nesting first exceeds :data:`MAX_DEPTH` (outside strings), or None."""
    depth = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return i
        elif ch in "]}":
            depth -= 1
    return None


def loads(text: str, where: str, error: type[ValueError] = JsonFileError) -> Any:
    """Parse ``text``; every failure is one ``error`` naming ``where``."""
    if len(text) > MAX_BYTES:
        raise error(f"{where}: larger than {MAX_BYTES // (1024 * 1024)} MiB, too large for a board, answer or record")
    if text.count("[") + text.count("{") > MAX_DEPTH:
        at = _depth_fault(text)
        if at is not None:
            raise error(f"{where}: JSON nested more than {MAX_DEPTH} levels deep (at character {at})")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{where}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise error(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:  # e.g. an integer with more digits than int() converts
        if "digits" in str(exc):
            raise error(f"{where}: a number with too many digits") from None
        raise error(f"{where}: not valid JSON ({exc})") from None


def read_json(path: str | Path, error: type[ValueError] = JsonFileError, what: str = "file") -> Any:
    """The JSON content of ``path``; a missing, unreadable, oversized or malformed file is one
    ``error`` naming it."""
    path = Path(path)
    try:
        if path.is_dir():
            raise error(f"{path}: is a directory, not a {what}")
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise error(f"{path}: {size:,} bytes, larger than the {MAX_BYTES // (1024 * 1024)} MiB any {what} "
                        f"can need")
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise error(f"{path}: not a UTF-8 text file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror or exc.__class__.__name__})") from None
    return loads(text, str(path), error)
