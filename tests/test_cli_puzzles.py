"""``powertwo solve|check|draw|export`` on the line puzzles, through the click CLI."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from powertwo.boards import load
from powertwo.cli import main

RESULTS = Path(__file__).resolve().parent.parent / "results"


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def test_solve_json_and_check_round_trip(tmp_path):
    out = tmp_path / "obo.json"
    res = run("solve", "one-by-one", "--json", "--out", out)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert (data["status"], data["objective"], data["bound"], data["backend"]) == ("optimal", 12, 12, "cp-sat")
    assert json.loads(out.read_text())["stones"] == data["stones"]
    res = run("check", out)
    assert res.exit_code == 0
    lines = res.stdout.splitlines()
    assert lines[0] == "valid: 12 stones, every line holds exactly one; optimal (cp-sat proves 12)"
    assert "optimality confirmed by cp-sat: the optimum is 12" in lines[1]


def test_solve_sat_all_and_proof(tmp_path):
    proof = tmp_path / "cover.drat"
    res = run("solve", "line-cover", "--backend", "sat", "--all", "--proof", proof, "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert (data["objective"], data["optimal_answers"], data["optimal_answers_up_to_symmetry"]) == (10, 66, 11)
    assert data["certified"] is True and proof.stat().st_size > 0


def test_two_by_two_strict_summary():
    res = run("solve", "two-by-two", "--strict", "--backend", "sat")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[:2] == ["two-by-two on board power-of-two: infeasible", "objective: no answer found"]
    assert "stones rule: exactly" in lines
    res = run("solve", "two-by-two", "--strict", "--at-most", "--backend", "sat")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[:3] == ["two-by-two on board power-of-two: optimal", "objective: 32", "bound: 32 (proven)"]
    assert "strict: yes" in lines and "stones rule: at most" in lines
    assert lines[3].startswith("time: ") and lines[4].startswith("stones (24): ")
    assert "None" not in res.stdout and "{" not in res.stdout
    # nodes by their labels, lines too
    board = load("power-of-two")
    stones = lines[4].removeprefix("stones (24): ").split()
    assert len(stones) == 24 and set(stones) <= set(board.labels)
    assert "lines with two: a1-e1-g1-i1-m1 " in res.stdout


@pytest.mark.parametrize("name", ["one-by-one", "line-cover", pytest.param("two-by-two", marks=pytest.mark.slow),
                                  "two-by-two-strict", "two-by-two-at-most", "two-by-two-strict-at-most"])
def test_committed_files_check_and_draw(name, tmp_path):
    res = run("check", RESULTS / f"{name}.json")
    assert res.exit_code == 0, res.output
    proven = "; infeasible (cp-sat proves it)" if name == "two-by-two-strict" else "; optimal (cp-sat proves "
    assert res.stdout.startswith("valid: ") and proven in res.stdout.splitlines()[0]
    assert "certificate re-derived" in res.stdout
    assert "the proof file checked against the CNF rebuilt from the board" in res.stdout
    res = run("draw", RESULTS / f"{name}.json", "-o", tmp_path / "d.svg")
    assert res.exit_code == 0
    assert (tmp_path / "d.svg").read_text().lstrip().startswith("<?xml")


def test_faulty_answer_exits_1_with_one_line_per_fault(tmp_path):
    data = json.loads((RESULTS / "one-by-one.json").read_text())
    bad = {"puzzle": "one-by-one", "board": "power-of-two", "stones": data["stones"] + ["e13"], "objective": 12}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    res = run("check", path)
    assert res.exit_code == 1
    assert res.stdout.splitlines() == [
        "line a9-b10-c11-d12-e13 holds 2 stones, needs exactly 1",
        "line a13-e13-g13-i13-m13 holds 2 stones, needs exactly 1",
        "line e13-e11-e9-e7-e5-e3-e1 holds 2 stones, needs exactly 1",
        "claims objective 12, the stones give 13",
    ]


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON (line 1, column 2"),
    ('{"puzzle": "one-by-tree", "stones": []}', "unknown puzzle 'one-by-tree'"),
    ('{"puzzle": "one-by-one", "stones": [1, 65]}',
     "one-by-one solution: node 65 does not exist on board power-of-two"),
    ('{"puzzle": "two-by-two"}', "two-by-two solution: missing field 'stones'"),
    ('{"puzzle": "line-cover", "stones": [1], "board": "no-such-board"}', "field 'board'"),
])
def test_malformed_files_exit_2_with_one_line(tmp_path, content, message):
    path = tmp_path / "f.json"
    path.write_text(content)
    res = run("check", path)
    assert res.exit_code == 2
    assert len(res.stderr.strip().splitlines()) == 1
    assert message in res.stderr
    assert "Traceback" not in res.output


def test_solve_option_errors():
    res = run("solve", "one-by-one", "--strict")
    assert res.exit_code == 2 and "puzzle one-by-one does not take --strict" in res.stderr
    res = run("solve", "one-by-one", "--proof", "x.drat")
    assert res.exit_code == 2 and "--proof needs --backend sat" in res.stderr
    res = run("solve", "one-by-one", "--backend", "gurobi")
    assert res.exit_code == 2 and "unknown backend 'gurobi'" in res.stderr


def test_export_dimacs_bound_is_the_unsat_certificate_formula(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    for bound, expect in ((9, False), (10, True)):
        path = tmp_path / f"cover{bound}.cnf"
        res = run("export", "line-cover", "--format", "dimacs", "--bound", bound, "-o", path)
        assert res.exit_code == 0, res.output
        text = path.read_text()
        assert "c 17 x_17: stone on node j4" in text
        with Solver(name="glucose4", bootstrap_with=CNF(from_string=text).clauses) as s:
            assert s.solve() is expect

    def body(text):
        return [line for line in text.splitlines() if not line.startswith("c")]

    # the same clauses as the committed certificate's CNF
    assert body((tmp_path / "cover9.cnf").read_text()) == body((RESULTS / "line-cover.cnf").read_text())


def test_export_wcnf_cpsat_graphml(tmp_path):
    from google.protobuf import text_format
    from ortools.sat import cp_model_pb2
    from ortools.sat.python import cp_model

    res = run("export", "two-by-two", "--strict", "--format", "wcnf", "-o", tmp_path / "t.wcnf")
    assert res.exit_code == 0
    text = (tmp_path / "t.wcnf").read_text()
    assert "p wcnf" in text and "c 65 y_0: line" in text
    res = run("export", "one-by-one", "--format", "cpsat", "-o", tmp_path / "m.pbtxt")
    assert res.exit_code == 0
    text = (tmp_path / "m.pbtxt").read_text()
    proto = text_format.Parse(text, cp_model_pb2.CpModelProto())  # standard protobuf text format
    assert len(proto.variables) == 64 and proto.HasField("objective")
    model = cp_model.CpModel()
    model.proto.parse_text_format(text)
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL and round(solver.objective_value) == 12
    res = run("export", "one-by-one", "--format", "graphml", "-o", tmp_path / "b.graphml")
    assert res.exit_code == 0
    g = nx.read_graphml(tmp_path / "b.graphml")
    assert g.number_of_nodes() == 64
    res = run("export", "jump-start", "--format", "dimacs", "-o", tmp_path / "x.cnf")
    assert res.exit_code == 2 and "unknown puzzle 'jump-start'" in res.stderr


def test_own_board_file_solves_checks_and_draws(tmp_path):
    segments = {"name": "square-x", "segments": [[[0, 0], [2, 0]], [[2, 0], [2, 2]], [[2, 2], [0, 2]],
                                                 [[0, 2], [0, 0]], [[0, 0], [2, 2]], [[2, 0], [0, 2]]]}
    (tmp_path / "seg.json").write_text(json.dumps(segments))
    board = tmp_path / "board.json"
    assert run("board", "build", tmp_path / "seg.json", "-o", board).exit_code == 0
    out = tmp_path / "sol.json"
    res = run("solve", "line-cover", "--board", board, "--out", out, "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text())
    assert (data["board"], data["objective"]) == (str(board), 3)
    res = run("check", out)
    assert res.exit_code == 0 and "the optimum is 3" in res.stdout
    assert run("draw", out, "-o", tmp_path / "sol.png").exit_code == 0


def test_puzzle_modules_name_the_puzzles_each_registers():
    """``get_puzzle`` imports only the package ``PUZZLE_MODULES`` names for a puzzle; every
    registered puzzle is there, under the package that registers it."""
    from powertwo.solvers.registry import PUZZLE_MODULES, PUZZLES, puzzle_names

    names = puzzle_names()   # imports every puzzle module
    homes = {name: PUZZLES[name].solve.__module__.split(".")[2] for name in names}
    assert homes == {name: module for module, listed in PUZZLE_MODULES.items() for name in listed}
    assert set(names) == {"one-by-one", "line-cover", "two-by-two", "thats-my-line", "jump-forward", "jump-reverse"}


def test_looking_up_a_jump_puzzle_does_not_load_the_line_puzzles():
    """`powertwo solve jump-reverse` spent about a second importing OR-Tools for the line puzzles."""
    import subprocess
    import sys

    script = ("import sys; from powertwo.solvers.registry import get_puzzle; p = get_puzzle('jump-reverse'); "
              "print(p.name, 'powertwo.solvers.lines' in sys.modules, 'ortools' in sys.modules)")
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert res.stdout.split() == ["jump-reverse", "False", "False"], res.stderr
    res = subprocess.run([sys.executable, "-c", script.replace("'jump-reverse'", "'no-such-puzzle'")],
                         capture_output=True, text=True, timeout=120)
    assert ("unknown puzzle 'no-such-puzzle' (known: one-by-one, line-cover, two-by-two, thats-my-line, "
            "jump-forward, jump-reverse)") in res.stderr


@pytest.fixture(scope="module")
def sketch_answer(tmp_path_factory):
    """A One by One answer solved on the sketch board: it carries that board's fingerprint."""
    path = tmp_path_factory.mktemp("sketch") / "obo-sketch.json"
    res = run("solve", "one-by-one", "--board", "power-of-two-sketch", "--out", path)
    assert res.exit_code == 0, res.output
    return path


