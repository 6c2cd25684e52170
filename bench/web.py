"""Workbench latency: "what may come next" at the start of every game, and a live check.

For every registered game: the median time of the referee's ``click_options`` at the start
(no clicks yet, and after the first offered click), called in-process, and of the whole
``POST /api/game`` request through Starlette's test client (the record replayed, the position
drawn, the options computed). Then the live check of the committed One by One answer
(``POST /api/check``) and one click of the Get a Jump On click puzzles (``POST /api/jump``: the
chains replayed, the click applied, the options and the verdict). Goal: every median under
50 ms, Netzwerk included.

Then the latency of a plain request under load: a real server on loopback (the core count of
workers, the default queue) takes 40 computer moves of 1 s and 5 hostile requests at once
(:func:`hostile_requests`: a jump-reverse claim whose bound takes long to re-prove, a line check
on a board of 8 parallel segments, an upload of 10,000 segments, a deeply nested body, a huge
stone count) while ``GET /api/meta`` is asked every 50 ms: its median and worst latency (goal:
under 500 ms) and how every loaded request ended (the suite's ``tests/test_web_load.py`` holds
the outcomes).

Then the first moves of a cold start (:func:`cold_moves`): ``powertwo serve`` with an empty
numba cache (``NUMBA_CACHE_DIR`` a fresh folder), the page's first request, then at once a 1 s
computer move in The Power of Two and one in That's My Line (at the same time), each timed from
that first request (goal: within 5 s), while plain requests (``GET /api/meta``, ``POST /api/game``)
are timed every 100 ms until every kernel is compiled (goal: none over 1 s). And the cost of a
cancel (:func:`cancel_then_move`): two computer moves abandoned by their client 0.3 s after they
start, then a 1 s move (goal: within 3 s).

``python -m bench web`` (21 runs each); ``python -m bench.web RUNS``.
"""

from __future__ import annotations

import contextlib
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

GOAL_MS = 50.0
PLAIN_GOAL_MS = 500.0


def median_ms(call, runs: int) -> float:
    call()  # warm-up: imports and caches
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def rows(runs: int) -> list[tuple[str, float, float, float]]:
    from starlette.testclient import TestClient

    from powertwo.rules import game_names, get_game
    from powertwo.web import Limits, create_app

    client = TestClient(create_app(limits=Limits(warm=False)), base_url="http://127.0.0.1:8765")
    out = []
    for name in game_names():
        game = get_game(name)
        state = game.start()
        first = min(game.click_options(state, ()).next)
        lib = median_ms(lambda g=game, s=state: g.click_options(s, ()), runs)
        lib1 = median_ms(lambda g=game, s=state, f=first: g.click_options(s, (f,)), runs)
        http = median_ms(lambda n=name, f=first: client.post("/api/game", json={"game": n, "clicks": [f]})
                         .raise_for_status(), runs)
        out.append((name, lib, lib1, http))
    return out


def check_ms(runs: int) -> tuple[float, float]:
    from starlette.testclient import TestClient

    from powertwo.boards import load
    from powertwo.solvers.registry import get_puzzle
    from powertwo.web import Limits, create_app

    stones = json.loads((Path(__file__).resolve().parents[1] / "results" / "one-by-one.json").read_text())["stones"]
    client = TestClient(create_app(limits=Limits(warm=False)), base_url="http://127.0.0.1:8765")
    board = load("power-of-two")
    p = get_puzzle("one-by-one")
    lib = median_ms(lambda: p.check({"puzzle": "one-by-one", "stones": stones}, board), runs)
    http = median_ms(lambda: client.post("/api/check", json={"puzzle": "one-by-one", "stones": stones})
                     .raise_for_status(), runs)
    return lib, http


