"""Plain "rules as written" legality tests, one module per game, kept apart from the
fast generators in :mod:`powertwo.rules` and used only to cross-check them.

Each module offers ``candidates(game, state)`` (every move worth asking about,
a superset of the legal ones, found by brute force), ``check(game, state,
move) -> str | None`` (the reason the move is illegal, or ``None``) and
``apply(game, state, move)`` (the position after a legal move, the rule's actions
done one after another), written straight from RULES.md without sharing helpers
with the fast generator; only the state and move value classes are shared.
"""
