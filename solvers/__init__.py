"""Running models and searches: results, certificates and checkers, found through a registry."""

from .registry import (
    PUZZLES, CheckReport, Puzzle, ResultRow, SolutionError, get_puzzle, puzzle_names, register_puzzle,
)

__all__ = ["PUZZLES", "CheckReport", "Puzzle", "ResultRow", "SolutionError", "get_puzzle", "puzzle_names",
           "register_puzzle"]
