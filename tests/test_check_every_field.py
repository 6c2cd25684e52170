"""`check` verifies or refuses every field of a solution file (issue 13 section 1).

A generic walker visits every field of every committed line-puzzle, That's My Line and Get a
Jump On (forward, reverse) result,
mutates it (an int +1, a bool flipped, a string changed, a list entry changed, repeated or
dropped) and requires the checker to print a fault line or refuse the file (exit code 2). The
only mutations allowed through are listed in ``STILL_TRUE`` with the reason the mutated file
still tells the truth. The walker knows nothing about any puzzle: another puzzle's files can be
passed to :func:`walk` as they are.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

from powertwo.solvers.registry import SolutionError, check_file

RESULTS = Path(__file__).resolve().parent.parent / "results"
FILES = ["one-by-one", "line-cover", "two-by-two", "two-by-two-strict", "two-by-two-at-most",
         "two-by-two-strict-at-most", "thats-my-line-16", "thats-my-line-unlimited", "thats-my-line-19-16",
         "jump-forward", "jump-reverse"]
"""Two by Two's table (65 rows, 2,080 answer entries) is mutated field by field on its first rows in
test_two_by_two.py."""
TIMINGS = {"seconds", "solve_seconds", "check_seconds"}
"""Timings say how long a run took on some machine; no mutation of them makes a file false."""
SETTINGS = {"symmetry", "symmetry_breaking"}
"""How the solve was run (with or without symmetry breaking): true either way of the answer."""
SEARCH_LOG = {"positions_searched"}
"""How a Get a Jump On search went (how many positions it visited): a count of the run, not of the
answer. The engine and the proof (kind, bound, engine) are claims: the checker holds them to the file
and recomputes or re-proves them."""


def still_true(path: tuple, label: str, data: dict) -> str | None:
    """Why a mutation leaves the file true (None: it makes the file false)."""
    if path and path[-1] in TIMINGS | SETTINGS:
        return "a timing or a solve setting"
    if path and path[-1] in SEARCH_LOG and data.get("puzzle") == "jump-reverse":
        return "the search's count of positions; the checker re-proves the claim itself"
    if path == ("backends_agreeing",) and label == "drop last":
        return "fewer backends said to agree is a weaker, still true claim"
    if path == ("calls",) and label in ("drop last", "repeat last"):
        return "the SAT calls are a log: a call left out or repeated is still true"
    if path[:1] == ("calls",) and path[-1] == "at_least":
        call = data["calls"][path[1]]
        if call["answer"] == "unsat" or call["at_least"] + 1 <= data["objective"]:
            return "'at least k+1' is still unsat above the optimum, still sat up to the file's own game"
    return None


def mutations(value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, bool):
        yield "flip", not value
    elif isinstance(value, int):
        yield "+1", value + 1
    elif isinstance(value, float):
        yield "+1", value + 1
    elif isinstance(value, str):
        yield "changed", value + "x" if value else "x"
    elif value is None:
        yield "set", "light"
    elif isinstance(value, list) and value:
        yield "drop last", value[:-1]
        yield "repeat last", value + [value[-1]]


def walk(data: Any, path: tuple = ()) -> Iterator[tuple[tuple, str, Any]]:
    """Every (path, mutation label, mutated whole file) of ``data``."""
    node = data
    for key in path:
        node = node[key]
    for label, new in mutations(node):
        if path:
            mutated = copy.deepcopy(data)
            target = mutated
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = new
            yield path, label, mutated
    if isinstance(node, dict):
        for key in node:
            yield from walk(data, path + (key,))
    elif isinstance(node, list):
        for k in range(len(node)):
            yield from walk(data, path + (k,))


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A copy of the certificate files, so mutated result files sit beside them."""
    out = tmp_path_factory.mktemp("results")
    for f in RESULTS.iterdir():
        if f.name.endswith((".cnf", ".drat", ".cnf.gz", ".drat.gz")):
            shutil.copy(f, out / f.name)
    return out


def verdict(folder: Path, data: Any) -> str:
    """``valid``, ``fault: ...`` or ``refused: ...`` for a file's content."""
    path = folder / "mutated.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    try:
        report = check_file(path)
    except SolutionError as exc:
        return f"refused: {exc}"
    return "valid" if report.valid else "fault: " + report.faults[0]


