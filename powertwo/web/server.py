"""The browser workbench: a Starlette app over the library functions the CLI uses.

The pages (``static/``) draw boards as SVG from the board data this app sends and hold no
rules: every check, every "what may come next", every move and every computer move is
answered here by the referee, the checkers and the solvers.

Security and load: the app answers only requests whose ``Host`` is the bound address or
localhost (DNS rebinding), refuses state-changing requests from another origin, caps request
bodies at :data:`MAX_BODY` bytes, reads boards as JSON content (never a server path), and
answers every bad request with a 4xx and one line ``{"error": ...}``. Checks, sequences, jump
clicks, computer moves and solver runs run in a bounded pool of worker processes
(:mod:`powertwo.web.work`); beyond its queue a request gets 503 with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import threading
import time
from importlib import resources
from typing import Any, AsyncIterator, Mapping, TypeVar

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from powertwo.boards import load as load_board, shipped
from powertwo.rules import RulesError, get_game, game_names
from powertwo.solvers.bounded import PoolBusy
from powertwo.solvers.registry import SolutionError, get_puzzle, puzzle_names

from .common import MAX_BODY, BadRequest, board_of, board_view, body, node_field
from .games import attempt_reason, clicks_of, game_record, game_view, played
from .guard import Guard, hostname
from .pages import DEFAULT_BOARD, committed, hinted, page_of, puzzle_of, solve_options, steps_forward, strict_variant
from .puzzles import file_check, jump_hint, jump_summary, live_check, reverse_origin, sequence_frames
from .requests import (
    AnalysisBody, BoardBody, Body, CancelBody, CheckBody, ComputerBody, GameBody, GameClickBody, GameMoveBody,
    HintBody, JumpBody, SequenceBody, SolveBody, StopBody, checked,
)
from .work import SETTLED, Limits, Work

SOLVE_TIME_LIMIT = 120.0
"""The longest a solver run may take (seconds); a request may ask for less."""
JUMP_START_SECONDS = 10.0
"""The longest the reverse click puzzle searches for a forward answer to start from, on a board
without a committed one (a request may give its own ``position`` instead)."""
SSE_INTERVAL = 0.25
"""How often the progress stream looks at the solver run (seconds)."""
COMPUTER_SECONDS = (0.1, 10.0)
"""Thinking time per computer move (or analysis) a request may ask for."""
LINE_PROOF_SECONDS = 2.0
"""How long an analysis seeks proofs of the positions of the whole record."""
STATIC = resources.files("powertwo.web") / "static"


# ---------------------------------------------------------------- work done in a worker
def jump_clicks(body: JumpBody) -> dict[str, Any]:
    """Get a Jump On built by clicks: the chains so far (as in the solution file), plus one click
    or an undo; answers the stones, what may come next, the referee's reason for a refused click
    and the checker's verdict (:mod:`powertwo.solvers.jump.clicks`)."""
    from powertwo.solvers.jump import clicks as jc
    from powertwo.solvers.jump import corner_of, default_position, read_position

    puzzle, page = puzzle_of(body.puzzle, "jump")
    board = board_of(body.board)
    try:
        if steps_forward(page):
            origin: Any = corner_of(board, node_field(body.corner, "corner", board))
        elif body.position is not None:
            origin = read_position(body.position, board)
        elif (central := reverse_origin(board)) is not None:
            origin = central
        else:
            done = committed(puzzle, board=board)
            origin = done["position"] if done else default_position(board, time_limit=JUMP_START_SECONDS)
        steps = [c.model_dump(by_alias=True, exclude_unset=True) for c in body.chains or []]
        state = jc.replay(board, puzzle, origin, steps)
        illegal = None
        if body.undo:
            state = jc.replay(board, puzzle, origin, jc.entries(puzzle, jc.undo(state)))
        elif (clicked := node_field(body.click, "click", board)) is not None:
            try:
                chains = jc.click(board, state, clicked)
                state = jc.replay(board, puzzle, origin, jc.entries(puzzle, chains))
            except jc.IllegalClick as exc:
                illegal = str(exc)
    except SolutionError as exc:
        raise BadRequest(str(exc)) from None
    view = jump_summary(puzzle, page, board, state, origin)
    view.update(chains=jc.entries(puzzle, state.chains), illegal=illegal)  # with a stone picked up, not yet jumped
    return view


