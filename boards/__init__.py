"""Boards: nodes, straight lines, adjacency and symmetries, built exactly from geometry."""

from .board import (MAX_NODE_NAME, Board, BoardError, Line, LineId, NodeError, NodeId, Permutation, Point,
                    format_fraction, read_node)
from .build import from_grids, from_segments, parse_segments
from .io import from_dict, from_json, kin, load, save, shipped, shipped_with, to_dict, to_json, valid_elsewhere

__all__ = [
    "MAX_NODE_NAME", "Board", "BoardError", "Line", "LineId", "NodeError", "NodeId", "Permutation", "Point",
    "format_fraction", "read_node",
    "from_grids", "from_segments", "parse_segments",
    "from_dict", "from_json", "kin", "load", "save", "shipped", "shipped_with", "to_dict", "to_json",
    "valid_elsewhere",
]
