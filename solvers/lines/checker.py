"""Checking a line-puzzle solution file: every field is recomputed and compared, confirmed by the
checker's own solve or certificate check, or refused as unknown (a :class:`SolutionError` naming
the field, exit code 2 in the CLI). Timings (``seconds``, ``*_seconds``) and solve settings
(``symmetry_breaking``, ``stopped``) are the only fields taken as given: they say how a run went, not what is
true of the answer.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from powertwo.boards import Board
from powertwo.boards.words import counted
from powertwo.models.cards import line_counts

from ..certify import CERTIFICATE_FIELDS, Certificate, check as check_drat, read_text, sha256, statement_faults
from ..fields import (
    SolutionError, bool_field, choice_field, int_field, known_fields, node_ids, node_list, require, sibling_file,
)
from .answers import Answers, enumerate_cpsat, enumerate_sat
from .backends import BACKENDS, Outcome, certificate_cnf, certify, run, solve_cpsat
from .files import file_variant
from .table import check_table
from .variants import STONES, Variant, stone_limit
from ..registry import CheckReport
from ..status import FEASIBLE, INFEASIBLE, OPTIMAL, STATUSES, UNKNOWN

CHECK_TIME_LIMIT = 300.0
"""Seconds the checker's own solve may take: as long as ``powertwo check``'s own limit, since a
solve cut short is a fault. Two by Two's 32-stone optimum takes the SAT backend 49 s on 2 cores
under load 8-14 and 345 s under load 30, so 60 s judged a true file invalid on a busy machine; the
line puzzles' other optima take CP-SAT and SAT under 2 s."""

TOP_FIELDS = frozenset({
    "puzzle", "board", "board_fingerprint", "backend", "status", "objective", "bound", "stones", "lines_with_two",
    "strict", "stones_rule", "seconds",
    "stone_limit", "symmetry_breaking", "backends_agreeing", "optimal_answers", "optimal_answers_up_to_symmetry",
    "optimal_answers_complete", "answers_up_to_symmetry", "answer_count_backends_agreeing", "certified",
    "certificate", "stopped", *BACKENDS,
})
RUN_FIELDS = frozenset({"status", "objective", "bound", "seconds"})


# ---------------------------------------------------------------------------- the checker's own work (cached)
@lru_cache(maxsize=32)
def confirmed(board: Board, var: Variant, stones: int) -> Outcome:
    """The checker's own solve (CP-SAT, symmetry breaking on), cached per board and variant."""
    return solve_cpsat(board, var, stones=stones, symmetry=True, time_limit=CHECK_TIME_LIMIT)


@lru_cache(maxsize=32)
def confirmed_by(board: Board, var: Variant, stones: int, backend: str) -> Outcome:
    """The checker's own solve by a named backend."""
    if backend == "cp-sat":
        return confirmed(board, var, stones)
    return run(board, var, backend, stones=stones, symmetry=True, time_limit=CHECK_TIME_LIMIT)


def confirmed_by_sat(board: Board, var: Variant, stones: int) -> Outcome:
    return confirmed_by(board, var, stones, "sat")


@lru_cache(maxsize=32)
def confirmed_certificate(board: Board, var: Variant, stones: int, outcome: Outcome) -> Certificate | None:
    return certify(board, var, outcome, stones)


@lru_cache(maxsize=32)
def confirmed_answers(board: Board, var: Variant, stones: int, optimum: int) -> Answers:
    return enumerate_cpsat(board, var, optimum, stones=stones, symmetry=True)


@lru_cache(maxsize=32)
def confirmed_answers_by_sat(board: Board, var: Variant, stones: int, optimum: int) -> Answers:
    return enumerate_sat(board, var, optimum, stones=stones, symmetry=True)


@lru_cache(maxsize=32)
def claim_cnf(board: Board, var: Variant, stones: int, status: str, objective: int | None) -> tuple[str, str]:
    """The claim a proven status and objective need certified, and its CNF (no solving)."""
    return certificate_cnf(board, var, status, objective, stones)


