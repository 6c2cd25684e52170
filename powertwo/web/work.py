"""The workbench's heavy work off the event loop: checks, sequences, Get a Jump On clicks,
computer moves, analyses and solver runs go to a bounded pool of worker processes
(:class:`powertwo.solvers.bounded.WorkerPool`: one per core, a short queue, a time cap per
request, cancelled when the client goes away); plain requests never wait on them.

A request beyond the queue gets 503 with a ``Retry-After`` hint; one stopped at its cap gets
422 "not decided within the limit". No request waits on a compile: a process of its own
(:class:`KernelWarmer`, at the workers' low priority) compiles the compiled kernels the requests use
into numba's cache, one after another, while every worker starts at once and loads each kernel in
a thread of its own as soon as it is in the cache; until then the worker's searches run their plain
Python engines and say so (:mod:`powertwo.solvers.kernels`). A cancelled request asks its search to
stop and keeps its worker (:func:`powertwo.solvers.bounded.should_stop`).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Literal, Mapping, TypeVar

from starlette.requests import Request

from powertwo.solvers.bounded import CANCELLED, DONE, FAILED, STOPPING, Outcome, PoolBusy, WorkerPool
from powertwo.solvers.kernels import KERNELS

from .common import HINT_SECONDS, BadRequest, plain




KernelState = Literal["waiting", "compiling", "loading", "ready", "failed"]
"""A compiled kernel's state in the workbench: waiting for the warmer, compiling (or loading from numba's
cache) in the warmer, in the cache with the workers loading it, loaded by every worker, or failed (the
plain engines go on serving)."""
WAITING: KernelState = "waiting"
COMPILING: KernelState = "compiling"
LOADING: KernelState = "loading"
READY: KernelState = "ready"
FAILED_KERNEL: KernelState = "failed"
SETTLED: tuple[KernelState, ...] = (READY, FAILED_KERNEL)
"""The states after which a kernel's state no longer changes."""
PRELOAD = ["powertwo.web.work", "powertwo.solvers.players.analysis", "powertwo.solvers.warm"]
"""What the server's fork server imports once, so that a worker (or the warmer) starts without
importing anything: a fork of it."""
WEB_KERNELS = ("endgame", "jump", "prove")
"""The compiled kernels the workbench's requests use, in the order they are compiled: That's My
Line's endgame (computer moves, analysis), Get a Jump On's reverse search (hints, solves, checks of
its answers), then That's My Line's proof search (analysis; df-pn serves meanwhile)."""


WARMER_NICE = 19
"""How much lower the warmer's priority is than the server's: the lowest, below the workers', so that a
compile never slows a request."""


@dataclass(frozen=True)
class Limits:
    """The workbench's bounds: workers (default: the core count), queued requests beyond them,
    the cap of a check, sequence or click (seconds), the extra a computer move may take past its
    thinking time, the longest solver run, each worker's memory (MB, None: no cap), whether a
    warmer compiles the kernels ahead of the requests (else a worker compiles a kernel on its first
    use, as the command line does), how much lower the workers' priority is than the server's (so
    the event loop answers plain requests first on a busy machine; the warmer's is lower still,
    :data:`WARMER_NICE`), the kernels warmed (:data:`WEB_KERNELS`), and how long the Get a Jump On
    hint's solver may think (its answer says what it can tell within that)."""

    workers: int | None = None
    queue: int = 4
    check_seconds: float = 30.0
    computer_margin: float = 5.0
    solve_seconds: float = 120.0
    memory_mb: int | None = 6144
    """Each worker's address space (RLIMIT_AS), not its resident memory: the check of Two by Two's
    answer re-proving its bound without the certificate holds 2.2 GB resident and, with CP-SAT's
    threads and numba's compiler mapped, passed 3 GB of address space (judged undecided here while
    ``powertwo check``, uncapped, accepted it)."""
    warm: bool = True
    nice: int = 10
    kernels: tuple[str, ...] = WEB_KERNELS
    """The compiled kernels the warmer compiles and the workers load (the others: plain engines only)."""
    hint_seconds: float = HINT_SECONDS


def load_census_sets() -> None:
    """The stored census solvable sets the Get a Jump On hint reads, loaded once per worker."""
    from powertwo.boards import load, shipped

    from .puzzles import census_hint, reverse_origin

    for board in map(load, shipped()):
        if (origin := reverse_origin(board)) is not None:
            census_hint(board, origin, origin)


