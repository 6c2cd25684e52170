"""The workbench's HTTP API through Starlette's test client: every endpoint, and bad input of
every kind answered with a 4xx and one line (never a 500 with a trace)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

starlette_testclient = pytest.importorskip("starlette.testclient")

from powertwo.boards import load, to_dict  # noqa: E402
from powertwo.rules import get_game  # noqa: E402
from powertwo.web import MAX_BODY, create_app  # noqa: E402
from powertwo.web.background import warmed  # noqa: E402

RESULTS = Path(__file__).resolve().parents[1] / "results"
BASE = "http://127.0.0.1:8765"


@pytest.fixture(scope="module")
def client():
    with starlette_testclient.TestClient(create_app(), base_url=BASE) as c:
        warmed(lambda: c.get("/api/meta").json())  # every kernel compiled and loaded: answers as on a warm server
        yield c


def error(response, status: int) -> str:
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert message and "\n" not in message and "Traceback" not in message
    return message


# ---------------------------------------------------------------- pages and boards
def test_index_and_static_modules(client):
    page = client.get("/")
    assert page.status_code == 200 and '<script type="module" src="/static/app.js">' in page.text
    for name in ("app.js", "board.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    script = client.get("/static/app.js").text.replace("HTTP ${res.status}", "")
    assert "http" not in script  # nothing fetched from outside


def test_meta_lists_boards_games_and_puzzles(client):
    meta = client.get("/api/meta").json()
    from powertwo.boards import shipped

    assert meta["boards"] == list(shipped()) and "power-of-two" in meta["boards"]
    assert meta["default_board"] == "power-of-two"
    assert [g["name"] for g in meta["games"]] == ["power-of-two", "david-goliath", "thats-my-line",
                                                  "tower-of-power", "netzwerk", "epaminondas"]
    # the games' rule options come from their one declaration (the workbench's option controls)
    david = next(g for g in meta["games"] if g["name"] == "david-goliath")
    assert [(o["name"], o["default"], o["choices"]) for o in david["options"]] == [
        ("count_win", False, [False, True]), ("sling", False, [False, True])]
    assert david["options"][1]["help"].startswith("David picks only the direction of his throw")
    one = next(p for p in meta["puzzles"] if p["name"] == "one-by-one")
    assert one["optimum"] == json.loads((RESULTS / "one-by-one.json").read_text())["objective"]


def test_board_view_has_exact_nodes_and_lines(client):
    view = client.get("/api/board/power-of-two").json()
    board = load("power-of-two")
    assert len(view["nodes"]) == board.size == 64
    assert view["lines"] == [list(line) for line in board.lines]
    assert view["fingerprint"] == board.fingerprint
    nodes = {n["label"]: n for n in view["nodes"]}
    # RULES.md section 1: f3 is node 10 at (-6/5, 18/5), m13 node 64 at (6, -6); no cells, no links
    assert (nodes["f3"]["id"], nodes["f3"]["x"], nodes["f3"]["y"]) == (10, -1.2, 3.6)
    assert (nodes["m13"]["id"], nodes["m13"]["x"], nodes["m13"]["y"]) == (64, 6.0, -6.0)
    assert not any(n["cell"] or n["point"] for n in view["nodes"])
    assert view["line_texts"][0] == board.line_text(0) and "-" in view["line_texts"][0]
    cells = client.get("/api/board/tower-of-power").json()["nodes"]
    assert all(n["cell"] for n in cells)


def test_uploaded_board_is_json_content(client):
    raw = to_dict(load("tower-of-power"))
    view = client.post("/api/board", json={"board": raw}).json()
    assert len(view["nodes"]) == load("tower-of-power").size
    assert "no shipped board" in error(client.get("/api/board/passwd"), 400)
    assert error(client.get("/api/board/..%2F..%2Fetc%2Fpasswd"), 404) == "Not Found"
    assert "no shipped board" in error(client.post("/api/board", json={"board": "/etc/passwd"}), 400)
    bad = dict(raw, lines=[[1]])
    assert "fewer than two nodes" in error(client.post("/api/board", json={"board": bad}), 400)


# ---------------------------------------------------------------- security
def test_host_check_refuses_other_names(client):
    assert "is not served here" in error(client.get("/api/meta", headers={"host": "evil.example"}), 421)
    assert client.get("/api/meta", headers={"host": "localhost:8765"}).status_code == 200


def test_cross_origin_state_change_refused(client):
    body = {"game": "power-of-two", "moves": []}
    assert "cross-origin" in error(client.post("/api/game", json=body, headers={"origin": "http://evil.example"}), 403)
    assert "cross-site" in error(client.post("/api/game", json=body, headers={"sec-fetch-site": "cross-site"}), 403)
    assert client.post("/api/game", json=body, headers={"origin": BASE}).status_code == 200
    form = client.post("/api/game", content="game=power-of-two", headers={"content-type": "text/plain"})
    assert "application/json" in error(form, 415)


def test_body_cap(client):
    big = b'{"x": "' + b"a" * MAX_BODY + b'"}'
    response = client.post("/api/check", content=big, headers={"content-type": "application/json"})
    assert "larger than" in error(response, 413)


def test_bad_json_and_fields(client):
    post = lambda path, content: client.post(path, content=content, headers={"content-type": "application/json"})  # noqa: E731
    assert "not valid JSON" in error(post("/api/check", b"{oops"), 400)
    assert "JSON object" in error(post("/api/check", b"[1]"), 400)
    assert error(client.post("/api/check", json={"puzzle": "one-by-one", "stones": [99]}), 400) == \
        "one-by-one solution: node 99 does not exist on board power-of-two"
    assert error(client.post("/api/check", json={"puzzle": "one-by-one", "stones": ["n14"]}), 400) == \
        "one-by-one solution: node 'n14' does not exist on board power-of-two"
    assert "one-by-one solution: field 'stones' must be list" in error(
        client.post("/api/check", json={"puzzle": "one-by-one", "stones": "1,2"}), 400)
    assert "unknown game 'chess'" in error(client.post("/api/game", json={"game": "chess"}), 400)
    assert "has no start" in error(client.post("/api/game", json={"game": "netzwerk", "start": "/etc/passwd"}), 400)
    assert error(client.post("/api/game", json={"game": "power-of-two", "clicks": [0]}), 400) == \
        "field 'clicks': 0 is not a node of board power-of-two"
    assert error(client.post("/api/game", json={"game": "power-of-two", "clicks": ["z9"]}), 400) == \
        "field 'clicks': z9 is not a node of board power-of-two"
    bad_move = client.post("/api/game", json={"game": "power-of-two", "moves": ["e9-i9"]})
    assert error(bad_move, 400).startswith("move 1 (Light) e9-i9:")


# ---------------------------------------------------------------- puzzles
def test_live_check_of_the_committed_one_by_one(client):
    committed = json.loads((RESULTS / "one-by-one.json").read_text())
    r = client.post("/api/check", json={"puzzle": "one-by-one", "stones": committed["stones"]}).json()
    assert (r["verdict"], r["objective"], r["optimum"], r["bad_lines"]) == \
        ("valid, optimal", committed["objective"], committed["objective"], [])
    board = load("power-of-two")
    labels = [board.label(v) for v in committed["stones"]]  # the same stones by their labels
    r = client.post("/api/check", json={"puzzle": "one-by-one", "stones": labels}).json()
    assert (r["verdict"], r["stones"]) == ("valid, optimal", sorted(committed["stones"]))
    extra = next(v for v in range(1, 65) if v not in committed["stones"])
    r = client.post("/api/check", json={"puzzle": "one-by-one", "stones": committed["stones"] + [extra]}).json()
    assert r["verdict"] == "invalid"
    assert r["bad_lines"] == [k for k, line in enumerate(board.lines) if extra in line]
    assert len(r["faults"]) == len(r["bad_lines"]) and all("holds 2 stones" in f for f in r["faults"])


def test_live_check_two_by_two_strict_counts_lines(client):
    """The page plays the booklet's reading (all 32 stones): the earlier at-most answer (24 stones,
    exactly two on all 32 lines) is not a finished placement there; the committed 32-stone answer is."""
    committed = json.loads((RESULTS / "two-by-two-strict-at-most.json").read_text())
    r = client.post("/api/check", json={"puzzle": "two-by-two", "strict": True, "stones": committed["stones"]}).json()
    assert (r["verdict"], r["objective"], r["bad_lines"]) == ("invalid", 32, [])
    assert r["faults"] == ["24 stones, the puzzle places exactly 32",
                           "cp-sat proves the puzzle has no answer on this board"]  # strict with 32: none
    booklet = json.loads((RESULTS / "two-by-two.json").read_text())
    r = client.post("/api/check", json={"puzzle": "two-by-two", "stones": booklet["stones"]}).json()
    assert (r["verdict"], r["objective"], r["optimum"]) == ("valid, optimal", 27, 27)
    fewer = {"puzzle": "two-by-two", "strict": True, "stones": committed["stones"][:-1]}
    r = client.post("/api/check", json=fewer).json()
    assert r["verdict"] == "invalid" and r["bad_lines"]


def test_live_check_of_the_solitaire_record(client):
    committed = json.loads((RESULTS / "thats-my-line-16.json").read_text())
    r = client.post("/api/check", json={"puzzle": "thats-my-line", "record": committed["record"], "stones": 16}).json()
    assert (r["verdict"], r["objective"], r["optimum"], r["next"]) == ("valid, optimal", 32, 32, [])
    r = client.post("/api/check", json={"puzzle": "thats-my-line", "record": ["j4", "j4"]}).json()
    assert r["fault"] == "move 2 (Dark) j4: node j4 is occupied" and r["record"] == ["j4"]
    game = get_game("thats-my-line")
    after = game.play(game.start(), "j4")
    j4 = game.board.node("j4")
    assert r["next"] == sorted(game.click_options(after, ()).next) and j4 not in r["next"]
    r = client.post("/api/check", json={"puzzle": "thats-my-line", "record": committed["record"][:3]}).json()
    assert r["verdict"] == "invalid" and "before the game is over" in r["faults"][0]


def test_file_check_matches_the_cli_checker(client):
    for stem in ("jump-reverse", "thats-my-line-16", "line-cover"):
        data = json.loads((RESULTS / f"{stem}.json").read_text())
        r = client.post("/api/check", json={"solution": data}).json()
        assert r["valid"], (stem, r)
    broken = json.loads((RESULTS / "jump-reverse.json").read_text())
    broken["objective"] += 1
    r = client.post("/api/check", json={"solution": broken}).json()
    assert not r["valid"] and "does not match" in r["faults"][0]
    assert "field 'board' must name a shipped board" in error(
        client.post("/api/check", json={"solution": dict(broken, board="/etc/passwd")}), 400)


def test_file_made_for_another_board_is_refused_naming_it(client):
    real, sketch = load("power-of-two"), load("power-of-two-sketch")
    claim = {"puzzle": "one-by-one", "board": "power-of-two", "board_fingerprint": sketch.fingerprint,
             "stones": [1, 2]}
    assert error(client.post("/api/check", json={"solution": claim}), 400) == \
        "solution: made for power-of-two-sketch, not for power-of-two; pass --board power-of-two-sketch"
    moved = dict(claim, board="power-of-two-sketch", board_fingerprint=real.fingerprint)
    assert error(client.post("/api/check", json={"solution": moved}), 400) == \
        "solution: made for power-of-two, not for power-of-two-sketch; pass --board power-of-two"
    unknown = dict(claim, board_fingerprint="0123456789abcdef")
    assert error(client.post("/api/check", json={"solution": unknown}), 400) == (
        f"solution: made for a board named power-of-two with fingerprint 0123456789abcdef, but power-of-two here "
        f"has fingerprint {real.fingerprint}; pass --board with the board file it was made for")
    # the request's board plays --board: the file is judged against the board it was made for
    judged = client.post("/api/check", json={"solution": claim, "board": "power-of-two-sketch"}).json()
    assert judged["valid"] is False and judged["faults"]
    reverse = json.loads((RESULTS / "jump-reverse.json").read_text())  # an answer on the real board, named wrong
    wrong = dict(reverse, board="power-of-two-sketch", board_fingerprint=real.fingerprint)
    assert error(client.post("/api/sequence", json={"solution": wrong}), 400) == \
        "solution: made for power-of-two, not for power-of-two-sketch; pass --board power-of-two"


def test_sequence_frames_of_the_jump_reverse_answer(client):
    data = json.loads((RESULTS / "jump-reverse.json").read_text())
    frames = client.post("/api/sequence", json={"solution": data}).json()["frames"]
    counts = [len(f["stones"]) for f in frames]
    expected = [len(data["position"])]
    for move in data["moves"]:
        expected.append(expected[-1] - len(move["jumps"]))
    assert counts == expected and counts[-1] == 1


def test_sequence_frames_of_a_game_record(client):
    data = json.loads((RESULTS / "thats-my-line-16.json").read_text())
    frames = client.post("/api/sequence", json={"solution": data}).json()["frames"]
    assert len(frames) == len(data["record"]) + 1 and len(frames[-1]["stones"]) == data["objective"]
    rec = {"game": "power-of-two", "moves": ["e9-e11"]}
    frames = client.post("/api/sequence", json={"solution": rec}).json()["frames"]
    assert [f["caption"] for f in frames] == ["start", "after move 1: e9-e11"]
    wrong = client.post("/api/sequence", json={"solution": {"puzzle": "one-by-one"}})
    assert error(wrong, 400) == "an answer of one-by-one is one position, not a sequence: open it in Puzzles"


# ---------------------------------------------------------------- games
def test_game_state_lists_what_may_come_next(client):
    game = get_game("power-of-two")
    board = game.board
    state = game.start()
    v = client.post("/api/game", json={"game": "power-of-two", "moves": [], "clicks": []}).json()
    assert v["next"] == sorted(game.click_options(state, ()).next)
    # RULES.md section 1, the standard start: Light on a13, m13, e9, i9 moves first
    assert sorted(board.label(n) for n in v["next"]) == ["a13", "e9", "i9", "m13"]
    e9 = board.node("e9")
    v = client.post("/api/game", json={"game": "power-of-two", "clicks": [e9]}).json()
    assert v["next"] == sorted({game.move_clicks(m)[1] for m in game.legal_moves(state) if m.frm == e9})
    assert client.post("/api/game", json={"game": "power-of-two", "clicks": ["e9"]}).json()["next"] == v["next"]


def test_click_plays_a_complete_move_and_explains_an_illegal_one(client):
    game = get_game("epaminondas")
    state = game.start()
    move = game.legal_moves(state)[0]
    a, b = game.move_clicks(move, state)
    v = client.post("/api/game/click", json={"game": "epaminondas", "clicks": [a, b]}).json()
    assert v["played"] == game.format_move(move, state) and v["record"]["moves"] == [v["played"]]
    wrong = next(w for w in game.board.nodes if w not in game.click_options(state, (a,)).next and w != a)
    v = client.post("/api/game/click", json={"game": "epaminondas", "clicks": [a, wrong]}).json()
    reason = game.reason_illegal(state, game.parse_move(f"{game.board.label(a)}-{game.board.label(wrong)}", state))
    assert v["illegal"].endswith(reason)


def test_netzwerk_turn_by_clicks_never_lists_the_turns(client):
    game = get_game("netzwerk")
    b = game.board
    clicks = [b.node(x) for x in ("f1", "f3", "e51", "e50")]
    v = client.post("/api/game", json={"game": "netzwerk", "clicks": clicks}).json()
    assert v["complete"] == ["f1-f3 e51-e50"] and v["next"]
    v = client.post("/api/game/click", json={"game": "netzwerk", "clicks": clicks, "play": "f1-f3 e51-e50"}).json()
    assert v["played"] == "f1-f3 e51-e50" and v["to_move"] == "Player 2"
    v = client.post("/api/game/click", json={"game": "netzwerk", "clicks": clicks, "play": "pass"}).json()
    assert "not a move the clicks so far complete" in v["illegal"]


def test_move_in_notation(client):
    v = client.post("/api/game/move", json={"game": "thats-my-line", "move": "j4"}).json()
    assert v["record"]["moves"] == ["j4"]
    v = client.post("/api/game/move", json={"game": "thats-my-line", "move": "17"}).json()
    assert v["record"]["moves"] == ["j4"]  # node 17 is j4, recorded by its label
    v = client.post("/api/game/move", json={"game": "thats-my-line", "moves": ["j4"], "move": "j4"}).json()
    assert v["illegal"] == "move 2 (Dark) j4: node j4 is occupied"


def test_computer_move_is_legal_and_bounded(client):
    v = client.post("/api/game/computer", json={"game": "david-goliath", "seconds": 0.2}).json()
    game = get_game("david-goliath")
    state = game.start()
    assert game.is_legal(state, game.parse_move(v["played"], state)) and v["computer"]["playouts"] >= 1
    assert "between" in error(client.post("/api/game/computer", json={"game": "david-goliath", "seconds": 1000}), 400)
    assert v["computer"]["summary"].startswith(f"tree search, {v['computer']['playouts']:,} playout")


def test_stop_asks_the_computer_for_its_best_move_so_far(client):
    import threading

    asked = {"game": "power-of-two", "seconds": 10.0, "think": "stop-test"}
    answers: list = []
    thread = threading.Thread(target=lambda: answers.append(client.post("/api/game/computer", json=asked)))
    began = time.monotonic()
    thread.start()
    while time.monotonic() - began < 60:
        stopped = client.post("/api/game/stop", json={"think": "stop-test"})
        if stopped.status_code == 200:
            break
        time.sleep(0.1)  # the move has not reached the server yet
    assert stopped.json() == {"stopped": True}
    thread.join()
    v = answers[0].json()
    assert v["computer"]["stopped"] and v["computer"]["summary"].endswith("stopped early: the best move so far")
    assert time.monotonic() - began < 9  # well before its 10 s
    game = get_game("power-of-two")
    assert game.is_legal(game.start(), game.parse_move(v["played"], game.start()))
    assert error(client.post("/api/game/stop", json={"think": "stop-test"}), 409) == \
        "no computer move in progress under this id (it has just been played)"


def endgame_record() -> tuple[list[str], int]:
    """A That's My Line record whose last position its mover wins with best play, and that mover."""
    import random

    game = get_game("thats-my-line")
    state, moves, rng = game.start(), [], random.Random(5)
    while game.outcome(state) is None and game.open_mask(state, 0).bit_count() + \
            game.open_mask(state, 1).bit_count() > 12:
        move = rng.choice(game.legal_moves(state))
        moves.append(game.format_move(move, state))
        state = game.apply(state, move)
    return moves, state.to_move


