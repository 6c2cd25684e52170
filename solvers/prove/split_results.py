"""David and Goliath and The Power of Two from their starts: what the job runner (:mod:`.jobs`)
proves, reported as it is.

Two jobs, as for That's My Line (:mod:`.results_step`). ``make game-proofs``
(:func:`make_split_results`, ``python -m powertwo.solvers.prove.split_results``) splits each game
:data:`DEPTH` ply below the start, runs df-pn on every job under :data:`JOB_SECONDS` seconds on a
``LocalCluster`` of :data:`WORKERS` workers (the jobs kept in a SQLite store under
``~/.cache/powertwo/prove``, so a stopped run resumes), and writes ``results/game-proofs/``: per
game the answer (``<game>.json``: the value from the start if reached, each ply's counts, every
opening with its result, every job with its figures, the limits used) and the certificate of each
proven job up to :data:`COMMIT_BYTES` (``<game>/job-N.proof``, listed in ``<game>/index.json``).
The results job (:func:`results`, a step of ``make results``) checks every committed certificate
with the independent checker and writes the section of ``results/README.md`` from the JSON.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from powertwo.boards.outfile import write_text
from powertwo.rules import get_game

from ..registry import Progress, ResultRow, SolutionError
from .jobs import Cluster, SplitResult, prove_split, write_certificates
from .values import Limits

GAMES = ("david-goliath", "power-of-two")
DEPTH = 1
"""Plies below the start at which each game is split into jobs."""
JOB_SECONDS = {"david-goliath": 20.0, "power-of-two": 20.0}
"""Each job's time limit (df-pn, both attackers)."""
MEMORY_MIB = 512
"""Each job's table."""
WORKERS = 2
COMMIT_BYTES = 64 * 1024
"""A proven job's certificate is committed when at most this large."""
FOLDER = "game-proofs"
SECTION = "## David and Goliath and The Power of Two: what is proven"
STORE_ENV = "POWERTWO_PROVE_STORE"


def default_store() -> Path:
    """Where the job stores live (``$POWERTWO_PROVE_STORE`` or ``~/.cache/powertwo/prove``)."""
    return Path(os.environ.get(STORE_ENV) or Path.home() / ".cache" / "powertwo" / "prove")


def make_split_results(out: Path, progress: Progress, only: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Run the split of each game (those of ``only`` when given) and write its files."""
    folder = out / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    stores = default_store()
    stores.mkdir(parents=True, exist_ok=True)
    answers = []
    for name in GAMES:
        if only and name not in only:
            continue
        game = get_game(name)
        limits = Limits(seconds=JOB_SECONDS[name], memory_mib=MEMORY_MIB)
        result = prove_split(game, game.start(), depth=DEPTH, limits=limits, store=str(stores / f"{name}.sqlite"),
                             cluster=Cluster(workers=WORKERS), progress=progress)
        answer = _answer(result, folder / name)
        write_text(folder / f"{name}.json", json.dumps(answer, indent=1) + "\n")
        progress(f"{name}: {result.value.value} from the start; jobs {_counts_text(result)}")
        answers.append(answer)
    return answers


def _counts_text(result: SplitResult) -> str:
    last = result.plies[-1]
    return f"{last.won} won, {last.lost} lost, {last.neither} neither, {last.unknown} unknown"


def _answer(result: SplitResult, certificates: Path) -> dict[str, Any]:
    """The JSON of one game: the result, every job, and the committed certificates."""
    index = {tuple(entry["line"]): entry for entry in write_certificates(result, certificates)}
    for entry in index.values():
        if entry["bytes"] > COMMIT_BYTES:
            (certificates / entry["file"]).unlink()
            entry["file"] = None
    write_text(certificates / "index.json", json.dumps(list(index.values()), indent=1) + "\n")
    jobs = []
    for line, row in result.rows:
        written = index.get(tuple(line))
        jobs.append({"line": list(line), "value": row.value, "move": row.move, "expanded": row.expanded,
                     "seconds": round(row.seconds, 1), "time_limit": row.time_limit,
                     "proof": row.proof, "certificate": None if written is None or written["file"] is None
                     else f"{certificates.name}/{written['file']}"})
    return result.to_json() | {"memory_mib": MEMORY_MIB, "job_list": jobs}


# ---------------------------------------------------------------- the results job
def results(out: Path, progress: Progress) -> tuple[list[ResultRow], list[str]]:
    """Check every committed certificate of the two games; the rows of the main table and the
    section of ``README.md``, from the JSON ``make game-proofs`` wrote."""
    folder = out / FOLDER
    rows: list[ResultRow] = []
    section = [SECTION, "",
               "Each game split one ply below its start into jobs (one position each, up to the symmetries the "
               "rules respect), df-pn on every job within the time limit named, the jobs combined by minimax "
               "(`make game-proofs`, docs/prove.md), on a LocalCluster of 2 workers; the time limits are "
               "wall-clock, on the machine that ran the job (2 cores shared with other work). `unknown` is not "
               "decided within those limits: no result. Values are for the side to move in each position. Every "
               "committed certificate of a proven job is checked here by the independent checker.", ""]
    for name in GAMES:
        path = folder / f"{name}.json"
        if not path.exists():
            raise SolutionError(f"{path}: missing (`make game-proofs` writes it)")
        answer = json.loads(path.read_text(encoding="utf-8"))
        began = time.monotonic()
        checked = _check_jobs(answer, folder, progress)
        seconds = time.monotonic() - began
        rows.append(_row(answer, name, checked, seconds))
        section += _lines(answer, checked, seconds)
    return rows, section


def _check_jobs(answer: dict[str, Any], folder: Path, progress: Progress) -> int:
    """Check every committed certificate of a game's jobs: valid, of the position its job names (the
    answer's root after the job's moves) and with the job's value; how many."""
    from powertwo.boards import load

    from ..proof_check import check_certificate
    from ..proof_format import read_header

    game = get_game(answer["game"], load(answer["board"]), **answer["options"])
    checked = 0
    for job in answer["job_list"]:
        if job["certificate"] is None:
            continue
        path = folder / job["certificate"]
        with open(path, "rb") as handle:
            header = read_header(handle, str(path))
        state = game.state_from_json(answer["root"])
        for move in job["line"]:
            state = game.play(state, move)
        if header["root"] != game.state_to_json(state) or header["value"] != job["value"]:
            raise SolutionError(f"{path}: not the proof of its job (the position after {' '.join(job['line'])}, "
                                f"{job['value']})")
        report = check_certificate(path, progress=progress)
        if not report.valid:
            raise SolutionError(f"{path}: refused by the checker: {report.faults[0]}")
        checked += 1
    return checked