def computer_move(body: ComputerBody) -> dict[str, Any]:
    """The computer's move in the game the record reaches (its thinking time and seed from the
    request); a Stop or a cancel ends its search with the best move so far (``should_stop``)."""
    from powertwo.solvers.bounded import should_stop
    from powertwo.solvers.players import choose_move

    game, record, res, _ = game_record(body)
    seconds = thinking_seconds(body.seconds)
    seed = body.seed if body.seed is not None else 0
    if res.outcome is not None:
        raise BadRequest(f"the game is over ({res.outcome.reason})")
    found = choose_move(game, res.final, seconds=seconds, seed=seed, stop=should_stop)
    view = played(game, record, game.format_move(found.move, res.final))
    view["computer"] = {"playouts": found.playouts, "positions": found.positions,
                        "seconds": round(found.seconds, 2), "value": round(found.value, 3),
                        "method": found.method, "stopped": found.stopped, "notes": list(found.notes),
                        "summary": found.summary()}
    return view


def any_check(body: CheckBody) -> dict[str, Any]:
    """A whole file, or an answer built by clicks (the puzzle's live check), checked (``POST /api/check``)."""
    if body.solution is not None:
        return file_check(body.solution, body.board)
    return live_check(body)


def thinking_seconds(seconds: float | None, default: float = 1.0) -> float:
    """The request's thinking time (``seconds``; None: ``default``), within :data:`COMPUTER_SECONDS`."""
    if seconds is None:
        seconds = default
    if not COMPUTER_SECONDS[0] <= seconds <= COMPUTER_SECONDS[1]:
        raise BadRequest(f"field 'seconds' must be between {COMPUTER_SECONDS[0]} and {COMPUTER_SECONDS[1]}")
    return float(seconds)


def game_analysis(body: AnalysisBody) -> dict[str, Any]:
    """The computer's view of the record's position ``at`` (default: its last): the evaluation, the
    best move, what a proof finds within the thinking time; and the proofs of the record's positions
    (from its end backwards, within :data:`LINE_PROOF_SECONDS`) with the moves that threw a proven
    win away."""
    from powertwo.solvers.bounded import should_stop
    from powertwo.solvers.players.analysis import analyse, line_proofs, thrown_wins

    game, record, res, _ = game_record(body)
    seconds = thinking_seconds(body.seconds)
    at = body.at if body.at is not None else len(res.moves)
    if not 0 <= at <= len(res.moves):
        raise BadRequest(f"field 'at' must be a position of the record, 0 to {len(res.moves)}")
    state = res.states[at]
    seen = analyse(game, state, seconds, seed=at, stop=should_stop)
    proofs = line_proofs(game, res.states, LINE_PROOF_SECONDS, stop=should_stop)
    proofs[at] = proofs[at] or seen.proof
    return {"at": at, "to_move": game.player_name(state.to_move), "over": game.outcome(state) is not None,
            "evaluation": seen.evaluation,
            "best": None if seen.best is None else {"move": game.format_move(seen.best.move, state),
                                                    "clicks": list(game.move_clicks(seen.best.move, state)),
                                                    "value": round(seen.best.value, 3),
                                                    "summary": seen.best.summary()},
            "proof": proof_view(game, state, seen.proof),
            "line": [proof_view(game, s, p) for s, p in zip(res.states, proofs, strict=True)],
            "thrown": thrown_wins(res.states, proofs)}


def proof_view(game: Any, state: Any, proof: Any) -> dict[str, Any] | None:
    """A proof as the page shows it: "proven: Light wins with g13" (None when nothing is proved)."""
    if proof is None:
        return None
    winner = None if proof.winner is None else game.player_name(proof.winner)
    move = None if proof.move is None else game.format_move(proof.move, state)
    text = "proven: a draw" if winner is None else f"proven: {winner} wins" + (f" with {move}" if move else "")
    return {"winner": winner, "move": move, "text": text, "method": proof.method, "positions": proof.positions}


# ---------------------------------------------------------------- routes
B = TypeVar("B", bound=Body)


async def read_model(request: Request, model: type[B]) -> B:
    """The request's body as its endpoint's model (:data:`~.requests.BODIES`), checked before any work."""
    found = checked(request.url.path, await body(request))
    assert isinstance(found, model), (request.url.path, model)
    return found


