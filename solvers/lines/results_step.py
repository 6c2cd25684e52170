"""The line puzzles' part of ``make results``: every variant solved by both backends, its optima
enumerated, the committed answer chosen canonically, the optimum certified, the written file
checked by :func:`powertwo.solvers.lines.checker.check`, and drawn; on the default board also Two by
Two's table of every stone count (:mod:`.table`) and its plot.

Nothing written depends on the run: the answer is the least answer of the least symmetry class
(CP-SAT with several workers finds a different optimum from run to run), and timings go to the
results index, not into the answer files. Two by Two with all 32 stones has thousands of optimal
answers, too many to enumerate in the job's time: its file commits the SAT backend's answer (CaDiCaL
is deterministic: the same answer on every run) in the least form of its class, and no answer count.
Its table solves each count with one CP-SAT worker and a deterministic work limit, so it too is the
same on every run."""

from __future__ import annotations

from pathlib import Path

from powertwo.boards import Board

from ..certify import Certificate, check as check_proof, read_text, write_text
from .answers import enumerate_cpsat, enumerate_sat
from .backends import Outcome, certificate_cnf, certify, solve_cpsat, solve_sat
from .checker import check
from .files import LineResult, diagram, dumps
from .table import BOOKLET_LINES, check_table, count_table, table_figure
from .variants import VARIANTS, Variant
from ..registry import Progress, ResultRow
from ..status import OPTIMAL, PROVEN

NOT_ENUMERATED = frozenset({"two-by-two"})
"""Variants whose optimal answers are too many to enumerate in the job (Two by Two, all 32 stones)."""
GZIPPED = 1_000_000
"""Certificate files above this many characters are written gzipped (``.cnf.gz``, ``.drat.gz``)."""
TABLE = "two-by-two-table"


def result(board: Board, var: Variant, progress: Progress, out: Path | None = None) -> LineResult:
    """Solve, enumerate and certify one variant (the files are named in ``certificate_files``); the
    certificate already in ``out`` is re-checked instead of made again when it proves this claim
    (:func:`committed_certificate`)."""
    cp = solve_cpsat(board, var)
    progress(f"{var.name}: cp-sat {cp.status} {cp.objective} in {cp.seconds:.2f} s")
    sat = solve_sat(board, var)
    progress(f"{var.name}: sat {sat.status} {sat.objective} in {sat.seconds:.2f} s")
    answers = agree = None
    stones = cp.stones
    if cp.status == OPTIMAL and cp.objective is not None and var.name in NOT_ENUMERATED:
        stones = board.canonical(sat.stones if sat.objective == cp.objective else cp.stones)
    elif cp.status == OPTIMAL and cp.objective is not None:
        answers = enumerate_cpsat(board, var, cp.objective)
        by_sat = enumerate_sat(board, var, cp.objective)
        agree = (answers.total, answers.representatives) == (by_sat.total, by_sat.representatives)
        progress(f"{var.name}: {answers.total} optimal answers, {len(answers.representatives)} up to symmetry "
                 f"({answers.seconds:.2f} s; sat enumeration {by_sat.total})")
        stones = answers.canonical or cp.stones
    cert = committed_certificate(out, board, var, cp) if out is not None else None
    if cert is not None:
        progress(f"{var.name}: the committed certificate re-checked: {cert.verdict} ({cert.check_seconds:.2f} s)")
    else:
        cert = certify(board, var, cp)
        if cert is not None:
            progress(f"{var.name}: certificate {cert.verdict} (proof {cert.solve_seconds:.2f} s, "
                     f"check {cert.check_seconds:.2f} s)")
    files = {}
    if cert is not None:
        files = certificate_files(var, cert.proof)
    return LineResult(board, var, "cp-sat", cp, tuple(stones), answers=answers, others=(("sat", sat),),
                      answer_count_backends_agreeing=agree, certificate=cert, certificate_files=files)


def certificate_files(var: Variant, proof: str) -> dict[str, str]:
    """The names of a variant's certificate files (gzipped when the proof is long)."""
    gz = ".gz" if len(proof) > GZIPPED else ""
    return {"cnf": f"{var.name}.cnf{gz}", "proof": f"{var.name}.drat{gz}"}


def committed_certificate(out: Path, board: Board, var: Variant, outcome: Outcome) -> Certificate | None:
    """The certificate a previous run left in ``out`` for this outcome's claim, re-checked by
    dratify: found when its CNF file is, byte for byte, the CNF of the claim (board, variant,
    status, objective) and its proof is accepted again; otherwise None (no file, another claim, a
    proof refused), and the job makes the proof anew. Making Two by Two's proof with all 32 stones
    takes CaDiCaL minutes, and checking it a good part of that (``timings.json``: proof, proof check), so a
    rerun of ``make results`` re-checks the committed proof; CaDiCaL is deterministic, so a run
    without the files writes the same bytes. Delete a variant's ``.drat`` file to have it made again."""
    if outcome.status not in PROVEN:
        return None
    claim, cnf = certificate_cnf(board, var, outcome.status, outcome.objective)
    for names in (certificate_files(var, ""), certificate_files(var, "x" * (GZIPPED + 1))):
        cnf_path, proof_path = out / names["cnf"], out / names["proof"]
        if not (cnf_path.is_file() and proof_path.is_file()):
            continue
        try:
            if read_text(cnf_path) != cnf:
                continue
            proof = read_text(proof_path)
        except ValueError:
            continue
        if certificate_files(var, proof) != names:
            continue  # written under the other name: the job writes it anew
        ok, verdict, seconds = check_proof(cnf, proof)
        if ok:
            return Certificate(claim=claim, cnf=cnf, proof=proof, verified=ok, verdict=verdict, solve_seconds=0.0,
                               check_seconds=seconds)
    return None


