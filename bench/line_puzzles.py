"""The line puzzles on the default board: CP-SAT against SAT (PySAT) and against the general
MILP solver a user would otherwise pick (HiGHS through ``scipy.optimize.milp``).

Times are wall-clock seconds to a proven optimum (model building included), the median of
``REPEATS`` runs; ratios are relative to CP-SAT (above 1: slower than CP-SAT). The last
columns are the DRAT certificate: CaDiCaL's proof run and dratify's check.
"""

from __future__ import annotations

import statistics
import time

from powertwo.boards import load
from powertwo.solvers import lines as lp
from powertwo.solvers.lines import VARIANTS

REPEATS = 3
ONCE_WITHOUT_SYMMETRY = frozenset({"two-by-two"})
"""Variants whose SAT run without symmetry breaking takes minutes: timed once, not REPEATS times."""


def highs(board, var, stones: int = lp.STONES, time_limit: float | None = None):
    """HiGHS on the 0-1 program: ``(status, objective or None, seconds)``."""
    from scipy.optimize import LinearConstraint, milp

    started = time.perf_counter()
    c, a, lower, upper, sign = var.milp(board, stones)
    options = {} if time_limit is None else {"time_limit": time_limit}
    res = milp(c, constraints=LinearConstraint(a, lower, upper), integrality=[1] * len(c), bounds=(0, 1),
               options=options)
    seconds = time.perf_counter() - started
    status = {0: "optimal", 2: "infeasible"}.get(res.status, "feasible" if res.x is not None else "unknown")
    value = None if res.x is None else round(sign * res.fun)
    return status, value, seconds


def milp_solve(board, var, stones: int = lp.STONES) -> tuple[int, float]:
    status, value, seconds = highs(board, var, stones)
    if status != "optimal":
        raise RuntimeError(f"HiGHS did not prove an optimum for {var.name}: {status}")
    return value, seconds


def median_time(run) -> tuple[object, float]:
    values, times = [], []
    for _ in range(REPEATS):
        value, seconds = run()
        values.append(value)
        times.append(seconds)
    if len(set(values)) != 1:
        raise RuntimeError(f"runs disagree: {values}")
    return values[0], statistics.median(times)


def measure(board_name: str = "power-of-two") -> list[dict]:
    board = load(board_name)
    started = time.perf_counter()
    _ = board.symmetries  # computed once per board (networkx), shared by every run below
    sym_seconds = time.perf_counter() - started
    rows = []
    for name, var in VARIANTS.items():
        def cpsat(symmetry=True, var=var):
            out = lp.solve_cpsat(board, var, symmetry=symmetry)
            assert out.status == "optimal"
            return out.objective, out.seconds

        def sat(symmetry=True, var=var):
            out = lp.solve_sat(board, var, symmetry=symmetry)
            assert out.status == "optimal"
            return out.objective, out.seconds

        cp_value, cp_time = median_time(cpsat)
        _, cp_plain = median_time(lambda: cpsat(False))
        sat_value, sat_time = median_time(sat)
        # without symmetry breaking CaDiCaL needs 514k conflicts for the 32-stone bound: run once
        _, sat_plain = sat(False) if name in ONCE_WITHOUT_SYMMETRY else median_time(lambda: sat(False))
        milp_value, milp_time = median_time(lambda var=var: milp_solve(board, var))
        cert = lp.certify(board, var, lp.Outcome("optimal", cp_value, cp_value, (), 0.0))
        rows.append({
            "puzzle": name, "optimum": cp_value, "agree": cp_value == sat_value == milp_value,
            "cp-sat": cp_time, "cp-sat no sym": cp_plain, "sat": sat_time, "sat no sym": sat_plain,
            "highs": milp_time, "sat/cp-sat": sat_time / cp_time, "highs/cp-sat": milp_time / cp_time,
            "proof": cert.solve_seconds, "dratify": cert.check_seconds, "verified": cert.verified,
            "symmetries": sym_seconds,
        })
    return rows


HARD = (("epaminondas", "line-cover"), ("epaminondas", "two-by-two-strict-at-most"),
        ("epaminondas", "two-by-two-at-most"), ("tower-of-power", "two-by-two-at-most"),
        ("tower-of-power", "two-by-two-strict-at-most"), ("power-of-two-square-sides", "two-by-two"))
HARD_LIMIT = 20.0


def harder(limit: float = HARD_LIMIT) -> list[tuple[str, str, list[str]]]:
    """Larger shipped boards, one run each with a time limit: where the solvers part ways."""
    out = []
    for board_name, name in HARD:
        board, var = load(board_name), VARIANTS[name]
        _ = board.symmetries
        cells = []
        for solve in (lp.solve_cpsat, lp.solve_sat):
            o = solve(board, var, time_limit=limit)
            cells.append(f"{o.seconds:.2f} ({o.objective})" if o.status == "optimal"
                         else f">{limit:g} ({o.status} {o.objective}, bound {o.bound})")
        status, value, seconds = highs(board, var, time_limit=limit)
        cells.append(f"{seconds:.2f} ({value})" if status == "optimal" else f">{limit:g} ({status} {value})")
        out.append((board_name, name, cells))
    return out


def main() -> None:
    rows = measure()
    print(f"line puzzles on power-of-two: seconds to a proven optimum, median of {REPEATS} "
          f"(board symmetry group computed once: {rows[0]['symmetries']:.2f} s)")
    head = ("puzzle", "opt", "agree", "cp-sat", "no sym", "sat", "no sym", "highs", "sat/cp", "highs/cp",
            "proof", "dratify", "certified")
    print(f"{head[0]:<18} {head[1]:>4} {head[2]:>5} " + " ".join(f"{h:>9}" for h in head[3:]))
    for r in rows:
        cells = [r["cp-sat"], r["cp-sat no sym"], r["sat"], r["sat no sym"], r["highs"]]
        print(f"{r['puzzle']:<18} {r['optimum']:>4} {'yes' if r['agree'] else 'NO':>5} "
              + " ".join(f"{c:>9.3f}" for c in cells)
              + f" {r['sat/cp-sat']:>9.2f} {r['highs/cp-sat']:>9.2f} {r['proof']:>9.3f} {r['dratify']:>9.3f}"
              + f" {'yes' if r['verified'] else 'NO':>9}")
    slowest = max(r["cp-sat"] for r in rows)
    print(f"slowest CP-SAT proof: {slowest:.3f} s (target: under 5 s each)")
    print()
    print(f"larger shipped boards, one run each, {HARD_LIMIT:g} s limit: seconds (optimum)")
    print(f"{'board':<15} {'puzzle':<18} {'cp-sat':<34} {'sat':<34} highs")
    for board_name, name, cells in harder():
        print(f"{board_name:<15} {name:<18} {cells[0]:<34} {cells[1]:<34} {cells[2]}")


if __name__ == "__main__":
    main()
