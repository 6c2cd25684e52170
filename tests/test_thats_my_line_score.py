"""That's My Line with a given result (issue 47 part 4, RULES.md 4): ``solve thats-my-line --score
L:D`` against every final score of the referee's whole game tree on small boards, both backends,
the booklet's 19:16 found and replayed, infeasible scores certified, the checker against mutated
answers, the command line's refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from powertwo.boards import load
from powertwo.cli.common import main
from powertwo.models.thats_my_line import cp_sat_model, sat_model
from powertwo.rules import validate_record
from powertwo.solvers.registry import SolutionError, answer_record, check_file, get_puzzle
from powertwo.solvers.thats_my_line import Score, check, read_score, replay, solve, supply_of
from test_thats_my_line_solitaire import SMALL, game_finals, grid, random_board

RESULTS = Path(__file__).resolve().parent.parent / "results"
BOARD = load("power-of-two")
GRID4X = grid(4, True)


def final_scores(board, stones) -> set[tuple[int, int]]:
    """Every (Light, Dark) count a finished legal game can end with, from the referee's game tree."""
    return {(len(light), len(dark)) for light, dark in game_finals(board, stones)}


def sat_scores(board, supply) -> set[tuple[int, int]]:
    """Every (Light, Dark) count the SAT model admits, asked one score at a time."""
    from pysat.solvers import Solver

    sm = sat_model(board, supply, symmetry=True)
    top = board.size if supply is None else supply
    with Solver(name="cadical195", bootstrap_with=sm.clauses) as solver:
        return {(a, b) for a in range(top + 1) for b in range(top + 1)
                if a + b <= board.size and solver.solve(assumptions=sm.score_literals((a, b)))}


# ------------------------------------------------------------------ small boards
def test_brute_force_scores_of_small_boards():
    """The exact sets, so a change of the referee or the model shows here first."""
    assert final_scores(grid(3, True), "unlimited") == {(2, 1), (2, 2), (4, 1), (9, 0)}
    assert final_scores(GRID4X, 3) == {(2, 2), (2, 3), (3, 2), (3, 3)}
    assert final_scores(GRID4X, "unlimited") == {(2, 2), (2, 4), (2, 6), (3, 3), (4, 2), (4, 4), (6, 2)}
    assert final_scores(grid(4, False), "unlimited") == {(3, 3), (4, 4), (6, 2)}


@pytest.mark.parametrize("stones", [1, 2, 3, "unlimited"])
@pytest.mark.parametrize("board", SMALL, ids=lambda b: b.name)
def test_sat_admits_exactly_the_scores_of_the_game_tree(board, stones):
    assert sat_scores(board, None if stones == "unlimited" else stones) == final_scores(board, stones)


def test_sat_admits_exactly_the_scores_on_random_line_systems():
    for seed in range(12):
        board = random_board(seed)
        for stones in (2, "unlimited"):
            supply = None if stones == "unlimited" else stones
            assert sat_scores(board, supply) == final_scores(board, stones), (seed, stones)


def test_cp_sat_admits_exactly_the_scores_of_the_game_tree():
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    found = set()
    for a in range(GRID4X.size + 1):
        for b in range(GRID4X.size + 1 - a):
            code = solver.solve(cp_sat_model(GRID4X, None, score=(a, b)).model)
            assert code in (cp_model.OPTIMAL, cp_model.INFEASIBLE), (a, b)
            if code == cp_model.OPTIMAL:
                found.add((a, b))
    assert found == final_scores(GRID4X, "unlimited")


# the three shapes of game: no pass before the end (3:3, 4:4), Light passes first (2:6), Dark
# passes first (6:2); and scores no game reaches (5:5, 1:1, 3:0 with 3 stones)
@pytest.mark.parametrize("stones, score, found", [
    ("unlimited", "3:3", True), ("unlimited", "4:4", True), ("unlimited", "2:6", True), ("unlimited", "6:2", True),
    ("unlimited", "5:5", False), ("unlimited", "3:4", False), (3, "1:1", False), (3, "3:0", False), (3, "2:3", True),
])
@pytest.mark.parametrize("backend", ["cp-sat", "sat"])
def test_both_backends_answer_small_scores(backend, stones, score, found):
    result = solve(GRID4X, backend=backend, stones=stones, score=score)
    want = read_score(score)
    assert (want.pair in final_scores(GRID4X, stones)) == found
    assert result["score"] == want.to_json()
    assert result["status"] == ("feasible" if found else "infeasible")
    report = check(result, GRID4X)
    assert report.valid, report.faults
    if not found:
        assert "record" not in result
        assert report.summary == f"no legal game ends {score} (re-proven by sat)"
        return
    game, states, fault = replay(GRID4X, supply_of(stones), result["record"])  # the referee's replay
    assert fault is None and game.outcome(states[-1]) is not None
    assert (len(states[-1].light), len(states[-1].dark)) == want.pair
    assert (result["light_count"], result["dark_count"]) == want.pair
    assert report.summary.startswith(f"a legal finished game of {len(result['record'])} moves that ends {score} ")


