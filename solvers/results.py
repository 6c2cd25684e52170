"""The main job behind ``make results``: every shipped board drawn, every puzzle solved,
each answer written with its proof status and diagram, ``README.md`` indexing them and
``timings.json`` holding every time measured.

Answer files hold nothing that depends on the run (no timings, a canonical answer), so
``git status`` after a rerun shows only ``README.md`` and ``timings.json`` changed.

The job is a list of steps (:func:`jobs`): the boards, then each registered puzzle's
``results`` hook in registry order. Each step reports through ``progress``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable

from powertwo.boards import load, shipped
from powertwo.boards.outfile import write_text

from .board_results import EXTRA_BOARDS, run_board
from .registry import PUZZLES, Progress, ResultRow, puzzle_names

TIMINGS = "timings.json"
INFERENCE = "board-inference"
"""The step that infers the default board's lines (:mod:`powertwo.solvers.inference`)."""
CENSUS = "census"
"""The step that counts the English central game's whole tree (:mod:`powertwo.solvers.census.results`)."""
PROVE = "prove"
"""The step that checks the committed game proofs: That's My Line's (:mod:`powertwo.solvers.prove.results_step`),
David and Goliath's and The Power of Two's (:mod:`powertwo.solvers.prove.split_results`)."""


def draw_boards(out: Path, progress: Progress) -> list[str]:
    from powertwo.boards.draw import board_diagram

    files = []
    for name in shipped():
        board = load(name)
        for ext in ("svg", "png"):
            path = out / "boards" / f"{name}.{ext}"
            board_diagram(board, path, names="labels")
            files.append(str(path.relative_to(out)))
        progress(f"board {name}: {board.size} nodes, {len(board.lines)} lines, {board.symmetry_order} symmetries")
    return files


def jobs(only: tuple[str, ...] | None = None) -> list[tuple[str, Callable[[Path, Progress], list[ResultRow]]]]:
    """The puzzle steps of the job, in order: ``(name, results hook)``."""
    out = []
    for name in puzzle_names():
        hook = PUZZLES[name].results
        if hook is not None and (not only or name in only):
            out.append((name, hook))
    return out


def run_all(out: Path, progress: Progress, only: tuple[str, ...] | None = None) -> list[ResultRow]:
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    board_files = draw_boards(out, progress) if not only else []
    rows: list[ResultRow] = []
    if not only or INFERENCE in only:  # the default board's lines from the server's display
        from . import inference

        progress(f"step: {INFERENCE}")
        rows.extend(inference.results(out, progress))
    steps = jobs(only)
    for k, (name, hook) in enumerate(steps, 1):
        progress(f"step {k}/{len(steps)}: {name}")
        rows.extend(hook(out, progress))
    if not only or CENSUS in only:
        from .census import results as census_results

        progress(f"step: {CENSUS}")
        rows.extend(census_results.results(out, progress))
    sections: list[str] = []
    if not only or PROVE in only:
        from .prove import results_step as prove_results
        from .prove import split_results

        progress(f"step: {PROVE}")
        proof_rows, sections = prove_results.results(out, progress)
        rows.extend(proof_rows)
        split_rows, split_section = split_results.results(out, progress)
        rows.extend(split_rows)
        sections = sections + split_section
    extra: dict[str, list[ResultRow]] = {}
    if not only:
        for board_name in EXTRA_BOARDS:  # every puzzle on the other boards too
            progress(f"board {board_name}: solving every puzzle")
            extra[board_name] = run_board(out, board_name, progress)
        every = rows + [r for board_rows in extra.values() for r in board_rows]
        seconds = time.perf_counter() - started
        write_text(out / "README.md", _readme(rows, board_files, seconds, extra, sections))
        write_text(out / TIMINGS, json.dumps(_timings(every, seconds), indent=1) + "\n")
    else:
        update_readme(out, rows, sections)
    return rows + [r for board_rows in extra.values() for r in board_rows]


def update_readme(out: Path, rows: list[ResultRow], sections: list[str] | None = None) -> bool:
    """After a partial run (``only``): its rows take the place of the same puzzles' rows in the main
    table of an existing ``out/README.md`` and its timings go into ``timings.json`` (the other rows
    and timings stay as the last full run wrote them). False when there is no README to update."""
    readme = out / "README.md"
    if not rows or not readme.exists():
        return False
    lines = readme.read_text(encoding="utf-8").split("\n")
    head = lines.index(TABLE_HEAD[1]) + 1
    end = lines.index("", head)
    puzzles = {r.puzzle for r in rows}
    old = [k for k in range(head, end) if lines[k].split(" | ")[0].removeprefix("| ") in puzzles]
    at = old[0] if old else end
    kept = [line for k, line in enumerate(lines[head:end], head) if k not in old]
    lines[head:end] = kept[:at - head] + [_row(r) for r in rows] + kept[at - head:]
    if sections:
        lines = _replace_section(lines, sections)
    write_text(readme, "\n".join(lines))
    path = out / TIMINGS
    timings = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    timings.update({k: v for k, v in _timings(rows, 0.0).items() if k != "whole job"})
    write_text(path, json.dumps(timings, indent=1) + "\n")
    return True


