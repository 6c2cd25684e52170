"""Get a Jump On: jump tables, invariants, forward and reverse search against a plain
breadth-first solver and the CP-SAT planning model, the checker on the committed answers
and on broken copies, and the CLI."""

import copy
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from powertwo.boards import load
from powertwo.solvers.jump import (
    BENCH_HALVES,
    BENCH_HELD_OUT_SEEDS,
    BENCH_OPTIMA,
    BENCH_SEEDS,
    BENCH_TUNING_SEEDS,
    BENCH_UNSOLVABLE,
    ReverseRequest,
    agrees_with_optimum,
    check_forward,
    check_reverse,
    diagram_forward,
    diagram_reverse,
    read_position,
    reverse_answer,
    solve_forward,
    solve_reverse,
)
from powertwo.solvers.jump.engine import ReverseSearch, plain_bfs
from powertwo.solvers.jump.invariants import Pagoda, merson_regions, pagoda_for, position_classes, valid_pagoda
from powertwo.solvers.jump.kernel import EXHAUSTED, FOUND, KERNEL_LOADING, KernelSearch, MoveGenerator
from powertwo.solvers.jump.kernel.frames import DEPTH, LANDING, MOVER, STONES
from powertwo.solvers.jump.kernel.groups import TT_ENTRIES, new_counts
from powertwo.solvers.jump.kernel.hashing import _slot
from powertwo.solvers.jump.tables import (
    JumpTables,
    english_board,
    mask_of,
    node_at,
    nodes_of,
    popcount,
    random_solvable,
)
from powertwo.solvers.registry import SolutionError

from powertwo.cli import main

RESULTS = Path(__file__).resolve().parent.parent / "results"
P2 = load("power-of-two")
SKETCH = load("power-of-two-sketch")
"""The first reconstruction: the kernel's tests that pin figures of its hard positions run on it."""
ENGLISH = english_board()
CENTRE = node_at(ENGLISH, 0, 0)


def committed(name):
    return json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))


def sketch_seed(seed):
    """The final position of the seeded forward answer on the sketch board."""
    return solve_forward(SKETCH, seed=seed)["final_position"]


def plain(ks):
    """``ks`` without the short first searches of its run (the search for any finish first)."""
    ks.first_step = 0
    return ks


def n(*names):
    """Node ids of the Power of Two board by their labels."""
    return [P2.node(v) for v in names]


def names(nodes):
    """Labels of the Power of Two board, as the messages write them."""
    return ", ".join(P2.label(v) for v in nodes)


# ---------------------------------------------------------------- tables and invariants
def test_jump_tables_power_of_two():
    t = JumpTables(P2)
    # a line of k nodes holds k - 2 jumps each way: 4 lines of 3, 16 of 5, 4 of 7, 8 of 8 nodes
    assert sorted(len(line) for line in P2.lines) == [3] * 4 + [5] * 16 + [7] * 4 + [8] * 8
    assert len(P2.jumps) == sum(2 * (len(line) - 2) for line in P2.lines) == 240
    assert sum(len(j) for j in t.jumps_from) == 240
    # the nodes that end every line through them: the outer corners and the half diagonals' inner ends
    ends = [v for v in P2.nodes if all(v in (line[0], line[-1]) for line in P2.lines if v in line)]
    assert nodes_of(t.unjumpable) == ends == n("a1", "m1", "f6", "h6", "f8", "h8", "a13", "m13")
    a13, e13, g13, c11, d10, m13 = n("a13", "e13", "g13", "c11", "d10", "m13")
    assert t.over[(a13, g13)] == e13 and t.over[(a13, d10)] == c11 and (a13, m13) not in t.over
    # symmetry images by lookup agree with the permutations
    some = n("a13", "e13", "e9", "g1", "i7")
    m = mask_of(some)
    for s, perm in enumerate(t.perms):
        assert nodes_of(t.image(s, m)) == sorted(perm[v - 1] for v in some)
    assert t.canonical(m) == min(t.image(s, m) for s in range(len(t.perms)))


def test_english_board_and_position_classes():
    assert (ENGLISH.size, len(ENGLISH.lines), len(ENGLISH.jumps), len(ENGLISH.symmetries)) == (33, 14, 76, 8)
    assert len(position_classes(ENGLISH)) == 4          # 16 position classes on the 33-hole board
    assert position_classes(P2) == []                    # none on the Power of Two board
    for f in position_classes(ENGLISH):
        assert all(popcount(f & mask_of(t)) % 2 == 0 for t in ENGLISH.jumps)
    t = JumpTables(ENGLISH)
    assert popcount(t.unjumpable) == 8                   # the eight corners of the cross


def test_merson_regions_need_a_move_from_inside():
    regions = merson_regions(P2)
    assert mask_of(n("a13", "e13")) in regions and mask_of(n("e1", "g1")) in regions
    assert mask_of(n("a1", "d2", "c3")) in regions
    middles = {}
    for a, b, c in P2.jumps:
        middles.setdefault(b, []).append((a, c))
    for r in regions:
        nodes = set(nodes_of(r))
        assert all(a in nodes or c in nodes for b in nodes for a, c in middles.get(b, ()))


def test_pagoda_from_lp_is_a_pagoda_and_excludes_targets():
    start = random_solvable(ENGLISH, CENTRE, 10, seed=3)
    w = pagoda_for(ENGLISH, mask_of(start), CENTRE)
    p = Pagoda(w, ENGLISH.size)
    assert valid_pagoda(ENGLISH, p.weights)
    assert p.value(mask_of(start)) >= p.weights[CENTRE - 1]   # the centre is reachable


# ---------------------------------------------------------------- reverse search
@pytest.mark.parametrize("seed", range(4))
def test_reverse_search_matches_plain_bfs(seed):
    pos = random_solvable(ENGLISH, CENTRE, 11, seed)
    fast = ReverseSearch(ENGLISH, pos, targets=[CENTRE]).run()
    plain, _, finished = plain_bfs(ENGLISH, pos, targets=[CENTRE])
    assert finished and fast.proven and fast.moves == plain
    anywhere = ReverseSearch(ENGLISH, pos).run()
    assert anywhere.moves == plain_bfs(ENGLISH, pos)[0]


@pytest.mark.parametrize("seed", range(3))
def test_perimeter_search_matches_plain_bfs(seed):
    pos = random_solvable(ENGLISH, CENTRE, 12, seed + 20)
    rs = ReverseSearch(ENGLISH, pos, targets=[CENTRE], perimeter=3000, perimeter_from=0)
    assert rs.radius >= 2
    res = rs.run()
    assert res.moves == plain_bfs(ENGLISH, pos, targets=[CENTRE])[0]
    chains = (rs.tables.chain_between(p, q) for p, q in zip(res.positions, res.positions[1:], strict=False))
    answer = {"position": pos, "moves": [{"from": f, "jumps": j} for f, j in chains],
              "status": "optimal", "objective": res.moves, "bound": res.moves, "target": CENTRE}
    assert check_reverse(answer, ENGLISH).valid


def test_predecessors_undo_successors():
    t = JumpTables(ENGLISH)
    for seed in range(5):
        p = mask_of(random_solvable(ENGLISH, CENTRE, 9, seed))
        for q in t.successors(p):
            assert p in t.predecessors(q)
        for q in t.predecessors(p):
            assert p in t.successors(q)


@pytest.mark.parametrize("seed", range(3))
def test_off_centre_target_uses_only_symmetries_that_fix_it(seed):
    last = node_at(ENGLISH, 1, 0)
    pos = random_solvable(ENGLISH, last, 11, seed + 40)
    rs = ReverseSearch(ENGLISH, pos, targets=[last])
    assert len(rs.tables.perms) == 2          # identity and the mirror in the x axis
    assert rs.run().moves == plain_bfs(ENGLISH, pos, targets=[last])[0]


def test_reverse_infeasible_is_proven():
    # two stones that can never meet: no jump at all
    res = solve_reverse(P2, position=["a13", "m13"])      # labels are read as the nodes they name
    assert res["status"] == "infeasible" and res["moves"] == []
    assert check_reverse(res, P2).valid


def test_english_small_known_instance_both_backends():
    pos = random_solvable(ENGLISH, CENTRE, 8, seed=11)
    search = solve_reverse(ENGLISH, position=pos, target=CENTRE)
    sat = solve_reverse(ENGLISH, position=pos, backend="sat", target=CENTRE)
    assert search["status"] == sat["status"] == "optimal"
    assert search["objective"] == sat["objective"] == plain_bfs(ENGLISH, pos, targets=[CENTRE])[0]
    # checker on another board needs the board object: replay directly
    assert check_reverse(search, ENGLISH).valid and check_reverse(sat, ENGLISH).valid


# ---------------------------------------------------------------- forward
def test_forward_default_answer():
    res = solve_forward(P2)
    assert res["corner"] == P2.node("a13") and len(res["steps"]) == 31 and len(res["final_position"]) == 32
    assert any(len(s["jumps"]) > 1 for s in res["steps"])
    assert check_forward(res, P2).valid
    assert res["final_position"] == committed("jump-forward")["final_position"]


