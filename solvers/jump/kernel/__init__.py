"""Get a Jump On, reverse: the compiled search kernel (numba) for boards of at most 64 nodes.

A position is one ``uint64`` (bit ``v - 1`` = a stone on node ``v``). The search runs on
*single jumps*; its state is (stones, node of the last jumper). Continuing the last jumper's
chain costs nothing, a jump of any other stone starts a new move and costs one. One depth-first
walk (:func:`~.walk._run`) runs in one of three modes (:mod:`.modes`):

* :data:`~.modes.ANY_CHAIN_FIRST` (0): a search for any one-stone finish, ignoring moves, that
  tries the last jumper's chain first. Exhausting it proves the position unsolvable; every
  position it exhausts is stored in the *dead table* (canonical position -> no finish at any cost).
* :data:`~.modes.ANY_NODE_ORDER` (2): the same search for any finish, every stone in node order
  (the second order of the portfolio of :meth:`~.machine.KernelMachine.search`).
* :data:`~.modes.WITHIN_BUDGET` (1): "is a finish within ``budget`` moves?" -- iterative deepening
  on the budget. The *transposition table* maps (canonical position, image of the last jumper's
  node under the same symmetry) to the largest budget proven insufficient; entries stay valid
  across iterations.

Shorter answers (upper bounds) come from a beam search on whole moves whose probes are short
searches of both kinds (:mod:`.beam`), and from branch and bound (the budgeted mode with the budget
one below the best found).

Prunings (all modes unless said): a single stone must stand on a target node; pagoda functions (one
per target, at most 4 targets: when every target's pagoda sum fell below its value at the target,
no target is reachable); the dead table; in the budgeted mode the admissible lower bound of
:meth:`powertwo.solvers.jump.engine.ReverseSearch.lower_bound` adapted to the chain in progress
(stones on unjumpable nodes each start a move unless one of them is the last jumper or stays as the
last stone; full Merson regions clear of those need a move each), the transposition table, and the
leaf tests (:mod:`.leaves`, :mod:`.finishes`): with no fresh move left, the last jumper alone must be
able to jump over every other stone; with one left, the last jumper and one other stone together;
with two left and the chain ended, two stones (not where the backward perimeter answers exactly).
They test by reach (where a jumper can go) and by parity: a chain is a trail, so the jumps that
clear the board, one across each stone where it stands, sum over GF(2) to the chains' ends plus the
jumps that remove the movers. Symmetric positions share entries only under the symmetries that map
the target set onto itself.

The walk keeps its stack in arrays (the frame columns of :mod:`.frames`), so it runs in slices of a
fixed number of positions and resumes where it stopped: the machine (:class:`~.machine.KernelMachine`)
checks the time, reports progress and grows the hash tables between slices, and the strategies
(:class:`~.search.KernelSearch`) decide which searches it runs. The walk takes its arrays as three
named groups (:mod:`.groups`): the read-only tables, the hash tables, the walk's own frames. The tables
(:mod:`.hashing`) are open-addressing arrays of a power-of-two size that doubles while the load
passes one half, up to the memory option; a full table overwrites an entry (both tables are caches:
a lost entry costs time, never correctness). The parity tests' work space is laid out in one place,
:mod:`.workspace`.

Modules: :mod:`.tuning` (tuning constants, result codes), :mod:`.modes`, :mod:`.frames`,
:mod:`.groups` (the argument groups and counters), :mod:`.hashing`, :mod:`.workspace`, :mod:`.leaves`,
:mod:`.finishes`, :mod:`.walk` (the compiled walk), :mod:`.moves` (whole moves, perft),
:mod:`.machine` (tables, walks, slices, ticks, table growth, one search), :mod:`.beam` (the beam
search on whole moves) and :mod:`.search` (the strategies: first finish, bounds, deepening). The tables come from
:mod:`powertwo.solvers.jump.tables` and :mod:`powertwo.solvers.jump.invariants`.
"""

from __future__ import annotations

from .machine import KernelMachine, Walk, chains
from .moves import MoveGenerator, jump_arrays
from .search import KernelResult, KernelSearch
from .tuning import (
    DEFAULT_MEMORY_MB,
    DEFAULT_PERIMETER,
    EXHAUSTED,
    FIRST_NODES,
    FIRST_STEP,
    FOUND,
    HALTED,
    KERNEL_LOADING,
    PAUSED,
)

__all__ = [
    "DEFAULT_MEMORY_MB", "DEFAULT_PERIMETER", "EXHAUSTED", "FIRST_NODES", "FIRST_STEP", "FOUND", "HALTED",
    "KERNEL_LOADING", "PAUSED", "KernelMachine", "KernelResult", "KernelSearch", "MoveGenerator", "Walk", "chains",
    "jump_arrays",
]
