"""powertwo: solve, check and draw the puzzles of *The Power of Two* (Kadon), and referee its
two-player games and three related ones.

The small public API re-exports the packages' main nouns; the CLI lives in
:mod:`powertwo.cli` and nothing imports it.
"""

from powertwo.boards import Board, BoardError, NodeId, from_segments, load as load_board
from powertwo.rules import (
    Game, IllegalMoveError, InvalidMoveError, Outcome, RecordError, RulesError, game_names, get_game,
    validate_record,
)
from powertwo.solvers import CheckReport, SolutionError, get_puzzle, puzzle_names

__version__ = "0.1.0"

__all__ = [
    "Board", "BoardError", "NodeId", "from_segments", "load_board",
    "Game", "IllegalMoveError", "InvalidMoveError", "Outcome", "RecordError", "RulesError", "game_names",
    "get_game", "validate_record",
    "CheckReport", "SolutionError", "get_puzzle", "puzzle_names",
]
