"""Bounded work: a function run in a child process with a time cap and an optional memory cap.

The child is killed at the cap and the caller is told honestly that the question was "not
decided within the limit"; it never hangs the caller and never takes the machine's memory.

- :func:`run_bounded` runs one call in a fresh child process (the CLI's ``check --time-limit``).
- :class:`WorkerPool` keeps as many child processes as the machine has cores, with a short
  queue in front of them (a call beyond it is refused at once with :class:`PoolBusy`, which says
  when to retry), a time cap per call, cancellation from the caller (a threading event, or an
  async ``is_cancelled`` check: a web client that went away) and a warm-up function run in
  every worker before its first call.

Stopping: a caller that cancels a call (or halts it, wanting its answer so far) first asks the
function to stop: the worker's :func:`should_stop` turns true, and a search that reads it ends at
once with what it has. A call that then ends within :data:`GRACE` seconds leaves its worker alive
for the next call; one that does not (and a call stopped at its time or memory cap) kills its
worker, and the pool starts a fresh one in its place.

The function and its arguments cross a process boundary: module-level functions and picklable
arguments (with the default ``spawn`` start; ``fork`` also takes closures and saves the child's
imports, and suits single-threaded callers).

Progress: when the caller passes ``on_progress``, the function is called with a keyword
``progress`` (a callable taking one line) whose lines reach ``on_progress`` in the caller.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

__all__ = ["Outcome", "NotDecided", "PoolBusy", "WorkerPool", "run_bounded", "should_stop", "DONE", "FAILED",
           "TIMEOUT", "MEMORY", "CANCELLED", "CRASHED", "GRACE"]

DONE, FAILED, TIMEOUT, MEMORY, CANCELLED, CRASHED = "done", "failed", "timeout", "memory", "cancelled", "crashed"
POLL = 0.02
"""How often a waiting caller looks at its child (seconds): the delay of a kill after the cap."""
STOPPING = "the server is stopping"
"""Why every call ends when the pool closes (its workers are killed at once, with no grace)."""
GRACE = 2.0
"""Seconds a cancelled call has to end by itself (a search reading :func:`should_stop`) before its
worker is killed and replaced."""
_STOP: Any = None
"""In a worker: the event its caller sets to ask the running call to stop (None elsewhere)."""


def should_stop() -> bool:
    """Whether the caller of the call running in this worker asked it to stop (cancelled, or halted
    for its answer so far). Long searches read it between steps and end with what they have; it is
    always false outside a worker."""
    return _STOP is not None and _STOP.is_set()


class NotDecided(ValueError):
    """The call was stopped before it answered (time or memory cap, cancellation, crash)."""


class PoolBusy(ValueError):
    """Every worker is busy and the queue is full; ``retry_after`` is a hint in whole seconds."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Outcome:
    """How a bounded call ended: ``status`` is one of done, failed (the function raised:
    ``error`` holds the exception), timeout, memory, cancelled, crashed; ``message`` is one
    line for the user; ``seconds`` the time the call ran (after its worker was ready)."""

    status: str
    value: Any = None
    message: str = ""
    seconds: float = 0.0
    error: BaseException | None = None

    @property
    def decided(self) -> bool:
        return self.status in (DONE, FAILED)

    def result(self) -> Any:
        """The function's value; its own exception when it raised; :class:`NotDecided` otherwise."""
        if self.status == DONE:
            return self.value
        if self.status == FAILED and self.error is not None:
            raise self.error
        raise NotDecided(self.message)


def _first_line(text: Any) -> str:
    return str(text).splitlines()[0] if str(text) else ""


def _limit_text(seconds: float) -> str:
    return f"{seconds:g} s"


# ---------------------------------------------------------------- the child
def _child_main(conn: Any, memory_mb: int | None, warm: Callable[[], Any] | None, nice: int = 0,
                stop: Any = None) -> None:
    """A worker: lower its priority, cap its address space, warm up, then run calls from the pipe
    until it closes (the caller gone: it ends quietly). ``stop`` is the event behind :func:`should_stop`."""
    global _STOP
    _STOP = stop
    if nice:
        os.nice(nice)
    if memory_mb is not None:
        import resource

        cap = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    try:
        if warm is not None:
            try:
                warm()
            except Exception:  # noqa: BLE001,S110 - a failed warm-up only costs the first call its compile
                pass
        conn.send(("ready", None))
        while True:
            _serve_one(conn)
    except (EOFError, OSError):
        return