def test_a_file_made_for_the_sketch_is_checked_against_the_sketch(sketch_answer):
    res = run("check", sketch_answer)
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0] == "valid: 16 stones, every line holds exactly one; optimal (cp-sat proves 16)"
    res = run("check", sketch_answer, "--board", "power-of-two-sketch")
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("valid: 16 stones")


@pytest.mark.parametrize("command", ["check", "draw"])
def test_a_file_made_for_the_sketch_is_refused_against_the_new_default(sketch_answer, tmp_path, command):
    out = ["-o", tmp_path / "d.svg"] if command == "draw" else []
    res = run(command, sketch_answer, "--board", "power-of-two", *out)
    assert res.exit_code == 2
    assert res.stdout == ""
    assert res.stderr == (f"powertwo: {sketch_answer}: made for power-of-two-sketch, not for power-of-two; "
                          "pass --board power-of-two-sketch\n")
    assert not (tmp_path / "d.svg").exists()


def test_a_file_naming_the_wrong_board_is_refused_by_its_fingerprint(sketch_answer, tmp_path):
    """Renaming the board in the file does not make it an answer on that board."""
    data = json.loads(sketch_answer.read_text())
    data["board"] = "power-of-two"
    path = tmp_path / "renamed.json"
    path.write_text(json.dumps(data))
    for command, out in (("check", []), ("draw", ["-o", tmp_path / "d.png"])):
        res = run(command, path, *out)
        assert (res.exit_code, res.stderr) == (2, f"powertwo: {path}: made for power-of-two-sketch, not for "
                                                  "power-of-two; pass --board power-of-two-sketch\n")
    res = run("draw", path, "-o", tmp_path / "d.svg", "--board", "power-of-two-sketch")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "d.svg").read_text().lstrip().startswith("<?xml")


