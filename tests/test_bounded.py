"""Bounded work: a call in a child process ends in its value, its own error, or an honest "not
decided" at the time or memory cap; the pool refuses beyond its queue and replaces killed workers."""

from __future__ import annotations

import asyncio
import os
import threading
import time

import pytest

from powertwo.solvers.bounded import (
    CANCELLED, DONE, FAILED, GRACE, MEMORY, TIMEOUT, NotDecided, PoolBusy, WorkerPool, run_bounded, should_stop,
)


def add(a: int, b: int) -> int:
    return a + b


def refuse(text: str) -> None:
    raise ValueError(f"puzzle: {text}")


def sleep(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def grow() -> int:
    blocks = []
    while True:
        blocks.append(bytearray(50 * 1024 * 1024))


def talk(lines: int, progress) -> int:
    for k in range(lines):
        progress(f"line {k}\nsecond line dropped")
    return lines


def test_value_of_a_call_in_a_spawned_child():
    outcome = run_bounded(add, 2, b=40, time_limit=60)
    assert (outcome.status, outcome.value, outcome.decided) == (DONE, 42, True)
    assert outcome.result() == 42


def test_the_functions_own_error_comes_back():
    outcome = run_bounded(refuse, "no stones", time_limit=30, start_method="fork")
    assert outcome.status == FAILED and outcome.message == "puzzle: no stones"
    with pytest.raises(ValueError, match="^puzzle: no stones$"):
        outcome.result()


def test_killed_at_the_time_cap_and_not_decided():
    began = time.monotonic()
    outcome = run_bounded(sleep, 60, time_limit=0.5, start_method="fork")
    assert outcome.status == TIMEOUT and not outcome.decided
    assert outcome.message == "not decided within the limit (0.5 s)"
    assert time.monotonic() - began < 30  # far below the 60 s the call wanted
    with pytest.raises(NotDecided, match=r"not decided within the limit \(0\.5 s\)"):
        outcome.result()


def test_memory_cap():
    outcome = run_bounded(grow, time_limit=60, memory_mb=400, start_method="fork")
    assert outcome.status == MEMORY
    assert outcome.message == "not decided within the memory limit (400 MB)"


def test_progress_lines_reach_the_caller():
    seen: list[str] = []
    outcome = run_bounded(talk, 3, time_limit=30, on_progress=seen.append, start_method="fork")
    assert outcome.value == 3 and seen == ["line 0", "line 1", "line 2"]


def test_cancel_event_stops_the_child():
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    outcome = run_bounded(sleep, 60, time_limit=60, cancel=cancel, start_method="fork")
    assert (outcome.status, outcome.message) == (CANCELLED, "cancelled")


def test_a_time_limit_must_be_positive():
    with pytest.raises(ValueError, match="time limit 0: must be above 0 seconds"):
        run_bounded(add, 1, 2, time_limit=0)


def test_pool_refuses_beyond_its_queue_and_replaces_a_killed_worker():
    pool = WorkerPool(workers=1, queue=1, start_method="fork")
    try:
        first_pid = pool.run(sleep, 0, time_limit=30).value
        results: list = []
        slow = threading.Thread(target=lambda: results.append(pool.run(sleep, 60, time_limit=0.5)))
        queued = threading.Thread(target=lambda: results.append(pool.run(sleep, 0, time_limit=30)))
        slow.start()
        while pool.load()["running"] < 1:
            time.sleep(0.01)
        queued.start()
        while pool.load()["waiting"] < 1:
            time.sleep(0.01)
        with pytest.raises(PoolBusy, match="all 1 workers are busy and 1 requests wait") as busy:
            pool.run(add, 1, 2, time_limit=30)
        assert busy.value.retry_after >= 1
        slow.join()
        queued.join()
        assert [r.status for r in results] == [TIMEOUT, DONE]
        assert first_pid != results[1].value  # the worker killed at the cap was replaced
        assert pool.run(add, 1, 2, time_limit=30).value == 3
    finally:
        pool.close()


def test_pool_warm_up_runs_before_the_first_call_and_close_ends_a_running_call():
    pool = WorkerPool(workers=1, queue=0, warm=lambda: time.sleep(0.3), start_method="fork")
    pool.start()
    assert pool.warming
    outcome: list = []
    running = threading.Thread(target=lambda: outcome.append(pool.run(sleep, 60, time_limit=60)))
    running.start()
    while pool.load()["running"] < 1:
        time.sleep(0.01)
    time.sleep(0.5)
    pool.close()
    running.join(timeout=5)
    assert not running.is_alive()
    assert (outcome[0].status, outcome[0].message) == (CANCELLED, "the server is stopping")
    with pytest.raises(PoolBusy, match="the server is stopping"):
        pool.run(add, 1, 2, time_limit=1)


def test_run_async_cancels_when_the_client_is_gone():
    pool = WorkerPool(workers=1, queue=0, start_method="fork")
    gone = {"at": time.monotonic() + 0.4}

    async def is_cancelled() -> bool:
        return time.monotonic() > gone["at"]

    async def main():
        return await pool.run_async(sleep, 60, time_limit=60, is_cancelled=is_cancelled)

    try:
        outcome = asyncio.run(main())
        assert outcome.status == CANCELLED
        assert pool.run(add, 2, 3, time_limit=30).value == 5
    finally:
        pool.close()


def die() -> None:
    os._exit(3)


def test_a_worker_that_dies_is_reported_and_replaced():
    pool = WorkerPool(workers=1, queue=0, start_method="fork")
    try:
        outcome = pool.run(die, time_limit=30)
        assert (outcome.status, outcome.message) == ("crashed", "not decided: the worker ended (exit code 3)")
        assert pool.run(add, 4, 5, time_limit=30).value == 9
    finally:
        pool.close()


def niceness() -> int:
    return os.nice(0)


def test_workers_run_at_a_lower_priority_when_asked():
    pool = WorkerPool(workers=1, queue=0, nice=5, start_method="fork")
    try:
        assert pool.run(niceness, time_limit=30).value == min(19, os.nice(0) + 5)
    finally:
        pool.close()


def count_until_told(limit: float) -> tuple[int, int]:
    """Counts until the caller asks it to stop (or ``limit`` seconds pass): (its pid, the count)."""
    count, end = 0, time.monotonic() + limit
    while not should_stop() and time.monotonic() < end:
        count += 1
        time.sleep(0.001)
    return os.getpid(), count


def test_should_stop_is_false_outside_a_worker():
    assert should_stop() is False


def test_a_cancelled_call_that_stops_by_itself_keeps_its_worker():
    pool = WorkerPool(workers=1, queue=0, start_method="fork")
    try:
        first = pool.run(count_until_told, 0.0, time_limit=30).value[0]
        cancel = threading.Event()
        threading.Timer(0.3, cancel.set).start()
        began = time.monotonic()
        outcome = pool.run(count_until_told, 60.0, time_limit=120, cancel=cancel)
        assert (outcome.status, outcome.message) == (CANCELLED, "cancelled")
        assert time.monotonic() - began < 0.3 + GRACE  # it stopped when told, not at its limit
        assert pool.run(count_until_told, 0.0, time_limit=30).value[0] == first  # the same worker
    finally:
        pool.close()


def test_a_cancelled_call_that_does_not_stop_is_killed_after_the_grace():
    pool = WorkerPool(workers=1, queue=0, start_method="fork")
    try:
        first = pool.run(sleep, 0, time_limit=30).value
        cancel = threading.Event()
        threading.Timer(0.2, cancel.set).start()
        outcome = pool.run(sleep, 60, time_limit=120, cancel=cancel)
        assert outcome.status == CANCELLED
        assert pool.run(sleep, 0, time_limit=30).value != first  # killed and replaced
    finally:
        pool.close()


def test_a_halted_call_ends_with_its_answer_so_far():
    pool = WorkerPool(workers=1, queue=0, start_method="fork")
    try:
        halt = threading.Event()
        threading.Timer(0.3, halt.set).start()
        outcome = pool.run(count_until_told, 60.0, time_limit=120, halt=halt)
        assert outcome.status == DONE and outcome.value[1] > 0
        again = pool.run(count_until_told, 0.2, time_limit=30)  # the next call is not told to stop
        assert again.status == DONE and again.value[0] == outcome.value[0] and again.seconds >= 0.2
    finally:
        pool.close()
