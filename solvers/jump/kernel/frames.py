"""The columns of the walk's frame arrays (:func:`~powertwo.solvers.jump.kernel.walk._run`): frame
``d`` is the position after ``d`` single jumps. Module-level ints, so numba compiles them as
constants. :func:`new_frames` allocates them in one place (:class:`~.groups.Frames`)."""

from __future__ import annotations

import numpy as np

from .groups import Frames

# fu[d, column]: uint64 columns
STONES = 0           # the position (a bitmask of stones)
MOVERS_LEFT = 1      # the stones still to try as the start of a fresh move
KEY = 2              # the canonical key of the position (0: not looked up)
MAY_START = 3        # the stones that may start a fresh move at all (the leaf tests narrow it)
U_COLUMNS = 4

# fi[d, column]: int64 columns
LAST = 0             # the last jumper's node (-1: none, the chain has ended)
BUDGET = 1           # fresh moves left (the budgeted mode)
PHASE = 2            # 0: the last jumper's chain is being tried; 1: the fresh moves
MOVER = 3            # the node of the stone jumping now
NEXT_JUMP = 4        # the next jump index of the mover to try
LANDING = 5          # where the mover landed (the child's last jumper)
KEY_LAST = 6         # the image of the last jumper under the key's symmetry (the table's second key)
I_COLUMNS = 7

# state[register]: the walk's registers between slices
DEPTH = 0            # the frame being worked on
ENTERING = 1         # 1: the frame at DEPTH is new (tests first); 0: go on with its children
ORDER = 2            # 0: movers from the lowest node up (or by promise); 1: from the highest down
HIT = 3              # 1 on FOUND when the frame at DEPTH is a perimeter hit still to complete by its distances
REGISTERS = 4

# fo[d, 0] = how many movers tried; fo[d, 1:65] = the movers in order of promise (_order_movers);
# fo[d, SCORES:] = their scores (its work space)
TRIED = 0
SCORES = 65          # 1 + at most 64 movers
O_COLUMNS = 129      # and at most 64 scores


def new_frames(stones: int, images: int, pagodas: int, scratch: np.ndarray) -> Frames:
    """Zeroed frames and registers for a walk from ``stones`` stones: ``fu``, ``fi``, ``fimg`` (the
    position's image under each of ``images`` symmetries), ``fps`` (its sum under each of ``pagodas``
    pagodas), ``fo``, ``state``, with the work space ``scratch``."""
    depth = stones + 1
    return Frames(np.zeros((depth, U_COLUMNS), dtype=np.uint64), np.zeros((depth, I_COLUMNS), dtype=np.int64),
                  np.zeros((depth, images), dtype=np.uint64), np.zeros((depth, pagodas), dtype=np.int64),
                  np.zeros((depth, O_COLUMNS), dtype=np.int64), np.zeros(REGISTERS, dtype=np.int64), scratch)
