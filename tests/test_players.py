"""The computer player (powertwo.solvers.players): legal, reproducible, takes a win in one, avoids a
move that allows one, finishes its playouts, and has its levels. Budgets are in playouts, never in time."""

from __future__ import annotations

import math
import random

import pytest

from powertwo.rules import RulesError, game_names, get_game
from powertwo.solvers.players import LEVELS, choose_move, moves_of, random_move, seconds_for
from powertwo.solvers.players.evaluations import EVALUATIONS
from powertwo.solvers.players.alphabeta import WIN, _AlphaBeta, deepen
from powertwo.solvers.players.evaluations import thats_my_line as tml
from powertwo.solvers.players.evaluations.thats_my_line import exact, exact_plain
from powertwo.solvers.players.mcts import _Node, _Search, _decided

ALL = game_names()


def random_game(game, seed: int, limit: int = 3000):
    """The positions of one random game (by the player's random mover), from the start to its end."""
    rng, state = random.Random(seed), game.start()
    states = [state]
    while game.outcome(state) is None and len(states) < limit:
        state = game._apply(state, random_move(game, state, rng))
        states.append(state)
    return states


def wins_in_one(game, state) -> list:
    """The mover's moves that end the game at once in their favour (listed by the referee)."""
    me = state.to_move
    return [m for m in moves_of(game, state) if (o := game.outcome(game._apply(state, m))) and o.winner == me]


def test_levels_are_named_by_time():
    assert list(LEVELS) == ["easy", "normal", "strong"]
    assert LEVELS["easy"] < LEVELS["normal"] == 1.0 < LEVELS["strong"]
    assert seconds_for("strong") == LEVELS["strong"]
    with pytest.raises(RulesError, match="^level hard: unknown \\(choose one of easy, normal, strong\\)$"):
        seconds_for("hard")


def test_every_game_has_an_evaluation():
    assert set(EVALUATIONS) == set(ALL)


@pytest.mark.parametrize("name", ALL)
def test_legal_and_reproducible_moves(name):
    game = get_game(name)
    for state in (game.start(), random_game(game, 5, limit=7)[-1]):
        if game.outcome(state) is not None:
            continue
        a = choose_move(game, state, playouts=3, seed=3)
        b = choose_move(game, state, playouts=3, seed=3)
        assert a.move == b.move and a.playouts == b.playouts
        assert game.is_legal(state, a.move), game.format_move(a.move, state)


@pytest.mark.parametrize("name", ALL)
def test_a_random_playout_finishes_the_game(name):
    game = get_game(name)
    states = random_game(game, 11)
    assert game.outcome(states[-1]) is not None, f"{name}: no end after {len(states) - 1} plies"


@pytest.mark.parametrize("name", ALL)
def test_a_cut_playout_is_scored_by_the_evaluation(name):
    game = get_game(name)
    ev = EVALUATIONS[name]
    state = next(s for s in random_game(game, 2) if ev.evaluate(game, s, 0) != 0 and game.outcome(s) is None)
    value = _Search(game, random.Random(0), None, 0)._playout(state)
    assert value == pytest.approx(1 / (1 + math.exp(-ev.evaluate(game, state, 0) / ev.scale)))
    assert (value > 0.5) == (ev.evaluate(game, state, 1) < 0)


@pytest.mark.parametrize("name", ["power-of-two", "david-goliath", "thats-my-line", "tower-of-power", "netzwerk"])
def test_takes_a_win_in_one(name):
    game = get_game(name)
    for seed in range(40):
        found = next((s for s in random_game(game, seed) if game.outcome(s) is None and wins_in_one(game, s)), None)
        if found is not None:
            break
    assert found is not None
    move = choose_move(game, found, playouts=5, seed=1).move
    assert move in wins_in_one(game, found)


def first_threat(game, seed: int):
    """The first position of a random game, read from its end back, where some of the mover's moves
    allow the opponent a win in one and others do not (and the mover has no win in one)."""
    for state in reversed(random_game(game, seed)):
        if game.outcome(state) is not None or wins_in_one(game, state):
            continue
        moves = moves_of(game, state)
        allows = {m for m in moves if wins_in_one(game, game._apply(state, m))}
        if allows and len(allows) < len(moves):
            return state, allows
    return None


@pytest.mark.parametrize("name", ["power-of-two", "david-goliath"])
def test_avoids_a_move_that_allows_a_win_in_one(name):
    game = get_game(name)
    state, allows = next(found for seed in range(20) if (found := first_threat(game, seed)))
    move = choose_move(game, state, playouts=len(moves_of(game, state)) + 40, seed=1).move
    assert move not in allows, game.format_move(move, state)


