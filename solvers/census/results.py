"""The census step of the main results job: the English 33-hole central game counted in full
(``results/census-english.json`` and its plot), the solvable set kept in the census store for the
workbench's hint. The JSON holds counts only; the run time goes into ``timings.json`` and the
README row."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable

from powertwo.boards.outfile import write_text
from powertwo.solvers.registry import ResultRow

from . import CensusOptions, run_census
from .plot import plot_census
from .store import default_store
from .tables import centre_node, default_start, english_board

STEM = "census-english"


def results(out: Path, progress: Callable[[str], None]) -> list[ResultRow]:
    board = english_board()
    centre = centre_node(board)
    began = time.perf_counter()
    census = run_census(board, default_start(board) or [],
                        CensusOptions(target=centre, solvable=True, store=str(default_store())), progress)
    seconds = time.perf_counter() - began
    data = census.to_dict()
    for key in ("seconds", "peak_memory_bytes"):
        data.pop(key)
    for lv in data["levels"]:
        lv.pop("seconds")
        lv.pop("memory_bytes")
    data["solvable_positions"] = sum(lv.solvable_positions or 0 for lv in census.levels)
    data["solvable_classes"] = sum(lv.solvable_classes or 0 for lv in census.levels)
    write_text(out / f"{STEM}.json", json.dumps(data, indent=1) + "\n")
    plot_census(census, out / f"{STEM}.png", board.label(centre))
    progress(f"census english: {census.positions:,} positions, {census.game_sequences:,} game sequences, "
             f"{census.solutions:,} solutions to the centre, {seconds:.1f} s")
    t = data["totals"]
    return [ResultRow(
        puzzle="census", variant="english-33 central game (every jump sequence)",
        optimum=f"{t['positions']:,} positions; {t['game_sequences']:,} game sequences; "
                f"{t['solutions']:,} solutions to the centre",
        status="exact (complete census)", backends="numba",
        answers=f"{t['classes']:,} positions up to symmetry; {data['solvable_positions']:,} can still reach "
                f"the centre; peak memory {census.peak_memory_bytes / 2 ** 30:.1f} GiB",
        seconds=seconds, files=(f"{STEM}.json", f"{STEM}.png"),
        timings={f"level {lv.jumps}": round(lv.seconds, 3) for lv in census.levels})]

