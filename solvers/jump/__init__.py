"""Get a Jump On (RULES.md section 5): forward placement with chain jumps, and reverse peg solitaire
to one stone in the fewest moves. Registers the puzzles ``jump-forward`` and ``jump-reverse``.

Modules, by job:

* :mod:`.tables` -- positions as bitmasks, the per-board jump tables, the English test board;
* :mod:`.invariants` -- position classes (GF(2) parity), pagoda functions, Merson regions, targets;
* :mod:`.engine` -- the pure-Python reverse search (IDA* on moves), the kernel's referee;
* :mod:`.kernel` -- the compiled reverse search (numba) that solves the puzzle;
* :mod:`.forward` -- the forward placement search and its stone bound;
* :mod:`.puzzle` -- entry points, answer files and checkers; :mod:`.results` -- the results job
  and the benchmark set; :mod:`.clicks` -- the workbench's click-by-click chains.
"""

from __future__ import annotations

from ..registry import Clicks, Puzzle, PuzzlePage, SolveOption, Steps, Verdict, register_puzzle, time_limit_option
from .engine import ReverseResult, ReverseSearch, plain_bfs
from .forward import ForwardBound, ForwardStep, forward_bound, forward_final, forward_search
from .kernel import KernelResult, KernelSearch, MoveGenerator, chains
from .puzzle import (
    BACKENDS,
    ENGINES,
    FORWARD,
    FORWARD_FIELDS,
    JUMP_LEGEND,
    PYTHON_ENGINE_NODES,
    REVERSE,
    REVERSE_FIELDS,
    RUN_TIMES,
    SAT_CONFLICT_LIMIT,
    SAT_SLICE,
    SAT_SOLVER,
    STATUSES,
    STONES,
    ForwardImpossible,
    check_forward,
    check_reverse,
    corner_of,
    default_position,
    diagram_forward,
    diagram_reverse,
    forward_result,
    labels,
    moves_of,
    node_in,
    parse_chains,
    read_position,
    replay_chain,
    replay_forward,
    replay_reverse,
    solve_forward,
    solve_reverse,
)
from .results import (
    BENCH_HALVES,
    BENCH_HELD_OUT_SEEDS,
    BENCH_NODES,
    BENCH_OPTIMA,
    BENCH_SEEDS,
    BENCH_TUNING_SEEDS,
    BENCH_UNSOLVABLE,
    agrees_with_optimum,
    bench_half,
    bench_results,
    results,
    sat_summary,
)
from .tables import JumpTables, english_board, mask_of, node_at, nodes_of, popcount, random_solvable

JUMP_OPTIONS = (
    SolveOption("backend", "backend", "choice", "search", choices=BACKENDS),
    time_limit_option(),
)

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
    options=JUMP_OPTIONS,
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
    options=JUMP_OPTIONS + (SolveOption("symmetry", "symmetry breaking", "bool", True),),
)

register_puzzle(Puzzle(
    name=FORWARD,
    title="Get a Jump On, forward: 31 placement steps with chain jumps",
    solve=solve_forward,
    check=check_forward,
    diagram=diagram_forward,
    results=None,
    options=("backend", "time_limit", "corner"),
    order=50,
    page=FORWARD_PAGE,
))

register_puzzle(Puzzle(
    name=REVERSE,
    title="Get a Jump On, reverse: peg solitaire to one stone in the fewest moves",
    solve=solve_reverse,
    check=check_reverse,
    diagram=diagram_reverse,
    results=results,
    options=("backend", "time_limit", "corner", "position", "symmetry", "target", "memory", "workers"),
    order=51,
    page=REVERSE_PAGE,
))

__all__ = [
    "BACKENDS", "BENCH_HALVES", "BENCH_HELD_OUT_SEEDS", "BENCH_NODES", "BENCH_OPTIMA", "BENCH_SEEDS",
    "BENCH_TUNING_SEEDS", "BENCH_UNSOLVABLE", "ENGINES", "FORWARD", "FORWARD_FIELDS", "JUMP_LEGEND",
    "PYTHON_ENGINE_NODES", "REVERSE", "REVERSE_FIELDS", "RUN_TIMES", "SAT_CONFLICT_LIMIT", "SAT_SLICE", "SAT_SOLVER",
    "STATUSES", "STONES", "ForwardBound", "ForwardImpossible", "ForwardStep", "JumpTables", "KernelResult",
    "KernelSearch", "MoveGenerator", "ReverseResult", "ReverseSearch", "agrees_with_optimum", "bench_half",
    "bench_results", "chains", "check_forward", "check_reverse", "corner_of", "default_position", "diagram_forward",
    "diagram_reverse", "english_board", "forward_bound", "forward_final", "forward_result", "forward_search", "labels",
    "mask_of", "moves_of", "node_at", "node_in", "nodes_of", "parse_chains", "plain_bfs", "popcount",
    "random_solvable", "read_position", "replay_chain", "replay_forward", "replay_reverse", "results", "sat_summary",
    "solve_forward", "solve_reverse",
]
