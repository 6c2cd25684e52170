"""The line puzzles' part of ``make results``: every variant solved by both backends, its optima
enumerated, the committed answer chosen canonically, the optimum certified, the written file
checked by :func:`powertwo.solvers.lines.checker.check`, and drawn.

Nothing written depends on the run: the answer is the least answer of the least symmetry class
(CP-SAT with several workers finds a different optimum from run to run), and timings go to the
results index, not into the answer files."""

from __future__ import annotations

from pathlib import Path

from powertwo.boards import Board

from .answers import enumerate_cpsat, enumerate_sat
from .backends import certify, solve_cpsat, solve_sat
from .checker import check
from .files import LineResult, diagram, dumps
from .variants import VARIANTS, Variant
from ..registry import Progress, ResultRow
from ..status import OPTIMAL


def result(board: Board, var: Variant, progress: Progress) -> LineResult:
    """Solve, enumerate and certify one variant (the files are named in ``certificate_files``)."""
    cp = solve_cpsat(board, var)
    progress(f"{var.name}: cp-sat {cp.status} {cp.objective} in {cp.seconds:.2f} s")
    sat = solve_sat(board, var)
    progress(f"{var.name}: sat {sat.status} {sat.objective} in {sat.seconds:.2f} s")
    answers = agree = None
    stones = cp.stones
    if cp.status == OPTIMAL and cp.objective is not None:
        answers = enumerate_cpsat(board, var, cp.objective)
        by_sat = enumerate_sat(board, var, cp.objective)
        agree = (answers.total, answers.representatives) == (by_sat.total, by_sat.representatives)
        progress(f"{var.name}: {answers.total} optimal answers, {len(answers.representatives)} up to symmetry "
                 f"({answers.seconds:.2f} s; sat enumeration {by_sat.total})")
        stones = answers.canonical or cp.stones
    cert = certify(board, var, cp)
    files = {} if cert is None else {"cnf": f"{var.name}.cnf", "proof": f"{var.name}.drat"}
    if cert is not None:
        progress(f"{var.name}: certificate {cert.verdict} ({cert.check_seconds:.2f} s)")
    return LineResult(board, var, "cp-sat", cp, tuple(stones), answers=answers, others=(("sat", sat),),
                      answer_count_backends_agreeing=agree, certificate=cert, certificate_files=files)


def results(out: Path, progress: Progress, board_name: str = "power-of-two",
            names: tuple[str, ...] = tuple(VARIANTS)) -> list[ResultRow]:
    """Write every variant in ``names`` into ``out``: JSON, SVG, PNG, and the certificate's CNF
    and DRAT proof."""
    from powertwo.boards import load
    from powertwo.boards.draw import save

    board = load(board_name)
    _ = board.symmetries  # the symmetry group (networkx) is computed once, outside the timings
    rows = []
    for name in names:
        var = VARIANTS[name]
        res = result(board, var, progress)
        files = [f"{name}.json", f"{name}.svg", f"{name}.png"]
        if res.certificate is not None:
            (out / f"{name}.cnf").write_text(res.certificate.cnf, encoding="utf-8")
            (out / f"{name}.drat").write_text(res.certificate.proof, encoding="utf-8")
            files += [f"{name}.cnf", f"{name}.drat"]
        data = res.to_json(timings=False)
        report = check(data, board, base=out)
        progress(f"{name}: check {'valid' if report.valid else 'FAILED: ' + '; '.join(report.faults)}")
        (out / f"{name}.json").write_text(dumps(data), encoding="utf-8")
        for ext in ("svg", "png"):
            save(diagram(data, board), out / f"{name}.{ext}")
        o = res.outcome
        status = o.status + (", certified (DRAT, dratify)" if data.get("certified") else "")
        if not report.valid:
            status += ", CHECK FAILED"
        answers = "-" if res.answers is None else f"{res.answers.total} ({len(res.answers.representatives)})"
        timings = {"cp-sat": round(o.seconds, 3), "sat": round(res.others[0][1].seconds, 3)}
        if res.certificate is not None:
            timings |= {"proof": round(res.certificate.solve_seconds, 3),
                        "proof check": round(res.certificate.check_seconds, 3)}
        rows.append(ResultRow(puzzle=var.puzzle, variant="strict" if var.strict else "-",
                              optimum="-" if o.objective is None else f"{o.objective} {var.unit}",
                              status=status, backends=", ".join(res.backends_agreeing),
                              answers=answers, seconds=o.seconds, files=tuple(files), timings=timings))
    return rows