def _file_text(path: Path, where: str, field: str) -> str:
    try:
        return read_text(path)
    except ValueError as err:
        raise SolutionError(f"{where}: field '{field}': {err}") from None


@lru_cache(maxsize=16)
def checked_proof(cnf_text: str, proof_text: str) -> tuple[bool, str]:
    ok, verdict, _ = check_drat(cnf_text, proof_text)
    return ok, verdict


# ---------------------------------------------------------------------------- reading
class _File:
    """The fields of a solution file, each read once with one error for a malformed one."""

    def __init__(self, data: Mapping[str, Any], board: Board) -> None:
        if not isinstance(data, Mapping):
            raise SolutionError("solution: not a JSON object")
        self.var = file_variant(data)
        self.where = where = f"{self.var.puzzle} solution"
        known_fields(data, TOP_FIELDS, where)
        self.stones = node_list(data, "stones", board, where)
        self.limit = STONES if "stone_limit" not in data else \
            stone_limit(int_field(data, "stone_limit", where, minimum=0, maximum=board.size), board)
        self.rule_inferred = self.var.lists_lines and "stones_rule" not in data
        self.status = choice_field(data, "status", STATUSES, where, required=False)
        self.backend = choice_field(data, "backend", BACKENDS, where, required=False)
        self.objective = int_field(data, "objective", where, required=False)
        self.bound = int_field(data, "bound", where, required=False)
        bool_field(data, "symmetry_breaking", where)
        self.certified = bool_field(data, "certified", where)
        if "seconds" in data and (isinstance(data["seconds"], bool) or not isinstance(data["seconds"], (int, float))):
            raise SolutionError(f"{where}: field 'seconds' must be a number")
        self.lines: list[int] | None = None
        if self.var.lists_lines and "lines_with_two" in data:
            texts = {board.line_text(k): k for k in range(len(board.lines))}
            self.lines = []
            for text in require(data, "lines_with_two", list, where):
                if not isinstance(text, str) or text not in texts:
                    raise SolutionError(f"{where}: field 'lines_with_two': {str(text)[:40]!r} is not a line of "
                                        f"board {board.name}")
                self.lines.append(texts[text])


# ---------------------------------------------------------------------------- the checker
def check(data: Mapping[str, Any], board: Board, base: Path | None = None) -> CheckReport:
    """Check a line-puzzle solution: every field recomputed, confirmed or refused. ``base`` is
    the folder of the file (certificate files are named relative to it). A Two by Two table
    (field ``table``) is checked row by row (:func:`.table.check_table`)."""
    if isinstance(data, Mapping) and "table" in data and data.get("puzzle") == "two-by-two":
        return check_table(data, board)
    f = _File(data, board)
    stone_set = sorted(set(f.stones))
    counts = line_counts(board, stone_set)
    value = f.var.objective(board, stone_set)
    faults = _stone_faults(board, f, stone_set, counts) + _claim_faults(f, value)
    faults += _listed_line_faults(board, f, counts)
    notes: list[str] = []
    own = confirmed(board, f.var, f.limit)
    if own.status in (OPTIMAL, INFEASIBLE):
        _check_proven(data, board, f, own, value, base, faults, notes)
    else:
        _check_unproven(data, f, own, faults, notes)
    return CheckReport(tuple(faults), tuple(notes), _summary(board, f, own, stone_set, value) if not faults else "")


def _stone_faults(board: Board, f: _File, stone_set: list[int], counts: list[int]) -> list[str]:
    """Nodes listed twice, more stones than the limit, and every line that breaks the rule."""
    faults = [f"node {board.label(v)} is listed {f.stones.count(v)} times"
              for v in sorted({v for v in f.stones if f.stones.count(v) > 1})]
    if f.status == INFEASIBLE and not stone_set:  # no answer given, so no line to fault
        return faults
    if len(stone_set) > f.limit and not f.var.exact_stones:
        faults.append(f"{len(stone_set)} stones, at most {f.limit} allowed")
    elif len(stone_set) != f.limit and f.var.exact_stones:
        faults.append(f"{len(stone_set)} stones, the puzzle places exactly {f.limit}")
    for k, held in enumerate(counts):
        need = f.var.line_fault(held)
        if need:
            faults.append(f"line {board.line_text(k)} holds {counted(held, 'stone')}, {need}")
    return faults