def test_a_hand_written_claim_is_judged_against_the_board_given(sketch_answer, tmp_path):
    """Without a fingerprint the file is judged against --board: the sketch's answer has
    faults on the real board (exit 1, one line each), none on the sketch (exit 0)."""
    data = json.loads(sketch_answer.read_text())
    claim = {"puzzle": "one-by-one", "board": "power-of-two-sketch", "stones": data["stones"], "objective": 16}
    path = tmp_path / "claim.json"
    path.write_text(json.dumps(claim))
    res = run("check", path)
    assert res.exit_code == 0, res.output
    res = run("check", path, "--board", "power-of-two")
    assert res.exit_code == 1
    faults = res.stdout.splitlines()
    assert faults and all(f.startswith("line ") and ("needs exactly 1" in f) for f in faults)


def test_an_old_answer_file_names_the_board_it_is_valid_on(sketch_answer, tmp_path):
    """A One by One answer made when `power-of-two` meant today's sketch (it names power-of-two, or no
    board, and has no fingerprint), checked without --board: one line naming the sketch, exit 2."""
    stones = json.loads(sketch_answer.read_text())["stones"]
    for name, claim in [("old.json", {"puzzle": "one-by-one", "board": "power-of-two", "status": "optimal",
                                      "objective": 16, "stones": stones}),
                        ("no-board.json", {"puzzle": "one-by-one", "stones": stones})]:
        path = tmp_path / name
        path.write_text(json.dumps(claim))
        res = run("check", path)
        assert (res.exit_code, res.stdout) == (2, "")
        assert res.stderr == (f"powertwo: {path}: not valid on power-of-two; valid on power-of-two-sketch (made "
                              "before the default board changed?): pass --board power-of-two-sketch\n")
    # with --board the file is judged on that board only (the faults, exit 1; valid on the sketch)
    res = run("check", path, "--board", "power-of-two")
    assert res.exit_code == 1 and res.stdout.splitlines()[0].startswith("line ") and res.stderr == ""
    assert run("check", path, "--board", "power-of-two-sketch").exit_code == 0
    # not valid on any shipped board: the faults on the board it names, exit 1
    path.write_text(json.dumps({"puzzle": "one-by-one", "stones": stones[1:]}))
    res = run("check", path)
    assert res.exit_code == 1 and res.stderr == "" and "needs exactly 1" in res.stdout