def test_analysis_proves_a_that_s_my_line_endgame_and_marks_the_thrown_win(client):
    from powertwo.solvers.players.evaluations.thats_my_line import prove

    game = get_game("thats-my-line")
    moves, _ = endgame_record()
    state = game.start()
    for text in moves:
        state = game.play(state, text)
    proof = prove(game, state, lambda visited: False)
    a = client.post("/api/game/analysis", json={"game": "thats-my-line", "moves": moves, "seconds": 1}).json()
    winner = game.player_name(proof.winner)
    assert a["at"] == len(moves) and a["to_move"] == game.player_name(state.to_move)
    assert a["proof"]["winner"] == winner and a["proof"]["text"].startswith(f"proven: {winner} wins")
    if proof.move is not None:
        assert a["proof"]["text"] == f"proven: {winner} wins with {game.format_move(proof.move, state)}"
        assert a["best"]["move"] == game.format_move(proof.move, state)
    assert a["line"][-1]["text"] == a["proof"]["text"] and len(a["line"]) == len(moves) + 1
    assert a["evaluation"] is not None and all(1 <= k <= len(moves) for k in a["thrown"])
    assert "must be a position" in error(client.post("/api/game/analysis", json={
        "game": "thats-my-line", "moves": moves, "at": len(moves) + 1}), 400)
    start = client.post("/api/game/analysis", json={"game": "power-of-two", "moves": [], "seconds": 0.2}).json()
    assert start["proof"] is None and start["best"]["move"] and not start["over"]  # not proved within its time


