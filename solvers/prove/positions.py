"""What the proof search needs to know of each game beyond the shared ``Game`` interface: a position's
key (its stones as bit masks, without the move count), the board symmetries under which the game's
rules are symmetric (the key is the least image under them), the game's exact shortcuts, whether a
position can come back, and the positions of the game's history.

Symmetries kept, per game (a symmetry of the board maps lines onto lines):

* That's My Line, The Power of Two, Tower of Power: every symmetry of the board (their rules speak
  only of lines, nodes along lines and their neighbours; Tower of Power's board is the 8x8 grid
  with its diagonals, whose symmetries are the 8 of the square).
* David and Goliath: those that keep the border lines (a reused stone may not stand on one).
* Epaminondas: those that keep every square's rank (the home rows decide the game): the mirror
  left to right.
* Netzwerk: none (the search treats every position as itself).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Callable, Hashable

from powertwo.rules import AnyGame

Key = Hashable


def _mask(nodes: Any) -> int:
    out = 0
    for v in nodes:
        out |= 1 << v
    return out


class _Relabel:
    """Images of node masks under one symmetry, a byte at a time (``perm[v - 1]`` the image of node
    ``v``): one table of 256 masks for each byte of a mask."""

    def __init__(self, perm: tuple[int, ...]):
        size = len(perm) + 1
        self.tables = []
        for low in range(0, size, 8):
            table = [0] * 256
            for byte in range(256):
                image = 0
                for bit in range(8):
                    v = low + bit
                    if byte >> bit & 1 and 1 <= v < size:
                        image |= 1 << perm[v - 1]
                table[byte] = image
            self.tables.append(table)
        self.stacks = itemgetter(*[perm.index(v) for v in range(1, size)])
        """The stacks of the board after the symmetry: square ``perm[v - 1]`` takes square ``v``'s."""

    def mask(self, mask: int) -> int:
        out = 0
        for table in self.tables:
            if not mask:
                break
            out |= table[mask & 255]
            mask >>= 8
        return out


def _masks_of(game_name: str) -> Callable[[Any], tuple[tuple[int, ...], tuple]]:
    """A game's position as (node masks, the rest), the move count and history left out."""
    if game_name == "thats-my-line":
        return lambda s: ((_mask(s.light), _mask(s.dark)), (s.to_move, s.last_placer))
    if game_name == "power-of-two":
        return lambda s: ((_mask(s.light), _mask(s.dark), _mask(s.aged)), (s.to_move,))
    if game_name == "david-goliath":
        return lambda s: ((1 << s.david, 1 << s.goliath, _mask(s.light_thrown), _mask(s.dark_thrown)), (s.to_move,))
    if game_name == "netzwerk":
        return lambda s: ((_mask(s.pieces[0]), _mask(s.pieces[1]), _mask(s.energy)), (s.to_move,))
    if game_name == "epaminondas":
        return lambda s: ((_mask(s.pieces[0]), _mask(s.pieces[1])), (s.to_move,))
    raise KeyError(game_name)


def _rank(label: str) -> str:
    return label.lstrip("abcdefghijklmnopqrstuvwxyz")


def _symmetries(game: AnyGame) -> tuple[tuple[int, ...], ...]:
    """The board's symmetries (identity left out) under which the game's rules are symmetric."""
    board = game.board
    if game.name == "netzwerk" or board.symmetry_order <= 1:
        return ()
    perms = board.symmetries[1:]
    if game.name == "david-goliath":
        border = game.border  # type: ignore[attr-defined]
        perms = tuple(p for p in perms if all((p[v - 1] in border) == (v in border) for v in board.nodes))
    elif game.name == "epaminondas":
        perms = tuple(p for p in perms if all(_rank(board.label(p[v - 1])) == _rank(board.label(v))
                                              for v in board.nodes))
    return perms


@dataclass(frozen=True)
class Positions:
    """Keys and shortcuts of one game (see the module text). ``key`` is what the table stores
    (with the move count where a move limit makes it matter), ``repetition_key`` what repetition
    compares (never the move count)."""

    game: AnyGame
    perms: tuple[tuple[int, ...], ...]
    encode: Callable[[Any], tuple[tuple[int, ...], tuple]] | None
    """The position as (node masks, the rest); ``None`` for Tower of Power (stacks by square)."""
    cycles: bool
    """Whether a position can come back (every game but That's My Line)."""
    draws: bool
    """Whether the rules know a draw (Tower of Power; That's My Line's empty game)."""

    relabels: tuple[_Relabel, ...] = field(default=(), repr=False)

    @classmethod
    def of(cls, game: AnyGame, symmetry: bool = True) -> "Positions":
        encode = None if game.name == "tower-of-power" else _masks_of(game.name)
        perms = _symmetries(game) if symmetry else ()
        return cls(game=game, perms=perms, encode=encode, relabels=tuple(_Relabel(p) for p in perms),
                   cycles=game.name != "thats-my-line",
                   draws=game.name in ("tower-of-power", "thats-my-line"))

    def repetition_key(self, state: Any) -> Key:
        if self.encode is None:
            stacks = state.stacks
            return min([stacks] + [r.stacks(stacks) for r in self.relabels]), state.to_move
        masks, rest = self.encode(state)
        if not self.relabels:
            return masks + rest
        return min([masks] + [tuple(r.mask(m) for m in masks) for r in self.relabels]) + rest

    def key(self, state: Any, repetition: Key | None = None) -> Key:
        """The table's key (``repetition``: the position's repetition key, when known)."""
        if repetition is None:
            repetition = self.repetition_key(state)
        if self.encode is None and self.game.options["move_limit"]:
            return repetition, state.ply
        return repetition

    def history_keys(self, state: Any) -> frozenset:
        """The repetition keys of the positions before ``state`` in its game (Tower of Power keeps
        them in the state; the other games' rules never look back)."""
        if self.game.name != "tower-of-power":
            return frozenset()
        return frozenset(self.repetition_key(_Past(stacks, to_move)) for stacks, to_move in state.history)

    def shortcut(self, state: Any) -> int | None:
        """The winner of a position decided before its end by an exact argument, else ``None``.
        That's My Line: stones are never removed and the nodes a side may place on only shrink, so
        a side that cannot reach the other's stones placed, even placing on every node still open
        to it (within its supply), has lost."""
        if self.game.name != "thats-my-line":
            return None
        game = self.game
        supply = game.supply  # type: ignore[attr-defined]
        placed = (len(state.light), len(state.dark))
        for p in (0, 1):
            most = placed[p] + (game.open_mask(state, p).bit_count()  # type: ignore[attr-defined]
                                if supply is None or placed[p] < supply else 0)
            if supply is not None:
                most = min(most, supply)
            if most < placed[1 - p]:
                return 1 - p
        return None


@dataclass(frozen=True)
class _Past:
    stacks: tuple
    to_move: int


__all__ = ["Positions", "Key"]