def test_drawing_an_old_answer_file_names_the_board_it_is_valid_on(sketch_answer, tmp_path):
    """`draw` gives the line `check` gives for an answer made when `power-of-two` meant the sketch,
    and writes nothing; with --board it draws on that board."""
    stones = json.loads(sketch_answer.read_text())["stones"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"puzzle": "one-by-one", "board": "power-of-two", "objective": 16, "stones": stones}))
    out = tmp_path / "old.svg"
    res = run("draw", path, "-o", out)
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (f"powertwo: {path}: not valid on power-of-two; valid on power-of-two-sketch (made "
                          "before the default board changed?): pass --board power-of-two-sketch\n")
    assert res.stderr == run("check", path).stderr and not out.exists()
    for board in ("power-of-two-sketch", "power-of-two"):  # named: drawn on it (on the real board as claimed)
        res = run("draw", path, "-o", out, "--board", board, "--force")
        assert res.exit_code == 0 and out.read_text().startswith("<?xml"), res.output
    # valid on no shipped board: drawn as before, its claim shown as claimed
    path.write_text(json.dumps({"puzzle": "one-by-one", "stones": stones[1:]}))
    assert run("draw", path, "-o", out, "--force").exit_code == 0


def test_board_option_errors(sketch_answer, tmp_path):
    res = run("check", sketch_answer, "--board", "no-such-board")
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1 and "no-such-board" in res.stderr
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"game": "thats-my-line", "moves": []}))
    res = run("check", record, "--board", "power-of-two")
    assert (res.exit_code, res.stderr) == (2, f"powertwo: {record}: --board applies to solution files; a game "
                                              "record names its board in its field 'board'\n")


def test_solve_takes_nodes_by_label_or_id_and_writes_labels():
    by_label = run("solve", "jump-forward", "--corner", "m1")
    by_id = run("solve", "jump-forward", "--corner", "5")
    assert by_label.exit_code == 0, by_label.output
    strip = [line for line in by_label.stdout.splitlines() if not line.startswith("time: ")]
    assert strip == [line for line in by_id.stdout.splitlines() if not line.startswith("time: ")]
    assert "corner: m1" in strip
    board = load("power-of-two")
    steps = [line.split(". ", 1)[1] for line in strip if line.startswith(" ") and ". place " in line]
    assert len(steps) == 31
    for step in steps:  # "place a9, jumps a7" (one or more landings)
        place, jumps = step.removeprefix("place ").split(", jumps ")
        assert {place, *jumps.split()} <= set(board.labels), step
    res = run("solve", "jump-forward", "--corner", "z9")
    assert res.exit_code == 2 and len(res.stderr.splitlines()) == 1
    assert ("solve: Invalid value for '--corner': node z9 does not exist on board power-of-two (give a label "
            "such as a1, or an id 1..64) (see ") in res.stderr


def test_check_accepts_a_hand_written_claim_in_labels(tmp_path):
    cover = ["e1", "g1", "k3", "e5", "a7", "m7", "i9", "m9", "c11", "g13"]
    path = tmp_path / "claim.json"
    path.write_text(json.dumps({"puzzle": "line-cover", "status": "optimal", "objective": 10, "stones": cover}))
    res = run("check", path)
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines() == ["valid: 10 stones, every line holds at least one; optimal (cp-sat proves 10)",
                                       "optimality confirmed by cp-sat: the optimum is 10"]
    # m9 is the only stone on the corner cut i13-m9: moved to m5, the fault names the line by its labels
    path.write_text(json.dumps({"puzzle": "line-cover", "objective": 10,
                                "stones": [v if v != "m9" else "m5" for v in cover]}))
    res = run("check", path)
    assert (res.exit_code, res.stdout) == (1, "line i13-j12-k11-l10-m9 holds 0 stones, needs at least 1\n")
