"""Get a Jump On (RULES.md section 5): forward placement with chain jumps, and reverse peg solitaire
to one stone in the fewest moves. Registers the puzzles ``jump-forward`` and ``jump-reverse``.

The work is split by job, one module each:

* :mod:`.tables` -- positions as bitmasks, the per-board jump tables, the English test board;
* :mod:`.invariants` -- position classes (GF(2) parity), pagoda functions, Merson regions, targets;
* :mod:`.engine` -- the pure-Python reverse search (IDA* on moves), the kernel's referee;
* :mod:`.kernel` -- the compiled reverse search (numba) that solves the puzzle;
* :mod:`.forward` -- the forward placement search and its stone bound;
* :mod:`.options` -- the puzzles' names, their options read and checked, a reverse solve's request;
* :mod:`.proof` -- the proof of a reverse answer's bound (kind, bound, engine);
* :mod:`.files` -- the typed answers and their JSON form (the answer files);
* :mod:`.backends` -- finding the answers (census, kernel, Python engine), :mod:`.sat_backend` -- the
  SAT backend;
* :mod:`.replay` -- steps and moves read and replayed; :mod:`.checker` -- the checkers;
* :mod:`.drawing` -- the diagrams; :mod:`.results_step` -- the part of ``make results`` and the
  benchmark set; :mod:`.clicks` -- the workbench's click-by-click chains.

This module holds :func:`solve_forward` and :func:`solve_reverse` (what ``powertwo solve`` runs: the
options read, the answer found, its file returned) and the registration, and re-exports the names the
rest of the toolkit, the tests and the benchmarks use.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from powertwo.boards import Board

from ..fields import SolutionError
from ..registry import (
    Clicks, Option, Progress, Puzzle, PuzzlePage, Steps, Verdict, no_progress, register_puzzle, time_limit_option,
)
from ..status import STATUSES, Status
from ..schemas import ForwardAnswer as ForwardShape, ReverseAnswer as ReverseShape
from .backends import (
    KERNEL_COMPILING, ForwardImpossible, census_verdict, default_position, forward_answer, load_kernel, reverse_answer,
)
from .checker import check_forward, check_reverse
from .drawing import JUMP_LEGEND, diagram_forward, diagram_reverse
from .engine import ReverseResult, ReverseSearch, plain_bfs
from .files import FORWARD_FIELDS, REVERSE_FIELDS, RUN_TIMES, ForwardAnswer, ReverseAnswer
from .forward import ForwardBound, ForwardStep, forward_bound, forward_final, forward_search
from .kernel import DEFAULT_MEMORY_MB, KernelResult, KernelSearch, MoveGenerator, chains
from .options import (
    BACKENDS, FORWARD, REVERSE, STONES, ReverseRequest, backend_of, corner_of, labels, node_in, positive,
    read_position, targets_of, time_limit_of,
)
from .proof import ENGINES, PROOF_KINDS, Proof
from .replay import parse_chains, replay_chain, replay_forward, replay_reverse
from .results_step import (
    BENCH_HALVES, BENCH_HELD_OUT_SEEDS, BENCH_NODES, BENCH_OPTIMA, BENCH_SEEDS, BENCH_TUNING_SEEDS, BENCH_UNSOLVABLE,
    PYTHON_ENGINE_NODES, agrees_with_optimum, bench_half, bench_results, results, sat_summary,
)
from .sat_backend import SAT_CONFLICT_LIMIT, SAT_SLICE, SAT_SOLVER
from .tables import JumpTables, english_board, mask_of, node_at, nodes_of, popcount, random_solvable


def solve_forward(board: Board, *, corner: Any = None, backend: Any = None, time_limit: float | None = None,
                  seed: int | None = None, progress: Progress = no_progress) -> dict[str, Any]:
    """A forward answer file (:func:`~.backends.forward_answer`): the first answer in a fixed search
    order that uses at least one chain jump, or with ``seed`` a seeded random one."""
    corner = corner_of(board, corner)
    if backend_of(backend) != "search":
        raise SolutionError(
            "jump-forward: only the search backend places stones (a forward answer is found in milliseconds)")
    return forward_answer(board, corner, seed=seed, time_limit=time_limit).to_json()


def solve_reverse(board: Board, *, position: Any = None, backend: Any = None, time_limit: float | None = None,
                  symmetry: bool | None = None, corner: Any = None, target: Any = None, memory: Any = None,
                  workers: Any = None, progress: Progress = no_progress) -> dict[str, Any]:
    """A reverse answer file (:func:`~.backends.reverse_answer`): from ``position`` (default: the
    final position of the forward answer from ``corner``) to one stone, on ``target`` when given (a
    node, or in the library a list of nodes), in the fewest moves. ``memory``: MiB for the kernel's
    hash tables; ``workers``: its search threads. Caps by positions or conflicts, which give the same
    answer on every machine, take a :class:`~.options.ReverseRequest` (:func:`reverse_answer`)."""
    chosen = backend_of(backend)
    start = default_position(board, corner) if position is None else read_position(position, board)
    request = ReverseRequest(start=tuple(start), backend=chosen, time_limit=time_limit_of(time_limit),
                             symmetry=symmetry is not False, targets=targets_of(board, target),
                             memory_mb=positive(memory, DEFAULT_MEMORY_MB, "memory", "MiB"),
                             workers=positive(workers, 1, "workers", "threads"))
    return reverse_answer(board, request, progress).to_json()


BACKEND = Option("backend", "backend", "choice", "search", choices=BACKENDS,
                 help="search | sat (jump-reverse; jump-forward: search only).")
CORNER = Option("corner", "the jumper's corner", "node", None, page=False,
                help="The jumper's corner node (label or id); jump-reverse: the forward answer from it is the "
                     "position.")

FORWARD_PAGE = PuzzlePage(
    goal=f"from the jumper's corner, {STONES - 1} steps: each places a stone next to the jumper and jumps it, "
         "with at least one chain of jumps",
    clicks=Clicks("jump", "click a free node next to the jumper to place a stone there, then each node the "
                  "jumper jumps to; the next placement starts the next step", "steps", "jump"),
    verdict=Verdict(("in progress", "stuck", "invalid", "valid"), ("chains", "next", "illegal", "count"),
                    "steps", ""),
    steps=Steps("jumps", "{n} steps, {stones} stones on the board", "no free node next to the jumper"),
    committed="jump-forward.json",
    boards=("power-of-two",),
)

REVERSE_PAGE = PuzzlePage(
    goal="from a position, jump stones over stones (the jumped stone leaves) to one stone in the fewest moves",
    clicks=Clicks("jump", "click a stone to pick it up, then each node it jumps to; a chain of jumps is one "
                  "move, clicking another stone starts the next", "moves", "jump"),
    verdict=Verdict(("in progress", "stuck", "invalid", "valid, not optimal", "valid, optimal"),
                    ("chains", "next", "illegal", "count", "optimum"), "moves", "min"),
    steps=Steps("jumps", "{n} moves, {stones} stones left", "one stone left"),
    committed="jump-reverse.json",
    boards=("power-of-two",),
)

register_puzzle(Puzzle(
    name=FORWARD,
    title="Get a Jump On, forward: 31 placement steps with chain jumps",
    solve=solve_forward,
    check=check_forward,
    diagram=diagram_forward,
    results=None,
    options=(BACKEND, time_limit_option(), replace(CORNER, recorded=True)),
    order=50,
    answer=ForwardShape,
    page=FORWARD_PAGE,
))

register_puzzle(Puzzle(
    name=REVERSE,
    title="Get a Jump On, reverse: peg solitaire to one stone in the fewest moves",
    solve=solve_reverse,
    check=check_reverse,
    diagram=diagram_reverse,
    results=results,
    options=(
        BACKEND, time_limit_option(),
        Option("symmetry", "symmetry breaking", "bool", True, help="Symmetry breaking (on by default)."),
        CORNER,
        Option("position", "a position file", "file", None, page=False, help="A position FILE to start from."),
        Option("target", "the last stone's node", "node", None, page=False,
               help="The node that must hold the last stone (label or id)."),
        Option("memory", "MiB for the hash tables", "mib", DEFAULT_MEMORY_MB, page=False,
               help=f"MiB for the search's hash tables (default {DEFAULT_MEMORY_MB}; at most the machine's memory)."),
        Option("workers", "search threads", "cores", 1, page=False,
               help="Search threads, 1 to the core count (default 1: the same run every time; more threads "
                    "finish hard positions sooner on as many cores, in a run that may differ)."),
    ),
    order=51,
    answer=ReverseShape,
    page=REVERSE_PAGE,
))

__all__ = [
    "BACKENDS", "BENCH_HALVES", "BENCH_HELD_OUT_SEEDS", "BENCH_NODES", "BENCH_OPTIMA", "BENCH_SEEDS",
    "BENCH_TUNING_SEEDS", "BENCH_UNSOLVABLE", "ENGINES", "FORWARD", "FORWARD_FIELDS", "JUMP_LEGEND", "KERNEL_COMPILING",
    "PROOF_KINDS", "PYTHON_ENGINE_NODES", "REVERSE", "REVERSE_FIELDS", "RUN_TIMES", "SAT_CONFLICT_LIMIT", "SAT_SLICE",
    "SAT_SOLVER", "STATUSES", "STONES", "ForwardAnswer", "ForwardBound", "ForwardImpossible", "ForwardStep",
    "JumpTables", "KernelResult", "KernelSearch", "MoveGenerator", "Proof", "ReverseAnswer", "ReverseRequest",
    "ReverseResult", "ReverseSearch", "Status", "agrees_with_optimum", "bench_half", "bench_results", "census_verdict",
    "chains", "check_forward", "check_reverse", "corner_of", "default_position", "diagram_forward", "diagram_reverse",
    "english_board", "forward_answer", "forward_bound", "forward_final", "forward_search", "labels", "load_kernel",
    "mask_of", "node_at", "node_in", "nodes_of", "parse_chains", "plain_bfs", "popcount", "random_solvable",
    "read_position", "replay_chain", "replay_forward", "replay_reverse", "results", "reverse_answer", "sat_summary",
    "solve_forward", "solve_reverse",
]
