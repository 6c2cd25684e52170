"""End-to-end tests of the workbench in a real browser: Playwright drives Debian's chromium.

Every expected value comes from the library (the referee, the committed answers), never from
the page. Screenshots of each view are written as web-*.png to the folder named by the environment
variable POWERTWO_SCREENSHOTS (`make results` sets it to results/, whose committed screenshots they
are), else to a temporary folder: a test run never changes a tracked file.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:  # one line, saying what to install
    pytest.skip("browser tests need Debian's chromium: apt-get install chromium", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api",
                                     reason="browser tests need playwright: pip install -e '.[test]'")

from powertwo.boards import load  # noqa: E402
from powertwo.rules import get_game  # noqa: E402

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
SCREENSHOTS = Path(os.environ.get("POWERTWO_SCREENSHOTS") or tempfile.mkdtemp(prefix="powertwo-web-"))
WAIT = 60_000  # ms: generous, for a loaded 2-core machine
HINT_SECONDS = 120.0
"""The hint's thinking time here: enough for the solver to decide the Power of Two's 32 stones on a
loaded machine (well under a second on an idle one; the workbench's one second is what a loaded
machine may not give it). A position it cannot decide takes all of it."""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The workbench on a free port, its census store an empty folder (the hint asks the solver)."""
    from powertwo.web import create_app
    from powertwo.web.background import serving
    from powertwo.web.server import Limits

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("POWERTWO_CENSUS", str(tmp_path_factory.mktemp("census")))
        with serving(create_app(limits=Limits(hint_seconds=HINT_SECONDS))) as url:
            deadline = time.time() + 600  # a first run after install compiles the kernels while warming up
            while json.loads(urllib.request.urlopen(url + "/api/meta", timeout=60).read())["warming"]:
                assert time.time() < deadline, "the workers did not warm up"
                time.sleep(0.5)
            yield url


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def open_page(browser, url: str, width: int = 1280, height: int = 900):
    ctx = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url)
    pg.wait_for_selector("body[data-ready='1']")
    return ctx, pg, errors


@pytest.fixture
def page(browser, server):
    ctx, pg, errors = open_page(browser, server + "/")
    yield pg
    ctx.close()
    assert not errors, errors


def shot(page, name: str) -> None:
    page.mouse.move(1, 1)  # no hover highlight in the picture
    page.evaluate("document.activeElement && document.activeElement.blur()")  # nor a focus ring
    page.screenshot(path=str(SCREENSHOTS / f"web-{name}.png"))


def select_containing(page, select: str, text: str) -> None:
    """Choose the first option of ``select`` whose label contains ``text``."""
    labels = page.eval_on_selector_all(f"{select} option", "os => os.map(o => o.textContent)")
    page.select_option(select, label=next(t for t in labels if text in t))


def view(page, name: str) -> None:
    page.click(f"nav button[data-view='{name}']")
    page.wait_for_selector(f"#view-{name}:not([hidden])")


# ---------------------------------------------------------------- boards
def test_board_hover_names_the_node_and_lights_its_lines(page):
    from powertwo.boards import load

    board = load("power-of-two")
    e9 = board.node("e9")
    through = [k for k, line in enumerate(board.lines) if e9 in line]
    page.hover("#board-svg [data-label='e9']")
    page.wait_for_function(f"document.querySelector('#board-hover').textContent.startsWith('e9 (node {e9}): "
                           f"{len(through)} line(s) {board.line_text(through[0])}')")
    hot = page.eval_on_selector_all("#board-svg .line.hot", "els => els.map(e => Number(e.dataset.line))")
    assert sorted(hot) == through
    shot(page, "boards")


