"""Every compiled kernel compiled ahead of use (``powertwo warm``, run by ``make venv``), or loaded
from numba's cache into this process (a workbench worker, so that its searches need not wait).

Each kernel of :data:`powertwo.solvers.kernels.KERNELS` is warmed by a small run of the search that
uses it, which compiles its functions into numba's cache on the first run after an install (tens of
seconds to minutes on a busy machine) and loads them from the cache afterwards (about a second).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable

from powertwo.solvers import kernels
from powertwo.solvers.registry import Progress


def _endgame() -> None:
    """That's My Line's endgame search on a board of two nodes on one line (a table of 16 slots)."""
    from powertwo.solvers.players.endgame_kernel import EndgameSearch

    search = EndgameSearch([0b11, 0b11], None, table_bits=4)
    search.solve((0b11, 0b11), (0, 0), 0, None, lambda visited: False)


def _jump() -> None:
    """The reverse search: its walk, the backward perimeter of a position of 20 stones and more, and
    the growth of its two tables."""
    from powertwo.boards import load
    from powertwo.solvers.jump import KernelSearch
    from powertwo.solvers.jump.kernel.hashing import _rehash_dead, _rehash_tt
    from powertwo.solvers.jump.backends import load_kernel
    from powertwo.solvers.jump.tables import PERIMETER_STONES

    board = load("power-of-two")
    load_kernel(board, lambda message: None)
    position = list(board.nodes)[: PERIMETER_STONES + 1]
    search = KernelSearch(board, position, targets=position[:1], pagodas=False, perimeter=64, memory_mb=1)
    search.distance(position)
    tk, td = search._new_tt(4)      # the tables' own layouts (a key and its entry side by side)
    _rehash_tt(tk, td, *search._new_tt(8), search.counts)
    _rehash_dead(search._new_dead(4), search._new_dead(8), search.counts)


def _census() -> None:
    """The census of a small corner game (the forward levels and the backward pass), into a
    temporary store."""
    from powertwo.boards import load
    from powertwo.solvers.census import CensusOptions, run_census

    board = load("english")
    start = sorted(v for side in board.start("central").values() for v in side)
    with tempfile.TemporaryDirectory() as store:
        run_census(board, start[:6], CensusOptions(solvable=True, store=store))


def _prove() -> None:
    """That's My Line's proof producer (its search and its proof walk) on a position of the real
    board with few nodes left open (each side's first legal move played until then); and the
    symmetries of every game's board, which the proofs use (the first computation imports igraph)."""
    from powertwo.boards import BoardError
    from powertwo.rules import game_names, get_game
    from powertwo.rules.thats_my_line import ThatsMyLine
    from powertwo.solvers.prove import Limits, prove

    game = ThatsMyLine()
    state = game.start()
    while len(game.placeable(state, 0)) + len(game.placeable(state, 1)) > OPEN_NODES:
        state = game.apply(state, game.legal_moves(state)[0])
    prove(game, state, limits=Limits(memory_mib=1), engine="compiled")
    for name in game_names():
        try:
            get_game(name).board.symmetries  # noqa: B018  (a cached property: computed once per board)
        except BoardError:  # too many to list: the proofs go without
            pass


OPEN_NODES = 8
"""The open nodes left in the position that warms the proof producer."""
WARMERS: dict[str, Callable[[], None]] = {"endgame": _endgame, "jump": _jump, "census": _census, "prove": _prove}
"""The run that warms each kernel."""


def load(name: str) -> float:
    """Compile the kernel ``name`` (or load it from numba's cache) into this process and mark it
    loaded (:func:`powertwo.solvers.kernels.mark_loaded`); the seconds it took."""
    if name not in WARMERS:
        raise ValueError(f"unknown kernel {name!r} (known: {', '.join(WARMERS)})")
    began = time.perf_counter()
    WARMERS[name]()
    kernels.mark_loaded(name)
    return time.perf_counter() - began


def warm_all(progress: Progress, names: tuple[str, ...] | None = None) -> dict[str, float]:
    """Every kernel (or those named) compiled into numba's cache, one progress line each before and
    after; the seconds each took."""
    chosen = names or tuple(WARMERS)
    took = {}
    for k, name in enumerate(chosen, start=1):
        progress(f"[{k}/{len(chosen)}] {kernels.KERNELS[name]}: compiling (or loading from numba's cache)")
        took[name] = load(name)
        progress(f"[{k}/{len(chosen)}] {kernels.KERNELS[name]}: ready in {took[name]:.1f} s")
    return took


__all__ = ["WARMERS", "load", "warm_all"]
