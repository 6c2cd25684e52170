"""Tower of Power as written in RULES.md §6, by coordinates, for cross-checking :mod:`powertwo.rules.tower_of_power`.

Candidates are every (run start, base, neighbour of the base) triple of squares
and every (stone, other square) pair; each is judged on (file, rank)
coordinates read from the square names, without the board's rays.
"""

from __future__ import annotations

from typing import Iterator

from powertwo.boards import NodeId
from powertwo.rules.tower_of_power import Stack, Step, TowerMove, TowerOfPower, TowerOfPowerMove, TowerOfPowerState


def _xy(game: TowerOfPower, node: NodeId) -> tuple[int, int]:
    label = game.board.label(node)
    return ord(label[0]) - ord("a"), int(label[1:])


def _square_at(game: TowerOfPower) -> dict[tuple[int, int], int]:
    return {_xy(game, v): v for v in game.board.nodes}


def _controls(state: TowerOfPowerState, node: NodeId) -> bool:
    stack = state.stacks[node - 1]
    return bool(stack) and stack[-1] == state.to_move


def candidates(game: TowerOfPower, state: TowerOfPowerState) -> Iterator[TowerOfPowerMove]:
    at = _square_at(game)
    own = [v for v in game.board.nodes if _controls(state, v)]
    for start in own:
        for base in own:
            if base == start:
                continue
            bx, by = _xy(game, base)
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if (dx, dy) != (0, 0) and (bx + dx, by + dy) in at:
                        yield TowerMove(start, base, at[(bx + dx, by + dy)])
    for src in own:
        for dst in game.board.nodes:
            if dst != src:
                yield Step(src, dst)


def check(game: TowerOfPower, state: TowerOfPowerState, move: TowerOfPowerMove) -> str | None:
    if state.history.count((state.stacks, state.to_move)) + 1 >= 3:
        return "the game is over (repetition)"
    limit = game.options["move_limit"]
    if limit and state.ply >= limit:
        return "the game is over (move limit)"
    at = _square_at(game)
    if isinstance(move, Step):
        sx, sy = _xy(game, move.frm)
        tx, ty = _xy(game, move.to)
        if not _controls(state, move.frm):
            return "not the mover's stone"
        if max(abs(tx - sx), abs(ty - sy)) != 1:
            return "a step goes one square"
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                n = at.get((sx + dx, sy + dy))
                if (dx, dy) != (0, 0) and n is not None and _controls(state, n):
                    return "not isolated"
        target = state.stacks[move.to - 1]
        if not game.options["step_capture"] and target and target[-1] != state.to_move:
            return "a step may not capture (step_capture off)"
        return None
    sx, sy = _xy(game, move.start)
    bx, by = _xy(game, move.base)
    wx, wy = _xy(game, move.toward)
    vx, vy = sx - bx, sy - by
    if (vx, vy) == (0, 0) or not (vx == 0 or vy == 0 or abs(vx) == abs(vy)):
        return "the run is not straight"
    run_dir = ((vx > 0) - (vx < 0), (vy > 0) - (vy < 0))
    length = max(abs(vx), abs(vy))  # k - 1 stones are lifted and sown
    for j in range(length + 1):
        if not _controls(state, at[(bx + j * run_dir[0], by + j * run_dir[1])]):
            return "the run has a square the mover does not control"
    sow_dir = (wx - bx, wy - by)
    if max(abs(sow_dir[0]), abs(sow_dir[1])) != 1:
        return "sowing must start next to the base"
    if sow_dir == run_dir:
        return "sown back along the run"
    for j in range(1, length + 1):
        if (bx + j * sow_dir[0], by + j * sow_dir[1]) not in at:
            return "not enough squares to sow"
    return None


def _place(stack: Stack, player: int) -> Stack:
    """A stone of ``player`` put on a square: on an opponent-controlled square it captures the top stone."""
    if stack and stack[-1] != player:
        stack = stack[:-1]
    return stack + (player,)


def apply(game: TowerOfPower, state: TowerOfPowerState, move: TowerOfPowerMove) -> TowerOfPowerState:
    """The position after a legal ``move``, as RULES.md §6 tells it: lift the top stones of the
    k-1 run squares onto the base, then sow k-1 stones from the base's top one per square."""
    at = _square_at(game)
    me = state.to_move
    stacks = list(state.stacks)
    if isinstance(move, Step):
        stacks[move.frm - 1] = stacks[move.frm - 1][:-1]
        stacks[move.to - 1] = _place(stacks[move.to - 1], me)
    else:
        sx, sy = _xy(game, move.start)
        bx, by = _xy(game, move.base)
        length = max(abs(sx - bx), abs(sy - by))
        ux, uy = (sx > bx) - (sx < bx), (sy > by) - (sy < by)
        for j in range(1, length + 1):  # lift each run square's top stone onto the base
            v = at[(bx + j * ux, by + j * uy)]
            stone = stacks[v - 1][-1]
            stacks[v - 1] = stacks[v - 1][:-1]
            stacks[move.base - 1] = stacks[move.base - 1] + (stone,)
        wx, wy = _xy(game, move.toward)
        for j in range(1, length + 1):  # sow them from the base's top, one per square
            stacks[move.base - 1] = stacks[move.base - 1][:-1]
            v = at[(bx + j * (wx - bx), by + j * (wy - by))]
            stacks[v - 1] = _place(stacks[v - 1], me)
    return TowerOfPowerState(stacks=tuple(stacks), to_move=1 - me, ply=state.ply + 1,
                             history=state.history + ((state.stacks, state.to_move),))


def outcome(game: TowerOfPower, state: TowerOfPowerState) -> int | str | None:
    """RULES.md §6's end: a player with no legal move on their turn loses; otherwise the third
    occurrence of a position (the same stacks, the same player to move) or the move limit draws.
    ``None`` while the game goes on."""
    from dataclasses import replace

    from . import DRAW

    bare = replace(state, history=(), ply=0)  # the moves alone, before any draw is asked about
    if not any(check(game, bare, move) is None for move in candidates(game, bare)):
        return 1 - state.to_move
    if state.history.count((state.stacks, state.to_move)) + 1 >= 3:
        return DRAW
    limit = game.options["move_limit"]
    return DRAW if limit and state.ply >= limit else None
