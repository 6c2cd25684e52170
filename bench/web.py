"""Workbench latency: "what may come next" at the start of every game, and a live check.

For every registered game: the median time of the referee's ``click_options`` at the start
(no clicks yet, and after the first offered click), called in-process, and of the whole
``POST /api/game`` request through Starlette's test client (the record replayed, the position
drawn, the options computed). Then the live check of the committed One by One answer
(``POST /api/check``) and one click of the Get a Jump On click puzzles (``POST /api/jump``: the
chains replayed, the click applied, the options and the verdict). Goal: every median under
50 ms, Netzwerk included.

``python -m bench web`` (21 runs each); ``python -m bench.web RUNS``.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

GOAL_MS = 50.0


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
    from powertwo.web import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1:8765")
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
    from powertwo.web import create_app

    stones = json.loads((Path(__file__).resolve().parents[1] / "results" / "one-by-one.json").read_text())["stones"]
    client = TestClient(create_app(), base_url="http://127.0.0.1:8765")
    board = load("power-of-two")
    p = get_puzzle("one-by-one")
    lib = median_ms(lambda: p.check({"puzzle": "one-by-one", "stones": stones}, board), runs)
    http = median_ms(lambda: client.post("/api/check", json={"puzzle": "one-by-one", "stones": stones})
                     .raise_for_status(), runs)
    return lib, http


def jump_ms(runs: int) -> list[tuple[str, float]]:
    """One click at the start of each Get a Jump On click puzzle, through ``POST /api/jump``."""
    from starlette.testclient import TestClient

    from powertwo.web import create_app

    client = TestClient(create_app(), base_url="http://127.0.0.1:8765")
    out = []
    for puzzle in ("jump-forward", "jump-reverse"):
        first = client.post("/api/jump", json={"puzzle": puzzle}).json()["next"][0]
        out.append((puzzle, median_ms(lambda p=puzzle, f=first: client.post(
            "/api/jump", json={"puzzle": p, "click": f}).raise_for_status(), runs)))
    return out


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


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 21)
