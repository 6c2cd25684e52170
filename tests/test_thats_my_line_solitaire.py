"""That's My Line solitaire (RULES.md 5, issue 5): the exact models against an exhaustive game
search on small boards, the proven maxima on the Power of Two board with both backends, the
game records replayed by the referee, the checker against broken records, the CLI."""

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from powertwo.boards import Board, load
from powertwo.models.thats_my_line import FinalPosition, cp_sat_model, final_from_values, sat_model
from powertwo.cli.common import main
from powertwo.rules import get_game, validate_record
from powertwo.solvers.registry import SolutionError, get_puzzle
from powertwo.solvers.thats_my_line import check, diagram, solve

RESULTS = Path(__file__).resolve().parent.parent / "results"
BOARD = load("power-of-two")


# ------------------------------------------------------------------ small boards
def grid(n: int, diagonals: bool) -> Board:
    coords = tuple((Fraction(i), Fraction(j)) for j in range(n) for i in range(n))
    at = lambda i, j: j * n + i + 1  # noqa: E731
    lines = ([tuple(at(i, j) for i in range(n)) for j in range(n)]
             + [tuple(at(i, j) for j in range(n)) for i in range(n)])
    if diagonals:
        lines += [tuple(at(i, i) for i in range(n)), tuple(at(i, n - 1 - i) for i in range(n))]
    return Board(f"grid-{n}{'x' if diagonals else ''}", coords, tuple(lines))


def random_board(seed: int) -> Board:
    """A small irregular line system (the model never uses geometry, only the lines)."""
    rng = random.Random(seed)
    n = rng.randint(7, 11)
    lines: set = set()
    want = rng.randint(5, 9)
    while len(lines) < want:
        lines.add(tuple(rng.sample(range(1, n + 1), rng.randint(2, 4))))
    return Board(f"random-{seed}", tuple((Fraction(i), Fraction(i * i)) for i in range(n)), tuple(sorted(lines)))


def game_finals(board: Board, stones) -> set:
    """Every final position of every legal game, by walking the referee's game tree."""
    game = get_game("thats-my-line", board, stones=stones)
    seen, finals = set(), set()
    todo = [game.start()]
    while todo:
        state = todo.pop()
        key = (state.light, state.dark, state.to_move)
        if key in seen:
            continue
        seen.add(key)
        if game.outcome(state) is not None:
            finals.add((state.light, state.dark))
            continue
        todo.extend(game.apply(state, move) for move in game.legal_moves(state))
    return finals


def model_finals(board: Board, supply) -> set:
    """Every (Light, Dark) stone set the SAT model admits (no symmetry breaking)."""
    from pysat.solvers import Solver

    sm = sat_model(board, supply, symmetry=False)
    x = {v: sm.vpool.id(f"x_{v}") for v in board.nodes}
    y = {v: sm.vpool.id(f"y_{v}") for v in board.nodes}
    out = set()
    with Solver(name="cadical195", bootstrap_with=sm.clauses) as solver:
        while solver.solve():
            true = {lit for lit in solver.get_model() if lit > 0}
            light = frozenset(v for v in board.nodes if x[v] in true)
            dark = frozenset(v for v in board.nodes if y[v] in true)
            out.add((light, dark))
            solver.add_clause([-x[v] if v in light else x[v] for v in board.nodes]
                              + [-y[v] if v in dark else y[v] for v in board.nodes])
    return out


SMALL = [grid(3, True), grid(3, False), grid(4, True)]


@pytest.mark.parametrize("stones", [1, 2, 3, "unlimited"])
@pytest.mark.parametrize("board", SMALL, ids=lambda b: b.name)
def test_model_final_positions_are_exactly_those_of_legal_games(board, stones):
    supply = None if stones == "unlimited" else stones
    finals = game_finals(board, stones)
    assert model_finals(board, supply) == finals


