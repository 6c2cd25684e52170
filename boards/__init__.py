"""Boards: nodes, straight lines, adjacency and symmetries, built exactly from geometry."""

from .board import Board, BoardError, Line, LineId, NodeId, Permutation, Point, format_fraction
from .build import from_grids, from_segments, parse_segments
from .io import from_dict, from_json, kin, load, save, shipped, shipped_with, to_dict, to_json, valid_elsewhere

__all__ = [
    "Board", "BoardError", "Line", "LineId", "NodeId", "Permutation", "Point", "format_fraction",
    "from_grids", "from_segments", "parse_segments",
    "from_dict", "from_json", "kin", "load", "save", "shipped", "shipped_with", "to_dict", "to_json",
    "valid_elsewhere",
]