def test_forward_seeded_answers_are_reproducible_and_use_chains():
    a, b = solve_forward(P2, seed=3), solve_forward(P2, seed=3)
    assert a["steps"] == b["steps"]
    assert sum(len(s["jumps"]) > 1 for s in a["steps"]) > 1 and check_forward(a, P2).valid


def test_forward_answers_from_every_corner():
    """From each of the four outer corners (given by label or id) a forward answer with chain jumps,
    which the checker replays to 32 stones; the four are images of each other under the board's
    symmetries, but each is searched on its own."""
    finals = {}
    for corner in ("a13", "m13", "m1", "a1"):
        res = solve_forward(P2, corner=corner)
        assert res["corner"] == P2.node(corner) and len(res["steps"]) == 31
        assert any(len(s["jumps"]) > 1 for s in res["steps"])
        report = check_forward(res, P2)
        assert report.valid and report.notes[0].startswith("31 steps, 32 stones on the board, ")
        finals[corner] = mask_of(res["final_position"])
    assert solve_forward(P2, corner=P2.node("m1"))["final_position"] == nodes_of(finals["m1"])
    assert sorted(n("a13", "m13", "m1", "a1")) == sorted(P2.outer_corners)


def test_forward_bad_corner():
    with pytest.raises(SolutionError, match="^--corner 65: node does not exist on board power-of-two$"):
        solve_forward(P2, corner=65)
    with pytest.raises(SolutionError, match="^--corner z9: node does not exist on board power-of-two$"):
        solve_forward(P2, corner="z9")


# ---------------------------------------------------------------- committed answers
def test_committed_answers_are_valid():
    fwd, rev = committed("jump-forward"), committed("jump-reverse")
    assert check_forward(fwd, P2).valid
    report = check_reverse(rev, P2)
    assert report.valid
    assert rev["position"] == fwd["final_position"]
    assert rev["status"] == "optimal" and rev["objective"] == rev["bound"] == 4
    assert any(n.startswith("status optimal; bound 4 re-proved") for n in report.notes)
    assert rev["board"] == "power-of-two" and rev["board_fingerprint"] == P2.fingerprint
    bench = committed("jump-bench")
    assert bench["board_fingerprint"] == P2.fingerprint
    assert bench["halves"] == {"tuning": list(BENCH_TUNING_SEEDS), "held-out": list(BENCH_HELD_OUT_SEEDS)}
    assert len(bench["positions"]) == len(BENCH_SEEDS) == 5
    for entry in bench["positions"]:
        assert entry["chain_steps"] > 0 and entry["half"] == "tuning"
        answer = json.loads((RESULTS / entry["file"]).read_text())
        assert answer["status"] in ("optimal", "feasible", "infeasible")
        assert check_reverse(answer, P2, reprove=False).valid
        assert answer["position"] == entry["position"]
    more = {e["name"]: e for e in bench["more_positions"]}
    assert len(more) == len(BENCH_TUNING_SEEDS) + len(BENCH_HELD_OUT_SEEDS) - len(BENCH_SEEDS) + len(BENCH_UNSOLVABLE)
    assert all(more[name]["status"] == "infeasible" and more[name]["half"] == "unsolvable" for name in BENCH_UNSOLVABLE)
    assert all(e["status"] != "unknown" and (e["objective"] is None) == (e["status"] == "infeasible")
               for e in more.values())


def test_committed_benchmark_agrees_with_the_known_optima():
    """Each committed benchmark answer is consistent with the fewest moves proven for its position,
    and each seed sits in the half it was drawn for: 20 tuning, 20 held out, none in both."""
    bench = committed("jump-bench")
    rows = {e["seed"]: e for e in bench["positions"]}
    rows |= {e["seed"]: e for e in bench["more_positions"] if e.get("seed") is not None}
    assert sorted(rows) == sorted(BENCH_OPTIMA) == sorted((*BENCH_TUNING_SEEDS, *BENCH_HELD_OUT_SEEDS))
    assert (len(BENCH_TUNING_SEEDS), len(BENCH_HELD_OUT_SEEDS)) == (20, 20)
    assert not set(BENCH_TUNING_SEEDS) & set(BENCH_HELD_OUT_SEEDS) and set(BENCH_SEEDS) <= set(BENCH_TUNING_SEEDS)
    for seed, e in rows.items():
        assert e["half"] == next(h for h, seeds in BENCH_HALVES.items() if seed in seeds)
        assert agrees_with_optimum(e["status"], e["objective"], e["bound"], BENCH_OPTIMA[seed]), (seed, e["status"])
    unsolvable = [e for e in bench["more_positions"] if e.get("seed") is None]
    assert len(unsolvable) == len(BENCH_UNSOLVABLE)
    assert all(agrees_with_optimum(e["status"], e["objective"], e["bound"], None) for e in unsolvable)


def test_agrees_with_optimum_refuses_every_contradiction():
    assert agrees_with_optimum("optimal", 6, 6, 6) and agrees_with_optimum("feasible", 8, 5, 6)
    assert agrees_with_optimum("feasible", 6, 6, 6) and agrees_with_optimum("infeasible", None, 22, None)
    assert agrees_with_optimum("unknown", None, 4, 6) and agrees_with_optimum("unknown", None, 9, None)
    assert not agrees_with_optimum("optimal", 7, 7, 6)      # a longer answer called optimal
    assert not agrees_with_optimum("optimal", 5, 5, 6)      # shorter than proven possible
    assert not agrees_with_optimum("feasible", 8, 7, 6)     # a bound above the optimum
    assert not agrees_with_optimum("feasible", 5, 4, 6)     # an answer below the optimum
    assert not agrees_with_optimum("infeasible", None, 7, 6)
    assert not agrees_with_optimum("feasible", 9, 5, None)  # an answer where none exists
    assert not agrees_with_optimum("unknown", None, 7, 6)


@pytest.mark.slow
def test_default_reverse_minimum_is_reproduced():
    res = solve_reverse(P2)
    assert (res["status"], res["objective"], res["bound"]) == ("optimal", 4, 4)


def _faults(check, data):
    return list(check(data, P2).faults)


def _occupied_before(fwd, step):
    """Stones and jumper before forward step ``step`` (1-based), replayed here independently."""
    occ, jumper = {fwd["corner"]}, fwd["corner"]
    for s in fwd["steps"][:step - 1]:
        occ |= {s["place"], s["jumps"][-1]}
        occ.discard(jumper)
        jumper = s["jumps"][-1]
        occ.add(jumper)
    return occ, jumper


def test_forward_checker_rejects_broken_copies():
    fwd = committed("jump-forward")
    steps = fwd["steps"]
    # a placement not adjacent to the jumper
    bad = copy.deepcopy(fwd)
    bad["steps"][0]["place"] = "e9"       # a label is read as the node it names
    assert _faults(check_forward, bad) == ["step 1: node e9 is not adjacent to the jumper at a13"]
    # a step that skips the jump
    bad = copy.deepcopy(fwd)
    bad["steps"][0]["jumps"] = []
    assert _faults(check_forward, bad) == [
        f"step 1: the stone placed on {P2.label(steps[0]['place'])} is not jumped (no landing given)"]
    # placing on an occupied node
    bad = copy.deepcopy(fwd)
    bad["steps"][1]["place"] = steps[0]["jumps"][-1]
    assert _faults(check_forward, bad) == [f"step 2: node {P2.label(steps[0]['jumps'][-1])} is occupied"]
    # a chain jump after the first landing: over an empty node, onto an occupied node, along no line
    over = JumpTables(P2).over
    kinds = {
        "empty": lambda occ, f: [(c, f"jumps over node {P2.label(b)}, which is empty")
                                 for a, b, c in P2.jumps if a == f and b not in occ and c not in occ],
        "occupied": lambda occ, f: [(c, f"lands on node {P2.label(c)}, which is occupied")
                                    for a, b, c in P2.jumps if a == f and b in occ and c in occ],
        "no line": lambda occ, f: [(v, "is not a jump along a line")
                                   for v in P2.nodes if v not in occ and v != f and (f, v) not in over],
    }
    for kind, candidates in kinds.items():
        for i in range(1, len(steps) + 1):
            occ, jumper = _occupied_before(fwd, i)
            first = steps[i - 1]["jumps"][0]
            occ = (occ | {steps[i - 1]["place"], first}) - {jumper}
            found = candidates(occ, first)
            if found:
                landing, reason = found[0]
                break
        else:
            raise AssertionError(f"no step allows the mutation {kind}")
        bad = copy.deepcopy(fwd)
        bad["steps"][i - 1]["jumps"] = [first, landing]
        expected = f"step {i}, jump 2: {names([first])} to {names([landing])} {reason}"
        assert _faults(check_forward, bad) == [expected], kind
    corner = fwd["corner"]
    no_line = next(v for v in P2.nodes if v != corner and (corner, v) not in over)
    # a first landing that is not beyond the placed stone
    bad = copy.deepcopy(fwd)
    bad["steps"][0]["jumps"] = [no_line]
    assert _faults(check_forward, bad)[0].startswith(f"step 1: the first landing {names([no_line])} is not the node "
                                                     "beyond")
    # a wrong final position
    bad = copy.deepcopy(fwd)
    bad["final_position"] = bad["final_position"][1:]
    assert _faults(check_forward, bad)[0].startswith("final_position does not match the replay")


