"""Positions as bit sets, shared by the jump searches and the census: node ``v`` is bit ``v - 1``
of a Python ``int`` (a ``uint64`` in the compiled code on boards of at most 64 nodes)."""

from __future__ import annotations

from typing import Iterable

from powertwo.boards import NodeId

Mask = int


def mask_of(nodes: Iterable[NodeId]) -> Mask:
    """The bit set of ``nodes``."""
    m = 0
    for v in nodes:
        m |= 1 << (v - 1)
    return m


def nodes_of(m: Mask) -> list[NodeId]:
    """The nodes of the bit set ``m``, in increasing order."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length())
        m ^= low
    return out
