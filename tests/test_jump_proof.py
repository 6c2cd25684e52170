"""The jump-reverse answer's proof field ``{kind, bound, engine}``: the checker holds it to the file
(its bound and engine), to the kinds each engine gives, and recomputes or re-proves it; the status
rules are those of every puzzle family. Each mutation of the committed answer is refused with its
exact reason, and an earlier version's free-text proof is refused as such."""

import copy
import json
from pathlib import Path

import pytest
from powertwo.boards import load
from powertwo.solvers.jump import (
    ENGINES,
    PROOF_KINDS,
    Proof,
    ReverseAnswer,
    check_reverse,
    solve_reverse,
)
from powertwo.solvers.jump.proof import KINDS_BY_ENGINE, bound_proof
from powertwo.solvers.jump.tables import english_board, node_at
from powertwo.solvers.registry import SolutionError, check_file
from powertwo.solvers.registry import check_answer_shape

RESULTS = Path(__file__).resolve().parent.parent / "results"
P2 = load("power-of-two")
ENGLISH = english_board()
CENTRE = node_at(ENGLISH, 0, 0)


def committed() -> dict:
    return json.loads((RESULTS / "jump-reverse.json").read_text(encoding="utf-8"))


def mutated(**changes) -> dict:
    """The committed answer (optimal in 4 moves, proven by the kernel's exhausted search) with
    ``changes``; ``proof_*`` keys change the proof's fields."""
    data = copy.deepcopy(committed())
    for key, value in changes.items():
        if key.startswith("proof_"):
            data["proof"][key.removeprefix("proof_")] = value
        else:
            data[key] = value
    return data


def test_the_committed_answer_carries_a_structured_proof_that_is_re_proved():
    data = committed()
    assert data["proof"] == {"kind": "exhausted search", "bound": 4, "engine": "kernel"}
    report = check_reverse(data, P2)
    assert report.valid
    assert report.notes[-1] == "status optimal; bound 4 re-proved: the checker's kernel finds no finish within 3 moves"


@pytest.mark.parametrize("changes, fault", [
    ({"proof_bound": 99}, "proof bound 99 does not match the file's bound 4"),
    ({"proof_bound": 3}, "proof bound 3 does not match the file's bound 4"),
    ({"proof_kind": "admissible bound"},
     "proof kind 'admissible bound': the unjumpable stones and Merson regions need 1 move, not 4"),
    ({"proof_kind": "move-set model"},
     "proof kind 'move-set model': the kernel engine gives no such proof (it gives 'admissible bound', "
     "'exhausted search', 'position classes and pagodas')"),
    ({"proof_kind": "position classes and pagodas"},
     "proof kind 'position classes and pagodas' shows only that no finish exists, but the status is optimal"),
    ({"proof_engine": "sat"}, "proof engine sat does not match the file's engine kernel"),
    ({"proof_engine": "sat", "engine": "sat"},
     "proof kind 'exhausted search': the sat engine gives no such proof (it gives 'admissible bound', "
     "'move-set model', 'position classes and pagodas')"),
    ({"proof_engine": "census", "engine": "census"},
     "proof kind 'exhausted search': the census engine gives no such proof (it gives 'census')"),
    ({"status": "feasible"}, "status feasible with bound 4 equal to the objective: that is optimal"),
    ({"status": "unknown", "moves": [], "proof": None},
     "status unknown but objective 4: without an answer the objective is null"),
    ({"status": "infeasible", "moves": [], "objective": None, "proof_kind": "census", "proof_engine": "census"},
     "proof engine census does not match the file's engine kernel"),
], ids=["bound-99", "bound-3", "kind-admissible", "kind-of-another-engine", "kind-infeasible-only",
        "engine-other", "engine-and-kind", "engine-census", "feasible-is-optimal", "unknown-objective",
        "census-by-the-kernel"])
def test_every_wrong_proof_or_status_is_refused_with_its_reason(changes, fault):
    report = check_reverse(mutated(**changes), P2, reprove=False)
    assert report.faults == (fault,)


def test_a_claim_without_a_proof_is_proven_by_the_checker_itself():
    """A hand-written answer need not say how its bound is proven: the checker's own search proves
    it, or refutes it (here "infeasible" for a position with a finish)."""
    report = check_reverse(mutated(proof=None), P2)
    assert report.valid and report.notes[-1] == (
        "status optimal; bound 4 re-proved: the checker's kernel finds no finish within 3 moves")
    report = check_reverse(mutated(status="infeasible", moves=[], objective=None, bound=32, proof=None), P2)
    assert len(report.faults) == 1
    assert report.faults[0].startswith("status infeasible but a finish exists: the checker found one in ")


def test_a_true_weaker_claim_still_names_what_proves_it():
    """A feasible answer whose bound is lower than proven is true: the proof of the lower bound is
    re-proved (here the admissible bound, recomputed)."""
    data = mutated(status="feasible", bound=1, proof_bound=1, proof_kind="admissible bound")
    report = check_reverse(data, P2)
    assert report.valid and report.notes[-1] == "status feasible; bound 1 recomputed: the admissible bound is 1"