def _row(answer: dict[str, Any], name: str, checked: int, seconds: float) -> ResultRow:
    last = answer["plies"][-1]
    status = "proven" if answer["value"] != "unknown" else "not decided within the limits"
    return ResultRow(puzzle=f"prove {name}", variant=f"{answer['board']}, the start, split {answer['split_depth']} ply",
                     optimum=answer["value"], status=status, backends="df-pn jobs on Dask; plain referee",
                     answers=f"jobs: {last['won']} won, {last['lost']} lost, {last['unknown']} unknown; "
                             f"{checked} certificate{'' if checked == 1 else 's'} checked", seconds=seconds,
                     files=(f"{FOLDER}/{name}.json",), timings={"check": round(seconds, 1)})


def _lines(answer: dict[str, Any], checked: int, seconds: float) -> list[str]:
    jobs = answer["jobs"]
    limit = jobs["time_limit"]
    value = answer["value"] + (f" (wins with {answer['move']})" if answer["move"] else "")
    deepest = "none" if answer["decided_depth"] is None else str(answer["decided_depth"])
    out = [f"**{get_game(answer['game']).title}** on `{answer['board']}`, {answer['to_move']} to move from the "
           f"start: **{value}**. Split {answer['split_depth']} ply down into {jobs['jobs']} jobs, each "
           f"{'without a time limit' if limit is None else f'within {limit:g} s'} and {answer['memory_mib']} MiB; "
           f"deepest ply with every position decided: {deepest}; "
           f"{sum(j['expanded'] for j in answer['job_list']):,} positions expanded in "
           f"{sum(j['seconds'] for j in answer['job_list']):,.0f} s of search over all jobs; "
           f"{checked} certificate{'' if checked == 1 else 's'} committed and checked here ({seconds:.1f} s).", "",
           "| ply | positions (up to symmetry) | won | lost | neither | unknown |", "|---|---|---|---|---|---|"]
    out += [f"| {p['ply']} | {p['positions']:,} | {p['won']:,} | {p['lost']:,} | {p['neither']:,} | {p['unknown']:,} |"
            for p in answer["plies"]]
    openings = answer["openings"]
    decided = [o for o in openings if o["value"] != "unknown"]
    replies = {tuple(j["line"]): j["move"] for j in answer["job_list"] if j["move"]}
    listing = "; ".join(f"{o['move']} {o['value']}" + (f" (the reply {replies[(o['move'],)]} wins)"
                                                        if (o["move"],) in replies else "") for o in decided) or "none"
    out += ["", f"Opening moves: {len(openings)}, {len(decided)} decided (won: the move wins for the side that "
                f"plays it; lost: the other side wins after it): {listing}. Every opening with its result is in "
                f"`{FOLDER}/{answer['game']}.json`.", ""]
    return out


if __name__ == "__main__":  # make game-proofs
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("results")
    make_split_results(target, lambda message: print(message, flush=True), tuple(sys.argv[2:]))