def test_equal_scores_are_won_by_dark():
    """Equal counts only come from games without a pass, which Dark ends (RULES.md 4: who placed last)."""
    result = solve(GRID4X, backend="sat", stones="unlimited", score="4:4")
    assert result["outcome"] == "neither can place; equal counts (4 to 4 stones), Dark placed last"
    assert result["passes"] == 0 and result["first_pass"] is None
    assert Score(4, 4).winner() == "Dark" and Score(6, 2).winner() == "Light" and Score(0, 0).winner() is None


def test_infeasible_score_is_certified(tmp_path):
    result = solve(GRID4X, backend="cp-sat", stones="unlimited", score="5:5", proof=str(tmp_path / "no.drat.gz"))
    assert result["status"] == "infeasible" and result["certified"] is True
    cert = result["certificate"]
    assert cert["claim"] == "no legal That's My Line game on board grid-4x (unlimited stones per side) ends with " \
                            "Light 5 and Dark 5 stones"
    assert (cert["cnf"], cert["proof"]) == ("no.cnf.gz", "no.drat.gz")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["no.cnf.gz", "no.drat.gz"]
    report = check(result, GRID4X, base=tmp_path)
    assert report.valid, report.faults
    assert report.notes[-1] == ("certificate verified by " + cert["checker"] + ": " + cert["claim"])
    assert report.summary == "no legal game ends 5:5 (re-proven by sat; DRAT certificate verified)"
    other = dict(result, score={"light": 4, "dark": 4})  # a reachable score: the claim is false
    assert check(other, GRID4X, base=tmp_path).faults == ("claims that no legal game ends 4:4, but sat finds one",
                                                          "gives a certificate, but the file proves no optimum and "
                                                          "no unreachable score")
    wrong = dict(result, score={"light": 3, "dark": 4})  # unreachable too, but not what the CNF says
    assert check(wrong, GRID4X, base=tmp_path).faults[0].startswith("certificate claim \"no legal That's My Line game")


def test_proof_of_a_found_game_writes_nothing(tmp_path):
    messages: list[str] = []
    result = solve(GRID4X, backend="sat", stones="unlimited", score="6:2", proof=str(tmp_path / "x.drat.gz"),
                   progress=messages.append)
    assert result["status"] == "feasible" and "certificate" not in result
    assert list(tmp_path.iterdir()) == []
    assert messages[-1] == "--proof: nothing to certify (status feasible); no file written"


# ------------------------------------------------------------------ the Power of Two board
@pytest.mark.slow
def test_the_booklet_score_is_found_and_replayed():
    result = solve(BOARD, backend="cp-sat", stones="unlimited", score="19:16")
    assert (result["status"], result["light_count"], result["dark_count"]) == ("feasible", 19, 16)
    end = validate_record(answer_record(result, "result")).final
    assert (len(end.light), len(end.dark)) == (19, 16)
    assert result["outcome"] == "neither can place; Light placed more (19 to 16 stones)"
    assert result["first_pass"] == "dark"  # 19 >= 16 + 2: Dark was shut out first
    assert check(result, BOARD).valid


@pytest.mark.parametrize("name, score, moves, first_pass", [("thats-my-line-19-16", (19, 16), 37, "dark"),
                                                             ("thats-my-line-16-19", (16, 19), 38, "light")])
