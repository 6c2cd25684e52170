"""Job-level parallel proof search (as for Hex 9x9): the game tree is split ``depth`` plies below the
root, every position there not yet decided by the rules is a *job* (one per position up to the
board's symmetries), df-pn (:func:`powertwo.solvers.prove.prove`) runs each job in a Dask worker,
and the results are combined by minimax over the split's upper tree.

* **Split** (:func:`split`): breadth first from the root, every position once by its key (the
  search's key: up to the symmetries the rules respect); a finished game (or one the game's exact
  shortcut decides) is not expanded. The positions ``depth`` plies down that are open are the jobs.
* **Run**: on a ``LocalCluster`` of ``workers`` processes by default, or on a running scheduler
  (the census's :func:`..census.distributed.connect`: the address checked, a scheduler that does not
  answer within 10 s refused in one line); each job under the same limits (``Limits.seconds`` is per job).
  Each result goes into the store (:mod:`.store`) as it comes back: a later run over the same store
  runs only the jobs not settled there.
* **Combine** (:func:`combine`): a position is won when one of its moves leads to a position lost
  for the side to move there, lost when all lead to positions won there, ``neither`` when none wins
  and all are decided; repeated until nothing changes (the upper tree may hold a cycle: only what
  follows from decided positions in finitely many steps is concluded, so nothing rests on a cycle).
  A job's value does not depend on the path to it: a proven win is a win in a finite number of
  moves from the position itself (docs/prove.md). Tower of Power, whose threefold repetition makes
  a position's value depend on its history, is not split.

The answer (:class:`SplitResult`) says what is proven and what is not: the root's value if reached,
for every ply down to the split the positions won, lost, neither and unknown, the deepest ply all of
whose positions are decided, and every move at the root with its value.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable

from powertwo.boards.outfile import write_text
from powertwo.rules import AnyGame, Game, RulesError

from ..registry import Progress, no_progress
from .dfpn import ProveError
from .positions import Positions
from .store import JobRow, JobStore
from .values import Limits, Value

PROGRESS_SECONDS = 5.0
WORKER_MIB = 512
"""A LocalCluster worker's memory beyond its job's tables (the game, the interpreter)."""
MAX_POSITIONS = 200_000
"""The most positions the upper tree may hold (a split too deep for one machine's memory is refused)."""


@dataclass
class _Node:
    """A position of the upper tree: its key, its position, the ply it is first met at, its moves
    (notation, the key after) when expanded, and what is known of it for the side to move."""

    key: str
    state: Any
    ply: int
    line: tuple[str, ...] = ()
    """The moves from the root by which the split first met the position."""
    moves: list[tuple[str, str]] = field(default_factory=list)
    expanded: bool = False
    value: Value = Value.UNKNOWN
    move: str | None = None
    job: bool = False


@dataclass
class SplitTree:
    """The upper tree of a split: its positions by key, the root's key, the split's depth."""

    nodes: dict[str, _Node]
    root: str
    depth: int

    def jobs(self) -> list[_Node]:
        return [n for n in self.nodes.values() if n.job]

    def plies(self) -> list[set[str]]:
        """The keys of the positions exactly ``d`` plies from the root, for ``d`` = 0 .. depth."""
        out = [{self.root}]
        for _ in range(self.depth):
            below: set[str] = set()
            for key in out[-1]:
                below.update(k for _, k in self.nodes[key].moves)
            out.append(below)
        return out


def key_text(key: Hashable) -> str:
    """A position key as the store's text (JSON of its numbers)."""
    return json.dumps(key, separators=(",", ":"))


def _decided(game: AnyGame, positions: Positions, state: Any) -> Value | None:
    """The value of a finished game (or one the game's shortcut decides) for the side to move."""
    out = game.outcome(state)
    winner = out.winner if out is not None else positions.shortcut(state)
    if out is None and winner is None:
        return None
    if winner is None:
        return Value.NEITHER
    return Value.WON if winner == state.to_move else Value.LOST


def split(game: AnyGame, state: Any, depth: int, positions: Positions, progress: Progress = no_progress) -> SplitTree:
    """The upper tree of ``depth`` plies from ``state`` (see the module text)."""
    if game.name == "tower-of-power":
        raise ProveError("tower-of-power: a position's value depends on its history (threefold repetition), "
                         "so it is not split into jobs")
    root = key_text(positions.key(state))
    nodes = {root: _Node(root, state, 0)}
    level = [nodes[root]]
    for ply in range(depth + 1):
        below: list[_Node] = []
        for node in level:
            known = _decided(game, positions, node.state)
            if known is not None:
                node.value = known
            elif ply == depth:
                node.job = True
            else:
                below.extend(_expand(game, positions, node, nodes))
        if len(nodes) > MAX_POSITIONS:
            raise ProveError(f"a split {depth} plies deep holds more than {MAX_POSITIONS:,} positions: split "
                             "less deep")
        progress(f"split: {len(below):,} new positions {ply + 1} plies down" if ply < depth else
                 f"split: {sum(n.job for n in nodes.values()):,} jobs {depth} plies down")
        level = below
    return SplitTree(nodes=nodes, root=root, depth=depth)


def _expand(game: AnyGame, positions: Positions, node: _Node, nodes: dict[str, _Node]) -> list[_Node]:
    """List ``node``'s moves (in the order of their notation); the positions met for the first time."""
    try:
        moves = game.legal_moves(node.state)
    except RulesError as exc:
        raise ProveError(f"cannot list the moves of a position: {exc}") from None
    new = []
    for text, move in sorted(((game.format_move(m, node.state), m) for m in moves), key=lambda pair: pair[0]):
        after = game._apply(node.state, move)
        key = key_text(positions.key(after))
        if key not in nodes:
            nodes[key] = _Node(key, after, node.ply + 1, node.line + (text,))
            new.append(nodes[key])
        node.moves.append((text, key))
    node.expanded = True
    return new


def _for_mover(child: _Node, parent: _Node) -> Value:
    """The value of ``child`` for the side to move at ``parent``."""
    if child.value in (Value.UNKNOWN, Value.NEITHER) or child.state.to_move == parent.state.to_move:
        return child.value
    return Value.LOST if child.value == Value.WON else Value.WON


def combine(tree: SplitTree) -> None:
    """Minimax over the upper tree from its decided positions, until nothing changes (module text)."""
    open_nodes = [n for n in tree.nodes.values() if n.expanded and n.value == Value.UNKNOWN]
    changed = True
    while changed:
        changed = False
        for node in open_nodes:
            if node.value != Value.UNKNOWN:
                continue
            values = [(text, _for_mover(tree.nodes[key], node)) for text, key in node.moves]
            winning = next((text for text, v in values if v == Value.WON), None)
            if winning is not None:
                node.value, node.move = Value.WON, winning
            elif all(v == Value.LOST for _, v in values):
                node.value = Value.LOST
            elif all(v != Value.UNKNOWN for _, v in values):
                node.value = Value.NEITHER
            else:
                continue
            changed = True


@dataclass(frozen=True)
class PlyCount:
    """The positions exactly ``ply`` plies from the root (up to symmetry) and their values for the
    side to move there."""

    ply: int
    positions: int
    won: int
    lost: int
    neither: int
    unknown: int

    def to_json(self) -> dict[str, int]:
        return {"ply": self.ply, "positions": self.positions, "won": self.won, "lost": self.lost,
                "neither": self.neither, "unknown": self.unknown}


@dataclass(frozen=True)
class Cluster:
    """Where the jobs run: a running Dask scheduler's address (``scheduler``), else a
    ``LocalCluster`` of ``workers`` worker processes (threads with ``processes=False``)."""

    scheduler: str | None = None
    workers: int = 2
    processes: bool = True


@dataclass(frozen=True)
class Opening:
    """A move at the root and the value of the position after it for the side to move at the root
    (``won``: the move wins)."""

    move: str
    value: Value


@dataclass(frozen=True)
class JobFigures:
    """The jobs of a run: how many, how many this run ran and found settled in the store, the time
    limit each ran under, positions expanded and seconds (of this run's jobs, summed), the run's
    wall seconds and the workers."""

    jobs: int
    run: int
    from_store: int
    time_limit: float | None
    expanded: int
    job_seconds: float
    seconds: float
    workers: int | None

    def to_json(self) -> dict[str, Any]:
        return {"jobs": self.jobs, "run": self.run, "from_store": self.from_store, "time_limit": self.time_limit,
                "expanded": self.expanded, "job_seconds": round(self.job_seconds, 1), "seconds": round(self.seconds, 1),
                "workers": self.workers}


@dataclass(frozen=True)
class SplitResult:
    """What a split run proved (see the module text): the root's value and winning move, the counts
    per ply, the deepest ply all decided (``None``: not even the root's children), every root move,
    the jobs' figures and rows."""

    game: str
    board: str
    options: dict[str, Any]
    root: dict[str, Any]
    to_move: str
    depth: int
    value: Value
    move: str | None
    plies: tuple[PlyCount, ...]
    decided_depth: int | None
    openings: tuple[Opening, ...]
    figures: JobFigures
    rows: tuple[tuple[tuple[str, ...], JobRow], ...] = field(default=(), repr=False, compare=False)
    """Each job settled in the store: the moves from the root to it and its row."""

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "board": self.board, "options": self.options, "root": self.root,
                "to_move": self.to_move,
                "split_depth": self.depth, "value": self.value.value, "move": self.move,
                "decided_depth": self.decided_depth, "plies": [p.to_json() for p in self.plies],
                "openings": [{"move": o.move, "value": o.value.value} for o in self.openings],
                "jobs": self.figures.to_json()}