def test_analysis_proves_a_power_of_two_ending_by_the_proof_solver(client):
    """A game without an exact search of its own: the proof solver (df-pn) proves the position
    before the last move of a random game won by its mover, with a winning move of its own."""
    import random

    from powertwo.solvers.prove import Limits, prove

    game = get_game("power-of-two")
    state, moves, rng = game.start(), [], random.Random(2)
    while game.outcome(state) is None:
        move = rng.choice(game.legal_moves(state))
        moves.append(game.format_move(move, state))
        state = game.apply(state, move)
    winner = game.player_name(game.outcome(state).winner)
    a = client.post("/api/game/analysis", json={"game": "power-of-two", "moves": moves[:-1], "seconds": 1}).json()
    assert a["to_move"] == winner and a["proof"]["winner"] == winner
    assert a["proof"]["method"] == "the df-pn proof search"
    assert a["proof"]["text"] == f"proven: {winner} wins with {a['proof']['move']}"
    after = game.start()
    for text in moves[:-1] + [a["proof"]["move"]]:
        after = game.play(after, text)
    assert prove(game, after, limits=Limits(seconds=60)).winner == winner  # the move keeps the win
    assert a["line"][-1] == a["proof"]


def test_a_click_on_touch_waits_for_its_confirmation(client):
    v = client.post("/api/game/click", json={"game": "thats-my-line", "clicks": ["j4"], "confirm": True}).json()
    assert "played" not in v and v["clicks"] == [get_game("thats-my-line").board.node("j4")]
    assert v["complete"] == ["j4"] and v["next"] == []
    v = client.post("/api/game/click", json={"game": "thats-my-line", "clicks": ["j4"], "play": "j4"}).json()
    assert v["played"] == "j4" and v["record"]["moves"] == ["j4"]


