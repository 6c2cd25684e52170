"""The plain breadth-first census in Python (exact integers, no symmetry, no packing): the
referee of the compiled and distributed engines on small boards; and the symmetric figures that
every engine shares, counted by Burnside's lemma over the paths that a symmetry keeps."""

from __future__ import annotations

from powertwo.boards import Board

from .counts import Level, MovesLevel
from .tables import CensusTables, Position, image


def plain_successors(board: Board, position: Position) -> list[Position]:
    """Every position one jump away, read straight from the board's jump triples (not from the
    engines' masks): a stone on ``a`` jumps over the stone on ``b`` onto the free ``c``."""
    out = []
    for a, b, c in board.jumps:
        if position >> (a - 1) & 1 and position >> (b - 1) & 1 and not position >> (c - 1) & 1:
            out.append(position ^ (1 << (a - 1)) ^ (1 << (b - 1)) ^ (1 << (c - 1)))
    return out


def plain_levels(tables: CensusTables, max_levels: int | None = None) -> tuple[list[Level], int]:
    """Every level by plain breadth-first search: dict of position to its sequence count; the
    classes are counted with the group's canonical forms. Also the sequences to one stone on the
    target (0 without one)."""
    level: dict[Position, int] = {tables.start: 1}
    stones = bin(tables.start).count("1")
    out = []
    jumps = 0
    on_target = 0
    while level:
        nxt: dict[Position, int] = {}
        dead = []
        for pos, count in level.items():
            children = plain_successors(tables.board, pos)
            if not children:
                dead.append(pos)
            for child in children:
                nxt[child] = nxt.get(child, 0) + count
        if tables.target is not None:
            on_target += level.get(1 << (tables.target - 1), 0)
        out.append(Level(jumps=jumps, stones=stones - jumps, classes=len({tables.canonical(p) for p in level}),
                         positions=len(level), sequences=sum(level.values()),
                         dead_classes=len({tables.canonical(p) for p in dead}), dead_positions=len(dead),
                         dead_sequences=sum(level[p] for p in dead)))
        if max_levels is not None and jumps >= max_levels:
            break
        level = nxt
        jumps += 1
    return out, on_target


def plain_moves(board: Board, position: Position, backward: bool = False) -> set[Position]:
    """Every position one move away (a chain of jumps by one stone, which may come back to a node it
    left), read straight from the board's jump triples: forward a stone on ``a`` jumps over ``b``
    onto the free ``c``; backward the jump is undone (a stone on ``c`` goes back to the free ``a``
    over the free ``b``, which is filled)."""
    out: set[Position] = set()
    for v in board.nodes:
        if not position >> (v - 1) & 1:
            continue
        stack = [(position, v)]
        while stack:
            pos, at = stack.pop()
            for a, b, c in board.jumps:
                here, over, there = (c, b, a) if backward else (a, b, c)
                if here != at:
                    continue
                full = pos >> (over - 1) & 1
                if (not full if backward else full) and not pos >> (there - 1) & 1:
                    nxt = pos ^ (1 << (a - 1)) ^ (1 << (b - 1)) ^ (1 << (c - 1))
                    out.add(nxt)
                    stack.append((nxt, there))
    return out


def plain_moves_levels(tables: CensusTables, backward: bool = False,
                       max_levels: int | None = None) -> tuple[list[MovesLevel], str | None]:
    """The census by moves by plain breadth-first search over Python sets (no symmetry inside;
    the classes counted with the group's canonical forms), and why it stopped early (None when
    it did not)."""
    if not backward:
        level = {tables.start}
    elif tables.target is not None:
        level = {1 << (tables.target - 1)}
    else:
        level = {1 << (v - 1) for v in tables.board.nodes}
    seen = set(level)
    out: list[MovesLevel] = []
    while level:
        stones = [p.bit_count() for p in level]
        out.append(MovesLevel(moves=len(out), classes=len({tables.canonical(p) for p in level}), positions=len(level),
                              fewest_stones=min(stones), most_stones=max(stones)))
        nxt = {q for p in level for q in plain_moves(tables.board, p, backward)} - seen
        if nxt and max_levels is not None and len(out) > max_levels:
            return out, stopped_after(len(out) - 1, "moves")
        seen |= nxt
        level = nxt
    return out, None


def stopped_after(levels: int, unit: str) -> str:
    return f"stopped after {levels} {unit} (--max-levels): the totals cover those levels only"


def fixed_paths(tables: CensusTables, perm: tuple[int, ...]) -> dict[str, int]:
    """The jump sequences that ``perm`` maps onto themselves (every position on them is fixed by
    it): how many in all, to a dead end, to one stone (on the target)."""
    level = {tables.start: 1}
    totals = {"jump_sequences": 0, "game_sequences": 0, "solutions": 0}
    goal = None if tables.target is None else 1 << (tables.target - 1)
    while level:
        nxt: dict[Position, int] = {}
        for pos, count in level.items():
            totals["jump_sequences"] += count
            children = tables.successors(pos)
            if not children:
                totals["game_sequences"] += count
            if pos.bit_count() == 1 and (goal is None or pos == goal):
                totals["solutions"] += count
            for child in children:
                if image(perm, child) == child:
                    nxt[child] = nxt.get(child, 0) + count
        level = nxt
    return totals


def up_to_symmetry(tables: CensusTables, levels: list[Level], solutions: int) -> dict[str, int]:
    """The figures counted up to the symmetries of the start (Burnside: the mean number of
    sequences each symmetry keeps, the identity keeping all)."""
    totals = {"jump_sequences": sum(lv.sequences for lv in levels),
              "game_sequences": sum(lv.dead_sequences for lv in levels), "solutions": solutions}
    for perm in tables.group[1:]:
        for key, value in fixed_paths(tables, perm).items():
            totals[key] += value
    out = {"positions": sum(lv.classes for lv in levels)}
    for key, value in totals.items():
        if value % len(tables.group):
            raise ArithmeticError(f"{key}: {value} is no multiple of the group order {len(tables.group)}")
        out[key] = value // len(tables.group)
    return out