def work_of(request: Request) -> Work:
    work: Work = request.app.state.work
    return work


async def index(request: Request) -> Response:
    return FileResponse(str(STATIC / "index.html"))


def puzzle_entries() -> list[dict[str, Any]]:
    """Every puzzle with a page description, and its strict variant where it has one: the title,
    the page, whether a hint fits, and the committed answer with its objective and status."""
    puzzles = []
    for name in puzzle_names():
        try:
            page = page_of(name)
        except BadRequest:
            continue  # a puzzle without a page is not offered in the workbench
        for strict in [False, True] if strict_variant(page) else [False]:
            done = committed(name, strict)
            puzzles.append({"name": name, "title": get_puzzle(name).title + (" (strict)" if strict else ""),
                            "strict": strict, "page": page, "hint": hinted(page), "committed": done,
                            "boards": puzzle_boards(page),
                            "optimum": None if done is None else done.get("objective"),
                            "status": None if done is None else done.get("status")})
    return puzzles


def puzzle_boards(page: Mapping[str, Any]) -> list[str]:
    """The boards a puzzle is offered on: its page's, then for a reverse puzzle (a hint fits) the
    shipped boards with a ``central`` start, the position its clicks start from there."""
    extra = [b for b in shipped() if hinted(page) and b not in page["boards"] and reverse_origin(load_board(b))]
    return [*page["boards"], *extra]


def game_entries() -> list[dict[str, Any]]:
    games = []
    for name in game_names():
        g = get_game(name)
        games.append({"name": name, "title": g.title, "board": g.board.name,
                      "starts": list(g.start_names or g.board.start_names or (g.default_start,)),
                      "default_start": g.default_start, "players": list(g.player_names),
                      "notation": g.notation_help, "rules": g.rules_summary,
                      "options": [o.to_json() for o in g.options_spec]})
    return games


@functools.lru_cache(maxsize=1)
def meta_entries() -> dict[str, Any]:
    """What ``GET /api/meta`` lists, read once (the committed answers do not change while serving)."""
    return {"boards": list(shipped()), "default_board": DEFAULT_BOARD, "games": game_entries(),
            "puzzles": puzzle_entries(),
            "max_body": MAX_BODY, "solve_time_limit": SOLVE_TIME_LIMIT}


async def meta(request: Request) -> Response:
    """The lists (read once), the state of each compiled kernel (``warming`` names those not ready
    yet: their searches run the plain engines meanwhile) and the workers' load."""
    work = work_of(request)
    kernels = work.kernels()
    return JSONResponse(dict(await run_in_threadpool(meta_entries), kernels=kernels,
                             warming=[k["name"] for k in kernels if k["state"] not in SETTLED],
                             load=dict(work.pool.load(), starting=work.pool.warming)))


async def board_get(request: Request) -> Response:
    return JSONResponse(board_view(board_of(request.path_params["name"])))


def uploaded_board(body: BoardBody) -> dict[str, Any]:
    return board_view(board_of(body.board))


async def board_post(request: Request) -> Response:
    """An uploaded board (read in a worker: a large one may take long to read)."""
    return JSONResponse(await work_of(request).run(request, uploaded_board, await read_model(request, BoardBody)))


async def check(request: Request) -> Response:
    return JSONResponse(await work_of(request).run(request, any_check, await read_model(request, CheckBody)))


async def jump(request: Request) -> Response:
    body = await read_model(request, JumpBody)  # a start position may need a forward search
    return JSONResponse(await work_of(request).run(request, jump_clicks, body, JUMP_START_SECONDS + 20))


async def hint(request: Request) -> Response:
    work = work_of(request)
    seconds = work.limits.hint_seconds
    return JSONResponse(await work.run(request, functools.partial(jump_hint, seconds=seconds),
                                       await read_model(request, HintBody),
                                       seconds + 9.0))


async def sequence(request: Request) -> Response:
    return JSONResponse(await work_of(request).run(request, sequence_frames, await read_model(request, SequenceBody)))


async def game_state(request: Request) -> Response:
    body = await read_model(request, GameBody)
    game, record, res, _ = game_record(body)
    return JSONResponse(game_view(game, record, res, clicks_of(body, game.board)))