def test_meta_gives_each_game_its_rules_and_each_kernel_its_state(client):
    meta = client.get("/api/meta").json()
    for entry in meta["games"]:
        assert entry["rules"] == get_game(entry["name"]).rules_summary and len(entry["rules"]) > 200
    assert [(k["name"], k["state"]) for k in meta["kernels"]] == [("endgame", "ready"), ("jump", "ready"),
                                                                     ("prove", "ready")]
    assert meta["warming"] == []


# ---------------------------------------------------------------- the solver run
def test_one_solver_run_at_a_time_cancel_and_finish(client):
    assert client.get("/api/solve").json()["state"] in ("idle", "done", "cancelled", "error", "gave up")
    assert "no solver is running" in error(client.post("/api/solve/cancel", json={}), 409)
    assert "time_limit" in error(client.post("/api/solve", json={"puzzle": "one-by-one", "time_limit": 10_000}), 400)
    assert "unknown puzzle" in error(client.post("/api/solve", json={"puzzle": "sudoku"}), 400)
    started = client.post("/api/solve", json={"puzzle": "one-by-one", "time_limit": 30}).json()
    assert started["state"] == "running"
    assert "already running" in error(client.post("/api/solve", json={"puzzle": "line-cover"}), 409)
    assert client.post("/api/solve/cancel", json={}).json()["state"] == "cancelled"
    # the cancelled run ends after the new one starts; it must not write "cancelled" over the new run
    assert client.post("/api/solve", json={"puzzle": "one-by-one", "time_limit": 30}).json()["state"] == "running"
    deadline = time.time() + 120
    status = client.get("/api/solve").json()
    while status["state"] == "running" and time.time() < deadline:
        time.sleep(0.2)
        status = client.get("/api/solve").json()
    assert status["state"] == "done", status
    assert (status["result"]["status"], status["result"]["objective"]) == ("optimal", 12)  # README's figure


