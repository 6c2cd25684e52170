"""Shared Hypothesis checks for malformed input to a referee (used by the rule tests of
Tower of Power, Netzwerk and Epaminondas): every input is either read or refused with a
:class:`powertwo.rules.RulesError` of one readable line, never another exception."""

from hypothesis import strategies as st

from powertwo.rules import InvalidMoveError, RecordError, RulesError, validate_record

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8)
"""Arbitrary JSON-like values, for positions that are malformed in every way."""


def check_parse(game, text):
    """``parse_move`` reads the text (and its own notation back) or refuses it with a reason."""
    try:
        move = game.parse_move(text)
    except InvalidMoveError as exc:
        assert str(exc)
    else:
        assert game.parse_move(game.format_move(move)) == move


def check_record(game, moves):
    """A record of arbitrary move texts replays fully or stops with a numbered rules error."""
    try:
        result = validate_record({"game": game.name, "moves": moves})
    except RulesError as exc:
        assert str(exc).startswith("move ")
    else:
        assert len(result.moves) == len(moves)


def check_position(game, data):
    """A position object is refused with a :class:`RecordError`, or read and round-trips."""
    try:
        result = validate_record({"game": game.name, "position": data, "moves": []})
    except RecordError as exc:
        assert str(exc).startswith("position") or str(exc).startswith("record")
    else:
        assert game.state_from_json(game.state_to_json(result.final)) == result.final
