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
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

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


def refute(clauses: Sequence[Sequence[int]], trimmed: bool = False) -> tuple[bool, str, float]:
    """Solve ``clauses`` with proof logging: ``(satisfiable, proof_text, seconds)``. With
    ``trimmed`` the proof is CaDiCaL's LRAT trace cut to the lemmas the empty clause needs, written as
    DRAT with every clause deleted after its last use (:func:`trimmed_drat`): the same checker, a
    shorter proof and a much faster check for long refutations."""
    from pysat.solvers import Solver

    started = time.perf_counter()
    if any(len(c) == 0 for c in clauses):  # trivially unsatisfiable: the empty clause is the proof
        return False, "0\n", time.perf_counter() - started
    if trimmed:
        sat, lrat = _refute_lrat(clauses)
        return sat, "" if sat else trimmed_drat(clauses, lrat), time.perf_counter() - started
    with Solver(name=SOLVER, bootstrap_with=[list(c) for c in clauses], with_proof=True) as solver:
        sat = solver.solve()
        proof = "" if sat else "\n".join(solver.get_proof()) + "\n"
    return bool(sat), proof, time.perf_counter() - started


def _refute_lrat(clauses: Sequence[Sequence[int]]) -> tuple[bool, str]:
    """CaDiCaL with an LRAT trace in text (PySAT opens a DRAT trace itself, so the trace is set up
    here, with CaDiCaL's options ``lrat`` and ``binary`` set before it starts)."""
    import tempfile

    import pysolvers  # type: ignore[import-not-found]  # PySAT's C extension
    from pysat.solvers import Solver

    with tempfile.TemporaryFile() as trace, Solver(name=SOLVER) as solver:
        inner: Any = solver.solver
        pysolvers.cadical195_set(inner.cadical, "lrat", 1)
        pysolvers.cadical195_set(inner.cadical, "binary", 0)
        inner.prfile = trace
        inner.prfp = pysolvers.cadical195_tracepr(inner.cadical, trace)
        solver.append_formula([list(c) for c in clauses])
        sat = bool(solver.solve())
        inner.prfile = None  # the trace is ours: PySAT must not close or read it
        trace.flush()
        trace.seek(0)
        text = "" if sat else trace.read().decode("ascii")
    return sat, text


def trimmed_drat(clauses: Sequence[Sequence[int]], lrat: str) -> str:
    """The DRAT proof inside an LRAT refutation of ``clauses``: only the
    lemmas the empty clause depends on (through the hints), in their order, and after each lemma
    the deletion of every clause (input or lemma) it used for the last time. Each kept lemma is RUP
    on its hints, which are all present when it is added, so dratify accepts it as it accepts the
    untrimmed proof; the deletions keep the checker's clause set small."""
    lemmas: dict[int, tuple[list[str], list[int]]] = {}
    empty = None
    for line in lrat.splitlines():
        parts = line.split()
        if len(parts) < 2 or parts[1] == "d":
            continue
        cid, end = int(parts[0]), parts.index("0", 1)
        lemmas[cid] = (parts[1:end], [abs(int(h)) for h in parts[end + 1:-1]])
        if end == 1:
            empty = cid
            break
    if empty is None:
        raise CertificateError("the LRAT trace derives no empty clause")
    # the input clauses take the ids no lemma takes, in order (CaDiCaL numbers the units it derives
    # while the input is added between the input clauses)
    inputs: dict[int, Sequence[int]] = {}
    cid = 0
    for clause in clauses:
        cid += 1
        while cid in lemmas:
            cid += 1
        inputs[cid] = clause
    needed, stack = set(), [empty]
    while stack:
        cid = stack.pop()
        if cid not in needed:
            needed.add(cid)
            stack += lemmas[cid][1] if cid in lemmas else []
    kept = sorted(c for c in needed if c in lemmas)
    last_use = {h: cid for cid in kept for h in lemmas[cid][1]}
    retire: dict[int, list[int]] = {}
    for h, cid in last_use.items():
        retire.setdefault(cid, []).append(h)

    def text(cid: int) -> str:
        lits = lemmas[cid][0] if cid in lemmas else [str(v) for v in inputs[cid]]
        return " ".join(lits + ["0"])

    out = []
    for cid in kept:
        out.append(text(cid))
        if cid != empty:
            out += [f"d {text(h)}" for h in sorted(retire.get(cid, ())) if h != cid]
    return "\n".join(out) + "\n"


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
                  top: int = 0, engine: str = "auto", trimmed: bool = False) -> Certificate:
    """Prove ``clauses`` unsatisfiable with a DRAT proof (``trimmed``: see :func:`refute`) and check
    it; raises :class:`CertificateError` if the formula has a model."""
    text = dimacs(clauses, comments, top)
    sat, proof, solve_seconds = refute(clauses, trimmed)
    if sat:
        raise CertificateError(f"cannot certify {claim!r}: the formula is satisfiable")
    ok, verdict, check_seconds = check(text, proof, engine)
    return Certificate(claim=claim, cnf=text, proof=proof, verified=ok, verdict=verdict,
                       solve_seconds=solve_seconds, check_seconds=check_seconds)


def write_text(path: Path, text: str) -> None:
    """Write a certificate file; a name ending in ``.gz`` is gzipped deterministically (no time
    stamp, no file name: the same text gives the same bytes)."""
    import gzip

    from powertwo.boards.outfile import write_bytes

    data = text.encode("utf-8")
    write_bytes(path, gzip.compress(data, compresslevel=9, mtime=0) if path.name.endswith(".gz") else data)


def read_text(path: Path) -> str:
    """A certificate file's text (gunzipped when its name ends in ``.gz``); raises ``ValueError``
    saying what is wrong with a file that is not (gzipped) text."""
    import gzip

    data = path.read_bytes()
    try:
        if path.name.endswith(".gz"):
            data = gzip.decompress(data)
        return data.decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise ValueError(f"{path.name} is not a {'gzipped ' if path.name.endswith('.gz') else ''}text file "
                         f"({err})") from None