def jump_ms(runs: int) -> list[tuple[str, float]]:
    """One click at the start of each Get a Jump On click puzzle, through ``POST /api/jump``."""
    from starlette.testclient import TestClient

    from powertwo.web import Limits, create_app

    client = TestClient(create_app(limits=Limits(warm=False)), base_url="http://127.0.0.1:8765")
    out = []
    for puzzle in ("jump-forward", "jump-reverse"):
        first = client.post("/api/jump", json={"puzzle": puzzle}).json()["next"][0]
        out.append((puzzle, median_ms(lambda p=puzzle, f=first: client.post(
            "/api/jump", json={"puzzle": p, "click": f}).raise_for_status(), runs)))
    return out


def segments_board(count: int, name: str) -> dict:
    """A board of ``count`` parallel segments of three nodes (a hostile upload: large symmetry group)."""
    nodes = {str(3 * k + i + 1): [str(i), str(k)] for k in range(count) for i in range(3)}
    lines = [[3 * k + 1, 3 * k + 2, 3 * k + 3] for k in range(count)]
    return {"name": name, "description": "parallel segments", "nodes": nodes, "lines": lines}


def hostile_requests() -> list[tuple[str, str]]:
    """Five requests that ask the server for long or unbounded work (path, JSON body text)."""
    import random

    position = sorted(random.Random(2).sample(range(1, 65), 34))  # re-proving bound 7 takes long
    claim = {"puzzle": "jump-reverse", "board": "power-of-two", "position": position, "moves": [],
             "status": "unknown", "objective": None, "bound": 7}
    nested = '{"solution": ' + "[" * 100_000 + "]" * 100_000 + "}"
    return [("/api/check", json.dumps({"solution": claim})),
            ("/api/check", json.dumps({"puzzle": "one-by-one", "board": segments_board(8, "eight"), "stones": [1, 4]})),
            ("/api/board", json.dumps({"board": segments_board(10_000, "many")})),
            ("/api/check", nested),
            ("/api/check", json.dumps({"puzzle": "thats-my-line", "record": [], "stones": 10**30}))]


def watch_plain(url: str, stop: Any, out: Any) -> None:
    """``GET /api/meta`` every 50 ms until ``stop`` is set; the latencies (ms) go to ``out``
    (run in its own process, so the load generator's threads do not delay its clock)."""
    import httpx

    latencies = []
    with httpx.Client(base_url=url, timeout=60) as client:
        while not stop.is_set():
            began = time.perf_counter()
            client.get("/api/meta").raise_for_status()
            latencies.append((time.perf_counter() - began) * 1000)
            time.sleep(0.05)
    out.send(latencies)


def load_run(url: str, moves: int = 40, seconds: float = 1.0) -> dict:
    """``moves`` computer moves and the hostile requests at once against the server at ``url``,
    while another process asks ``GET /api/meta`` every 50 ms: the statuses by request kind and the
    plain request's latencies (ms)."""
    import multiprocessing as mp
    from collections import Counter
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    game = {"game": "power-of-two", "moves": [], "seconds": seconds}
    jobs = [("computer", "/api/game/computer", json.dumps(dict(game, seed=k))) for k in range(moves)]
    jobs += [("hostile", path, data) for path, data in hostile_requests()]
    ctx = mp.get_context("spawn")
    stop, (got, sent) = ctx.Event(), ctx.Pipe(duplex=False)
    watcher = ctx.Process(target=watch_plain, args=(url, stop, sent))
    watcher.start()
    limits = httpx.Limits(max_connections=len(jobs))
    with httpx.Client(base_url=url, timeout=300, limits=limits) as client:

        def send(job: tuple[str, str, str]) -> tuple[str, int]:
            return job[0], client.post(job[1], content=job[2].encode(),
                                       headers={"Content-Type": "application/json"}).status_code

        time.sleep(1.0)  # the watcher is asking before the load comes
        with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
            hostile = [pool.submit(send, job) for job in jobs[moves:]]  # the hostile ones first, to reach workers
            time.sleep(0.5)
            statuses = Counter(pool.map(send, jobs[:moves]))
            statuses.update(f.result() for f in hostile)
    stop.set()
    latencies = got.recv()
    watcher.join()
    return {"statuses": statuses, "latencies": latencies}


