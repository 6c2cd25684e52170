"""That's My Line's optima are DRAT-certified like the line puzzles': the committed proofs check
with both dratify engines, and the results job re-derives the same proof."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from powertwo.boards import load
from powertwo.solvers.certify import check, sha256
from powertwo.solvers.thats_my_line import certify_optimum

RESULTS = Path(__file__).resolve().parents[1] / "results"
BOARD = load("power-of-two")


def committed(stem: str) -> tuple[dict, str, str]:
    data = json.loads((RESULTS / f"{stem}.json").read_text(encoding="utf-8"))
    cert = data["certificate"]
    cnf = gzip.decompress((RESULTS / cert["cnf"]).read_bytes()).decode("utf-8")
    proof = gzip.decompress((RESULTS / cert["proof"]).read_bytes()).decode("utf-8")
    return data, cnf, proof


@pytest.mark.parametrize("stem, optimum", [("thats-my-line-16", 32), ("thats-my-line-unlimited", 50)])
def test_committed_certificate_names_its_files_and_hashes(stem, optimum):
    data, cnf, proof = committed(stem)
    cert = data["certificate"]
    assert data["objective"] == optimum and data["certified"] is True
    assert cert["claim"].endswith(f"ends with {optimum + 1} stones")
    assert sha256(cnf) == cert["cnf_sha256"] and sha256(proof) == cert["proof_sha256"]
    assert cnf.count("\n") > 0 and proof.count("\n") == cert["proof_lines"]


def test_the_16_stone_proof_checks_with_both_engines():
    _, cnf, proof = committed("thats-my-line-16")
    for engine in ("native", "python"):
        ok, verdict, _ = check(cnf, proof, engine)
        assert ok, (engine, verdict)


@pytest.mark.slow
def test_the_unlimited_proof_is_re_derived_identically_and_checks_natively():
    data, cnf, proof = committed("thats-my-line-unlimited")
    cert = certify_optimum(BOARD, None, 50, engine="native")  # ~3 s to solve, ~7 s to check
    assert cert.verified, cert.verdict
    assert cert.cnf == cnf and cert.proof_sha256 == data["certificate"]["proof_sha256"]
    assert cert.proof.count("\n") == data["certificate"]["proof_lines"] == 350755


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("POWERTWO_PYTHON_DRAT"),
                    reason="the pure-Python DRAT check of the 350,755-line proof takes many minutes here; "
                           "set POWERTWO_PYTHON_DRAT=1 to run it")
def test_the_unlimited_proof_checks_with_the_python_engine():
    """Many minutes: the pure-Python engine shares no code with the Rust one."""
    _, cnf, proof = committed("thats-my-line-unlimited")
    ok, verdict, _ = check(cnf, proof, "python")
    assert ok, verdict


def test_a_false_claim_is_not_certified():
    from powertwo.solvers.certify import CertificateError

    with pytest.raises(CertificateError, match="ends with 50 stones"):
        certify_optimum(BOARD, None, 49)  # 50 stones are reachable


def test_a_cut_proof_is_rejected():
    # (the 16-stone formula falls to unit propagation alone: any proof of it passes)
    _, cnf, proof = committed("thats-my-line-unlimited")
    ok, verdict, _ = check(cnf, "\n".join(proof.splitlines()[:2000]) + "\n", "native")
    assert not ok and verdict.startswith("REJECTED")
    with pytest.raises(ValueError, match="dratify engine 'fast'"):
        check(cnf, proof, "fast")