def _counts(tree: SplitTree) -> tuple[tuple[PlyCount, ...], int | None]:
    plies = []
    for d, keys in enumerate(tree.plies()):
        values = [tree.nodes[k].value for k in keys]
        plies.append(PlyCount(ply=d, positions=len(keys), won=values.count(Value.WON), lost=values.count(Value.LOST),
                              neither=values.count(Value.NEITHER), unknown=values.count(Value.UNKNOWN)))
    decided = [p.ply for p in plies if p.unknown == 0 and p.positions]
    return tuple(plies), (0 if 0 in decided else max(decided, default=None))


def run_job(game_name: str, board: Any, options: dict[str, Any], position: dict[str, Any], key: str,
            limits: Limits, symmetry: bool, board_name: str | None) -> JobRow:
    """One job, in a worker: df-pn from ``position``; its row for the store."""
    from powertwo.rules import get_game
    from powertwo.solvers.prove import prove as prove_position

    game = _games.get((game_name, board.fingerprint, json.dumps(options, sort_keys=True)))
    if game is None:
        game = get_game(game_name, board, **options)
        _games[(game_name, board.fingerprint, json.dumps(options, sort_keys=True))] = game
    state = game.state_from_json(position)
    result = prove_position(game, state, limits=limits, symmetry=symmetry, board_name=board_name)
    cert = result.certificate
    return JobRow(key=key, position=position, value=result.value.value, move=result.move, time_limit=limits.seconds,
                  seconds=result.figures.seconds, expanded=result.figures.expanded, figures=result.figures.to_json(),
                  proof=None if result.proof is None else result.proof.to_json(),
                  header=None if cert is None else dict(cert.header), body=None if cert is None else cert.body)


