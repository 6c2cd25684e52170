"""That's My Line's part of the main job (``make results``): the solitaire's optima and the
booklet's example result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from powertwo.boards.outfile import write_text
from powertwo.rules.thats_my_line import UNLIMITED

from ..certify import checker_name
from ..registry import Progress, ResultRow, SolutionError
from .backends import optimal_splits, solve
from .certificate import write_certificate
from .checker import check
from .drawing import diagram
from .game import BACKENDS, PUZZLE, supply_of
from .score import Score
from ..status import FEASIBLE, INFEASIBLE, OPTIMAL, UNKNOWN

SCORES = (Score(19, 16), Score(16, 19))
"""The booklet's example result, 19 to 16 (RULES.md 4), reachable only with more than 16 stones a
side, in both colourings: the booklet's text gives the 19 to Schwarz (the dark stones) and the 16 to
Weiß (the light ones), so its own final position reads 16:19 in Light:Dark order."""

def results(out: Path, progress: Progress, board_name: str = "power-of-two") -> list[ResultRow]:
    """Both supply settings, proven by both backends; the SAT answer (single-threaded CaDiCaL:
    the same game on every run, unlike CP-SAT with two workers) is written with both backends'
    results beside it and every Light/Dark split an optimal game can have. The file holds no
    timings (they go to the results index), so a rerun rewrites it unchanged. On the default
    board, also the booklet's example result (:data:`SCORES`) with an unlimited supply."""
    from powertwo.boards import load

    board = load(board_name)
    rows = []
    for stones in (16, UNLIMITED):
        runs = {backend: solve(board, backend=backend, stones=stones, progress=progress) for backend in BACKENDS}
        for backend, run in runs.items():
            if run["status"] != OPTIMAL:
                raise SolutionError(f"{PUZZLE} ({stones} stones): {backend} did not prove an optimum")
        if len({run["objective"] for run in runs.values()}) != 1:
            raise SolutionError(f"{PUZZLE} ({stones} stones): the backends disagree: "
                                + ", ".join(f"{b} {r['objective']}" for b, r in runs.items()))
        main = {k: v for k, v in runs["sat"].items() if k != "seconds"}
        main["calls"] = [{k: v for k, v in call.items() if k != "seconds"} for call in main["calls"]]
        splits = optimal_splits(board, supply_of(stones), main["objective"])
        main["optimal_splits"] = [{"light": a, "dark": b} for a, b in splits]
        main["proofs"] = {b: {"status": r["status"], "objective": r["objective"], "bound": r["bound"]}
                          for b, r in runs.items()}
        stem = f"thats-my-line-{stones}"
        cert, fields = write_certificate(board, supply_of(stones), main["objective"], out / f"{stem}.cnf.gz",
                                         out / f"{stem}.drat.gz")
        progress(f"{PUZZLE} ({stones} stones): certificate {cert.proof.count(chr(10))} proof lines, "
                 f"{cert.verdict} in {cert.check_seconds:.1f} s ({checker_name()})")
        main.update(fields)  # run timings: the index
        report = _write(main, board, out, stem, progress)
        progress(f"{PUZZLE} ({stones} stones): {main['objective']} stones, "
                 + ", ".join(f"{b} {r['seconds']:.2f} s" for b, r in runs.items()))
        rows.append(ResultRow(
            puzzle=PUZZLE, variant="16 stones per side" if stones == 16 else "unlimited supply",
            optimum=str(main["objective"]),
            status="optimal (proven, DRAT-certified)" + ("" if report.valid else ", CHECK FAILED"),
            backends=", ".join(BACKENDS),
            answers="splits Light-Dark: " + ", ".join(f"{a}-{b}" for a, b in splits),
            seconds=sum(r["seconds"] for r in runs.values()),
            files=tuple(f"{stem}.{ext}" for ext in ("json", "svg", "png", "cnf.gz", "drat.gz")),
            timings={b: r["seconds"] for b, r in runs.items()} | {"proof": round(cert.solve_seconds, 3),
                                                                  "proof check": round(cert.check_seconds, 3)}))
    if board_name == "power-of-two":  # the booklet's game is played on the real board
        rows += [_score_row(board, out, progress, score, UNLIMITED) for score in SCORES]
    return rows


def _write(answer: dict[str, Any], board, out: Path, stem: str, progress: Progress):
    """Check an answer, then write it (``stem.json``) and its diagram (``stem.svg``, ``stem.png``)."""
    import json

    from powertwo.boards.draw import save

    report = check(answer, board, base=out)
    progress(f"{PUZZLE} ({stem}): check {'valid' if report.valid else '; '.join(report.faults)}")
    write_text(out / f"{stem}.json", json.dumps(answer, indent=1) + "\n")
    for ext in ("svg", "png"):
        save(diagram(answer, board), out / f"{stem}.{ext}")
    return report


def _score_row(board, out: Path, progress: Progress, score: Score, stones) -> ResultRow:
    """A legal game that ends with ``score``, found by both backends; the SAT answer is written
    (the same game on every run), without timings. A score no game reaches is written with its
    DRAT certificate beside it."""
    runs = {backend: solve(board, backend=backend, stones=stones, score=score.text, progress=progress)
            for backend in BACKENDS}
    statuses = {run["status"] for run in runs.values()}
    if len(statuses) != 1 or statuses & {UNKNOWN}:
        raise SolutionError(f"{PUZZLE} (score {score.text}): the backends do not agree on an answer: "
                            + ", ".join(f"{b} {r['status']}" for b, r in runs.items()))
    main = {k: v for k, v in runs["sat"].items() if k != "seconds"}
    stem = f"thats-my-line-{score.light}-{score.dark}"
    if main["status"] == INFEASIBLE:
        main.update(write_certificate(board, supply_of(stones), score, out / f"{stem}.cnf.gz",
                                      out / f"{stem}.drat.gz")[1])
    report = _write(main, board, out, stem, progress)
    found = main["status"] == FEASIBLE
    status = ("found, replayed by the referee" if found else "none exists (proven, DRAT-certified)") \
        + ("" if report.valid else ", CHECK FAILED")
    answers = (f"{len(main['record'])} moves, {main['passes']} passes, Light {main['light_count']} Dark "
               f"{main['dark_count']}; {main['outcome']}" if found else "-")
    return ResultRow(
        puzzle=PUZZLE, variant=f"a game that ends {score.text}, Light:Dark ({stones} supply)",
        optimum=score.text if found else "-",
        status=status, backends=", ".join(BACKENDS), answers=answers, seconds=sum(r["seconds"] for r in runs.values()),
        files=tuple(f"{stem}.{ext}" for ext in ("json", "svg", "png")) + (() if found else (f"{stem}.cnf.gz",
                                                                                           f"{stem}.drat.gz")),
        timings={b: r["seconds"] for b, r in runs.items()})

