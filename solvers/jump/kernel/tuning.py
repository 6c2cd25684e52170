"""The compiled reverse search's result codes and tuning constants, each with its reason beside it."""

from __future__ import annotations

FOUND, EXHAUSTED, PAUSED, HALTED = 1, 0, 2, 3   # a walk's outcome: a finish, none, out of positions, halted

SLICE = 1 << 21           # positions per walk's turn: long enough that Python's turn-taking costs nothing
TICK = 0.25               # seconds of compiled work between looks at the clock, Ctrl-C and the progress line
REHASH_SECONDS = 100e-9   # a table's growth foreseen per old slot (measured 80-90 ns): keeps a deadline
DEFAULT_MEMORY_MB = 4096  # cap of both hash tables together; they start small and double while needed
MIN_SLOTS = 1 << 16       # a table's first size: small enough to clear in no time, big enough for short searches
PROBES = 8                # linear-probe length of the tables; a full run overwrites the entry of the smallest budget
TT_BYTES = 16             # a transposition slot: uint64 key, uint64 entry (48-bit check, last node + 1, budget)
DEAD_BYTES = 8            # a dead-table slot: the uint64 key alone
ORDER_MOVES = 2           # fresh moves near the root tried by promise: they decide where a finish is found
ANY_SHARE = 0.25          # share of a limit for the search for any finish; the deepening finds finishes too
FIRST_STEP = 3            # first searches within bound + 3, then + 6 moves: a usable answer comes early
FIRST_NODES = 250_000     # positions of each first search (0.1-0.3 s): cheap next to the searches that follow
UPPER_SHARE = 0.12        # share of a limit for the beam and branch and bound: more delays the deepening's proof
BEAM_SHARE = 0.1          # share of a limit for the beam search, run before branch and bound
BEAM_WIDTH = 10           # positions the beam keeps per move
BEAM_PROBE = 200_000      # positions of each beam probe (any finish, then a shorter one)
STALL_NODES = 15_000_000  # positions without progress that end branch and bound or an unbounded deepening step
DEFAULT_PERIMETER = 3_000_000   # positions of the backward perimeter (at most 4 targets, 20 or more stones)
KERNEL_LOADING = "loading the search kernel (the first run after install compiles it: tens of seconds)"
"""The progress message of a search's set-up while the kernel is not yet loaded in this process."""