async def game_click(request: Request) -> Response:
    """The clicks so far plus one: either still a legal beginning (the new options), a complete
    move (played when nothing else continues it, or when ``play`` names it; with ``confirm``, a move
    the clicks complete is only offered, as the page's move confirmation on touch asks), or illegal
    (why)."""
    body = await read_model(request, GameClickBody)
    game, record, res, _ = game_record(body)
    clicks = clicks_of(body, game.board)
    state = res.final
    if res.outcome is not None:
        return JSONResponse({"illegal": f"the game is over ({res.outcome.reason})"})
    play = body.play
    if play is not None:
        options = game.click_options(state, clicks)
        texts = [game.format_move(m, state) for m in options.complete]
        if play not in texts:
            return JSONResponse({"illegal": f"{play!r} is not a move the clicks so far complete"})
        return JSONResponse(played(game, record, play))
    prior = game.click_options(state, clicks[:-1]) if clicks else None
    if prior is not None and clicks[-1] not in prior.next:
        return JSONResponse({"illegal": attempt_reason(game, state, clicks)})
    options = game.click_options(state, clicks)
    if len(options.complete) == 1 and not options.next and not body.confirm:
        return JSONResponse(played(game, record, game.format_move(options.complete[0], state)))
    return JSONResponse(game_view(game, record, res, clicks))


async def game_move(request: Request) -> Response:
    """A move typed in notation (as ``powertwo play`` reads it)."""
    body = await read_model(request, GameMoveBody)
    game, record, res, _ = game_record(body)
    try:
        move = game.parse_move(body.move, res.final)
        game.apply(res.final, move)
    except RulesError as exc:
        return JSONResponse({"illegal": str(exc).splitlines()[0]})
    return JSONResponse(played(game, record, game.format_move(move, res.final)))


async def computer(request: Request) -> Response:
    """The computer's move; ``think``, an id the page makes, lets ``POST /api/game/stop`` ask for
    its best move so far."""
    body = await read_model(request, ComputerBody)
    seconds = body.seconds if body.seconds is not None else 1.0
    work = work_of(request)
    think = body.think
    halt = work.thinking.begin(think)
    try:
        return JSONResponse(await work.run(request, computer_move, body, float(seconds) + work.limits.computer_margin,
                                           halt=halt))
    finally:
        work.thinking.end(think)


async def computer_stop(request: Request) -> Response:
    """The player's Stop: the computer move ``think`` plays its best move so far (409 when no such
    move is in progress: it has just been played)."""
    body = await read_model(request, StopBody)
    if not work_of(request).thinking.halt(body.think):
        raise BadRequest("no computer move in progress under this id (it has just been played)", 409)
    return JSONResponse({"stopped": True})


async def analysis(request: Request) -> Response:
    body = await read_model(request, AnalysisBody)
    seconds = body.seconds if body.seconds is not None else 1.0
    work = work_of(request)
    limit = 2 * float(seconds) + LINE_PROOF_SECONDS + work.limits.computer_margin
    return JSONResponse(await work.run(request, game_analysis, body, limit))


def tab_of(request: Request, body: SolveBody | CancelBody | None = None) -> str:
    """The tab a solver request comes from (an id the page makes; API clients without one share ""):
    the body's ``tab``, or without a body the query's."""
    tab = request.query_params.get("tab", "") if body is None else body.tab or ""
    return tab[:64]


async def solve_start(request: Request) -> Response:
    """A solver run with the options the puzzle's page offers (each checked against its range;
    ``time_limit`` at most :data:`SOLVE_TIME_LIMIT`)."""
    body = await read_model(request, SolveBody)
    puzzle, page = puzzle_of(body.puzzle)
    board = board_of(body.board)
    if board.name not in shipped():
        raise BadRequest("solve runs on shipped boards")
    limit = body.time_limit if body.time_limit is not None else 30.0
    if not 0 < limit <= SOLVE_TIME_LIMIT:
        raise BadRequest(f"field 'time_limit' must be above 0 and at most {SOLVE_TIME_LIMIT:g}")
    options: dict[str, Any] = {"time_limit": float(limit)}
    if body.strict:
        options["strict"] = True
    options.update(solve_options(page, body.options, SOLVE_TIME_LIMIT))
    limit = float(options["time_limit"]) if isinstance(options["time_limit"], (int, float)) else SOLVE_TIME_LIMIT
    return JSONResponse(work_of(request).runs.start(puzzle, board.name, options, limit, tab_of(request, body)))


