"""The workbench under load, on loopback: 40 computer moves and 5 hostile requests at once end in
a result, a 4xx or a 503 each while plain requests keep answering; SIGTERM stops the server."""

from __future__ import annotations

import signal
import threading
import time

import httpx
import pytest

from bench.web import hostile_requests, load_run, server_process
from powertwo.web import create_app
from powertwo.web.background import serving
from powertwo.web.work import Limits

pytestmark = pytest.mark.slow


def test_forty_computer_moves_and_five_hostile_requests():
    limits = Limits(workers=2, queue=4, check_seconds=3.0)  # room for a computer move beside 4 hostile ones
    with serving(create_app(limits=limits)) as url:
        report = load_run(url, moves=40, seconds=1.0)
        after = httpx.get(url + "/api/meta").json()["load"]
    statuses = report["statuses"]
    assert sum(statuses.values()) == 40 + len(hostile_requests())  # every request answered
    assert all(status in (200, 503) or 400 <= status < 500 for _, status in statuses)
    assert statuses[("computer", 200)] >= 1 and statuses[("computer", 503)] >= 1  # some played, the rest refused
    assert ("hostile", 500) not in statuses
    assert report["latencies"] and max(report["latencies"]) < 5000  # plain requests never waited on the work
    assert after["running"] == 0 and after["waiting"] == 0


def test_a_refused_request_says_when_to_retry():
    limits = Limits(workers=1, queue=0, check_seconds=5.0, warm=False)
    with serving(create_app(limits=limits)) as url:
        game = {"game": "power-of-two", "moves": [], "seconds": 3.0}
        slow = threading.Thread(target=lambda: httpx.post(url + "/api/game/computer", json=game, timeout=60))
        slow.start()
        while httpx.get(url + "/api/meta").json()["load"]["running"] < 1:
            time.sleep(0.05)
        refused = httpx.post(url + "/api/game/computer", json=game, timeout=60)
        slow.join()
    assert refused.status_code == 503
    assert refused.json()["error"] == "all 1 workers are busy and 0 requests wait; try again shortly"
    assert int(refused.headers["retry-after"]) >= 1


def test_a_check_beyond_its_cap_is_not_decided():
    path, body = hostile_requests()[0]  # a jump-reverse bound that takes long to re-prove
    with serving(create_app(limits=Limits(workers=1, queue=0, check_seconds=1.0, warm=False))) as url:
        answer = httpx.post(url + path, content=body, headers={"Content-Type": "application/json"}, timeout=120)
        assert httpx.get(url + "/api/meta").json()["load"]["running"] == 0
    assert (answer.status_code, answer.json()["error"]) == (422, "not decided within the limit (1 s)")


def test_sigterm_stops_the_server_while_it_works():
    with server_process() as (url, proc):
        game = {"game": "power-of-two", "moves": [], "seconds": 10.0}
        threading.Thread(target=lambda: httpx.post(url + "/api/game/computer", json=game, timeout=60),
                         daemon=True).start()
        while httpx.get(url + "/api/meta").json()["load"]["running"] < 1:
            time.sleep(0.05)
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        assert time.monotonic() - sent < 5  # generous: the server stops within about a second


def test_cancelled_computer_moves_keep_their_workers():
    """Two computer moves abandoned by their client 0.3 s after they start stop their searches: no
    worker is replaced, and the next 1 s move answers at once (the bench times it)."""
    with serving(create_app(limits=Limits(workers=1, queue=2))) as url:
        game = {"game": "power-of-two", "moves": [], "seconds": 10.0}
        for _ in range(2):
            with pytest.raises(httpx.TimeoutException):
                httpx.post(url + "/api/game/computer", json=game, timeout=0.3)
        began = time.monotonic()
        answer = httpx.post(url + "/api/game/computer", json=dict(game, seconds=1.0), timeout=120)
        took = time.monotonic() - began
        load = httpx.get(url + "/api/meta").json()["load"]
    assert answer.status_code == 200 and answer.json()["computer"]["method"] == "alpha-beta"
    assert load["replaced"] == 0 and took < 30  # generous: about a second on an idle machine


def test_until_a_kernel_is_loaded_the_plain_search_plays_and_says_so():
    from powertwo.rules import get_game

    with serving(create_app(limits=Limits(workers=1, queue=0, kernels=()))) as url:  # no kernel is ever loaded
        game = get_game("thats-my-line")
        answer = httpx.post(url + "/api/game/computer", json={"game": "thats-my-line", "seconds": 0.3},
                            timeout=120).json()
    assert answer["computer"]["notes"] == ["That's My Line's compiled endgame search is still being compiled: "
                                           "the plain Python search ran instead"]
    assert answer["computer"]["summary"].endswith(answer["computer"]["notes"][0])
    assert game.is_legal(game.start(), game.parse_move(answer["played"], game.start()))