def test_committed_score_answers_check_and_validate(name, score, moves, first_pass, tmp_path):
    path = RESULTS / f"{name}.json"
    data = json.loads(path.read_text())
    assert (data["score"], data["stones"], data["status"], data["backend"]) == (
        {"light": score[0], "dark": score[1]}, "unlimited", "feasible", "sat")
    assert (len(data["record"]), data["first_pass"]) == (moves, first_pass)
    text = f"{score[0]}:{score[1]}"
    winner = "Light" if score[0] > score[1] else "Dark"
    outcome = f"neither can place; {winner} placed more ({score[0]} to {score[1]} stones)"
    assert check_file(path).summary == f"a legal finished game of {moves} moves that ends {text} (Light {score[0]}, " \
                                       f"Dark {score[1]}): {outcome}"
    res = run("check", str(path))
    assert res.exit_code == 0 and res.output.splitlines()[0].startswith(f"valid: a legal finished game of {moves}")
    res = run("validate", "thats-my-line", str(path))
    assert (res.exit_code, res.output) == (0, f"valid: {moves} moves, {winner} wins: {outcome}\n")
    res = run("draw", str(path), "-o", str(tmp_path / "d.svg"))
    assert res.exit_code == 0 and (tmp_path / "d.svg").read_text().startswith("<?xml")
    for ext in ("svg", "png"):
        assert (RESULTS / f"{name}.{ext}").stat().st_size > 1000


# ------------------------------------------------------------------ the checker against mutations
def committed_19_16() -> dict:
    return json.loads((RESULTS / "thats-my-line-19-16.json").read_text())


def test_one_move_changed_is_refused():
    data = committed_19_16()
    first = data["record"][0]
    data["record"][1] = first  # Dark's first stone on Light's first
    assert check(data, BOARD).faults == (f"move 2 (Dark) {first}: node {first} is occupied",)
    data = committed_19_16()
    data["record"][-1] = "pass"  # Light's last stone left out: Light could still place
    faults = check(data, BOARD).faults
    assert faults[0].startswith(f"move {len(data['record'])} (Light) pass: a player who can place must place")


def test_claimed_score_changed_is_refused():
    data = committed_19_16()
    data["score"] = {"light": 19, "dark": 15}
    assert check(data, BOARD).faults == ("claimed score 19:15, but the game ends 19:16 after move 37",)
    data = committed_19_16()
    data["score"], data["light_count"] = {"light": 20, "dark": 16}, 20
    assert check(data, BOARD).faults == ("field 'light_count' is 20, the game ends with 19 light stones",
                                         "claimed score 20:16, but the game ends 19:16 after move 37")


def test_score_files_refuse_what_a_score_question_cannot_say():
    data = committed_19_16()
    with pytest.raises(SolutionError, match="^thats-my-line: field 'status' is 'optimal', but a score question has no"):
        check(dict(data, status="optimal"), BOARD)
    with pytest.raises(SolutionError, match="unknown field 'objective'"):
        check(dict(data, objective=35), BOARD)
    with pytest.raises(SolutionError, match="^thats-my-line: no game ends 19:16 with 16 stones per side"):
        check(dict(data, stones=16), BOARD)
    with pytest.raises(SolutionError, match=r"^thats-my-line: field 'score' must be \{\"light\": N, \"dark\": N\}"):
        check(dict(data, score="19:16"), BOARD)
    assert check(dict(data, status="infeasible"), BOARD).faults == (
        "claims status infeasible, but gives a game record",)


# ------------------------------------------------------------------ command line and workbench
def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("args, line", [
    (["--score", "19-16"], "powertwo: thats-my-line: --score must be LIGHT:DARK, the stones of each side at the end "
                           "as two whole numbers >= 0 such as 19:16, not '19-16'"),
    (["--score", "x:y"], "powertwo: thats-my-line: --score must be LIGHT:DARK, the stones of each side at the end as "
                         "two whole numbers >= 0 such as 19:16, not 'x:y'"),
    (["--score", "-3:2"], "powertwo: thats-my-line: --score must be LIGHT:DARK, the stones of each side at the end "
                          "as two whole numbers >= 0 such as 19:16, not '-3:2'"),
    (["--score", "19:16"], "powertwo: thats-my-line: no game ends 19:16 with 16 stones per side: Light would need 19 "
                           "(give --stones unlimited, or --stones 19 or more)"),
    (["--score", "3:17", "--stones", "16"], "powertwo: thats-my-line: no game ends 3:17 with 16 stones per side: "
                                            "Dark would need 17 (give --stones unlimited, or --stones 17 or more)"),
    (["--score", "40:30", "--stones", "unlimited"], "powertwo: thats-my-line: no game ends 40:30 on board "
                                                    "power-of-two: 70 stones do not fit on its 64 nodes"),
    (["--score", "3:3", "--proof", "p.drat"], "powertwo: thats-my-line: --proof must name a NAME.drat.gz file "
                                              "(the DRAT proof, gzipped; its CNF is written beside it as "
                                              "NAME.cnf.gz), not 'p.drat'"),
])
def test_cli_refuses_a_bad_score_in_one_line(args, line):
    res = run("solve", "thats-my-line", *args)
    assert (res.exit_code, res.output) == (2, line + "\n")


