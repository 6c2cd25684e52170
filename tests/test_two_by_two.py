"""Two by Two with all 32 stones (RULES.md section 5, revised): the exact count by both backends, the
earlier reading behind --at-most, how a file records its reading (and how a file from before is read),
the checker on the committed answer, the table of every stone count, and the trimmed DRAT proofs."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner

from powertwo.boards import from_segments, load, save
from powertwo.cli import main
from powertwo.models.cards import line_counts
from powertwo.solvers import lines as lp
from powertwo.solvers.certify import check as check_drat, dimacs, refute
from powertwo.solvers.lines.backends import certificate_claim
from powertwo.solvers.lines.table import check_table, count_table, solve_count, table_figure

RESULTS = Path(__file__).resolve().parent.parent / "results"
BEFORE = Path(__file__).resolve().parent / "data" / "two-by-two-before-stones-rule"
"""results/two-by-two.json, .cnf and .drat as committed under the at-most reading, before files said
how they read the stone count."""
BOARD = load("power-of-two")
EXACT = lp.VARIANTS["two-by-two"]


def committed(name: str) -> dict:
    return json.loads((RESULTS / f"{name}.json").read_text())


def grid():
    """A noughts-and-crosses grid with its diagonals: 9 nodes, 8 lines, 8 symmetries."""
    segments = [((0, y), (2, y)) for y in range(3)] + [((x, 0), (x, 2)) for x in range(3)]
    return from_segments(segments + [((0, 0), (2, 2)), ((2, 0), (0, 2))], name="tictactoe")


def brute_best(board, var, stones: int) -> int | None:
    best = None
    for s in combinations(board.nodes, stones):
        counts = line_counts(board, s)
        if all(var.line_fault(n) is None for n in counts):
            value = var.objective(board, s)
            best = value if best is None else max(best, value)
    return best


# ----------------------------------------------------------------------------- the optimum with 32 stones
@pytest.mark.slow
def test_all_32_stones_give_at_most_27_lines_by_both_backends():
    cp = lp.solve_cpsat(BOARD, EXACT)
    sat = lp.solve_sat(BOARD, EXACT)
    for outcome in (cp, sat):
        assert (outcome.status, outcome.objective, outcome.bound) == ("optimal", 27, 27)
        assert len(outcome.stones) == 32 and EXACT.objective(BOARD, outcome.stones) == 27


def test_the_counting_argument_against_all_32_lines():
    """docs/line-puzzles.md: for every placement of 32 stones, twice the excess (stones minus 2)
    summed over the 16 lines with three low nodes, plus the excess over the other 16 lines, is 12
    plus a sum that is never negative; so never every line holds two."""
    import random

    degree = {v: sum(v in line for line in BOARD.lines) for v in BOARD.nodes}
    low = {v for v in BOARD.nodes if degree[v] <= 2}
    weight = [2 if sum(v in low for v in line) == 3 else 1 for line in BOARD.lines]
    assert sorted(sum(v in low for v in line) for line in BOARD.lines) == [0] * 4 + [1] * 12 + [3] * 16

    def nodes(*labels):
        return {BOARD.node(label) for label in labels}

    heavy = nodes("a1", "m1", "a13", "m13", "g1", "a7", "m7", "g13", "e5", "i5", "e9", "i9")
    middle, single = nodes("g4", "d7", "j7", "g10"), nodes("f6", "h6", "f8", "h8")
    double, corner = nodes("g5", "e7", "i7", "g9"), nodes("d4", "j4", "d10", "j10")
    rnd = random.Random(47)
    for stones in [set(committed("two-by-two")["stones"])] + [set(rnd.sample(list(BOARD.nodes), 32))
                                                               for _ in range(2000)]:
        excess = sum(w * (n - 2) for w, n in zip(weight, line_counts(BOARD, stones), strict=True))
        assert excess == 12 + 4 * len(stones & heavy) + len(stones & middle) + 2 * len(single - stones) \
            + 2 * len(double - stones) + len(corner - stones)


@pytest.mark.parametrize("backend", lp.BACKENDS)
def test_strict_with_all_32_stones_has_no_answer(backend):
    """Every line 0 or 2 with 32 stones is impossible: the stones' lines would total 64, so the
    stones sit on nodes of at most two lines, and the 32 such nodes put 3, 1 or 0 on every line."""
    result = lp.solve(BOARD, "two-by-two", strict=True, backend=backend)
    assert (result["status"], result["objective"], result["stones_rule"]) == ("infeasible", None, "exactly")
    low = [v for v in BOARD.nodes if sum(v in line for line in BOARD.lines) <= 2]
    assert len(low) == 32 and sorted(set(line_counts(BOARD, low))) == [0, 1, 3]


def test_at_most_keeps_the_earlier_reading():
    result = lp.solve(BOARD, "two-by-two", at_most=True)
    assert (result["status"], result["objective"], len(result["stones"]), result["stones_rule"]) == \
        ("optimal", 32, 24, "at most")


def test_certificate_claims_name_the_reading():
    assert certificate_claim(BOARD, EXACT, "optimal", 27) == (
        "no two-by-two answer on board power-of-two with exactly 32 stones and at least 28 lines with two", 28)
    # the words of the certificates made before the exact reading, so those stay valid
    assert certificate_claim(BOARD, lp.VARIANTS["two-by-two-at-most"], "optimal", 32) == (
        "no two-by-two answer on board power-of-two with at least 33 lines with two", 33)
    assert certificate_claim(BOARD, lp.VARIANTS["two-by-two-strict"], "infeasible", None) == (
        "two-by-two-strict has no answer on board power-of-two (exactly 32 stones)", None)


@pytest.mark.parametrize("options, message", [
    ({"stones": "unlimited"}, "--stones unlimited: two-by-two places exactly N stones, give a number from 0 to 64 "
                              "(or --at-most for a limit)"),
    ({"stones": 65}, "--stones 65: board power-of-two has 64 nodes, so 65 stones do not fit; give --stones N with N "
                     "from 0 to 64, or --at-most"),
    ({"table": True, "stones": 3}, "--table solves every stone count with cp-sat: it takes no --stones, --all, "
                                   "--proof or --backend"),
    ({"table": True, "at_most": True}, "--table --at-most: the at-most optimum with N stones is the best of the "
                                       "exact counts up to N; run --table without --at-most (its plot draws both)"),
])
def test_stone_options_refused_with_the_reason(options, message):
    with pytest.raises(lp.SolutionError) as err:
        lp.solve(BOARD, "two-by-two", **options)
    assert str(err.value) == message


def test_only_two_by_two_takes_at_most():
    with pytest.raises(lp.SolutionError, match="^puzzle one-by-one does not take --at-most$"):
        lp.solve(BOARD, "one-by-one", at_most=True)
    with pytest.raises(lp.SolutionError) as err:
        lp.check({"puzzle": "one-by-one", "stones": [], "stones_rule": "exactly"}, BOARD)
    assert str(err.value) == ("one-by-one solution: field 'stones_rule' belongs to two-by-two (this puzzle's stone "
                              "count is a limit)")


# ----------------------------------------------------------------------------- the committed answer and check
@pytest.mark.slow
def test_committed_answer_is_accepted_and_certified():
    data = committed("two-by-two")
    assert (data["status"], data["objective"], data["bound"], data["stones_rule"]) == ("optimal", 27, 27, "exactly")
    assert len(data["stones"]) == 32 and data["backends_agreeing"] == ["cp-sat", "sat"]
    assert data["certificate"]["claim"] == ("no two-by-two answer on board power-of-two with exactly 32 stones and "
                                            "at least 28 lines with two")
    assert data["certificate"]["proof"] == "two-by-two.drat.gz"
    report = lp.check(data, BOARD, base=RESULTS)
    assert report.valid, report.faults
    assert report.summary == ("32 stones, 27 of 32 lines hold exactly two; optimal (cp-sat proves 27); "
                              "certificate re-checked by dratify")
    assert "optimality confirmed by cp-sat: the optimum is 27" in report.notes
    assert "sat agrees: optimal 27" in report.notes


def test_one_stone_moved_is_refused():
    data = committed("two-by-two")
    stones = set(data["stones"])
    # the first stone moved to the first free node
    moved, free = min(stones), min(v for v in BOARD.nodes if v not in stones)
    mutated = sorted(stones - {moved} | {free})
    counts = line_counts(BOARD, mutated)
    value = sum(1 for n in counts if n == 2)
    uncertified = {k: v for k, v in data.items() if k not in ("certificate", "certified")}  # no dratify run
    report = lp.check(dict(uncertified, stones=mutated), BOARD, base=RESULTS)
    assert not report.valid
    assert report.faults[0] == f"claims objective 27, the stones give {value}"
    listed = [f for f in report.faults if "lines_with_two" in f]
    assert listed and all(f.startswith("lines_with_two lists line ") or f.endswith("missing from lines_with_two")
                          for f in listed)
    assert f"claims optimal, but cp-sat proves the optimum is 27 (the stones give {value})" in report.faults


def test_objective_raised_is_refused():
    data = committed("two-by-two")
    report = lp.check(dict(data, objective=28, bound=28), BOARD, base=RESULTS)
    assert report.faults == (
        "claims objective 28, the stones give 27",
        "claims cp-sat agrees, but the checker's cp-sat solve ends optimal 27, not optimal 28",
        "claims sat agrees, but the checker's sat solve ends optimal 27, not optimal 28",
        "gives a certificate, but its status is not a proven optimum or infeasibility",
    )


def test_a_file_from_before_the_exact_reading_still_checks():
    """The at-most answer committed before files said their reading (24 stones, every line with
    two): read as the earlier reading, since it places fewer than 32, and its certificate still holds."""
    data = json.loads((BEFORE / "two-by-two.json").read_text())
    assert "stones_rule" not in data and len(data["stones"]) == 24
    report = lp.check(data, BOARD, base=BEFORE)
    assert report.valid, report.faults
    assert report.summary == ("24 stones (read as at most 32, the earlier reading: the file has no stones_rule and "
                              "places fewer), 32 of 32 lines hold exactly two; optimal (cp-sat proves 32); "
                              "certificate re-checked by dratify")
    # said outright, the same file is an at-most answer; under the exact reading it is not an answer
    assert lp.check(dict(data, stones_rule="at most"), BOARD, base=BEFORE).summary.startswith(
        "24 stones (at most 32), 32 of 32 lines hold exactly two; optimal")
    exact = lp.check({k: data[k] for k in ("puzzle", "stones")} | {"stones_rule": "exactly"}, BOARD)
    assert exact.faults == ("24 stones, the puzzle places exactly 32",)


def test_stones_rule_must_be_a_reading():
    with pytest.raises(lp.SolutionError) as err:
        lp.check({"puzzle": "two-by-two", "stones": [], "stones_rule": "some"}, BOARD)
    assert str(err.value) == "two-by-two solution: field 'stones_rule' is 'some', not one of exactly, at most"


# ----------------------------------------------------------------------------- the table of every stone count
def test_table_on_a_small_board_matches_brute_force():
    board = grid()
    table = count_table(board, EXACT, time_limit=5.0)
    assert [r.stones for r in table.rows] == list(range(10))
    for row in table.rows:
        best = brute_best(board, EXACT, row.stones)
        assert (row.status, row.objective, row.bound) == ("optimal", best, best)
        assert len(row.answer) == row.stones and EXACT.objective(board, row.answer) == best
    data = table.to_json(timings=False)
    assert "seconds" not in data and check_table(data, board).valid
    again = count_table(board, EXACT, time_limit=5.0).to_json(timings=False)
    assert again == data  # one worker and a work limit: the same table every run


def test_table_check_refuses_wrong_rows():
    board = grid()
    data = count_table(board, EXACT, time_limit=5.0).to_json(timings=False)
    rows = data["table"]
    raised = dict(data, table=rows[:4] + [dict(rows[4], objective=rows[4]["objective"] + 1)] + rows[5:])
    assert check_table(raised, board).faults == (
        f"row 4 stones: claims objective {rows[4]['objective'] + 1}, the answer gives {rows[4]['objective']}",)
    short = dict(data, table=rows[:3] + [dict(rows[3], answer=rows[3]["answer"][:-1])] + rows[4:])
    assert check_table(short, board).faults == ("row 3 stones: the answer places 2 stones, not 3",
                                                f"row 3 stones: claims objective {rows[3]['objective']}, the answer "
                                                f"gives {EXACT.objective(board, rows[3]['answer'][:-1])}")
    low = dict(data, table=rows[:5] + [dict(rows[5], status="feasible", bound=rows[5]["objective"] - 1)] + rows[6:])
    assert check_table(low, board).faults == (
        f"row 5 stones: claims bound {rows[5]['objective'] - 1}, below its own answer's {rows[5]['objective']} "
        f"(or not a number)",)
    gap = dict(data, table=rows[:2] + rows[3:])
    assert "the table's rows are not the stone counts 0 to 8 in order" in check_table(gap, board).faults


def test_committed_table():
    data = committed("two-by-two-table")
    rows = data["table"]
    assert (data["stones_rule"], data["strict"], len(rows)) == ("exactly", False, 65)
    assert [r["stones"] for r in rows] == list(range(65))
    by_count = {r["stones"]: r for r in rows}
    assert (by_count[32]["status"], by_count[32]["objective"]) == ("optimal", 27)
    assert (by_count[24]["status"], by_count[24]["objective"]) == ("optimal", 32)
    assert (by_count[41]["status"], by_count[41]["objective"]) == ("optimal", 21)
    for r in rows:
        assert len(r["answer"]) == r["stones"] and EXACT.objective(BOARD, r["answer"]) == r["objective"]
    # a row is confirmed by the checker's own solve with the file's work limit (the same on every machine)
    row = solve_count(BOARD, EXACT, 32, work=data["time_limit"])
    assert (row.status, row.objective, list(row.answer)) == ("optimal", 27, by_count[32]["answer"])
    head = dict(data, table=rows[:13])
    assert check_table(head, BOARD).valid
    fig = table_figure(data, BOARD)
    assert fig.axes[0].get_xlabel() == "stones placed (N)"


def test_every_field_of_the_committed_table_s_first_rows_is_checked():
    """Every field of rows 0 to 12 of the committed table mutated: a mutation that leaves the row
    a true claim (a moved stone with the same lines with two) is accepted, every other is refused."""
    data = committed("two-by-two-table")
    head = dict(data, table=data["table"][:13])
    assert check_table(head, BOARD).valid
    caught = 0
    for k, row in enumerate(head["table"]):
        for key, value in row.items():
            changes = [value + 1] if isinstance(value, int) else []
            if isinstance(value, list):
                changes += [value[:-1], value + value[-1:]] + [value[:i] + [value[i] + 1] + value[i + 1:]
                                                                for i in range(len(value))]
            if isinstance(value, str):
                changes.append(value + "x")
            for new in changes:
                rows = list(head["table"])
                rows[k] = dict(row, **{key: new})
                still = key == "answer" and len(set(new)) == len(new) == row["stones"] and \
                    set(new) <= set(BOARD.nodes) and EXACT.objective(BOARD, new) == row["objective"]
                try:
                    valid = check_table(dict(head, table=rows), BOARD).valid
                except lp.SolutionError:
                    valid = False
                assert valid == still, (k, key, new)
                caught += not valid
    assert caught > 100


def test_table_from_the_command_line(tmp_path):
    board = tmp_path / "tictactoe.json"
    save(grid(), board)
    runner = CliRunner()
    res = runner.invoke(main, ["solve", "two-by-two", "--table", "--board", str(board), "--time-limit", "5",
                               "--out", str(tmp_path / "t.json")])
    assert res.exit_code == 0, res.output
    data = json.loads((tmp_path / "t.json").read_text())
    assert [r["objective"] for r in data["table"]] == [brute_best(grid(), EXACT, n) for n in range(10)]
    res = runner.invoke(main, ["check", str(tmp_path / "t.json")])
    assert res.exit_code == 0 and res.output.startswith("valid: 10 stone counts, 10 proven optimal"), res.output
    res = runner.invoke(main, ["draw", str(tmp_path / "t.json"), "-o", str(tmp_path / "t.svg")])
    assert res.exit_code == 0 and (tmp_path / "t.svg").read_text().startswith("<?xml")


# ----------------------------------------------------------------------------- trimmed DRAT proofs
def test_trimmed_proofs_are_accepted_and_a_missing_lemma_is_not():
    from pysat.examples.genhard import PHP

    clauses = PHP(5).clauses
    sat, proof, _ = refute(clauses, trimmed=True)
    assert not sat
    ok, verdict, _ = check_drat(dimacs(clauses), proof)
    assert ok and verdict.startswith("VERIFIED")
    lemmas = [k for k, line in enumerate(proof.splitlines()) if not line.startswith("d") and line != "0"]
    cut = proof.splitlines()
    del cut[lemmas[len(lemmas) // 2]]
    ok, verdict, _ = check_drat(dimacs(clauses), "\n".join(cut) + "\n")
    assert not ok and verdict.startswith("REJECTED")


@pytest.mark.slow
def test_the_results_job_rechecks_a_committed_certificate_instead_of_making_it(tmp_path):
    """make results keeps a committed proof of the same claim (re-checked by dratify) and makes one
    anew when the CNF is another or dratify refuses the proof."""
    from powertwo.solvers.certify import write_text
    from powertwo.solvers.lines.results_step import result

    var = lp.VARIANTS["two-by-two-strict"]  # infeasible with 32 stones: a proof of some 600 KB

    def run() -> tuple:
        said: list[str] = []
        res = result(BOARD, var, said.append, tmp_path)
        return res, any(m.startswith(f"{var.name}: the committed certificate re-checked: VERIFIED") for m in said)

    first, reused = run()
    assert not reused and first.certificate.verified and first.certificate.solve_seconds > 0
    names = first.certificate_files
    assert names == {"cnf": "two-by-two-strict.cnf", "proof": "two-by-two-strict.drat"}
    write_text(tmp_path / names["cnf"], first.certificate.cnf)
    write_text(tmp_path / names["proof"], first.certificate.proof)
    again, reused = run()
    assert reused and again.certificate.solve_seconds == 0
    assert (again.certificate.cnf, again.certificate.proof) == (first.certificate.cnf, first.certificate.proof)
    lines = first.certificate.proof.splitlines()
    lemma = next(k for k in range(len(lines) // 2, len(lines)) if not lines[k].startswith("d"))
    write_text(tmp_path / names["proof"], "\n".join(lines[:lemma] + lines[lemma + 1:]) + "\n")
    remade, reused = run()
    assert not reused and remade.certificate.verified and remade.certificate.solve_seconds > 0
    write_text(tmp_path / names["proof"], first.certificate.proof)
    write_text(tmp_path / names["cnf"], first.certificate.cnf.replace("c powertwo", "c other", 1))
    assert not run()[1]