_games: dict[tuple[str, str, str], Game] = {}
"""A worker's games, built once (a game's board symmetries take seconds to find)."""


def prove_split(game: AnyGame, state: Any, *, depth: int, limits: Limits | None = None, store: str | None = None,
                cluster: Cluster = Cluster(), symmetry: bool = True, progress: Progress = no_progress,
                board_name: str | None = None) -> SplitResult:
    """Who wins ``state``, as far as jobs ``depth`` plies down prove it (see the module text).
    ``limits`` applies to each job; ``store`` a SQLite file to keep the jobs in (a later run
    resumes from it); ``cluster`` where the jobs run (:class:`Cluster`)."""
    began = time.monotonic()
    limits = limits if limits is not None else Limits()
    positions = Positions.of(game, symmetry)
    tree = split(game, state, depth, positions, progress)
    about = {"game": game.name, "options": dict(game.options), "board_fingerprint": game.board.fingerprint,
             "symmetry": symmetry, "root": tree.root, "split_depth": depth}
    jobs = tree.jobs()
    db = JobStore(store, about)
    try:
        stored = {row.key: row for row in db.rows()}
        rows = {n.key: stored[n.key] for n in jobs if n.key in stored and stored[n.key].settled(limits.seconds)}
        todo = [n for n in jobs if n.key not in rows]
        progress(f"{len(jobs):,} jobs: {len(rows):,} settled in the store, {len(todo):,} to run")
        if todo:
            ran = _run_jobs(game, todo, limits, symmetry, board_name, db, rows, cluster, progress)
        else:
            ran = []
    finally:
        db.close()
    for node in jobs:
        node.value = Value(rows[node.key].value) if node.key in rows else Value.UNKNOWN
        node.move = rows[node.key].move if node.key in rows else None
    combine(tree)
    plies, decided_depth = _counts(tree)
    root = tree.nodes[tree.root]
    openings = tuple(Opening(move=text, value=_for_mover(tree.nodes[key], root)) for text, key in root.moves)
    figures = JobFigures(jobs=len(jobs), run=len(ran), from_store=len(jobs) - len(todo), time_limit=limits.seconds,
                         expanded=sum(r.expanded for r in ran), job_seconds=sum(r.seconds for r in ran),
                         seconds=time.monotonic() - began,
                         workers=None if cluster.scheduler else cluster.workers)
    return SplitResult(game=game.name, board=board_name or game.board.name, options=dict(game.options),
                       root=game.state_to_json(state), to_move=game.player_name(state.to_move), depth=depth,
                       value=root.value, move=root.move, plies=plies, decided_depth=decided_depth, openings=openings,
                       figures=figures,
                       rows=tuple((n.line, rows[n.key]) for n in jobs if n.key in rows))


