"""That's My Line solitaire: CP-SAT against SAT, proving the maximum for each supply setting,
with and without symmetry breaking. ``python -m bench thats_my_line``."""

from __future__ import annotations

TIME_LIMIT = 300.0


def main() -> None:
    from powertwo.boards import load
    from powertwo.solvers.thats_my_line import BACKENDS, solve

    board = load("power-of-two")
    print("benchmark thats_my_line: the solitaire maximum, proof time per backend "
          f"(wall-clock seconds, 2 workers for CP-SAT, time limit {TIME_LIMIT:.0f} s)")
    print(f"{'stones':>10} {'backend':>7} {'symmetry':>8} {'status':>9} {'objective':>9} {'bound':>5} "
          f"{'split L-D':>9} {'seconds':>8}")
    for stones in (16, "unlimited"):
        for symmetry in (True, False):
            for backend in BACKENDS:
                r = solve(board, backend=backend, stones=stones, symmetry=symmetry, time_limit=TIME_LIMIT)
                split = f"{r.get('light_count', '-')}-{r.get('dark_count', '-')}"
                print(f"{stones!s:>10} {backend:>7} {'on' if symmetry else 'off':>8} {r['status']:>9} "
                      f"{r['objective']!s:>9} {r['bound']:>5} {split:>9} {r['seconds']:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
