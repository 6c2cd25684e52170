"""The browser workbench: a Starlette app over the library functions the CLI uses.

The pages (``static/``) draw boards as SVG from the board data this app sends and hold no
rules: every check, every "what may come next", every move and every computer move is
answered here by the referee, the checkers and the solvers.

Security: the app answers only requests whose ``Host`` is the bound address or localhost
(DNS rebinding), refuses state-changing requests from another origin, caps request bodies at
:data:`MAX_BODY` bytes, reads boards as JSON content (never a server path), runs at most one
solver at a time (in a child process, with a time limit, cancellable), and answers every bad
request with a 4xx and one line ``{"error": ...}``.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import queue
import re
import threading
import time
from dataclasses import asdict, is_dataclass
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from powertwo.boards import Board, BoardError, from_dict, load as load_board, shipped
from powertwo.rules import Game, RulesError, get_game, game_names, validate_record
from powertwo.solvers.fields import node_ids
from powertwo.solvers.registry import SolutionError, get_puzzle, puzzle_names, solution_board

MAX_BODY = 1 << 20
"""Request bodies larger than this (1 MiB) are refused with 413."""
SOLVE_TIME_LIMIT = 120.0
"""The longest a solver run may take (seconds); a request may ask for less."""
JUMP_START_SECONDS = 10.0
"""The longest the reverse click puzzle searches for a forward answer to start from, on a board
without a committed one (a request may give its own ``position`` instead)."""
SSE_INTERVAL = 0.25
"""How often the progress stream looks at the solver run (seconds)."""
COMPUTER_SECONDS = (0.1, 10.0)
"""Thinking time per computer move a request may ask for."""
LINE_PUZZLES = ("one-by-one", "line-cover", "two-by-two")
SEQUENCE_PUZZLES = ("jump-forward", "jump-reverse", "thats-my-line")
STATIC = resources.files("powertwo.web") / "static"


class BadRequest(HTTPException):
    def __init__(self, message: str, status: int = 400):
        super().__init__(status_code=status, detail=message.splitlines()[0] if message else "bad request")


# ---------------------------------------------------------------- guards
class Guard:
    """ASGI middleware: Host check, cross-origin refusal and the body cap, before any route runs."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]):
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = _hostname(headers.get("host", ""))
        if host not in self.hosts:
            await _refuse(send, 421, f"host {headers.get('host', '')!r} is not served here "
                                     f"(use {' or '.join(sorted(self.hosts))})")
            return
        if scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            origin = headers.get("origin")
            if origin is not None and _hostname(re.sub(r"^[a-z]+://", "", origin)) not in self.hosts:
                await _refuse(send, 403, f"cross-origin request from {origin} refused")
                return
            if headers.get("sec-fetch-site") == "cross-site":
                await _refuse(send, 403, "cross-site request refused")
                return
            kind = headers.get("content-type", "").split(";")[0].strip()
            if kind != "application/json":
                await _refuse(send, 415, "send the request body as application/json")
                return
        length = headers.get("content-length")
        if length is not None and (not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY):
            await _refuse(send, 413, f"request body larger than {MAX_BODY} bytes")
            return
        seen = 0

        async def capped() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise BadRequest(f"request body larger than {MAX_BODY} bytes", 413)
            return message

        await self.app(scope, capped, send)


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


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