def test_refuses_a_finished_game():
    game = get_game("thats-my-line")
    state = random_game(game, 1)[-1]
    with pytest.raises(RulesError, match="^the game is over: there is no move to choose$"):
        choose_move(game, state, playouts=1)


def test_stops_early_when_no_other_move_can_overtake_the_most_visited():
    game = get_game("epaminondas")
    state = random_game(game, 0)[589]
    early = choose_move(game, state, playouts=400, seed=2)
    full = choose_move(game, state, playouts=400, seed=2, stop_early=False)
    assert full.playouts == 400 and early.playouts < 400
    assert early.move == full.move


def test_decided_counts_the_lead_over_the_runner_up_and_ignores_proven_losses():
    root = _Node(None, mover=0)
    root.children = [_Node(None, 1, visits=30), _Node(None, 1, visits=10), _Node(None, 1, visits=50, proven=0.0)]
    assert _decided(root, 19.0) and not _decided(root, 20.0)
    root.children = root.children[:1]
    assert _decided(root, 29.0) and not _decided(root, 30.0)


def test_netzwerk_brings_energy_to_pieces_that_cannot_move():
    """Three pieces stand without energy and the random mover can only pass: the player must move
    stones toward them over several turns (a greedy count of touching stones shuffled forever)."""
    game = get_game("netzwerk")
    state = game.state_from_json({
        "game": "netzwerk", "to_move": "player1", "ply": 44,
        "player1": ["c2", "b4", "c4", "f4", "a6"], "player2": ["a4", "d4", "e4", "a5", "b5"],
        "energy": ["e01", "e06", "e11", "e16", "e21", "e26", "e32", "e35", "e36", "e41", "e45", "e51", "e55", "e61"]})
    rng = random.Random(0)
    while game.outcome(state) is None and state.ply < 100:
        move = choose_move(game, state, playouts=20, seed=state.ply).move if state.to_move == 0 \
            else random_move(game, state, rng)
        state = game._apply(state, move)
    assert game.outcome(state) is not None and game.outcome(state).winner == 0


def referee_winner(game, state, memo: dict) -> int | None:
    """Who wins with best play, by a plain search over the referee's moves (``None``: a draw)."""
    key = (state.light, state.dark, state.to_move, state.last_placer)
    if key not in memo:
        out = game.outcome(state)
        if out is not None:
            memo[key] = out.winner
        else:
            me = state.to_move
            results = [referee_winner(game, game._apply(state, m), memo) for m in game.legal_moves(state)]
            memo[key] = me if me in results else (None if None in results else 1 - me)
    return memo[key]


def test_thats_my_line_endgame_proves_exactly_the_won_positions():
    game = get_game("thats-my-line")
    memo: dict = {}
    checked = won = 0
    for seed in range(6):
        for state in random_game(game, seed):
            small = game.open_mask(state, 0).bit_count() + game.open_mask(state, 1).bit_count() <= 14
            if game.outcome(state) is not None or not small:
                continue
            move = exact(game, state, lambda visited: False)
            wins = referee_winner(game, state, memo) == state.to_move
            assert (move is not None) == wins
            assert (exact_plain(game, state, lambda visited: False) is not None) == wins
            if move is not None:
                assert referee_winner(game, game._apply(state, move), memo) == state.to_move
                won += 1
            checked += 1
    assert checked > 50 and 0 < won < checked


def test_thats_my_line_plays_a_proven_win_without_a_tree_search():
    game = get_game("thats-my-line")
    state = next(s for s in random_game(game, 3) if game.outcome(s) is None and len(game.legal_moves(s)) > 1
                 and not wins_in_one(game, s)
                 and exact(game, s, lambda visited: visited > 20 * 50))  # the budget of 50 playouts
    found = choose_move(game, state, playouts=50, seed=0)
    assert found.move == exact(game, state, lambda visited: False) and found.playouts == 0 and found.value == 1.0
    assert found.method == "proven win" and found.proof is not None and found.proof.winner == state.to_move
    assert found.summary().startswith(f"a proven win by the exact endgame search, {found.proof.positions:,} position")
    assert exact(game, game.start(), lambda visited: visited > 2000) is None


def test_thats_my_line_proves_a_loss_too_and_names_the_winner():
    game = get_game("thats-my-line")
    memo: dict = {}
    lost = next(s for seed in range(6) for s in random_game(game, seed)
                if game.outcome(s) is None and len(game.legal_moves(s)) > 1
                and game.open_mask(s, 0).bit_count() + game.open_mask(s, 1).bit_count() <= 12
                and referee_winner(game, s, memo) == 1 - s.to_move)
    for prove in (tml.prove, tml.prove_plain):
        proof = prove(game, lost, lambda visited: False)
        assert proof is not None and (proof.winner, proof.move) == (1 - lost.to_move, None)
    found = choose_move(game, lost, playouts=20, seed=0)
    assert found.method == "tree search" and found.proof is not None and found.proof.move is None
    assert "the exact search proved the position lost against best play" in found.summary()


