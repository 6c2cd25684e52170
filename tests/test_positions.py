"""Reachable positions (issue 50 item 12): a position is checked against the rules where that is
cheap. That's My Line: counts consistent with ``ply`` (one stone a turn, Light first), passes only
by a player who cannot place and by at most one player, the last placer derived; David and
Goliath: at most one throw a turn; Tower of Power: the history no longer than the moves made,
its players alternating."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from powertwo.cli import main
from powertwo.rules import RecordError, get_game

TML = get_game("thats-my-line")


@pytest.mark.parametrize("position, reason", [
    ({"light": ["a1", "e1"], "dark": [], "ply": 0},  # issue 50, reproduction 12: a common line, ply 0
     "position: Light has 2 stones after 0 moves (ply), but places at most one a turn: 0 turns (Light moves first)"),
    ({"light": ["a1", "e1"], "dark": []},  # without ply: as many moves as stones
     "position: Light has 2 stones after 2 moves (ply), but places at most one a turn: 1 turn (Light moves first)"),
    ({"light": ["d7", "c8", "k9"], "dark": ["i3", "c11"], "ply": 6},  # reproduction 12: 5 stones at ply 6
     "position: 5 stones after 6 moves (ply) means 1 pass by Dark, who can still place (on e1); a player who can "
     "place must place"),
    ({"light": ["a1"], "dark": [], "ply": 3},
     "position: 3 moves (ply) for 1 stone would need both players to pass, which no game does (a pass is forced only "
     "while the other player can still place)"),
    ({"light": ["a1"], "dark": ["m13"], "ply": 2, "last_placer": "light"},
     "position: field 'last_placer' is 'light', but after these 2 moves the last stone was placed by Dark"),
])
def test_unreachable_that_s_my_line_positions_are_refused(position, reason, tmp_path):
    with pytest.raises(RecordError) as err:
        TML.state_from_json(position)
    assert str(err.value) == reason
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    res = CliRunner().invoke(main, ["moves", "thats-my-line", "--position", str(path)])
    assert res.exit_code == 2 and res.output == f"powertwo: {path}: {str(err.value)}\n"


def test_every_position_of_real_games_reads_back_and_its_last_placer_is_derived():
    """Random games to their end (passes included: a supply of 4, and unlimited stones) read back
    as written, and without ``last_placer`` or ``to_move`` the same; one more move refused."""
    rng = random.Random(12)
    passes = 0
    for options in ({"stones": 4}, {"stones": "unlimited"}, {}):
        game = get_game("thats-my-line", **options)
        for _ in range(6):
            state = game.start()
            while True:
                data = game.state_to_json(state)
                assert game.state_from_json(data) == state
                bare = {k: v for k, v in data.items() if k not in ("last_placer", "to_move")}
                assert game.state_from_json(bare) == state
                if game.outcome(state) is not None:
                    break
                move = rng.choice(list(game.moves(state)))
                passes += game.format_move(move, state) == "pass"
                state = game.apply(state, move)
    assert passes > 0  # the passes were read back too


def test_david_and_goliath_throw_at_most_one_stone_a_turn():
    game = get_game("david-goliath")
    position = {"david": "a13", "goliath": "m1", "light_thrown": ["a9", "b10", "c11"], "dark_thrown": []}
    with pytest.raises(RecordError, match=r"^position: Light/David has thrown 3 stones after 2 moves \(ply\), but "
                                          r"throws at most one a turn: 1 turn \(David moves first\)$"):
        game.state_from_json(dict(position, to_move="light", ply=2))
    assert game.state_from_json(position).ply == 6  # without ply: the fewest moves that throw them
    assert game.state_from_json(dict(position, to_move="dark")).ply == 5


def test_tower_of_power_history_fits_the_moves():
    game = get_game("tower-of-power")
    state = game.start()
    for _ in range(3):
        state = game.apply(state, next(iter(game.moves(state))))
    data = game.state_to_json(state)
    assert game.state_from_json(data) == state
    with pytest.raises(RecordError, match=r"^position: field 'history' lists 3 earlier positions, more than the 1 "
                                          r"move \(ply\) made$"):
        game.state_from_json(dict(data, ply=1))
    with pytest.raises(RecordError, match=r"^position: history\[0\] has Black to move, but it stands 3 moves before "
                                          r"this position \(Black to move\) and the players alternate: White was"):
        game.state_from_json(dict(data, history=data["history"][1:] + data["history"][:1]))
