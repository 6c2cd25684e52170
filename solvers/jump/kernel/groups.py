"""The arrays the compiled walk (:func:`~.walk._run`) works on, passed as three named groups
(numba compiles a named tuple's fields as the plain arguments they were, so a group costs no speed),
and the names of the search's counters.

* :class:`Tables`: read only for a search, built once per :class:`~.machine.KernelMachine` (the jumps,
  what a jump changes in the carried images and pagoda sums, the bounds' masks, the lines across
  each node, the backward perimeter);
* :class:`Hashes`: the transposition and dead tables, shared by every walk of a search and replaced
  when one grows;
* :class:`Frames`: one walk's stack (the columns of :mod:`.frames`), its registers and its work space.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# counts[...]: the search's counters (one array per search, and one per walk while walks run in threads)
NODES = 0            # positions entered
TT_ENTRIES = 1       # entries in the transposition table (its load, for growth)
DEAD_ENTRIES = 2     # entries in the dead table
COUNTERS = 3


def new_counts() -> np.ndarray:
    """Zeroed counters (:data:`NODES`, :data:`TT_ENTRIES`, :data:`DEAD_ENTRIES`)."""
    return np.zeros(COUNTERS, dtype=np.int64)


class Tables(NamedTuple):
    """What a walk reads and never writes."""

    jstart: np.ndarray
    """The jumps of node ``v`` are ``k`` in ``range(jstart[v], jstart[v + 1])`` ..."""
    jover: np.ndarray
    """... over ``jover[k]`` ..."""
    jto: np.ndarray
    """... onto ``jto[k]``."""
    jimg: np.ndarray
    """``jimg[s, k]``: jump ``k``'s three nodes' image under symmetry ``s`` (XORed into the image)."""
    jpag: np.ndarray
    """``jpag[t, k]``: what jump ``k`` adds to pagoda ``t``'s sum."""
    perm: np.ndarray
    """``perm[s, v]``: node ``v``'s image under symmetry ``s`` (the symmetries fixing the targets)."""
    unj: np.uint64
    """The unjumpable nodes (the middle of no jump)."""
    regions: np.ndarray
    """The Merson regions clear of the unjumpable nodes, as masks."""
    targets: np.uint64
    """The nodes the last stone may stand on."""
    ends: np.ndarray
    """``ends[b]``: the nodes ``a`` of the jumps ``(a, b, c)`` over ``b``."""
    pneed: np.ndarray
    """``pneed[t]``: pagoda ``t``'s value at its target (a sum below it rules the target out)."""
    pbit: np.ndarray
    """``pbit[t]``: pagoda ``t``'s target as a bit."""
    ostart: np.ndarray
    """The lines across node ``b`` are ``ovec[ostart[b]:ostart[b + 1]]`` ..."""
    ovec: np.ndarray
    """... each the bits ``e_a + e_c`` of its two neighbours of ``b``."""
    pk: np.ndarray
    """The backward perimeter's keys (canonical positions; 0: an empty slot) ..."""
    pd: np.ndarray
    """... and their moves to a goal."""
    radius: int
    """The perimeter is complete up to this many moves (0: no perimeter)."""
    table_from: int
    """Budgets below this are searched, not looked up (cheaper near the leaves)."""


class Hashes(NamedTuple):
    """The tables a walk writes, shared by the walks of a search (:mod:`.hashing`)."""

    tk: np.ndarray
    """The transposition table's keys ..."""
    td: np.ndarray
    """... and entries (a 48-bit check of the key, the last jumper's image + 1, the budget refuted)."""
    dk: np.ndarray
    """The dead table's keys (positions with no finish at all)."""


class Frames(NamedTuple):
    """One walk's arrays: its stack (:mod:`.frames`), registers and the parity tests' work space."""

    fu: np.ndarray
    """``fu[d, column]``: the uint64 columns of frame ``d`` (``STONES``, ``MOVERS_LEFT``, ...)."""
    fi: np.ndarray
    """``fi[d, column]``: the int64 columns (``LAST``, ``BUDGET``, ...)."""
    fimg: np.ndarray
    """``fimg[d, s]``: the stones' image under symmetry ``s``."""
    fps: np.ndarray
    """``fps[d, t]``: the stones' sum under pagoda ``t``."""
    fo: np.ndarray
    """``fo[d]``: the movers in order of promise and their scores."""
    state: np.ndarray
    """The registers (``DEPTH``, ``ENTERING``, ``ORDER``, ``HIT``)."""
    scratch: np.ndarray
    """The parity tests' work space (:mod:`.workspace`)."""
