"""Get a Jump On's part of ``make results``: the forward answer, the default reverse answer (the kernel,
cross-checked by the SAT backend and, on the default board, the pure-Python engine), and the reverse
benchmark set. Every run is capped by positions or conflicts, never by seconds, and the answer files
hold no timings (they go to the results index), so a rerun writes them byte for byte the same."""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from powertwo.boards import Board
from powertwo.boards.outfile import write_text
from powertwo.boards.words import counted

from ..fields import board_fields
from ..registry import Progress, ResultRow, SolutionError
from .backends import forward_answer, reverse_answer
from .drawing import diagram_forward, diagram_reverse
from .engine import ReverseSearch
from .files import ForwardAnswer, ReverseAnswer
from .options import FORWARD, REVERSE, ReverseRequest
from .sat_backend import SAT_CONFLICT_LIMIT
from ..status import FEASIBLE, INFEASIBLE, OPTIMAL, STATUSES, UNKNOWN, Status

PYTHON_ENGINE_NODES = 400_000_000
"""Positions the pure-Python engine may search when the results job has it re-derive the default
reverse optimum, as the referee of the kernel (a cap, not seconds, so the row is the same on every
machine; the real board's default position takes about 110 million, 90 s)."""
BENCH_TUNING_SEEDS = tuple(range(1, 21))
"""The benchmark's tuning half: the final positions of 20 seeded forward answers (every one with
chain jumps). The search may be tuned on these."""
BENCH_HELD_OUT_SEEDS = tuple(range(21, 41))
"""The benchmark's held-out half: 20 more seeded forward finals of the same kind, never used for
tuning; its figures are the ones that count."""
BENCH_SEEDS = (1, 2, 3, 4, 5)
"""Tuning seeds whose reverse answers the results job writes as files with diagrams."""
BENCH_HALVES = {"tuning": BENCH_TUNING_SEEDS, "held-out": BENCH_HELD_OUT_SEEDS}
BENCH_NODES = 40_000_000
"""Positions (single-jump states) the kernel may visit per benchmark position in the results job (one
thread; a cap, unlike seconds, gives the same answer on every machine)."""
BENCH_OPTIMA = {1: 3, 2: 4, 3: 3, 4: 4, 5: 4, 6: 3, 7: 3, 8: 4, 9: 3, 10: 4, 11: 4, 12: 4, 13: 3, 14: 4, 15: 4,
                16: 4, 17: 4, 18: 3, 19: 4, 20: 3,
                21: 3, 22: 4, 23: 3, 24: 4, 25: 4, 26: 4, 27: 4, 28: 3, 29: 4, 30: 4, 31: 5, 32: 4, 33: 4, 34: 4,
                35: 3, 36: 3, 37: 3, 38: 3, 39: 2, 40: 3}
"""Fewest moves from each benchmark seed's final position on ``power-of-two``, proven by the kernel
(one thread, run to the end: "no finish within optimum - 1 moves" by exhausted search; each
within 16 s). Every answer is held against them (:func:`agrees_with_optimum`): by the tests for the
committed files, by ``bench`` for its runs."""
BENCH_UNSOLVABLE = {
    "stones on the 8 unjumpable nodes": (1, 5, 27, 28, 37, 38, 60, 64),
    "two outer corners": (1, 64),
    "16 stones drawn at random": (3, 5, 11, 18, 24, 26, 28, 29, 33, 35, 38, 41, 44, 47, 52, 55),
    "12 stones drawn at random": (6, 11, 12, 17, 20, 24, 39, 43, 48, 52, 54, 55),
}
"""Benchmark positions with no one-stone finish on ``power-of-two``: stones that can never be jumped
(the middle of no jump: a1, m1, a13, m13, f6, h6, f8, h8), and random positions the kernel proves
infeasible by exhausted search (g1 m1 h3 l4 k5 c6 h6 k6 i7 m7 h8 c9 i9 b10 c11 h11; d2 h3 i3 j4 c5
k5 k8 g9 d10 c11 f11 h11)."""
Diagram = Callable[..., Any]


def _write(out: Path, stem: str, answer: ForwardAnswer | ReverseAnswer, diagram: Diagram, board: Board,
           exts: tuple[str, ...] = ("svg", "png")) -> list[str]:
    """The answer file (no timings: they go to the results index) and its diagrams."""
    from powertwo.boards.draw import save

    data = answer.to_json(timings=False)
    write_text(out / f"{stem}.json", json.dumps(data, indent=1) + "\n")
    files = [f"{stem}.json"]
    for ext in exts:
        save(diagram(data, board), out / f"{stem}.{ext}")
        files.append(f"{stem}.{ext}")
    return files