def _replace_section(lines: list[str], sections: list[str]) -> list[str]:
    """``lines`` with each section of ``sections`` (each from its ``## `` heading) replacing the one
    headed alike (up to the next heading), or put before the boards' list."""
    starts = [k for k, line in enumerate(sections) if line.startswith("## ")] + [len(sections)]
    for start, end in zip(starts, starts[1:], strict=False):
        lines = _replace_one(lines, sections[start:end])
    return lines


def _replace_one(lines: list[str], section: list[str]) -> list[str]:
    if section[0] in lines:
        start = lines.index(section[0])
        end = next((k for k in range(start + 1, len(lines)) if lines[k].startswith("## ")), len(lines))
        return lines[:start] + section + lines[end:]
    at = lines.index("## Boards") if "## Boards" in lines else len(lines)
    return lines[:at] + section + lines[at:]


def _timings(rows: list[ResultRow], seconds: float) -> dict:
    out: dict = {"whole job": round(seconds, 1)}
    for r in rows:
        key = r.files[0] if r.files else f"{r.puzzle} {r.variant}"
        out[key] = {"seconds": round(r.seconds, 3), **r.timings}
    return out


def _side_by_side(rows: list[ResultRow], extra: dict[str, list[ResultRow]]) -> list[str]:
    """The optima of every board in one table (the default board first)."""
    names = ["power-of-two", *extra]
    cells: dict[tuple[str, str], dict[str, str]] = {}
    for board_name, board_rows in zip(names, [rows, *extra.values()], strict=True):
        for r in board_rows:
            if r.variant.startswith("benchmark") or r.puzzle in (INFERENCE, CENSUS):
                continue
            variant = "-" if r.puzzle.startswith("jump-forward") else r.variant
            cells.setdefault((r.puzzle, variant), {})[board_name] = f"{r.optimum} ({r.status}, {r.seconds:.2f} s)"
    out = ["## The boards side by side", "",
           "| puzzle | variant | " + " | ".join(f"`{n}`" for n in names) + " |",
           "|---|---|" + "---|" * len(names)]
    for (puzzle, variant), by_board in cells.items():
        out.append(f"| {puzzle} | {variant} | " + " | ".join(by_board.get(n, "-") for n in names) + " |")
    return out + [""]


TABLE_HEAD = ("| puzzle | variant | optimum | proof status | backends agreeing | optimal answers (up to symmetry) "
              "| seconds | files |", "|---|---|---|---|---|---|---|---|")


def _row(r: ResultRow) -> str:
    files = " ".join(f"[{Path(f).name}]({f})" for f in r.files)
    return (f"| {r.puzzle} | {r.variant} | {r.optimum} | {r.status} | {r.backends} | {r.answers} "
            f"| {r.seconds:.2f} | {files} |")


def _readme(rows: list[ResultRow], board_files: list[str], seconds: float,
            extra: dict[str, list[ResultRow]] | None = None, sections: list[str] | None = None) -> str:
    lines = [
        "# Results",
        "",
        "Regenerated by `make results` (`powertwo results --out results --force`). Every answer here is checked",
        "by `powertwo check`; the tests replay the committed files. Times are wall-clock seconds on the",
        f"machine that ran the job (2 cores); every step's time is in [{TIMINGS}]({TIMINGS}). The answer files",
        "hold no timings and a canonical answer, so a rerun changes only this file and the timings.",
        "",
        *TABLE_HEAD,
    ]
    lines += [_row(r) for r in rows]
    for board_name, board_rows in (extra or {}).items():
        lines += ["", f"## On `{board_name}`", "", *TABLE_HEAD]
        lines += [_row(r) for r in board_rows]
    if extra:
        lines += [""] + _side_by_side(rows, extra)
    if sections:
        lines += [""] + sections
    lines += ["", "## Boards", ""]
    lines += [f"- [{Path(f).name}]({f})" for f in board_files if f.endswith(".svg")]
    lines += ["", f"Whole job: {seconds:.1f} s.", ""]
    return "\n".join(lines)
