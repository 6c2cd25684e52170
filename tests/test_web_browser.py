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
    from powertwo.web.background import serving, warmed
    from powertwo.web.server import Limits

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("POWERTWO_CENSUS", str(tmp_path_factory.mktemp("census")))
        with serving(create_app(limits=Limits(hint_seconds=HINT_SECONDS))) as url:
            warmed(lambda: json.loads(urllib.request.urlopen(url + "/api/meta", timeout=60).read()))
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
    page.click("#puzzle-hint-ask")  # the central game's fewest-moves table (shipped) holds every position of it
    wait_text(page, "#puzzle-hint-answer", "solvable (census): one stone on d4 in 17 moves at fewest; 3 jumps keep "
                                           "it solvable: b3-d3, f3-d3, d5-d3", timeout=(HINT_SECONDS + 60) * 1000)
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
    from powertwo.web.requests import checked
    from powertwo.web.server import jump_clicks  # the server's answer to the clicks but the last

    clicks = [v for step in committed["steps"][:6] for v in (step["place"], *step["jumps"][1:])]
    before = jump_clicks(checked("/api/jump", {"puzzle": "jump-forward"}))
    for v in clicks[:-1]:
        before = jump_clicks(checked("/api/jump", {"puzzle": "jump-forward", "chains": before["chains"], "click": v}))
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
    page.wait_for_selector("#game-thinking:not([hidden])")
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
    page.wait_for_selector("#game-thinking:not([hidden])")
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
    page.click("#view-games details:last-of-type summary")
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
    page.click("#view-games details:last-of-type summary")  # the paste panel (the first: the rules)
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


# ---------------------------------------------------------------- a player's view (issue 49)
def tml_game(seed: int):
    """The positions and move texts of a random That's My Line game played to its end."""
    import random

    game = get_game("thats-my-line")
    rng, state, states, moves = random.Random(seed), game.start(), [game.start()], []
    while game.outcome(state) is None:
        move = rng.choice(game.legal_moves(state))
        moves.append(game.format_move(move, state))
        state = game.apply(state, move)
        states.append(state)
    return states, moves


def paste_record(page, record: dict) -> None:
    page.evaluate("document.querySelector('#view-games details:last-of-type').open = true")
    page.fill("#game-paste", json.dumps(record))
    page.click("#game-paste-load")
    page.wait_for_function(f"document.body.dataset.game === '{record['game']}' && "
                           f"document.body.dataset.ply === '{len(record['moves'])}'")


def game_is_shown(page, game, moves: list[str]) -> None:
    """The move list is ``moves`` and the board shows exactly the stones the referee gives after them."""
    state = game.start()
    for text in moves:
        state = game.play(state, text)
    assert page.eval_on_selector_all("#game-moves li button", "bs => bs.map(b => b.textContent)") == moves
    shown = page.eval_on_selector_all("#game-svg .stone", "els => els.map(e => [Number(e.dataset.stone), "
                                      "e.dataset.color]).sort((a, b) => a[0] - b[0])")
    assert shown == sorted([s.node, s.color] for s in game.diagram(state)["stones"])


def test_that_s_my_line_quick_clicks_are_applied_one_after_the_other(page):
    game = get_game("thats-my-line")
    choose_game(page, "thats-my-line")
    j4, a1 = game.board.node("j4"), game.board.node("a1")
    page.dblclick(f"#game-svg [data-node='{j4}']")  # the second click comes while the first is answered
    wait_text(page, "#game-reason", "j4", exact=False)  # Dark may not place on j4: it is taken
    game_is_shown(page, game, ["j4"])
    page.click(f"#game-svg [data-node='{a1}']", no_wait_after=True)  # two clicks at once, two moves
    page.click(f"#game-svg [data-node='{game.board.node('m13')}']", no_wait_after=True)
    page.wait_for_function("document.body.dataset.ply === '3'")
    game_is_shown(page, game, ["j4", "a1", "m13"])


def test_reload_during_a_computer_move_resumes_it(page):
    choose_game(page, "power-of-two")
    page.fill("#game-seconds", "3")
    page.select_option("#game-mode", "0")  # the computer plays first: it starts thinking
    page.wait_for_selector("#game-thinking:not([hidden])")
    assert page.eval_on_selector("body", "b => b.dataset.ply") == "0"
    page.reload()  # the request of the page left is dropped; the reloaded page asks again
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function("document.body.dataset.ply === '1'")
    assert page.inner_text("#game-reason").startswith("computer played ")


