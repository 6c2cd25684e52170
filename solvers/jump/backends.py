"""Get a Jump On: finding the answers. :func:`forward_answer` runs the forward search;
:func:`reverse_answer` runs a reverse solve (:class:`~.options.ReverseRequest`) on its backend: a
stored census set that already leaves the position out, else the compiled kernel
(:mod:`.kernel`; the pure-Python engine :mod:`.engine` on boards over 64 nodes), the SAT backend
(:mod:`.sat_backend`), or a stored census by moves (``census-table``). Every answer is a typed
:class:`~.files.ReverseAnswer` with its proof."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Sequence

from powertwo.boards import Board, NodeId

from .. import kernels
from ..fields import SolutionError
from ..registry import Progress, no_progress
from ..satcall import Budget
from .engine import ReverseSearch
from .files import ForwardAnswer, ReverseAnswer, moves_of
from .forward import forward_bound, forward_search
from .invariants import target_setup
from .kernel import KERNEL_LOADING, KernelSearch
from .options import STONES, ReverseRequest, corner_of
from .proof import Engine, Proof, ProofKind, bound_proof
from .sat_backend import SAT_SLICE, reverse_by_sat
from .tables import JumpTables, mask_of
from ..status import FEASIBLE, INFEASIBLE, OPTIMAL, UNKNOWN, Status

KERNEL = "jump"
"""The compiled kernel of the reverse search (:data:`powertwo.solvers.kernels.KERNELS`)."""
KERNEL_COMPILING = ("loading the search kernel (the first run after install compiles it: tens of seconds); "
                    "not counted in the time limit")
"""Said (through ``progress``) when the compiled kernel is not yet loaded in this process: the first
run after install compiles it (tens of seconds on a busy machine), later runs load it from numba's cache."""

SET_UP_TIME = "time limit reached during the set-up (pagodas, perimeter)"
"""Why a run ended before its search began (``stopped``)."""


class ForwardImpossible(SolutionError):
    """No forward answer exists, proven (not "none found in the time given")."""


def forward_answer(board: Board, corner: Any = None, *, seed: int | None = None,
                   time_limit: float | None = None) -> ForwardAnswer:
    """A forward answer: the first one in a fixed search order that uses at least one chain jump
    (an answer without chains is undone by one move of its jumper, RULES.md section 5), or with
    ``seed`` a seeded random one (chains preferred)."""
    corner = corner_of(board, corner)
    if board.size < STONES:
        raise SolutionError(f"board {board.name} has {board.size} nodes, fewer than {STONES} stones")
    bound = forward_bound(board, corner)
    if bound.most < STONES:
        raise ForwardImpossible(f"jump-forward: no sequence of {STONES - 1} steps exists on board {board.name}: "
                                + bound.reason(board))
    started = time.perf_counter()
    try:
        steps = forward_search(board, corner, stones=STONES, seed=seed, require_chains=True, time_limit=time_limit)
        if steps is None:
            steps = forward_search(board, corner, stones=STONES, seed=seed, time_limit=time_limit)
    except KeyboardInterrupt:  # a forward answer is all 31 steps or nothing: there is no best so far
        raise SolutionError(f"jump-forward: interrupted (Ctrl-C) after {time.perf_counter() - started:.1f} s: "
                            f"no sequence of {STONES - 1} steps from corner {board.label(corner)} found yet") from None
    if steps is None:
        raise SolutionError(f"jump-forward: no sequence of {STONES - 1} steps from corner {board.label(corner)} found"
                            + (f" within {time_limit} s" if time_limit else " (search exhausted)"))
    return ForwardAnswer(board=board, corner=corner, steps=tuple(steps), seconds=time.perf_counter() - started)


def default_position(board: Board, corner: Any = None, time_limit: float | None = None) -> list[NodeId]:
    """The final position of the default forward answer (the reverse puzzle's default start);
    ``time_limit`` bounds the forward search (SolutionError when it finds none in time)."""
    return forward_answer(board, corner, time_limit=time_limit).final_position


