"""Epaminondas as written in RULES.md §8, by coordinates, for cross-checking :mod:`powertwo.rules.epaminondas`.

Every own piece is tried as a tail against every other square; the move is
judged on (file, rank) coordinates read from the square names, without the
board's rays.
"""

from __future__ import annotations

from typing import Any, Iterator

from powertwo.boards import NodeId
from powertwo.rules.epaminondas import Epaminondas, EpaminondasState, PhalanxMove


def _xy(game: Epaminondas, node: NodeId) -> tuple[int, int]:
    label = game.board.label(node)
    return ord(label[0]) - ord("a"), int(label[1:])


_LAST: list[Any] = [None, None, None]  # the last state asked about, its owner map, whether it is won


def _owners(game: Epaminondas, state: EpaminondasState) -> dict[tuple[int, int], int]:
    if _LAST[0] is not state:
        _LAST[0], _LAST[2], _LAST[1] = state, None, {_xy(game, v): p for p in (0, 1) for v in state.pieces[p]}
    owners: dict[tuple[int, int], int] = _LAST[1]
    return owners


def candidates(game: Epaminondas, state: EpaminondasState) -> Iterator[PhalanxMove]:
    """Every (own piece, other square) pair."""
    for tail in sorted(state.pieces[state.to_move]):
        for dest in game.board.nodes:
            if dest != tail:
                yield PhalanxMove(tail, dest)


def home_row_win(game: Epaminondas, state: EpaminondasState) -> bool:
    """The player to move has more pieces on the far home row than the opponent on theirs."""
    me = state.to_move
    top = max(int(lab[1:]) for lab in game.board.labels)
    mine_there = sum(1 for v in state.pieces[me] if _xy(game, v)[1] == (top if me == 0 else 1))
    theirs_here = sum(1 for v in state.pieces[1 - me] if _xy(game, v)[1] == (1 if me == 0 else top))
    return mine_there > theirs_here


def check(game: Epaminondas, state: EpaminondasState, move: PhalanxMove) -> str | None:
    # a player without pieces or moves has lost; then no move is legal either, so the
    # move's own check already refuses it: only the home-row win needs asking first
    if _LAST[0] is not state or _LAST[2] is None:
        _owners(game, state)
        _LAST[2] = home_row_win(game, state)
    if _LAST[2]:
        return "the game is over"
    return _check_move(game, state, move)


def _check_move(game: Epaminondas, state: EpaminondasState, move: PhalanxMove) -> str | None:
    owner = _owners(game, state)
    me = state.to_move
    tx, ty = _xy(game, move.frm)
    dx, dy = _xy(game, move.to)
    if owner.get((tx, ty)) != me:
        return "no own piece on the tail square"
    vx, vy = dx - tx, dy - ty
    if not (vx == 0 or vy == 0 or abs(vx) == abs(vy)):
        return "not along a line"
    ux, uy = (vx > 0) - (vx < 0), (vy > 0) - (vy < 0)
    distance = max(abs(vx), abs(vy))
    n = 0
    while owner.get((tx + n * ux, ty + n * uy)) == me:
        n += 1
    head = (tx + (n - 1) * ux, ty + (n - 1) * uy)
    steps = distance - (n - 1)
    if steps < 1 or steps > n:
        return "wrong distance for this phalanx"
    for k in range(1, steps):
        if (head[0] + k * ux, head[1] + k * uy) in owner:
            return "passes over a piece"
    last = owner.get((dx, dy))
    if last is None:
        return None
    if last == me:
        return "ends on an own piece"
    if n < 2:
        return "single piece captures"
    run = 0
    while owner.get((dx + run * ux, dy + run * uy)) == 1 - me:
        run += 1
    if run >= n:
        return "not stronger"
    return None


def apply(game: Epaminondas, state: EpaminondasState, move: PhalanxMove) -> EpaminondasState:
    """The position after a legal ``move``: every own piece standing contiguously from the tail in
    the direction of the move advances by the same number of squares; an opposing run the head
    lands on is captured whole."""
    me = state.to_move
    squares = {_xy(game, v): v for v in game.board.nodes}
    mine = {_xy(game, v) for v in state.pieces[me]}
    theirs = {_xy(game, v) for v in state.pieces[1 - me]}
    (tx, ty), (dx, dy) = _xy(game, move.frm), _xy(game, move.to)
    ux, uy = (dx > tx) - (dx < tx), (dy > ty) - (dy < ty)
    phalanx: list[tuple[int, int]] = []
    while (tx + len(phalanx) * ux, ty + len(phalanx) * uy) in mine:
        phalanx.append((tx + len(phalanx) * ux, ty + len(phalanx) * uy))
    head = phalanx[-1]
    steps = max(abs(dx - head[0]), abs(dy - head[1]))
    k = 0
    while (dx + k * ux, dy + k * uy) in theirs:  # the captured run (none when the head lands on an empty square)
        theirs.discard((dx + k * ux, dy + k * uy))
        k += 1
    mine = (mine - set(phalanx)) | {(x + steps * ux, y + steps * uy) for x, y in phalanx}
    pieces = [frozenset(squares[xy] for xy in mine), frozenset(squares[xy] for xy in theirs)]
    if me == 1:
        pieces.reverse()
    return EpaminondasState(pieces=(pieces[0], pieces[1]), to_move=1 - me, ply=state.ply + 1)


def outcome(game: Epaminondas, state: EpaminondasState) -> int | None:
    """RULES.md §8's end: at the start of their turn a player wins with more pieces on the
    opponent's home row than the opponent has on theirs; a player with no pieces or no legal move
    loses. ``None`` while the game goes on."""
    me = state.to_move
    if home_row_win(game, state):
        return me
    if not state.pieces[me] or not any(_check_move(game, state, m) is None for m in candidates(game, state)):
        return 1 - me
    return None