def test_cli_solves_checks_and_draws_an_infeasible_score(tmp_path):
    out, proof = tmp_path / "a.json", tmp_path / "a.drat.gz"
    res = run("solve", "thats-my-line", "--score", "3:3", "--backend", "sat", "--out", str(out), "--proof", str(proof))
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0] == "thats-my-line on board power-of-two: infeasible"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.cnf.gz", "a.drat.gz", "a.json"]
    res = run("check", str(out))
    assert res.exit_code == 0 and res.output.splitlines()[0] == \
        "valid: no legal game ends 3:3 (re-proven by sat; DRAT certificate verified)"
    res = run("draw", str(out), "-o", str(tmp_path / "a.svg"))
    assert res.exit_code == 0 and "no legal game ends 3:3" in (tmp_path / "a.svg").read_text()
    res = run("validate", "thats-my-line", str(RESULTS / "one-by-one.json"))
    assert (res.exit_code, res.output.strip()) == (2, f"powertwo: {RESULTS / 'one-by-one.json'}: a one-by-one answer "
                                                      "is not a game record (powertwo check checks it)")


def test_workbench_offers_the_score_option():
    from powertwo.web.common import BadRequest
    from powertwo.web.pages import page_of, solve_options

    page = page_of("thats-my-line")
    assert [o for o in page["options"] if o["name"] == "score"][0]["kind"] == "text"
    assert "score" in get_puzzle("thats-my-line").option_names
    assert solve_options(page, {"score": "19:16", "stones": "unlimited"}, 60) == {"score": "19:16",
                                                                                  "stones": "unlimited"}
    assert solve_options(page, {"score": ""}, 60) == {}  # an empty field: the solitaire's maximum
    with pytest.raises(BadRequest, match="option score: must be a line of at most 200 characters"):
        solve_options(page, {"score": 19}, 60)


@pytest.mark.slow
def test_every_false_mutation_of_a_certified_infeasible_answer_is_caught(tmp_path):
    """The walker of test_check_every_field over an answer that says no game ends 3:3 (16 stones)."""
    from test_check_every_field import still_true, verdict, walk

    data = solve(BOARD, backend="sat", score="3:3", proof=str(tmp_path / "no.drat.gz"))
    assert verdict(tmp_path, data) == "valid"
    missed, caught = [], 0
    for path, label, mutated in walk(data):
        if still_true(path, label, data):
            continue
        if verdict(tmp_path, mutated) == "valid":
            missed.append(f"{'.'.join(map(str, path))} {label}")
        else:
            caught += 1
    assert missed == [] and caught > 15, (missed, caught)


@pytest.mark.parametrize("score, status, certified", [(Score(6, 2), "found, replayed by the referee", False),
                                                       (Score(5, 5), "none exists (proven, DRAT-certified)", True)])
def test_results_step_writes_a_score_row(score, status, certified, tmp_path):
    from powertwo.solvers.thats_my_line.results_step import _score_row

    row = _score_row(GRID4X, tmp_path, lambda _: None, score, "unlimited")
    assert (row.variant, row.status, row.backends) == (f"a game that ends {score.text}, Light:Dark (unlimited supply)",
                                                       status, "cp-sat, sat")
    stem = f"thats-my-line-{score.light}-{score.dark}"
    names = [f"{stem}.{ext}" for ext in ("json", "svg", "png") + (("cnf.gz", "drat.gz") if certified else ())]
    assert list(row.files) == names and sorted(p.name for p in tmp_path.iterdir()) == sorted(names)
    data = json.loads((tmp_path / f"{stem}.json").read_text())
    assert "seconds" not in json.dumps(data) and data.get("certified", False) is certified
    assert check(data, GRID4X, base=tmp_path).valid