@contextlib.contextmanager
def server_process() -> Iterator[tuple[str, subprocess.Popen]]:
    """``powertwo serve`` as its own process on a free loopback port (so the load generator does
    not share its interpreter): yields the URL, once the workers are warm, and the process."""
    import httpx

    proc, url = start_server()
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if not httpx.get(url + "/api/meta").json()["warming"]:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        yield url, proc
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def start_server(env: dict | None = None) -> tuple[subprocess.Popen, str]:
    """A ``powertwo serve`` process of its own on a free loopback port (``env``: its environment),
    and its URL."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-c", f"from powertwo.web import serve; serve(port={port})"], env=env)
    return proc, f"http://127.0.0.1:{port}"


def listening(url: str) -> float:
    """Wait until the server at ``url`` answers the page (``GET /``); the time it did (monotonic)."""
    import httpx

    while True:
        try:
            httpx.get(url + "/", timeout=60).raise_for_status()
            return time.monotonic()
        except httpx.TransportError:
            time.sleep(0.02)


def cold_moves(seconds: float = 1.0) -> dict:
    """A fresh ``powertwo serve`` with an empty numba cache: the seconds from the page's first request
    to each game's first computer move (both asked at once, right after it), how each was found, the
    worst wait of a plain request until every kernel was compiled, and each kernel's compile time."""
    import os
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    with tempfile.TemporaryDirectory(prefix="powertwo-numba-") as cache:
        proc, url = start_server(dict(os.environ, NUMBA_CACHE_DIR=cache))
        try:
            first = listening(url)
            plain: list[float] = []
            warm: dict = {}

            def watch() -> None:
                while True:
                    began = time.monotonic()
                    client.post("/api/game", json={"game": "netzwerk"}).raise_for_status()
                    plain.append(time.monotonic() - began)
                    began = time.monotonic()
                    answer = client.get("/api/meta").raise_for_status().json()
                    plain.append(time.monotonic() - began)
                    if not answer["warming"]:
                        warm.update(answer=answer, at=time.monotonic() - first)
                        return
                    time.sleep(0.1)

            def move(game: str) -> tuple[float, str]:
                answer = client.post("/api/game/computer", json={"game": game, "seconds": seconds}).json()
                return time.monotonic() - first, answer.get("computer", {}).get("summary") or answer.get("error", "")

            with httpx.Client(base_url=url, timeout=600) as client, ThreadPoolExecutor(3) as pool:
                watcher = pool.submit(watch)
                moves = dict(zip(("power-of-two", "thats-my-line"),
                                 pool.map(move, ("power-of-two", "thats-my-line")), strict=True))
                watcher.result()
            return {"moves": moves, "plain_worst": max(plain), "plain_count": len(plain), "warm_at": warm["at"],
                    "kernels": warm["answer"]["kernels"]}
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def cancel_then_move(seconds: float = 1.0, cancelled: int = 2, after: float = 0.3) -> dict:
    """A warm server: ``cancelled`` computer moves of 5 s abandoned by their client ``after`` seconds,
    one after the other, then a ``seconds`` move: its wall time and how it was found."""
    import httpx

    with server_process() as (url, _):
        game = {"game": "power-of-two", "seconds": 5.0}
        for _ in range(cancelled):
            try:
                httpx.post(url + "/api/game/computer", json=game, timeout=after)
            except httpx.TimeoutException:
                pass
        began = time.monotonic()
        answer = httpx.post(url + "/api/game/computer", json=dict(game, seconds=seconds), timeout=120).json()
        return {"seconds": time.monotonic() - began, "summary": answer.get("computer", {}).get("summary")
                or answer.get("error")}


def plain_under_load() -> dict:
    with server_process() as (url, _):
        return load_run(url)