def test_a_solver_run_belongs_to_the_tab_that_started_it(client):
    started = client.post("/api/solve", json={"puzzle": "one-by-one", "time_limit": 30, "tab": "first"}).json()
    assert started["state"] == "running"
    assert client.get("/api/solve?tab=second").json() == {"state": "idle", "elsewhere": True}
    assert error(client.post("/api/solve/cancel", json={"tab": "second"}), 409) == \
        "the solver run belongs to another tab"
    assert error(client.post("/api/solve", json={"puzzle": "line-cover", "tab": "second"}), 409) == \
        "a solver is already running in another tab (one run at a time; cancel it first)"
    assert client.get("/api/solve?tab=first").json()["state"] == "running"
    assert client.post("/api/solve/cancel", json={"tab": "first"}).json()["state"] == "cancelled"


def test_solve_options_are_checked_against_the_page(client):
    assert error(client.post("/api/solve", json={"puzzle": "one-by-one", "options": {"nonsense": 1}}), 400) == \
        "field 'options': no solve option 'nonsense' (options: backend, time_limit, stones, symmetry, all_solutions)"
    assert error(client.post("/api/solve", json={"puzzle": "one-by-one", "options": {"backend": "x"}}), 400) == \
        "option backend: must be one of cp-sat, sat"
    assert error(client.post("/api/solve", json={"puzzle": "one-by-one", "options": {"time_limit": 500}}), 400) == \
        "option time_limit: must be a number from 0.1 to 120"
    assert error(client.post("/api/solve", json={"puzzle": "sudoku"}), 400).startswith("unknown puzzle 'sudoku'")


# ---------------------------------------------------------------- puzzles rendered from their page
def test_meta_lists_every_puzzle_with_its_registry_page(client):
    from powertwo.solvers.registry import get_puzzle, puzzle_names

    puzzles = client.get("/api/meta").json()["puzzles"]
    assert sorted({p["name"] for p in puzzles}) == sorted(puzzle_names())
    for entry in puzzles:
        page = get_puzzle(entry["name"]).page
        if page is not None:
            assert entry["page"] == json.loads(json.dumps(get_puzzle(entry["name"]).page_json()))
        assert entry["strict"] is False or any(o["name"] == "strict" for o in entry["page"]["options"])


def test_the_workbench_names_no_puzzle():
    from powertwo.solvers.registry import puzzle_names

    web = Path(__file__).resolve().parents[1] / "powertwo" / "web"
    files = [web / f"{name}.py" for name in ("server", "puzzles", "games", "work", "common", "guard")]
    files += sorted((web / "static").glob("*.js"))
    for path in files:
        text = path.read_text()
        for name in (*puzzle_names(), "31 steps"):
            assert f'"{name}"' not in text and f"'{name}'" not in text, (path.name, name)
    for path in (web / "static").glob("*.js"):
        assert '"power-of-two"' not in path.read_text(), path.name


# ---------------------------------------------------------------- what decides the game
def test_the_game_view_names_reserves_stones_last_move_and_arrow_colours(client):
    game = get_game("david-goliath")
    state = game.start()
    moves = []
    for _ in range(3):
        move = game.legal_moves(state)[0]
        moves.append(game.format_move(move, state))
        last, state = move, game.apply(state, move)
    view = client.post("/api/game", json={"game": "david-goliath", "moves": moves}).json()
    spec = game.diagram(state, last)
    assert [(p["name"], p["reserve"]) for p in view["players"]] == [
        (game.player_name(k), state.reserve(k)) for k in (0, 1)]
    assert [p["on_board"] for p in view["players"]] == [
        sum(s.color == colour for s in spec["stones"]) for colour in ("light", "dark")]
    assert view["last_move"] == moves[-1]
    assert [a["color"] for a in view["arrows"]] == [a.color for a in spec["arrows"]]
    assert view["legend"] == spec["legend"]
    tml = get_game("thats-my-line")
    first = tml.legal_moves(tml.start())[0]
    placed = client.post("/api/game", json={"game": "thats-my-line", "moves": [tml.format_move(first)]}).json()
    assert placed["last"] == sorted(tml.diagram(tml.apply(tml.start(), first), first)["last"])
    assert "reserve" not in placed["players"][0]