def test_a_false_bound_with_a_well_formed_proof_is_re_proved_false():
    data = mutated(bound=5, proof_bound=5, objective=4)
    assert check_reverse(data, P2).faults == ("bound 5 exceeds the 4 moves found",)


def test_infeasible_by_position_classes_is_recomputed():
    """On the English board the position classes fix where the last stone can stand: two stones in
    the middle can end on four nodes (5, 21, 24, 27), never on the centre (17). A claim that they
    leave none is refuted by recomputing them; with the centre as the target they do leave none."""
    position = sorted(node_at(ENGLISH, x, y) for x, y in [(0, 0), (0, 1)])
    claim = {"puzzle": "jump-reverse", "position": position, "moves": [], "status": "infeasible",
             "objective": None, "bound": 2, "engine": "kernel",
             "proof": {"kind": "position classes and pagodas", "bound": 2, "engine": "kernel"}}
    report = check_reverse(claim, ENGLISH)
    assert report.faults == ("proof kind 'position classes and pagodas': they leave 5, 21, 24, 27 for the last stone",)
    truly = solve_reverse(ENGLISH, position=position, target=CENTRE)
    assert truly["status"] == "infeasible"
    assert truly["proof"] == {"kind": "position classes and pagodas", "bound": 2, "engine": "kernel"}
    assert check_reverse(truly, ENGLISH).notes == (
        "infeasible confirmed: the position classes and pagodas leave no node for the last stone",)


@pytest.mark.parametrize("proof, message", [
    ("exhausted search: no finish within 99 moves",
     "jump-reverse: field 'proof' is free text (an answer file of an earlier version), which nothing can check: "
     "solve the position again for a proof {kind, bound, engine}"),
    ({"kind": "guess", "bound": 4, "engine": "kernel"},
     "jump-reverse: field 'proof': field 'kind' is 'guess', not one of admissible bound, exhausted search, "
     "move-set model, position classes and pagodas, census, fewest-moves table"),
    ({"kind": "exhausted search", "bound": 4, "engine": "kernel", "by": "hand"},
     "jump-reverse: unknown field 'proof.by' (the checker cannot verify it)"),
    ({"kind": "exhausted search", "bound": 4}, "jump-reverse: field 'proof': missing field 'engine'"),
    (["exhausted search", 4, "kernel"], "jump-reverse: field 'proof' must be an object {kind, bound, engine} or null"),
])
def test_a_malformed_or_free_text_proof_is_one_line(proof, message):
    with pytest.raises(SolutionError) as err:
        check_reverse(mutated(proof=proof), P2, reprove=False)
    assert str(err.value) == message


def test_check_refuses_an_earlier_versions_file_in_one_line(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps(mutated(proof="exhausted search: no finish within 3 moves")), encoding="utf-8")
    with pytest.raises(SolutionError) as err:
        check_file(path)
    assert str(err.value) == (f"{path}: field 'proof' is free text (an answer file of an earlier version), which "
                              "nothing can check: solve the position again for a proof {kind, bound, engine}")
    with pytest.raises(SolutionError, match=r"^answer.json: unknown field 'proof.by' \(nothing checks it\)$"):
        check_answer_shape(mutated(proof={"kind": "census", "bound": 4, "engine": "census", "by": "hand"}),
                           "answer.json")


def test_each_engine_writes_only_the_kinds_it_gives():
    assert set(KINDS_BY_ENGINE) == set(ENGINES)
    assert {k for kinds in KINDS_BY_ENGINE.values() for k in kinds} == set(PROOF_KINDS)
    assert bound_proof(0, 3, "kernel") is None
    assert bound_proof(3, 3, "sat") == Proof(kind="admissible bound", bound=3, engine="sat")
    assert bound_proof(4, 3, "sat") == Proof(kind="move-set model", bound=4, engine="sat")
    assert bound_proof(4, 3, "python") == Proof(kind="exhausted search", bound=4, engine="python")


def test_the_answer_is_serialised_in_one_place():
    """An answer file's fields come from the typed answer, in a fixed order; run facts only where
    they apply and timings only when asked for."""
    answer = ReverseAnswer(board=P2, start=(3, 1, 2), status="unknown", bound=1, engine="kernel",
                           proof=Proof(kind="admissible bound", bound=1, engine="kernel"), positions_searched=0,
                           answers=((1.23456, 5),), stopped="time limit", seconds=2.0)
    assert list(answer.to_json()) == ["puzzle", "board", "board_fingerprint", "position", "moves", "status",
                                      "objective", "bound", "engine", "proof", "positions_searched", "answers",
                                      "stopped", "seconds"]
    data = answer.to_json(timings=False)
    assert (data["position"], data["objective"], data["proof"]) == (
        [1, 2, 3], None, {"kind": "admissible bound", "bound": 1, "engine": "kernel"})
    assert "seconds" not in data and "answers" not in data