def _claim_faults(f: _File, value: int) -> list[str]:
    """The status, objective and bound against the stones and against each other."""
    faults = []
    answer_given = bool(f.stones) or f.objective is not None
    if f.status == INFEASIBLE:
        if answer_given:
            faults.append("claims infeasible, but lists an answer")
    elif f.status == UNKNOWN:
        if answer_given:
            faults.append(f"claims status unknown, but gives an answer (objective {value}): "
                          "an answer found is at least feasible")
    elif f.objective is None and f.status in (OPTIMAL, FEASIBLE):
        faults.append(f"claims status {f.status} without an objective (the stones give {value})")
    elif f.objective is not None and f.objective != value:
        faults.append(f"claims objective {f.objective}, the stones give {value}")
    if f.bound is not None and f.objective is not None and f.status in (OPTIMAL, FEASIBLE):
        if f.status == OPTIMAL and f.bound != f.objective:
            faults.append(f"claims status optimal, but bound {f.bound} differs from objective {f.objective}")
        elif f.status == FEASIBLE and f.bound == f.objective:
            faults.append(f"claims status feasible with bound {f.bound} equal to the objective: that is optimal")
        elif f.var.better(f.bound, f.objective) is False and f.bound != f.objective:
            word = "lower" if f.var.sense == "min" else "upper"
            faults.append(f"claims {word} bound {f.bound}, but its own answer has objective {f.objective}")
    return faults


def _listed_line_faults(board: Board, f: _File, counts: list[int]) -> list[str]:
    """``lines_with_two`` against the lines that hold exactly two stones."""
    if f.lines is None:
        return []
    faults = [f"lines_with_two lists line {board.line_text(k)}, which holds {counts[k]} stones"
              for k in sorted(set(f.lines)) if counts[k] != 2]
    faults += [f"line {board.line_text(k)} holds exactly 2 stones, missing from lines_with_two"
               for k, held in enumerate(counts) if held == 2 and k not in f.lines]
    if len(f.lines) != len(set(f.lines)):
        faults.append("lines_with_two lists a line twice")
    return faults


def _check_unproven(data: Mapping[str, Any], f: _File, own: Outcome, faults: list[str], notes: list[str]) -> None:
    """The checker's own solve proved nothing in its time: the claims that need a proof are faults."""
    needs_proof = f.status in (OPTIMAL, INFEASIBLE) or any(
        k in data for k in ("optimal_answers", "certificate", "backends_agreeing", "answers_up_to_symmetry"))
    if needs_proof:
        faults.append(f"cannot confirm the claims: the checker's cp-sat solve ended {own.status} "
                      f"after {CHECK_TIME_LIMIT:g} s")
    if f.bound is not None and own.status == FEASIBLE:
        _check_bound(f.var, own, f.bound, faults, notes)


def _check_proven(data: Mapping[str, Any], board: Board, f: _File, own: Outcome, value: int, base: Path | None,
                  faults: list[str], notes: list[str]) -> None:
    """The claims against the checker's proven optimum (or infeasibility): status, bound, each
    backend's record, the answer counts and the certificate."""
    opt = own.objective if own.status == OPTIMAL else None
    if f.status == INFEASIBLE or own.status == INFEASIBLE:
        if f.status == INFEASIBLE and own.status == INFEASIBLE:
            notes.append("infeasibility confirmed by cp-sat")
        elif own.status == INFEASIBLE:
            faults.append("cp-sat proves the puzzle has no answer on this board")
        else:
            faults.append(f"claims infeasible, but cp-sat finds an answer with objective {own.objective}")
    elif f.status == OPTIMAL:
        if value == opt:
            notes.append(f"optimality confirmed by cp-sat: the optimum is {opt}")
        else:
            faults.append(f"claims optimal, but cp-sat proves the optimum is {opt} (the stones give {value})")
    elif f.status == FEASIBLE and value == opt and not faults:
        notes.append(f"the answer is in fact optimal: cp-sat proves the optimum is {opt}")
    if f.bound is not None:
        _check_bound(f.var, own, f.bound, faults, notes)
    _check_backends(data, board, f, faults, notes)
    if opt is not None:
        _check_answers(data, board, f, opt, faults, notes)
    _check_certificate(data, board, f, own, base, faults, notes)


