"""That's My Line solitaire's part of the main job (``make results``)."""

from __future__ import annotations

from pathlib import Path

from powertwo.boards.outfile import write_text
from powertwo.rules.thats_my_line import UNLIMITED

from ..certify import checker_name
from ..registry import Progress, ResultRow, SolutionError
from .backends import optimal_splits, solve
from .certificate import certify_optimum, write_gzip
from .checker import check
from .drawing import diagram
from .game import BACKENDS, PUZZLE, supply_of

def results(out: Path, progress: Progress, board_name: str = "power-of-two") -> list[ResultRow]:
    """Both supply settings, proven by both backends; the SAT answer (single-threaded CaDiCaL:
    the same game on every run, unlike CP-SAT with two workers) is written with both backends'
    results beside it and every Light/Dark split an optimal game can have. The file holds no
    timings (they go to the results index), so a rerun rewrites it unchanged."""
    import json

    from powertwo.boards import load
    from powertwo.boards.draw import save

    board = load(board_name)
    rows = []
    for stones in (16, UNLIMITED):
        runs = {backend: solve(board, backend=backend, stones=stones, progress=progress) for backend in BACKENDS}
        for backend, run in runs.items():
            if run["status"] != "optimal":
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
        cert = certify_optimum(board, supply_of(stones), main["objective"])
        progress(f"{PUZZLE} ({stones} stones): certificate {cert.proof.count(chr(10))} proof lines, "
                 f"{cert.verdict} in {cert.check_seconds:.1f} s ({checker_name()})")
        if not cert.verified:
            raise SolutionError(f"{PUZZLE} ({stones} stones): the DRAT proof was rejected: {cert.verdict}")
        write_gzip(out / f"{stem}.cnf.gz", cert.cnf)
        write_gzip(out / f"{stem}.drat.gz", cert.proof)
        main["certified"] = True
        summary = {k: v for k, v in cert.summary().items() if not k.endswith("seconds")}  # run timings: the index
        main["certificate"] = summary | {"cnf": f"{stem}.cnf.gz", "proof": f"{stem}.drat.gz"}
        report = check(main, board, base=out)
        progress(f"{PUZZLE} ({stones} stones): check {'valid' if report.valid else '; '.join(report.faults)}")
        write_text(out / f"{stem}.json", json.dumps(main, indent=1) + "\n")
        for ext in ("svg", "png"):
            save(diagram(main, board), out / f"{stem}.{ext}")
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
    return rows

