"""Get a Jump On (RULES.md section 5): the puzzles' entry points, answer files and checkers.

The package registers ``jump-forward`` and ``jump-reverse`` (:mod:`powertwo.solvers.jump`).

Forward result / solution file::

    {"puzzle": "jump-forward", "board", "corner", "steps": [{"place": node, "jumps": [landings]}],
     "final_position": [32 node ids], "seconds"}

Reverse result / solution file::

    {"puzzle": "jump-reverse", "board", "position": [start nodes], "moves": [{"from": node,
     "jumps": [landings]}], "status": "optimal"|"feasible"|"infeasible"|"unknown",
     "objective": moves, "bound": proven lower bound, "seconds"}

Jumped nodes are implied by consecutive landings and recomputed by the checker, which refuses a
field it does not know. Run facts (``seconds``, ``engine``, ``proof``, ``positions_searched``,
``stopped``, ``note``, ``workers``, ``answers``: when each shorter answer came) are taken as given:
they say how a run went; the answer files in ``results/`` carry no ``seconds`` or ``answers`` (their
timings are in ``results/timings.json``), so a rerun writes them byte for byte the same.
The reverse search runs on the compiled kernel (:mod:`powertwo.solvers.jump.kernel`); the second
backend (``--backend sat``) is the move-set model :mod:`powertwo.models.jump`
(:func:`~powertwo.models.jump.reverse_moves_cnf`) as CNF, solved by CaDiCaL through PySAT. The
pure-Python engine (:mod:`powertwo.solvers.jump.engine`) is the kernel's
referee in the tests and the results job.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Iterable, Literal, Mapping, Sequence

from powertwo.boards import Board, BoardError, NodeId

from .. import kernels
from ..fields import board_fields, known_fields
from ..registry import (
    CheckReport,
    Progress,
    SolutionError,
    no_progress,
    read_json_file,
    require,
)
from ..satcall import Budget, sat_call
from .engine import ReverseSearch
from .forward import ForwardStep, forward_bound, forward_final, forward_search
from .invariants import target_setup
from .kernel import DEFAULT_MEMORY_MB, EXHAUSTED, FOUND, KERNEL_LOADING, KernelSearch
from .kernel import chains as _kernel_chains
from .tables import JumpTables, mask_of, nodes_of
from ..fields import counted

FORWARD = "jump-forward"
REVERSE = "jump-reverse"
STONES = 32
BACKENDS = ("search", "sat")
STATUSES = ("optimal", "feasible", "infeasible", "unknown")
SAT_SOLVER = "cadical195"
SAT_CONFLICT_LIMIT = 1_000_000
"""Conflicts the results job gives the SAT backend on each board's default position (a conflict
limit, unlike seconds, gives the same answer on every machine; the real board's optimum takes about
320,000, 12 s)."""
PYTHON_ENGINE_NODES = 400_000_000
"""Positions the pure-Python engine may search when the results job has it re-derive the default
reverse optimum, as the referee of the kernel (a cap, not seconds, so the row is the same on every
machine; the real board's default position takes about 110 million, 90 s)."""
SAT_SLICE = 10_000
"""Conflicts per CaDiCaL call between two looks at the clock and at Ctrl-C."""
FORWARD_FIELDS = frozenset({"puzzle", "board", "board_fingerprint", "corner", "steps", "final_position", "seconds"})
REVERSE_FIELDS = frozenset({"puzzle", "board", "board_fingerprint", "position", "moves", "status", "objective",
                            "bound", "target",
                            "seed", "chain_steps", "seconds", "engine", "proof", "positions_searched", "stopped",
                            "note", "workers", "answers"})
RUN_TIMES = ("seconds", "answers")
"""Fields that time a run: the answer files in ``results/`` leave them out (a rerun rewrites them
byte for byte; the timings go to ``results/timings.json``)."""
ENGINES = ("kernel", "python", "sat", "census")
KERNEL = "jump"
"""The compiled kernel of the reverse search (:data:`powertwo.solvers.kernels.KERNELS`)."""
KERNEL_COMPILING = ("loading the search kernel (the first run after install compiles it: tens of seconds); "
                    "not counted in the time limit")
"""Said (through ``progress``) when the compiled kernel is not yet loaded in this process: the first
run after install compiles it (tens of seconds on a busy machine), later runs load it from numba's cache."""


# ---------------------------------------------------------------------------- options
def corner_of(board: Board, corner: Any) -> NodeId:
    """The jumper's start: ``corner`` checked, or the default corner of ``board`` (from geometry)."""
    if corner is None:
        unjumpable = nodes_of(JumpTables(board, symmetry=False).unjumpable)
        if not unjumpable:
            raise SolutionError(
                f"board {board.name} has no corner (a node that is the middle of no jump); give --corner")
        corner = board.outer_corners[0]  # the bottom-left outer corner (60 on the reconstruction)
        return corner if corner in unjumpable else unjumpable[0]
    return _option_node(board, corner, "--corner")


def node_in(board: Board, raw: Any, where: str) -> NodeId:
    """A node given by its id or its label (``60`` or ``"a13"``); a :class:`SolutionError` naming
    ``where`` otherwise."""
    if isinstance(raw, bool) or not isinstance(raw, (int, str)):
        raise SolutionError(f"{where}: {str(raw)[:40]!r} is not a node (an id or a label)")
    try:
        return board.node(raw)
    except BoardError:
        raise SolutionError(f"{where}: node {str(raw)[:40]} does not exist on board {board.name}") from None


def _option_node(board: Board, raw: Any, flag: str) -> NodeId:
    """``--corner`` or ``--target``: a node id or label of ``board``."""
    if isinstance(raw, (int, str)) and not isinstance(raw, bool):
        try:
            return board.node(raw)
        except BoardError:
            pass
    raise SolutionError(f"{flag} {str(raw)[:40]}: node does not exist on board {board.name}")


def labels(board: Board, nodes: Iterable[NodeId]) -> str:
    """Nodes by their labels, in the order given: ``a13, e13, g13``."""
    return ", ".join(board.label(v) for v in nodes)


def _backend(backend: Any) -> str:
    backend = "search" if backend is None else backend
    if backend not in BACKENDS:
        raise SolutionError(f"--backend {backend!r}: use one of {', '.join(BACKENDS)}")
    return backend


def read_position(source: Any, board: Board) -> list[NodeId]:
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


# ---------------------------------------------------------------------------- forward
class ForwardImpossible(SolutionError):
    """No forward answer exists, proven (not "none found in the time given")."""


def solve_forward(board: Board, *, corner: Any = None, backend: Any = None, time_limit: float | None = None,
                  seed: int | None = None, progress: Progress = no_progress) -> dict:
    """A forward answer: the first one in a fixed search order that uses at least one chain jump
    (an answer without chains is undone by one move of its jumper, RULES.md section 5), or with
    ``seed`` a seeded random one (chains preferred)."""
    corner = corner_of(board, corner)
    if _backend(backend) != "search":
        raise SolutionError(
            "jump-forward: only the search backend places stones (a forward answer is found in milliseconds)")
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
    return forward_result(board, corner, steps, time.perf_counter() - started)


def forward_result(board: Board, corner: NodeId, steps: Sequence[ForwardStep], seconds: float) -> dict:
    return {
        "puzzle": FORWARD, **board_fields(board), "corner": corner,
        "steps": [{"place": s.place, "jumps": list(s.jumps)} for s in steps],
        "final_position": forward_final(board, corner, steps),
        "seconds": round(seconds, 3),
    }


def _landings(raw: Any, where: str, board: Board) -> list[NodeId]:
    if not isinstance(raw, list):
        raise SolutionError(f"{where}: field 'jumps' must be a list of landing nodes")
    for v in raw:
        if isinstance(v, bool) or not isinstance(v, (int, str)):
            raise SolutionError(f"{where}: field 'jumps': {str(v)[:40]!r} is not a node (an id or a label)")
    return [node_in(board, v, where) for v in raw]


def _node_field(entry: Mapping, key: str, where: str, board: Board) -> NodeId:
    if key not in entry:
        require(entry, key, int, where)     # the shared "missing field" error
    return node_in(board, entry[key], where)


def replay_chain(tables: JumpTables, occ: set, cur: NodeId, landings: Sequence[NodeId], label: str,
                 remove: bool) -> tuple[str | None, NodeId]:
    """Replays a chain of jumps of the stone on ``cur`` (``remove``: jumped stones go), updating
    ``occ``; returns the first fault (nodes by their labels) and the node the stone stands on."""
    name = tables.board.label
    for k, nxt in enumerate(landings, start=1):
        over = tables.over.get((cur, nxt))
        jump = f"{label}, jump {k}: {name(cur)} to {name(nxt)}"
        if over is None:
            return f"{jump} is not a jump along a line", cur
        if over not in occ:
            return f"{jump} jumps over node {name(over)}, which is empty", cur
        if nxt in occ:
            return f"{jump} lands on node {name(nxt)}, which is occupied", cur
        occ.discard(cur)
        if remove:
            occ.discard(over)
        occ.add(nxt)
        cur = nxt
    return None, cur


def replay_forward(board: Board, corner: NodeId, steps: Sequence[tuple[NodeId, Sequence[NodeId]]]
                   ) -> tuple[str | None, set[NodeId], NodeId, int]:
    """Replays forward steps (place, landings) from the jumper on ``corner``, up to the first bad
    one: (its fault or None, the stones, the jumper's node, the number of steps with chain jumps).
    The checker and the workbench's click puzzle share it."""
    tables = JumpTables(board, symmetry=False)
    name = board.label
    occ = {corner}
    jumper = corner
    chains = 0
    for i, (place, landings) in enumerate(steps, start=1):
        label = f"step {i}"
        if place in occ:
            return f"{label}: node {name(place)} is occupied", occ, jumper, chains
        if place not in board.adjacency[jumper]:
            return f"{label}: node {name(place)} is not adjacent to the jumper at {name(jumper)}", occ, jumper, chains
        if not landings:
            return f"{label}: the stone placed on {name(place)} is not jumped (no landing given)", occ, jumper, chains
        if tables.over.get((jumper, landings[0])) != place:
            return (f"{label}: the first landing {name(landings[0])} is not the node beyond {name(place)} from the "
                    f"jumper at {name(jumper)}", occ, jumper, chains)
        occ.add(place)
        fault, jumper = replay_chain(tables, occ, jumper, landings, label, remove=False)
        if fault:
            return fault, occ, jumper, chains
        chains += len(landings) > 1
    return None, occ, jumper, chains


def replay_reverse(board: Board, start: Sequence[NodeId], moves: Sequence[tuple[NodeId, Sequence[NodeId]]]
                   ) -> tuple[str | None, set[NodeId]]:
    """Replays reverse moves (from, landings) on ``start`` up to the first bad one: (its fault or
    None, the stones left). The checker and the workbench's click puzzle share it."""
    tables = JumpTables(board, symmetry=False)
    occ = set(start)
    for i, (frm, landings) in enumerate(moves, start=1):
        label = f"move {i}"
        if frm not in occ:
            return f"{label}: node {board.label(frm)} has no stone", occ
        if not landings:
            return f"{label}: no jump given", occ
        fault, _ = replay_chain(tables, occ, frm, landings, label, remove=True)
        if fault:
            return fault, occ
    return None, occ


def check_forward(data: Mapping, board: Board) -> CheckReport:
    where = FORWARD
    known_fields(data, FORWARD_FIELDS, where)
    corner = _node_field(data, "corner", where, board)
    raw_steps = require(data, "steps", list, where)
    parsed = parse_chains(raw_steps, "place", "step", where, board)
    claimed = data.get("final_position")
    if isinstance(claimed, list):
        claimed = [node_in(board, v, f"{where}: field 'final_position'") for v in claimed]
    fault, occ, _, chains = replay_forward(board, corner, parsed)
    faults = [fault] if fault else []
    notes = []
    if not faults:
        if len(parsed) != STONES - 1:
            faults.append(f"the answer has {len(parsed)} steps; {STONES - 1} steps put {STONES} stones on the board")
        elif claimed is not None and (not isinstance(claimed, list) or sorted(claimed) != sorted(occ)):
            faults.append("final_position does not match the replay (the stones stand on "
                          f"{labels(board, sorted(occ))})")
        else:
            notes.append(f"{len(parsed)} steps, {len(occ)} stones on the board, "
                         f"{chains} {'step' if chains == 1 else 'steps'} with chain jumps")
    return CheckReport(tuple(faults), tuple(notes))


def _require_valid(check, puzzle: str, data: Mapping, board: Board) -> None:
    report = check(data, board)
    if not report.valid:
        raise SolutionError(f"{puzzle}: cannot draw an invalid answer: {report.faults[0]}")


def parse_chains(raw: list, start_key: str, noun: str, where: str, board: Board) -> list[tuple[NodeId, list[NodeId]]]:
    """Steps ``{"place", "jumps"}`` or moves ``{"from", "jumps"}`` as (node, landings) pairs."""
    out = []
    for i, entry in enumerate(raw, start=1):
        here = f"{where}: {noun} {i}"
        if not isinstance(entry, Mapping):
            raise SolutionError(f"{here}: must be an object {{'{start_key}': node, 'jumps': [landings]}}")
        out.append((_node_field(entry, start_key, here, board),
                    _landings(require(entry, "jumps", list, here), here, board)))
    return out


JUMP_LEGEND = {"light": "stone", "dark": "the jumping stone", "arrow": "arrow: the chain of jumps of this step",
               "chain": "1, 2, ... beside a chain: its jumps in order", "number": "+ the stone placed this step"}


def diagram_forward(data: Mapping, board: Board, *, names: str | None = None):
    from powertwo.boards.diagram import Arrow, Stone
    from powertwo.boards.draw import panels

    _require_valid(check_forward, FORWARD, data, board)
    occ = {data["corner"]}
    jumper = data["corner"]
    frames = []
    for i, step in enumerate(data["steps"], start=1):
        path = (jumper,) + tuple(step["jumps"])
        occ.add(step["place"])
        occ.discard(jumper)
        jumper = step["jumps"][-1]
        occ.add(jumper)
        stones = [Stone(v, "dark" if v == jumper else "light", text="+" if v == step["place"] else "")
                  for v in sorted(occ)]
        frames.append({"stones": stones, "arrows": [Arrow(path, numbered=True)], "names": names,
                       "title": f"step {i}: +{board.label(step['place'])}, {len(step['jumps'])} jump(s)"})
    return panels(board, frames, columns=8, panel_px=240, legend=JUMP_LEGEND)


# ---------------------------------------------------------------------------- reverse
def default_position(board: Board, corner: Any = None, time_limit: float | None = None) -> list[NodeId]:
    """The final position of the default forward answer (the reverse puzzle's default start);
    ``time_limit`` bounds the forward search (SolutionError when it finds none in time)."""
    return solve_forward(board, corner=corner, time_limit=time_limit)["final_position"]


def _targets(board: Board, target: Any, targets: Sequence[NodeId] | None) -> list[NodeId] | None:
    """``--target NODE`` (the last stone must stand on it) or the library's ``targets`` list."""
    if target is None:
        return None if targets is None else sorted(targets)
    return [_option_node(board, target, "--target")]


def _positive(value: Any, default: int, flag: str, unit: str) -> int:
    """An option that counts something (``--memory`` MiB, ``--workers`` threads): ``default`` when
    not given, else a positive whole number."""
    value = default if value is None else value
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SolutionError(f"--{flag} {value!r}: must be a positive number of {unit}")
    return value


def solve_reverse(board: Board, *, position: Any = None, backend: Any = None, time_limit: float | None = None,
                  symmetry: bool | None = None, corner: Any = None, target: Any = None,
                  targets: Sequence[NodeId] | None = None, memory: Any = None, workers: Any = None,
                  node_limit: int | None = None, conflict_limit: int | None = None,
                  progress: Progress = no_progress) -> dict:
    """From a position to one stone in the fewest moves (see the module docstring). ``target``: the
    node that must hold the last stone. ``node_limit`` caps the positions the search visits and
    ``conflict_limit`` the SAT backend's conflicts (both reproducible, unlike ``time_limit``);
    ``memory``: MiB for the kernel's hash tables; ``workers``: the kernel's search threads (default 1,
    the same run every time; more threads finish sooner, but which answer is found and the positions
    counted then vary from run to run). Ctrl-C ends either backend with the best
    answer so far (status ``feasible``, ``stopped``: why) or, before any, status ``unknown``."""
    backend = _backend(backend)
    start = default_position(board, corner) if position is None else read_position(position, board)
    if time_limit is not None and (isinstance(time_limit, bool) or time_limit <= 0):
        raise SolutionError(f"--time-limit {time_limit}: must be a positive number of seconds")
    goal = _targets(board, target, targets)
    if backend == "search" and board.size <= 64 and kernels.ready(KERNEL):
        load_kernel(board, progress)    # before the clock: compiling is not search time
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    out = census_verdict(board, start, goal)
    if out is not None:   # a stored census set already leaves the position out
        pass
    elif backend == "search":
        out = _reverse_search(board, start, deadline, symmetry is not False, goal, progress, node_limit,
                              _positive(memory, DEFAULT_MEMORY_MB, "memory", "MiB"),
                              _positive(workers, 1, "workers", "threads"))
    else:
        out = _reverse_sat(board, start, Budget(deadline,
                                                conflicts=conflict_limit, conflict_slice=SAT_SLICE), goal, progress)
    if goal is not None and len(goal) == 1:
        out["target"] = goal[0]
    out["seconds"] = round(time.perf_counter() - started, 3)
    return out


def _reverse_result(board: Board, start: Sequence[NodeId], moves, status: str, objective, bound: int) -> dict:
    return {
        "puzzle": REVERSE, **board_fields(board), "position": sorted(start),
        "moves": [{"from": f, "jumps": list(js)} for f, js in (moves or [])],
        "status": status, "objective": objective, "bound": bound,
    }


def moves_of(tables: JumpTables, positions: Sequence[int]) -> list[tuple[NodeId, list[NodeId]]]:
    return [tables.chain_between(p, q) for p, q in zip(positions, positions[1:], strict=False)]


def census_verdict(board: Board, start: Sequence[NodeId], targets: Sequence[NodeId] | None) -> dict | None:
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
            where = "any node" if target is None else board.label(target)
            return dict(_reverse_result(board, start, [], "infeasible", None, len(start)), engine="census",
                        proof=f"census: the stored solvable set from this position (last stone on {where}) "
                              "leaves it out", positions_searched=0)
        if found is not None:
            return None
    return None


def load_kernel(board: Board, progress: Progress) -> None:
    """Compiles the search kernel (first run after install) or loads it from numba's cache, on a
    one-stone position of ``board`` (no pagodas, perimeter or symmetry: a few milliseconds once loaded)."""
    KernelSearch(board, [board.nodes[0]], pagodas=False, merson=False, symmetry=False, perimeter=0,
                 progress=lambda msg: progress(KERNEL_COMPILING if msg == KERNEL_LOADING else msg))


def _time_left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (None: no limit); 0.0 once it has passed."""
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


def _out_of_time(board: Board, start: Sequence[NodeId], bound: int, engine: str) -> dict:
    """Status ``unknown`` when the set-up used up the whole time limit: ``bound`` is the admissible bound."""
    return dict(_reverse_result(board, start, [], "unknown", None, bound), engine=engine, proof="",
                positions_searched=0, stopped="time limit reached during the set-up (pagodas, perimeter)")


def _reverse_search(board, start, deadline, symmetry, targets, progress, node_limit=None,
                    memory: int = DEFAULT_MEMORY_MB, workers: int = 1) -> dict:
    """The compiled kernel on boards of at most 64 nodes once it is ready (:mod:`powertwo.solvers.kernels`),
    else the Python engine (noted). The set-up counts in the time limit (``deadline``): its pagodas
    stop when the deadline passes."""
    if board.size <= 64 and kernels.ready(KERNEL):
        began = time.perf_counter()
        try:
            if symmetry:
                board.symmetries   # noqa: B018  (computed once per board, before the pagodas watch the deadline)
            setup = target_setup(board, mask_of(start), targets, deadline=deadline)
            ks = KernelSearch(board, start, targets=targets, symmetry=symmetry, memory_mb=memory, progress=progress,
                              workers=workers, setup=setup)
        except KeyboardInterrupt:  # Ctrl-C while the backward perimeter was built
            return dict(_reverse_result(board, start, [], "unknown", None, 1), engine="kernel", proof="",
                        positions_searched=0, stopped="interrupted (Ctrl-C)")
        set_up = time.perf_counter() - began
        left = _time_left(deadline)
        if left == 0.0 and setup.targets:
            return _out_of_time(board, start, 1, "kernel")
        res = ks.run(time_limit=left, node_limit=node_limit)
        if res.infeasible:
            out = _reverse_result(board, start, [], "infeasible", None, res.bound)
        elif res.moves is None:
            out = _reverse_result(board, start, [], "unknown", None, res.bound)
        else:
            status = "optimal" if res.proven else "feasible"
            out = _reverse_result(board, start, res.moves, status, len(res.moves), res.bound)
        out.update(engine="kernel", proof=res.proof, positions_searched=res.nodes)
        if res.answers:   # when each shorter answer came, counted from the search's set-up (a run fact)
            out["answers"] = [{"seconds": round(set_up + t, 3), "moves": m} for t, m in res.answers]
        if workers > 1:   # the positions are those of all threads together
            out["workers"] = workers
        if res.interrupted:
            out["stopped"] = "interrupted (Ctrl-C)"
        return out
    rs = ReverseSearch(board, start, targets=targets, symmetry=symmetry, progress=progress, deadline=deadline)
    left = _time_left(deadline)
    if left == 0.0 and rs.targets:
        return dict(_out_of_time(board, start, rs.lower_bound(rs.start, rs.targets), "python"),
                    note=_python_note(board))
    pres = rs.run(time_limit=left, node_limit=node_limit)
    if pres.infeasible:
        out = _reverse_result(board, start, [], "infeasible", None, pres.bound)
        proof = "exhausted search" if rs.targets else "position classes and pagodas leave no node for the last stone"
    elif pres.positions is None:
        out = _reverse_result(board, start, [], "unknown", None, pres.bound)
        proof = ""
    else:
        moves = moves_of(rs.tables, pres.positions)
        out = _reverse_result(board, start, moves, "optimal" if pres.proven else "feasible", len(moves), pres.bound)
        proof = f"exhausted search: no finish within {counted(pres.bound - 1, 'move')}" if pres.bound > 1 else ""
    out.update(engine="python", proof=proof, positions_searched=pres.nodes, note=_python_note(board))
    if pres.interrupted:
        out["stopped"] = "interrupted (Ctrl-C)"
    return out


def _python_note(board: Board) -> str:
    if board.size <= 64:
        return kernels.not_ready_note(KERNEL)
    return (f"board {board.name} has {board.size} nodes: the compiled kernel takes at most 64, "
            "so the pure-Python engine searched")


def _reverse_sat(board, start, budget: Budget, targets, progress) -> dict:
    """CaDiCaL on the move-set model (:func:`powertwo.models.jump.reverse_moves_cnf`) for ``floor``,
    ``floor + 1``, ... moves, where ``floor`` is the admissible bound of the search (unjumpable
    stones, Merson regions): each UNSAT proves one more move is needed, the first plan is optimal.
    A plan that has move sets no chain realises excludes them (for every move count after it too)
    and asks again. Ends with the bound so far when the budget (time, conflicts, Ctrl-C) runs out."""
    rs = ReverseSearch(board, start, targets=targets, pagodas=False)
    if not rs.targets:
        return dict(_reverse_result(board, start, [], "infeasible", None, len(start)), engine="sat",
                    proof=target_setup(board, rs.start, targets, pagodas=False).why_none)
    steps = len(start) - 1
    floor = bound = max(1, rs.lower_bound(rs.start, rs.targets)) if steps else 0
    excluded: set = set()
    plan: list | None = None
    try:
        while bound <= steps:
            progress(f"sat: asking for {counted(bound, 'move')}")
            answer = _sat_plan(board, start, bound, nodes_of(rs.targets), budget, excluded)
            if answer is not False:
                plan = answer
                break
            bound += 1
    except KeyboardInterrupt:  # Ctrl-C between two SAT calls
        budget.interrupted = True
    proof = _sat_proof(floor, bound, len(excluded))
    if plan is not None:
        out = _reverse_result(board, start, plan, "optimal", len(plan), len(plan))
    elif bound > steps:
        out = _reverse_result(board, start, [], "infeasible", None, bound)
    else:
        out = _reverse_result(board, start, [], "unknown", None, bound)
        if budget.spent:
            out["stopped"] = budget.reason
    out.update(engine="sat", proof=proof)
    return out


def _sat_proof(floor: int, bound: int, excluded: int) -> str:
    """What proved "no finish within ``bound - 1`` moves": the admissible bound below ``floor``, the
    move-set model from ``floor`` on."""
    if bound <= 1:
        return ""
    admissible = "the admissible bound (unjumpable stones, Merson regions)"
    if bound == floor:
        return f"no finish within {counted(bound - 1, 'move')}: {admissible}"
    counts = counted(floor, "move") if floor == bound - 1 else f"{floor} to {bound - 1} moves"
    below = f"; fewer than {floor} by {admissible}" if floor > 1 else ""
    return (f"no finish within {counted(bound - 1, 'move')}: {SAT_SOLVER} finds no plan of {counts} in the "
            f"move-set model with trail parity ({counted(excluded, 'move set')} excluded: no order of their "
            f"jumps is a chain){below}")


def _sat_plan(board, start, moves: int, targets, budget: Budget, excluded: set) -> list | Literal[False] | None:
    """A plan of exactly ``moves`` moves (a list of ``(from, landings)``), False when there is none,
    None when the budget ran out. ``excluded``: the move sets (first, last, lines) known to be no
    chain, extended with those found here."""
    from dataclasses import replace

    from powertwo.models.jump import move_chain, reverse_moves_cnf
    from pysat.solvers import Solver

    rc = reverse_moves_cnf(board, start, moves, targets=targets)
    with Solver(name=SAT_SOLVER, bootstrap_with=rc.clauses) as solver:
        for move in excluded:
            solver.append_formula(rc.exclusion(move))
        while True:
            spent = budget.spent_conflicts - solver.accum_stats().get("conflicts", 0)
            answer = sat_call(solver, [], budget)
            budget.spent_conflicts = spent + solver.accum_stats().get("conflicts", 0)  # the real count
            if answer is None:
                return None
            if not answer:
                return False
            move_sets = rc.move_sets(solver.get_model())
            chains = [move_chain(move) for move in move_sets]
            if all(chain is not None for chain in chains):
                return [(move.first, chain) for move, chain in zip(move_sets, chains, strict=True)]
            for move, chain in zip(move_sets, chains, strict=True):
                if chain is None:
                    excluded.add(replace(move, stones=frozenset()))
                    solver.append_formula(rc.exclusion(move))


def check_reverse(data: Mapping, board: Board, *, reprove: bool = True) -> CheckReport:
    """Replays every move, then (``reprove``) re-proves the claimed lower bound or infeasibility
    with its own search: the kernel (or the Python engine on boards over 64 nodes). An
    ``infeasible`` of engine ``census`` (a stored solvable set) is re-proved the same way, without the set."""
    where = REVERSE
    known_fields(data, REVERSE_FIELDS, where)
    start = read_position(require(data, "position", list, where), board)
    if "engine" in data and data["engine"] not in ENGINES:
        raise SolutionError(f"{where}: field 'engine' must be one of {', '.join(ENGINES)}")
    seed_fault = _seed_fault(data, start, board)
    raw_moves = require(data, "moves", list, where)
    status = require(data, "status", str, where)
    if status not in STATUSES:
        raise SolutionError(f"{where}: field 'status' must be one of {', '.join(STATUSES)}")
    objective = data.get("objective")
    bound = data.get("bound")
    if objective is not None and (isinstance(objective, bool) or not isinstance(objective, int)):
        raise SolutionError(f"{where}: field 'objective' must be int or null")
    if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
        raise SolutionError(f"{where}: field 'bound' must be int or null")
    target = data.get("target")
    if target is not None:
        target = _node_field(data, "target", where, board)
    parsed = parse_chains(raw_moves, "from", "move", where, board)
    fault, occ = replay_reverse(board, start, parsed)
    faults: list[str] = [f for f in (seed_fault, fault) if f]
    notes = []
    if not faults:
        if status == "infeasible" or status == "unknown":
            if parsed:
                faults.append(f"status {status} but the file gives {counted(len(parsed), 'move')}")
        elif len(occ) != 1:
            faults.append(f"after {counted(len(parsed), 'move')} {len(occ)} stones are left, not one")
        elif target is not None and target not in occ:
            faults.append(f"the last stone stands on {board.label(next(iter(occ)))}, not on the target "
                          f"{board.label(target)}")
        elif objective != len(parsed):
            faults.append(f"objective {objective} does not match the {counted(len(parsed), 'move')} given")
        elif bound is not None and bound > len(parsed):
            faults.append(f"bound {bound} exceeds the {counted(len(parsed), 'move')} found")
        elif status == "optimal" and bound != len(parsed):
            faults.append(f"status optimal but the bound {bound} is below the {counted(len(parsed), 'move')} found")
        if not faults and parsed:
            jumps = sum(len(js) for _, js in parsed)
            notes.append(f"{counted(len(parsed), 'move')}, {jumps} jumps, last stone on {board.label(next(iter(occ)))}")
    if not faults:
        if not reprove:
            notes.append(f"status {status}; the bound {bound} was not re-proved (reprove=False)")
        else:
            fault, note = _reprove(board, start, status, bound, None if target is None else [target])
            (faults if fault else notes).append(fault or note)
    return CheckReport(tuple(faults), tuple(notes))


def _seed_fault(data: Mapping, start: Sequence[NodeId], board: Board) -> str:
    """A benchmark file's ``seed`` and ``chain_steps``: the seeded forward answer is found again and
    must end on ``position`` with that many chain steps ("" when they agree or are absent)."""
    if "seed" not in data:
        if "chain_steps" in data:
            raise SolutionError(f"{REVERSE}: field 'chain_steps' needs the field 'seed' it counts from")
        return ""
    seed = require(data, "seed", int, REVERSE)
    fwd = solve_forward(board, seed=seed)
    if sorted(fwd["final_position"]) != sorted(start):
        return (f"seed {seed}: the seeded forward answer ends on {labels(board, fwd['final_position'])}, not on the "
                "position given")
    chain_steps = sum(len(s["jumps"]) > 1 for s in fwd["steps"])
    if "chain_steps" in data and data["chain_steps"] != chain_steps:
        return f"chain_steps {data['chain_steps']!r}: the seeded forward answer has {chain_steps} steps with chains"
    return ""


def _reprove(board: Board, start: Sequence[NodeId], status: str, bound: int | None,
             targets: list[NodeId] | None) -> tuple[str, str]:
    """(fault, "") or ("", note): the claim "no finish at all" (``infeasible``) or "no finish
    within ``bound - 1`` moves" checked by the checker's own exhaustive search; while the compiled
    kernel is not ready (:mod:`powertwo.solvers.kernels`), a note says the claim was not re-proved."""
    engine = "kernel" if board.size <= 64 else "Python engine"
    if board.size <= 64 and not kernels.ready(KERNEL) and (status == "infeasible" or (bound or 0) > 1):
        return "", (f"status {status}" + ("" if bound is None else f", bound {bound}")
                    + f": not re-proved now ({kernels.not_ready_note(KERNEL).split(':')[0]})")
    if status == "infeasible":
        if board.size <= 64:
            ks = KernelSearch(board, start, targets=targets)
            if not ks.setup.targets:
                return "", f"infeasible confirmed: {ks.setup.why_none}"
            found, jumps = ks.search(None)
            moves = len(_kernel_chains(jumps)) if found == FOUND else None
        else:
            res = ReverseSearch(board, start, targets=targets).run()
            moves = res.moves
        if moves is not None:
            return f"status infeasible but a finish exists: the checker found one in {counted(moves, 'move')}", ""
        return "", f"infeasible confirmed: the checker's {engine} exhausted the search"
    if bound is None:
        return "", f"status {status}; no bound claimed"
    if bound <= 1:
        return "", f"status {status}; bound {bound} needs no proof (at least one move is needed)"
    budget = bound - 1
    if board.size <= 64:
        ks = KernelSearch(board, start, targets=targets)
        status_k, jumps = ks.search(budget) if ks.setup.targets else (EXHAUSTED, [])
        moves = len(_kernel_chains(jumps)) if status_k == FOUND else None
    else:
        res = ReverseSearch(board, start, targets=targets).run(max_moves=budget)
        moves = res.moves
    if moves is not None:
        claim = "status optimal" if status == "optimal" else f"bound {bound}"
        finish = counted(moves, "move")
        verb = "suffices" if moves == 1 else "suffice"
        return f"{claim} but {finish} {verb}: the checker found a finish in {finish}", ""
    return "", (f"status {status}; bound {bound} re-proved: the checker's {engine} finds no finish "
                f"within {counted(budget, 'move')}")


def diagram_reverse(data: Mapping, board: Board, *, names: str | None = None):
    from powertwo.boards.diagram import Arrow, Stone
    from powertwo.boards.draw import panels

    _require_valid(check_reverse, REVERSE, data, board)
    tables = JumpTables(board, symmetry=False)
    occ = set(data["position"])
    frames = []
    for i, mv in enumerate(data["moves"], start=1):
        path = (mv["from"],) + tuple(mv["jumps"])
        stones = [Stone(v, "dark" if v == mv["from"] else "light") for v in sorted(occ)]
        replay_chain(tables, occ, mv["from"], mv["jumps"], "", remove=True)
        frames.append({"stones": stones, "arrows": [Arrow(path, numbered=True)], "names": names,
                       "title": f"move {i}: {len(mv['jumps'])} jump(s)"})
    frames.append({"stones": [Stone(v, "light") for v in sorted(occ)], "names": names,
                   "title": "end" if data["moves"] else f"start ({data['status']})"})
    legend = JUMP_LEGEND | {"dark": "the stone that moves (a chain of jumps is one move)"}
    return panels(board, frames, columns=6, panel_px=260, legend=legend)