def _summary(board: Board, f: _File, own: Outcome, stone_set: list[int], value: int) -> str:
    var = f.var
    parts = [f"{counted(len(stone_set), 'stone')}"]
    if var.lists_lines:
        if var.at_most:
            parts[0] += (f" (read as at most {f.limit}, the earlier reading: the file has no stones_rule and "
                         f"places fewer)" if f.rule_inferred else f" (at most {f.limit})")
        parts[0] += f", {value} of {len(board.lines)} lines hold exactly two"
        if var.strict:
            parts[0] += f", {var.rule.summary}"
    else:
        parts[0] += f", {var.rule.summary}"
    if f.status == OPTIMAL:
        parts.append(f"optimal (cp-sat proves {own.objective})")
    elif f.status == INFEASIBLE:
        parts.append("infeasible (cp-sat proves it)")
    elif own.status == OPTIMAL:
        parts.append(f"{f.status or 'no status'} (the optimum is {own.objective}, cp-sat proves it)")
    else:
        parts.append(f"{f.status or 'no status'} (the checker's cp-sat solve did not prove the optimum "
                     f"in {CHECK_TIME_LIMIT:g} s)")
    if f.certified:
        parts.append("certificate re-checked by dratify")
    return "; ".join(parts)


def _check_bound(var: Variant, own: Outcome, bound: int, faults: list[str], notes: list[str]) -> None:
    """A claimed bound against the checker's own: the optimum lies between ``own.objective``
    (an answer found) and ``own.bound`` (proven)."""
    word = "lower" if var.sense == "min" else "upper"
    if own.objective is None or own.bound is None:
        return
    if var.better(own.objective, bound):
        faults.append(f"claims {word} bound {bound}, but cp-sat finds an answer with objective {own.objective}")
    elif not var.better(own.bound, bound):
        notes.append(f"{word} bound {bound} confirmed by cp-sat (proven bound {own.bound})")
    else:
        notes.append(f"{word} bound {bound} not decided: cp-sat puts the optimum between "
                     f"{min(own.objective, own.bound)} and {max(own.objective, own.bound)}")


def _check_backends(data: Mapping[str, Any], board: Board, f: _File, faults: list[str], notes: list[str]) -> None:
    """``backends_agreeing`` and each backend's own record (``"sat": {status, objective}``):
    every named backend is run by the checker and must end as claimed."""
    where = f.where
    agreeing: list[str] = []
    if "backends_agreeing" in data:
        raw = require(data, "backends_agreeing", list, where)
        for name in raw:
            if not isinstance(name, str):
                raise SolutionError(f"{where}: field 'backends_agreeing' must list backend names")
            if name not in BACKENDS:
                faults.append(f"backends_agreeing names {name[:40]!r}, not a backend of this checker "
                              f"({', '.join(BACKENDS)}): it cannot be confirmed")
            elif name in agreeing:
                faults.append(f"backends_agreeing names {name} twice")
            else:
                agreeing.append(name)
        if f.backend is not None and f.backend not in agreeing:
            faults.append(f"backends_agreeing leaves out the backend that found the answer ({f.backend})")
    claim = (f.status, f.objective)
    for name in BACKENDS:
        record = data.get(name)
        if name not in agreeing and record is None:
            continue
        theirs = confirmed_by(board, f.var, f.limit, name)
        if theirs.status not in (OPTIMAL, INFEASIBLE):
            faults.append(f"cannot confirm backend {name}: the checker's {name} solve ended {theirs.status} "
                          f"after {CHECK_TIME_LIMIT:g} s")
            continue
        if name in agreeing:
            if (theirs.status, theirs.objective) != claim:
                faults.append(f"claims {name} agrees, but the checker's {name} solve ends {theirs.status} "
                              f"{theirs.objective}, not {f.status} {f.objective}")
            else:
                notes.append(f"{name} agrees: {theirs.status} {theirs.objective}")
        if record is not None:
            if not isinstance(record, Mapping):
                raise SolutionError(f"{where}: field '{name}' must be an object {{status, objective}}")
            known_fields(record, RUN_FIELDS, where, prefix=f"{name}.")
            status = choice_field(record, "status", STATUSES, f"{where}: field '{name}'")
            objective = int_field(record, "objective", f"{where}: field '{name}'", required=False)
            if (status, objective) != (theirs.status, theirs.objective):
                faults.append(f"field '{name}' says {status} {objective}, the checker's {name} solve ends "
                              f"{theirs.status} {theirs.objective}")
            if "bound" in record and record["bound"] != theirs.bound and theirs.status == OPTIMAL:
                faults.append(f"field '{name}.bound' is {record['bound']!r}, the proven optimum is {theirs.bound}")