def test_reverse_checker_rejects_broken_copies():
    rev = committed("jump-reverse")
    occ = set(rev["position"])
    over = JumpTables(P2).over
    # a chain jump along no line
    bad = copy.deepcopy(rev)
    frm = bad["moves"][0]["from"]
    far = next(v for v in P2.nodes if v not in occ and (frm, v) not in over)
    bad["moves"][0]["jumps"] = [far]
    assert _faults(check_reverse, bad) == [
        f"move 1, jump 1: {names([frm])} to {names([far])} is not a jump along a line"]
    # a jump over an empty node
    a, b, c = next((a, b, c) for a, b, c in P2.jumps if a in occ and b not in occ and c not in occ)
    bad = copy.deepcopy(rev)
    bad["moves"][0] = {"from": a, "jumps": [c]}
    assert _faults(check_reverse, bad) == [
        f"move 1, jump 1: {names([a])} to {names([c])} jumps over node {names([b])}, which is empty"]
    # a landing on an occupied node
    a, b, c = next((a, b, c) for a, b, c in P2.jumps if a in occ and b in occ and c in occ)
    bad = copy.deepcopy(rev)
    bad["moves"][0] = {"from": a, "jumps": [c]}
    assert _faults(check_reverse, bad) == [
        f"move 1, jump 1: {names([a])} to {names([c])} lands on node {names([c])}, which is occupied"]
    # a move from an empty node, a move without a jump, a wrong objective, too few moves, a bound too high
    empty = min(set(P2.nodes) - occ)
    bad = copy.deepcopy(rev)
    bad["moves"][0]["from"] = empty
    assert _faults(check_reverse, bad) == [f"move 1: node {names([empty])} has no stone"]
    bad = copy.deepcopy(rev)
    bad["moves"][0]["jumps"] = []
    assert _faults(check_reverse, bad) == ["move 1: no jump given"]
    moves = len(rev["moves"])
    bad = copy.deepcopy(rev)
    bad["objective"] = moves - 1
    assert _faults(check_reverse, bad) == [f"objective {moves - 1} does not match the {moves} moves given"]
    bad = copy.deepcopy(rev)
    bad["moves"] = bad["moves"][:moves - 1]
    bad["objective"] = moves - 1
    assert _faults(check_reverse, bad)[0].startswith(f"after {moves - 1} moves ")
    bad = copy.deepcopy(rev)
    bad["bound"] = moves + 1
    assert _faults(check_reverse, bad) == [f"bound {moves + 1} exceeds the {moves} moves found"]


def test_malformed_files_raise_solution_error():
    rev = committed("jump-reverse")
    bad = dict(rev)
    del bad["moves"]
    with pytest.raises(SolutionError, match="jump-reverse: missing field 'moves'"):
        check_reverse(bad, P2)
    bad = copy.deepcopy(rev)
    bad["moves"][1]["jumps"] = [99]
    with pytest.raises(SolutionError, match="jump-reverse: move 2: node 99 does not exist on board power-of-two"):
        check_reverse(bad, P2)
    fwd = copy.deepcopy(committed("jump-forward"))
    fwd["steps"][3] = [1, 2]
    with pytest.raises(SolutionError, match="jump-forward: step 4: must be an object"):
        check_forward(fwd, P2)
    with pytest.raises(SolutionError, match="position: node 70 does not exist"):
        read_position([1, 70], P2)
    with pytest.raises(SolutionError, match="^position: node a14 does not exist on board power-of-two$"):
        read_position(["a1", "a14"], P2)
    with pytest.raises(SolutionError, match="^position: node a13 is listed twice$"):
        read_position(["a13", 60], P2)
    assert read_position(["m13", "a13", 1], P2) == [1, 60, 64]      # labels and ids alike


def test_position_file_forms(tmp_path):
    fwd = committed("jump-forward")
    for i, data in enumerate(({"final_position": fwd["final_position"]}, {"position": fwd["final_position"]},
                              fwd["final_position"])):
        path = tmp_path / f"p{i}.json"
        path.write_text(json.dumps(data))
        assert read_position(str(path), P2) == fwd["final_position"]
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"stones": [1]}))
    with pytest.raises(SolutionError, match="needs a field 'position' or 'final_position'"):
        read_position(str(path), P2)


@pytest.mark.slow
def test_diagrams_have_one_panel_per_move():
    fig = diagram_reverse(committed("jump-reverse"), P2)
    assert sum(1 for ax in fig.axes if ax.get_title()) == 5        # 4 moves + the end
    fig = diagram_forward(committed("jump-forward"), P2)
    assert sum(1 for ax in fig.axes if ax.get_title()) == 31


def test_cli_check_and_exit_codes(tmp_path):
    runner = CliRunner()
    res = runner.invoke(main, ["check", str(RESULTS / "jump-reverse.json")])
    assert res.exit_code == 0 and res.output.startswith("valid")
    bad = committed("jump-reverse")
    empty = min(set(P2.nodes) - set(bad["position"]))
    bad["moves"][0]["from"] = empty
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    res = runner.invoke(main, ["check", str(path)])
    assert res.exit_code == 1 and res.output.strip() == f"move 1: node {P2.label(empty)} has no stone"
    del bad["moves"]
    path.write_text(json.dumps(bad))
    res = runner.invoke(main, ["check", str(path)])
    assert res.exit_code == 2 and "missing field 'moves'" in res.output
    res = runner.invoke(main, ["solve", "jump-reverse", "--backend", "magic"])
    assert res.exit_code == 2


def test_cp_sat_model_agrees_with_cnf_and_search():
    from ortools.sat.python import cp_model
    from powertwo.models.jump import decode_moves, reverse_model

    pos = random_solvable(ENGLISH, CENTRE, 7, seed=5)
    rm = reverse_model(ENGLISH, pos, targets=[CENTRE])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    assert solver.solve(rm.model) == cp_model.OPTIMAL
    moves = decode_moves(rm, solver, ENGLISH)
    expected = plain_bfs(ENGLISH, pos, targets=[CENTRE])[0]
    assert len(moves) == round(solver.objective_value) == expected
    answer = {"position": pos, "moves": [{"from": f, "jumps": j} for f, j in moves], "status": "optimal",
              "objective": expected, "bound": expected, "target": CENTRE}
    assert check_reverse(answer, ENGLISH).valid


@pytest.mark.slow
def test_english_central_game_needs_exactly_18_moves():
    """The classic result (Bergholt 1912; minimal by Beasley 1964), reproduced by the same search
    that solves the Power of Two puzzle: 18 moves found, 17 refuted, last peg in the centre.
    About a minute and a half on an idle 2-core machine (most of it building the backward
    perimeter of radius 7); the benchmark reports the time."""
    centre = node_at(ENGLISH, 0, 0)
    start = [v for v in ENGLISH.nodes if v != centre]
    res = ReverseSearch(ENGLISH, start, targets=[centre], perimeter=3_000_000).run()
    assert (res.moves, res.bound, res.proven, res.infeasible) == (18, 18, True, False)
    assert nodes_of(res.positions[-1]) == [centre]
    assert res.positions[0] == mask_of(start)


# ---------------------------------------------------------------- the compiled kernel
UNSOLVABLE_22 = [1, 8, 10, 13, 14, 18, 20, 25, 27, 32, 33, 34, 35, 37, 40, 43, 53, 55, 56, 58, 61, 64]
"""22 stones on the sketch board with no one-stone finish (issue 10)."""


def test_kernel_solves_the_english_central_game_with_default_options():
    """The English central game through the kernel as the CLI runs it (no limit, default options):
    optimal 18, the last stone in the centre -- so the stall rule (a deepening step that has not
    refuted its budget after STALL_NODES positions ends the run) leaves the 17-move refutation (6.3
    million positions) room. A few seconds."""
    centre = node_at(ENGLISH, 0, 0)
    res = solve_reverse(ENGLISH, position=[v for v in ENGLISH.nodes if v != centre], target=centre)
    assert (res["engine"], res["status"], res["objective"], res["bound"]) == ("kernel", "optimal", 18, 18)


def _random_position(board, stones, seed):
    import random

    return sorted(random.Random(seed).sample(list(board.nodes), stones))


@pytest.mark.parametrize("board, stones, count", [(ENGLISH, 9, 12), (P2, 7, 4)], ids=["english", "power-of-two"])
def test_kernel_matches_python_engine_on_random_positions(board, stones, count):
    """Same feasibility and the same optimum as the plain breadth-first search and the Python
    engine, on random positions (solvable and unsolvable) with any last node."""
    outcomes = set()
    for seed in range(count):
        if seed % 2:
            pos = _random_position(board, stones, seed)
        else:
            pos = random_solvable(board, board.nodes[seed], stones, seed)
        kernel = KernelSearch(board, pos).run()
        plain, _, finished = plain_bfs(board, pos)
        python = ReverseSearch(board, pos).run()
        assert finished and kernel.proven
        assert kernel.infeasible == python.infeasible == (plain is None), seed
        if plain is not None:
            assert len(kernel.moves) == python.moves == plain == kernel.bound, seed
            answer = {"position": pos, "moves": [{"from": f, "jumps": j} for f, j in kernel.moves],
                      "status": "optimal", "objective": plain, "bound": plain}
            assert check_reverse(answer, board).valid
        outcomes.add(plain is None)
    assert outcomes == {True, False}     # both kinds were compared