@dataclass(frozen=True)
class WorkerStart:
    """Run in every worker before its first call, and quick: from now on a search uses a compiled
    kernel only once it is loaded in this worker; a thread of the worker loads the census sets,
    then each kernel as soon as the warmer has it in numba's cache (``ready``: an event per kernel),
    and counts it in ``loaded`` (a shared counter per kernel). ``environ`` is the server's environment
    when the app was made (a fork of the fork server would otherwise have the fork server's)."""

    ready: Mapping[str, Any]
    loaded: Mapping[str, Any]
    environ: Mapping[str, str]
    loaded_only: bool = True
    """False: no warmer; a search compiles its kernel on its first use, as the command line does."""

    def __call__(self) -> None:
        import powertwo.solvers.players.analysis  # noqa: F401 - imported before the first move: numba, the players
        from powertwo.solvers import kernels

        os.environ.clear()
        os.environ.update(self.environ)
        if not self.loaded_only:
            return
        kernels.use_loaded_only()
        threading.Thread(target=self.load, daemon=True, name="kernel-loader").start()

    def load(self) -> None:
        from powertwo.solvers.warm import load

        try:
            load_census_sets()
        except Exception:  # noqa: BLE001,S110 - a set not loaded now is read by the first hint
            pass
        for name, event in self.ready.items():
            event.wait()
            try:
                load(name)
            except Exception:  # noqa: BLE001,S110 - the plain engine goes on serving
                continue
            with self.loaded[name].get_lock():
                self.loaded[name].value += 1


def start_method() -> str:
    """How the workbench starts its processes: forks of a fork server that has imported :data:`PRELOAD`
    (a worker is ready at once, and a replaced one too), or fresh interpreters where there is none."""
    if "forkserver" not in mp.get_all_start_methods():
        return "spawn"
    mp.get_context("forkserver").set_forkserver_preload(PRELOAD)
    return "forkserver"


def compile_kernels(names: tuple[str, ...], ready: Mapping[str, Any], conn: Any, nice: int) -> None:
    """The warmer process: each kernel compiled into numba's cache (or loaded from it), its event set
    and its state sent to the server ("compiling", then "ready" with the seconds or "failed")."""
    from powertwo.solvers.warm import load

    if nice:
        os.nice(nice)
    for name in names:
        conn.send((name, COMPILING, None))
        try:
            seconds = load(name)
        except Exception as exc:  # noqa: BLE001 - told to the page; the plain engines go on serving
            conn.send((name, FAILED_KERNEL, f"{exc.__class__.__name__}: {exc}".splitlines()[0]))
            continue
        ready[name].set()
        conn.send((name, READY, round(seconds, 1)))