async def body(request: Request) -> dict:
    raw = await request.body()
    try:
        data = json.loads(raw or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(f"request body is not valid JSON ({getattr(exc, 'msg', exc)})") from None
    if not isinstance(data, dict):
        raise BadRequest("request body must be a JSON object")
    return data


def field(data: Mapping, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if key not in data or data[key] is None:
        if default is ...:
            raise BadRequest(f"missing field '{key}'")
        return default
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind not in (bool, (bool,))):
        raise BadRequest(f"field '{key}' has the wrong type ({type(value).__name__})")
    return value


def board_view(board: Board) -> dict:
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


def board_of(data: Mapping, key: str = "board") -> Board:
    """A shipped board by name, or an uploaded board as JSON content (never a server path)."""
    value = data.get(key, "power-of-two")
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


def no_paths(data: Mapping, where: str) -> None:
    """Records and solutions name their board; here only shipped boards (no server paths)."""
    name = data.get("board")
    if name is not None and not (isinstance(name, str) and name in shipped()):
        raise BadRequest(f"{where}: field 'board' must name a shipped board ({', '.join(shipped())})")


def committed(puzzle: str, strict: bool = False, board: Board | None = None) -> dict | None:
    """The committed answer of a puzzle from the repository's results/ folder, when there is one
    made for ``board`` (by its fingerprint; default: the default board)."""
    board = board or load_board("power-of-two")
    stem = {"thats-my-line": "thats-my-line-16"}.get(puzzle, puzzle + ("-strict" if strict else ""))
    path = results_dir() / f"{stem}.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    if not isinstance(data, dict) or data.get("board_fingerprint") != board.fingerprint:
        return None
    return data


def results_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "results"


# ---------------------------------------------------------------- puzzles
def line_check(data: Mapping) -> dict:
    """The live check of a line puzzle: the checker behind ``powertwo check`` on the stones, then
    the objective against the proven optimum, and the lines at fault (for highlighting)."""
    from powertwo.models.cards import line_counts
    from powertwo.solvers.line_puzzles import STONES, confirmed, variant

    puzzle = field(data, "puzzle", str)
    if puzzle not in LINE_PUZZLES:
        raise BadRequest(f"live check is for {', '.join(LINE_PUZZLES)}, not {puzzle!r}")
    board = board_of(data)
    strict = field(data, "strict", bool, False)
    stones = field(data, "stones", list)
    solution = {"puzzle": puzzle, "board": board.name, "stones": stones, "strict": strict}
    try:
        report = get_puzzle(puzzle).check(solution, board)
    except SolutionError as exc:
        raise BadRequest(str(exc)) from None
    var = variant(puzzle, strict)
    stone_set = sorted(set(node_ids(stones, board, f"{puzzle} solution", field="stones")))
    counts = line_counts(board, stone_set)
    bad = [k for k, held in enumerate(counts) if var.line_fault(held)]
    value = var.objective(board, stone_set)
    optimum = confirmed(board, var, STONES)
    best = optimum.objective if optimum.status == "optimal" else None
    verdict = "invalid"
    if report.valid:
        verdict = "valid, optimal" if best is not None and value == best else "valid, not optimal"
    return {"valid": report.valid, "verdict": verdict, "faults": list(report.faults), "notes": list(report.notes),
            "objective": value, "optimum": best, "sense": var.sense, "bad_lines": bad,
            "line_counts": counts, "stones": stone_set}


def solitaire_check(data: Mapping) -> dict:
    """The live check of the That's My Line solitaire: the record so far (built by clicks) replayed
    by the referee, then the checker behind ``powertwo check`` on the solution it makes."""
    from powertwo.solvers.thats_my_line import replay, supply_of

    board = board_of(data)
    record = field(data, "record", list)
    if not all(isinstance(m, str) for m in record):
        raise BadRequest("field 'record' must be a list of move strings")
    stones = field(data, "stones", (int, str), 16)
    try:
        supply = supply_of(stones)
    except SolutionError as exc:
        raise BadRequest(str(exc)) from None
    game, states, fault = replay(board, supply, record)
    end = states[-1]
    total = len(end.light) + len(end.dark)
    solution = {"puzzle": "thats-my-line", "board": board.name, "stones": stones, "record": record,
                "light": sorted(end.light), "dark": sorted(end.dark), "objective": total}
    report = get_puzzle("thats-my-line").check(solution, board)
    done = committed("thats-my-line", board=board)
    best = done.get("objective") if done and done.get("stones") == stones else None
    options = game.click_options(end, ())  # after the last legal move
    verdict = "invalid" if not report.valid else "valid, optimal" if total == best else "valid, not optimal"
    return {"valid": report.valid, "verdict": verdict, "faults": list(report.faults), "notes": list(report.notes),
            "objective": total, "optimum": best, "sense": "max", "bad_lines": [], "fault": fault,
            "record": record[:len(states) - 1], "stones_view": game_frame(game, end, None, "")["stones"],
            "next": sorted(options.next), "pass": any(not game.move_clicks(m, end) for m in options.complete),
            "to_move": game.player_name(end.to_move)}


def jump_clicks(data: Mapping) -> dict:
    """Get a Jump On built by clicks: the chains so far (as in the solution file), plus one click
    or an undo; answers the stones, what may come next, the referee's reason for a refused click
    and the checker's verdict (:mod:`powertwo.solvers.jump_clicks`)."""
    from powertwo.solvers import jump_clicks as jc
    from powertwo.solvers.jump import FORWARD, corner_of, default_position, read_position

    puzzle = field(data, "puzzle", str)
    if puzzle not in SEQUENCE_PUZZLES[:2]:
        raise BadRequest(f"click puzzles of Get a Jump On are {' and '.join(SEQUENCE_PUZZLES[:2])}, not {puzzle!r}")
    board = board_of(data)
    try:
        if puzzle == FORWARD:
            corner = node_field(data, "corner", board)
            origin: Any = corner_of(board, corner)
        elif "position" in data:
            origin = read_position(field(data, "position", list), board)
        else:
            done = committed(puzzle, board=board)
            origin = done["position"] if done else default_position(board, time_limit=JUMP_START_SECONDS)
        state = jc.replay(board, puzzle, origin, jc.chains_of(data.get("chains", [])))
        illegal = None
        if field(data, "undo", bool, False):
            state = jc.replay(board, puzzle, origin, jc.entries(puzzle, jc.undo(state)))
        elif (clicked := node_field(data, "click", board)) is not None:
            try:
                chains = jc.click(board, state, clicked)
                state = jc.replay(board, puzzle, origin, jc.entries(puzzle, chains))
            except jc.IllegalClick as exc:
                illegal = str(exc)
    except SolutionError as exc:
        raise BadRequest(str(exc)) from None
    solution = state.file(board, origin)
    report = get_puzzle(puzzle).check(solution, board)
    n = len(state.complete)
    if puzzle == FORWARD:
        count = f"{n} of 31 steps, {_count(len(state.stones), 'stone')} on the board"
        best = None
        verdict = ("valid: 31 steps, 32 stones" if report.valid else
                   "in progress" if state.next or state.jumper is None else
                   f"stuck: no stone can be placed next to the jumper at {board.label(state.jumper)}; undo")
    else:
        count = f"{_count(n, 'move')}, {_count(len(state.stones), 'stone')} left"
        done = committed(puzzle, board=board)
        best = done.get("objective") if done and sorted(done["position"]) == sorted(origin) \
            and done.get("status") == "optimal" else None
        verdict = ("in progress" if state.next else f"stuck: no jump left, {len(state.stones)} stones remain; undo") \
            if not state.finished else "invalid" if not report.valid else \
            "valid, optimal" if best == n else f"valid, not optimal ({best} moves suffice)" if best else \
            f"valid: {n} moves"
    last = state.chains[-1] if state.chains else None
    arrows = [] if last is None or not last[1] else [
        {"path": [state.chains[-2][1][-1] if puzzle == FORWARD and len(state.chains) > 1 else
                  origin if puzzle == FORWARD else last[0], *last[1]]}]
    stones = [{"node": v, "color": "dark" if v == state.jumper else "light"} for v in state.stones]
    return {"puzzle": puzzle, "board": board.name, "origin": origin,
            "chains": jc.entries(puzzle, state.chains),  # with a stone picked up, not yet jumped
            "stones": stones, "arrows": arrows, "next": list(state.next), "places": list(state.places),
            "landings": list(state.landings), "starts": list(state.starts), "picked": state.picked,
            "jumper": state.jumper, "illegal": illegal, "finished": state.finished, "count": count,
            "verdict": verdict, "valid": report.valid and state.finished, "optimum": best,
            "faults": [] if not state.finished else list(report.faults), "notes": list(report.notes),
            "solution": solution}


def node_field(data: Mapping, key: str, board: Board) -> int | None:
    """A node named by a request field: its label (``"a13"``) or its id (``60``); None when absent."""
    value = field(data, key, (int, str), None)
    if value is None:
        return None
    try:
        return board.node(value)
    except BoardError as exc:
        raise BadRequest(f"field '{key}': {exc}") from None


def _count(k: int, noun: str) -> str:
    return f"{k} {noun}" + ("" if k == 1 else "s")


def check_upload(puzzle: Any, data: Mapping, board: Board) -> Any:
    """The checker behind ``powertwo check`` on an uploaded file; the certificate files it names
    are looked up among the committed results (by plain relative names, never a server path)."""
    if puzzle.reads_files:
        return puzzle.check(data, board, base=results_dir())
    return puzzle.check(data, board)


def file_board(data: Mapping, solution: Mapping) -> Board:
    """The board a solution file is judged against, as ``powertwo check`` chooses it
    (:func:`solution_board`): the board it was made for, or the request's ``board`` (the CLI's
    ``--board``); a file made for another board is refused in one line naming that board."""
    no_paths(solution, "solution")
    try:
        return solution_board(solution, "solution", board_of(data) if "board" in data else None)
    except SolutionError as exc:
        raise BadRequest(str(exc)) from None


def file_check(data: Mapping) -> dict:
    """A whole solution file or game record, as ``powertwo check`` checks it."""
    solution = field(data, "solution", dict)
    if "puzzle" in solution:
        p = get_puzzle(field(solution, "puzzle", str))
        board = file_board(data, solution)
        try:
            report = check_upload(p, solution, board)
        except SolutionError as exc:
            raise BadRequest(str(exc)) from None
        return {"valid": report.valid, "faults": list(report.faults), "notes": list(report.notes)}
    if "game" in solution:
        try:
            res = validate_record(solution)
        except RulesError as exc:
            return {"valid": False, "faults": [str(exc)], "notes": []}
        tail = res.outcome.reason if res.outcome else "game not over"
        return {"valid": True, "faults": [], "notes": [f"valid: {len(res.moves)} moves, {tail}"]}
    raise BadRequest("solution: neither a solution (field 'puzzle') nor a game record (field 'game')")


def sequence_frames(data: Mapping) -> dict:
    """The frames of an answer or record to step through: stones, arrows and a caption each."""
    item = field(data, "solution", dict)
    if "game" in item:
        no_paths(item, "solution")
        try:
            res = validate_record(item)
        except RulesError as exc:
            raise BadRequest(str(exc)) from None
        game = res.game
        frames = [game_frame(game, state, res.moves[k - 1] if k else None,
                             "start" if k == 0 else f"after move {k}: {game.format_move(res.moves[k - 1])}")
                  for k, state in enumerate(res.states)]
        return {"board": board_view(game.board), "frames": frames}
    puzzle = field(item, "puzzle", str)
    if puzzle not in SEQUENCE_PUZZLES:
        raise BadRequest(f"sequences are shown for {', '.join(SEQUENCE_PUZZLES)} and game records, not {puzzle!r}")
    board = file_board(data, item)
    try:
        report = check_upload(get_puzzle(puzzle), item, board)
    except SolutionError as exc:
        raise BadRequest(str(exc)) from None
    if not report.valid:
        raise BadRequest(f"{puzzle}: {report.faults[0]}")
    if puzzle == "thats-my-line":
        from powertwo.solvers.thats_my_line import replay, supply_of

        moves = item["record"]
        game, states, _ = replay(board, supply_of(item["stones"]), moves)
        frames = [game_frame(game, s, game.parse_move(moves[k - 1], states[k - 1]) if k else None,
                             "start" if k == 0 else f"after move {k}: {moves[k - 1]}")
                  for k, s in enumerate(states)]
        return {"board": board_view(board), "frames": frames}
    return {"board": board_view(board), "frames": jump_frames(puzzle, item, board)}


def jump_frames(puzzle: str, item: Mapping, board: Board) -> list[dict]:
    from powertwo.solvers.jump import JumpTables, replay_chain  # the checker's own replay of a chain

    tables = JumpTables(board, symmetry=False)
    ids = lambda raw: node_ids(list(raw), board, puzzle)  # noqa: E731 - the file may name nodes by labels
    frames = []
    if puzzle == "jump-reverse":
        occ = set(ids(item["position"]))
        frames.append({"stones": [{"node": v, "color": "light"} for v in sorted(occ)], "arrows": [],
                       "caption": f"start: {len(occ)} stones"})
        for k, mv in enumerate(item["moves"], start=1):
            start, jumps = ids([mv["from"]])[0], ids(mv["jumps"])
            replay_chain(tables, occ, start, jumps, "", remove=True)
            frames.append({"stones": [{"node": v, "color": "dark" if v == jumps[-1] else "light"}
                                      for v in sorted(occ)],
                           "arrows": [{"path": [start, *jumps]}],
                           "caption": f"after move {k}: {'-'.join(board.label(v) for v in (start, *jumps))}, "
                                      f"{len(jumps)} jump(s), {len(occ)} stones left"})
        return frames
    jumper = ids([item["corner"]])[0]
    occ = {jumper}
    frames.append({"stones": [{"node": jumper, "color": "dark"}], "arrows": [],
                   "caption": f"start: the jumper on {board.label(jumper)}"})
    for k, step in enumerate(item["steps"], start=1):
        place, jumps = ids([step["place"]])[0], ids(step["jumps"])
        occ.add(place)
        before = jumper
        _, jumper = replay_chain(tables, occ, jumper, jumps, "", remove=False)
        frames.append({"stones": [{"node": v, "color": "dark" if v == jumper else "light"} for v in sorted(occ)],
                       "arrows": [{"path": [before, *jumps]}],
                       "caption": f"after step {k}: placed {board.label(place)}, {len(jumps)} jump(s), "
                                  f"{len(occ)} stones"})
    return frames


def game_frame(game: Game, state: Any, last: Any, caption: str) -> dict:
    kw = game.diagram(state, last)
    return {"stones": plain(kw.get("stones", [])), "arrows": plain(kw.get("arrows", [])),
            "highlight": plain(kw.get("highlight", [])), "caption": caption, "title": kw.get("title", "")}


# ---------------------------------------------------------------- games
def game_record(data: Mapping) -> tuple[Game, dict, Any, list]:
    """The game, its record, the position after the moves, and the moves (replayed by the referee)."""
    name = field(data, "game", str)
    if name not in game_names():
        raise BadRequest(f"unknown game {name!r} (known: {', '.join(game_names())})")
    options = field(data, "options", dict, {})
    try:
        game = get_game(name, **options)
    except RulesError as exc:
        raise BadRequest(str(exc)) from None
    start = field(data, "start", str, game.default_start)
    if start not in game.board.start_names and start not in game.start_names:
        raise BadRequest(f"field 'start': {game.title} has no start {start!r} "
                         f"(starts: {', '.join(game.board.start_names or game.start_names)})")
    moves = field(data, "moves", list, [])
    record = game.record(moves, start=start)
    try:
        res = validate_record(record)
    except RulesError as exc:
        raise BadRequest(str(exc)) from None
    return game, record, res, list(res.moves)


def clicks_of(data: Mapping, board: Board) -> list[int]:
    """The nodes clicked so far (labels or ids), as node ids."""
    clicks = []
    for v in field(data, "clicks", list, []):
        try:
            if not isinstance(v, (int, str)):
                raise BoardError(str(v))
            clicks.append(board.node(v))
        except BoardError:
            raise BadRequest(f"field 'clicks': {str(v)[:40]} is not a node of board {board.name}") from None
    return clicks


def game_view(game: Game, record: dict, res: Any, clicks: list[int]) -> dict:
    state = res.final
    last = res.moves[-1] if res.moves else None
    options = game.click_options(state, clicks)
    out = res.outcome
    view = game_frame(game, state, last, f"move {state.ply + 1}, {game.player_name(state.to_move)} to move")
    view.update({
        "record": record, "clicks": clicks,
        "next": sorted(options.next),
        "complete": [game.format_move(m, state) for m in options.complete],
        "to_move": game.player_name(state.to_move), "to_move_index": state.to_move,
        "outcome": None if out is None else {"winner": None if out.winner is None else game.player_name(out.winner),
                                             "reason": out.reason},
        "notes": game.notes(state),
    })
    return view


def attempt_reason(game: Game, state: Any, clicks: list[int]) -> str:
    """The referee's reason why the clicks make no legal move (read as a move where they can be)."""
    labels = [game.board.label(v) for v in clicks]
    texts = []
    if len(labels) >= 2:
        texts.append(" ".join(f"{a}-{b}" for a, b in zip(labels[::2], labels[1::2], strict=False)))
        texts.append("-".join(labels[:2]) + "".join(f" +{x}" for x in labels[2:]))
    texts.append(labels[-1] if len(labels) == 1 else "-".join(labels))
    for text in texts:
        try:
            move = game.parse_move(text, state)
        except RulesError:
            continue
        reason = game.reason_illegal(state, move)
        if reason:
            return f"{text}: {reason}"
    return f"{labels[-1]} cannot come next after {' '.join(labels[:-1]) or 'no clicks'}"


# ---------------------------------------------------------------- the solver run
def _solve_child(puzzle: str, board_name: str, options: dict, out: Any) -> None:
    """The solver run (in a child process): its progress lines, then the result or one error line."""
    from powertwo.boards import load
    from powertwo.solvers.registry import get_puzzle as lookup

    def progress(message: str) -> None:
        out.put(("progress", str(message).splitlines()[0] if message else ""))

    try:
        out.put(("done", lookup(puzzle).solve(load(board_name), progress=progress, **options)))
    except Exception as exc:  # noqa: BLE001 - reported to the page as one line
        out.put(("error", f"{exc.__class__.__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"))


class SolverRun:
    """At most one solver run per server: a child process with a time limit, cancellable."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.process: Any = None
        self.queue: Any = None
        self.info: dict = {"state": "idle"}

    def start(self, puzzle: str, board: str, options: dict, limit: float) -> dict:
        with self.lock:
            self._poll()
            if self.info["state"] == "running":
                raise BadRequest("a solver is already running (one run at a time; cancel it first)", 409)
            ctx = mp.get_context("spawn")
            self.queue = ctx.Queue()
            self.process = ctx.Process(target=_solve_child, args=(puzzle, board, options, self.queue), daemon=True)
            self.process.start()
            self.info = {"state": "running", "puzzle": puzzle, "options": options, "started": time.time(),
                         "limit": limit, "log": [f"started {puzzle} (time limit {limit:g} s)"]}
            return self.status()

    def _poll(self) -> None:
        """Take what the child has sent: progress lines, then the result (or its error)."""
        while self.info["state"] == "running":
            try:
                kind, payload = self.queue.get_nowait()
            except queue.Empty:
                elapsed = time.time() - self.info["started"]
                if not self.process.is_alive():
                    self._stop("error", "the solver process ended without an answer")
                elif elapsed > self.info["limit"] + 10:
                    self._stop("gave up", f"stopped after {elapsed:.0f} s (time limit {self.info['limit']:g} s)")
                return
            if kind == "progress":
                self.info["log"] = (self.info["log"] + [payload])[-200:]
            elif kind == "done":
                self.info.update(state="done", result=plain(payload))
                self.info["log"].append(f"finished: status {payload.get('status', '?')}")
                self.process.join(timeout=1)
            else:
                self.info.update(state="error")
                self.info["log"].append(payload)
                self.process.join(timeout=1)

    def _stop(self, state: str, line: str) -> None:
        if self.process is not None and self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=5)
        self.info["state"] = state
        self.info["log"].append(line)

    def cancel(self) -> dict:
        with self.lock:
            self._poll()
            if self.info["state"] != "running":
                raise BadRequest("no solver is running", 409)
            self._stop("cancelled", "cancelled")
            return self.status()

    def status(self) -> dict:
        if self.info["state"] == "running":
            self.info["elapsed"] = round(time.time() - self.info["started"], 1)
        return {k: v for k, v in self.info.items() if k != "started"}

    def poll(self) -> dict:
        with self.lock:
            self._poll()
            return self.status()


# ---------------------------------------------------------------- the app
def create_app(host: str = "127.0.0.1") -> ASGIApp:
    runs = SolverRun()

    async def index(request: Request) -> Response:
        return FileResponse(str(STATIC / "index.html"))

    async def meta(request: Request) -> Response:
        games = []
        for name in game_names():
            g = get_game(name)
            games.append({"name": name, "title": g.title, "board": g.board.name,
                          "starts": list(g.start_names or g.board.start_names or (g.default_start,)),
                          "default_start": g.default_start, "players": list(g.player_names),
                          "notation": g.notation_help})
        puzzles = []
        for name in puzzle_names():
            p = get_puzzle(name)
            kind = "place" if name in LINE_PUZZLES else "record" if name == "thats-my-line" else "sequence"
            variants = [False, True] if name == "two-by-two" else [False]
            for strict in variants:
                done = committed(name, strict)
                puzzles.append({"name": name, "title": p.title + (" (strict)" if strict else ""), "kind": kind,
                                "strict": strict, "optimum": None if done is None else done.get("objective"),
                                "status": None if done is None else done.get("status"),
                                "committed": done})
        return JSONResponse({"boards": list(shipped()), "games": games, "puzzles": puzzles,
                             "max_body": MAX_BODY, "solve_time_limit": SOLVE_TIME_LIMIT})

    async def board_get(request: Request) -> Response:
        return JSONResponse(board_view(board_of({"board": request.path_params["name"]})))

    async def board_post(request: Request) -> Response:
        data = await body(request)
        return JSONResponse(board_view(board_of(data)))

    async def check(request: Request) -> Response:
        data = await body(request)
        if "solution" in data:
            return JSONResponse(file_check(data))
        return JSONResponse(solitaire_check(data) if data.get("puzzle") == "thats-my-line" else line_check(data))

    async def jump(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        data = await body(request)  # off the event loop: a start position may need a forward search
        return JSONResponse(await run_in_threadpool(jump_clicks, data))

    async def sequence(request: Request) -> Response:
        return JSONResponse(sequence_frames(await body(request)))

    async def game_state(request: Request) -> Response:
        data = await body(request)
        game, record, res, _ = game_record(data)
        return JSONResponse(game_view(game, record, res, clicks_of(data, game.board)))

    async def game_click(request: Request) -> Response:
        """The clicks so far plus one: either still a legal beginning (the new options), a complete
        move (played when nothing else continues it, or when ``play`` names it), or illegal (why)."""
        data = await body(request)
        game, record, res, _ = game_record(data)
        clicks = clicks_of(data, game.board)
        state = res.final
        if res.outcome is not None:
            return JSONResponse({"illegal": f"the game is over ({res.outcome.reason})"})
        play = field(data, "play", str, None)
        if play is not None:
            options = game.click_options(state, clicks)
            texts = [game.format_move(m, state) for m in options.complete]
            if play not in texts:
                return JSONResponse({"illegal": f"{play!r} is not a move the clicks so far complete"})
            return JSONResponse(_played(game, record, play))
        prior = game.click_options(state, clicks[:-1]) if clicks else None
        if prior is not None and clicks[-1] not in prior.next:
            return JSONResponse({"illegal": attempt_reason(game, state, clicks)})
        options = game.click_options(state, clicks)
        if len(options.complete) == 1 and not options.next:
            return JSONResponse(_played(game, record, game.format_move(options.complete[0], state)))
        return JSONResponse(game_view(game, record, res, clicks))

    def _played(game: Game, record: dict, text: str) -> dict:
        new = dict(record, moves=record["moves"] + [text])
        res = validate_record(new)
        view = game_view(game, new, res, [])
        view["played"] = text
        return view

    async def game_move(request: Request) -> Response:
        """A move typed in notation (as ``powertwo play`` reads it)."""
        data = await body(request)
        game, record, res, _ = game_record(data)
        text = field(data, "move", str)
        try:
            move = game.parse_move(text, res.final)
            game.apply(res.final, move)
        except RulesError as exc:
            return JSONResponse({"illegal": str(exc)})
        return JSONResponse(_played(game, record, game.format_move(move, res.final)))

    async def computer(request: Request) -> Response:
        from starlette.concurrency import run_in_threadpool

        from powertwo.solvers.mcts import choose_move

        data = await body(request)
        game, record, res, _ = game_record(data)
        seconds = field(data, "seconds", (int, float), 1.0)
        if not COMPUTER_SECONDS[0] <= seconds <= COMPUTER_SECONDS[1]:
            raise BadRequest(f"field 'seconds' must be between {COMPUTER_SECONDS[0]} and {COMPUTER_SECONDS[1]}")
        seed = field(data, "seed", int, 0)
        if res.outcome is not None:
            raise BadRequest(f"the game is over ({res.outcome.reason})")
        found = await run_in_threadpool(choose_move, game, res.final, seconds=float(seconds), seed=seed)
        view = _played(game, record, game.format_move(found.move, res.final))
        view["computer"] = {"playouts": found.playouts, "seconds": round(found.seconds, 2),
                            "value": round(found.value, 3)}
        return JSONResponse(view)

    async def solve_start(request: Request) -> Response:
        data = await body(request)
        puzzle = field(data, "puzzle", str)
        if puzzle not in puzzle_names():
            raise BadRequest(f"unknown puzzle {puzzle!r} (known: {', '.join(puzzle_names())})")
        board = board_of(data)
        if board.name not in shipped():
            raise BadRequest("solve runs on shipped boards")
        limit = field(data, "time_limit", (int, float), 30.0)
        if not 0 < limit <= SOLVE_TIME_LIMIT:
            raise BadRequest(f"field 'time_limit' must be above 0 and at most {SOLVE_TIME_LIMIT:g}")
        options: dict[str, Any] = {"time_limit": float(limit)}
        if field(data, "strict", bool, False):
            options["strict"] = True
        return JSONResponse(runs.start(puzzle, board.name, options, float(limit)))

    async def solve_status(request: Request) -> Response:
        return JSONResponse(runs.poll())

    async def solve_events(request: Request) -> Response:
        """The run's progress as a server-sent event stream: the status (as ``GET /api/solve``)
        each time it changes, until the run ends (the page's EventSource, no polling)."""
        import asyncio

        from starlette.responses import StreamingResponse

        async def events() -> Any:
            last, sent = None, 0.0
            while True:
                status = runs.poll()
                changed = {k: v for k, v in status.items() if k != "elapsed"}
                if changed != last or time.time() - sent >= 1.0:  # news, or the elapsed time each second
                    last, sent = changed, time.time()
                    yield f"data: {json.dumps(status, sort_keys=True)}\n\n"
                if status["state"] != "running" or await request.is_disconnected():
                    return
                await asyncio.sleep(SSE_INTERVAL)

        return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    async def solve_cancel(request: Request) -> Response:
        await body(request)
        return JSONResponse(runs.cancel())

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": str(exc.detail).splitlines()[0]}, status_code=exc.status_code)

    async def value_error(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": (str(exc) or exc.__class__.__name__).splitlines()[0]}, status_code=400)

    async def server_error(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": f"internal error: {exc.__class__.__name__}"}, status_code=500)

    routes = [
        Route("/", index),
        Route("/api/meta", meta),
        Route("/api/board/{name}", board_get),
        Route("/api/board", board_post, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/sequence", sequence, methods=["POST"]),
        Route("/api/jump", jump, methods=["POST"]),
        Route("/api/game", game_state, methods=["POST"]),
        Route("/api/game/click", game_click, methods=["POST"]),
        Route("/api/game/move", game_move, methods=["POST"]),
        Route("/api/game/computer", computer, methods=["POST"]),
        Route("/api/solve", solve_status),
        Route("/api/solve", solve_start, methods=["POST"]),
        Route("/api/solve/events", solve_events),
        Route("/api/solve/cancel", solve_cancel, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error, ValueError: value_error,
                                                       Exception: server_error})
    app.state.runs = runs
    hosts = frozenset({_hostname(host), "localhost", "127.0.0.1", "::1"})
    return Guard(app, hosts)


def serve(host: str = "127.0.0.1", port: int = 8765, open_browser: bool = False) -> None:
    """Run the workbench with uvicorn until interrupted (the CLI's ``powertwo serve``)."""
    import uvicorn

    if open_browser:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(f"http://{host}:{port}/",)).start()
    uvicorn.run(create_app(host), host=host, port=port, log_level="warning")


__all__ = ["create_app", "serve", "MAX_BODY", "SOLVE_TIME_LIMIT", "board_view"]
