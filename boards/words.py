"""How messages write counts: the one pluraliser of the toolkit (every layer imports boards)."""

from __future__ import annotations

IRREGULAR = {"is": "are", "was": "were", "this": "these", "suffices": "suffice", "stays": "stay"}


def plural(noun: str, n: int) -> str:
    """``noun`` as it goes with ``n``: ``move`` for 1, ``moves`` otherwise (``-s``/``-x``/``-ch``
    nouns take ``-es``; a few verbs and pronouns their own form)."""
    if n == 1:
        return noun
    if noun in IRREGULAR:
        return IRREGULAR[noun]
    return noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")


def singular(noun: str) -> str:
    """The singular of a plural ``noun`` as :func:`plural` writes it (``moves`` -> ``move``)."""
    for one, many in IRREGULAR.items():
        if noun == many:
            return one
    if noun.endswith(("sses", "xes", "ches", "shes")):
        return noun[:-2]
    return noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun


def counted(n: int, noun: str) -> str:
    """``n`` and the noun (given in the singular), singular for one: ``1 move``, ``4 moves``."""
    return f"{n} {plural(noun, n)}"


def filled(template: str, **counts: int) -> str:
    """A template whose ``{name} nouns`` (nouns in the plural) are filled with the counts, each
    noun agreeing with its count: ``filled("{n} moves, {stones} stones left", n=1, stones=5)`` is
    ``1 move, 5 stones left``."""
    import re

    def fill(match: re.Match[str]) -> str:
        return counted(counts[match[1]], singular(match[2]))

    return re.sub(r"\{(\w+)\} ([A-Za-z]+)", fill, template).format(**counts)


__all__ = ["counted", "filled", "plural", "singular"]