def test_a_refused_first_click_names_what_stands_there(client):
    game = get_game("power-of-two")
    state = game.start()
    dark = next(s.node for s in game.diagram(state)["stones"] if s.color == "dark")
    label = game.board.label(dark)
    refused = client.post("/api/game/click", json={"game": "power-of-two", "clicks": [label]}).json()
    assert refused["illegal"] == f"{label}: no move of Light starts there (it holds a Dark stone); the marked nodes " \
                                 f"may start one"


def test_a_deeply_nested_body_is_one_line(client):
    body = '{"solution": ' + "[" * 100_000 + "]" * 100_000 + "}"
    answer = client.post("/api/check", content=body, headers={"Content-Type": "application/json"})
    assert error(answer, 400) == "request body: JSON nested more than 64 levels deep (at character 76)"


def relative_luminance(colour: str) -> float:
    channels = [int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_page_colours_meet_wcag_aa():
    import re

    css = (Path(__file__).resolve().parents[1] / "powertwo" / "web" / "static" / "style.css").read_text()
    colours = dict(re.findall(r"--([a-z]+): (#[0-9a-f]{6})", css))
    for text in ("ink", "muted", "accent", "bad", "good"):  # text: 4.5:1 on the page and on white
        assert min(contrast(colours[text], colours["bg"]), contrast(colours[text], "#ffffff")) >= 4.5, text
    assert contrast(colours["next"], "#ffffff") >= 3 and contrast(colours["next"], "#e9e9e4") >= 3  # a mark


# ---------------------------------------------------------------- Get a Jump On by clicks
def jump_clicks(client, puzzle: str, clicks: list[int], **extra) -> dict:
    """Click ``clicks`` one by one, as the page does (each answer's chains sent back)."""
    view = client.post("/api/jump", json={"puzzle": puzzle, **extra}).json()
    for v in clicks:
        view = client.post("/api/jump", json={"puzzle": puzzle, "chains": view["chains"], "click": v, **extra}).json()
        assert view["illegal"] is None, (v, view["illegal"])
    return view


def test_jump_reverse_committed_answer_by_clicks(client):
    committed = json.loads((RESULTS / "jump-reverse.json").read_text())
    start = client.post("/api/jump", json={"puzzle": "jump-reverse"}).json()
    assert sorted(s["node"] for s in start["stones"]) == committed["position"]
    assert start["count"] == "0 moves, 32 stones left" and start["verdict"] == "in progress"
    clicks = [v for mv in committed["moves"] for v in (mv["from"], *mv["jumps"])]
    view = jump_clicks(client, "jump-reverse", clicks)
    assert view["chains"] == committed["moves"]
    moves = len(committed["moves"])
    assert (view["verdict"], view["count"], view["optimum"]) == \
        ("valid, optimal", f"{moves} moves, 1 stone left", committed["objective"])
    # the downloaded file is what `powertwo check` accepts, made for the board it was played on
    assert view["solution"]["board_fingerprint"] == load("power-of-two").fingerprint
    checked = client.post("/api/check", json={"solution": view["solution"]}).json()
    assert checked["valid"] and checked["notes"][0].startswith(f"{moves} moves, ")
    by_labels = jump_clicks(client, "jump-reverse", [load("power-of-two").label(v) for v in clicks])
    assert by_labels["chains"] == committed["moves"]


def test_jump_reverse_pick_up_refuse_and_undo(client):
    start = client.post("/api/jump", json={"puzzle": "jump-reverse"}).json()
    stone = start["starts"][0]
    picked = client.post("/api/jump", json={"puzzle": "jump-reverse", "click": stone}).json()
    assert picked["picked"] == stone and picked["chains"] == [{"from": stone, "jumps": []}]
    assert picked["next"] == sorted({*picked["landings"], *picked["starts"]})
    empty = next(v for v in range(1, 65) if v not in {s["node"] for s in start["stones"]}
                 and v not in picked["landings"])
    refused = client.post("/api/jump", json={"puzzle": "jump-reverse", "chains": picked["chains"],
                                             "click": empty}).json()
    board = load("power-of-two")
    assert refused["illegal"] == f"{board.label(empty)}: the stone on {board.label(stone)} cannot jump there"
    jumped = client.post("/api/jump", json={"puzzle": "jump-reverse", "chains": picked["chains"],
                                            "click": picked["landings"][0]}).json()
    assert jumped["count"] == "1 move, 31 stones left" and jumped["picked"] is None
    undone = client.post("/api/jump", json={"puzzle": "jump-reverse", "chains": jumped["chains"], "undo": True}).json()
    assert undone["chains"] == [] and undone["count"] == "0 moves, 32 stones left"


def test_jump_forward_committed_answer_by_clicks(client):
    committed = json.loads((RESULTS / "jump-forward.json").read_text())
    clicks = [v for st in committed["steps"] for v in (st["place"], *st["jumps"][1:])]  # first landing: automatic
    view = jump_clicks(client, "jump-forward", clicks)
    assert view["chains"] == committed["steps"]
    n = len(committed["steps"])
    assert (view["verdict"], view["count"]) == (f"valid: {n} steps, {n + 1} stones on the board",
                                                f"{n} steps, {n + 1} stones on the board")
    assert view["places"] == [] and view["solution"]["corner"] == committed["corner"]  # the chain may go on
    first = client.post("/api/jump", json={"puzzle": "jump-forward", "click": "a1"}).json()
    assert first["illegal"] == ("a1: not next to the jumper at a13 (a new stone goes next to it) and no jump of the "
                                "jumper lands there")
    assert client.post("/api/jump", json={"puzzle": "jump-forward", "click": 1}).json()["illegal"] == first["illegal"]
    assert first["count"] == "0 steps, 1 stone on the board"


HINT_GUARD = 600.0
"""The hint's thinking time in these tests: far more than the solver needs on any machine (the
workbench's default, a second, is what a loaded machine may not give it; its answer then says so,
as ``test_a_hint_without_time_says_the_solver_cannot_tell`` checks)."""


@pytest.fixture(scope="module")
def patient():
    """The workbench with a hint that thinks until the solver decides (never the clock's verdict)."""
    from powertwo.web.server import Limits

    with starlette_testclient.TestClient(create_app(limits=Limits(warm=False, hint_seconds=HINT_GUARD)),
                                         base_url=BASE) as c:
        yield c


def test_jump_reverse_hint_says_what_the_solver_tells(patient):
    """Two moves into the committed answer, the solver's hint names the optimal finish; four lone
    stones are proven stuck (a hint bounded by work, not by the machine's speed)."""
    from powertwo.boards import load
    from powertwo.solvers.jump import replay_reverse

    client = patient
    committed = json.loads((RESULTS / "jump-reverse.json").read_text())
    moves = [(m["from"], m["jumps"]) for m in committed["moves"]]
    fault, left = replay_reverse(load("power-of-two"), committed["position"], moves[:2])
    assert fault is None
    hint = client.post("/api/jump/hint", json={"puzzle": "jump-reverse", "position": sorted(left)}).json()
    assert hint["solvable"] is True and hint["marks"][0] in left
    assert hint["text"].startswith(f"solvable: a finish in {committed['objective'] - 2} moves, e.g. ")
    corners = ["a1", "a13", "m1", "m13"]  # four lone stones: no jump at all
    stuck = client.post("/api/jump/hint", json={"puzzle": "jump-reverse", "position": corners}).json()
    assert stuck == {"solvable": False, "marks": [], "source": "solver", "text": "no finish from here (proven): undo"}
    assert error(client.post("/api/jump/hint", json={"puzzle": "one-by-one", "position": [1]}), 400) == \
        "hints are given for puzzles whose clicks build moves from a position, not 'one-by-one'"


def test_a_hint_without_time_says_the_solver_cannot_tell():
    from powertwo.boards import load
    from powertwo.web.puzzles import solver_hint

    committed = json.loads((RESULTS / "jump-reverse.json").read_text())
    hint = solver_hint("jump-reverse", load("power-of-two"), committed["position"], seconds=1e-6)
    assert hint == {"solvable": None, "marks": [], "source": "solver",
                    "text": "the solver cannot tell within 1e-06 s whether a finish exists"}


def test_jump_clicks_bad_input(client):
    assert "not 'two-by-two'" in error(client.post("/api/jump", json={"puzzle": "two-by-two"}), 400)
    assert error(client.post("/api/jump", json={"puzzle": "jump-forward", "chains": 5}), 400) == \
        "request body: field 'chains' must be a list"
    assert error(client.post("/api/jump", json={"puzzle": "jump-forward", "chains": [{"place": 99, "jumps": []}]}),
                 400) == "jump-forward: step 1: node 99 does not exist on board power-of-two"
    assert error(client.post("/api/jump", json={"puzzle": "jump-reverse", "chains": [{"from": 1, "jumps": []}]}),
                 400) == "jump-reverse: move 1: node a1 has no stone"
    assert error(client.post("/api/jump", json={"puzzle": "jump-forward", "corner": 999}), 400) == \
        "field 'corner': node 999 does not exist on board power-of-two"
    assert error(client.post("/api/jump", json={"puzzle": "jump-forward", "click": "x"}), 400) == \
        "field 'click': node x does not exist on board power-of-two"
    assert error(client.post("/api/jump", json={"puzzle": "jump-forward", "click": 1.5}), 400) == \
        "request body: field 'click' must be a node id or label"
    board = load("power-of-two")
    sides = [list(line) for line in board.lines if all(abs(board.coord(v)[0]) == 6 for v in line)
             or all(abs(board.coord(v)[1]) == 6 for v in line)]  # the square's four sides alone
    assert len(sides) == 4
    outline = dict(to_dict(board), name="outer-sides", lines=sides)  # no committed answer: a forward search
    assert error(client.post("/api/jump", json={"puzzle": "jump-reverse", "board": outline}), 400) == (
        "jump-forward: no sequence of 31 steps exists on board outer-sides: at most 9 stones: from corner a13 the "
        "jumper lands on 8 nodes and can place stones on 8")


def test_solver_progress_streams_as_server_sent_events(client):
    started = client.post("/api/solve", json={"puzzle": "one-by-one", "time_limit": 30}).json()
    assert started["state"] == "running"
    with client.stream("GET", "/api/solve/events") as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = [json.loads(line[len("data: "):]) for line in response.iter_lines() if line.startswith("data: ")]
    assert events[0]["state"] == "running" and events[-1]["state"] == "done"
    assert (events[-1]["result"]["status"], events[-1]["result"]["objective"]) == ("optimal", 12)
    assert any("solving with cp-sat" in line for line in events[-1]["log"])


def test_jump_reverse_on_an_uploaded_board_with_its_own_position(client):
    from powertwo.solvers.jump.tables import english_board, random_solvable

    board = english_board()
    position = random_solvable(board, 17, 6, seed=3)
    view = client.post("/api/jump", json={"puzzle": "jump-reverse", "board": to_dict(board),
                                          "position": position}).json()
    assert view["board"] == "english-33" and sorted(s["node"] for s in view["stones"]) == sorted(position)
    assert view["count"] == "0 moves, 6 stones left" and view["starts"]


# ---------------------------------------------------------------- request bodies, strictly read
VALID_BODIES = {
    "/api/board": {"board": "power-of-two"},
    "/api/check": {"puzzle": "one-by-one", "stones": []},
    "/api/sequence": {"solution": {"game": "power-of-two", "moves": []}},
    "/api/jump": {"puzzle": "jump-forward", "chains": []},
    "/api/jump/hint": {"puzzle": "jump-reverse", "position": ["a1", "a13"]},
    "/api/game": {"game": "power-of-two", "moves": []},
    "/api/game/click": {"game": "power-of-two", "clicks": []},
    "/api/game/move": {"game": "power-of-two", "move": "no-such-move"},
    "/api/game/computer": {"game": "power-of-two", "seconds": 100},
    "/api/game/stop": {"think": "no-such-move"},
    "/api/game/analysis": {"game": "power-of-two", "seconds": 100},
    "/api/solve": {"puzzle": "one-by-one", "time_limit": 0},
    "/api/solve/cancel": {"tab": "strict-reader-test"},
}


def test_every_post_endpoint_has_a_strict_body_model(client):
    from powertwo.web.requests import BODIES

    posts = {r.path for r in __import__("powertwo.web.server", fromlist=["ROUTES"]).ROUTES
             if "POST" in (getattr(r, "methods", None) or ())}
    assert set(BODIES) == posts == set(VALID_BODIES)


def test_every_post_endpoint_reads_its_body_as_its_model():
    """Each POST route takes its body through ``read_model`` with the model of its path, and no
    route reads the raw body (``body(request)``) itself."""
    import ast
    import inspect

    from powertwo.web import server
    from powertwo.web.requests import BODIES

    for route in server.ROUTES:
        if "POST" not in (getattr(route, "methods", None) or ()):
            continue
        tree = ast.parse(inspect.getsource(route.endpoint))
        calls = [c for c in ast.walk(tree) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)]
        models = [c.args[1].id for c in calls if c.func.id == "read_model"]
        assert models == [BODIES[route.path].__name__], route.path
        assert "body" not in {c.func.id for c in calls}, route.path


