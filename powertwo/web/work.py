"""The workbench's heavy work off the event loop: checks, sequences, Get a Jump On clicks,
computer moves and solver runs go to a bounded pool of worker processes
(:class:`powertwo.solvers.bounded.WorkerPool`: one per core, a short queue, a time cap per
request, cancelled when the client goes away); plain requests never wait on them.

A request beyond the queue gets 503 with a ``Retry-After`` hint; one stopped at its cap gets
422 "not decided within the limit"; the workers warm up (load or compile the kernels) at start.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from starlette.requests import Request

from powertwo.solvers.bounded import CANCELLED, DONE, FAILED, Outcome, PoolBusy, WorkerPool

from .common import BadRequest, plain


HINT_SECONDS = 1.0
"""How long the Get a Jump On hint's solver may think by default (:attr:`Limits.hint_seconds`): the
hint says only what it can tell within this."""


@dataclass(frozen=True)
class Limits:
    """The workbench's bounds: workers (default: the core count), queued requests beyond them,
    the cap of a check, sequence or click (seconds), the extra a computer move may take past its
    thinking time, the longest solver run, each worker's memory (MB, None: no cap), whether the
    workers warm up at start, how much lower their priority is than the server's (so the
    event loop answers plain requests first on a busy machine), and how long the Get a Jump On
    hint's solver may think (its answer says what it can tell within that)."""

    workers: int | None = None
    queue: int = 4
    check_seconds: float = 30.0
    computer_margin: float = 5.0
    solve_seconds: float = 120.0
    memory_mb: int | None = 3072
    warm: bool = True
    nice: int = 10
    hint_seconds: float = HINT_SECONDS


def warm_up() -> None:
    """Run in every worker before its first request: every committed answer that is stepped
    through checked and drawn as /api/sequence does (this loads or compiles the kernels its
    checker uses), every puzzle module imported, and the stored census sets the hint reads loaded."""
    from powertwo.boards import load, shipped
    from powertwo.solvers.registry import puzzle_names

    from .pages import committed, page_of
    from .puzzles import census_hint, reverse_origin, sequence_frames

    for board in map(load, shipped()):
        if (origin := reverse_origin(board)) is not None:
            census_hint(board, origin, origin)

    for name in puzzle_names():
        try:
            if page_of(name)["steps"]["unit"] != "stones" and (done := committed(name)) is not None:
                sequence_frames({"solution": done})
        except ValueError:
            continue


Request_ = TypeVar("Request_")
"""What a worker's function reads: a request body (a mapping, or its validated model)."""


def answer(func: Callable[[Request_], Any], data: Request_) -> tuple:
    """``func(data)`` in a worker, its answer made plain, a bad request as its status and line
    (so nothing but plain data crosses back to the server)."""
    try:
        return ("ok", plain(func(data)))
    except BadRequest as exc:
        return ("error", exc.status_code, str(exc.detail))
    except RecursionError:
        return ("error", 400, "request nested too deeply")
    except ValueError as exc:
        return ("error", 400, (str(exc) or exc.__class__.__name__).splitlines()[0])


def settle(outcome: Outcome) -> Any:
    """The answer of a finished request, or the one-line error it ends in."""
    if outcome.status == DONE:
        if outcome.value[0] == "ok":
            return outcome.value[1]
        raise BadRequest(outcome.value[2], outcome.value[1])
    if outcome.status == FAILED:
        raise BadRequest(f"internal error: {outcome.message}", 500)
    if outcome.status == CANCELLED:
        raise BadRequest(outcome.message, 503 if outcome.message == "the server is stopping" else 499)
    raise BadRequest(outcome.message, 422)