def reverse_answer(board: Board, request: ReverseRequest, progress: Progress = no_progress) -> ReverseAnswer:
    """From ``request.start`` to one stone in the fewest moves. Ctrl-C ends either backend with the
    best answer so far (status ``feasible``, ``stopped``: why) or, before any, status ``unknown``."""
    compiled = board.size <= 64 and kernels.ready(KERNEL)
    if request.backend == "search" and compiled:
        load_kernel(board, progress)    # before the clock: compiling is not search time
    started = time.perf_counter()
    deadline = None if request.time_limit is None else started + request.time_limit
    answer = census_verdict(board, request.start, request.targets)
    if answer is None and request.backend == "search":
        answer = (_by_kernel(board, request, deadline, progress) if compiled
                  else _by_python(board, request, deadline, progress))
    elif answer is None and request.backend == "census-table":
        answer = _by_census_table(board, request)
    elif answer is None:
        answer = reverse_by_sat(board, request.start, Budget(deadline, conflicts=request.conflict_limit,
                                                             conflict_slice=SAT_SLICE), request.targets, progress)
    return replace(answer, target=request.target, seconds=time.perf_counter() - started)


def census_verdict(board: Board, start: Sequence[NodeId], targets: Sequence[NodeId] | None) -> ReverseAnswer | None:
    """Status ``infeasible`` at once (engine ``census``, no position searched) when a stored census
    solvable set (:func:`powertwo.solvers.census.solvable_set`) starts at this very position, for its
    target or for any node, and leaves the position out; None when no such set is stored or it holds
    the position (a set says solvable, not in how many moves: the search answers that)."""
    from powertwo.solvers.census import solvable_set
    from powertwo.solvers.census.tables import CensusError

    if board.size > 64 or not start:
        return None
    for target in ([targets[0]] if targets is not None and len(targets) == 1 else []) + [None]:
        try:
            found = solvable_set(board, start, target)
        except CensusError:
            return None
        if found is not None and start not in found:
            bound = len(start)
            return ReverseAnswer(board=board, start=tuple(start), status=INFEASIBLE, bound=bound, engine="census",
                                 proof=Proof(kind="census", bound=bound, engine="census"), positions_searched=0)
        if found is not None:
            return None
    return None


def _by_census_table(board: Board, request: ReverseRequest) -> ReverseAnswer:
    """The fewest moves from a stored (or shipped) census by moves
    (:func:`powertwo.solvers.census.fewest.fewest_moves`: the table, met by a census from the
    position where it is partial): ``optimal`` or ``infeasible`` at once, its proof of kind
    ``fewest-moves table`` (re-proved by the checker's own search), how it is known in ``note``."""
    from powertwo.solvers.census.fewest import fewest_moves
    from powertwo.solvers.census.tables import CensusError

    start, targets = request.start, request.targets
    if targets is not None and len(targets) != 1:
        raise SolutionError("--backend census-table: the tables are made for one target node or for any node")
    try:
        found = fewest_moves(board, start, targets[0] if targets else None)
    except CensusError as exc:
        raise SolutionError(f"--backend census-table: {exc}") from None
    tables = JumpTables(board, symmetry=False)
    moves = [tables.chain_between(p, q) for p, q in zip(found.positions, found.positions[1:], strict=False)]
    bound = len(start) if found.moves is None else found.moves
    return ReverseAnswer(board=board, start=tuple(start), status=INFEASIBLE if found.moves is None else OPTIMAL,
                         bound=bound, engine="census-table", moves=moves_of(moves),
                         proof=Proof(kind="fewest-moves table", bound=bound, engine="census-table") if bound else None,
                         positions_searched=found.searched, note=found.how)


def load_kernel(board: Board, progress: Progress) -> None:
    """Compiles the search kernel (first run after install) or loads it from numba's cache, on a
    one-stone position of ``board`` (no pagodas, perimeter or symmetry: a few milliseconds once loaded)."""
    KernelSearch(board, [board.nodes[0]], pagodas=False, merson=False, symmetry=False, perimeter=0,
                 progress=lambda msg: progress(KERNEL_COMPILING if msg == KERNEL_LOADING else msg))


