"""The DRAT certificates of That's My Line: of an optimum ("no legal game ends with one stone
more") and of a score no game reaches ("no legal game ends L to D"), and the check of a solution
file's certificate fields."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from powertwo.boards import Board
from powertwo.models.thats_my_line import Supply, sat_model

from ..certify import CERTIFICATE_FIELDS, Certificate, certify_unsat, checker_name, dimacs, sha256, statement_faults
from ..certify import check as check_drat
from ..fields import bool_field, int_field, known_fields, sibling_file
from ..registry import SolutionError, require
from .game import PUZZLE, supply_text
from .score import Score

Claim = int | Score
"""What a certificate refutes: an ``int`` is an optimum (no legal game ends with one stone more),
a :class:`Score` a result (no legal game ends with it)."""


def _certificate_clauses(board: Board, supply: Supply, claim: Claim) -> tuple[str, list[list[int]], list[str], int]:
    """The claim in words, its clauses (the SAT encoding without symmetry breaking plus unit
    clauses: "at least optimum + 1 stones", or "exactly L Light and D Dark stones"), the DIMACS
    comments and the top variable."""
    sm = sat_model(board, supply, symmetry=False)
    head = f"no legal That's My Line game on board {board.name} ({supply_text(supply)} stones per side) ends with "
    if isinstance(claim, Score):
        try:
            units = [[lit] for lit in sm.score_literals(claim.pair)]
        except ValueError as exc:
            raise SolutionError(f"{PUZZLE}: {exc}") from None
        text = head + f"Light {claim.light} and Dark {claim.dark} stones"
    else:
        if claim + 1 > len(sm.at_least):
            raise SolutionError(f"{PUZZLE}: {claim + 1} stones do not fit on board {board.name}")
        units = [[sm.at_least[claim]]]
        text = head + f"{claim + 1} stones"
    clauses = [list(c) for c in sm.clauses] + units
    comments = [f"powertwo certificate: {text}", "the CNF is UNSAT (no symmetry-breaking clauses)"]
    return text, clauses, comments, sm.vpool.top


def certificate_cnf(board: Board, supply: Supply, claim: Claim) -> tuple[str, str]:
    """The claim an optimum or an unreachable score needs proved, in words, and its CNF in DIMACS."""
    text, clauses, comments, top = _certificate_clauses(board, supply, claim)
    return text, dimacs(clauses, comments, top)


def certify_optimum(board: Board, supply: Supply, claim: Claim, engine: str = "auto") -> Certificate:
    """The DRAT certificate of :func:`certificate_cnf`'s claim (an optimum, or a score no game
    reaches), refuted by CaDiCaL and checked by dratify (``engine``: see
    :func:`powertwo.solvers.certify.check`)."""
    text, clauses, comments, top = _certificate_clauses(board, supply, claim)
    return certify_unsat(clauses, text, comments, top=top, engine=engine)



def _read_gzip(path: Path, where: str, field: str) -> str:
    import gzip

    try:
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise SolutionError(f"{where}: field '{field}': {path.name} is not a gzipped text file ({err})") from None


def check_certificate(data: Mapping[str, Any], board: Board, supply: Supply, optimum: Claim | None, base: Path | None,
                      faults: list[str], notes: list[str]) -> None:
    """The fields ``certified`` and ``certificate``: the named CNF must be this tool's encoding of
    the claim the file's proven optimum (or its unreachable score) needs, and dratify must accept
    the named proof of it."""
    where = PUZZLE
    certified = bool_field(data, "certified", where, default=False)
    if "certificate" not in data:
        if certified:
            faults.append("claims certified, but gives no certificate")
        return
    cert: Any = data["certificate"]
    if not isinstance(cert, Mapping):
        raise SolutionError(f"{where}: field 'certificate' must be an object (claim, verdict, hashes, files)")
    known_fields(cert, CERTIFICATE_FIELDS, where, prefix="certificate.")
    cw = f"{where}: field 'certificate'"
    claim = require(cert, "claim", str, cw)
    verdict = require(cert, "verdict", str, cw)
    cnf_path = sibling_file(base, require(cert, "cnf", str, cw), where, "certificate.cnf")
    proof_path = sibling_file(base, require(cert, "proof", str, cw), where, "certificate.proof")
    if not certified:
        faults.append("gives a certificate, but field 'certified' is not true")
    needs = "the unreachable score" if isinstance(optimum, Score) else "the optimum"
    if optimum is None:
        faults.append("gives a certificate, but the file proves no optimum and no unreachable score")
        return
    own_claim, own_cnf = certificate_cnf(board, supply, optimum)
    before = len(faults)
    faults += statement_faults(cert, claim, verdict, own_claim, needs)
    if _read_gzip(cnf_path, where, "certificate.cnf") != own_cnf:
        faults.append(f"certificate.cnf {cert['cnf']!r} is not the CNF of the claim")
    if cert.get("cnf_sha256", sha256(own_cnf)) != sha256(own_cnf):
        faults.append("certificate cnf_sha256 does not match the CNF of the claim")
    proof = _read_gzip(proof_path, where, "certificate.proof")
    if cert.get("proof_sha256", sha256(proof)) != sha256(proof):
        faults.append(f"certificate proof_sha256 does not match the file {cert['proof']!r}")
    lines = int_field(cert, "proof_lines", cw, required=False, minimum=0)
    if lines is not None and lines != proof.count("\n"):
        faults.append(f"certificate proof_lines {lines}, the file {cert['proof']!r} has {proof.count(chr(10))}")
    if len(faults) > before:
        return
    ok, said, _ = check_drat(own_cnf, proof)
    if ok and verdict != said:
        faults.append(f"certificate verdict {verdict[:80]!r} differs from dratify's: {said!r}")
    elif ok:
        notes.append(f"certificate verified by {checker_name()}: {own_claim}")
    else:
        faults.append(f"certificate.proof {cert['proof']!r} does not refute the claim's CNF: {said}")


def write_certificate(board: Board, supply: Supply, claim: Claim, cnf: Path, proof: Path) -> tuple[Certificate, dict]:
    """Certify ``claim`` (:func:`certify_optimum`), write its CNF and proof to ``cnf`` and ``proof``
    (deterministic gzip), and give the fields ``certified`` and ``certificate`` that name them (no
    timings: those belong to the run). A proof dratify rejects is a :class:`SolutionError`."""
    cert = certify_optimum(board, supply, claim)
    if not cert.verified:
        raise SolutionError(f"{PUZZLE}: the DRAT proof of {cert.claim!r} was rejected: {cert.verdict}")
    write_gzip(cnf, cert.cnf)
    write_gzip(proof, cert.proof)
    summary = {k: v for k, v in cert.summary().items() if not k.endswith("seconds")}
    return cert, {"certified": True, "certificate": summary | {"cnf": cnf.name, "proof": proof.name}}


def write_gzip(path: Path, text: str) -> None:
    """Deterministic gzip (no time stamp, no file name): the same text gives the same bytes."""
    import gzip

    from powertwo.boards.outfile import write_bytes

    write_bytes(path, gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