class Work:
    """The pool and the solver run of one app."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.pool = WorkerPool(workers=limits.workers, queue=limits.queue, memory_mb=limits.memory_mb,
                               warm=warm_up if limits.warm else None, nice=limits.nice)
        self.runs = SolverRun(self)
        self.cache: dict[str, Any] = {}

    async def run(self, request: Request, func: Callable[[Request_], Any], data: Request_,
                  seconds: float | None = None) -> Any:
        """``func(data)`` in a worker, capped at ``seconds`` (default: the check cap), cancelled
        when the client disconnects."""
        outcome = await self.pool.run_async(answer, func, data, time_limit=seconds or self.limits.check_seconds,
                                            is_cancelled=request.is_disconnected)
        return settle(outcome)

    def close(self) -> None:
        self.runs.cancel_any()
        self.pool.close()


def solve_in_worker(puzzle: str, board_name: str, options: dict, progress: Callable[[str], None]) -> Any:
    """A solver run (in a worker): its result made plain; progress lines go to the page."""
    from powertwo.boards import load
    from powertwo.solvers.registry import get_puzzle

    return plain(get_puzzle(puzzle).solve(load(board_name), progress=progress, **options))


class SolverRun:
    """At most one solver run per server, in a pool worker with a time limit, cancellable by the
    tab that started it (``tab``: an id the page makes); other tabs see that one runs elsewhere."""

    def __init__(self, work: Work):
        self.work = work
        self.lock = threading.Lock()
        self.cancel_event = threading.Event()
        self.info: dict = {"state": "idle"}
        self.owner: str | None = None

    def start(self, puzzle: str, board: str, options: dict, limit: float, tab: str) -> dict:
        with self.lock:
            if self.info["state"] == "running":
                raise BadRequest("a solver is already running" + (" in another tab" if tab != self.owner else "")
                                 + " (one run at a time; cancel it first)", 409)
            load = self.work.pool.load()
            if load["running"] + load["waiting"] >= load["workers"] + load["queue"]:
                raise PoolBusy("all workers are busy; try again shortly", self.work.pool.retry_after())
            self.cancel_event = threading.Event()
            self.owner = tab
            self.info = {"state": "running", "puzzle": puzzle, "options": options, "started": time.time(),
                         "limit": limit, "log": [f"started {puzzle} (time limit {limit:g} s)"]}
            threading.Thread(target=self._run, args=(puzzle, board, options, limit, self.cancel_event, self.info),
                             daemon=True).start()
            return self.status(tab)

    def _run(self, puzzle: str, board: str, options: dict, limit: float, cancel: threading.Event,
             info: dict) -> None:
        """Runs the solver and records its end in ``info``, the record of this run only: a run
        cancelled and then replaced by a new one never writes over the new run's record."""
        def progress(line: str) -> None:
            with self.lock:
                info["log"] = (info["log"] + [line])[-200:]

        try:
            outcome = self.work.pool.run(solve_in_worker, puzzle, board, options, time_limit=limit + 10,
                                         cancel=cancel, on_progress=progress)
        except PoolBusy as exc:
            outcome = Outcome(CANCELLED, message=str(exc))
        with self.lock:
            if info["state"] != "running":
                return
            if outcome.status == DONE:
                info.update(state="done", result=outcome.value)
                info["log"].append(f"finished: status {outcome.value.get('status', '?')}")
            else:
                state = "cancelled" if outcome.message == "cancelled" else "error"
                info["state"] = state
                info["log"].append(outcome.message if state != "error" else f"stopped: {outcome.message}")

    def cancel(self, tab: str) -> dict:
        with self.lock:
            if self.info["state"] != "running":
                raise BadRequest("no solver is running", 409)
            if tab != self.owner:
                raise BadRequest("the solver run belongs to another tab", 409)
            self.info["state"] = "cancelled"
            self.info["log"].append("cancelled")
            self.cancel_event.set()
            return self.status(tab)

    def cancel_any(self) -> None:
        self.cancel_event.set()

    def status(self, tab: str) -> dict:
        """The run as the tab ``tab`` sees it: its own run in full, another tab's as busy."""
        if tab != self.owner:
            return {"state": "idle", "elsewhere": self.info["state"] == "running"}
        if self.info["state"] == "running":
            self.info["elapsed"] = round(time.time() - self.info["started"], 1)
        return {k: v for k, v in self.info.items() if k != "started"}

    def poll(self, tab: str) -> dict:
        with self.lock:
            return self.status(tab)