def _seconds(answer: ForwardAnswer | ReverseAnswer) -> float:
    return round(answer.seconds or 0.0, 3)


def results(out: Path, progress: Progress, board_name: str = "power-of-two", bench: bool = True,
            sat_conflicts: int = SAT_CONFLICT_LIMIT) -> list[ResultRow]:
    """Writes the forward and the default reverse answer of ``board_name`` into ``out`` (with
    ``bench``, the Python engine's re-derivation and the benchmark set too): their rows."""
    from powertwo.boards import load

    board = load(board_name)
    fwd = forward_answer(board)
    files = _write(out, FORWARD, fwd, diagram_forward, board)
    progress(f"{FORWARD}: 31 steps, {fwd.chain_steps} with chain jumps, {_seconds(fwd)} s")
    rows = [ResultRow(puzzle=FORWARD, variant=f"corner {board.label(fwd.corner)}", optimum="31 steps",
                      status="found (any answer is optimal)", backends="search",
                      answers="final positions: not counted (intractable)", seconds=_seconds(fwd), files=tuple(files))]
    start = tuple(fwd.final_position)
    rev = reverse_answer(board, ReverseRequest(start=start, node_limit=BENCH_NODES), progress)
    files = _write(out, REVERSE, rev, diagram_reverse, board)
    progress(f"{REVERSE}: {counted(rev.objective or 0, 'move')}, {rev.status}, bound {rev.bound}, {_seconds(rev)} s")
    sat = reverse_answer(board, ReverseRequest(start=start, backend="sat", conflict_limit=sat_conflicts))
    progress(f"{REVERSE} by SAT: {sat_summary(sat)}, {_seconds(sat)} s")
    agree = ["search (kernel)"]
    timings = {"search": _seconds(rev), "sat": _seconds(sat)}
    if bench:   # the default board: the pure-Python engine, the kernel's referee, re-derives the optimum
        began = time.perf_counter()
        ref = ReverseSearch(board, start, progress=progress).run(node_limit=PYTHON_ENGINE_NODES)
        timings["python engine"] = round(time.perf_counter() - began, 3)
        progress(f"{REVERSE} by the Python engine: {'optimal' if ref.proven else 'not proven'}, bound {ref.bound}, "
                 f"{ref.nodes:,} positions, {timings['python engine']} s")
        if ref.proven and ref.positions is not None and len(ref.positions) - 1 == rev.objective:
            agree.append("python engine")
    if sat.status == OPTIMAL and rev.status == OPTIMAL and sat.objective != rev.objective:
        raise SolutionError(f"{REVERSE} on {board.name}: the backends disagree: search {rev.objective}, "
                            f"sat {sat.objective}")
    if sat.status == OPTIMAL and sat.objective == rev.objective:
        agree.append("sat")
    rows.append(ResultRow(puzzle=REVERSE, variant="from the forward answer", optimum=str(rev.objective),
                          status=f"{rev.status} (bound {rev.bound})", backends=", ".join(agree),
                          answers=f"sat backend: {sat_summary(sat)}", seconds=_seconds(rev), files=tuple(files),
                          timings=timings))
    if bench:
        rows.extend(bench_results(out, board, progress))
    return rows


def sat_summary(answer: ReverseAnswer) -> str:
    """The SAT backend's answer in words, e.g. "optimal 3 moves (bound 3)" or "no answer (1,000,000
    conflicts spent) (bound 1)"."""
    if answer.objective is None:
        why = "proven: no finish" if answer.status == INFEASIBLE else f"no answer ({answer.stopped or 'none'})"
        return f"{why} (bound {answer.bound})"
    tail = f", {answer.stopped}" if answer.stopped else ""
    return f"{answer.status} {counted(answer.objective, 'move')} (bound {answer.bound}{tail})"


def agrees_with_optimum(status: str, objective: int | None, bound: int, optimum: int | None) -> bool:
    """Whether an answer is consistent with the known fewest moves ``optimum`` (None: no finish exists):
    ``optimal`` equals it, ``feasible`` brackets it (bound <= optimum <= answer), ``infeasible``
    only where there is none, ``unknown`` with a bound not above it."""
    if optimum is None:
        return status in (INFEASIBLE, UNKNOWN)
    if status == OPTIMAL:
        return objective == bound == optimum
    if status == FEASIBLE:
        return objective is not None and bound <= optimum <= objective
    return status == UNKNOWN and bound <= optimum