def test_a_broken_game_link_says_why_and_offers_the_start(page, server):
    page.goto(server + "/#games=" + urllib.request.quote(json.dumps({"game": "chess", "moves": []})))
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#game-link-error:not([hidden])")
    assert page.inner_text("#game-link-error-text").startswith("This game link is broken: unknown game 'chess'")
    bad = {"game": "thats-my-line", "moves": ["j4", "j4"]}
    page.goto(server + "/#games=" + urllib.request.quote(json.dumps(bad)))
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#game-link-error:not([hidden])")
    assert page.inner_text("#game-link-error-text") == \
        "This game link is broken: move 2 (Dark) j4: node j4 is occupied."
    assert page.inner_text("#game-link-start") == "Play That's My Line from its start position"
    page.click("#game-link-start")
    page.wait_for_function("document.body.dataset.game === 'thats-my-line' && document.body.dataset.ply === '0'")
    assert page.is_hidden("#game-link-error")


def test_the_result_banner_speaks_from_the_player_s_side(page):
    game = get_game("thats-my-line")
    states, moves = next(g for g in map(tml_game, range(50)) if game.outcome(g[0][-1]).winner == 1)
    choose_game(page, "thats-my-line")
    page.select_option("#game-mode", "1")  # the computer plays Dark: the player is Light, and lost
    paste_record(page, {"game": "thats-my-line", "moves": moves})
    reason = game.outcome(states[-1]).reason
    wait_text(page, "#game-banner-text", f"You lost: {reason}")
    assert page.get_attribute("#game-banner", "class") == "banner bad"
    shot(page, "games-lost")
    page.select_option("#game-mode", "0")  # the same game with the player as Dark: won
    wait_text(page, "#game-banner-text", f"You won: {reason}")
    assert page.get_attribute("#game-banner", "class") == "banner good"
    page.select_option("#game-mode", "1")
    page.click("#game-rematch")
    page.wait_for_function("document.body.dataset.ply === '0'")
    assert page.is_hidden("#game-banner") and page.input_value("#game-mode") == "1"


def test_resign_then_a_rematch_with_colours_swapped(page):
    choose_game(page, "power-of-two", mode="1")  # the player is Light
    page.fill("#game-seconds", "0.3")
    page.click("#game-resign")
    wait_text(page, "#game-banner-text", "You resigned: Dark wins")
    game = get_game("power-of-two")
    node = sorted(game.click_options(game.start(), ()).next)[0]
    page.click(f"#game-svg [data-node='{node}']")
    wait_text(page, "#game-reason", "the game is over: start a new game, or undo")
    page.click("#game-rematch-swap")  # now the computer plays Light, and moves first
    page.wait_for_function("document.body.dataset.ply === '1'")
    assert page.input_value("#game-mode") == "0" and page.is_hidden("#game-banner")
    assert page.inner_text("#game-reason").startswith("computer played ")


def test_the_thinking_indicator_counts_and_stop_plays_the_best_move_so_far(page):
    choose_game(page, "power-of-two")
    page.fill("#game-seconds", "10")
    page.click("#game-computer")
    page.wait_for_function("/thinking… [0-9.]+ s of 10 s/.test(document.querySelector('#game-thinking-text')"
                           ".textContent) && document.querySelector('#game-thinking-bar').value > 0")
    began = time.monotonic()
    page.keyboard.press("Escape")  # the Stop button's key
    page.wait_for_function("document.body.dataset.ply === '1'")
    assert time.monotonic() - began < 9
    assert page.inner_text("#game-reason").endswith("stopped early: the best move so far)")
    assert page.is_hidden("#game-thinking")


def test_rules_shortcuts_and_a_keyboard_reachable_file_input(page):
    choose_game(page, "epaminondas")
    page.click("#game-rules summary")
    assert page.inner_text("#game-rules-text") == get_game("epaminondas").rules_summary
    assert "Esc: the computer plays its best move now" in page.eval_on_selector("#game-keys", "e => e.textContent")
    page.focus("#game-file")
    assert page.evaluate("document.activeElement.id") == "game-file"
    box = page.eval_on_selector("#game-file", "e => e.getBoundingClientRect().width * e.getBoundingClientRect().height")
    assert box > 0 and page.eval_on_selector("#game-file", "e => getComputedStyle(e.parentElement).outlineStyle") \
        == "solid"  # its label shows the focus


