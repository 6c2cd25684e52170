"""``make census-moves``: the English central game counted by moves, forward from the start and
backward from one stone in the centre (George Bell's B[k] and B[-k]), written to
``results/census-english-moves.json`` and ``results/census-english-moves-backward.json`` with their
plots, and the fewest-moves table shipped in the package (``solvers/census/data/``): the first
:data:`EXACT` backward levels whole, and of the later ones the positions the central game reaches.

Usage: ``python tools/census_moves.py [STORE]`` (STORE: where the two full tables go, about 190 MB
each; default ``.census-store``). ``--table-only`` builds the shipped table from the tables already
in STORE.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from powertwo.solvers.census import CensusOptions, census_tables, moves_census
from powertwo.solvers.census.fewest import save_shipped, shipped
from powertwo.solvers.census.plot import plot_census
from powertwo.solvers.census.store import moves_table, stored_levels, table_name
from powertwo.solvers.census.tables import centre_node, default_start, english_board

ROOT = Path(__file__).resolve().parent.parent
EXACT = 6
"""Backward levels shipped whole (0..5: 142,014 positions up to symmetry)."""


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def count(store: str) -> None:
    board = english_board()
    centre = centre_node(board)
    start = default_start(board) or []
    for backward, stem in ((False, "census-english-moves"), (True, "census-english-moves-backward")):
        census = moves_census(board, start, CensusOptions(target=centre, by="moves", backward=backward, store=store),
                            progress=log)
        data = census.to_dict()
        for key in ("seconds", "peak_memory_bytes"):
            data.pop(key)
        for lv in data["levels"]:
            lv.pop("seconds"), lv.pop("memory_bytes")
        (ROOT / "results" / f"{stem}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        plot_census(census, ROOT / "results" / f"{stem}.png", board.label(centre))
        log(f"{stem}: {census.classes:,} positions up to symmetry in {len(census.levels)} levels, "
            f"{census.seconds:.0f} s")


def ship(store: str) -> Path:
    board = english_board()
    centre = centre_node(board)
    back = moves_table(board, centre, store)
    forward = census_tables(board, default_start(board) or [], centre)
    if back is None:
        raise SystemExit(f"{store}: no backward table of the central game (run without --table-only)")
    levels = stored_levels(Path(store) / table_name(forward, False))
    path = save_shipped(shipped(back, list(levels), EXACT), ROOT / "solvers" / "census" / "data")
    log(f"shipped table {path.relative_to(ROOT)}: {path.stat().st_size / 2**20:.2f} MiB")
    return path


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    folder = args[0] if args else str(ROOT / ".census-store")
    if "--table-only" not in sys.argv:
        count(folder)
    ship(folder)
