"""The proof checker's judge: re-proves the positions a certificate claims won (its ``CLAIM``
records, :mod:`.proof_format`) by an exact search of its own. That's My Line only.

Independent of the producer (:mod:`.prove`): this module imports nothing of it nor of the fast rules'
tables; it builds its own from the board's lines (node ``v`` closes for the other side every node of
every line through it) and starts from the stones of the position it is given. The tests hold it
to the plain referee: the nodes it finds open are those the plain referee lets each side place on,
and its verdicts are those of a brute-force minimax through the plain referee on small boards.

It trusts two facts of the rules, both argued in docs/prove.md: (1) the game from a position
depends only on the nodes each side may still place on, the stones each has placed, who is to move
and who placed last (stones are never removed; a node open to a side stays open until it is taken
or a line through it receives an opponent stone), so positions alike in these are one; and (2) the
count bound: a side whose stones placed plus its open nodes (within its supply) stay below the
other's stones placed has lost.

The search: depth first, a side's moves tried in turn (those closing most of the other side's open
nodes first), the first that leaves the other side lost decides; decided positions are kept in a
table (newer entries displace older ones), seen from the side to move (colours swapped alike) and
merged under the board symmetries the checker has checked (they map lines onto lines).
"""

from __future__ import annotations

import numpy as np
from numba import njit

DEPTH = 160
PASS = 64
WIN, LOSS, OPEN = 1, 0, -1
PROBES = 8


@njit(inline="always")
def _ones(x: np.uint64) -> int:
    n = 0
    while x:
        x &= x - np.uint64(1)
        n += 1
    return n


@njit(inline="always")
def _reach(open_: np.uint64, placed: int, supply: int) -> int:
    """The most stones a side can end with."""
    if supply >= 0 and placed >= supply:
        return placed
    total = placed + _ones(open_)
    return total if supply < 0 else min(total, supply)


@njit(inline="always")
def _decided(a: np.uint64, b: np.uint64, na: int, nb: int, last: int, supply: int) -> int:
    """WIN or LOSS for the side to move (open nodes ``a``, stones ``na``) when decided by the count
    bound or the end of the game, else OPEN. ``last``: 0 the side to move placed last, 1 the other."""
    if _reach(a, na, supply) < nb:
        return LOSS
    if _reach(b, nb, supply) < na:
        return WIN
    movable_a = a != np.uint64(0) and (supply < 0 or na < supply)
    movable_b = b != np.uint64(0) and (supply < 0 or nb < supply)
    if not movable_a and not movable_b:
        return WIN if na > nb or (na == nb and last == 0) else LOSS
    return OPEN


@njit(inline="always")
def _mapped(x: np.uint64, images: np.ndarray, k: int) -> np.uint64:
    """The image of the node mask ``x`` under symmetry ``k``: one table of 256 masks per byte."""
    out = np.uint64(0)
    for byte in range(8):
        out |= images[k, byte, int((x >> np.uint64(8 * byte)) & np.uint64(255))]
    return out