def cold_start_ms() -> tuple[float, float]:
    """A fresh ``powertwo serve`` process: the first ``POST /api/game`` as soon as it listens
    (its workers still warming up), and the first ``GET /api/meta`` after it (ms)."""
    import httpx

    proc, url = start_server()
    try:
        while True:
            try:
                httpx.get(url + "/static/style.css").raise_for_status()
                break
            except httpx.TransportError:
                time.sleep(0.02)
        began = time.perf_counter()
        httpx.post(url + "/api/game", json={"game": "power-of-two"}, timeout=60).raise_for_status()
        game = (time.perf_counter() - began) * 1000
        began = time.perf_counter()
        httpx.get(url + "/api/meta", timeout=60).raise_for_status()
        return game, (time.perf_counter() - began) * 1000
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main(runs: int = 21) -> None:
    print(f"## Workbench latency (median of {runs} runs, ms; goal < {GOAL_MS:g} ms)\n")
    print("| game | next at start (referee) | after one click (referee) | POST /api/game, one click | goal |")
    print("|---|---:|---:|---:|---|")
    for name, lib, lib1, http in rows(runs):
        ok = "met" if max(lib, lib1, http) < GOAL_MS else "MISSED"
        print(f"| {name} | {lib:.1f} | {lib1:.1f} | {http:.1f} | {ok} |")
    lib, http = check_ms(runs)
    ok = "met" if http < GOAL_MS else "MISSED"
    print(f"\n| live check | checker | POST /api/check | goal |\n|---|---:|---:|---|\n"
          f"| one-by-one, committed answer | {lib:.1f} | {http:.1f} | {ok} |\n")
    print("| click puzzle | POST /api/jump, first click | goal |\n|---|---:|---|")
    for puzzle, ms in jump_ms(runs):
        print(f"| {puzzle} | {ms:.1f} | {'met' if ms < GOAL_MS else 'MISSED'} |")
    game, meta = cold_start_ms()
    print(f"\n| cold start | first POST /api/game | first GET /api/meta | goal |\n|---|---:|---:|---|\n"
          f"| a fresh server process | {game:.0f} | {meta:.0f} | {'met' if max(game, meta) < 1000 else 'MISSED'} "
          f"(< 1000 ms) |")
    cold = cold_moves()
    print("\n| cold start, empty numba cache | answered after the page's first request (s) | how | goal |\n"
          "|---|---:|---|---|")
    for game, (took, how) in cold["moves"].items():
        print(f"| first 1 s computer move, {game} | {took:.1f} | {how} | {'met' if took <= 5 else 'MISSED'} (<= 5 s) |")
    print(f"| {cold['plain_count']} plain requests until every kernel was compiled ({cold['warm_at']:.0f} s) | "
          f"worst {cold['plain_worst']:.2f} | | {'met' if cold['plain_worst'] <= 1 else 'MISSED'} (<= 1 s) |")
    print("\nKernels compiled by the warmer: " + ", ".join(f"{k['title']} {k.get('seconds', k['state'])} s"
                                                         for k in cold["kernels"]) + ".")
    cancel = cancel_then_move()
    print(f"\n| after two computer moves cancelled 0.3 s after they start | the next 1 s move (s) | how | goal |\n"
          f"|---|---:|---|---|\n| power-of-two | {cancel['seconds']:.1f} | {cancel['summary']} | "
          f"{'met' if cancel['seconds'] <= 3 else 'MISSED'} (<= 3 s) |")
    report = plain_under_load()
    lat = sorted(report["latencies"])
    worst = lat[-1]
    print(f"\n| under load (40 computer moves, 5 hostile requests) | GET /api/meta median | worst | requests | "
          f"goal |\n|---|---:|---:|---:|---|\n| {len(lat)} plain requests | {statistics.median(lat):.1f} | "
          f"{worst:.1f} | {len(lat)} | {'met' if worst < PLAIN_GOAL_MS else 'MISSED'} |\n")
    ends = ", ".join(f"{kind} {status}: {n}" for (kind, status), n in sorted(report["statuses"].items()))
    print(f"How the loaded requests ended: {ends}.")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 21)