@pytest.mark.parametrize("path", sorted(VALID_BODIES))
def test_unknown_top_level_field_is_refused_before_any_work(client, path):
    assert error(client.post(path, json={**VALID_BODIES[path], "bogus": 1}), 400) == \
        "request body: unknown field 'bogus' (nothing checks it)"
    fits = client.post(path, json=VALID_BODIES[path])  # the same body without it passes the reader
    assert fits.status_code < 500 and not fits.json().get("error", "").startswith("request body")


def test_unknown_nested_fields_are_refused_with_their_path(client):
    chains = [{"place": "a1", "jumps": [], "bogus": True}]
    assert error(client.post("/api/jump", json={"puzzle": "jump-forward", "chains": chains}), 400) == \
        "request body: unknown field 'chains[0].bogus' (nothing checks it)"
    answer = json.loads((RESULTS / "jump-reverse.json").read_text())
    answer["moves"][1]["bogus"] = 1
    for path in ("/api/check", "/api/sequence"):  # the answer's own strict reader names the path
        assert error(client.post(path, json={"solution": answer}), 400) == \
            "jump-reverse solution: unknown field 'moves[1].bogus' (nothing checks it)"
    record = {"game": "power-of-two", "moves": [], "bogus": 1}  # refused, as `powertwo check` refuses it (exit 2)
    for path in ("/api/check", "/api/sequence"):
        assert error(client.post(path, json={"solution": record}), 400) == \
            "record: unknown field 'bogus' (nothing checks it)"