def _serve_one(conn: Any) -> None:
    """Take one call from the pipe, run it, send back how it ended."""
    func, args, kwargs, wants_progress = conn.recv()
    conn.send(("started", None))
    if wants_progress:
        kwargs = dict(kwargs, progress=lambda line: conn.send(("progress", _first_line(line))))
    try:
        message: tuple[str, Any] = ("done", func(*args, **kwargs))
    except MemoryError:
        message = ("memory", None)
    except Exception as exc:  # noqa: BLE001 - sent to the caller, who decides
        message = ("failed", exc)
    try:
        conn.send(message)
    except (EOFError, OSError):
        raise
    except Exception as exc:  # noqa: BLE001 - an unpicklable value or exception
        conn.send(("failed", RuntimeError(f"{exc.__class__.__name__}: {exc}")))


class _Worker:
    """One child process and the parent's end of its pipe."""

    def __init__(self, ctx: Any, memory_mb: int | None, warm: Callable[[], Any] | None, nice: int = 0):
        self.conn, child = ctx.Pipe()
        self.stop_event = ctx.Event()  # set by the caller only while it waits for a call; cleared after
        self.process = ctx.Process(target=_child_main, args=(child, memory_mb, warm, nice, self.stop_event),
                                   daemon=True)
        self.process.start()
        child.close()
        self.ready = False
        self.memory_mb = memory_mb

    def alive(self) -> bool:
        alive: bool = self.process.is_alive()
        return alive

    def poll_ready(self) -> bool:
        """Whether the warm-up has ended (reads the worker's ready message when it is there)."""
        try:
            if not self.ready and self.conn.poll():
                kind, _ = self.conn.recv()
                self.ready = kind == "ready"
        except (EOFError, OSError):  # it died warming up: the next call finds it dead and replaces it
            return False
        return self.ready

    def stop(self) -> None:
        """Kill the child (SIGKILL when it does not end on SIGTERM at once) and reap it."""
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(0.2)
            if self.process.is_alive():
                self.process.kill()
        self.process.join(1.0)
        self.conn.close()

    def call(self, func: Callable[..., Any], args: tuple, kwargs: dict, time_limit: float,
             stop: Callable[[], str | None], on_progress: Callable[[str], None] | None,
             start_limit: float, halt: threading.Event | None = None) -> Outcome:
        """Run one call; ``stop()`` returns a reason to give up (cancelled) or None; ``halt``, once
        set, asks the function to end with its answer so far (which counts). The time cap runs from
        the moment the worker takes the call (after its warm-up), which must come within
        ``start_limit`` seconds."""
        self.conn.send((func, args, kwargs, on_progress is not None))
        sent, began = time.monotonic(), None
        try:
            while True:
                if self.conn.poll(POLL):
                    try:
                        kind, payload = self.conn.recv()
                    except (EOFError, OSError):
                        return self._crashed(began)
                    if kind == "ready":
                        self.ready = True
                    elif kind == "started":
                        began = time.monotonic()
                    elif kind == "progress" and on_progress is not None:
                        on_progress(payload)
                    elif kind in ("done", "failed", "memory"):
                        return self._ended(kind, payload, began)
                    continue
                now = time.monotonic()
                reason = stop()
                if reason is not None:
                    return self._cancelled(reason, began, grace=0.0 if reason == STOPPING else GRACE)
                if halt is not None and halt.is_set():
                    self.stop_event.set()
                if began is None and now - sent > start_limit:
                    self.stop()
                    return Outcome(TIMEOUT, message=f"not started within {_limit_text(start_limit)} (the worker was "
                                                    f"still warming up)")
                if began is not None and now - began > time_limit:
                    self.stop()
                    return Outcome(TIMEOUT, message=f"not decided within the limit ({_limit_text(time_limit)})",
                                   seconds=now - began)
                if not self.process.is_alive():
                    return self._crashed(began)
        finally:
            self.stop_event.clear()

    def _cancelled(self, reason: str, began: float | None, grace: float) -> Outcome:
        """Ask the running call to stop and wait up to ``grace`` seconds for it to end (its answer
        is dropped, the worker stays); kill the worker when it does not end in time."""
        self.stop_event.set()
        deadline = time.monotonic() + grace
        while self.process.is_alive() and time.monotonic() < deadline:
            try:
                if self.conn.poll(POLL):
                    kind, _ = self.conn.recv()
                    if kind == "ready":
                        self.ready = True
                    elif kind in ("done", "failed"):
                        break
                    elif kind == "memory":
                        self.stop()
                        break
                    continue
            except (EOFError, OSError):
                break
        else:
            self.stop()
        seconds = 0.0 if began is None else time.monotonic() - began
        return Outcome(CANCELLED, message=reason, seconds=seconds)

    def _ended(self, kind: str, payload: Any, began: float | None) -> Outcome:
        seconds = 0.0 if began is None else time.monotonic() - began
        if kind == "done":
            return Outcome(DONE, value=payload, seconds=seconds)
        if kind == "memory":
            self.stop()  # a worker that ran out of memory may hold a damaged heap
            return Outcome(MEMORY, message=f"not decided within the memory limit ({self.memory_mb} MB)",
                           seconds=seconds)
        text = str(payload).splitlines()[0] if str(payload) else payload.__class__.__name__
        return Outcome(FAILED, message=text, seconds=seconds, error=payload)

    def _crashed(self, began: float | None) -> Outcome:
        self.stop()
        code = self.process.exitcode
        seconds = 0.0 if began is None else time.monotonic() - began
        if self.memory_mb is not None:
            return Outcome(CRASHED, message=f"not decided: the worker ended (exit code {code}; memory limit "
                                            f"{self.memory_mb} MB)", seconds=seconds)
        return Outcome(CRASHED, message=f"not decided: the worker ended (exit code {code})", seconds=seconds)