def results(out: Path, progress: Progress, board_name: str = "power-of-two",
            names: tuple[str, ...] = tuple(VARIANTS)) -> list[ResultRow]:
    """Write every variant in ``names`` into ``out``: JSON, SVG, PNG, and the certificate's CNF
    and DRAT proof; with ``two-by-two`` on the default board, the table of every stone count."""
    from powertwo.boards import load
    from powertwo.boards.draw import save

    board = load(board_name)
    _ = board.symmetries  # the symmetry group (networkx) is computed once, outside the timings
    rows = []
    for name in names:
        var = VARIANTS[name]
        res = result(board, var, progress, out)
        files = [f"{name}.json", f"{name}.svg", f"{name}.png"]
        if res.certificate is not None:
            for key, text in (("cnf", res.certificate.cnf), ("proof", res.certificate.proof)):
                write_text(out / res.certificate_files[key], text)
                files.append(res.certificate_files[key])
        data = res.to_json(timings=False)
        report = check(data, board, base=out)
        progress(f"{name}: check {'valid' if report.valid else 'FAILED: ' + '; '.join(report.faults)}")
        write_text(out / f"{name}.json", dumps(data))
        for ext in ("svg", "png"):
            save(diagram(data, board), out / f"{name}.{ext}")
        o = res.outcome
        status = o.status + (", certified (DRAT, dratify)" if data.get("certified") else "")
        if not report.valid:
            status += ", CHECK FAILED"
        answers = "-" if res.answers is None else f"{res.answers.total} ({len(res.answers.representatives)})"
        timings = {"cp-sat": round(o.seconds, 3), "sat": round(res.others[0][1].seconds, 3)}
        if res.certificate is not None:
            if res.certificate.solve_seconds:  # 0: the committed proof, re-checked
                timings["proof"] = round(res.certificate.solve_seconds, 3)
            timings["proof check"] = round(res.certificate.check_seconds, 3)
        rows.append(ResultRow(puzzle=var.puzzle, variant=_variant_words(var),
                              optimum="-" if o.objective is None else f"{o.objective} {var.unit}",
                              status=status, backends=", ".join(res.backends_agreeing),
                              answers=answers, seconds=o.seconds, files=tuple(files), timings=timings))
    if "two-by-two" in names and board_name == "power-of-two":
        rows.append(table_result(out, board, progress))
    return rows


def _variant_words(var: Variant) -> str:
    words = (["strict"] if var.strict else []) + (["at most 32 stones"] if var.at_most else [])
    if var.exact_stones:
        words.append("all 32 stones")
    return ", ".join(words) or "-"


def table_result(out: Path, board: Board, progress: Progress) -> ResultRow:
    """Two by Two for every stone count: ``two-by-two-table.json``, its plot, its row."""
    from powertwo.boards.draw import save

    table = count_table(board, VARIANTS["two-by-two"], progress=progress)
    data = table.to_json(timings=False)
    report = check_table(data, board)
    progress(f"{TABLE}: check {'valid' if report.valid else 'FAILED: ' + '; '.join(report.faults)}")
    (out / f"{TABLE}.json").write_text(dumps(data), encoding="utf-8")
    for ext in ("svg", "png"):
        save(table_figure(data, board), out / f"{TABLE}.{ext}")
    status = (f"all {len(table.rows)} counts proven optimal" if table.proven == len(table.rows) else
              f"{table.proven} of {len(table.rows)} counts proven optimal, the rest bounds (feasible)")
    if not report.valid:
        status += ", CHECK FAILED"
    seconds = sum(row.seconds for row in table.rows)
    return ResultRow(puzzle="two-by-two", variant="every stone count 0-64 (table)",
                     optimum=_table_words(table), status=status, backends="cp-sat", answers="-",
                     seconds=seconds, files=tuple(f"{TABLE}.{ext}" for ext in ("json", "svg", "png")),
                     timings={"cp-sat": round(seconds, 3)})


def _table_words(table) -> str:
    """Where the booklet's 21 stands: the stone counts whose optimum is at least 21, and the 32's."""
    reach = [row.stones for row in table.rows if row.objective is not None and row.objective >= BOOKLET_LINES]
    spans: list[list[int]] = []
    for n in reach:
        if spans and spans[-1][1] == n - 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    where = ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in spans) or "none"
    at_32 = next((row for row in table.rows if row.stones == 32), None)
    tail = "" if at_32 is None else f"; {at_32.objective} lines with 32 stones"
    return f"{BOOKLET_LINES} or more lines with two: {where} stones{tail}"