def test_wrong_types_are_refused_with_their_path(client):
    assert error(client.post("/api/game", json={"game": "power-of-two", "moves": ["e9-i9", 7]}), 400) == \
        "request body: field 'moves[1]' must be a string"
    assert error(client.post("/api/game/click", json={"game": "power-of-two", "clicks": [[1]]}), 400) == \
        "request body: field 'clicks[0]' must be a node id or label"
    assert error(client.post("/api/jump/hint", json={"puzzle": "jump-reverse", "position": [1], "origin": {}}),
                 400) == "request body: field 'origin' must be a list"
    assert error(client.post("/api/solve", json={"puzzle": "one-by-one", "strict": "yes"}), 400) == \
        "request body: field 'strict' must be true or false"
    assert error(client.post("/api/board", json={"board": 5}), 400) == \
        "request body: field 'board' must be a shipped board name or a board object"
    assert error(client.post("/api/jump", json={"puzzle": "jump-reverse", "chains": [{"from": "a1", "jumps": "b"}]}),
                 400) == "request body: field 'chains[0].jumps' must be a list"


def test_an_uploaded_old_answer_file_names_the_board_it_is_valid_on(client):
    """An answer made when `power-of-two` meant the sketch (no fingerprint), uploaded: the line
    `powertwo check` gives, with the workbench's remedy; a request that names the board judges on it."""
    hint = ("solution: not valid on power-of-two; valid on power-of-two-sketch (made before the default board "
            "changed?): name power-of-two-sketch in the file's field 'board'")
    sketch = json.loads((RESULTS / "power-of-two-sketch" / "one-by-one.json").read_text())
    old = {"puzzle": "one-by-one", "board": "power-of-two", "stones": sketch["stones"]}
    assert error(client.post("/api/check", json={"solution": old}), 400) == hint
    assert client.post("/api/check", json={"solution": dict(old, board="power-of-two-sketch")}).json()["valid"]
    named = client.post("/api/check", json={"solution": old, "board": "power-of-two"}).json()
    assert not named["valid"] and named["faults"][0].startswith("line ")
    jump = {k: v for k, v in json.loads((RESULTS / "power-of-two-sketch" / "jump-forward.json").read_text()).items()
            if k != "board_fingerprint"}
    assert error(client.post("/api/sequence", json={"solution": dict(jump, board="power-of-two")}), 400) == hint