def _check_answers(data: Mapping[str, Any], board: Board, f: _File, opt: int, faults: list[str],
                   notes: list[str]) -> None:
    where = f.where
    keys = ("optimal_answers", "optimal_answers_up_to_symmetry", "answers_up_to_symmetry",
            "optimal_answers_complete", "answer_count_backends_agreeing")
    if not any(k in data for k in keys):
        return
    answers = confirmed_answers(board, f.var, f.limit, opt)
    reps = set(answers.representatives)
    total = int_field(data, "optimal_answers", where, required=False, minimum=0)
    classes = int_field(data, "optimal_answers_up_to_symmetry", where, required=False, minimum=0)
    complete = bool_field(data, "optimal_answers_complete", where, default=True)
    if not answers.complete:
        faults.append("cannot confirm the answer count: the checker's enumeration did not finish")
        return
    if complete is False:
        faults.append("claims the enumeration is incomplete, but the checker enumerates every optimal answer")
    ok = True
    if total is not None and total != answers.total:
        faults.append(f"claims {total} optimal answers, there are {answers.total}")
        ok = False
    if classes is not None and classes != len(reps):
        faults.append(f"claims {classes} optimal answers up to symmetry, there are {len(reps)}")
        ok = False
    if ok and (total is not None or classes is not None):
        notes.append(f"answer count {answers.total} ({len(reps)} up to symmetry) confirmed by cp-sat enumeration")
    if "answers_up_to_symmetry" in data:
        listed = require(data, "answers_up_to_symmetry", list, where)
        if len(listed) > len(reps) + 1000:
            raise SolutionError(f"{where}: field 'answers_up_to_symmetry' lists {len(listed)} answers, far more "
                                f"than the {len(reps)} there are")
        seen = set()
        for k, entry in enumerate(listed):
            if not isinstance(entry, list) or len(entry) > board.size:
                raise SolutionError(f"{where}: field 'answers_up_to_symmetry' entry {k} must be a list of nodes")
            nodes = tuple(sorted(set(node_ids(entry, board, where, field=f"answers_up_to_symmetry[{k}]"))))
            if nodes not in reps or len(nodes) != len(entry):
                faults.append(f"answers_up_to_symmetry entry {k} is not a canonical optimal answer")
            elif nodes in seen:
                faults.append(f"answers_up_to_symmetry entry {k} repeats an earlier entry")
            seen.add(nodes)
        if len(listed) != len(reps):
            faults.append(f"answers_up_to_symmetry lists {len(listed)} answers, there are {len(reps)}")
    agree = bool_field(data, "answer_count_backends_agreeing", where)
    if agree is not None:
        by_sat = confirmed_answers_by_sat(board, f.var, f.limit, opt)
        really = by_sat.complete and (by_sat.total, by_sat.representatives) == (answers.total,
                                                                                 answers.representatives)
        if agree != really:
            faults.append(f"claims answer_count_backends_agreeing {str(agree).lower()}, but sat enumerates "
                          f"{by_sat.total} answers and cp-sat {answers.total}")
        else:
            notes.append(f"sat enumeration agrees: {by_sat.total} answers")


