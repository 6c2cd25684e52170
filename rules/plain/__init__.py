"""Plain "rules as written" legality tests, one module per game, kept apart from the
fast generators in :mod:`powertwo.rules` and used only to cross-check them.

Each module offers ``candidates(game, state)`` (every move worth asking about,
a superset of the legal ones, found by brute force), ``check(game, state,
move) -> str | None`` (the reason the move is illegal, or ``None``) and
``apply(game, state, move)`` (the position after a legal move, the rule's actions
done one after another), written straight from RULES.md without sharing helpers
with the fast generator; only the state and move value classes are shared. Each also offers
``outcome(game, state)``: how the game ends as RULES.md words it, the winner (``0`` or ``1``),
:data:`DRAW`, or ``None`` while it goes on (the independent proof checker,
:mod:`powertwo.solvers.proof_check`, judges every leaf of a proof by it).
"""

DRAW = "draw"
"""``outcome``'s value for a drawn game (Tower of Power's repetition or move limit; That's My Line
when nobody placed a stone)."""