def _run_jobs(game: AnyGame, todo: list[_Node], limits: Limits, symmetry: bool, board_name: str | None, db: JobStore,
              rows: dict[str, JobRow], where: Cluster, progress: Progress) -> list[JobRow]:
    """Run ``todo`` on the cluster, each row into ``rows`` and the store as it comes back."""
    from dask.distributed import as_completed

    from ..census.distributed import connect

    memory = where.workers * (limits.memory_mib + WORKER_MIB) << 20
    client, cluster = connect(where.scheduler, where.workers, memory, where.processes)
    ran: list[JobRow] = []
    began = last = time.monotonic()
    try:
        options = dict(game.options)
        futures = [client.submit(run_job, game.name, game.board, options, game.state_to_json(n.state), n.key, limits,
                                 symmetry, board_name, key=f"prove-job-{i}", pure=False) for i, n in enumerate(todo)]
        for future in as_completed(futures):
            row = future.result()
            db.put(row)
            rows[row.key] = row
            ran.append(row)
            now = time.monotonic()
            if now - last >= PROGRESS_SECONDS or len(ran) == len(todo):
                last = now
                progress(_progress_line(ran, len(todo), now - began))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return ran


def _progress_line(ran: Iterable[JobRow], total: int, seconds: float) -> str:
    values = [r.value for r in ran]
    counts = ", ".join(f"{values.count(v.value)} {v.value}" for v in Value if values.count(v.value))
    return f"jobs: {len(values):,} of {total:,} run ({counts}), {seconds:.0f} s"


def write_certificates(result: SplitResult, folder: str | Path) -> list[dict[str, Any]]:
    """Write the certificate of every proven job to ``folder`` (``job-N.proof``, N counting the
    jobs in the split's order) and ``index.json`` (each file with the moves from the root to its
    position and its value); the index's entries."""
    from ..proof_format import write_certificate

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    index = []
    for number, (line, row) in enumerate(result.rows):
        if row.header is None or row.body is None:
            continue
        name = f"job-{number:04d}.proof"
        size = write_certificate(out / name, dict(row.header), row.body)
        index.append({"file": name, "line": list(line), "value": row.value, "move": row.move, "bytes": size,
                      "proof": row.proof})
    write_text(out / "index.json", json.dumps(index, indent=1) + "\n")
    return index


__all__ = ["Cluster", "prove_split", "write_certificates", "split", "combine", "run_job", "SplitTree", "SplitResult",
           "PlyCount", "Opening", "JobFigures", "key_text"]
