"""powertwo: solve, check and draw the puzzles of *The Power of Two* (Kadon), and referee its
two-player games and three related ones.

The small public API re-exports the packages' main nouns; the CLI lives in
:mod:`powertwo.cli` and nothing imports it.
"""

import sys as _sys
from pathlib import Path as _Path

# python-sat installs command scripts named models.py, rc2.py, ... into the venv's bin/. A console
# script (``powertwo``) runs with that directory first on sys.path, where bin/models.py would shadow
# the package ``models``: drop the directory (nothing importable lives there).
if _sys.path and _sys.path[0] and (_Path(_sys.path[0]) / "models.py").is_file() \
        and not (_Path(_sys.path[0]) / "models" / "__init__.py").is_file():
    del _sys.path[0]

from boards import Board, BoardError, NodeId, from_segments, load as load_board  # noqa: E402
from rules import (
    Game, IllegalMoveError, InvalidMoveError, Outcome, RecordError, RulesError, game_names, get_game,
    validate_record,
)
from solvers import CheckReport, SolutionError, get_puzzle, puzzle_names

__version__ = "0.1.0"

__all__ = [
    "Board", "BoardError", "NodeId", "from_segments", "load_board",
    "Game", "IllegalMoveError", "InvalidMoveError", "Outcome", "RecordError", "RulesError", "game_names",
    "get_game", "validate_record",
    "CheckReport", "SolutionError", "get_puzzle", "puzzle_names",
]