async def solve_status(request: Request) -> Response:
    return JSONResponse(work_of(request).runs.poll(tab_of(request)))


async def solve_events(request: Request) -> Response:
    """The run's progress as a server-sent event stream: the status (as ``GET /api/solve``)
    each time it changes, until the run ends (the page's EventSource, no polling)."""
    runs, tab = work_of(request).runs, tab_of(request)

    async def events() -> Any:
        last, sent = None, 0.0
        while True:
            status = runs.poll(tab)
            changed = {k: v for k, v in status.items() if k != "elapsed"}
            if changed != last or time.time() - sent >= 1.0:  # news, or the elapsed time each second
                last, sent = changed, time.time()
                yield f"data: {json.dumps(status, sort_keys=True)}\n\n"
            if status["state"] != "running" or await request.is_disconnected():
                return
            await asyncio.sleep(SSE_INTERVAL)

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


async def solve_cancel(request: Request) -> Response:
    body = await read_model(request, CancelBody)
    return JSONResponse(work_of(request).runs.cancel(tab_of(request, body)))


# ---------------------------------------------------------------- errors
async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": str(exc.detail).splitlines()[0]}, status_code=exc.status_code)


async def busy_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, PoolBusy)
    return JSONResponse({"error": str(exc), "retry_after": exc.retry_after}, status_code=503,
                        headers={"Retry-After": str(exc.retry_after)})


async def value_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": (str(exc) or exc.__class__.__name__).splitlines()[0]}, status_code=400)


async def server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": f"internal error: {exc.__class__.__name__}"}, status_code=500)


ROUTES = [
    Route("/", index),
    Route("/api/meta", meta),
    Route("/api/board/{name}", board_get),
    Route("/api/board", board_post, methods=["POST"]),
    Route("/api/check", check, methods=["POST"]),
    Route("/api/sequence", sequence, methods=["POST"]),
    Route("/api/jump", jump, methods=["POST"]),
    Route("/api/jump/hint", hint, methods=["POST"]),
    Route("/api/game", game_state, methods=["POST"]),
    Route("/api/game/click", game_click, methods=["POST"]),
    Route("/api/game/move", game_move, methods=["POST"]),
    Route("/api/game/computer", computer, methods=["POST"]),
    Route("/api/game/stop", computer_stop, methods=["POST"]),
    Route("/api/game/analysis", analysis, methods=["POST"]),
    Route("/api/solve", solve_status),
    Route("/api/solve", solve_start, methods=["POST"]),
    Route("/api/solve/events", solve_events),
    Route("/api/solve/cancel", solve_cancel, methods=["POST"]),
    Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
]


def create_app(host: str = "127.0.0.1", limits: Limits | None = None) -> ASGIApp:
    """The workbench app for ``host``; its workers start with the app (or at the first heavy
    request) and stop with it."""
    work = Work(limits or Limits())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await run_in_threadpool(meta_entries)  # read before the first request, and before the workers take the cores
        work.start()
        try:
            yield
        finally:
            work.close()

    app = Starlette(routes=ROUTES, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, PoolBusy: busy_error, ValueError: value_error,
                                        RecursionError: value_error, Exception: server_error})
    app.state.work = work
    return Guard(app, frozenset({hostname(host), "localhost", "127.0.0.1", "::1"}))


def serve(host: str = "127.0.0.1", port: int = 8765, open_browser: bool = False) -> None:
    """Run the workbench with uvicorn until interrupted (the CLI's ``powertwo serve``); SIGTERM
    or Ctrl-C stops it within a second: the workers are killed at once, so the requests they
    held end (503) and the connections close."""
    import uvicorn

    app = create_app(host)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            app_work(app).close()
            super().handle_exit(sig, frame)

    if open_browser:
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(f"http://{host}:{port}/",)).start()
    Server(uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1)).run()


def app_work(app: ASGIApp) -> Work:
    """The work of an app made by :func:`create_app`."""
    assert isinstance(app, Guard)
    work: Work = app.app.state.work  # type: ignore[attr-defined]
    return work


__all__ = ["create_app", "serve", "MAX_BODY", "SOLVE_TIME_LIMIT", "board_view", "Limits"]
