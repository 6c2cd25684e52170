"""The walk's modes (:func:`~powertwo.solvers.jump.kernel.walk._run`): module-level ints, so numba
compiles them as constants."""

ANY_CHAIN_FIRST = 0
"""Any one-stone finish, moves ignored, the last jumper's chain tried first; exhausted positions go to
the dead table."""
WITHIN_BUDGET = 1
"""A finish within the frame's budget of moves; refuted states go to the transposition table."""
ANY_NODE_ORDER = 2
"""Any one-stone finish as :data:`ANY_CHAIN_FIRST`, but every stone in node order (no chain first)."""
MODES = (ANY_CHAIN_FIRST, WITHIN_BUDGET, ANY_NODE_ORDER)
