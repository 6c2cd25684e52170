"""``python -m bench prove``: the proof searches and the checker, positions a second and proof sizes.

Rows: df-pn (the general search, Python) on a late position of That's My Line and on small
positions of the other games; That's My Line's compiled producer on a position three stones in and
from the empty board (``--full``: the real board with 16 stones, a few minutes); each proof's
certificate checked by the independent checker (the plain referee for the positions written out,
the judge for the claims), with its records a second. ``--projection``: df-pn's growth a ply in David
and Goliath and The Power of Two and what the start would take (:mod:`bench.prove_projection`).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from powertwo.rules import get_game
from powertwo.rules.thats_my_line import Place
from powertwo.solvers.proof_check import check_certificate
from powertwo.solvers.proof_format import write_certificate
from powertwo.solvers.prove import Limits, prove
from powertwo.solvers.prove.tml import prove_tml

LATE_STONES = 14
"""The stones of a seeded random game of That's My Line at which df-pn and the compiled producer meet."""
SMALL = [
    ("tower-of-power", {"to_move": "white", "stacks": {"a1": "W", "b2": "W", "h8": "B"}}),
    ("david-goliath", {"david": 44, "goliath": 52, "light_thrown": [6, 9, 12, 18, 20, 33, 40, 43, 53, 56, 58, 59,
                                                                    61, 64],
                       "dark_thrown": [1, 21, 22, 23, 31, 37, 38, 39, 42, 45, 47, 48, 55, 57], "to_move": "light",
                       "ply": 28}),
    ("epaminondas", {"to_move": "white", "white": ["m3"], "black": ["g2"]}),
]


def _row(name: str, result, seconds: float, checked: tuple[float, int] | None) -> str:
    size = result.proof
    rate = result.figures.expanded / max(seconds, 1e-9)
    check = "-" if checked is None else f"{checked[0]:8.1f} {checked[1] / max(checked[0], 1e-9):>10,.0f}"
    return (f"{name:<44} {result.value.value:>7} {result.figures.expanded:>12,} {rate:>10,.0f} "
            f"{'-' if size is None else f'{size.positions:,}':>10} {'-' if size is None else f'{size.claims:,}':>7} "
            f"{seconds:>8.1f} {check}")


def _check(result, folder: Path) -> tuple[float, int] | None:
    if result.certificate is None:
        return None
    path = folder / "bench.proof"
    write_certificate(path, dict(result.certificate.header), result.certificate.body)
    began = time.perf_counter()
    report = check_certificate(path)
    if not report.valid:
        raise SystemExit(f"bench prove: the checker refused a proof: {report.faults[0]}")
    return time.perf_counter() - began, result.proof.positions + result.proof.references


def main() -> None:
    if "--projection" in sys.argv[1:]:  # David and Goliath and The Power of Two: growth a ply, the start
        from bench.prove_projection import main as projection

        projection()
        return
    full = "--full" in sys.argv[1:]
    print("benchmark prove: searches (positions a second), proofs (positions written, claimed) and the checker "
          "(seconds, records a second); wall-clock on this machine")
    print(f"{'position':<44} {'value':>7} {'expanded':>12} {'per s':>10} {'proof':>10} {'claims':>7} "
          f"{'seconds':>8} {'check s':>8} {'records/s':>10}")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        tml = get_game("thats-my-line")
        late, rng = tml.start(), random.Random(1)
        while len(late.light) + len(late.dark) < LATE_STONES:  # a seeded random game
            late = tml.apply(late, rng.choice(tml.legal_moves(late)))
        runs = [(f"thats-my-line, {LATE_STONES} stones in, df-pn", tml, late, "df-pn", None),
                (f"thats-my-line, {LATE_STONES} stones in, compiled", tml, late, "compiled", None)]
        runs += [(f"{name}, near its end, df-pn", get_game(name), None, "df-pn", position) for name, position in SMALL]
        for title, game, state, engine, position in runs:
            state = game.state_from_json(position) if position is not None else state
            began = time.perf_counter()
            result = prove(game, state, limits=Limits(seconds=600), engine=engine)
            print(_row(title, result, time.perf_counter() - began, _check(result, folder)), flush=True)
        three = tml.start()
        for node in (5, 60, 28):
            three = tml.apply(three, Place(node))
        starts = [("thats-my-line, 3 stones in, compiled, cut 4", tml, three)]
        if full:
            starts.append(("thats-my-line from the start, compiled, cut 6", tml, tml.start()))
        for title, game, state in starts:
            began = time.perf_counter()
            result = prove_tml(game, state, limits=Limits(memory_mib=1536), cut=4 if state is three else 6)
            print(_row(title, result, time.perf_counter() - began, _check(result, folder)), flush=True)
    _jobs()


def _jobs() -> None:
    """The job runner on a LocalCluster of 2 worker processes: a David and Goliath position near its end
    split one ply down (the cluster's start and each worker's set-up included)."""
    from powertwo.solvers.prove.jobs import Cluster, prove_split

    game = get_game("david-goliath")
    state = game.state_from_json(SMALL[1][1])
    began = time.perf_counter()
    result = prove_split(game, state, depth=1, limits=Limits(seconds=600, memory_mib=256), cluster=Cluster(workers=2))
    seconds = time.perf_counter() - began
    f = result.figures
    print(f"job runner, {game.name} near its end, split 1 ply, LocalCluster of 2: {result.value.value}; "
          f"{f.jobs} jobs, {f.expanded:,} positions expanded in {f.job_seconds:.1f} s of the jobs, "
          f"{seconds:.1f} s in all ({f.jobs / max(seconds, 1e-9):.2f} jobs a second)", flush=True)


if __name__ == "__main__":
    main()