def test_model_exact_on_random_line_systems():
    for seed in range(30):
        board = random_board(seed)
        for stones in (2, "unlimited"):
            supply = None if stones == "unlimited" else stones
            assert model_finals(board, supply) == game_finals(board, stones), (seed, stones)


def test_condition_c_cuts_positions_that_satisfy_a_and_b():
    # 3x3 with diagonals (1 2 3 / 4 5 6 / 7 8 9), unlimited: Light 2, Dark 4 6 7 9. No line
    # holds both colours and every free node (1 3 5 8) is closed to both sides, but Dark has
    # more stones, so Light passed first after one stone each; no single Dark stone closes
    # every other node to Light (7 leaves 6 open, 4 leaves 6, 9 leaves 4, 6 leaves 4).
    board = grid(3, True)
    position = (frozenset({2}), frozenset({4, 6, 7, 9}))
    assert position not in game_finals(board, "unlimited")
    assert position not in model_finals(board, None)
    # so is the board full of Dark stones: Light moves first and could place
    assert (frozenset(), frozenset(board.nodes)) not in model_finals(board, None)
    # the largest legal finals fill the board: Light takes the centre, Dark is shut out at once
    finals = game_finals(board, "unlimited")
    assert max(len(a) + len(b) for a, b in finals) == 9
    assert (frozenset(board.nodes), frozenset()) in finals


def lines_and_closure_hold(board: Board, light: frozenset, dark: frozenset, supply) -> bool:
    """Conditions (a) and (b) alone, checked directly."""
    if any(set(line) & light and set(line) & dark for line in board.lines):
        return False
    for v in set(board.nodes) - light - dark:
        for mine, theirs in ((light, dark), (dark, light)):
            spent = supply is not None and len(mine) == supply
            if not spent and not any(set(board.lines[k]) & theirs for k in board.lines_through[v]):
                return False
    return True