def bench_half(seed: int) -> str:
    """The half of the benchmark a seed belongs to (``tuning`` or ``held-out``)."""
    return next(name for name, seeds in BENCH_HALVES.items() if seed in seeds)


def _summary(answer: ReverseAnswer) -> dict[str, Any]:
    """A benchmark position's entry in ``jump-bench.json``."""
    data = answer.to_json(timings=False)
    return {key: data[key] for key in ("status", "objective", "bound", "proof", "positions_searched")}


def bench_results(out: Path, board: Board, progress: Progress, node_limit: int = BENCH_NODES) -> list[ResultRow]:
    """The benchmark set, each position capped at ``node_limit`` positions searched (so the statuses are
    reproducible on any machine): the seeded forward finals of both halves (:data:`BENCH_HALVES`;
    those of :data:`BENCH_SEEDS` with an answer file and a diagram each, the others a summary each in
    ``jump-bench.json``) and the unsolvable positions (a summary each); one row per half and one for
    the unsolvable ones."""
    entries: list[dict[str, Any]] = []
    more: list[dict[str, Any]] = []
    rows = []
    timings: dict[str, dict[str, float]] = {half: {} for half in (*BENCH_HALVES, "unsolvable")}
    for seed in (*BENCH_TUNING_SEEDS, *BENCH_HELD_OUT_SEEDS):
        fwd = forward_answer(board, seed=seed)
        best = reverse_answer(board, ReverseRequest(start=tuple(fwd.final_position), node_limit=node_limit))
        half = bench_half(seed)
        timings[half][f"seed {seed}"] = _seconds(best)
        progress(f"jump-bench seed {seed} ({half}): {best.status}, best {best.objective}, bound "
                 f"{best.bound}, {_seconds(best)} s")
        entry = {"seed": seed, "half": half, "position": fwd.final_position, "chain_steps": fwd.chain_steps,
                 **_summary(best)}
        if seed not in BENCH_SEEDS:
            more.append({"name": f"seed {seed}", **entry})
            continue
        stem = f"jump-bench-{seed}"
        answer = replace(best, seed=seed, chain_steps=fwd.chain_steps)
        files = _write(out, stem, answer, diagram_reverse, board, exts=("svg",))
        entries.append(dict(entry, forward_steps=fwd.to_json()["steps"], file=f"{stem}.json"))
        optimum = "none found" if best.objective is None else str(best.objective)
        rows.append(ResultRow(puzzle=REVERSE, variant=f"benchmark seed {seed} ({half})", optimum=optimum,
                              status=f"{best.status} (bound {best.bound})", backends="search (kernel)",
                              answers=f"{fwd.chain_steps} forward steps with chains", seconds=_seconds(best),
                              files=tuple(files)))
    for name, position in BENCH_UNSOLVABLE.items():
        best = reverse_answer(board, ReverseRequest(start=position, node_limit=node_limit))
        more.append({"name": name, "half": "unsolvable", "position": list(position), **_summary(best)})
        timings["unsolvable"][name] = _seconds(best)
        progress(f"jump-bench {name}: {best.status}, bound {best.bound}, {_seconds(best)} s")
    for half, seeds in (*BENCH_HALVES.items(), ("unsolvable", tuple(BENCH_UNSOLVABLE))):
        counts: Counter[Status] = Counter(e["status"] for e in [*entries, *more] if e["half"] == half)
        statuses = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
        what = (f"benchmark, {half} half: {len(seeds)} seeded forward finals" if half != "unsolvable"
                else f"benchmark: {len(seeds)} unsolvable positions")
        rows.append(ResultRow(puzzle=REVERSE, variant=what, optimum="see jump-bench.json", status=statuses,
                              backends="search (kernel)", answers="summary per position in jump-bench.json",
                              seconds=sum(timings[half].values()), files=("jump-bench.json",), timings=timings[half]))
    write_text(out / "jump-bench.json", json.dumps({
        **board_fields(board), "search_node_limit": node_limit,
        "halves": {half: list(seeds) for half, seeds in BENCH_HALVES.items()},
        "positions": entries, "more_positions": more}, indent=1) + "\n")
    return rows