@njit(inline="always")
def _least(a: np.uint64, b: np.uint64, images: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """The least image of the pair of masks under the symmetries the checker accepted."""
    best_a, best_b = a, b
    for k in range(images.shape[0]):
        ia = _mapped(a, images, k)
        if ia < best_a:
            best_a, best_b = ia, _mapped(b, images, k)
        elif ia == best_a:
            ib = _mapped(b, images, k)
            if ib < best_b:
                best_b = ib
    return best_a, best_b


@njit(inline="always")
def _slot(keys: np.ndarray, a: np.uint64, b: np.uint64, tag: np.uint64) -> int:
    """The slot of a key, or the slot a new key takes (the last probed when all are taken)."""
    size = keys.shape[0]
    h = (a ^ np.uint64(0x2545F4914F6CDD1D)) * np.uint64(0x9E3779B97F4A7C15) + b * np.uint64(0xD6E8FEB86659FD93) + tag
    h ^= h >> np.uint64(32)
    h *= np.uint64(0xD6E8FEB86659FD93)
    h ^= h >> np.uint64(32)
    s = np.int64(h & np.uint64(size - 1))
    for _ in range(PROBES):
        if keys[s, 2] == np.uint64(0) or (keys[s, 0] == a and keys[s, 1] == b and keys[s, 2] == tag):
            return s
        s = (s + 1) & (size - 1)
    return s


@njit(cache=True)
def _solve(a0: np.uint64, b0: np.uint64, na0: int, nb0: int, last0: int, closes: np.ndarray, supply: int,
           images: np.ndarray, keys: np.ndarray, wins: np.ndarray) -> int:
    """WIN or LOSS for the side to move of the position (see :func:`_decided` for the arguments)."""
    first = _decided(a0, b0, na0, nb0, last0, supply)
    if first != OPEN:
        return first
    pos = np.zeros((DEPTH, 5), np.uint64)
    moves = np.zeros((DEPTH, 65), np.int64)
    todo = np.zeros((DEPTH, 2), np.int64)  # moves listed, next to try
    pos[0, 0], pos[0, 1], pos[0, 2], pos[0, 3], pos[0, 4] = a0, b0, na0, nb0, last0 + 1
    d = 0
    _list(0, pos, moves, todo, closes, supply)
    while True:
        verdict = OPEN
        if todo[d, 1] == todo[d, 0]:
            verdict = LOSS
        else:
            m = moves[d, todo[d, 1]]
            _after(d, m, pos, closes)
            c = pos[d + 1]
            known = _decided(c[0], c[1], int(c[2]), int(c[3]), int(c[4]) - 1, supply)
            if known == OPEN:
                tag = np.uint64(1 + int(c[2]) + 128 * int(c[3]) + 16384 * int(c[4]))
                ka, kb = _least(c[0], c[1], images)
                s = _slot(keys, ka, kb, tag)
                if keys[s, 2] == tag and keys[s, 0] == ka and keys[s, 1] == kb:
                    known = int(wins[s])
            if known == OPEN:
                d += 1
                _list(d, pos, moves, todo, closes, supply)
                continue
            todo[d, 1] += 1
            if known == LOSS:
                verdict = WIN
        while verdict != OPEN:
            p = pos[d]
            tag = np.uint64(1 + int(p[2]) + 128 * int(p[3]) + 16384 * int(p[4]))
            ka, kb = _least(p[0], p[1], images)
            s = _slot(keys, ka, kb, tag)
            keys[s, 0], keys[s, 1], keys[s, 2], wins[s] = ka, kb, tag, verdict
            if d == 0:
                return verdict
            d -= 1
            todo[d, 1] += 1
            verdict = WIN if verdict == LOSS else OPEN


@njit(inline="always")
def _list(d: int, pos: np.ndarray, moves: np.ndarray, todo: np.ndarray, closes: np.ndarray, supply: int) -> None:
    a, b, na = pos[d, 0], pos[d, 1], int(pos[d, 2])
    n = 0
    if a != np.uint64(0) and (supply < 0 or na < supply):
        for v in range(64):
            if (a >> np.uint64(v)) & np.uint64(1):
                score = 128 * (64 - _ones(b & closes[v])) + v
                j = n
                while j > 0 and moves[d, j - 1] > score:
                    moves[d, j] = moves[d, j - 1]
                    j -= 1
                moves[d, j] = score
                n += 1
        for i in range(n):
            moves[d, i] = moves[d, i] % 128
    else:
        moves[d, 0] = PASS
        n = 1
    todo[d, 0], todo[d, 1] = n, 0


@njit(inline="always")
def _after(d: int, m: int, pos: np.ndarray, closes: np.ndarray) -> None:
    """Position ``d + 1``: position ``d`` after move ``m``, seen from the other side."""
    a, b, na, nb, last = pos[d, 0], pos[d, 1], pos[d, 2], pos[d, 3], int(pos[d, 4]) - 1
    if m == PASS:
        pos[d + 1, 0], pos[d + 1, 1], pos[d + 1, 2], pos[d + 1, 3] = b, a, nb, na
        pos[d + 1, 4] = (last if last < 0 else 1 - last) + 1
    else:
        bit = np.uint64(1) << np.uint64(m)
        pos[d + 1, 0], pos[d + 1, 1] = b & ~closes[m], a & ~bit
        pos[d + 1, 2], pos[d + 1, 3], pos[d + 1, 4] = nb, na + np.uint64(1), 2


class TmlJudge:
    """The judge of one That's My Line board and supply, its table kept from claim to claim."""

    def __init__(self, board: object, supply: int | None, perms: tuple[tuple[int, ...], ...] = (),
                 table_bits: int = 24):
        """``perms``: symmetries of the board the caller checked (``perm[v - 1]`` the image of node
        ``v``), under which positions are merged."""
        nodes = sorted(board.nodes)  # type: ignore[attr-defined]
        if len(nodes) > 64:
            raise ValueError("the judge works on boards of at most 64 nodes")
        self.bit = {v: i for i, v in enumerate(nodes)}
        self.images = np.zeros((len(perms), 8, 256), np.uint64)
        for k, perm in enumerate(perms):
            for v in nodes:
                i, j = self.bit[v], self.bit[perm[v - 1]]
                for byte in range(256):
                    if byte >> (i % 8) & 1:
                        self.images[k, i // 8, byte] |= np.uint64(1) << np.uint64(j)
        self.closes = np.zeros(64, np.uint64)
        for line in board.lines:  # type: ignore[attr-defined]
            mask = np.uint64(0)
            for v in line:
                mask |= np.uint64(1) << np.uint64(self.bit[v])
            for v in line:
                self.closes[self.bit[v]] |= mask
        for v in nodes:
            self.closes[self.bit[v]] |= np.uint64(1) << np.uint64(self.bit[v])
        self.supply = -1 if supply is None else supply
        self.keys = np.zeros((1 << table_bits, 3), np.uint64)
        self.wins = np.zeros(1 << table_bits, np.int8)

    def open_nodes(self, mine: frozenset, theirs: frozenset) -> int:
        """The nodes (as a mask of bit indices) free and on no line holding a stone of ``theirs``."""
        closed = np.uint64(0)
        for v in theirs:
            closed |= self.closes[self.bit[v]]
        for v in mine:
            closed |= np.uint64(1) << np.uint64(self.bit[v])
        full = np.uint64((1 << len(self.bit)) - 1) if len(self.bit) < 64 else np.uint64(2**64 - 1)
        return int(full & ~closed)

    def mover_wins(self, light: frozenset, dark: frozenset, to_move: int, last_placer: int | None) -> bool:
        mine, theirs = (light, dark) if to_move == 0 else (dark, light)
        last = -1 if last_placer is None else (0 if last_placer == to_move else 1)
        return _solve(np.uint64(self.open_nodes(mine, theirs)), np.uint64(self.open_nodes(theirs, mine)), len(mine),
                      len(theirs), last, self.closes, self.supply, self.images, self.keys, self.wins) == WIN


__all__ = ["TmlJudge"]
