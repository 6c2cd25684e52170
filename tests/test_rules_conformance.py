"""One conformance test over every registered game (rules.game_names()).

For each game and each of its named starts: legal moves exist, perft(1) equals
their number, every move formats and parses back to itself, applying works, the
position JSON round-trips, a game record of a seeded random playout round-trips
through JSON and :func:`powertwo.rules.validate_record`, and the fast generator agrees with
the plain rules-as-written module ``rules.plain.<module>`` on every position of
seeded random playouts (the generator's moves are exactly the candidates the plain
check accepts, and the fast legality test gives the same verdict on every candidate),
the positions after a move are the same by the fast ``apply`` and the plain one, and
every game module keeps the house convention (``test_module_convention``). The
comparisons with the plain module and the record round trip run under the default
options and under each option set the plain module lists in ``VARIANTS`` (David and
Goliath's ``sling``).
"""

from __future__ import annotations

import json
import random
import re
import typing
from importlib import import_module

import pytest

from powertwo import rules
from powertwo.rules import Game, IllegalMoveError, RecordError, RulesError, validate_record

GAMES = rules.game_names()
PLAYOUTS = 12
MAX_PLIES = 80


def plain_module(game):
    return import_module("powertwo.rules.plain." + type(game).__module__.rsplit(".", 1)[1])


def variants(name):
    """``(game name, options)`` for the defaults and every option set of the plain module's ``VARIANTS``."""
    return [(name, {})] + [(name, dict(options)) for options in getattr(plain_module(rules.get_game(name)),
                                                                         "VARIANTS", ())]


def by_variant(slow=frozenset()):
    """Parametrise a test over every game and variant (``david-goliath[sling=True]``); games in
    ``slow`` are marked slow."""
    cases = [(name, options) for name in GAMES for _, options in variants(name)]
    return pytest.mark.parametrize("name, options", [
        pytest.param(name, options, id=name + "".join(f"[{k}={v}]" for k, v in options.items()),
                     marks=[pytest.mark.slow] if name in slow else []) for name, options in cases])


def starts(game):
    return game.start_names or (game.default_start,)


LISTING_LIMIT = 200
PARTIAL_CHECKS = 40
PLIES_PER_SAMPLE = 8


def tuning(game, key, default):
    """A plain module may tune the sampling for its game: PLAYOUTS, PLAYOUT_PLIES, SAMPLE_POSITIONS."""
    return getattr(plain_module(game), key, default)


def listed_moves(game, state):
    """(moves, complete): every legal move, or, when the game refuses to list that many (a
    documented RulesError, e.g. Netzwerk's opening), the first LISTING_LIMIT of its generator."""
    try:
        return game.legal_moves(state), True
    except RulesError:
        return game.moves(state).first(LISTING_LIMIT), False


