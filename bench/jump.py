"""Get a Jump On benchmark: the compiled kernel against the same kernel interpreted, its whole-move
generation against the Python engine's on the same positions, the kernel on the
Power of Two board's benchmark set (40 seeded forward finals with chain jumps in two halves, tuning
and held out, and unsolvable positions), and the English 33-hole central game through the CLI.

``python -m bench jump``. Environment: ``JUMP_BENCH_LIMIT`` = seconds per benchmark position
(default 60; 0 skips that table), ``JUMP_BENCH_WORKERS`` = search threads for that table and the
English central game (default 2 where there are 2 cores; the English game also runs with 1),
``JUMP_BENCH_INTERPRETED`` = positions the interpreted kernel searches per speed sample on a seed
(default 2 000: about 70 s each on a seed's 4-move search, where an interpreted state costs some
36 ms; the English sample is 50 times as many), ``JUMP_BENCH_PYTHON`` = seconds the Python engine
gets per speed sample (default 5), ``JUMP_BENCH_PYTHON_CAP`` = seconds it gets per start in the
time-to-the-same-answer table (default 120).

Each benchmark row shows the position's known fewest moves (``BENCH_OPTIMA``) and is flagged
``CONTRADICTED`` when its answer does not agree with it (an ``optimal`` row must equal it, a
``feasible`` one bracket it), and when the first answer came and how long it was, and the best
answer at 5 s; each half ends with its counts, its slowest position and how many positions had an
answer within 5 s and 2 moves of the optimum.

Speed: the kernel's search runs compiled and, in a subprocess with ``NUMBA_DISABLE_JIT=1``, as plain
Python (numba's functions run unchanged by the interpreter); both search the same number of
positions from fresh tables, so they visit the same positions (the table counts are compared). The
Python ``ReverseSearch`` engine is a different algorithm (whole moves, not single jumps): its rate is
context, not the same work. The same work is the whole-move generation table: both engines spell out
the successors of the same positions (``JumpTables.successors`` against the kernel's compiled
``MoveGenerator``), and the counts are compared.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from powertwo.boards import Board, load, save
from powertwo.solvers.jump import (
    BENCH_HALVES,
    BENCH_OPTIMA,
    BENCH_UNSOLVABLE,
    agrees_with_optimum,
    solve_forward,
    solve_reverse,
)
from powertwo.solvers.jump.engine import ReverseSearch
from powertwo.solvers.jump.kernel import EXHAUSTED, KernelSearch, MoveGenerator
from powertwo.solvers.jump.kernel.groups import TT_ENTRIES
from powertwo.solvers.jump.tables import JumpTables, english_board, mask_of, node_at

ROOT = Path(__file__).resolve().parent.parent
SPEED_SEEDS = (2, 4, 5)
"""Benchmark seeds (tuning half) whose searches are timed (the kernel's typical work: refuting a budget)."""
SPEED_BUDGET = 3
"""The seeds' budget in the speed table: 3 moves (each needs 4, so all three refute it)."""
ENGLISH_SAMPLE = 50
"""The English sample is this many times a seed's (its interpreted states cost about 0.1 ms, a seed's
36 ms; with 2,000 states it would time the search's first moves alone)."""
ANSWER_BUDGET = 3
"""The seeds' budget in the time-to-the-same-answer table: 3 moves (4 is beyond the Python engine's
two minutes)."""
ENGLISH_BUDGET = 17
"""The English central game's hardest step: 17 moves refuted."""
MOVE_SOURCES = 20_000
"""Positions listed for the whole-move generation table (:func:`moves_table`)."""


def _times(ratio: float) -> str:
    """A ratio as ``12x``, or with two digits below 10 (``0.17x``)."""
    return f"{ratio:.0f}x" if ratio >= 10 else f"{ratio:.2g}x"


def _row(name: str, res: dict, seconds: float) -> str:
    best = "-" if res["objective"] is None else str(res["objective"])
    proof = "-" if not res.get("proof") else f"{res['proof']['kind']} ({res['proof']['engine']})"
    return (f"| {name} | {res['status']} | {best} | {res['bound']} | {res['positions_searched']:,} | "
            f"{seconds:.2f} | {proof} |")


def speed_case(case: str, budget: int = SPEED_BUDGET) -> tuple[Board, list[int], list[int] | None, int]:
    """``seed N`` (the benchmark seed's final position, ``budget`` moves) or ``english`` (the
    central game, 17 moves, target the centre): board, start, targets, move budget."""
    if case == "english":
        board = english_board()
        centre = node_at(board, 0, 0)
        return board, [v for v in board.nodes if v != centre], [centre], ENGLISH_BUDGET
    board = load("power-of-two")
    return board, solve_forward(board, seed=int(case.split()[1]))["final_position"], None, budget


def kernel_sample(case: str, positions: int, repeat_for: float = 0.0) -> dict:
    """The kernel's search of ``case`` for exactly ``positions`` positions from fresh tables (no
    backward perimeter: it would dominate the interpreted run), repeated until ``repeat_for``
    seconds have passed; the seconds of one run and the table entries it left."""
    board, start, targets, budget = speed_case(case)
    ks = KernelSearch(board, start, targets=targets, perimeter=0)
    runs = 0
    spent = 0.0
    while True:
        ks.reset()
        began = time.perf_counter()
        ks.search(budget, node_cap=positions)
        spent += time.perf_counter() - began
        runs += 1
        if spent >= repeat_for:
            break
    return {"positions": ks.nodes, "seconds": spent / runs, "entries": int(ks.counts[TT_ENTRIES]), "runs": runs}


def interpreted_sample(case: str, positions: int) -> dict:
    """:func:`kernel_sample` in a subprocess with numba's compilation switched off."""
    code = ("import json, sys; from bench.jump import kernel_sample; "
            "print(json.dumps(kernel_sample(sys.argv[1], int(sys.argv[2]))))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code, case, str(positions)], capture_output=True,
                         text=True, check=True, env=env, cwd=ROOT)
    return json.loads(out.stdout)


def python_engine_rate(case: str, seconds: float) -> float:
    """Positions per second of the pure-Python engine (IDA* on whole moves) on the same start."""
    board, start, targets, _ = speed_case(case)
    rs = ReverseSearch(board, start, targets=targets, perimeter=0)
    began = time.perf_counter()
    rs.run(time_limit=seconds, upper_share=0)
    return rs.nodes / (time.perf_counter() - began)


def speed_table(positions: int, py_seconds: float) -> None:
    print("Speed of the kernel: the same search (same positions, fresh tables) compiled and interpreted")
    print(f"(`NUMBA_DISABLE_JIT=1` in a subprocess), {positions:,} single-jump states on each seed "
          f"({positions * ENGLISH_SAMPLE:,} on the English board); the compiled run")
    print("is repeated for a second and averaged. Last columns: the Python engine (whole moves, a different")
    print("algorithm; context only) and the compiled kernel's rate over it.")
    print()
    print("| search | compiled states/s | interpreted states/s | compiled / interpreted | same positions "
          "| Python engine positions/s | kernel / Python |")
    print("|---|---|---|---|---|---|---|")
    cases = [f"seed {s}" for s in SPEED_SEEDS] + ["english"]
    for case in cases:
        sample = positions * ENGLISH_SAMPLE if case == "english" else positions
        fast = kernel_sample(case, sample, repeat_for=1.0)
        if fast["positions"] < 1000:     # a rate over a handful of states measures nothing
            n = fast["positions"]
            print(f"| {case}, {SPEED_BUDGET} moves | refuted after {n:,} state{'s' if n != 1 else ''} (the "
                  "tests near the root): no rate | | | | | |", flush=True)
            continue
        slow = interpreted_sample(case, sample)
        same = "yes" if (slow["positions"], slow["entries"]) == (fast["positions"], fast["entries"]) else "NO"
        k_rate = fast["positions"] / fast["seconds"]
        i_rate = slow["positions"] / slow["seconds"]
        p_rate = python_engine_rate(case, py_seconds)
        label = f"{case}, {SPEED_BUDGET} moves" if case != "english" else f"English centre, {ENGLISH_BUDGET} moves"
        print(f"| {label} | {k_rate:,.0f} | {i_rate:,.0f} | {k_rate / i_rate:.0f}x | {same} | {p_rate:,.0f} "
              f"| {_times(k_rate / p_rate)} |", flush=True)
    print()


def move_sources(case: str, least: int = MOVE_SOURCES) -> tuple[Board, list[int]]:
    """The positions whose moves the generation table times: the start of ``case``, then the positions
    one move after it, two moves, ... (breadth first, in the engines' order) until ``least`` are
    listed."""
    board, start, _, _ = speed_case(case)
    moves = MoveGenerator(board)
    sources = [mask_of(start)]
    level = sources
    while len(sources) < least and level:
        level = [q for p in level for q in moves.successors(p)][:least - len(sources)]
        sources += level
    return board, sources


def moves_table(py_seconds: float) -> None:
    """Whole-move generation, the same work in both engines: the positions one move after each of
    the same positions, counted by the Python engine (``JumpTables.successors``) for ``py_seconds``
    and by the kernel (:class:`MoveGenerator`) over the same positions, repeated for a second."""
    print("Whole-move generation on the same positions: every position one move (one stone's chain) after each")
    print(f"of the same positions (the start, then the positions one, two, ... moves on, up to {MOVE_SOURCES:,}),")
    print(f"by the Python engine for {py_seconds:g} s and by the compiled kernel over the positions the Python engine "
          "reached.")
    print("Both count the same successors (checked: every count, and the first positions' successors one by one).")
    print()
    print("| start | positions expanded | successors | same successors | Python engine successors/s "
          "| kernel successors/s | kernel / Python |")
    print("|---|---|---|---|---|---|---|")
    for case in [f"seed {s}" for s in SPEED_SEEDS] + ["english"]:
        board, sources = move_sources(case)
        tables, moves = JumpTables(board), MoveGenerator(board)
        py_counts = []
        began = time.perf_counter()
        for p in sources:
            py_counts.append(len(tables.successors(p)))
            if time.perf_counter() - began >= py_seconds:
                break
        py_time = time.perf_counter() - began
        done = sources[:len(py_counts)]
        same = moves.counts(done) == py_counts and all(moves.successors(p) == list(tables.successors(p))
                                                       for p in done[:100])
        runs, spent = 0, 0.0
        while spent < 1.0:
            began = time.perf_counter()
            moves.counts(done)
            spent += time.perf_counter() - began
            runs += 1
        total = sum(py_counts)
        py_rate, k_rate = total / py_time, total * runs / spent
        label = case if case != "english" else "English centre"
        print(f"| {label} | {len(done):,} | {total:,} | {'yes' if same else 'NO'} | {py_rate:,.0f} | {k_rate:,.0f} "
              f"| {_times(k_rate / py_rate)} |", flush=True)
    print()


def answer_table(py_cap: float) -> None:
    """Time to the same answer: "no finish within 3 moves" from each speed seed's start, the kernel
    (one thread, default options) against the Python engine (IDA* up to 3 moves, at most ``py_cap``
    seconds). The fair comparison of the two engines: a kernel state and a Python position are not
    the same unit (one jump against one whole move), and the kernel's leaf tests make a state dear."""
    print(f"Time to the same answer (no finish within 3 moves, budgets 1-3 in turn; Python engine at most "
          f"{py_cap:.0f} s):")
    print()
    print("| start | kernel seconds | kernel states | Python engine seconds | Python positions | Python / kernel |")
    print("|---|---|---|---|---|---|")
    for seed in (*SPEED_SEEDS, 8):
        board, start, targets, budget = speed_case(f"seed {seed}", ANSWER_BUDGET)
        ks = KernelSearch(board, start, targets=targets)
        began = time.perf_counter()
        statuses = [ks.search(b)[0] for b in range(1, budget + 1)]
        k_time = time.perf_counter() - began
        rs = ReverseSearch(board, start, targets=targets, perimeter=0)
        began = time.perf_counter()
        res = rs.run(time_limit=py_cap, max_moves=budget, upper_share=0)
        p_time = time.perf_counter() - began
        refuted = res.proven and res.bound == budget + 1
        p_cell = f"{p_time:.1f}" if refuted else f"> {py_cap:.0f} (not finished)"
        ratio = f"{p_time / k_time:,.0f}x" if refuted else f"> {p_time / k_time:,.0f}x"
        verdict = "" if all(st == EXHAUSTED for st in statuses) else " (kernel: NOT refuted)"
        print(f"| seed {seed} | {k_time:.2f}{verdict} | {ks.nodes:,} | {p_cell} | {rs.nodes:,} | {ratio} |", flush=True)
    print()


FIRST_SECONDS = 5.0
"""An answer a user can use comes early: within this many seconds ..."""
FIRST_SLACK = 2
"""... and at most this many moves above the optimum."""


def answer_by(res: dict, seconds: float) -> int | None:
    """The moves of the best answer a run had ``seconds`` into it (what Ctrl-C then returns), or None."""
    moves = [a["moves"] for a in res.get("answers", ()) if a["seconds"] <= seconds]
    return moves[-1] if moves else None


def early(res: dict, optimum: int | None) -> tuple[bool, bool]:
    """Whether the run's first answer came within :data:`FIRST_SECONDS` and :data:`FIRST_SLACK` moves
    of ``optimum``, and whether its best answer at that time did (for an unsolvable position: whether
    it was proven so by then, both)."""
    if optimum is None:
        proven = res["status"] == "infeasible" and res["seconds"] <= FIRST_SECONDS
        return proven, proven
    answers = res.get("answers", ())
    first = bool(answers) and answers[0]["seconds"] <= FIRST_SECONDS and answers[0]["moves"] <= optimum + FIRST_SLACK
    by = answer_by(res, FIRST_SECONDS)
    return first, by is not None and by <= optimum + FIRST_SLACK


def positions_table(limit: float, workers: int) -> None:
    """The benchmark on the Power of Two board by halves (tuning, held out) and the unsolvable
    positions: each row's status against the known optimum, the first answer (seconds, moves) and the
    best answer at :data:`FIRST_SECONDS`; per half the counts, the slowest position and how many
    had an answer within :data:`FIRST_SECONDS` s and :data:`FIRST_SLACK` moves of the optimum."""
    board = load("power-of-two")
    print(f"The benchmark set on the Power of Two board, {limit:.0f} s per position, {workers} search "
          f"thread{'s' if workers > 1 else ''}. First answer: seconds and moves of the first finish the search")
    print(f"found; at {FIRST_SECONDS:g} s: the best answer by then (what Ctrl-C would return). Early: the first "
          f"answer (and the one at {FIRST_SECONDS:g} s) within {FIRST_SECONDS:g} s and {FIRST_SLACK} moves of the "
          "optimum; for an unsolvable position, proven so within that time.")
    print()
    halves = [(half, [(f"seed {s}", solve_forward(board, seed=s)["final_position"], BENCH_OPTIMA[s]) for s in seeds])
              for half, seeds in BENCH_HALVES.items()]
    halves.append(("unsolvable", [(name, list(v), None) for name, v in BENCH_UNSOLVABLE.items()]))
    contradictions = []
    for half, runs in halves:
        print(f"### {half}{' half' if half != 'unsolvable' else ' positions'} ({len(runs)} positions)")
        print()
        print("| position | status | moves | bound | positions searched | seconds | proof | first answer "
              f"| at {FIRST_SECONDS:g} s | known optimum |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        counts: dict[str, int] = {}
        slowest = (0.0, "")
        firsts = bys = 0
        for name, pos, optimum in runs:
            began = time.perf_counter()
            res = solve_reverse(board, position=pos, time_limit=limit, workers=workers)
            took = time.perf_counter() - began
            counts[res["status"]] = counts.get(res["status"], 0) + 1
            slowest = max(slowest, (took, name))
            agrees = agrees_with_optimum(res["status"], res["objective"], res["bound"], optimum)
            if not agrees:
                contradictions.append(name)
            first, by = early(res, optimum)
            firsts += first
            bys += by
            answers = res.get("answers") or [None]
            first_cell = "-" if answers[0] is None else f"{answers[0]['seconds']:.2f} s, {answers[0]['moves']}"
            by_moves = answer_by(res, FIRST_SECONDS)
            known = "none" if optimum is None else str(optimum)
            print(_row(name, res, took) + f" {first_cell} | {'-' if by_moves is None else by_moves} | "
                  f"{known}{'' if agrees else ' CONTRADICTED'} |", flush=True)
        print()
        print(f"{half}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
              + f"; slowest {slowest[1]} ({slowest[0]:.1f} s); early first answer {firsts} of {len(runs)}, "
              f"early answer at {FIRST_SECONDS:g} s {bys} of {len(runs)}")
        print()
    print("every answer agrees with the known optima (BENCH_OPTIMA)" if not contradictions
          else "CONTRADICTS the known optima: " + ", ".join(contradictions))
    print()


def english_cli(workers: int) -> None:
    english = english_board()
    centre = node_at(english, 0, 0)
    with tempfile.TemporaryDirectory() as tmp:
        board_file = Path(tmp) / "english-33.json"
        save(english, board_file)
        start = Path(tmp) / "start.json"
        start.write_text(json.dumps([v for v in english.nodes if v != centre]))
        cmd = [str(Path(sys.executable).parent / "powertwo"), "solve", "jump-reverse", "--board", str(board_file),
               "--position", str(start), "--target", str(centre), "--workers", str(workers), "--json"]
        began = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        took = time.perf_counter() - began
    res = json.loads(out.stdout)
    print(f"English 33-hole central game through the CLI (`powertwo solve jump-reverse --board english-33.json "
          f"--target {centre} --workers {workers}`): {res['status']} {res['objective']} moves (bound {res['bound']}), "
          f"{res['positions_searched']:,} positions, {took:.1f} s wall clock including start-up.")
    print()


def main() -> None:
    limit = float(os.environ.get("JUMP_BENCH_LIMIT", "60"))
    positions = int(os.environ.get("JUMP_BENCH_INTERPRETED", "2000"))
    py_seconds = float(os.environ.get("JUMP_BENCH_PYTHON", "5"))
    workers = int(os.environ.get("JUMP_BENCH_WORKERS", str(min(2, os.cpu_count() or 1))))
    print("## jump: Get a Jump On, reverse (compiled kernel)")
    print()
    for n in sorted({1, workers}):
        english_cli(n)
    speed_table(positions, py_seconds)
    moves_table(py_seconds)
    answer_table(float(os.environ.get("JUMP_BENCH_PYTHON_CAP", "120")))
    if limit > 0:
        positions_table(limit, workers)


if __name__ == "__main__":
    main()