def _time_left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (None: no limit); 0.0 once it has passed."""
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


def _not_run(board: Board, start: Sequence[NodeId], bound: int, engine: Engine, stopped: str) -> ReverseAnswer:
    """Status ``unknown`` when the set-up used up the whole time limit or Ctrl-C came during it:
    ``bound`` is the admissible bound."""
    return ReverseAnswer(board=board, start=tuple(start), status=UNKNOWN, bound=bound, engine=engine,
                         proof=bound_proof(bound, bound, engine), positions_searched=0, stopped=stopped)


def _status(has_moves: bool, proven: bool, infeasible: bool) -> Status:
    if infeasible:
        return INFEASIBLE
    if not has_moves:
        return UNKNOWN
    return OPTIMAL if proven else FEASIBLE


def _by_kernel(board: Board, request: ReverseRequest, deadline: float | None, progress: Progress) -> ReverseAnswer:
    """The compiled kernel (boards of at most 64 nodes, once it is ready). The set-up counts in the
    time limit (``deadline``): its pagodas stop when the deadline passes."""
    start = request.start
    began = time.perf_counter()
    try:
        if request.symmetry:
            board.symmetries   # noqa: B018  (computed once per board, before the pagodas watch the deadline)
        setup = target_setup(board, mask_of(start), request.targets, deadline=deadline)
        ks = KernelSearch(board, start, targets=setup, symmetry=request.symmetry, memory_mb=request.memory_mb,
                          progress=progress, workers=request.workers)
    except KeyboardInterrupt:  # Ctrl-C while the backward perimeter was built
        return _not_run(board, start, min(1, len(start) - 1), "kernel", "interrupted (Ctrl-C)")
    set_up = time.perf_counter() - began
    left = _time_left(deadline)
    if left == 0.0 and setup.targets:
        return _not_run(board, start, min(1, len(start) - 1), "kernel", SET_UP_TIME)
    res = ks.run(time_limit=left, node_limit=request.node_limit)
    return ReverseAnswer(board=board, start=tuple(start), status=_status(res.moves is not None, res.proven,
                                                                         res.infeasible),
                         bound=res.bound, engine="kernel", moves=moves_of(res.moves or []), proof=res.proof,
                         positions_searched=res.nodes, answers=tuple((set_up + t, m) for t, m in res.answers),
                         workers=request.workers, stopped="interrupted (Ctrl-C)" if res.interrupted else "")


def _by_python(board: Board, request: ReverseRequest, deadline: float | None, progress: Progress) -> ReverseAnswer:
    """The pure-Python engine (boards over 64 nodes, or while the compiled kernel is not ready:
    :mod:`powertwo.solvers.kernels`; noted in the answer)."""
    start = request.start
    note = (kernels.not_ready_note(KERNEL) if board.size <= 64
            else f"board {board.name} has {board.size} nodes: the compiled kernel takes at most 64, "
                 "so the pure-Python engine searched")
    rs = ReverseSearch(board, start, targets=request.targets, symmetry=request.symmetry, progress=progress,
                       deadline=deadline)
    low = rs.lower_bound(rs.start, rs.targets)
    left = _time_left(deadline)
    if left == 0.0 and rs.targets:
        return replace(_not_run(board, start, low, "python", SET_UP_TIME), note=note)
    res = rs.run(time_limit=left, node_limit=request.node_limit)
    if res.infeasible:
        kind: ProofKind = "exhausted search" if rs.targets else "position classes and pagodas"
        proof: Proof | None = Proof(kind=kind, bound=res.bound, engine="python")
    else:
        proof = bound_proof(res.bound, low, "python")
    moves = [] if res.positions is None else [rs.tables.chain_between(p, q)
                                              for p, q in zip(res.positions, res.positions[1:], strict=False)]
    return ReverseAnswer(board=board, start=tuple(start), status=_status(res.positions is not None, res.proven,
                                                                         res.infeasible),
                         bound=res.bound, engine="python", moves=moves_of(moves), proof=proof,
                         positions_searched=res.nodes, note=note,
                         stopped="interrupted (Ctrl-C)" if res.interrupted else "")