def test_a_stop_ends_the_search_with_its_best_move_so_far():
    for name in ("power-of-two", "david-goliath"):  # alpha-beta and the tree search
        game = get_game(name)
        state = random_game(game, 2)[2]
        asked = iter(range(4))  # the fourth question is answered "stop"
        found = choose_move(game, state, playouts=10**9, seed=0, stop=lambda asked=asked: next(asked, 3) >= 3)
        assert found.stopped and game.is_legal(state, found.move)
        assert found.summary().endswith("stopped early: the best move so far")


def test_the_plain_endgame_runs_while_the_compiled_one_is_not_loaded_and_says_so():
    from powertwo.solvers import kernels

    game = get_game("thats-my-line")
    state = next(s for s in random_game(game, 3) if game.outcome(s) is None and len(game.legal_moves(s)) > 1
                 and not wins_in_one(game, s) and exact_plain(game, s, lambda visited: visited > 20 * 50))
    kernels.use_loaded_only()
    try:
        assert not kernels.ready("endgame")
        found = choose_move(game, state, playouts=50, seed=0)  # the plain search visits the same positions
        assert found.proof is not None and found.proof.method == "the exact endgame search (plain)"
        assert found.notes == ("That's My Line's compiled endgame search is still being compiled: "
                               "the plain Python search ran instead",)
        kernels.mark_loaded("endgame")
        assert kernels.ready("endgame") and choose_move(game, state, playouts=50).notes == ()
    finally:
        kernels.use_loaded_only(False)


@pytest.mark.slow
def test_thats_my_line_compiled_endgame_plays_what_the_plain_one_plays():
    """The compiled search (the player's) against the plain one (its referee), move for move, on every
    position of six random games from the fourth placement on (about 130 positions)."""
    game = get_game("thats-my-line")
    checked = won = 0
    for seed in range(6):
        for state in random_game(game, seed)[3:]:
            if game.outcome(state) is not None:
                continue
            move = exact(game, state, lambda visited: False)
            assert move == exact_plain(game, state, lambda visited: False), (seed, state)
            checked += 1
            won += move is not None
    assert checked > 100 and 0 < won < checked


@pytest.mark.slow
def test_thats_my_line_compiled_endgame_stops_when_told_and_proves_the_reply_to_a_first_move():
    game = get_game("thats-my-line")
    after_first = game._apply(game.start(), game.parse_move("28", game.start()))
    tml._search_for.cache_clear()  # an empty table: the position is searched, not remembered
    asked: list[int] = []
    assert exact(game, after_first, lambda visited: asked.append(visited) or True) is None
    assert asked == [65536]  # asked once, after the first slice
    reply = exact(game, after_first, lambda visited: False)
    assert reply is not None  # Dark wins after Light's first stone on 28, and this reply keeps the win
    after_reply = game._apply(after_first, reply)
    assert exact_plain(game, after_reply, lambda visited: False) is None  # Light loses: the plain search agrees


def negamax(game, state, depth: int, ply: int = 0) -> float:
    """The alpha-beta search's score by plain minimax over every legal move (its referee)."""
    out = game.outcome(state)
    if out is not None:
        return 0.0 if out.winner is None else (WIN - ply if out.winner == state.to_move else -(WIN - ply))
    ev = EVALUATIONS[game.name]
    moves = game.legal_moves(state)
    if depth == 0 or not moves:
        return ev.evaluate(game, state, state.to_move)
    return max(-negamax(game, game._apply(state, m), depth - 1, ply + 1) for m in moves)


@pytest.mark.parametrize("name", ["david-goliath", "power-of-two"])
def test_alphabeta_scores_what_plain_minimax_scores(name):
    game = get_game(name)
    ev = EVALUATIONS[name]
    checked = 0
    for seed in range(3):
        for state in random_game(game, seed)[2::5][:2]:
            if game.outcome(state) is not None:
                continue
            for depth in (1, 2):
                search = _AlphaBeta(game, ev.evaluate, moves_of)
                assert search.score(state, depth, -2 * WIN, 2 * WIN, 0) == negamax(game, state, depth)
                checked += 1
    assert checked >= 8


