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


@dataclass(frozen=True)
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

    def to_dict(self) -> dict:
        return dict(asdict(self), seconds=round(self.seconds, 3))


@dataclass(frozen=True)
class Census:
    """A whole census by jumps: the levels and the totals drawn from them. ``complete`` when the
    last level has no jump left; ``stopped`` says why a census ended early (a level limit, the
    memory budget), None when it did not."""

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
    stopped: str | None = None

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
        totals = {"positions": self.positions, "classes": self.classes, "jump_sequences": self.sequences,
                  "game_sequences": self.game_sequences, "solutions": self.solutions,
                  "one_stone_sequences": sum(lv.sequences for lv in self.levels if lv.stones == 1),
                  "dead_ends_by_stones": {str(k): v for k, v in self.dead_ends().items()}}
        return {"by": "jumps", "board": self.board, "start": self.start, "target": self.target,
                "engine": self.engine, "complete": self.complete, "stopped": self.stopped,
                "symmetries_of_start": self.group_size, "totals": totals,
                "up_to_symmetry": dict(self.symmetric), "seconds": round(self.seconds, 3),
                "peak_memory_bytes": self.peak_memory_bytes, "levels": [lv.to_dict() for lv in self.levels]}


@dataclass(frozen=True)
class MovesLevel:
    """One level of a census by moves (a move: one or more jumps by one stone): the positions
    first reached after ``moves`` moves from the start (forward), or from which the target is
    reached in ``moves`` moves and no fewer (backward); their stones range from ``fewest_stones``
    to ``most_stones``."""

    moves: int
    classes: int
    positions: int
    fewest_stones: int
    most_stones: int
    seconds: float = 0.0
    memory_bytes: int = 0
    solvable_classes: int | None = None
    solvable_positions: int | None = None

    def key(self) -> tuple[int, ...]:
        return (self.moves, self.classes, self.positions, self.fewest_stones, self.most_stones)

    def to_dict(self) -> dict:
        return dict(asdict(self), seconds=round(self.seconds, 3))


@dataclass(frozen=True)
class MovesCensus:
    """A census by moves: ``backward`` counts from the target (``start`` is then the position of
    the target's one stone, or every one-stone position without a target)."""

    board: str
    start: list[str]
    target: str | None
    backward: bool
    group_size: int
    engine: str
    levels: list[MovesLevel]
    seconds: float = 0.0
    peak_memory_bytes: int = 0
    complete: bool = True
    stopped: str | None = None

    @property
    def positions(self) -> int:
        return sum(lv.positions for lv in self.levels)

    @property
    def classes(self) -> int:
        return sum(lv.classes for lv in self.levels)

    def to_dict(self) -> dict:
        totals = {"positions": self.positions, "classes": self.classes,
                  "most_moves": self.levels[-1].moves if self.levels else 0}
        return {"by": "moves", "direction": "backward" if self.backward else "forward", "board": self.board,
                "start": self.start, "target": self.target, "engine": self.engine, "complete": self.complete,
                "stopped": self.stopped, "symmetries_of_start": self.group_size, "totals": totals,
                "seconds": round(self.seconds, 3), "peak_memory_bytes": self.peak_memory_bytes,
                "levels": [lv.to_dict() for lv in self.levels]}