def visible_texts(page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.filter(e => e.getBBox().width > 0 && "
                                               "getComputedStyle(e).display !== 'none').map(e => e.textContent)")


def test_board_is_drawn_to_scale_with_labels_clear_of_nodes_and_ids_on_request(page):
    from fractions import Fraction

    from powertwo.boards import load

    board = load("power-of-two")
    centres = page.eval_on_selector_all(
        "#board-svg circle.node", "els => els.map(e => [Number(e.dataset.node), Number(e.getAttribute('cx')), "
        "Number(e.getAttribute('cy')), Number(e.getAttribute('r'))])")
    at = {v: (x, y) for v, x, y, _ in centres}
    assert sorted(at) == list(board.nodes)
    (left, top), (right, bottom) = at[board.node("a1")], at[board.node("m13")]
    for v in board.nodes:  # every node where its exact coordinates put it (f3 at (-6/5, 18/5))
        x, y = board.coord(v)
        assert at[v][0] - left == pytest.approx(float((x + 6) / 12) * (right - left), abs=0.05)
        assert at[v][1] - top == pytest.approx(float((6 - y) / 12) * (bottom - top), abs=0.05)
    assert board.coord(board.node("f3")) == (Fraction(-6, 5), Fraction(18, 5))
    radius = centres[0][3]
    gap = min(((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 for a, (ax, ay) in at.items() for b, (bx, by) in at.items()
              if a < b)
    assert gap > 2 * radius  # no two nodes touch
    # the labels by default, each clear of every node and of every other label
    assert sorted(visible_texts(page, "#board-svg text.label")) == sorted(board.labels)
    boxes = page.eval_on_selector_all("#board-svg text.label.name", "els => els.map(e => { const b = e.getBBox(); "
                                      "return [b.x, b.y, b.x + b.width, b.y + b.height]; })")
    for k, (x0, y0, x1, y1) in enumerate(boxes):
        for cx, cy in at.values():
            near_x, near_y = min(max(cx, x0), x1), min(max(cy, y0), y1)
            assert (near_x - cx) ** 2 + (near_y - cy) ** 2 >= radius ** 2, (board.labels[k], cx, cy)
        for u0, v0, u1, v1 in boxes[k + 1:]:
            assert x1 <= u0 or u1 <= x0 or y1 <= v0 or v1 <= y0
    page.click("#show-ids")
    assert sorted(visible_texts(page, "#board-svg text.label"), key=int) == [str(v) for v in board.nodes]
    page.click("#show-ids")
    assert "f3" in visible_texts(page, "#board-svg text.label")


# ---------------------------------------------------------------- puzzles
def test_one_by_one_optimum_by_clicks_then_a_fault(page):
    committed = json.loads((RESULTS / "one-by-one.json").read_text())
    view(page, "puzzles")
    page.select_option("#puzzle-select", label="One by One")
    for v in committed["stones"]:
        page.click(f"#puzzle-svg [data-node='{v}']")
    page.wait_for_function("document.querySelector('#verdict').textContent === 'valid, optimal'")
    assert f"optimum {committed['objective']}" in page.inner_text("#puzzle-stats")
    shot(page, "puzzles-optimal")
    extra = next(v for v in range(1, 65) if v not in committed["stones"])
    page.click(f"#puzzle-svg [data-node='{extra}']")
    page.wait_for_function("document.querySelector('#verdict').textContent === 'invalid'")
    faults = page.inner_text("#faults")
    assert "holds 2 stones" in faults
    bad = page.eval_on_selector_all("#puzzle-svg .line.bad", "els => els.map(e => Number(e.dataset.line))")
    from powertwo.boards import load

    board = load("power-of-two")
    stones = set(committed["stones"]) | {extra}
    expected = [k for k, line in enumerate(board.lines) if sum(v in stones for v in line) != 1]
    assert bad and sorted(bad) == expected
    shot(page, "puzzles-fault")


def test_solitaire_record_by_clicks(page):
    committed = json.loads((RESULTS / "thats-my-line-16.json").read_text())
    view(page, "puzzles")
    select_containing(page, "#puzzle-select", "That's My Line")
    page.wait_for_function("document.querySelector('#puzzle-pass').hidden === false")
    for k, move in enumerate(committed["record"], start=1):
        if move == "pass":
            page.click("#puzzle-pass")
        else:
            page.click(f"#puzzle-svg [data-label='{move}']")
        page.wait_for_function(f"document.querySelector('#puzzle-stats').textContent.startsWith('{k} moves')")
    page.wait_for_function("document.querySelector('#verdict').textContent === 'valid, optimal'")
    stats = page.inner_text("#puzzle-stats")
    assert stats.startswith(f"{len(committed['record'])} moves, {committed['objective']} stones")
    shot(page, "puzzles-solitaire")


def test_upload_of_a_file_made_for_another_board_is_refused(page, tmp_path):
    from powertwo.boards import load

    sketch = load("power-of-two-sketch")
    claim = {"puzzle": "one-by-one", "board": "power-of-two", "board_fingerprint": sketch.fingerprint,
             "stones": ["a1", "m13"]}
    path = tmp_path / "one-by-one.json"
    path.write_text(json.dumps(claim))
    view(page, "puzzles")
    page.set_input_files("#puzzle-file", str(path))
    wait_text(page, "#verdict",
              "solution: made for power-of-two-sketch, not for power-of-two; pass --board power-of-two-sketch")
    assert page.eval_on_selector_all("#puzzle-svg .stone", "els => els.length") == 0


def wait_text(page, selector: str, text: str, exact: bool = True, timeout: float = WAIT) -> None:
    """Wait until the element's text is ``text`` (or, not ``exact``, contains it)."""
    expr = (f"document.querySelector('{selector}').textContent === {json.dumps(text)}" if exact else
            f"document.querySelector('{selector}').textContent.includes({json.dumps(text)})")
    page.wait_for_function(expr, timeout=timeout)


def test_jump_reverse_by_clicks(page):
    committed = json.loads((RESULTS / "jump-reverse.json").read_text())
    view(page, "puzzles")
    select_containing(page, "#puzzle-select", "Get a Jump On, reverse")
    wait_text(page, "#puzzle-stats", f"0 moves, 32 stones left (optimum {committed['objective']} moves)")
    page.click("#puzzle-hint-ask")  # the solver proves the optimum, however long this machine takes
    wait_text(page, "#puzzle-hint-answer", f"solvable: a finish in {committed['objective']} moves", exact=False,
              timeout=(HINT_SECONDS + 60) * 1000)
    left = len(committed["position"])
    for k, move in enumerate(committed["moves"], start=1):
        page.click(f"#puzzle-svg [data-node='{move['from']}']")
        page.wait_for_selector(f"#puzzle-svg [data-node='{move['from']}'].mark")
        for landing in move["jumps"]:
            page.click(f"#puzzle-svg [data-node='{landing}']")
        left -= len(move["jumps"])
        stones = f"{left} stone" + ("" if left == 1 else "s")
        wait_text(page, "#puzzle-stats", f"{k} move{'' if k == 1 else 's'}, {stones} left", exact=False)
        if k == 1:
            shot(page, "puzzles-jump-reverse")
    wait_text(page, "#verdict", "valid, optimal")


def test_jump_reverse_on_the_english_board_starts_from_the_central_game(page):
    board = load("english")
    view(page, "puzzles")
    select_containing(page, "#puzzle-select", "Get a Jump On, reverse")
    page.wait_for_selector("#puzzle-board-label:not([hidden])")
    assert page.eval_on_selector_all("#puzzle-board option", "os => os.map(o => o.value)") == \
        ["power-of-two", "english"]
    page.select_option("#puzzle-board", "english")
    wait_text(page, "#puzzle-stats", "0 moves, 32 stones left")
    assert page.locator("#puzzle-svg .node[data-node]").count() == board.size
    assert page.is_disabled("#puzzle-committed")
    page.click(f"#puzzle-svg [data-node='{board.node('d2')}']")
    page.click(f"#puzzle-svg [data-node='{board.node('d4')}']")
    wait_text(page, "#puzzle-stats", "1 move, 31 stones left")
    page.click("#puzzle-hint-ask")  # 31 stones of the central game: the solver thinks all its time
    page.wait_for_function("/^(solvable: a finish|the solver cannot tell)/.test("
                           "document.querySelector('#puzzle-hint-answer').textContent)",
                           timeout=(HINT_SECONDS + 60) * 1000)
    select_containing(page, "#puzzle-select", "Get a Jump On, forward")
    page.wait_for_selector("#puzzle-board-label", state="hidden")
    page.wait_for_function(f"document.querySelectorAll('#puzzle-svg .node[data-node]').length === "
                           f"{load('power-of-two').size}")


def test_jump_forward_by_clicks_an_illegal_click_and_undo(page):
    committed = json.loads((RESULTS / "jump-forward.json").read_text())
    view(page, "puzzles")
    select_containing(page, "#puzzle-select", "Get a Jump On, forward")
    wait_text(page, "#puzzle-stats", "0 steps, 1 stone on the board")
    for k, step in enumerate(committed["steps"][:6], start=1):
        for v in (step["place"], *step["jumps"][1:]):  # the first landing follows the placement
            page.click(f"#puzzle-svg [data-node='{v}']")
        wait_text(page, "#puzzle-stats", f"{k} step{'' if k == 1 else 's'}, {k + 1} stones on the board")
    page.click("#puzzle-svg [data-label='a1']")
    wait_text(page, "#faults", "a1: not next to the jumper", exact=False)
    assert page.inner_text("#verdict") == "in progress"
    shot(page, "puzzles-jump-forward")
    from powertwo.web.server import jump_clicks  # the server's answer to the clicks but the last

    clicks = [v for step in committed["steps"][:6] for v in (step["place"], *step["jumps"][1:])]
    before = jump_clicks({"puzzle": "jump-forward"})
    for v in clicks[:-1]:
        before = jump_clicks({"puzzle": "jump-forward", "chains": before["chains"], "click": v})
    page.click("#puzzle-undo")  # the refused click changed nothing: undo takes back the last accepted one
    wait_text(page, "#puzzle-stats", before["count"])
    stones = page.eval_on_selector_all("#puzzle-svg .stone", "els => els.map(e => Number(e.dataset.stone))")
    assert sorted(stones) == sorted(s["node"] for s in before["stones"])


def test_solve_streams_progress_then_shows_the_answer(page):
    view(page, "puzzles")
    page.select_option("#puzzle-select", label="One by One")
    page.fill("#solve-limit", "60")
    page.click("#solve-start")
    wait_text(page, "#solve-log", "status optimal, objective 12", exact=False)  # README's figure
    assert "solving with cp-sat" in page.inner_text("#solve-log")
    page.click("#solve-show")
    wait_text(page, "#verdict", "valid, optimal")
    shot(page, "puzzles-solve")
    page.select_option("#puzzle-select", label="Two by Two")  # the run's answer is One by One's
    wait_text(page, "#solve-log", "(a run of One by One)", exact=False)
    assert page.is_disabled("#solve-show")


# ---------------------------------------------------------------- sequences
def test_jump_reverse_steps_show_the_stone_count(page):
    committed = json.loads((RESULTS / "jump-reverse.json").read_text())
    view(page, "sequences")
    loads = int(page.eval_on_selector("#sequence-svg", "e => e.dataset.loads || '0'"))
    select_containing(page, "#sequence-select", "reverse")
    page.wait_for_function(f"document.querySelector('#sequence-svg').dataset.loads === '{loads + 1}'")  # reloaded
    count = len(committed["position"])
    page.wait_for_function(f"document.querySelector('#seq-position').textContent.includes('{count} stones')")
    for k, move in enumerate(committed["moves"], start=1):
        count -= len(move["jumps"])
        page.keyboard.press("ArrowRight")
        # the chain is drawn jump by jump, then stands whole: every landing of the move
        chains = sum(len(m["jumps"]) > 1 for m in committed["moves"][:k])  # a single jump is not animated
        page.wait_for_function(f"(document.querySelector('#sequence-svg').dataset.animations || '0') === '{chains}'"
                               " && !document.querySelector('#sequence-svg').dataset.animating")
        points = page.eval_on_selector("#sequence-svg .arrow", "e => e.getAttribute('points').split(' ').length")
        assert points == 1 + len(move["jumps"])
        page.wait_for_function(f"document.querySelector('#seq-position').textContent === "
                               f"'frame {k} of {len(committed['moves'])}; {count} stones on the board'")
        assert f"{count} stone{'' if count == 1 else 's'} left" in page.inner_text("#seq-caption")
        if k == 1:
            shot(page, "sequences")
    assert count == 1


# ---------------------------------------------------------------- games
def choose_game(page, name: str, mode: str = "friend") -> None:
    view(page, "games")
    page.select_option("#game-mode", mode)
    page.select_option("#game-select", name)
    page.wait_for_function(f"document.body.dataset.game === '{name}' && document.body.dataset.ply === '0'")


def play_by_clicks(page, game, state, move) -> None:
    """Click the move's nodes; press its 'play' button when other moves continue the clicks."""
    ply = state.ply
    text = game.format_move(move, state)
    clicks = game.move_clicks(move, state)
    for k, v in enumerate(clicks, start=1):
        page.click(f"#game-svg [data-node='{v}']")
        so_far = " ".join(str(c) for c in clicks[:k])
        page.wait_for_function(f"document.body.dataset.clicks === '{so_far}' || "
                               f"document.body.dataset.ply === '{ply + 1}'")
    options = game.click_options(state, clicks)
    if options.next or len(options.complete) > 1 or not clicks:
        page.click(f"#game-complete button[data-move='{text}']")
    page.wait_for_function(f"document.body.dataset.ply === '{ply + 1}'")


def test_power_of_two_clicks_illegal_reason_undo_download_validate(page, tmp_path):
    game = get_game("power-of-two")
    state = game.start()
    choose_game(page, "power-of-two")
    for _ in range(3):
        move = game.legal_moves(state)[0]
        play_by_clicks(page, game, state, move)
        state = game.apply(state, move)
    shot(page, "games")
    first = sorted(game.click_options(state, ()).next)[0]
    page.click(f"#game-svg [data-node='{first}']")
    page.wait_for_function(f"document.body.dataset.clicks === '{first}'")
    allowed = game.click_options(state, (first,)).next
    wrong = next(v for v in game.board.nodes if v not in allowed and v != first)
    page.click(f"#game-svg [data-node='{wrong}']")
    page.wait_for_function("document.querySelector('#game-reason').textContent.length > 0")
    reason = page.inner_text("#game-reason")
    text = f"{game.board.label(first)}-{game.board.label(wrong)}"
    expected = game.reason_illegal(state, game.parse_move(text, state))
    assert expected and reason == f"{text}: {expected}"
    page.click("#game-undo")  # takes back the picked node
    page.wait_for_function("document.querySelector('#game-svg .picked') === null")
    page.click("#game-undo")  # takes back the third move
    page.wait_for_function("document.body.dataset.ply === '2'")
    with page.expect_download() as info:
        page.click("#game-download")
    path = tmp_path / "record.json"
    info.value.save_as(path)
    out = subprocess.run([sys.executable, "-m", "powertwo", "validate", "power-of-two", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("valid: 2 moves")


EPAMINONDAS_OPENING = ["a1-a4", "a12-d9", "a3-a6", "c12-c7", "a5-a8", "c9-c4"]


def test_epaminondas_capture_by_clicks(page):
    game = get_game("epaminondas")
    state = game.start()
    choose_game(page, "epaminondas")
    for text in EPAMINONDAS_OPENING:
        move = game.parse_move(text, state)
        play_by_clicks(page, game, state, move)
        state = game.apply(state, move)
    capture = next(m for m in game.legal_moves(state)
                   if len(game.apply(state, m).pieces[1 - state.to_move]) < len(state.pieces[1 - state.to_move]))
    before = len(state.pieces[1])
    play_by_clicks(page, game, state, capture)
    after = game.apply(state, capture)
    dark = page.eval_on_selector_all("#game-svg .stone.dark", "els => els.length")
    assert dark == len(after.pieces[1]) < before
    shot(page, "games-epaminondas")


def test_netzwerk_one_complete_turn(page):
    game = get_game("netzwerk")
    state = game.start()
    choose_game(page, "netzwerk")
    b = game.board
    turn = game.parse_move("f1-f3 e51-e50", state)
    assert game.is_legal(state, turn)
    play_by_clicks(page, game, state, turn)
    record = json.loads(page.evaluate("JSON.stringify(window.document.body.dataset.ply)"))
    assert record == "1"
    assert page.inner_text("#game-moves") == "f1-f3 e51-e50"
    after = game.apply(state, turn)
    pieces = page.eval_on_selector_all("#game-svg .stone.light", "els => els.map(e => Number(e.dataset.stone))")
    assert sorted(pieces) == sorted(after.pieces[0]) and b.node("f3") in pieces
    shot(page, "games-netzwerk")


@pytest.mark.parametrize("name", ["power-of-two", "david-goliath", "thats-my-line", "tower-of-power",
                                  "netzwerk", "epaminondas"])
def test_one_computer_move(page, name):
    choose_game(page, name, mode="friend")
    page.fill("#game-seconds", "0.3")
    page.click("#game-computer")
    page.wait_for_function("document.body.dataset.ply === '1'")
    text = page.inner_text("#game-moves")
    game = get_game(name)
    state = game.start()
    assert game.is_legal(state, game.parse_move(text, state))
    assert page.inner_text("#game-reason").startswith(f"computer played {text}")


# ---------------------------------------------------------------- the page as players expect it
def board_width(page, svg: str) -> float:
    return page.eval_on_selector(svg, "e => e.getBoundingClientRect().width")


def test_phone_layout_puts_the_board_first_and_wide(browser, server):
    ctx, pg, errors = open_page(browser, server + "/#games", width=390, height=844)
    try:
        pg.wait_for_function("document.body.dataset.game === 'power-of-two'")
        assert board_width(pg, "#game-svg") >= 300
        board_top = pg.eval_on_selector("#game-svg", "e => e.getBoundingClientRect().top")
        panel_top = pg.eval_on_selector("#view-games .side", "e => e.getBoundingClientRect().top")
        assert board_top < panel_top  # the board above the panel
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
        pg.screenshot(path=str(SCREENSHOTS / "web-phone.png"))
        view(pg, "puzzles")
        assert board_width(pg, "#puzzle-svg") >= 300
    finally:
        ctx.close()
    assert not errors, errors
    ctx, pg, errors = open_page(browser, server + "/#games")
    try:
        pg.wait_for_function("document.body.dataset.game === 'power-of-two'")
        pg.screenshot(path=str(SCREENSHOTS / "web-desktop.png"))
    finally:
        ctx.close()


def test_a_late_computer_reply_after_a_switch_changes_nothing(page):
    game = get_game("thats-my-line")
    choose_game(page, "power-of-two")
    page.fill("#game-seconds", "2")
    page.select_option("#game-mode", "0")  # the computer plays first: it starts thinking
    wait_text(page, "#game-clicks", "the computer is thinking…")
    page.select_option("#game-select", "thats-my-line")
    page.wait_for_function("document.body.dataset.game === 'thats-my-line'")
    wait_text(page, "#game-reason", "computer played", exact=False)  # its move in That's My Line
    time.sleep(2.5)  # past the time the Power of Two move would have come
    assert page.eval_on_selector("body", "b => [b.dataset.game, b.dataset.ply]") == ["thats-my-line", "1"]
    assert page.input_value("#game-select") == "thats-my-line"
    text = page.inner_text("#game-moves")
    state = game.apply(game.start(), game.parse_move(text, game.start()))  # a That's My Line move
    shown = page.eval_on_selector_all("#game-svg .stone", "els => els.map(e => Number(e.dataset.stone))")
    assert sorted(shown) == sorted(s.node for s in game.diagram(state).get("stones", []))


def test_undo_while_the_computer_thinks_stops_it(page):
    game = get_game("power-of-two")
    state = game.start()
    choose_game(page, "power-of-two")
    page.fill("#game-seconds", "2")
    page.select_option("#game-mode", "1")  # the computer plays the second player
    move = game.legal_moves(state)[0]
    page.fill("#game-move", game.format_move(move, state))
    page.click("#game-move-form button")
    wait_text(page, "#game-clicks", "the computer is thinking…")
    page.click("#game-undo")  # takes back the move the computer was answering
    page.wait_for_function("document.body.dataset.ply === '0'")
    time.sleep(2.5)  # past the time its reply would have come
    assert page.eval_on_selector("body", "b => b.dataset.ply") == "0"
    assert page.inner_text("#game-moves") == game.format_move(move, state)  # kept for redo, not played
    assert page.is_enabled("#game-redo")


def test_bad_records_give_one_sentence_and_leave_the_page_as_it_was(page):
    from powertwo.boards import load

    choose_game(page, "power-of-two")
    game = get_game("power-of-two")
    state = game.start()
    first = game.legal_moves(state)[0]
    page.fill("#game-move", game.format_move(first, state))
    page.click("#game-move-form button")
    page.wait_for_function("document.body.dataset.ply === '1'")
    illegal = {"game": "power-of-two", "moves": ["a1-a1"]}
    other = dict(game.record([]), board_fingerprint=load("power-of-two-sketch").fingerprint)
    cases = ["{not json", json.dumps({"game": "chess"}), json.dumps(illegal), json.dumps(other), "[1, 2]"]
    page.click("#view-games details summary")
    for text in cases:
        page.fill("#game-paste", text)
        page.evaluate("document.querySelector('#game-reason').textContent = ''")
        page.click("#game-paste-load")
        page.wait_for_function("document.querySelector('#game-reason').textContent.length > 0")
        reason = page.inner_text("#game-reason")
        assert "\n" not in reason and "Error" not in reason and "undefined" not in reason, reason
        assert page.eval_on_selector("body", "b => [b.dataset.game, b.dataset.ply]") == ["power-of-two", "1"]
        assert page.input_value("#game-select") == "power-of-two"
    page.evaluate("document.querySelector('#game-reason').textContent = ''")
    page.fill("#game-paste", json.dumps({"game": "chess", "moves": []}))
    page.click("#game-paste-load")
    wait_text(page, "#game-reason", "unknown game 'chess'", exact=False)


def test_rule_options_and_a_custom_start(page, tmp_path):
    # the option controls come from the games' declared options: David's sling ticked, a 1-node throw
    # the sling does not give is refused with its reason, and the downloaded record names the option
    choose_game(page, "david-goliath")
    page.check("#game-options [data-option='sling']")
    page.wait_for_function("document.body.dataset.ply === '0' && document.querySelector('#game-options "
                           "[data-option=sling]').checked")
    page.fill("#game-move", "a13-a9*a7")
    page.click("#game-move-form button")
    wait_text(page, "#game-reason", "move 1 (Light/David) a13-a9*a7: with the sling David picks only the direction: "
                                    "the stone thrown toward a7 flies 2 nodes, to a5 (option sling)")
    page.fill("#game-move", "a13-a9*a5")
    page.click("#game-move-form button")
    page.wait_for_function("document.body.dataset.ply === '1'")
    with page.expect_download() as info:
        page.click("#game-download")
    path = tmp_path / "sling.json"
    info.value.save_as(path)
    assert json.loads(path.read_text()) == {"game": "david-goliath", "start": "standard", "moves": ["a13-a9*a5"],
                                            "options": {"sling": True}}
    # a record with a custom start (RULES.md §1) is shown from that start
    page.click("#view-games details summary")
    page.fill("#game-paste", json.dumps({"game": "power-of-two", "start": "custom:a13,m13/a1,m1",
                                         "moves": ["a13-a5 +b4"]}))
    page.click("#game-paste-load")
    page.wait_for_function("document.body.dataset.game === 'power-of-two' && document.body.dataset.ply === '1'")
    assert page.input_value("#game-start") == "custom:a13,m13/a1,m1"
    assert not page.is_checked("#game-options [data-option='exact_reserve']")


def test_reload_keeps_the_game_and_a_link_shares_it(page, server):
    game = get_game("david-goliath")
    choose_game(page, "david-goliath")
    state = game.start()
    moves = []
    for _ in range(2):
        move = game.legal_moves(state)[0]
        moves.append(game.format_move(move, state))
        page.fill("#game-move", moves[-1])
        page.click("#game-move-form button")
        state = game.apply(state, move)
        page.wait_for_function(f"document.body.dataset.ply === '{len(moves)}'")
    facts = page.inner_text("#game-facts")
    assert f"{state.reserve(0)}" in facts and f"{state.reserve(1)}" in facts  # the reserves shown
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.eval_on_selector("body", "b => [b.dataset.game, b.dataset.ply]") == ["david-goliath", "2"]
    page.click("#game-moves li:first-child button")  # the history: back to move 1, the rest kept for redo
    page.wait_for_function("document.body.dataset.ply === '1'")
    page.click("#game-redo")
    page.wait_for_function("document.body.dataset.ply === '2'")
    page.click("#game-share")
    link = page.input_value("#game-link")
    fresh = page.context.new_page()
    fresh.goto(link)
    fresh.wait_for_selector("body[data-ready='1']")
    assert fresh.eval_on_selector("body", "b => [b.dataset.game, b.dataset.ply]") == ["david-goliath", "2"]
    assert fresh.inner_text("#game-moves").split() == moves


def test_keyboard_play_and_the_status_for_screen_readers(page):
    game = get_game("thats-my-line")
    choose_game(page, "thats-my-line")
    page.focus("#game-svg [tabindex='0']")
    start = int(page.evaluate("document.activeElement.dataset.node"))
    page.keyboard.press("ArrowRight")
    moved = int(page.evaluate("document.activeElement.dataset.node"))
    assert moved != start
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.ply === '1'")
    state = game.start()
    label = game.board.label(moved)
    assert game.format_move(game.parse_move(label, state), state) == page.inner_text("#game-moves")
    assert page.get_attribute("#status", "aria-live") == "polite"
    wait_text(page, "#status", f"{label} played", exact=False)
    assert page.eval_on_selector_all("#game-svg .node.last", "els => els.map(e => Number(e.dataset.node))") == [moved]


def test_puzzle_starts_not_started_and_undo_restores_a_removed_stone(page):
    view(page, "puzzles")
    page.select_option("#puzzle-select", label="One by One")
    wait_text(page, "#verdict", "not started")
    assert page.eval_on_selector_all("#puzzle-svg .line.bad", "els => els.length") == 0
    page.click("#puzzle-svg [data-label='a1']")
    page.click("#puzzle-svg [data-label='m13']")
    page.wait_for_function("document.querySelectorAll('#puzzle-svg .stone').length === 2")
    page.click("#puzzle-svg [data-label='a1']")  # removed
    page.wait_for_function("document.querySelectorAll('#puzzle-svg .stone').length === 1")
    page.click("#puzzle-undo")  # back: a1 on the board again
    page.wait_for_function("document.querySelectorAll('#puzzle-svg .stone').length === 2")
    page.click("#puzzle-undo")
    page.click("#puzzle-undo")
    wait_text(page, "#verdict", "not started")
