"""Hypothesis feeds random bytes and random move strings to the parsers and the validator of every
registered game: no crash, only the documented errors (RecordError, InvalidMoveError, IllegalMoveError,
all RulesError subclasses)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from powertwo import rules
from powertwo.rules import IllegalMoveError, InvalidMoveError, RecordError, RulesError, validate_record

GAMES = rules.game_names()
GAME_OBJECTS = {name: rules.get_game(name) for name in GAMES}
MOVE_ALPHABET = "0123456789-+*^ abcdefghpas\t,/x:"

moves_text = st.one_of(st.text(max_size=20), st.text(alphabet=MOVE_ALPHABET, max_size=16))
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(data=st.binary(max_size=200))
def test_random_bytes_as_a_record(data):
    try:
        validate_record(data)
    except RulesError as exc:
        assert isinstance(exc, (RecordError, InvalidMoveError, IllegalMoveError)) and str(exc)


@FUZZ
@given(name=st.sampled_from(GAMES), text=moves_text)
def test_random_move_text(name, text):
    game = GAME_OBJECTS[name]
    state = game.start(game.start_names[0] if game.start_names else None)
    try:
        move = game.parse_move(text, state)
    except InvalidMoveError as exc:
        assert str(exc)
        return
    try:
        after = game.apply(state, move)
    except IllegalMoveError as exc:
        assert exc.reason and exc.number == 1
        return
    assert after.ply == 1 and game.is_legal(state, move)


@FUZZ
@given(name=st.sampled_from(GAMES), moves=st.lists(moves_text, max_size=4),
       extra=st.dictionaries(st.sampled_from(["start", "options", "position", "board"]),
                             st.one_of(st.none(), st.integers(), st.text(max_size=8),
                                       st.lists(st.integers(), max_size=3),
                                       st.dictionaries(st.text(max_size=6), st.integers(), max_size=2)),
                             max_size=2))
def test_random_records(name, moves, extra):
    record = {"game": name, "moves": moves, **extra}
    try:
        result = validate_record(json.dumps(record))
    except RulesError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert len(result.moves) == len(moves)


@FUZZ
@given(name=st.sampled_from(GAMES), position=st.dictionaries(
    st.sampled_from(["light", "dark", "aged", "to_move", "ply", "david", "goliath", "light_thrown", "dark_thrown",
                     "last_placer", "game"]),
    st.one_of(st.none(), st.booleans(), st.integers(-3, 70), st.text(max_size=5),
              st.lists(st.one_of(st.integers(-2, 70), st.text(max_size=3)), max_size=5)), max_size=6))
def test_random_position_objects(name, position):
    game = GAME_OBJECTS[name]
    try:
        state = game.state_from_json(position)
    except RecordError as exc:
        assert str(exc)
        return
    assert game.state_from_json(game.state_to_json(state)) == state
    game.moves(state).first(50)


@FUZZ
@given(name=st.sampled_from(GAMES), data=st.data())
def test_mutated_legal_moves(name, data):
    """A legal move with characters cut out or added: parsed and refused with a reason, or legal."""
    game = GAME_OBJECTS[name]
    state = game.start(game.start_names[0] if game.start_names else None)
    texts = [game.format_move(m, state) for m in game.moves(state).first(60)]
    text = data.draw(st.sampled_from(texts))
    cut = data.draw(st.integers(0, len(text)))
    inserted = data.draw(st.text(alphabet=MOVE_ALPHABET, max_size=4))
    text = text[:cut] + inserted + text[cut + data.draw(st.integers(0, 2)):]
    try:
        move = game.parse_move(text, state)
        game.apply(state, move)
    except (InvalidMoveError, IllegalMoveError) as exc:
        assert str(exc)