def test_alphabeta_deepens_with_its_budget_and_is_reproducible():
    game = get_game("david-goliath")
    state = random_game(game, 1)[4]
    ev = EVALUATIONS["david-goliath"]
    small = deepen(game, state, ev.evaluate, moves_of, None, 200)
    large = deepen(game, state, ev.evaluate, moves_of, None, 20_000)
    assert 1 <= small.depth < large.depth
    assert large == deepen(game, state, ev.evaluate, moves_of, None, 20_000)
    assert game.is_legal(state, large.move)


def test_analysis_proves_the_end_of_a_game_and_finds_the_thrown_away_win():
    from powertwo.solvers.players.analysis import analyse, line_proofs, prove, thrown_wins

    game = get_game("thats-my-line")
    memo: dict = {}
    states = next(s for seed in range(40) for s in [random_game(game, seed)]
                  if any(referee_winner(game, a, memo) == a.to_move != referee_winner(game, b, memo)
                         for a, b in zip(s[-9:-1], s[-8:], strict=True)))  # a game that threw a win away late
    proofs = line_proofs(game, states, 3.0)  # the last positions take milliseconds, the rest what is left
    assert proofs[-1] is not None and proofs[-1].method == "the game is over"
    for k in range(len(states) - 8, len(states)):
        assert proofs[k] is not None and proofs[k].winner == referee_winner(game, states[k], memo)
    thrown = thrown_wins(states, proofs)
    expected = [k for k in range(len(states) - 8, len(states))
                if referee_winner(game, states[k - 1], memo) == states[k - 1].to_move
                != referee_winner(game, states[k], memo)]
    assert expected and [k for k in thrown if k >= len(states) - 8] == expected
    won = states[expected[0] - 1]
    seen = analyse(game, won, 1.0)
    assert seen.proof is not None and seen.proof.winner == won.to_move and seen.best is not None
    assert seen.best.move == seen.proof.move and seen.evaluation == tml.evaluate(game, won, won.to_move)
    assert prove(get_game("power-of-two"), get_game("power-of-two").start(), 1.0) is None  # not within its second


@pytest.mark.parametrize("name,position,winner,move", [
    # Light to move places the 16th stone of its own (The Power of Two: all placed wins) ...
    ("power-of-two", {"light": [2, 7, 9, 15, 20, 25, 33, 34, 37, 44, 48, 50, 51, 53, 63], "dark": [18, 42],
                      "aged": [], "to_move": "light"}, 0, True),
    # ... or cannot stop Dark's: the other side's win, no move given
    ("power-of-two", {"light": [12], "dark": [3, 6, 11, 14, 17, 20, 24, 38, 39, 43, 48, 52, 53, 54, 55],
                      "aged": [], "to_move": "light"}, 1, False),
    ("epaminondas", {"to_move": "white", "white": ["m3"], "black": ["g2"]}, None, None),
])
def test_analysis_proves_every_game_by_the_proof_solver(name, position, winner, move):
    """The proof solver (df-pn here) answers for the games without an exact search of their own; its
    winning move is a move of the position that keeps the win (checked by the solver's own proof)."""
    from powertwo.solvers.players.analysis import prove, solver_proof
    from powertwo.solvers.prove import Limits
    from powertwo.solvers.prove import prove as prove_position

    game = get_game(name)
    state = game.state_from_json(position)
    proof = prove(game, state, 1.0)
    if winner is None:  # whoever it is: as the proof solver says with time to spare
        winner = game.player_names.index(prove_position(game, state, limits=Limits(seconds=60)).winner)
        move = winner == state.to_move
    assert proof is not None and proof.winner == winner and proof.method == "the df-pn proof search"
    assert (proof.move is not None) == move and solver_proof(game, state, 1.0) is not None
    if move:
        after = game.apply(state, proof.move)
        assert prove_position(game, after, limits=Limits(seconds=60)).winner == game.player_name(winner)


def test_analysis_uses_the_compiled_proof_search_once_loaded_and_df_pn_before(monkeypatch):
    from powertwo.solvers import kernels
    from powertwo.solvers.players.analysis import solver_proof

    game = get_game("thats-my-line")
    memo: dict = {}
    state = next(s for seed in range(40) for s in random_game(game, seed)[-8:-6] if game.outcome(s) is None)
    monkeypatch.setattr(kernels, "_loaded", set())
    kernels.use_loaded_only()
    try:
        before = solver_proof(game, state, 5.0)
        kernels.mark_loaded("prove")
        after = solver_proof(game, state, 5.0)
    finally:
        kernels.use_loaded_only(False)
    assert before is not None and after is not None
    assert (before.method, after.method) == ("the df-pn proof search", "the compiled proof search")
    assert before.winner == after.winner == referee_winner(game, state, memo)
    if before.winner == state.to_move:  # either winning move keeps the win
        for proof in (before, after):
            assert referee_winner(game, game.apply(state, proof.move), memo) == state.to_move
