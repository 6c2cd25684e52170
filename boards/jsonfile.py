"""The one safe JSON reader: every file the toolkit reads (boards, solution files, game records,
positions) goes through :func:`read_json` or :func:`loads`.

Safe means: a file larger than :data:`MAX_BYTES` (at most that many bytes plus one are read), a
directory, a device or a pipe (only regular files are read), JSON nested deeper than
:data:`MAX_DEPTH`, an object with the same key twice, a number written with more than
:data:`MAX_DIGITS` digits or one that is not finite (``1e999``, ``NaN``, ``Infinity``: no JSON), or
text that is not UTF-8 gives a :class:`JsonFileError` (a ``ValueError``: the CLI prints one line
and exits 2) naming the file, never a traceback and never minutes of work on something that cannot
be an answer.

The workbench reads every request body through the same :func:`loads` (``powertwo serve``), so a
body is refused exactly when the same text in a file is refused by ``powertwo check``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MAX_BYTES = 8 * 1024 * 1024
"""The largest file read (8 MiB; the largest shipped or generated file is under 100 KB)."""
MAX_DEPTH = 64
"""The deepest nesting of arrays and objects accepted (real files nest at most 4 deep)."""
MAX_DIGITS = 100
"""The most characters a number may be written with (the largest count a file holds, a census's
sequences, has under 30 digits; Python converts at most 4,300)."""


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


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's fields, refusing a key given twice (``json`` keeps the last one silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


class _DuplicateKey(ValueError):
    """Raised inside the parser for a repeated key; turned into a one-line error naming it."""


class _BadNumber(ValueError):
    """Raised inside the parser for a number too long or not finite; its message is the reason."""


def _number_text(text: str) -> str:
    """A number as a message quotes it: whole when short, else its first digits and its length."""
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text):,} characters)"


def _too_long(text: str) -> _BadNumber:
    return _BadNumber(f"a number with too many digits: {_number_text(text)} (at most {MAX_DIGITS} characters "
                      "are read)")


def _integer(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise _too_long(text)
    return int(text)


def _real(text: str) -> float:
    if len(text) > MAX_DIGITS:
        raise _too_long(text)
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _BadNumber(f"the number {_number_text(text)} is too large (not a finite number)")
    return value


def _constant(text: str) -> float:
    raise _BadNumber(f"{text} is not a JSON number")


def loads(text: str, where: str, error: type[ValueError] = JsonFileError) -> Any:
    """Parse ``text``; every failure is one ``error`` naming ``where``."""
    if len(text) > MAX_BYTES:
        raise error(f"{where}: larger than {MAX_BYTES // (1024 * 1024)} MiB, too large for a board, answer or record")
    if text.count("[") + text.count("{") > MAX_DEPTH:
        at = _depth_fault(text)
        if at is not None:
            raise error(f"{where}: JSON nested more than {MAX_DEPTH} levels deep (at character {at})")
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_int=_integer, parse_float=_real,
                          parse_constant=_constant)
    except _DuplicateKey as exc:
        raise error(f"{where}: field '{str(exc)[:60]}' given twice in one object") from None
    except _BadNumber as exc:
        raise error(f"{where}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise error(f"{where}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise error(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:
        raise error(f"{where}: not valid JSON ({str(exc)[:80]})") from None


def regular_file(path: str | Path, error: type[ValueError] = JsonFileError, what: str = "file") -> Path:
    """``path`` if it names a regular file (or a link to one); a missing file, a directory, a
    device (``/dev/zero``) or a pipe is one ``error`` naming it, before anything is opened (a
    device or a pipe could be read forever)."""
    import stat

    path = Path(path)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror or exc.__class__.__name__})") from None
    if stat.S_ISDIR(mode):
        raise error(f"{path}: is a directory, not a {what}")
    if not stat.S_ISREG(mode):
        raise error(f"{path}: not a regular file (a device or a pipe is never read as a {what})")
    return path


def read_json(path: str | Path, error: type[ValueError] = JsonFileError, what: str = "file") -> Any:
    """The JSON content of ``path``; a missing, unreadable, oversized or malformed file is one
    ``error`` naming it."""
    path = Path(path)
    try:
        regular_file(path, error, what)
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                size = max(len(data), path.stat().st_size)
                raise error(f"{path}: {size:,} bytes, larger than the {MAX_BYTES // (1024 * 1024)} MiB any {what} "
                            f"can need")
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise error(f"{path}: not a UTF-8 text file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read ({exc.strerror or exc.__class__.__name__})") from None
    return loads(text, str(path), error)


def field_path(loc: tuple[str | int, ...], prefix: str = "") -> str:
    """A field's path as files write it: ``steps[0].jumped`` (``prefix`` before a top-level name)."""
    out = prefix
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def short_value(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return "true" if value is True else "false" if value is False else "null"
    if isinstance(value, (int, float)):
        if isinstance(value, int) and abs(value) >= 10 ** 40:
            return f"a number of {value.bit_length() * 3 // 10 + 1} or so digits"
        return str(value)[:40]
    if isinstance(value, str):
        return f"'{value[:40]}'" + ("..." if len(value) > 40 else "")
    return "an object" if isinstance(value, dict) else "a list" if isinstance(value, list) else "a value"


_REASONS = {
    "int_type": "must be an integer",
    "float_type": "must be a number",
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "finite_number": "must be a finite number",
}


def schema_fault(exc: Any, where: str, prefix: str = "") -> str:
    """The first fault of a ``pydantic.ValidationError`` as one line: ``where: field PATH: reason``
    (the value quoted briefly, never a Python repr)."""
    err = exc.errors(include_url=False)[0]
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and ("[" in p or p.startswith("function-"))))
    path = field_path(loc, prefix)
    kind = err["type"]
    if kind == "extra_forbidden":
        return f"{where}: unknown field '{path}' (nothing checks it)"
    if kind == "missing":
        return f"{where}: missing field '{path}'"
    if kind in _REASONS:
        reason = _REASONS[kind]
    elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        ctx = err.get("ctx", {})
        bound = next(iter(ctx.values())) if ctx else "?"
        if isinstance(bound, float) and bound.is_integer():
            bound = int(bound)
        word = {"greater_than_equal": "at least", "less_than_equal": "at most", "greater_than": "more than",
                "less_than": "less than"}[kind]
        reason = f"is {short_value(err.get('input'))}, must be {word} {bound}"
    elif kind in ("literal_error", "enum"):
        reason = f"is {short_value(err.get('input'))}, must be {err.get('ctx', {}).get('expected', 'another value')}"
    elif kind in ("too_long", "too_short"):
        reason = err["msg"].replace("List", "list").replace("Value", "it")
    elif kind == "value_error":
        reason = str(err.get("ctx", {}).get("error", err["msg"]))
    else:
        reason = f"{err['msg'][:80]}".replace("Input", "it")
    return f"{where}: field '{path}' {reason}" if path else f"{where}: {reason}"


def validated(model: Any, data: Any, where: str, error: type[ValueError] = JsonFileError, prefix: str = "") -> Any:
    """``data`` checked against a pydantic ``model`` (every object at every depth), or one
    ``error`` naming ``where`` and the first faulty field's path."""
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise error(schema_fault(exc, where, prefix)) from None