def _check_certificate(data: Mapping[str, Any], board: Board, f: _File, own: Outcome, base: Path | None,
                       faults: list[str], notes: list[str]) -> None:
    where = f.where
    cert_data: Any = data.get("certificate")
    if "certificate" not in data:
        if f.certified:
            faults.append("claims certified, but gives no certificate")
        return
    if not isinstance(cert_data, Mapping):
        raise SolutionError(f"{where}: field 'certificate' must be an object (claim, verdict, hashes, files)")
    known_fields(cert_data, CERTIFICATE_FIELDS, where, prefix="certificate.")
    cw = f"{where}: field 'certificate'"
    claim = require(cert_data, "claim", str, cw)
    verdict = require(cert_data, "verdict", str, cw)
    cnf_sha = require(cert_data, "cnf_sha256", str, cw) if "cnf_sha256" in cert_data else None
    proof_sha = require(cert_data, "proof_sha256", str, cw) if "proof_sha256" in cert_data else None
    proof_lines = int_field(cert_data, "proof_lines", cw, required=False, minimum=0)
    cnf_path = sibling_file(base, cert_data["cnf"], where, "certificate.cnf") if "cnf" in cert_data else None
    proof_path = sibling_file(base, cert_data["proof"], where, "certificate.proof") if "proof" in cert_data else None
    if f.status not in (OPTIMAL, INFEASIBLE) or own.status != f.status or \
            f.status == OPTIMAL and f.objective != own.objective:
        faults.append("gives a certificate, but its status is not a proven optimum or infeasibility")
        return
    own_claim, own_cnf = claim_cnf(board, f.var, f.limit, own.status, own.objective)
    before = len(faults)
    faults += statement_faults(cert_data, claim, verdict, own_claim, "the answer")
    if cnf_sha is not None and cnf_sha != sha256(own_cnf):
        faults.append("certificate cnf_sha256 does not match the CNF of the claim")
    if cnf_path is not None and sha256(_file_text(cnf_path, where, "certificate.cnf")) != sha256(own_cnf):
        faults.append(f"certificate.cnf {cert_data['cnf']!r} is not the CNF of the claim")
    if proof_path is not None:
        proof = _file_text(proof_path, where, "certificate.proof")
        if proof_sha is not None and sha256(proof) != proof_sha:
            faults.append(f"certificate proof_sha256 does not match the file {cert_data['proof']!r}")
        if proof_lines is not None and proof.count("\n") != proof_lines:
            faults.append(f"certificate proof_lines {proof_lines}, the file {cert_data['proof']!r} has "
                          f"{proof.count(chr(10))}")
        ok, said = checked_proof(own_cnf, proof)
        if not ok:
            faults.append(f"certificate.proof {cert_data['proof']!r} does not refute the claim's CNF: {said}")
        elif verdict.startswith("VERIFIED") and verdict != said:
            faults.append(f"certificate verdict {verdict[:80]!r} differs from dratify's: {said!r}")
    else:  # no proof file: the checker proves the claim itself and compares its proof
        cert = confirmed_certificate(board, f.var, f.limit, own)
        if cert is None or not cert.verified:
            faults.append("the checker's own DRAT proof of the claim was not accepted")
            return
        if verdict.startswith("VERIFIED") and verdict != cert.verdict:
            faults.append(f"certificate verdict {verdict[:80]!r} differs from dratify's: {cert.verdict!r}")
        if proof_sha is not None and proof_sha != cert.proof_sha256:
            faults.append("certificate proof_sha256 matches neither a proof file nor the checker's own proof")
        if proof_lines is not None and proof_lines != cert.proof.count("\n"):
            faults.append(f"certificate proof_lines {proof_lines}, the checker's own proof has "
                          f"{cert.proof.count(chr(10))}")
    if len(faults) > before:
        return
    if f.certified is False:
        faults.append("claims certified false, but its certificate verifies")
        return
    if f.certified is None:
        faults.append("gives a certificate without saying certified: true")
        return
    notes.append(f"certificate re-derived: {own_claim}; dratify: {verdict}"
                 + ("; the proof file checked against the CNF rebuilt from the board" if proof_path is not None
                    else "; proved again by the checker"))