def playout(game, state, seed, max_plies=None):
    """The states of a seeded random game (the start included) and the moves played."""
    rng = random.Random(seed)
    if max_plies is None:
        max_plies = tuning(game, "PLAYOUT_PLIES", MAX_PLIES)
    states, moves = [state], []
    for _ in range(max_plies):
        legal, _ = listed_moves(game, state)
        if not legal:
            break
        move = rng.choice(legal)
        state = game.apply(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


def test_every_module_registers():
    assert {"power-of-two", "david-goliath", "thats-my-line"} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_start_moves_notation_and_json(name):
    game = rules.get_game(name)
    for start in starts(game):
        state = game.start(start)
        assert state.ply == 0 and state.to_move in (0, 1)
        assert game.outcome(state) is None
        moves, complete = listed_moves(game, state)
        assert moves, f"{name} {start}: no legal move at the start"
        assert len(set(moves)) == len(moves), "the generator repeats a move"
        if complete:
            assert game.perft(state, 1) == len(moves)
        else:
            assert game.perft(state, 1) > len(moves)
        assert game.perft(state, 0) == 1
        data = game.state_to_json(state)
        assert game.state_from_json(json.loads(json.dumps(data))) == state
        for move in moves:
            text = game.format_move(move, state)
            assert game.parse_move(text, state) == move, text
            child = game.apply(state, move)
            assert child.ply == state.ply + 1
            assert game.state_from_json(json.loads(json.dumps(game.state_to_json(child)))) == child


@by_variant()
def test_record_round_trip(name, options):
    game = rules.get_game(name, **options)
    for i, start in enumerate(starts(game)):
        states, moves = playout(game, game.start(start), seed=100 + i)
        texts = [game.format_move(m, s) for m, s in zip(moves, states, strict=False)]
        record = json.loads(json.dumps(game.record(texts, start=start)))
        result = validate_record(record)
        assert result.moves == tuple(moves)
        assert result.final == states[-1]
        assert result.outcome == game.outcome(states[-1])
        # the same game from the position JSON of its middle
        mid = len(states) // 2
        record = game.record(texts[mid:], position=game.state_to_json(states[mid]))
        assert validate_record(json.dumps(record)).final == states[-1]


def spread(states, quota):
    """At most ``quota`` states, evenly spaced from the start to the end of a playout."""
    if len(states) <= quota:
        return states
    return [states[j * (len(states) - 1) // max(1, quota - 1)] for j in range(quota)]


# the plain check of the bigger games takes 5 to 10 s each: left out of `make test-fast`
SLOW_CONFORMANCE = {"netzwerk", "tower-of-power", "david-goliath"}


@by_variant(slow=SLOW_CONFORMANCE)
def test_fast_generator_matches_plain_rules(name, options):
    game = rules.get_game(name, **options)
    plain = plain_module(game)
    budget = tuning(game, "SAMPLE_POSITIONS", 240)
    playouts = tuning(game, "PLAYOUTS", PLAYOUTS)
    quota = max(1, budget // (playouts * len(starts(game))))  # positions checked per playout
    plies = min(tuning(game, "PLAYOUT_PLIES", MAX_PLIES), quota * PLIES_PER_SAMPLE)
    positions = 0
    for i, start in enumerate(starts(game)):
        for seed in range(playouts):
            states, _ = playout(game, game.start(start), seed=1000 * i + seed, max_plies=plies)
            for state in spread(states, quota):
                fast, complete = listed_moves(game, state)
                assert len(fast) == len(set(fast))
                if not complete:  # too many to list: every listed move must pass the plain check
                    assert all(plain.check(game, state, m) is None for m in fast[:PARTIAL_CHECKS])
                    positions += 1
                    continue
                cands = plain.candidates(game, state)
                accepted = [c for c in cands if plain.check(game, state, c) is None]
                assert set(fast) == set(accepted), game.render_text(state)
                for c in cands:
                    assert game.is_legal(state, c) == (c in set(accepted)), game.format_move(c, state)
                positions += 1
    assert positions >= playouts


@pytest.mark.parametrize("name", GAMES)
def test_illegal_move_error_carries_number_player_and_reason(name):
    game = rules.get_game(name)
    plain = plain_module(game)
    state = game.start(starts(game)[0])
    bad = next(c for c in plain.candidates(game, state) if plain.check(game, state, c) is not None)
    with pytest.raises(IllegalMoveError) as err:
        game.apply(state, bad)
    assert err.value.number == 1 and err.value.player == game.player_name(state.to_move)
    assert err.value.reason and str(err.value).startswith(f"move 1 ({game.player_name(state.to_move)}) ")


APPLY_CHECKS = 6
"""Legal moves per sampled position whose resulting positions fast and plain compare."""


@by_variant()
def test_fast_apply_matches_plain_apply(name, options):
    # the plain apply performs the rule's actions one after another (ageing and retiring, sowing,
    # captures, energy); on seeded random playouts both give the same position after every move played
    # and after a few other legal moves of each sampled position
    game = rules.get_game(name, **options)
    plain = plain_module(game)
    compared = 0
    for i, start in enumerate(starts(game)):
        for seed in range(min(4, tuning(game, "PLAYOUTS", 4))):
            rng = random.Random(5000 + 100 * i + seed)
            states, moves = playout(game, game.start(start), seed=5000 + 100 * i + seed,
                                    max_plies=min(40, tuning(game, "PLAYOUT_PLIES", MAX_PLIES)))
            for state, move, after in zip(states, moves, states[1:], strict=False):
                assert plain.apply(game, state, move) == after, (game.format_move(move, state), game.render_text(state))
                compared += 1
            for state in spread(states, 8):
                legal, _ = listed_moves(game, state)
                for move in rng.sample(legal, min(APPLY_CHECKS, len(legal))):
                    assert plain.apply(game, state, move) == game.apply(state, move), game.format_move(move, state)
                    compared += 1
    assert compared >= 40


@pytest.mark.parametrize("name", GAMES)
def test_module_convention(name):
    """Every game module: state and move classes named and typed alike, players written by their
    keys, node ids and labels both read, a wrong move type refused with a reason, an empty
    position refused naming the missing fields, the rules read no files."""
    game = rules.get_game(name)
    cls = type(game)
    module = import_module(cls.__module__)
    # Game[State, Move]: the state class is <GameClass>State and holds to_move and ply
    base = next(b for b in cls.__orig_bases__ if typing.get_origin(b) is Game)
    state_type, move_type = typing.get_args(base)
    assert state_type.__name__ == cls.__name__ + "State" and getattr(module, state_type.__name__) is state_type
    assert {"to_move", "ply"} <= set(state_type.__dataclass_fields__)
    assert cls.move_types and all(isinstance(t, type) for t in cls.move_types)
    # tables from the board are built on first use, not when the game is made
    fresh = cls()
    assert all(not hasattr(v, "__len__") or len(v) <= 8 for k, v in vars(fresh).items() if k != "board"), vars(fresh)
    # file order: constants, state and move values, the game class, helpers (values before the game)
    source = open(module.__file__, encoding="utf-8").read()
    assert source.index(f"class {state_type.__name__}") < source.index(f"class {cls.__name__}(")
    for t in cls.move_types:
        assert source.index(f"class {t.__name__}") < source.index(f"class {cls.__name__}(")
    # moves: frm/to for a move from a square to a square
    for t in cls.move_types:
        fields = set(getattr(t, "__dataclass_fields__", ()))
        assert not fields & {"src", "dst", "tail", "dest"}, t
    # players in position JSON by their keys; the names read too (older files)
    for start in starts(game):
        state = game.start(start)
        data = json.loads(json.dumps(game.state_to_json(state)))
        assert data["game"] == name and data["to_move"] == cls.player_keys[state.to_move]
        for spelling in (cls.player_names[state.to_move], cls.player_names[state.to_move].upper(), state.to_move):
            assert game.state_from_json(dict(data, to_move=spelling)) == state
        # node ids in place of labels read the same position
        by_id = {k: _ids(game, v) if k in cls.position_fields else v for k, v in data.items()}
        assert game.state_from_json(by_id) == state
        # every move reads the same with node ids for labels
        for move in game.moves(state).first(20):
            text = game.format_move(move, state)
            assert game.parse_move(_id_text(game, text), state) == move, text
        # a move of another type is refused with a reason, never an AttributeError
        for wrong in (object(), "42-31", 7):
            assert game.reason_illegal(state, wrong) == f"not a move of {name}: {wrong!r}"
            with pytest.raises(IllegalMoveError, match=f"not a move of {name}"):
                game.apply(state, wrong)
        # the rules read no files: a start is a name
        with pytest.raises(RecordError):
            game.start(__file__)
    # an empty position names every missing field
    with pytest.raises(RecordError) as err:
        game.state_from_json({})
    assert cls.position_fields and all(repr(f) in str(err.value) for f in cls.position_fields)
    with pytest.raises(RecordError, match="position: missing field"):
        validate_record({"game": name, "position": {}, "moves": []})


def _ids(game, value):
    """A position field with every node label replaced by its node id (JSON numbers)."""
    board = game.board
    if isinstance(value, list):
        return [_ids(game, v) for v in value]
    if isinstance(value, dict):
        return {str(board.node(k)) if isinstance(k, str) and k in board.labels else k: _ids(game, v)
                for k, v in value.items()}
    if isinstance(value, str) and value in board.labels:
        return board.node(value)
    return value


def _id_text(game, text):
    """A move's text with every node label replaced by its node id."""
    board = game.board
    labels = sorted(board.labels, key=len, reverse=True)
    pattern = "|".join(re.escape(lab) for lab in labels)
    return re.sub(rf"(?<![A-Za-z0-9])({pattern})(?![A-Za-z0-9])", lambda m: str(board.node(m.group(1))), text)
