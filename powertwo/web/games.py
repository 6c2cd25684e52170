"""The games page's answers: a record replayed by the referee, what may come next after the
clicks, the referee's reason for a refused click."""

from __future__ import annotations

from typing import Any

from powertwo.boards import Board, NodeError, read_node
from powertwo.rules import Game, RulesError, game_names, get_game, validate_record

from .common import BadRequest, plain
from .requests import GameBody


def game_frame(game: Game[Any, Any], state: Any, last: Any, caption: str) -> dict[str, Any]:
    """A position as the page draws it: stones, arrows (in the colour the game gives them), the
    nodes the last move placed on, marked nodes, the diagram's title and its legend."""
    kw = game.diagram(state, last)
    return {"stones": plain(kw.get("stones", [])), "arrows": plain(kw.get("arrows", [])),
            "highlight": plain(kw.get("highlight", [])), "last": plain(kw.get("last", [])),
            "marks": plain(kw.get("marks", [])), "caption": caption, "title": kw.get("title", ""),
            "legend": plain(kw.get("legend", {}))}


def players_facts(game: Game[Any, Any], state: Any, stones: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What decides the game, per player: the name, the stones on the board (by the colour the
    diagram gives them) and the reserve when the game keeps one."""
    facts = []
    for player, colour in enumerate(("light", "dark")):
        fact = {"name": game.player_name(player), "colour": colour,
                "on_board": sum(1 for s in stones if s["color"] == colour)}
        reserve = getattr(state, "reserve", None)
        if callable(reserve):
            fact["reserve"] = reserve(player)
        facts.append(fact)
    return facts


# ---------------------------------------------------------------- games
def game_record(body: GameBody) -> tuple[Game[Any, Any], dict[str, Any], Any, list[Any]]:
    """The game, its record, the position after the moves, and the moves (replayed by the referee)."""
    name = body.game
    if name not in game_names():
        raise BadRequest(f"unknown game {name!r} (known: {', '.join(game_names())})")
    try:
        game = get_game(name, **(body.options or {}))
    except RulesError as exc:
        raise BadRequest(str(exc)) from None
    start = body.start if body.start is not None else game.default_start
    if start not in game.board.start_names and start not in game.start_names and not start.startswith("custom:"):
        raise BadRequest(f"field 'start': {game.title} has no start {start!r} "
                         f"(starts: {', '.join(game.board.start_names or game.start_names)})")
    record = game.record(list(body.moves or []), start=start)
    try:
        res = validate_record(record)
    except RulesError as exc:
        raise BadRequest(str(exc)) from None
    return game, record, res, list(res.moves)


def clicks_of(body: GameBody, board: Board) -> list[int]:
    """The nodes clicked so far (labels or ids), as node ids."""
    clicks = []
    for v in body.clicks or []:
        try:
            clicks.append(read_node(board, v, "field 'clicks'"))
        except NodeError as exc:
            raise BadRequest(f"field 'clicks': {exc.shown} is not a node of board {board.name}") from None
    return clicks


def game_view(game: Game[Any, Any], record: dict[str, Any], res: Any, clicks: list[int]) -> dict[str, Any]:
    state = res.final
    last = res.moves[-1] if res.moves else None
    options = game.click_options(state, clicks)
    out = res.outcome
    view = game_frame(game, state, last, f"move {state.ply + 1}, {game.player_name(state.to_move)} to move")
    view.update({
        "record": record, "clicks": clicks,
        "next": sorted(options.next),
        "complete": [game.format_move(m, state) for m in options.complete],
        "to_move": game.player_name(state.to_move), "to_move_index": state.to_move,
        "outcome": None if out is None else {"winner": None if out.winner is None else game.player_name(out.winner),
                                             "winner_index": out.winner, "reason": out.reason},
        "notes": game.notes(state),
        "players": players_facts(game, state, view["stones"]),
        "last_move": None if last is None else game.format_move(last),
    })
    return view


def attempt_reason(game: Game[Any, Any], state: Any, clicks: list[int]) -> str:
    """The referee's reason why the clicks make no legal move (read as a move where they can be)."""
    labels = [game.board.label(v) for v in clicks]
    texts = []
    if len(labels) >= 2:
        texts.append(" ".join(f"{a}-{b}" for a, b in zip(labels[::2], labels[1::2], strict=False)))
        texts.append("-".join(labels[:2]) + "".join(f" +{x}" for x in labels[2:]))
    texts.append(labels[-1] if len(labels) == 1 else "-".join(labels))
    for text in texts:
        try:
            move = game.parse_move(text, state)
        except RulesError:
            continue
        reason = game.reason_illegal(state, move)
        if reason:
            return f"{text}: {reason}"
    if len(labels) == 1:
        return first_click_reason(game, state, clicks[0])
    return f"{labels[-1]} cannot come next after {' '.join(labels[:-1])}"


def first_click_reason(game: Game[Any, Any], state: Any, node: int) -> str:
    """Why no move starts at ``node``, naming what stands there."""
    stone = next((s for s in game.diagram(state).get("stones", []) if s.node == node), None)
    held = "" if stone is None else f" (it holds a {game.stone_legend().get(stone.color, stone.color + ' stone')})"
    return (f"{game.board.label(node)}: no move of {game.player_name(state.to_move)} starts there{held}; "
            f"the marked nodes may start one")


def played(game: Game[Any, Any], record: dict[str, Any], text: str) -> dict[str, Any]:
    """The view after the move ``text`` is appended to the record (replayed by the referee)."""
    new = dict(record, moves=record["moves"] + [text])
    view = game_view(game, new, validate_record(new), [])
    view["played"] = text
    return view
