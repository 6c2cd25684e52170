"""Proofs in play: ``proven_hint`` (the value, the winner and a winning move, found within the seconds
given, then known along the proof), the computer player playing a proven win, and ``powertwo play``
showing "proven: ... wins (hint: ...)"."""

from __future__ import annotations

import json

from click.testing import CliRunner

from powertwo.cli import main
from powertwo.rules import get_game
from powertwo.solvers.players import choose_move
from powertwo.solvers.prove import Value
from powertwo.solvers.prove.hint import proven_hint, proven_move

from test_prove import minimax
from test_prove_jobs import NEAR_END


def test_a_hint_names_a_winning_move_and_is_known_along_the_proof():
    game = get_game("david-goliath")
    state = game.state_from_json(NEAR_END)
    hint = proven_hint(game, state, seconds=60)
    assert hint is not None and hint.value == Value.WON and not hint.known
    assert hint.text() == f"proven: Dark/Goliath wins (hint: {hint.move})"
    after = game.play(state, hint.move)
    assert minimax(game, after, 2) == 1  # Goliath wins against every defence
    seen = proven_hint(game, after, seconds=0)
    assert seen is not None and seen.known and seen.text() == "proven: Dark/Goliath wins"
    for reply in game.legal_moves(after):
        later = game.apply(after, reply)
        if game.outcome(later) is None:
            again = proven_hint(game, later, seconds=0)  # known from the proof's certificate, no search
            assert again is not None and again.known and again.value == Value.WON
            assert game.outcome(game.play(later, again.move)) is not None or minimax(game, game.play(later, again.move),
                                                                                     1) == 1
    assert proven_hint(game, game.start(), seconds=0) is None


def test_no_hint_for_a_finished_game_or_an_undecided_position():
    game = get_game("power-of-two")
    assert proven_hint(game, game.start(), seconds=0.2) is None


def test_the_computer_plays_a_proven_win():
    game = get_game("david-goliath")
    state = game.state_from_json(NEAR_END)
    asked: list[float] = []

    def prover(g, s, seconds):
        asked.append(seconds)
        return proven_move(g, s, 60)

    found = choose_move(game, state, seconds=2.0, prover=prover)
    assert asked == [0.6] and found.value == 1.0
    assert minimax(game, game.apply(state, found.move), 2) == 1


def test_play_shows_the_proven_winner_and_a_hint(tmp_path):
    position = tmp_path / "pos.json"
    position.write_text(json.dumps(NEAR_END))
    res = CliRunner().invoke(main, ["play", "david-goliath", "--position", str(position), "--proof-seconds", "60"],
                             input="quit\n")
    assert res.exit_code == 0, res.output
    assert "proven: Dark/Goliath wins (hint: " in res.stdout
    res = CliRunner().invoke(main, ["play", "david-goliath", "--position", str(position), "--proof-seconds", "0"],
                             input="quit\n")
    assert "proven:" not in res.stdout
