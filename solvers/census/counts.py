"""Exact counts from residues: every count is kept modulo a few primes below 2^31 and recombined
by the Chinese remainder theorem (exact while the true count is below their product, about
2^124), and the per-level figures of a census."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from math import prod
from typing import Sequence

import numpy as np

PRIMES = (2147483647, 2147483629, 2147483587, 2147483579)
"""The moduli: the four largest primes below 2^31 (sums of two residues fit in 32 bits unsigned)."""
MODULUS = prod(PRIMES)
PRIME_ARRAY = np.array(PRIMES, dtype=np.uint64)


def crt(residues: Sequence[int]) -> int:
    """The number below :data:`MODULUS` with these residues modulo :data:`PRIMES`."""
    total = 0
    for r, p in zip(residues, PRIMES, strict=True):
        rest = MODULUS // p
        total += int(r) * rest * pow(rest, -1, p)
    return total % MODULUS


def residues(value: int) -> list[int]:
    return [value % p for p in PRIMES]


def sum_residues(columns: np.ndarray) -> list[int]:
    """Column sums of an ``(n, len(PRIMES))`` residue array, reduced modulo each prime."""
    if len(columns) == 0:
        return [0] * len(PRIMES)
    return [int(columns[:, r].sum(dtype=np.uint64) % np.uint64(p)) for r, p in enumerate(PRIMES)]


@dataclass
class Level:
    """One level of the census: the positions after ``jumps`` jumps (``stones`` stones each).
    ``classes`` counts them up to the symmetries of the start, ``positions`` one by one;
    ``sequences`` the jump sequences from the start that end on them; ``dead_*`` the same for
    the positions with no jump (the game ends there); ``solvable_*`` the positions from which one
    stone (on the target) can still be reached, when asked for."""

    jumps: int
    stones: int
    classes: int
    positions: int
    sequences: int
    dead_classes: int
    dead_positions: int
    dead_sequences: int
    seconds: float = 0.0
    memory_bytes: int = 0
    solvable_classes: int | None = None
    solvable_positions: int | None = None

    def key(self) -> tuple[int, ...]:
        """The counted figures (not the time and memory), to compare two engines level by level."""
        return (self.jumps, self.stones, self.classes, self.positions, self.sequences, self.dead_classes,
                self.dead_positions, self.dead_sequences)


@dataclass
class Census:
    """A whole census: the levels and the totals drawn from them."""

    board: str
    start: list[str]
    target: str | None
    group_size: int
    engine: str
    levels: list[Level]
    seconds: float = 0.0
    peak_memory_bytes: int = 0
    symmetric: dict = field(default_factory=dict)
    complete: bool = True
    target_solutions: int | None = None

    @property
    def positions(self) -> int:
        return sum(lv.positions for lv in self.levels)

    @property
    def classes(self) -> int:
        return sum(lv.classes for lv in self.levels)

    @property
    def game_sequences(self) -> int:
        return sum(lv.dead_sequences for lv in self.levels)

    @property
    def sequences(self) -> int:
        return sum(lv.sequences for lv in self.levels)

    @property
    def solutions(self) -> int:
        """Jump sequences to one stone (on the target when the census has one)."""
        if self.target is not None:
            return self.target_solutions or 0
        return sum(lv.sequences for lv in self.levels if lv.stones == 1)

    def dead_ends(self) -> dict[int, dict[str, int]]:
        return {lv.stones: {"positions": lv.dead_positions, "classes": lv.dead_classes,
                            "game_sequences": lv.dead_sequences} for lv in self.levels if lv.dead_positions}

    def to_dict(self) -> dict:
        levels = [dict(asdict(lv), seconds=round(lv.seconds, 3)) for lv in self.levels]
        totals = {"positions": self.positions, "classes": self.classes, "jump_sequences": self.sequences,
                  "game_sequences": self.game_sequences, "solutions": self.solutions,
                  "one_stone_sequences": sum(lv.sequences for lv in self.levels if lv.stones == 1),
                  "dead_ends_by_stones": {str(k): v for k, v in self.dead_ends().items()}}
        return {"board": self.board, "start": self.start, "target": self.target, "engine": self.engine,
                "complete": self.complete, "symmetries_of_start": self.group_size, "totals": totals,
                "up_to_symmetry": dict(self.symmetric), "seconds": round(self.seconds, 3),
                "peak_memory_bytes": self.peak_memory_bytes, "levels": levels}