@pytest.mark.parametrize("board", [ENGLISH, P2], ids=["english", "power-of-two"])
def test_kernel_moves_are_the_python_engines_in_the_same_order(board):
    """The compiled whole-move generator gives the Python engine's successors, in its order, on
    random positions of every size and on the benchmark seeds; its sets start at 16 slots, so they
    grow while it runs."""
    moves = MoveGenerator(board, slots=16)
    tables = JumpTables(board)
    positions = [mask_of(_random_position(board, stones, seed))
                 for stones in range(1, board.size + 1) for seed in range(3)]
    if board is P2:
        positions += [mask_of(solve_forward(P2, seed=s)["final_position"]) for s in (1, 2, 3)]
    counts = []
    for pos in positions:
        expected = list(tables.successors(pos))
        assert moves.successors(pos) == expected, nodes_of(pos)
        assert moves.counts([pos]) == [len(expected)]
        counts.append(len(expected))
    assert max(counts) > moves.out.shape[0] // 4 > 4    # the sets grew past their first size


def test_kernel_perft_is_the_python_engines():
    """Move sequences counted to depth 3 on the English central game and to depth 2 from a 20-stone
    Power of Two position: the compiled generator and the Python engine count the same."""

    def python_perft(tables, pos, depth):
        if depth == 0:
            return 1
        return sum(python_perft(tables, q, depth - 1) for q in tables.successors(pos))

    english = mask_of(v for v in ENGLISH.nodes if v != CENTRE)
    p2 = mask_of(_random_position(P2, 20, 7))
    every = {}
    for board, pos, depth in ((ENGLISH, english, 3), (P2, p2, 2)):
        tables, moves = JumpTables(board), MoveGenerator(board)
        counts = [moves.perft(pos, d) for d in range(depth + 1)]
        assert counts == [python_perft(tables, pos, d) for d in range(depth + 1)]
        assert counts[depth] > counts[depth - 1] > 1
        every[board.name] = counts
    assert every[ENGLISH.name][:2] == [1, 4]     # the English game opens with one of 4 jumps into the centre


def _clearable(board, pos: frozenset, last: int, budget: int, seen: dict) -> bool:
    """Exactly: can ``pos`` be cleared to one stone with the chain of the stone on ``last`` (0 for
    none) going on for free and at most ``budget`` fresh moves? (Plain recursion over single jumps.)"""
    if len(pos) == 1:
        return True
    key = (pos, last, budget)
    if key not in seen:
        seen[key] = any(_clearable(board, pos - {a, b} | {c}, c, budget - (a != last), seen)
                        for a, b, c in board.jumps
                        if a in pos and b in pos and c not in pos and (a == last or budget > 0))
    return seen[key]


def _last_stone(board, seed: int) -> int:
    """The node of the one stone :func:`_two_backward_chains` starts from."""
    import random

    return random.Random(seed).choice(board.nodes)


def _two_backward_chains(board, seed: int) -> tuple[list[int], int, int | None, bool]:
    """A position cleared by the chain of the stone on ``first``, then the chain of the stone on
    ``second`` (None when the second chain is empty or made by the first stone): two chains played
    backwards from the one stone on :func:`_last_stone`. The last value: the first chain has a jump."""
    import random

    rng = random.Random(seed)
    x = rng.choice(board.nodes)
    occ = {x}
    starts = []
    for i in range(2):
        if i:
            x = rng.choice(sorted(occ))
        moved = x
        steps = 0
        while True:
            options = [(a, b) for a, b, c in board.jumps if c == x and a not in occ and b not in occ]
            if not options or steps and rng.random() < 0.2:
                break
            a, b = rng.choice(options)
            occ = occ - {x} | {a, b}
            x = a
            steps += 1
        starts.append((moved, x, steps))
    (_, second, second_steps), (first_end, first, first_steps) = starts
    if not second_steps or first_end == second:
        return sorted(occ), first, None, first_steps > 0
    return sorted(occ), first, second, first_steps > 0


def _backward_chains(board, moves: int, seed: int) -> tuple[list[int], int]:
    """A position cleared by ``moves`` chains: chains played backwards from one stone (each goes on
    with odds 3 in 4); returns it and the node of the stone whose chain comes first."""
    import random

    rng = random.Random(seed)
    occ = {rng.choice(board.nodes)}
    x = next(iter(occ))
    for _ in range(moves):
        x = rng.choice(sorted(occ))
        while True:
            options = [(a, b) for a, b, c in board.jumps if c == x and a not in occ and b not in occ]
            if not options:
                break
            a, b = rng.choice(options)
            occ = occ - {x} | {a, b}
            x = a
            if rng.random() < 0.25:
                break
    return sorted(occ), x


@pytest.mark.parametrize("board", [P2, ENGLISH], ids=["power-of-two", "english"])
def test_leaf_tests_never_refute_a_clearable_position(board):
    """The kernel's tests near the leaves (no fresh move left: the last jumper alone clears the
    board; one left: it and one other stone; two left and no chain: two stones), by reach and by
    parity, are necessary conditions: on positions cleared by one or two chains played backwards,
    and on random positions, with the last jumper given or not, they never refute what the exact
    recursion clears; and they do refute."""
    from powertwo.solvers.jump.kernel.leaves import _alone, _first_movers, _last_movers
    from powertwo.solvers.jump.kernel.workspace import PARITY, REACH, scratch_for

    ks = KernelSearch(board, board.nodes[:2], symmetry=False, perimeter=0)
    tb = ks.tables
    tables = (tb.jstart, tb.jover, tb.jto, tb.ends, tb.ostart, tb.ovec, scratch_for(tb.ovec))
    every = np.uint64((1 << board.size) - 1)
    flags = {"reach": REACH, "parity": PARITY, "both": REACH | PARITY}
    counts = {(test, budget, verdict): 0 for test in flags for budget in (0, 1) for verdict in ("cleared", "refuted")}
    counts |= {("parity", 2, verdict): 0 for verdict in ("cleared", "refuted")}
    seen: dict = {}
    for seed in range(600):
        if seed % 3:
            pos, last = _backward_chains(board, 1 + seed % 2, seed)
            if seed % 5 == 0:
                last = 0
        else:
            pos = _random_position(board, 5 + seed % 6, seed)
            last = pos[seed % len(pos)] if seed % 2 else 0
        mask = np.uint64(mask_of(pos))
        passes = {}
        for test, flag in flags.items():
            passes[test, 1] = _last_movers(mask, last - 1, every, *tables, flag) != 0
            if last:
                passes[test, 0] = _alone(mask, last - 1, every, *tables, flag)
        if not last:    # two fresh moves, no chain: the first may be made (by parity)
            passes["parity", 2] = _first_movers(mask, every, *tables[:3], *tables[4:]) != 0
        for (test, budget), ok in passes.items():
            exact = _clearable(board, frozenset(pos), last, budget, seen)
            assert ok or not exact, (test, pos, last, budget)
            if exact or not ok:
                counts[test, budget, "cleared" if exact else "refuted"] += 1
    assert min(counts.values()) > 50, counts


@pytest.mark.parametrize("board", [P2, ENGLISH], ids=["power-of-two", "english"])
def test_leaf_tests_keep_the_stones_that_make_the_last_moves(board):
    """With one fresh move left, the stones the leaf tests allow to make it (reach, parity, both)
    hold the one that does; with two left and no chain, the stones the parity test allows to make
    the first hold the one that does: positions cleared by the chain of a first stone, then a second
    stone's, with every node as a target or only the node where the last stone ends."""
    from powertwo.solvers.jump.kernel.leaves import _first_movers, _last_movers
    from powertwo.solvers.jump.kernel.workspace import PARITY, REACH, scratch_for

    ks = KernelSearch(board, board.nodes[:2], symmetry=False, perimeter=0)
    tb = ks.tables
    tables = (tb.jstart, tb.jover, tb.jto, tb.ends, tb.ostart, tb.ovec, scratch_for(tb.ovec))
    every = np.uint64((1 << board.size) - 1)
    kept = firsts = 0
    for seed in range(300):
        pos, first, second, first_moves = _two_backward_chains(board, seed)
        mask = np.uint64(mask_of(pos))
        for target in (every, np.uint64(1 << (_last_stone(board, seed) - 1))):
            if first_moves:
                allowed = _first_movers(mask, target, tb.jstart, tb.jover, tb.jto, tb.ostart, tb.ovec, tables[-1])
                assert int(allowed) >> (first - 1) & 1, (pos, first)
                firsts += 1
            if second is None:
                continue
            for test in (REACH, PARITY, REACH | PARITY):
                allowed = _last_movers(mask, first - 1, target, *tables, test)
                assert int(allowed) >> (second - 1) & 1, (test, pos, first, second)
        kept += second is not None
    assert firsts > 300
    assert kept > 150


