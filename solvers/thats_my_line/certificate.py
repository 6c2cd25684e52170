"""The DRAT certificate of a That's My Line optimum ("no legal game ends with one stone more") and
the check of a solution file's certificate fields."""

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

def _certificate_clauses(board: Board, supply: Supply, optimum: int) -> tuple[str, list[list[int]], list[str], int]:
    """The claim "no legal game ends with ``optimum + 1`` stones", its clauses (the SAT encoding
    without symmetry breaking plus the unit clause "at least optimum + 1 stones"), the DIMACS
    comments and the top variable."""
    sm = sat_model(board, supply, symmetry=False)
    claim = (f"no legal That's My Line game on board {board.name} ({supply_text(supply)} stones per side) "
             f"ends with {optimum + 1} stones")
    if optimum + 1 > len(sm.at_least):
        raise SolutionError(f"{PUZZLE}: {optimum + 1} stones do not fit on board {board.name}")
    clauses = [list(c) for c in sm.clauses] + [[sm.at_least[optimum]]]
    comments = [f"powertwo certificate: {claim}", "the CNF is UNSAT (no symmetry-breaking clauses)"]
    return claim, clauses, comments, sm.vpool.top


def certificate_cnf(board: Board, supply: Supply, optimum: int) -> tuple[str, str]:
    """The claim the optimum needs proved and its CNF in DIMACS."""
    claim, clauses, comments, top = _certificate_clauses(board, supply, optimum)
    return claim, dimacs(clauses, comments, top)


def certify_optimum(board: Board, supply: Supply, optimum: int, engine: str = "auto") -> Certificate:
    """The DRAT certificate of :func:`certificate_cnf`'s claim, refuted by CaDiCaL and checked by
    dratify (``engine``: see :func:`powertwo.solvers.certify.check`)."""
    claim, clauses, comments, top = _certificate_clauses(board, supply, optimum)
    return certify_unsat(clauses, claim, comments, top=top, engine=engine)



def _read_gzip(path: Path, where: str, field: str) -> str:
    import gzip

    try:
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise SolutionError(f"{where}: field '{field}': {path.name} is not a gzipped text file ({err})") from None


def check_certificate(data: Mapping, board: Board, supply: Supply, optimum: int | None, base: Path | None,
                      faults: list[str], notes: list[str]) -> None:
    """The fields ``certified`` and ``certificate``: the named CNF must be this tool's encoding of
    the claim the optimum needs, and dratify must accept the named proof of it."""
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
    if optimum is None:
        faults.append("gives a certificate, but the file proves no optimum")
        return
    own_claim, own_cnf = certificate_cnf(board, supply, optimum)
    before = len(faults)
    faults += statement_faults(cert, claim, verdict, own_claim, "the optimum")
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


def write_gzip(path: Path, text: str) -> None:
    """Deterministic gzip (no time stamp, no file name): the same text gives the same bytes."""
    import gzip

    from powertwo.boards.outfile import write_bytes

    write_bytes(path, gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))