class KernelWarmer:
    """The process that compiles the workbench's kernels (:data:`WEB_KERNELS`) into numba's cache, and
    what it has done: per kernel "waiting", "compiling", "loading" (in the cache, the workers loading
    it), "ready" (with the compile's seconds) or "failed"."""

    def __init__(self, names: tuple[str, ...] = WEB_KERNELS, nice: int = 10, method: str = "spawn"):
        self.ctx: Any = mp.get_context(method)
        self.names, self.nice = names, nice
        self.ready = {name: self.ctx.Event() for name in names}
        self.loaded = {name: self.ctx.Value("i", 0) for name in names}
        self.lock = threading.Lock()
        self.states: dict[str, dict] = {name: {"name": name, "title": KERNELS[name], "state": WAITING}
                                        for name in names}
        self.process: Any = None

    def start(self) -> None:
        if self.process is not None:
            return
        mine, theirs = self.ctx.Pipe(duplex=False)
        self.process = self.ctx.Process(target=compile_kernels, args=(self.names, self.ready, theirs, self.nice),
                                        daemon=True, name="kernel-warmer")
        self.process.start()
        theirs.close()
        threading.Thread(target=self._listen, args=(mine,), daemon=True, name="kernel-warmer-listener").start()

    def _listen(self, conn: Any) -> None:
        while True:
            try:
                name, state, detail = conn.recv()
            except (EOFError, OSError):
                break
            with self.lock:
                self.states[name] = {"name": name, "title": KERNELS[name], "state": state,
                                     **({} if detail is None else
                                        {"seconds": detail} if state == READY else {"error": detail})}
        with self.lock:  # the process ended: a kernel it did not finish will not come
            for entry in self.states.values():
                if entry["state"] not in SETTLED:
                    entry.update(state=FAILED_KERNEL, error="the warmer process ended")

    def status(self, workers: int) -> list[dict[str, Any]]:
        """Each kernel's state, in compile order: "ready" once each of the ``workers`` loaded it."""
        with self.lock:
            out = [dict(self.states[name]) for name in self.names]
        for entry in out:
            if entry["state"] == READY and self.loaded[entry["name"]].value < workers:
                entry["state"] = LOADING
        return out

    def close(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.process.kill()
            self.process.join(1.0)
        self.ready, self.loaded = {}, {}  # their semaphores released now, not left to the resource tracker


class Thinking:
    """The computer moves in progress that a player may stop (the page's Stop button): each under the
    id the page gave it, with the event that asks its search for its best move so far."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.halts: dict[str, threading.Event] = {}

    def begin(self, think: str | None) -> threading.Event | None:
        if think is None:
            return None
        with self.lock:
            halt = self.halts[think[:64]] = threading.Event()
        return halt

    def end(self, think: str | None) -> None:
        if think is not None:
            with self.lock:
                self.halts.pop(think[:64], None)

    def halt(self, think: str) -> bool:
        """Ask the move ``think`` for its best move so far; False when no such move is in progress."""
        with self.lock:
            halt = self.halts.get(think[:64])
        if halt is not None:
            halt.set()
        return halt is not None


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
        raise BadRequest(outcome.message, 503 if outcome.message == STOPPING else 499)
    raise BadRequest(outcome.message, 422)


class Work:
    """The pool and the solver run of one app."""

    def __init__(self, limits: Limits):
        self.limits = limits
        method = start_method()
        self.warmer = KernelWarmer(limits.kernels, nice=WARMER_NICE, method=method) if limits.warm else None
        start = WorkerStart(self.warmer.ready, self.warmer.loaded, dict(os.environ)) if self.warmer else \
            WorkerStart({}, {}, dict(os.environ), loaded_only=False)
        self.pool = WorkerPool(workers=limits.workers, queue=limits.queue, memory_mb=limits.memory_mb,
                               warm=start, nice=limits.nice, start_method=method)
        self.runs = SolverRun(self)
        self.thinking = Thinking()

    def start(self) -> None:
        """The warmer first (it compiles while the workers start), then the workers."""
        if self.warmer is not None:
            self.warmer.start()
        self.pool.start()

    def kernels(self) -> list[dict[str, Any]]:
        """The state of each kernel the requests use (none listed when the workers compile on demand)."""
        return [] if self.warmer is None else self.warmer.status(self.pool.size)

    async def run(self, request: Request, func: Callable[[Request_], Any], data: Request_,
                  seconds: float | None = None, halt: threading.Event | None = None) -> Any:
        """``func(data)`` in a worker, capped at ``seconds`` (default: the check cap), cancelled
        when the client disconnects; ``halt`` asks it for its answer so far."""
        outcome = await self.pool.run_async(answer, func, data, time_limit=seconds or self.limits.check_seconds,
                                            is_cancelled=request.is_disconnected, halt=halt)
        return settle(outcome)

    def close(self) -> None:
        self.runs.cancel_any()
        self.pool.close()
        self.pool.warm = None
        if self.warmer is not None:
            self.warmer.close()


def solve_in_worker(puzzle: str, board_name: str, options: dict[str, Any], progress: Callable[[str], None]) -> Any:
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
        self.info: dict[str, Any] = {"state": "idle"}
        self.owner: str | None = None

    def start(self, puzzle: str, board: str, options: dict[str, Any], limit: float, tab: str) -> dict[str, Any]:
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

    def _run(self, puzzle: str, board: str, options: dict[str, Any], limit: float, cancel: threading.Event,
             info: dict[str, Any]) -> None:
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
                note = outcome.value.get("note")  # e.g. the plain engine ran while the kernel compiled
                line = f"finished: status {outcome.value.get('status', '?')}"
                info["log"].append(line + (f"; {note}" if note else ""))
            else:
                state = "cancelled" if outcome.message == "cancelled" else "error"
                info["state"] = state
                info["log"].append(outcome.message if state != "error" else f"stopped: {outcome.message}")

    def cancel(self, tab: str) -> dict[str, Any]:
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

    def status(self, tab: str) -> dict[str, Any]:
        """The run as the tab ``tab`` sees it: its own run in full, another tab's as busy."""
        if tab != self.owner:
            return {"state": "idle", "elsewhere": self.info["state"] == "running"}
        if self.info["state"] == "running":
            self.info["elapsed"] = round(time.time() - self.info["started"], 1)
        return {k: v for k, v in self.info.items() if k != "started"}

    def poll(self, tab: str) -> dict[str, Any]:
        with self.lock:
            return self.status(tab)
