"""Certified unsatisfiability: a DRAT proof from the SAT solver, checked by ``dratify``.

A solver that says "no better answer exists" asks to be trusted; a certificate
removes the trust. :func:`certify_unsat` runs CaDiCaL 1.9.5 (PySAT,
``with_proof=True``) on a plain CNF - no assumptions, no incremental state - and
hands the formula and the solver's DRAT proof to ``dratify``, a checker that
shares no code with the solver: its Rust engine (``cdclkit[native]``, about 40 times
faster, differentially tested against the Python one) when installed, else its
pure-Python engine; :func:`check` can ask for either. Only the CNF itself is trusted, so
callers must keep clauses a DRAT checker cannot justify (symmetry breaking) out of
it, and test their encodings separately.

Reusable by every puzzle: pass the clauses and a sentence saying what the
unsatisfiability means.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

SOLVER = "cadical195"
"""The SAT solver that refutes every certified claim."""
CHECKER_NAME = re.compile(r"dratify \d+(\.\d+)*\S* \((python|native) engine\)")
"""How a certificate names the checker that accepted it (dratify, either engine)."""
CERTIFICATE_FIELDS = frozenset({"claim", "solver", "checker", "verdict", "cnf_sha256", "proof_sha256", "proof_lines",
                                "solve_seconds", "check_seconds", "cnf", "proof"})
"""Every field of a certificate object in a solution file."""


def statement_faults(cert: Mapping, claim: str, verdict: str, own_claim: str, needs: str) -> list[str]:
    """What a solution file's certificate says, against the checker: its ``claim`` must be
    ``own_claim`` (what ``needs`` proved, e.g. "the optimum"), the solver and checker it names
    must be the ones this tool runs, and its ``verdict`` must say verified."""
    faults = []
    if claim != own_claim:
        faults.append(f"certificate claim {claim[:120]!r} is not what {needs} needs proved: {own_claim!r}")
    solver = cert.get("solver", SOLVER)
    if solver != SOLVER:
        faults.append(f"certificate solver {str(solver)[:40]!r}: the certificates here come from {SOLVER}")
    checker = cert.get("checker")
    if checker is not None and not (isinstance(checker, str) and CHECKER_NAME.fullmatch(checker)):
        faults.append(f"certificate checker {str(checker)[:60]!r} is not dratify (the checker this tool runs)")
    if not verdict.startswith("VERIFIED"):
        faults.append(f"certificate verdict {verdict[:60]!r}: the proof is not verified")
    return faults


class CertificateError(ValueError):
    """The formula to be certified unsatisfiable has a model (the claim is false)."""


@dataclass(frozen=True)
class Certificate:
    """A checked proof: ``cnf`` (DIMACS text with comment header), ``proof`` (DRAT text),
    ``verified`` and ``verdict`` (the checker's words), and timings."""

    claim: str
    cnf: str
    proof: str
    verified: bool
    verdict: str
    solve_seconds: float
    check_seconds: float

    @property
    def cnf_sha256(self) -> str:
        return sha256(self.cnf)

    @property
    def proof_sha256(self) -> str:
        return sha256(self.proof)

    def summary(self) -> dict:
        """The fields a result file records."""
        return {
            "claim": self.claim,
            "solver": SOLVER,
            "checker": checker_name(),
            "verdict": self.verdict,
            "cnf_sha256": self.cnf_sha256,
            "proof_sha256": self.proof_sha256,
            "proof_lines": self.proof.count("\n"),
            "solve_seconds": round(self.solve_seconds, 3),
            "check_seconds": round(self.check_seconds, 3),
        }


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


ENGINES = ("auto", "native", "python")


def _native_registered() -> bool:
    """Importing ``cdclkit`` registers its Rust checker with dratify (when it is installed)."""
    import dratify

    try:
        import cdclkit  # noqa: F401
    except ImportError:
        pass
    return bool(dratify.native_available())


def checker_name(engine: str = "auto") -> str:
    import dratify

    if engine == "auto":
        engine = "native" if _native_registered() else "python"
    return f"dratify {dratify.__version__} ({engine} engine)"


def dimacs(clauses: Sequence[Sequence[int]], comments: Iterable[str] = (), top: int = 0) -> str:
    """DIMACS CNF text; ``comments`` become ``c`` lines before the header; ``top`` is the least
    variable count to declare (auxiliary variables may not all occur)."""
    nv = max([top] + [abs(lit) for c in clauses for lit in c])
    out = [f"c {line}".rstrip() for text in comments for line in text.splitlines()]
    out.append(f"p cnf {nv} {len(clauses)}")
    out += [" ".join(map(str, c)) + " 0" if c else "0" for c in clauses]
    return "\n".join(out) + "\n"


def refute(clauses: Sequence[Sequence[int]]) -> tuple[bool, str, float]:
    """Solve ``clauses`` with proof logging: ``(satisfiable, proof_text, seconds)``."""
    from pysat.solvers import Solver

    started = time.perf_counter()
    if any(len(c) == 0 for c in clauses):  # trivially unsatisfiable: the empty clause is the proof
        return False, "0\n", time.perf_counter() - started
    with Solver(name=SOLVER, bootstrap_with=[list(c) for c in clauses], with_proof=True) as solver:
        sat = solver.solve()
        proof = "" if sat else "\n".join(solver.get_proof()) + "\n"
    return bool(sat), proof, time.perf_counter() - started


_VERDICTS: dict[tuple[str, str, str], tuple[bool, str, float]] = {}
"""dratify's verdicts in this process, by (formula hash, proof hash, engine): the same bytes are
never checked twice (a results job checks each proof it wrote again through the file checker;
a test checks one file under many mutations). The checker is deterministic, so a verdict for
identical input is that input's verdict."""
VERDICTS_KEPT = 32


def check(cnf_text: str, proof_text: str, engine: str = "auto") -> tuple[bool, str, float]:
    """``dratify``'s verdict on a DIMACS formula and a DRAT proof: ``(ok, verdict, seconds)``.
    ``engine``: ``"native"`` (Rust, from ``cdclkit[native]``), ``"python"``, or ``"auto"`` (native
    when installed). ``seconds`` is the time of the check that gave the verdict (an identical
    formula and proof checked earlier in this process is not checked again)."""
    from dratify import check_proof, parse_dimacs

    if engine not in ENGINES:
        raise ValueError(f"dratify engine {engine!r}: use one of {', '.join(ENGINES)}")
    key = (sha256(cnf_text), sha256(proof_text), engine)
    if key in _VERDICTS:
        return _VERDICTS[key]
    if engine != "python":
        _native_registered()
    started = time.perf_counter()
    try:
        result = check_proof(parse_dimacs(cnf_text), proof_text, engine=engine)
    except ValueError as exc:  # malformed proof or formula
        return False, f"REJECTED: {exc}", time.perf_counter() - started
    verdict = ("VERIFIED: " if result.ok else "REJECTED: ") + result.reason
    if len(_VERDICTS) >= VERDICTS_KEPT:
        _VERDICTS.pop(next(iter(_VERDICTS)))
    _VERDICTS[key] = out = (bool(result.ok), verdict, time.perf_counter() - started)
    return out


def certify_unsat(clauses: Sequence[Sequence[int]], claim: str, comments: Iterable[str] = (),
                  top: int = 0, engine: str = "auto") -> Certificate:
    """Prove ``clauses`` unsatisfiable with a DRAT proof and check it; raises
    :class:`CertificateError` if the formula has a model."""
    text = dimacs(clauses, comments, top)
    sat, proof, solve_seconds = refute(clauses)
    if sat:
        raise CertificateError(f"cannot certify {claim!r}: the formula is satisfiable")
    ok, verdict, check_seconds = check(text, proof, engine)
    return Certificate(claim=claim, cnf=text, proof=proof, verified=ok, verdict=verdict,
                       solve_seconds=solve_seconds, check_seconds=check_seconds)