def test_analysis_proves_a_that_s_my_line_endgame_and_marks_a_thrown_win(page):
    from powertwo.solvers.players.analysis import line_proofs, thrown_wins

    game = get_game("thats-my-line")
    for seed in range(60):
        states, moves = tml_game(seed)
        proofs = line_proofs(game, states[-9:], 20.0)
        late = [len(states) - 9 + k for k in thrown_wins(states[-9:], proofs)]
        if late:
            break
    choose_game(page, "thats-my-line")
    cut = late[0]  # the position before the move that threw the win away: proven won for its mover
    paste_record(page, {"game": "thats-my-line", "moves": moves[:cut - 1]})
    page.check("#game-analysis-on")
    winner = game.player_name(states[cut - 1].to_move)
    wait_text(page, "#game-proof", f"proven: {winner} wins with ", exact=False)
    best = page.inner_text("#game-proof").removeprefix(f"proven: {winner} wins with ")
    after = game.play(states[cut - 1], best)
    assert line_proofs(game, [after], 20.0)[0].winner == states[cut - 1].to_move  # the move keeps the win
    assert page.eval_on_selector_all("#game-svg .node.hint", "els => els.length") >= 1
    shot(page, "games-analysis")
    paste_record(page, {"game": "thats-my-line", "moves": moves})
    page.wait_for_function(f"document.body.dataset.analysed === '{len(moves)}'")
    marked = page.eval_on_selector_all("#game-moves li", "lis => lis.map((li, k) => li.classList.contains('thrown') "
                                       "? k + 1 : 0).filter(k => k)")
    assert [k for k in marked if k > len(states) - 9] == late  # the moves the library judged
    assert page.inner_text(f"#game-moves li:nth-child({late[0]}) .thrown-mark") == "threw a proven win away"


def test_phone_labels_targets_status_above_the_fold_and_a_touch_confirmation(browser, server):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(server + "/#games")
        pg.wait_for_selector("body[data-ready='1']")
        pg.select_option("#game-mode", "friend")
        pg.select_option("#game-select", "thats-my-line")
        pg.wait_for_function("document.body.dataset.game === 'thats-my-line' && document.body.dataset.ply === '0'")
        targets = pg.eval_on_selector_all("#game-svg circle.hit", "els => els.map(e => { const b = "
                                          "e.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2,"
                                          " b.width]; })")
        assert len(targets) == 64 and min(w for _, _, w in targets) >= 24
        for i, (x, y, w) in enumerate(targets):  # no two targets overlap
            assert all(((x - u) ** 2 + (y - v) ** 2) ** 0.5 >= (w + z) / 2 - 0.5 for u, v, z in targets[i + 1:])

        def label_sizes() -> list[float]:  # the visible labels' height on the screen
            return pg.eval_on_selector_all("#game-svg text.label.name", "els => els.filter(e => getComputedStyle(e)"
                                           ".display !== 'none').map(e => e.getBoundingClientRect().height)")
        assert all(h >= 11 for h in label_sizes())  # hidden at this size, or large enough
        texts = pg.evaluate("""[...document.querySelectorAll('body *')].filter(e => !(e instanceof SVGElement) &&
            e.offsetParent !== null && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
            .map(e => parseFloat(getComputedStyle(e).fontSize))""")
        assert min(texts) >= 11
        for selector in ("#game-status", "#game-undo", "#game-computer", "#game-new", "#game-zoom"):
            box = pg.eval_on_selector(selector, "e => { const b = e.getBoundingClientRect(); return [b.top, b.bottom,"
                                      " b.height]; }")
            assert 0 <= box[0] and box[1] <= 844, selector  # above the fold
            assert selector == "#game-status" or box[2] >= 24, selector
        pg.screenshot(path=str(SCREENSHOTS / "web-phone-games.png"))
        game = get_game("thats-my-line")
        j4 = game.board.node("j4")
        pg.tap(f"#game-svg [data-node='{j4}']")
        pg.wait_for_selector("#game-complete button.primary[data-move='j4']")
        assert pg.inner_text("#game-complete button.primary") == "Confirm j4"
        assert pg.eval_on_selector("body", "b => b.dataset.ply") == "0"  # not played until confirmed
        pg.screenshot(path=str(SCREENSHOTS / "web-phone-confirm.png"))
        pg.tap(f"#game-svg [data-node='{j4}']")  # the same node again confirms
        pg.wait_for_function("document.body.dataset.ply === '1'")
        pg.click("#game-zoom")
        pg.wait_for_function("document.querySelector('#game-svg').dataset.labels === 'on'")
        sizes = label_sizes()
        assert len(sizes) == 64 and min(sizes) >= 11
        pg.screenshot(path=str(SCREENSHOTS / "web-phone-zoom.png"))
    finally:
        ctx.close()
    assert not errors, errors