@pytest.mark.slow
@pytest.mark.parametrize("name", FILES)
def test_every_false_mutation_is_caught(name, folder):
    data = json.loads((RESULTS / f"{name}.json").read_text())
    assert verdict(folder, data) == "valid"
    missed, caught, allowed = [], 0, 0
    for path, label, mutated in walk(data):
        result = verdict(folder, mutated)
        if still_true(path, label, data):
            allowed += 1
            continue
        if result == "valid":
            missed.append(f"{'.'.join(map(str, path))} {label}")
        else:
            caught += 1
    assert missed == [], missed
    assert caught > 20


def mutate(data: dict, path: tuple, value: Any = None, delete: bool = False) -> dict:
    out = copy.deepcopy(data)
    target = out
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


LINE_CASES = [
    (("objective",), 17, "fault"),
    (("backends_agreeing",), ["cp-sat", "sat", "gurobi"], "fault"),
    (("certificate", "proof_sha256"), "0" * 64, "fault"),
    (("certificate", "claim"), "no one-by-one answer on board power-of-two with at most 16 stones", "fault"),
    (("certificate", "cnf"), "line-cover.cnf", "fault"),
    (("certificate", "cnf"), "/etc/passwd", "refused"),
    (("certificate", "cnf"), "../results/one-by-one.cnf", "refused"),
    (("certificate",), "yes", "refused"),
    (("certificate", "verdict"), "NOT VERIFIED", "fault"),
    (("certified",), "true", "refused"),
    (("status",), "unknown", "fault"),
    (("bound",), 15, "fault"),
]


def test_certificate_deleted_while_certified(folder):
    data = json.loads((RESULTS / "one-by-one.json").read_text())
    assert verdict(folder, mutate(data, ("certificate",), delete=True)) == \
        "fault: claims certified, but gives no certificate"


def test_unknown_field_is_refused_by_name(folder):
    data = json.loads((RESULTS / "one-by-one.json").read_text())
    assert verdict(folder, dict(data, verified_by="me")) == \
        "refused: one-by-one solution: unknown field 'verified_by' (the checker cannot verify it)"


TML_CASES = [
    (("light_count",), 49, "fault: field 'light_count' is 49, the game ends with 46 light stones"),
    (("passes",), 44, "fault: field 'passes' is 44, the record has 41"),
    (("outcome",), "Light wins", "fault: field 'outcome' 'Light wins' is not how the game ends"),
    (("first_pass",), "light", "fault: field 'first_pass' is light, the record's first pass is by dark"),
    (("optimal_splits",), [{"light": 26, "dark": 26}], "fault: field 'optimal_splits' lists 26-26"),
    (("proofs", "sat", "objective"), 53, "fault: field 'proofs.sat' says optimal 53"),
]


JUMP_CASES = [
    (("proof", "bound"), 99, "fault: proof bound 99 does not match the file's bound 4"),
    (("proof", "kind"), "admissible bound",
     "fault: proof kind 'admissible bound': the unjumpable stones and Merson regions need 1 move, not 4"),
    (("proof", "kind"), "census", "fault: proof kind 'census': the kernel engine gives no such proof"),
    (("proof", "engine"), "sat", "fault: proof engine sat does not match the file's engine kernel"),
    (("engine",), "python", "fault: proof engine kernel does not match the file's engine python"),
    (("status",), "feasible", "fault: status feasible with bound 4 equal to the objective: that is optimal"),
    (("proof",), "exhausted search: no finish within 99 moves", "refused: "),
]
"""Issue 50 item 8: the proof was free text nobody checked, and feasible with bound = objective passed."""


@pytest.mark.parametrize("name, path, value, expected", [("one-by-one", *case) for case in LINE_CASES]
                         + [("thats-my-line-unlimited", *case) for case in TML_CASES]
                         + [("jump-reverse", *case) for case in JUMP_CASES])
def test_issue_mutations(name, path, value, expected, folder):
    data = json.loads((RESULTS / f"{name}.json").read_text())
    assert verdict(folder, mutate(data, path, value)).startswith(expected)


def test_thats_my_line_node_listed_twice(folder):
    data = json.loads((RESULTS / "thats-my-line-unlimited.json").read_text())
    data["dark"] = data["dark"] + [data["dark"][0]]
    assert verdict(folder, data).startswith("fault: field 'dark' does not match the position after move 91 "
                                            "(a node listed twice)")


def test_hand_written_answer_says_what_was_confirmed(folder):
    data = {"puzzle": "one-by-one", "stones": json.loads((RESULTS / "one-by-one.json").read_text())["stones"],
            "status": "optimal", "objective": 12}
    path = folder / "hand.json"
    path.write_text(json.dumps(data))
    assert check_file(path).summary == "12 stones, every line holds exactly one; optimal (cp-sat proves 12)"