@pytest.mark.parametrize("stones", [2, "unlimited"])
@pytest.mark.parametrize("board", SMALL[:2], ids=lambda b: b.name)
def test_cp_sat_model_admits_exactly_the_legal_finals(board, stones):
    from itertools import product

    from ortools.sat.python import cp_model

    supply = None if stones == "unlimited" else stones
    finals = game_finals(board, stones)
    candidates = []
    for colours in product((0, 1, 2), repeat=board.size):
        light = frozenset(v for v in board.nodes if colours[v - 1] == 1)
        dark = frozenset(v for v in board.nodes if colours[v - 1] == 2)
        fits = supply is None or max(len(light), len(dark)) <= supply
        if fits and lines_and_closure_hold(board, light, dark, supply):
            candidates.append((light, dark))
    assert finals < set(candidates)  # condition (c) cuts some positions that (a) and (b) allow
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    for light, dark in candidates:
        cm = cp_sat_model(board, supply, symmetry=False, at_least=0)
        for v in board.nodes:
            cm.model.add(cm.variables[f"x_{v}"] == int(v in light))
            cm.model.add(cm.variables[f"y_{v}"] == int(v in dark))
        feasible = solver.solve(cm.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
        assert feasible == ((light, dark) in finals), (sorted(light), sorted(dark))


@pytest.mark.parametrize("symmetry", [True, False])
@pytest.mark.parametrize("stones,best", [(1, 2), (2, 4), (3, 6), ("unlimited", 8)])
def test_both_backends_reach_the_search_maximum_on_a_small_board(stones, best, symmetry):
    board = grid(4, True)
    assert max(len(a) + len(b) for a, b in game_finals(board, stones)) == best
    for backend in ("cp-sat", "sat"):
        result = solve(board, backend=backend, stones=stones, symmetry=symmetry)
        assert (result["status"], result["objective"], result["bound"]) == ("optimal", best, best)


def test_placing_order_passes_only_after_the_first_pass():
    final = FinalPosition(frozenset({26, 32}), frozenset({1, 2, 3, 4}), first_pass=0, early=frozenset({1, 2}))
    assert final.placing_order() == [(0, 26), (1, 1), (0, 32), (1, 2), (0, None), (1, 3), (0, None), (1, 4)]
    final = FinalPosition(frozenset({5, 6, 7}), frozenset(), first_pass=1, early=frozenset({6}))
    assert final.placing_order() == [(0, 6), (1, None), (0, 5), (1, None), (0, 7)]
    final = FinalPosition(frozenset({5}), frozenset({6, 7}), first_pass=0, early=frozenset({6}))
    assert final.placing_order() == [(0, 5), (1, 6), (0, None), (1, 7)]


# ------------------------------------------------------------------ the Power of Two board
@pytest.mark.parametrize("stones,best", [(16, 32), pytest.param("unlimited", 50, marks=pytest.mark.slow)])
@pytest.mark.parametrize("backend", ["cp-sat", "sat"])
def test_proven_maximum_with_a_legal_game(backend, stones, best):
    result = solve(BOARD, backend=backend, stones=stones)
    assert (result["status"], result["objective"], result["bound"]) == ("optimal", best, best)
    record = {"game": "thats-my-line", "options": {"stones": stones}, "moves": result["record"]}
    replay = validate_record(record)
    assert replay.outcome is not None
    assert len(replay.final.light) + len(replay.final.dark) == best
    assert sorted(replay.final.light) == result["light"] and sorted(replay.final.dark) == result["dark"]
    assert result["passes"] == result["record"].count("pass")
    assert check(result, BOARD, prove_bound=False).valid


@pytest.mark.parametrize("backend", ["cp-sat", "sat"])
def test_a_time_limited_run_still_returns_a_legal_game(backend):
    """Five seconds: the first legal game comes within a tenth of one on an idle machine (0.2 s was
    not always enough on a loaded one); the optimum, proven or not, need not come."""
    result = solve(BOARD, backend=backend, stones="unlimited", symmetry=False, time_limit=5.0)
    assert result["status"] in ("feasible", "optimal")
    assert result["objective"] <= 50 <= result["bound"] <= 64
    replay = validate_record({"game": "thats-my-line", "options": {"stones": "unlimited"}, "moves": result["record"]})
    assert replay.outcome is not None
    assert len(replay.final.light) + len(replay.final.dark) == result["objective"]


@pytest.mark.slow
def test_unlimited_optimum_splits_only_46_4():
    """Every 50-stone game leaves Dark 4 stones (the half diagonals' inner ends, or their like):
    Light, moving first, takes the rest."""
    from powertwo.solvers.thats_my_line import optimal_splits

    assert optimal_splits(BOARD, None, 50) == [(46, 4)]


def test_cp_sat_feasibility_form_agrees_on_the_bound():
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    for stones, best in ((16, 32),):
        above = cp_sat_model(BOARD, stones, at_least=best + 1)
        assert solver.solve(above.model) == cp_model.INFEASIBLE
        at = cp_sat_model(BOARD, stones, at_least=best)
        assert solver.solve(at.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)  # no objective: OPTIMAL
        final = final_from_values(BOARD, lambda n, at=at: solver.boolean_value(at.variables[n]))
        assert final.total == best


@pytest.mark.parametrize("stones,best,split", [(16, 32, (16, 16)),
                                               pytest.param("unlimited", 50, (46, 4), marks=pytest.mark.slow)])
def test_committed_results_replay_and_check(stones, best, split):
    data = json.loads((RESULTS / f"thats-my-line-{stones}.json").read_text())
    assert (data["objective"], data["bound"], data["status"]) == (best, best, "optimal")
    assert {b: p["objective"] for b, p in data["proofs"].items()} == {"cp-sat": best, "sat": best}
    assert all(p["status"] == "optimal" for p in data["proofs"].values())
    report = check(data, BOARD, base=RESULTS)  # replays the record and re-proves the bound with SAT
    assert report.valid, report.faults
    assert f"bound {best} re-proven by sat: no legal game ends with {best + 1} stones" in report.notes
    assert (data["light_count"], data["dark_count"]) == split
    assert [(s["light"], s["dark"]) for s in data["optimal_splits"]] == [split]
    for ext in ("svg", "png"):
        assert (RESULTS / f"thats-my-line-{stones}.{ext}").stat().st_size > 1000


# ------------------------------------------------------------------ the checker
LIGHT_FIRST = ["e1", "m1", "i5", "m9", "a13"]  # between them they close every node Dark could take
DARK = ["d4", "f6", "h8", "j10"]
LIGHT_REST = ["i1", "d2", "j2", "f3", "h3", "i3", "k3", "b4", "g4", "j4", "l4", "a5", "g5", "k5", "m5", "c6", "h6",
              "k6", "d7", "e7", "i7", "j7", "c8", "f8", "k8", "a9", "c9", "e9", "g9", "b10", "d10", "g10", "l10",
              "c11", "e11", "f11", "h11", "d12", "j12", "e13", "i13"]


def a_50_stone_game() -> dict:
    """A hand-written optimal unlimited game, in labels: Dark's 4 stones on the half diagonals
    (d4, f6, h8, j10), Light's 46 on every node their lines leave open; Dark passes from move 10."""
    moves = []
    for a, b in zip(LIGHT_FIRST, DARK, strict=False):
        moves += [a, b]
    moves.append(LIGHT_FIRST[-1])
    for v in LIGHT_REST:
        moves += ["pass", v]
    return {"puzzle": "thats-my-line", "board": "power-of-two", "stones": "unlimited", "status": "optimal",
            "objective": 50, "bound": 50, "light": LIGHT_FIRST + LIGHT_REST, "dark": DARK, "record": moves}


def test_checker_accepts_the_hand_written_game():
    report = check(a_50_stone_game(), BOARD)
    assert report.faults == ()
    assert report.notes == (
        "the record replays to a finished game: neither can place; Light placed more (46 to 4 stones)",
        "bound 50 re-proven by sat: no legal game ends with 51 stones",
        "optimality of 50 stones confirmed",
    )
    assert report.summary == ("50 stones (Light 46, Dark 4), a legal finished game of 91 moves; optimal (sat "
                              "proves no game ends with 51)")
    by_id = dict(a_50_stone_game(), light=[BOARD.node(v) for v in LIGHT_FIRST + LIGHT_REST],
                 dark=[BOARD.node(v) for v in DARK])
    assert check(by_id, BOARD) == report  # the stones named by id or by label: the same game


def test_checker_rejects_a_placement_on_a_closed_node():
    data = a_50_stone_game()
    data["record"][2] = "c3"  # Light's second stone on the half diagonal that Dark's first stone holds
    assert check(data, BOARD).faults == (
        "move 3 (Light) c3: node c3 lies on line a1-c3-d4-e5-f6, which holds a Dark stone on d4",)


def test_checker_rejects_a_pass_when_a_placement_was_possible():
    data = a_50_stone_game()
    data["record"][1] = "pass"
    assert check(data, BOARD).faults == (
        "move 2 (Dark) pass: a player who can place must place (pass only when no placement is possible)",)


def test_checker_rejects_a_record_that_stops_before_the_game_is_over():
    data = a_50_stone_game()
    data["record"] = data["record"][:-2]
    data["light"].remove("i13")
    data["objective"] = data["bound"] = 49
    assert check(data, BOARD).faults == (
        "the record stops after move 89 before the game is over: Light can still place on i13",)


def test_checker_rejects_a_wrong_claimed_total():
    data = a_50_stone_game()
    data["objective"] = 51
    data["bound"] = 51
    assert check(data, BOARD).faults == ("claimed objective 51, but the game ends after move 91 with 50 stones",)


def test_checker_rejects_a_wrong_bound_claim():
    data = a_50_stone_game()
    data["status"], data["bound"] = "feasible", 49
    assert check(data, BOARD).faults == ("claimed bound 49 is below the objective 50 of the file's own game",)


def test_checker_names_malformed_fields():
    data = a_50_stone_game()
    del data["record"]
    with pytest.raises(SolutionError, match="^thats-my-line: missing field 'record'$"):
        check(data, BOARD)
    data = a_50_stone_game()
    data["stones"] = "many"
    with pytest.raises(SolutionError, match="--stones must be a number >= 0 or 'unlimited', not 'many'"):
        check(data, BOARD)


def test_diagram_numbers_the_stones_in_placing_order():
    import matplotlib.pyplot as plt

    fig = diagram(a_50_stone_game(), BOARD)
    texts = [t.get_text() for t in fig.axes[0].texts]
    # "#n", so a placing order does not read as a node id; the legend says what it is
    numbers = [t for t in texts if t.startswith("#")]
    assert sorted(int(t.removeprefix("#")) for t in numbers) == list(range(1, 51))
    first = [t for t in fig.axes[0].texts if t.get_text() == "#1"][0]
    assert tuple(first.get_position()) == tuple(float(c) for c in BOARD.coord(BOARD.node("e1")))
    assert sorted(t for t in texts if not t.startswith("#")) == sorted(BOARD.labels)  # the nodes, by label
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "#n on a stone: placed as the n-th stone of the game (not a node id)" in legend
    assert "small text: node names" in legend
    plt.close(fig)
    fig = diagram(a_50_stone_game(), BOARD, names="ids")
    assert sorted(t.get_text() for t in fig.axes[0].texts if not t.get_text().startswith("#")) == \
        sorted(str(v) for v in BOARD.nodes)
    plt.close(fig)
    fig = diagram(a_50_stone_game(), BOARD, names=None)
    assert all(t.get_text().startswith("#") for t in fig.axes[0].texts)
    plt.close(fig)


# ------------------------------------------------------------------ CLI
def run(*args):
    return CliRunner().invoke(main, list(args))


def test_cli_solve_check_draw(tmp_path):
    out = tmp_path / "tml.json"
    res = run("solve", "thats-my-line", "--stones", "16", "--backend", "sat", "--json", "--out", str(out))
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert (data["puzzle"], data["stones"], data["backend"], data["objective"], data["bound"]) == (
        "thats-my-line", 16, "sat", 32, 32)
    res = run("check", str(out))
    assert res.exit_code == 0
    assert res.output.splitlines()[:2] == [
        "valid: 32 stones (Light 16, Dark 16), a legal finished game of 32 moves; optimal (sat proves no game ends "
        "with 33)", "the record replays to a finished game: neither can place; "
                                           "equal counts (16 to 16 stones), Dark placed last"]
    res = run("draw", str(out), "-o", str(tmp_path / "tml.svg"))
    assert res.exit_code == 0 and (tmp_path / "tml.svg").read_text().startswith("<?xml")


def test_cli_check_reports_the_bad_move(tmp_path):
    data = a_50_stone_game()
    data["record"][0] = "pass"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    res = run("check", str(path))
    assert res.exit_code == 1
    assert res.output == ("move 1 (Light) pass: a player who can place must place "
                          "(pass only when no placement is possible)\n")


def test_cli_bad_options_are_one_line_errors():
    res = run("solve", "thats-my-line", "--stones", "lots")
    assert res.exit_code == 2
    assert "--stones must be a number >= 0 or 'unlimited', not 'lots'" in res.output
    res = run("solve", "thats-my-line", "--backend", "brute")
    assert res.exit_code == 2
    assert "unknown backend 'brute' (known: cp-sat, sat)" in res.output


def test_registered_with_its_options():
    p = get_puzzle("thats-my-line")
    assert tuple(o.name for o in p.options) == ("backend", "time_limit", "stones", "symmetry", "score", "proof")
