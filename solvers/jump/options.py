"""Get a Jump On: the puzzles' names and their options, each read and checked in one place (a bad
value is a :class:`SolutionError` naming the option), and the typed request of one reverse solve
(:class:`ReverseRequest`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Literal, Mapping, get_args

from powertwo.boards import Board, NodeError, NodeId, read_node

from ..fields import SolutionError
from ..registry import read_json_file
from .kernel import DEFAULT_MEMORY_MB
from .tables import JumpTables, nodes_of

FORWARD = "jump-forward"
REVERSE = "jump-reverse"
STONES = 32
Backend = Literal["search", "sat", "census-table"]
BACKENDS: tuple[Backend, ...] = get_args(Backend)


def node_in(board: Board, raw: object, where: str) -> NodeId:
    """A node given by its id or its label (``60`` or ``"a13"``); a :class:`SolutionError` naming
    ``where`` otherwise."""
    try:
        return read_node(board, raw, where)
    except NodeError as exc:
        if exc.malformed:
            raise SolutionError(f"{where}: {exc.shown!r} is not a node (an id or a label)") from None
        raise SolutionError(f"{where}: node {exc.shown} does not exist on board {board.name}") from None


def option_node(board: Board, raw: object, flag: str) -> NodeId:
    """``--corner`` or ``--target``: a node id or label of ``board``."""
    try:
        return read_node(board, raw, flag)
    except NodeError as exc:
        raise SolutionError(f"{flag} {exc.shown}: node does not exist on board {board.name}") from None


def labels(board: Board, nodes: Iterable[NodeId]) -> str:
    """Nodes by their labels, in the order given: ``a13, e13, g13``."""
    return ", ".join(board.label(v) for v in nodes)


def corner_of(board: Board, corner: object) -> NodeId:
    """The jumper's start: ``corner`` checked, or the default corner of ``board`` (from geometry)."""
    if corner is None:
        unjumpable = nodes_of(JumpTables(board, symmetry=False).unjumpable)
        if not unjumpable:
            raise SolutionError(
                f"board {board.name} has no corner (a node that is the middle of no jump); give --corner")
        outer = board.outer_corners[0]  # the bottom-left outer corner (60 on the reconstruction)
        return outer if outer in unjumpable else unjumpable[0]
    return option_node(board, corner, "--corner")


def backend_of(backend: object) -> Backend:
    """``--backend``: ``search`` (the default), ``sat`` or ``census-table`` (a stored census by moves)."""
    value = "search" if backend is None else backend
    for known in BACKENDS:
        if value == known:
            return known
    raise SolutionError(f"--backend {backend!r}: use one of {', '.join(BACKENDS)}")


def read_position(source: object, board: Board) -> list[NodeId]:
    """A start position: a FILE (JSON with 'position' or 'final_position', or a plain list of
    nodes), or a list of nodes; a node by its id or its label."""
    where = "position"
    if isinstance(source, (str, Path)):
        where = str(source)
        data = read_json_file(source)
    else:
        data = source
    if isinstance(data, Mapping):
        key = "position" if "position" in data else "final_position" if "final_position" in data else None
        if key is None:
            raise SolutionError(f"{where}: needs a field 'position' or 'final_position' (or be a list of nodes)")
        data = data[key]
    if not isinstance(data, list):
        raise SolutionError(f"{where}: a position is a list of nodes (ids or labels)")
    out = [node_in(board, v, where) for v in data]
    repeated = next((v for i, v in enumerate(out) if v in out[:i]), None)
    if repeated is not None:
        raise SolutionError(f"{where}: node {board.label(repeated)} is listed twice")
    if not out:
        raise SolutionError(f"{where}: the position has no stones")
    return sorted(out)


def targets_of(board: Board, target: object) -> tuple[NodeId, ...] | None:
    """``--target NODE`` (the last stone must stand on it), or in the library a list of such nodes
    (the last stone on any of them); None: any node."""
    if target is None:
        return None
    if isinstance(target, (list, tuple, set, frozenset)):
        return tuple(sorted(option_node(board, v, "--target") for v in target))
    return (option_node(board, target, "--target"),)


def positive(value: object, default: int, flag: str, unit: str) -> int:
    """An option that counts something (``--memory`` MiB, ``--workers`` threads): ``default`` when
    not given, else a positive whole number."""
    value = default if value is None else value
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SolutionError(f"--{flag} {value!r}: must be a positive number of {unit}")
    return value


def time_limit_of(time_limit: object) -> float | None:
    """``--time-limit``: a positive number of seconds, or None."""
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or time_limit <= 0:
        raise SolutionError(f"--time-limit {time_limit}: must be a positive number of seconds")
    return time_limit


@dataclass(frozen=True)
class ReverseRequest:
    """One reverse solve, its options read and checked: from ``start`` to one stone (on one of
    ``targets``; None: any node) by ``backend``. ``node_limit`` caps the positions the search visits
    and ``conflict_limit`` the SAT backend's conflicts (both reproducible, unlike ``time_limit``);
    ``memory_mb``: the kernel's hash tables; ``workers``: the kernel's search threads (1: the same
    run every time; more finish sooner, but which answer is found and the positions counted then
    vary from run to run)."""

    start: tuple[NodeId, ...]
    backend: Backend = "search"
    time_limit: float | None = None
    symmetry: bool = True
    targets: tuple[NodeId, ...] | None = None
    memory_mb: int = DEFAULT_MEMORY_MB
    workers: int = 1
    node_limit: int | None = None
    conflict_limit: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "start", tuple(sorted(self.start)))   # the stones in node order, however given

    @property
    def target(self) -> NodeId | None:
        """The one node the last stone must stand on (None: any node, or one of several)."""
        return self.targets[0] if self.targets is not None and len(self.targets) == 1 else None