def _bare_in_the_area_of_three(ks, mask: np.uint64) -> int:
    """How many stones of ``mask`` no jump inside the area of three passes over (see
    :func:`~powertwo.solvers.jump.kernel.finishes._first_of_three`)."""
    from powertwo.solvers.jump.kernel.leaves import _groups, _trail_system

    home, piv = np.zeros(64, dtype=np.uint64), np.zeros(64, dtype=np.uint64)
    area = mask
    for _ in range(3):
        area = np.uint64(_groups(mask, mask | area, ks.tables.jstart, ks.tables.jover, ks.tables.jto, home)[1])
    return bin(int(_trail_system(mask, area, ks.tables.ostart, ks.tables.ovec, piv, 64)[2])).count("1")


@pytest.mark.parametrize("board", [pytest.param(P2, marks=pytest.mark.slow), ENGLISH], ids=["power-of-two", "english"])
def test_first_of_three_allows_every_stone_that_starts_a_finish(board):
    """With three fresh moves left and no chain, the stones the test allows to make the first hold
    every stone whose first jump leads to a finish within the budget (the exact recursion), and
    none means no finish: on positions cleared by three chains played backwards (and by one or
    two) and on random positions; with none, one, two and three bare stones it both refutes and lets finishes by (such
    positions cleared by three chains are rare: the first ten of each from seed 10,000 on). With
    no bare stone the test names the first movers that fit, not every stone: some finishes let
    fewer stones than can jump make the first move."""
    from powertwo.solvers.jump.kernel.finishes import _first_of_three
    from powertwo.solvers.jump.kernel.workspace import scratch_for

    ks = KernelSearch(board, board.nodes[:2], symmetry=False, perimeter=0)
    scratch = scratch_for(ks.tables.ovec)
    every = np.uint64((1 << board.size) - 1)
    seen: dict = {}
    counts = {(bare, verdict): 0 for bare in (0, 1, 2, 3) for verdict in ("cleared", "refuted")}
    narrowed = 0     # no bare stone, a finish, and not every stone that can jump allowed

    def check(pos: list[int]) -> None:
        mask = np.uint64(mask_of(pos))
        tb = ks.tables
        allowed = int(_first_of_three(mask, every, tb.jstart, tb.jover, tb.jto, tb.ostart, tb.ovec, scratch))
        stones = frozenset(pos)
        starters = {a for a, b, c in board.jumps if a in stones and b in stones and c not in stones
                    and _clearable(board, stones - {a, b} | {c}, c, 2, seen)}
        for a in starters:
            assert allowed >> (a - 1) & 1, (pos, a)
        bare = _bare_in_the_area_of_three(ks, mask)
        if bare in (0, 1, 2, 3) and (starters or allowed == 0):
            counts[bare, "cleared" if starters else "refuted"] += 1
        movable = {a for a, b, c in board.jumps if a in stones and b in stones and c not in stones}
        nonlocal narrowed
        narrowed += bare == 0 and bool(starters) and any(not allowed >> (a - 1) & 1 for a in movable)

    for seed in range(400):
        pos = _backward_chains(board, 3, seed)[0] if seed % 2 else _random_position(board, 6 + seed % 7, seed)
        if len(pos) <= 18:   # the exact recursion's cost grows fast with the stones (a few of 20-24 took 25 s)
            check(pos)
    for seed in range(200):            # fewer movers than moves: cleared by one or two chains
        check(_backward_chains(board, 1 + seed % 2, seed)[0])
    for seed in range(400, 4000):      # no bare stone and no finish: rarer on the English board
        if counts[0, "refuted"] >= 10:
            break
        check(_random_position(board, 6 + seed % 7, seed))
    found = {0: 0, 1: 0, 2: 0, 3: 0}
    for seed in range(10_000, 60_000):
        pos = _backward_chains(board, 3, seed)[0]
        bare = _bare_in_the_area_of_three(ks, np.uint64(mask_of(pos)))
        if found.get(bare, 10) < 10:
            found[bare] += 1
            check(pos)
        if min(found.values()) == 10:
            break
    assert min(counts.values()) >= 10, counts
    assert narrowed >= 5, narrowed


