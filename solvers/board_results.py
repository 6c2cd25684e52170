"""Every puzzle solved on a further shipped board, into ``results/<board>/``: the first
reconstruction (``power-of-two-sketch``) and the default board with the central square's sides
as lines (``power-of-two-square-sides``) beside the default. The same solvers, proofs and
certificates as the main job; only the Get a Jump On benchmark positions are left to the
default board."""

from __future__ import annotations

import time
from pathlib import Path

from .registry import DEFAULT_BOARDS, Progress, ResultRow

EXTRA_BOARDS: tuple[str, ...] = DEFAULT_BOARDS[1:]
"""Boards the results job solves every puzzle on besides the default ``power-of-two``."""
FORWARD_SECONDS = 150.0
"""Time for each of the two Get a Jump On forward searches on an extra board (with chains, then any)."""


def run_board(out: Path, board_name: str, progress: Progress) -> list[ResultRow]:
    """Solve every puzzle on ``board_name``; files go to ``out/<board_name>/``, rows name the board."""
    from dataclasses import replace

    from . import jump, lines, thats_my_line
    from .registry import SolutionError

    folder = out / board_name
    folder.mkdir(parents=True, exist_ok=True)
    rows: list[ResultRow] = []
    rows += lines.results(folder, progress, board_name=board_name)
    rows += thats_my_line.results(folder, progress, board_name=board_name)
    from powertwo.boards import load

    started = time.perf_counter()
    try:  # the forward search is unbounded on the default board's job; here it gets a time limit
        jump.solve_forward(load(board_name), time_limit=FORWARD_SECONDS)
    except jump.ForwardImpossible as exc:  # proven: the stone bound of jump.forward.forward_bound
        progress(f"{jump.FORWARD} on {board_name}: {exc}")
        why = str(exc).split(": ", 2)[-1]
        rows.append(ResultRow(jump.FORWARD, f"corner {jump.corner_of(load(board_name), None)}", "none exists",
                              f"infeasible (proven: {why})", "stone bound", "-", time.perf_counter() - started))
        rows.append(ResultRow(jump.REVERSE, "from the forward answer", "-", "not run: no forward answer exists", "-",
                              "-", 0.0))
    except SolutionError as exc:
        progress(f"{jump.FORWARD} on {board_name}: {exc}")
        rows.append(ResultRow(jump.FORWARD, "-", "none found", f"unknown: {exc} (not proven impossible)", "search",
                              "-", time.perf_counter() - started))
        rows.append(ResultRow(jump.REVERSE, "from the forward answer", "-", "not run: no forward answer", "-", "-",
                              0.0))
    else:
        rows += jump.results(folder, progress, board_name=board_name, bench=False)
    return [replace(r, files=tuple(f"{board_name}/{f}" for f in r.files)) for r in rows]
