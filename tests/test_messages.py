"""Messages (issue 50 item 13): one pluraliser, long numbers cut, no Python advice in a reply."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from powertwo.boards.words import counted, filled, plural, singular
from powertwo.cli import main


def test_the_one_pluraliser():
    assert [counted(n, "move") for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
    assert counted(1, "free node") == "1 free node" and counted(3, "match") == "3 matches"
    assert plural("is", 2) == "are" and singular("moves") == "move" and singular("matches") == "match"
    assert filled("{n} moves, {stones} stones left", n=1, stones=1) == "1 move, 1 stone left"
    assert filled("{n} steps, {stones} stones on the board", n=31, stones=32) == "31 steps, 32 stones on the board"


@pytest.mark.parametrize("command", ["check", "validate"])
def test_a_record_of_one_move_is_valid_with_1_move(command, tmp_path):
    record = tmp_path / "one.json"
    record.write_text(json.dumps({"game": "thats-my-line", "moves": ["a1"]}))
    args = [command, str(record)] if command == "check" else [command, "thats-my-line", str(record)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert res.output.startswith("valid: 1 move, game not over"), res.output


def test_a_client_that_leaves_mid_body_gets_a_reply_and_leaves_no_trace():
    """Issue 50, reproduction 13: 300 ``ClientDisconnect`` tracebacks in the server's log from
    clients that left in the middle of their body. The app answers 400 and raises nothing (an
    exception out of the app is what the server logs with its trace)."""
    import asyncio

    from powertwo.web.server import create_app

    app = create_app()
    sent: list[dict] = []
    arriving = [{"type": "http.request", "body": b'{"game": "thats-', "more_body": True}, {"type": "http.disconnect"}]

    async def receive() -> dict:
        return arriving.pop(0) if arriving else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/game", "raw_path": b"/api/game", "root_path": "",
             "scheme": "http", "query_string": b"", "server": ("127.0.0.1", 8765), "client": ("127.0.0.1", 5000),
             "http_version": "1.1", "headers": [(b"host", b"127.0.0.1:8765"), (b"content-type", b"application/json"),
                                                (b"content-length", b"100")]}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 400
    assert json.loads(sent[1]["body"]) == {"error": "the client went away before its request body arrived"}


def test_the_readme_says_how_to_run_the_tool_in_its_first_screen():
    """Issue 50, item 14: right after the two commands, how to run ``powertwo`` once they are done."""
    from pathlib import Path

    lines = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8").splitlines()
    assert lines[:5] == ["# powertwo", "```", "make results", "make test", "```"]
    first_screen = " ".join(lines[:15])
    assert ".venv/bin/powertwo" in first_screen and ". .venv/bin/activate" in first_screen
