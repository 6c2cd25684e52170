"""The work space of the parity leaf tests: one ``uint64`` array per walk, cut into named regions."""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

WIDE_FILTER_BITS = 21
"""The filter of :func:`_no_bare_finish`: 2^21 bits (256 KB, two bits a sum; cleared whole after
each test, cheaper than finding the set bits again)."""
WIDE_MOST = (1 << WIDE_FILTER_BITS) // 16
"""More sums than this (a bit in eight set): the test allows every first mover without looking."""
PAIR_FILTER_BITS = 19
"""The filter of :func:`_one_bare_finish` (some 3,300 sums of two removals): 2^19 bits, inside the wide
filter's place (the two tests never run at once)."""
SIDE_SET = 1 << 14
"""Slots of the exact set of the J3 sides of :func:`_no_bare_finish` (at most 1 + 64 + 2016 sums)."""

REACH, PARITY = 1, 2
"""The leaf tests (:func:`_alone`, :func:`_last_movers`): by reach, by parity; the kernel runs both."""


@njit(cache=True)
def _table_sizes(lines: int) -> tuple[int, int]:
    """The sizes of the parity tests' hash sets for a board with ``lines`` lines across nodes: the
    removals of the last jumper (:func:`_last_movers`), the first moves (:func:`_first_movers`)."""
    small = 16
    while small < 2 * lines:
        small *= 2
    big = 16
    while big < 128 * lines:
        big *= 2
    return small, big


BASIS = 0
"""Where the GF(2) basis starts (the one region every layout puts first)."""

Layout = namedtuple("Layout", ["small", "big", "basis", "ends", "tied", "removal", "keys", "masks", "used",
                               "home", "wide", "seen", "filter", "sides", "total"])
"""Where each region of the work space starts (``small``, ``big``: the two hash sets' sizes, and
``total``: the whole length). Regions, in order: ``basis`` (64: a GF(2) basis, its pivots),
``ends`` (64: the cosets of the chains' ends), ``tied`` (``small``: the hash set of the last jumper's
removals, :func:`~.leaves._last_movers`, or of the tied sums of :func:`~.finishes._no_bare_finish`),
``removal`` (a coset per line across a node), ``keys``, ``masks``, ``used`` (``big`` each: the big hash
set, its masks, its used slots; the first 64 used slots double as the sides of
:func:`~.finishes._no_bare_finish`), ``home`` and ``wide`` (64 each: two lists of reach groups),
``seen`` (1024 words = 65536 bits: the filter of :func:`~.finishes._first_of_three`), ``filter`` (the
wide filter of :func:`~.finishes._no_bare_finish`, whose first 2^PAIR_FILTER_BITS bits are also the
pair filter of :func:`~.finishes._one_bare_finish`; the two never run at once), ``sides`` (``SIDE_SET``:
the exact set of sides of :func:`~.finishes._no_bare_finish`)."""


@njit(cache=True)
def _layout(lines: int) -> Layout:
    """The work-space layout (:data:`Layout`) for a board with ``lines`` lines across nodes."""
    small, big = _table_sizes(lines)
    removal = 128 + small
    keys = removal + lines
    home = keys + 3 * big
    filt = home + 1152
    sides = filt + (1 << WIDE_FILTER_BITS) // 64
    return Layout(small, big, BASIS, 64, 128, removal, keys, keys + big, keys + 2 * big, home, home + 64, home + 128,
                  filt, sides, sides + SIDE_SET)


def scratch_for(ovec: np.ndarray) -> np.ndarray:
    """A zeroed work space (:data:`Layout`) for a board whose lines across nodes are ``ovec``."""
    return np.zeros(_layout(ovec.shape[0]).total, dtype=np.uint64)
