"""That's My Line solitaire: the puzzle's names, the stone supply, and a game record replayed
through the That's My Line referee (:mod:`powertwo.rules.thats_my_line`)."""

from __future__ import annotations

from typing import Any, Mapping

from powertwo.boards import Board
from powertwo.models.thats_my_line import DARK, LIGHT, FinalPosition, Supply
from powertwo.rules import IllegalMoveError, InvalidMoveError, RecordError, get_game
from powertwo.rules.thats_my_line import UNLIMITED, stones_option

from ..fields import SolutionError

PUZZLE = "thats-my-line"
GAME = "thats-my-line"
BACKENDS = ("cp-sat", "sat")
SAT_SOLVER = "cadical195"


def supply_of(stones: Any) -> Supply:
    """``16``, ``"16"`` or ``"unlimited"`` as the model's supply (``None``: unlimited)."""
    try:
        return stones_option(stones)
    except RecordError:
        raise SolutionError(f"{PUZZLE}: --stones must be a number >= 0 or 'unlimited', "
                            f"not {str(stones)[:40]!r}") from None


def supply_text(supply: Supply) -> int | str:
    return UNLIMITED if supply is None else supply


def trivial_bound(board: Board, supply: Supply) -> int:
    return board.size if supply is None else min(board.size, 2 * supply)


def record_moves(board: Board, final: FinalPosition) -> list[str]:
    """The game of a final position in notation (node labels and ``pass``)."""
    return ["pass" if node is None else board.label(node) for _, node in final.placing_order()]


def replay(board: Board, supply: Supply, moves: list[str]):
    """Replay ``moves`` through the referee. Returns ``(states, fault)``: the states reached (the
    start first) and the first fault (a line naming the move), or ``None``."""
    game = get_game(GAME, board, stones=supply_text(supply))
    state = game.start()
    states = [state]
    for text in moves:
        number, player = state.ply + 1, game.player_name(state.to_move)
        try:
            state = game.apply(state, game.parse_move(text, state))
        except InvalidMoveError as exc:
            return game, states, f"move {number} ({player}) {text}: {exc}"
        except IllegalMoveError as exc:
            return game, states, str(exc.located(move=text, player=player, number=number))
        states.append(state)
    return game, states, None


def unfinished(game, state) -> str | None:
    """Why the game is not over in ``state`` (who can still place where), or ``None``."""
    if game.outcome(state) is not None:
        return None
    able = []
    for player in (LIGHT, DARK):
        nodes = game.placeable(state, player)
        if nodes:
            shown = ", ".join(game.board.label(v) for v in nodes[:6]) + (", ..." if len(nodes) > 6 else "")
            able.append(f"{game.player_name(player)} can still place on {shown}")
    return "; ".join(able)


def answer_record(data: Mapping[str, Any]) -> dict[str, Any]:
    """The game record an answer file holds: its board, its supply as the game's option ``stones``
    and its ``record`` as the moves (the referee judges it, as ``powertwo validate`` does)."""
    record = {"game": GAME, "options": {"stones": data.get("stones", 16)}, "moves": data.get("record", [])}
    return record | {key: data[key] for key in ("board", "board_fingerprint") if key in data}


def game_fields(board: Board, supply: Supply, final: FinalPosition) -> dict[str, Any]:
    """A result's fields of the game of ``final`` (its record replayed by the referee)."""
    moves, outcome = legal_record(board, supply, final)
    return {
        "light": sorted(final.light), "dark": sorted(final.dark),
        "light_count": len(final.light), "dark_count": len(final.dark),
        "first_pass": None if final.first_pass is None else ("light", "dark")[final.first_pass],
        "record": moves, "passes": moves.count("pass"), "outcome": outcome,
    }


def legal_record(board: Board, supply: Supply, final: FinalPosition) -> tuple[list[str], str]:
    """The record of ``final``, replayed by the referee to a finished game with exactly its stones.

    Raises :class:`SolutionError` if the referee disagrees (a model fault: never returned)."""
    moves = record_moves(board, final)
    game, states, fault = replay(board, supply, moves)
    end = states[-1]
    if fault is None:
        fault = unfinished(game, end)
        if fault:
            fault = f"the game is not over after move {len(moves)}: {fault}"
    if fault is None and (end.light != final.light or end.dark != final.dark):
        fault = "the replayed game ends in another position than the model's"
    if fault:
        raise SolutionError(f"{PUZZLE}: the referee rejects the game built from the model's answer: {fault}")
    return moves, game.outcome(end).reason