def run_bounded(func: Callable[..., Any], *args: Any, time_limit: float, memory_mb: int | None = None,
                on_progress: Callable[[str], None] | None = None, cancel: threading.Event | None = None,
                start_method: str = "spawn", **kwargs: Any) -> Outcome:
    """``func(*args, **kwargs)`` in a fresh child process, killed after ``time_limit`` seconds
    (counted from when the child is ready to run it, so its imports are not counted) or when
    ``cancel`` is set; with ``memory_mb`` its address space is capped (``RLIMIT_AS``)."""
    if not time_limit > 0:
        raise ValueError(f"time limit {time_limit!r}: must be above 0 seconds")
    worker = _Worker(mp.get_context(start_method), memory_mb, None)
    try:
        return worker.call(func, args, kwargs, time_limit,
                           lambda: "cancelled" if cancel is not None and cancel.is_set() else None,
                           on_progress, start_limit=max(60.0, time_limit))
    finally:
        worker.stop()


# ---------------------------------------------------------------- the pool
class WorkerPool:
    """``workers`` child processes (default: the core count) with ``queue`` more calls waiting
    for one; a call beyond that raises :class:`PoolBusy` at once. Workers start lazily (on
    :meth:`start` or the first call) and run ``warm`` first; with ``nice`` they run at that much
    lower a priority (the caller's own process stays responsive on a busy machine); :meth:`close`
    kills them all and ends every waiting call as cancelled."""

    def __init__(self, workers: int | None = None, queue: int = 4, memory_mb: int | None = None,
                 warm: Callable[[], Any] | None = None, start_method: str = "spawn", nice: int = 0):
        self.size = max(1, workers or os.cpu_count() or 1)
        self.queue = max(0, queue)
        self.memory_mb = memory_mb
        self.warm = warm
        self.nice = nice
        self.ctx = mp.get_context(start_method)
        self.cond = threading.Condition()
        self.idle: list[_Worker] = []
        self.inflight = 0
        self.closed = False
        self.started = False
        self.threads = ThreadPoolExecutor(max_workers=self.size + self.queue, thread_name_prefix="bounded")
        self.recent: list[float] = []  # the run times of the last calls, for the retry hint
        self.replaced = 0  # workers killed (at a cap, or a cancelled call that did not stop) and replaced

    def start(self) -> None:
        """Start the workers (each warms up in its own process; nothing here waits for that)."""
        with self.cond:
            if not self.started and not self.closed:
                self.started = True
                self.idle = [self._worker() for _ in range(self.size)]

    def _worker(self) -> _Worker:
        return _Worker(self.ctx, self.memory_mb, self.warm, self.nice)

    @property
    def warming(self) -> bool:
        """Whether a started worker has not finished its warm-up yet (busy workers count as warm)."""
        with self.cond:
            return self.started and not all(w.poll_ready() for w in self.idle)

    def load(self) -> dict[str, int]:
        with self.cond:
            return {"workers": self.size, "queue": self.queue, "running": self.inflight - self._waiting(),
                    "waiting": self._waiting(), "replaced": self.replaced}

    def _waiting(self) -> int:
        return max(0, self.inflight - self.size)

    def retry_after(self) -> int:
        """Seconds after which a refused call may find room: the median recent run time, at least 1."""
        times = sorted(self.recent) or [1.0]
        return max(1, round(times[len(times) // 2]))

    def run(self, func: Callable[..., Any], *args: Any, time_limit: float, cancel: threading.Event | None = None,
            on_progress: Callable[[str], None] | None = None, start_limit: float = 120.0,
            halt: threading.Event | None = None, **kwargs: Any) -> Outcome:
        """``func(*args, **kwargs)`` on a worker, capped at ``time_limit`` seconds of running;
        :class:`PoolBusy` when the workers and the queue are full. ``start_limit`` bounds the
        wait for a worker (queue and warm-up). ``cancel`` drops the call (a function that reads
        :func:`should_stop` ends and leaves its worker alive); ``halt`` asks it to end now with its
        answer so far, which is the call's value."""
        self.start()
        with self.cond:
            if self.closed:
                raise PoolBusy(STOPPING, 1)
            if self.inflight >= self.size + self.queue:
                raise PoolBusy(f"all {self.size} workers are busy and {self.queue} requests wait; try again shortly",
                               self.retry_after())
            self.inflight += 1
        worker = None
        try:
            waited = time.monotonic()
            worker = self._take(cancel, waited + start_limit)
            if worker is None:
                if self.closed:
                    return Outcome(CANCELLED, message=STOPPING)
                if cancel is not None and cancel.is_set():
                    return Outcome(CANCELLED, message="cancelled")
                return Outcome(TIMEOUT, message=f"no worker free within {_limit_text(start_limit)}")

            def stop() -> str | None:
                if self.closed:
                    return STOPPING
                return "cancelled" if cancel is not None and cancel.is_set() else None

            left = max(1.0, waited + start_limit - time.monotonic())
            outcome = worker.call(func, args, kwargs, time_limit, stop, on_progress, left, halt)
            if outcome.status in (DONE, FAILED):
                self.recent = (self.recent + [outcome.seconds])[-20:]
            return outcome
        finally:
            self._give_back(worker)

    def _take(self, cancel: threading.Event | None, deadline: float) -> _Worker | None:
        """An idle worker that has finished its warm-up (a call never waits in the pipe of a worker
        still warming up, where a cancel could not reach it); a worker that died meanwhile is replaced."""
        with self.cond:
            while True:
                if self.closed or (cancel is not None and cancel.is_set()) or time.monotonic() > deadline:
                    return None
                for dead in [w for w in self.idle if not w.alive()]:
                    dead.stop()
                    self.idle[self.idle.index(dead)] = self._worker()
                    self.replaced += 1
                ready = [w for w in self.idle if w.poll_ready()]
                if ready:
                    self.idle.remove(ready[0])
                    return ready[0]
                self.cond.wait(POLL)

    def _give_back(self, worker: _Worker | None) -> None:
        with self.cond:
            self.inflight -= 1
            if worker is not None:
                if self.closed:
                    worker.stop()
                elif worker.alive() and not worker.conn.closed:
                    self.idle.append(worker)
                else:  # stopped at a cap: a fresh worker takes its place
                    self.idle.append(self._worker())
                    self.replaced += 1
            self.cond.notify_all()

    async def run_async(self, func: Callable[..., Any], *args: Any, time_limit: float,
                        is_cancelled: Callable[[], Awaitable[bool]] | None = None,
                        on_progress: Callable[[str], None] | None = None, halt: threading.Event | None = None,
                        **kwargs: Any) -> Outcome:
        """:meth:`run` from an event loop without blocking it; ``is_cancelled`` is awaited every
        quarter second (e.g. Starlette's ``request.is_disconnected``) and cancels the call;
        ``halt`` as for :meth:`run`."""
        cancel = threading.Event()
        with self.cond:  # refuse at once, on the loop, when full
            if self.closed or self.inflight >= self.size + self.queue:
                raise PoolBusy(f"all {self.size} workers are busy and {self.queue} requests wait; try again shortly"
                               if not self.closed else STOPPING, self.retry_after())
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.threads, lambda: self.run(func, *args, time_limit=time_limit, cancel=cancel,
                                                                     on_progress=on_progress, halt=halt, **kwargs))
        try:
            while True:
                done, _ = await asyncio.wait({future}, timeout=0.25)
                if done:
                    return future.result()
                if is_cancelled is not None and await is_cancelled():
                    cancel.set()
        finally:
            cancel.set()  # the caller's task was cancelled (or it returned): free the worker

    def close(self) -> None:
        """Kill every worker and end every call (waiting or running) as cancelled, within ~0.1 s."""
        with self.cond:
            self.closed = True
            idle, self.idle = self.idle, []
            self.cond.notify_all()
        for worker in idle:
            worker.stop()
        self.threads.shutdown(wait=False, cancel_futures=True)