def test_one_bare_finish_matches_brute_force():
    """The three-move test's search for movers beside one bare stone finds a fitting choice exactly
    when one exists, and names the sides of every fitting choice: against every choice tried in
    turn, on random vectors of few bits (so that choices fit often), with none to 12 removals, 8
    sides and 8 ends."""
    import itertools
    import random

    from powertwo.solvers.jump.kernel.finishes import _one_bare_finish
    from powertwo.solvers.jump.kernel.workspace import PAIR_FILTER_BITS, scratch_for

    ks = KernelSearch(P2, P2.nodes[:2], symmetry=False, perimeter=0)
    scratch = scratch_for(ks.tables.ovec)
    keys, used, pairs = scratch[:16384], scratch[16384:32768], scratch[32768:32768 + (1 << PAIR_FILTER_BITS) // 64]
    rng = random.Random(7)
    verdicts = []
    for _ in range(400):
        bits = rng.choice([4, 6, 8])
        k = rng.randrange(1, 1 << bits)
        removal, sides, ends = ([rng.randrange(1 << bits) for _ in range(rng.randrange(count))]
                                for count in (13, 9, 9))
        which = 0
        for a, x in enumerate(sides):
            if any(k ^ r ^ x ^ w == 0 for r in removal for w in ends):
                which |= 1 << a
        for (a, x), (b, y) in itertools.combinations(enumerate(sides), 2):
            if any(k ^ r1 ^ r2 ^ x ^ y ^ w == 0 for r1, r2 in itertools.combinations_with_replacement(removal, 2)
                   for w in ends):
                which |= 1 << a | 1 << b
        fits = k in ends or which != 0
        got, got_which = _one_bare_finish(np.uint64(k), np.array(removal + [0], dtype=np.uint64), len(removal),
                                          np.array(ends + [0], dtype=np.uint64), len(ends),
                                          np.array(sides + [0], dtype=np.uint64), len(sides), keys, used, pairs)
        assert (got, int(got_which)) == (fits, which), (k, removal, sides, ends)
        assert not keys.any() and not pairs.any()     # the set and the filter are left empty
        verdicts.append(fits)
    assert 100 < sum(verdicts) < 300


@pytest.mark.parametrize("workers", [1, 2])
def test_kernel_finds_a_finish_within_the_chains_played_backwards(workers):
    """Positions built by 2 to 5 chains played backwards on the Power of Two board (where the reach
    tests prune: no backward perimeter with 64 targets) are cleared within that many moves by the
    kernel (one thread, or two sharing the tables), and its answer replays in the checker."""
    from powertwo.solvers.jump.kernel import chains

    ks = KernelSearch(P2, P2.nodes[:32], workers=workers)      # one instance, searched from each start
    sizes = []
    for seed in range(80):
        moves = 2 + seed % 4
        pos, _ = _backward_chains(P2, moves, seed + 1000)
        status, jumps = ks.search(moves, start=pos)
        assert status == FOUND, (seed, pos, moves)
        found = chains(jumps)
        assert len(found) <= moves
        answer = {"position": pos, "moves": [{"from": f, "jumps": j} for f, j in found],
                  "status": "feasible", "objective": len(found), "bound": None}   # a finish, no bound claimed
        assert check_reverse(answer, P2, reprove=False).valid, (seed, found)
        sizes.append(len(pos))
    assert max(sizes) >= 20


def test_a_finish_met_by_any_symmetric_walk_replays_from_the_start():
    """A search within a budget walks from every symmetric image of the start, one thread too, and
    the first walk to meet a finish answers: its jumps are mapped back to the start's own nodes. From
    each of the 8 images of chain-built positions, the walk's answer replays in the checker (and
    the jumps of an image other than the identity are not the start's as they stand)."""
    from powertwo.solvers.jump.kernel import PAUSED, chains

    ks = KernelSearch(P2, P2.nodes[:32], workers=1)
    assert len(ks.perms) == 8
    moved = 0
    for seed in range(6):
        moves = 2 + seed % 3
        pos, _ = _backward_chains(P2, moves, seed + 2000)
        for sym in range(8):
            ks.reset()
            walk = ks.walk(1, moves, sym, pos)
            status = ks.advance(walk, 10 ** 8)
            while status == PAUSED:     # a table's growth came first
                ks._grow()
                status = ks.advance(walk, 10 ** 8)
            assert status == FOUND, (seed, sym)
            found = chains(ks._found_jumps(walk, complete=False))
            answer = {"position": pos, "moves": [{"from": f, "jumps": j} for f, j in found],
                      "status": "feasible", "objective": len(found), "bound": None}
            assert len(found) <= moves and check_reverse(answer, P2, reprove=False).valid, (seed, sym, found)
            fr = walk.frames
            raw = [(int(fr.fi[i, MOVER]) + 1, int(fr.fi[i, LANDING]) + 1) for i in range(int(fr.state[DEPTH]))]
            moved += raw[0][0] not in pos
    assert moved >= 10     # walks on images whose first jumper stands where the start has no stone


def test_kernel_search_from_more_stones_than_its_frames_is_refused():
    """A search from a position with more stones than the instance was built for would write past
    its frames (compiled code checks no bounds): refused with the counts, before any search."""
    ks = KernelSearch(P2, P2.nodes[:3], symmetry=False, perimeter=0)
    with pytest.raises(ValueError, match=r"^a search from 10 stones on an instance built for 3: build the "
                                         r"KernelSearch from the larger position$"):
        ks.search(3, start=P2.nodes[:10])
    assert ks.search(1, start=[1, 2])[0] == FOUND     # fewer stones: searched (1 jumps over 2 to 3)


def test_kernel_with_target_matches_plain_bfs():
    for seed in range(4):
        pos = random_solvable(ENGLISH, CENTRE, 12, seed + 60)
        res = KernelSearch(ENGLISH, pos, targets=[CENTRE]).run()
        assert len(res.moves) == res.bound == plain_bfs(ENGLISH, pos, targets=[CENTRE])[0]


def test_unsolvable_22_stones_is_proven_infeasible_and_checked():
    res = solve_reverse(SKETCH, position=UNSOLVABLE_22)
    assert (res["status"], res["moves"], res["engine"]) == ("infeasible", [], "kernel")
    assert res["proof"] == {"kind": "exhausted search", "bound": len(UNSOLVABLE_22), "engine": "kernel"}
    report = check_reverse(res, SKETCH)
    assert report.valid and report.notes == ("infeasible confirmed: the checker's kernel exhausted the search",)


def _split_first_chain(answer, move=0):
    """The same finish with the chain of ``move`` (default the first) cut into two moves (one move more)."""
    out = copy.deepcopy(answer)
    first = out["moves"][move]
    cut = 1
    out["moves"][move:move + 1] = [{"from": first["from"], "jumps": first["jumps"][:cut]},
                                   {"from": first["jumps"][cut - 1], "jumps": first["jumps"][cut:]}]
    out["objective"] = out["bound"] = out["proof"]["bound"] = len(out["moves"])
    return out


def test_checker_reproves_optimality_and_infeasibility_claims():
    rev = committed("jump-reverse")
    assert len(rev["moves"][0]["jumps"]) > 1
    best = len(rev["moves"])
    longer = _split_first_chain(rev)
    assert check_reverse(longer, P2, reprove=False).valid        # a valid finish in one move more ...
    assert _faults(check_reverse, longer) == [                   # ... but not optimal
        f"status optimal but {best} moves suffice: the checker found a finish in {best} moves"]
    longer["status"] = "feasible"
    assert _faults(check_reverse, longer) == [
        f"status feasible with bound {best + 1} equal to the objective: that is optimal"]
    longest = _split_first_chain(longer, 1)       # one move more again: a bound of best + 1 is then false
    longest.update(status="feasible", bound=best + 1, proof=dict(longest["proof"], bound=best + 1))
    assert _faults(check_reverse, longest) == [
        f"bound {best + 1} but {best} moves suffice: the checker found a finish in {best} moves"]
    longer["bound"] = longer["proof"]["bound"] = best
    assert check_reverse(longer, P2).valid
    proof = {"kind": "exhausted search", "bound": 32, "engine": "kernel"}
    claim = {"position": rev["position"], "moves": [], "status": "infeasible", "objective": None, "bound": 32,
             "engine": "kernel", "proof": proof}
    faults = _faults(check_reverse, claim)
    assert len(faults) == 1 and faults[0].startswith("status infeasible but a finish exists: the checker found one in ")


def test_kernel_search_budgets_and_portfolio():
    rev = committed("jump-reverse")
    ks = KernelSearch(P2, rev["position"])
    assert ks.search(3)[0] == EXHAUSTED
    status, jumps = ks.search(4)
    assert status == FOUND and len({(f, t) for f, t in jumps}) == len(rev["position"]) - 1
    assert ks.search(None)[0] == FOUND


def test_a_refuted_chain_state_records_its_stones_without_the_chain():
    """(stones, last jumper) refuted within b moves implies (stones, none) refuted within b: a
    finish from the latter is one from the former at no greater cost. The table records both, so
    every chain entry has an entry for its stones without a chain at least as high (later chain
    states on those stones skip their fresh moves)."""
    ks = KernelSearch(P2, committed("jump-reverse")["position"])
    assert ks.search(3)[0] == EXHAUSTED
    keys, entries = ks.hashes.tk.tolist(), ks.hashes.td.tolist()
    table = {(k, (e >> 8 & 255) - 1): e & 255 for k, e in zip(keys, entries, strict=True) if k}
    chained = [(k, v) for (k, last), v in table.items() if last >= 0]
    assert len(chained) > 400
    assert [(k, v) for k, v in chained if table.get((k, -1), -1) < v] == []


def _promise(board, pos, j):
    """The stones other than ``j`` that a jump from ``j``'s reach over the stones passes over
    (landings ignored), by the board's jumps: what the kernel's ordering counts."""
    reach, frontier = {j}, [j]
    while frontier:
        a = frontier.pop()
        for x, b, c in board.jumps:
            if x == a and b in pos and c not in reach:
                reach.add(c)
                frontier.append(c)
    return len({b for a, b, _ in board.jumps if a in reach and b in pos and b != j})


def test_movers_near_the_root_go_by_promise():
    """The movers of a state near the root are tried most promising first (the most stones their
    reach can jump), ties from the lowest node up; every mover exactly once."""
    from powertwo.solvers.jump.kernel.walk import _order_movers

    pos = sketch_seed(3)
    movers = pos[::2]
    out, score = np.zeros(65, dtype=np.int64), np.zeros(64, dtype=np.int64)
    ks = KernelSearch(SKETCH, pos)
    tb = ks.tables
    _order_movers(np.uint64(mask_of(pos)), np.uint64(mask_of(movers)), tb.jstart, tb.jover, tb.jto, tb.ends, out, score)
    tried = [int(v) + 1 for v in out[1:len(movers) + 1]]
    promise = {v: _promise(SKETCH, set(pos), v) for v in movers}
    assert out[0] == 0 and sorted(tried) == sorted(movers)
    assert tried == sorted(movers, key=lambda v: (-promise[v], v))
    assert sorted(set(promise.values())) == [0, 1, 30]   # 0: stones with no jump


def test_ordering_by_promise_changes_the_order_not_the_verdicts():
    """Node order throughout (``order_moves = 0``) and by promise near the root reach the same
    verdicts on the sketch board's seed 5 (3 moves refuted, 4 found); the answers found differ and
    both replay."""
    from powertwo.solvers.jump import replay_reverse
    from powertwo.solvers.jump.kernel import chains

    pos = sketch_seed(5)
    answers = []
    for order_moves in (0, 2):
        ks = KernelSearch(SKETCH, pos)
        ks.order_moves = order_moves
        assert ks.search(3)[0] == EXHAUSTED
        status, jumps = ks.search(4)
        fault, left = replay_reverse(SKETCH, pos, chains(jumps))
        assert (status, fault, len(left)) == (FOUND, None, 1)
        answers.append(jumps)
    assert answers[0] != answers[1]


def test_hash_slots_depend_on_every_node():
    """Positions that differ only on the high nodes (46-64 on the Power of Two board) spread over
    the table like any others (the slot once ignored the key's top bits: whole runs of probes filled
    with such positions, and entries were overwritten at 12% load)."""
    mask = (1 << 16) - 1
    low = 0b1011_0110_1110_0101
    slots = {int(_slot(np.uint64(low | high << 46), last, mask)) for high in range(1 << 9) for last in (-1, 5)}
    assert len(slots) > 950


def test_table_entries_torn_by_two_threads_are_not_read():
    """With workers, two threads may write one slot at once: the key from one write can stand beside
    the entry word of another. An entry word carries a check of its key, so such a slot is a miss."""
    from powertwo.solvers.jump.kernel.hashing import _tt_entry, _tt_get, _tt_put

    tk, td, counts = np.zeros(16, dtype=np.uint64), np.zeros(16, dtype=np.uint64), new_counts()
    a, b = np.uint64(0b1011 << 20), np.uint64(0b1101 << 33)
    _tt_put(tk, td, a, 5, 3, counts)
    _tt_put(tk, td, a, 5, 2, counts)        # a lower budget never replaces a higher one
    got = (_tt_get(tk, td, a, 5), _tt_get(tk, td, a, -1), _tt_get(tk, td, b, 5), int(counts[TT_ENTRIES]))
    assert got == (3, -1, -1, 1)
    slot = int(np.flatnonzero(tk == a)[0])
    td[slot] = _tt_entry(b, 5, 7)          # b's entry word beside a's key
    assert _tt_get(tk, td, a, 5) == -1
    td[slot] = _tt_entry(a, 5, 7)
    assert _tt_get(tk, td, a, 5) == 7


def test_two_workers_prove_what_one_proves():
    """Two threads sharing the tables, each walking the tree in another order, reach the verdicts of
    one, on the sketch board: seed 108's 4 moves refuted (some 400,000 positions; seed 104's took 19,211 once the
    three-move test came, seed 107's 20,564 once the no-bare test came, too few to share), seed 5's
    optimum 4 through run() with an answer that replays, the 22 stones of issue 10 infeasible; the
    two walks count their positions together."""
    from powertwo.solvers.jump import replay_reverse

    ks = KernelSearch(SKETCH, sketch_seed(108), workers=2)
    assert ks.search(4)[0] == EXHAUSTED and ks.nodes > 100_000
    pos = sketch_seed(5)
    res = KernelSearch(SKETCH, pos, workers=2).run(node_limit=60_000_000)
    fault, left = replay_reverse(SKETCH, pos, res.moves)
    assert (res.proven, len(res.moves), res.bound, fault, len(left)) == (True, 4, 4, None, 1)
    res = KernelSearch(SKETCH, UNSOLVABLE_22, workers=2).run()
    assert res.infeasible and res.proof is not None and res.proof.kind == "exhausted search"
    with pytest.raises(ValueError, match="workers 0: at least 1"):
        KernelSearch(P2, pos, workers=0)


def test_cli_target_on_a_board_file(tmp_path):
    from powertwo.boards import save

    board_file = tmp_path / "english.json"
    save(ENGLISH, board_file)
    pos = random_solvable(ENGLISH, CENTRE, 10, seed=7)
    (tmp_path / "pos.json").write_text(json.dumps(pos))
    runner = CliRunner()
    res = runner.invoke(main, ["solve", "jump-reverse", "--board", str(board_file), "--position",
                               str(tmp_path / "pos.json"), "--target", str(CENTRE), "--json",
                               "--out", str(tmp_path / "out.json")])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    expected = plain_bfs(ENGLISH, pos, targets=[CENTRE])[0]
    assert (out["status"], out["objective"], out["target"]) == ("optimal", expected, CENTRE)
    res = runner.invoke(main, ["check", str(tmp_path / "out.json")])
    assert res.exit_code == 0 and res.output.startswith("valid"), res.output
    res = runner.invoke(main, ["solve", "jump-reverse", "--board", str(board_file), "--position",
                               str(tmp_path / "pos.json"), "--target", "99"])
    assert res.exit_code == 2 and "--target 99: node does not exist on board english-33" in res.output


def test_cli_workers_two_threads_give_the_optimum_and_say_so(tmp_path):
    pos = random_solvable(P2, 60, 12, seed=3)
    (tmp_path / "pos.json").write_text(json.dumps(pos))
    res = CliRunner().invoke(main, ["solve", "jump-reverse", "--position", str(tmp_path / "pos.json"), "--workers",
                                    "2", "--json", "--out", str(tmp_path / "out.json")])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert (out["status"], out["objective"], out["workers"]) == ("optimal", plain_bfs(P2, pos)[0], 2)
    res = CliRunner().invoke(main, ["check", str(tmp_path / "out.json")])
    assert res.exit_code == 0 and res.output.startswith("valid"), res.output


@pytest.mark.parametrize("board, mode, budget, sym", [(ENGLISH, 1, 17, 0), (ENGLISH, 0, 0, 3), (SKETCH, 1, 3, 0),
                                                     (P2, 2, 0, 5)],
                         ids=["english-17", "english-any", "sketch-3", "p2-any"])
def test_carried_images_and_pagoda_sums_equal_recomputed_ones(board, mode, budget, sym):
    """The search frames carry each position's symmetry images and pagoda sums, updated per jump:
    at every pause (every 997 positions) each frame on the stack holds what recomputing gives."""
    start = ([v for v in ENGLISH.nodes if v != CENTRE] if board is ENGLISH else committed("jump-reverse")["position"]
             if board is P2 else solve_forward(SKETCH)["final_position"])
    ks = KernelSearch(board, start, targets=[CENTRE] if board is ENGLISH else None, perimeter=0)
    assert len(ks.perms) == 8 and ks.pw.shape[0] == (board is ENGLISH)   # (no pagodas for 64 targets)
    walk = ks.walk(mode, budget, sym, start)
    deepest = checked = 0
    for _ in range(600):
        status = ks.advance(walk, 499)
        fr = walk.frames
        depth = int(fr.state[DEPTH])
        for d in range(depth + 1):
            pos = int(fr.fu[d, STONES])
            assert fr.fimg[d].tolist() == ks.images(pos).tolist(), (d, pos)
            assert fr.fps[d].tolist() == ks.pagoda_sums(pos).tolist(), (d, pos)
            checked += 1
        deepest = max(deepest, depth)
        if status != 2:
            break
    assert deepest >= 10 and checked > 100


def test_kernel_run_deepens_when_the_search_for_any_finish_runs_out_of_its_share():
    """The first search for any finish gets a quarter of the limit (ANY_SHARE); when it finds none,
    the deepening goes on and its first finish is optimal (the sketch board's seed 5: 4 moves, after
    the search for any finish spent its 1 million of 4 million positions). Where the deepening runs out
    too, the answer is ``unknown`` with the bound proven so far."""
    from powertwo.solvers.jump import replay_reverse

    pos = sketch_seed(5)
    ks = KernelSearch(SKETCH, pos)
    ks.first_step = 0           # the search for any finish first, without the short first searches
    res = ks.run(node_limit=4_000_000)
    assert res.log[0].startswith("any finish: none within its share of the limit (the deepening goes on) (1,000,000 ")
    assert (res.proven, len(res.moves), res.bound) == (True, 4, 4)
    assert replay_reverse(SKETCH, pos, res.moves)[0] is None
    out = reverse_answer(SKETCH, ReverseRequest(start=tuple(pos), node_limit=6_000))  # with 10,000 the deepening's
    assert (out.status, out.objective, out.bound) == ("unknown", None, 4)          # finish comes after 8,793


def test_a_short_first_answer_comes_before_the_search_for_any_finish():
    """A run first searches within the admissible bound plus FIRST_STEP moves (then twice that), each
    for at most FIRST_NODES positions: on the benchmark's seed 2 its first answer is the optimum, 4
    moves, where the search for any finish alone first finds 15. Both runs end optimal, and the
    answers replay."""
    from powertwo.solvers.jump import replay_reverse
    from powertwo.solvers.jump.kernel import FIRST_NODES, FIRST_STEP

    pos = solve_forward(P2, seed=2)["final_position"]
    short = KernelSearch(P2, pos).run(node_limit=20_000_000)
    longer = plain(KernelSearch(P2, pos)).run(node_limit=20_000_000)
    assert (FIRST_STEP, FIRST_NODES) == (3, 250_000)
    assert short.log[0].startswith("first finish within 4 moves: 4 moves (")
    assert short.answers[0][1] == short.first_found_moves == BENCH_OPTIMA[2] == 4
    assert longer.log[0].startswith("any finish: 15 moves (") and longer.answers[0][1] == 15
    for res in (short, longer):
        assert res.proven and len(res.moves) == res.bound == 4
        assert replay_reverse(P2, pos, res.moves)[0] is None


@pytest.mark.slow
def test_kernel_run_ends_when_it_stalls_with_the_proven_bound():
    """Without a limit the deepening ends after ``stall`` positions without refuting its budget; with
    a limit, branch and bound ends after ``stall`` positions without a better answer. Either way the
    best finish found is reported with the bound proven so far, the same on every run."""
    pos = sketch_seed(2)      # the sketch board's seed 2: its optimum 5 takes 1.5 million
    runs = [plain(KernelSearch(SKETCH, pos)).run(stall=100_000) for _ in range(2)]
    res = runs[0]
    assert res.moves is not None and not res.proven and not res.infeasible and len(res.moves) > res.bound
    assert res.log[-2].startswith(f"100,000 positions reached while searching {res.bound} moves")
    assert res.log[-1].startswith("beam: ")      # then the beam looks for a shorter answer
    assert [(r.moves, r.bound, r.nodes) for r in runs[1:]] == [(res.moves, res.bound, res.nodes)]
    # of 6 million positions the beam may take 600,000 (after the first finish's), the upper bounds
    # together 720,000 (UPPER_SHARE): branch and bound has more left than its stall
    limited = plain(KernelSearch(SKETCH, pos)).run(node_limit=6_000_000, stall=30_000)
    assert limited.log[1].startswith("beam: ")   # with a limit the beam comes first, then branch and bound
    stalled = [i for i, m in enumerate(limited.log)
               if m.startswith("branch and bound: no better answer within 30,000 positions")]
    assert len(stalled) == 1 and limited.log[stalled[0] + 1].startswith("1 move: none")
    # then the deepening proves seed 2's optimum (since the no-bare three-move test, within 1.6 million)
    assert (limited.proven, len(limited.moves), limited.bound) == (True, 5, 5) and limited.nodes < 6_000_000


@pytest.mark.slow
def test_beam_finds_shorter_answers_that_replay():
    """The beam (upper bounds) turns the first finish of the sketch board's seed 4 (22 moves) into an
    answer at most half as long, which the checker replays to one stone on a target."""
    from powertwo.solvers.jump import replay_reverse
    from powertwo.solvers.jump.kernel import chains

    pos = sketch_seed(4)
    ks = KernelSearch(SKETCH, pos)
    status, jumps = ks.search(None)
    first = chains(jumps)
    assert status == FOUND and len(first) == 22
    best = ks.beam(first, None, 5_000_000)
    fault, left = replay_reverse(SKETCH, pos, best)
    assert fault is None and len(left) == 1 and ks.setup.targets >> (min(left) - 1) & 1
    assert 2 * len(best) <= len(first)
    assert ks.beam(best, None, 0) == best        # no positions to spend: the answer comes back as it was


def test_interpreted_kernel_visits_the_same_positions(monkeypatch):
    """The bench's speed ratio compares like with like: the kernel run by the interpreter
    (``NUMBA_DISABLE_JIT=1``, a subprocess) searches the same positions and fills the table the same."""
    monkeypatch.syspath_prepend(str(RESULTS.parent))
    from bench.jump import interpreted_sample, kernel_sample

    slow, fast = interpreted_sample("english", 5000), kernel_sample("english", 5000)
    assert slow["positions"] == fast["positions"] == 5000
    assert slow["entries"] == fast["entries"] > 0


def test_checker_refuses_unknown_fields_and_checks_the_benchmark_seed():
    """Every field of a jump file is checked or refused: an unknown one is named; a benchmark
    file's ``seed`` must give its position again, and ``chain_steps`` its count of chain steps."""
    forward = dict(committed("jump-forward"), colour="blue")
    with pytest.raises(SolutionError, match=r"^jump-forward: unknown field 'colour' \(the checker cannot verify it\)$"):
        check_forward(forward, P2)
    bench = committed("jump-bench-2")
    assert check_reverse(bench, P2, reprove=False).valid
    with pytest.raises(SolutionError,
                       match=r"^jump-reverse: field 'engine' is 'gurobi', not one of kernel, python, sat, census, "
                             r"census-table$"):
        check_reverse(dict(bench, engine="gurobi"), P2, reprove=False)
    report = check_reverse(dict(bench, seed=3), P2, reprove=False)
    other = names(solve_forward(P2, seed=3)["final_position"])
    assert report.faults == (f"seed 3: the seeded forward answer ends on {other}, not on the position given",)
    report = check_reverse(dict(bench, chain_steps=bench["chain_steps"] + 1), P2, reprove=False)
    assert report.faults == (f"chain_steps {bench['chain_steps'] + 1}: the seeded forward answer has "
                             f"{bench['chain_steps']} steps with chains",)


def test_forward_bound_proves_the_netzwerk_board_impossible():
    """On the Netzwerk board (85 nodes) the jumper, from any node, lands on at most 16 nodes (a jump
    goes two steps along a line) and places stones only on the nodes it jumps over from there: at
    most 25 stones, so no forward answer of 32, refused as impossible before any search. On the
    Power of Two board the same bound allows 53."""
    from powertwo.solvers.jump import ForwardImpossible
    from powertwo.solvers.jump.forward import forward_bound

    net = load("netzwerk")
    corner = net.node("e06")
    bound = forward_bound(net, corner)
    reach, todo = {corner}, [corner]      # the landings, counted again: every jump from a landing
    while todo:
        a = todo.pop()
        for f, _, t in net.jumps:
            if f == a and t not in reach:
                reach.add(t)
                todo.append(t)
    over = {o for f, o, _ in net.jumps if f in reach}
    assert (bound.landings, bound.placeable, bound.exclusive) == (tuple(sorted(reach)), tuple(sorted(over)), ())
    assert (bound.most, len(reach), len(over)) == (25, 16, 24) == (1 + len(over), 16, 24)
    assert max(forward_bound(net, v).most for v in net.nodes) == 25
    assert forward_bound(P2, P2.node("a13")).most == 53
    with pytest.raises(ForwardImpossible, match=r"^jump-forward: no sequence of 31 steps exists on board netzwerk: "
                                                r"at most 25 stones: from corner e06 the jumper lands on 16 nodes "
                                                r"and can place stones on 24$"):
        solve_forward(net, corner="e06")


@pytest.mark.parametrize("puzzle", ["jump-forward", "jump-reverse"])
def test_clicks_only_offer_what_the_checker_accepts(puzzle):
    """Random games by clicks (the workbench's click puzzle): every node offered as next is
    accepted, every other node is refused, and the answer so far always replays in the checker."""
    import random

    from powertwo.solvers.jump import check_forward, replay_forward, replay_reverse
    from powertwo.solvers.jump import clicks as jc

    origin = P2.node("a13") if puzzle == "jump-forward" else committed("jump-reverse")["position"]
    rng = random.Random(7)
    for _ in range(3):
        state = jc.replay(P2, puzzle, origin, [])
        for _ in range(80):
            if not state.next:
                break
            refused = [v for v in P2.nodes if v not in state.next]
            for v in rng.sample(refused, 3):
                with pytest.raises(jc.IllegalClick):
                    jc.click(P2, state, v)
            chains = jc.click(P2, state, rng.choice(state.next))
            state = jc.replay(P2, puzzle, origin, jc.entries(puzzle, chains))
            done = [(s, list(js)) for s, js in state.complete]
            if puzzle == "jump-forward":
                assert replay_forward(P2, origin, done)[0] is None
            else:
                assert replay_reverse(P2, origin, done)[0] is None
        if puzzle == "jump-forward" and len(state.stones) == 32:
            assert check_forward(state.file(P2, origin), P2).valid
        if state.chains:  # undo takes back exactly the last click's landing (with its step or move)
            start, landings = state.chains[-1]
            expected = state.chains[:-1] + (((start, landings[:-1]),) if len(landings) > 1 else ())
            assert jc.undo(state) == expected


def test_loading_the_kernel_is_announced_once_per_process():
    """Numba loads (or, on a machine's first run, compiles) the kernel when the first search of a
    process is set up: that search's progress says so, later ones do not."""
    code = ("from powertwo.boards import load; from powertwo.solvers.jump.kernel import KernelSearch; "
            "board = load('power-of-two'); said = []; "
            "[KernelSearch(board, [1, 2, 4], progress=said.append) for _ in range(2)]; print(said)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == repr([KERNEL_LOADING])


@pytest.mark.parametrize("workers", [1, 2])
def test_a_time_limit_holds_on_positions_where_a_walk_turn_takes_seconds(workers):
    """On a hard position of the sketch board (seed 117: 5 moves are refuted after about 2 minutes) a
    walk's turn of 2 million positions takes 5-15 s of a thread's CPU; a timer cuts it into ticks,
    so a 3 s limit ends the run within a fraction of a second (before, it ended after 5.2 s with one
    thread and 6.3 s with two), the last step saying that the limit was reached.

    Measured in CPU seconds, not on the clock: a thread spends at most the wall time it runs, so a
    run cut at its limit spends at most ``workers`` times the limit and a tick whatever the machine's
    load (which only stretches the clock), while a turn left uncut spends 5-15 s a thread."""
    start = sketch_seed(117)
    ks = KernelSearch(SKETCH, start, workers=workers)
    began = time.process_time()
    res = ks.run(time_limit=3.0)
    assert time.process_time() - began < workers * 4.5, res.log
    assert not res.proven
    assert res.log[-1].startswith(f"time or position limit reached while searching {res.bound} moves")
    if res.moves is not None:  # branch and bound had a quarter of the limit: the log says that this ended it
        assert any(m.startswith("branch and bound: no better answer within its share of the limit (") for m in res.log)


def test_a_table_growth_that_would_end_after_the_deadline_is_not_begun():
    """Doubling a table of 64 million slots took 5.9 s and ran past a 60 s limit (seed 120 ended
    after 65.5 s). A growth foreseen to end after the deadline is not begun: the tables stay as they
    are (frozen) for the rest of that search; without a deadline, or in the next search, they grow."""
    ks = KernelSearch(P2, [1, 2, 4])
    slots = ks.hashes.tk.shape[0]
    ks.counts[TT_ENTRIES] = slots           # the transposition table reads as full: a growth is due
    ks.rehash_seconds = 1e-3      # foreseen: 65 s for 65,536 slots
    ks._grow(time.perf_counter() + 10)
    assert ks.frozen and ks.hashes.tk.shape[0] == slots and ks._limits() == (1 << 62, 1 << 62)
    ks._grow(None)                # frozen: not even without a deadline, until the next search
    assert ks.hashes.tk.shape[0] == slots
    ks.search(2)
    assert not ks.frozen
    ks.counts[TT_ENTRIES] = slots
    ks._grow(time.perf_counter() + 100)   # it would end in time
    assert ks.hashes.tk.shape[0] == 2 * slots
    ks.counts[TT_ENTRIES] = 2 * slots
    ks._grow(None)
    assert ks.hashes.tk.shape[0] == 4 * slots and not ks.frozen
