"""``prove``: df-pn and That's My Line's compiled producer against a brute-force minimax through the
plain referees on small positions of all six games, the certificates re-verified by the independent
checker (and refused when mutated), the plain referees' ends against the fast ones, the CLI."""

from __future__ import annotations

import random
from importlib import import_module
from pathlib import Path

import pytest

from powertwo.rules import get_game, game_names
from powertwo.rules.plain import DRAW
from powertwo.solvers.proof_check import check_certificate
from powertwo.solvers.proof_format import is_certificate, write_certificate
from powertwo.solvers.prove import Limits, Value, prove

from test_thats_my_line_solitaire import grid

LIMITS = Limits(seconds=300, memory_mib=256)


def plain_module(game):
    return import_module("powertwo.rules.plain." + type(game).__module__.rsplit(".", 1)[1])


def minimax(game, state, depth, memo=None):
    """The winner with best play within ``depth`` moves, through the plain referee alone (``None``: a
    draw, or not decided within ``depth``)."""
    plain = plain_module(game)
    memo = {} if memo is None else memo
    key = (state, depth)
    if key in memo:
        return memo[key]
    ended = plain.outcome(game, state)
    if ended is not None:
        result = None if ended == DRAW else ended
    elif depth == 0:
        result = None
    else:
        me = state.to_move
        result = 1 - me
        for move in plain.candidates(game, state):
            if plain.check(game, state, move) is None:
                after = minimax(game, plain.apply(game, state, move), depth - 1, memo)
                if after == me:
                    result = me
                    break
                if after is None:
                    result = None
    memo[key] = result
    return result


def certify(result, path: Path, board=None):
    """Write the result's certificate and check it."""
    assert result.certificate is not None
    write_certificate(path, dict(result.certificate.header), result.certificate.body)
    assert is_certificate(path)
    return check_certificate(path, board=board)


def expected_value(winner, to_move):
    return Value.WON if winner == to_move else Value.LOST


# ---------------------------------------------------------------- That's My Line on tiny boards
@pytest.mark.parametrize("n,diagonals,stones", [(3, True, 16), (3, False, 16), (3, True, 1), (3, False, 2),
                                                (3, False, "unlimited"), (4, True, 2), (4, False, 3)])
@pytest.mark.parametrize("engine", ["df-pn", "compiled"])
def test_thats_my_line_on_tiny_boards_agrees_with_plain_minimax(n, diagonals, stones, engine, tmp_path):
    board = grid(n, diagonals)
    game = get_game("thats-my-line", board, stones=stones)
    state = game.start()
    winner = minimax(game, state, 2 * n * n + 2)
    assert winner is not None
    result = prove(game, state, limits=LIMITS, engine=engine)
    assert result.value == expected_value(winner, state.to_move)
    assert result.winner == game.player_name(winner)
    report = certify(result, tmp_path / "p.proof", board)
    assert report.valid, report.faults
    if result.value == Value.WON:
        after = game.apply(state, game.parse_move(result.move))
        assert minimax(game, after, 2 * n * n) == winner


def thats_my_line_late_positions(count: int, seed: int):
    """Positions of random games on the real board with few open nodes left."""
    game = get_game("thats-my-line")
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.start()
        while game.outcome(state) is None and len(game.placeable(state, 0)) + len(game.placeable(state, 1)) > 9:
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if game.outcome(state) is None:
            out.append(state)
    return game, out


@pytest.mark.parametrize("engine", ["df-pn", "compiled"])
def test_thats_my_line_late_positions_of_the_real_board(engine, tmp_path):
    game, states = thats_my_line_late_positions(4, seed=11)
    for state in states:
        winner = minimax(game, state, 30)
        result = prove(game, state, limits=LIMITS, engine=engine)
        assert result.value == expected_value(winner, state.to_move)
        assert certify(result, tmp_path / "p.proof").valid


# ---------------------------------------------------------------- the other five games, near their end
NEAR_END = [
    # (game, position, plies within which the plain minimax decides it)
    ("power-of-two", {"light": [12], "dark": [3, 6, 11, 14, 17, 20, 24, 38, 39, 43, 48, 52, 53, 54, 55],
                      "aged": [], "to_move": "light"}, 2),
    ("power-of-two", {"light": [8], "dark": [2, 3, 5, 6, 12, 16, 17, 24, 44, 47, 54, 58, 62, 63, 64],
                      "aged": [], "to_move": "light"}, 2),
    ("power-of-two", {"light": [2, 7, 9, 15, 20, 25, 33, 34, 37, 44, 48, 50, 51, 53, 63], "dark": [18, 42],
                      "aged": [], "to_move": "light"}, 1),
    ("david-goliath", {"david": 44, "goliath": 52, "light_thrown": [6, 9, 12, 18, 20, 33, 40, 43, 53, 56, 58, 59,
                                                                    61, 64],
                       "dark_thrown": [1, 21, 22, 23, 31, 37, 38, 39, 42, 45, 47, 48, 55, 57], "to_move": "light"}, 3),
    ("david-goliath", {"david": 59, "goliath": 51, "light_thrown": [9, 12, 17, 19, 22, 26, 37, 42, 55, 60, 63],
                       "dark_thrown": [2, 6, 8, 23, 38, 39, 44, 46, 53, 62, 64], "to_move": "dark", "ply": 23}, 3),
    ("david-goliath", {"david": 31, "goliath": 19, "light_thrown": [5, 16, 23, 30, 34, 36, 37, 38, 39, 42, 44, 61],
                       "dark_thrown": [1, 6, 17, 18, 21, 26, 27, 35, 50, 52, 58, 63], "to_move": "light"}, 2),
    ("tower-of-power", {"to_move": "white", "stacks": {"a2": "W", "f6": "W", "g7": "W", "e8": "B"}}, 3),
    ("tower-of-power", {"to_move": "white", "stacks": {"e1": "B", "d3": "W", "f3": "W"}}, 3),
    ("netzwerk", {"to_move": "player2", "ply": 1, "player1": ["d1"], "player2": ["b3", "e3"],
                  "energy": ["e23", "e32", "e55"]}, 3),
    ("netzwerk", {"to_move": "player2", "ply": 1, "player1": ["c5"], "player2": ["c4"],
                  "energy": ["e02", "e15", "e30", "e35", "e36", "e45"]}, 2),
    ("epaminondas", {"to_move": "white", "white": ["m3"], "black": ["g2"]}, 3),
    ("epaminondas", {"to_move": "black", "ply": 1, "white": ["l6"], "black": ["a2"]}, 2),
    ("epaminondas", {"to_move": "white", "white": ["a11"], "black": ["n3"]}, 2),
]


