"""What the workbench knows about a puzzle comes from the registry's page description
(:class:`powertwo.solvers.registry.PuzzlePage`): how clicks build an answer, what the live
check shows, how an answer is stepped through, its committed answer and its solve options.
Nothing here or in the page names a puzzle."""

from __future__ import annotations

import functools
from typing import Any, Mapping

from powertwo.solvers.registry import DEFAULT_BOARDS, committed_answer, get_puzzle, puzzle_names

from powertwo.boards import Board, load as load_board

from .common import BadRequest

DEFAULT_BOARD = DEFAULT_BOARDS[0]
TEXT_OPTION_LIMIT = 200
"""The longest text option taken (the solver reads and judges it)."""

@functools.lru_cache(maxsize=None)
def page_of(name: str) -> dict[str, Any]:
    """The page description of the registered puzzle ``name`` (JSON-ready)."""
    if name not in puzzle_names():
        raise BadRequest(f"unknown puzzle {name!r} (known: {', '.join(puzzle_names())})")
    puzzle = get_puzzle(name)
    if puzzle.page is None:
        raise BadRequest(f"puzzle {name!r} has no page description")
    return puzzle.page_json()


def puzzle_of(name: Any, action: str | None = None) -> tuple[str, dict]:
    """The puzzle a request's (or a file's) field ``puzzle`` names, and its page; with ``action``,
    it must build answers by that kind of click (``toggle``, ``alternate`` or ``jump``)."""
    if not isinstance(name, str):
        raise BadRequest("missing field 'puzzle'" if name is None else "field 'puzzle' must be a puzzle name")
    page = page_of(name)
    if action is not None and page["clicks"]["action"] != action:
        known = [n for n in puzzle_names() if _has_page(n) and page_of(n)["clicks"]["action"] == action]
        raise BadRequest(f"this request is for {', '.join(known)}, not {name!r}")
    return name, page


def _has_page(name: str) -> bool:
    try:
        page_of(name)
    except BadRequest:
        return False
    return True


def steps_forward(page: Mapping[str, Any]) -> bool:
    """Whether the clicks build steps from a corner (else moves from a position)."""
    return bool(page["clicks"]["answer"] == "steps")


def strict_variant(page: Mapping[str, Any]) -> bool:
    """Whether the puzzle has a strict variant (a ``strict`` solve option) with its own answer."""
    return any(o["name"] == "strict" for o in page["options"])


def hinted(page: Mapping[str, Any]) -> bool:
    """Whether a hint (the solver on the position so far) fits: clicks that build moves from a position."""
    return bool(page["clicks"]["action"] == "jump" and page["clicks"]["answer"] == "moves")


def solve_options(page: Mapping[str, Any], raw: Any, limit: float) -> dict[str, Any]:
    """The solve keywords a request asks for, each checked against the page's options (names,
    choices, ranges; ``time_limit`` at most ``limit``)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise BadRequest("field 'options' must be an object of solve options")
    offered = {o["name"]: o for o in page["options"]}
    out: dict[str, Any] = {}
    for name, value in raw.items():
        option = offered.get(name)
        if option is None:
            raise BadRequest(f"field 'options': no solve option {name!r} (options: {', '.join(offered)})")
        if option["kind"] == "text" and value in ("", None):
            continue  # an empty text option is not given
        out[name] = _option_value(option, value, limit)
    return out


def _option_value(option: Mapping[str, Any], value: Any, limit: float) -> Any:
    name, kind = option["name"], option["kind"]
    if kind == "bool":
        if not isinstance(value, bool):
            raise BadRequest(f"option {name}: must be true or false")
        return value
    if kind == "text":
        if not isinstance(value, str) or len(value) > TEXT_OPTION_LIMIT:
            raise BadRequest(f"option {name}: must be a line of at most {TEXT_OPTION_LIMIT} characters")
        return value
    if kind == "choice":
        if value not in option["choices"]:
            raise BadRequest(f"option {name}: must be one of {', '.join(option['choices'])}")
        return value
    if isinstance(value, str) and value in option["words"]:
        return value
    top = min(option["maximum"], limit) if name == "time_limit" else option["maximum"]
    number = (int,) if kind == "int" else (int, float)
    if isinstance(value, bool) or not isinstance(value, number) or not option["minimum"] <= value <= top:
        raise BadRequest(f"option {name}: must be a number from {option['minimum']:g} to {top:g}"
                         + (f" or {' or '.join(option['words'])}" if option["words"] else ""))
    return value


def committed(puzzle: str, strict: bool = False, board: Board | None = None) -> dict[str, Any] | None:
    """The committed answer of a puzzle (:func:`committed_answer`) made for ``board`` (default:
    the default board), or None."""
    return committed_answer(get_puzzle(puzzle), board or load_board(DEFAULT_BOARD), strict)
