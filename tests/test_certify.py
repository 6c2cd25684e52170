"""DRAT certificates: the committed proofs are accepted by dratify against the CNF rebuilt from
the board, tampered proofs and wrong formulas are rejected, and satisfiable claims refuse to certify."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

from powertwo.boards import load
from powertwo.solvers import certify, lines as lp

RESULTS = Path(__file__).resolve().parent.parent / "results"
BOARD = load("power-of-two")
NAMES = ("one-by-one", "line-cover", pytest.param("two-by-two", marks=pytest.mark.slow), "two-by-two-strict",
         "two-by-two-at-most", "two-by-two-strict-at-most")
"""The 32-stone Two by Two proof is 840,556 lines: dratify takes minutes on a loaded machine."""


def pigeonhole(holes: int) -> list[list[int]]:
    """holes + 1 pigeons in ``holes`` holes: unsatisfiable."""
    var = {(p, h): p * holes + h + 1 for p in range(holes + 1) for h in range(holes)}
    clauses = [[var[p, h] for h in range(holes)] for p in range(holes + 1)]
    for h in range(holes):
        for p, q in combinations(range(holes + 1), 2):
            clauses.append([-var[p, h], -var[q, h]])
    return clauses


def test_pigeonhole_is_certified():
    cert = certify.certify_unsat(pigeonhole(4), "5 pigeons do not fit in 4 holes", ["pigeonhole 5/4"])
    assert cert.verified
    assert cert.verdict.startswith("VERIFIED")
    assert cert.cnf.startswith("c pigeonhole 5/4\np cnf 20 ")
    assert cert.summary()["cnf_sha256"] == certify.sha256(cert.cnf)


def test_satisfiable_formula_is_not_certified():
    with pytest.raises(certify.CertificateError, match="the formula is satisfiable"):
        certify.certify_unsat([[1, 2], [-1]], "nothing")


def test_empty_clause_formula():
    ok, verdict, _ = certify.check(certify.dimacs([[1], []]), "0\n")
    assert ok, verdict


def test_tampered_proof_is_rejected():
    cnf = pigeonhole(4)
    text = certify.dimacs(cnf)
    sat, proof, _ = certify.refute(cnf)
    assert not sat
    first = certify.check(text, proof)
    assert first[0]
    assert certify.check(text, proof) == first  # the same bytes again: the verdict kept, not re-checked
    # after a verdict is kept, anything else is still checked on its own
    lemmas = [line for line in proof.splitlines() if line and not line.startswith("d")]
    assert not certify.check(text, "\n".join(lemmas[-1:]) + "\n")[0]  # the empty clause alone is not RUP
    # the same proof against a weaker formula (one pigeon may stay out) fails
    assert not certify.check(certify.dimacs(cnf[1:]), proof)[0]


@pytest.mark.parametrize("name", NAMES)
def test_committed_certificate_is_accepted_by_dratify(name):
    from powertwo.solvers.lines.backends import certificate_cnf

    data = json.loads((RESULTS / f"{name}.json").read_text())
    summary = data["certificate"]
    cnf_text = certify.read_text(RESULTS / summary["cnf"])
    proof_text = certify.read_text(RESULTS / summary["proof"])
    assert certify.sha256(cnf_text) == summary["cnf_sha256"]
    assert certify.sha256(proof_text) == summary["proof_sha256"]
    # the CNF is the one the encoding gives for "better than the optimum" (or "any answer"), without
    # symmetry breaking, rebuilt from the board without solving
    var = lp.VARIANTS[name]
    claim, rebuilt = certificate_cnf(BOARD, var, data["status"], data["objective"])
    assert rebuilt == cnf_text and claim == summary["claim"]
    ok, verdict, _ = certify.check(cnf_text, proof_text)
    assert ok and verdict == summary["verdict"] and verdict.startswith("VERIFIED")
    assert data["certified"] is True
    if data["status"] == "infeasible":
        assert summary["claim"] == f"{var.family} has no answer on board power-of-two (exactly 32 stones)"
    else:
        better = data["objective"] - 1 if var.sense == "min" else data["objective"] + 1
        assert summary["claim"].endswith(f" {better} {var.unit}")