@pytest.mark.parametrize("name,position,depth", NEAR_END, ids=[f"{c[0]}-{i}" for i, c in enumerate(NEAR_END)])
def test_prove_agrees_with_plain_minimax_near_the_end(name, position, depth, tmp_path):
    game = get_game(name)
    state = game.state_from_json(position)
    winner = minimax(game, state, depth)
    assert winner is not None
    result = prove(game, state, limits=LIMITS)
    assert result.value == expected_value(winner, state.to_move)
    report = certify(result, tmp_path / "p.proof")
    assert report.valid, report.faults


def test_every_game_has_a_near_end_position():
    assert {name for name, _, _ in NEAR_END} | {"thats-my-line"} == set(game_names())


def test_a_finished_game_is_its_own_proof(tmp_path):
    game = get_game("epaminondas")
    state = game.state_from_json({"to_move": "white", "white": ["a12"], "black": ["n3"]})
    result = prove(game, state, limits=LIMITS)
    assert result.value == Value.WON and result.move is None and result.proof.leaves == 1
    assert certify(result, tmp_path / "p.proof").valid


def test_neither_side_wins_a_tower_of_power_game_drawn_by_its_move_limit():
    """Two lone stones far apart and four plies to the move limit: neither can capture in time, so
    the game is drawn with best play (neither), never won or lost; with no limit the search may
    not decide, but never says won or lost either."""
    game = get_game("tower-of-power", move_limit=6)
    state = game.state_from_json({"to_move": "white", "ply": 2, "stacks": {"a1": "W", "h8": "B"}})
    assert minimax(game, state, 4) is None
    result = prove(game, state, limits=LIMITS)
    assert result.value == Value.NEITHER and result.winner is None and result.certificate is None
    game = get_game("tower-of-power")
    result = prove(game, game.state_from_json({"to_move": "white", "stacks": {"a1": "W", "h8": "B"}}),
                   limits=Limits(seconds=5, memory_mib=64))
    assert result.value in (Value.NEITHER, Value.UNKNOWN)


def test_an_unknown_answer_gives_figures_and_no_result():
    game = get_game("power-of-two")
    result = prove(game, game.start(), limits=Limits(seconds=2, memory_mib=64))
    assert result.value == Value.UNKNOWN and result.winner is None and result.certificate is None
    assert result.figures.stopped is not None and result.figures.expanded > 0
    data = result.to_json()
    assert data["value"] == "unknown" and data["figures"]["stopped"] == "time limit"


# ---------------------------------------------------------------- symmetry: producer and checker agree
@pytest.mark.parametrize("name", ["thats-my-line", "power-of-two", "david-goliath", "tower-of-power", "epaminondas"])
def test_symmetric_positions_share_a_key_for_the_search_and_the_checker(name):
    from powertwo.solvers.proof_check import _Plain
    from powertwo.solvers.prove.positions import Positions

    game = get_game(name)
    positions = Positions.of(game)
    plain = _Plain.of(game, symmetry=True)
    assert positions.perms and sorted(positions.perms) == sorted(plain.perms)
    state = game.start()
    rng = random.Random(4)
    for _ in range(6):
        state = game.apply(state, rng.choice(game.moves(state).first(200)))
    data = game.state_to_json(state)
    for perm in positions.perms:
        image = game.state_from_json(_relabel(data, lambda v, p=perm: p[game.board.node(v) - 1]))
        assert positions.key(image) == positions.key(state)
        assert plain.key(image) == plain.key(state)


def _relabel(data, image):
    """A position's JSON with every node (a list entry, a single node or a key of the stacks) mapped."""
    out = {}
    for field, value in data.items():
        if field in ("game", "to_move", "ply", "last_placer", "history"):
            out[field] = value
        elif isinstance(value, list):
            out[field] = [image(v) for v in value]
        elif isinstance(value, dict):
            out[field] = {image(k): v for k, v in value.items()}
        else:
            out[field] = image(value)
    return out
