"""The Power of Two, plain: RULES.md section 2 read literally, for cross-checking the generator.

No helper of :mod:`powertwo.rules.power_of_two` is used: adjacency is recomputed from the
lines, and matchings are found by trying every assignment. :func:`apply` performs the five
actions of a turn one after another, as RULES.md lists them.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, Sequence

from powertwo.boards import Board, NodeId
from powertwo.rules.power_of_two import STONES, PowerOfTwo, PowerState, Turn

SAMPLE_POSITIONS = 240


Pair = tuple[NodeId, NodeId]
_PAIRS: dict[int, tuple[Board, set[Pair], dict[NodeId, list[NodeId]]]] = {}


def _segments(board: Board) -> set[Pair]:
    """Pairs of nodes consecutive on some line (both orders), computed once per board."""
    known = _PAIRS.get(id(board))
    if known is None or known[0] is not board:
        pairs = {(x, y) for line in board.lines for a, b in zip(line, line[1:], strict=False)
                 for x, y in ((a, b), (b, a))}
        nbrs = {v: sorted(w for x, w in pairs if x == v) for v in board.nodes}
        known = _PAIRS[id(board)] = (board, pairs, nbrs)
    return known[1]


def _adjacent(board: Board, a: NodeId, b: NodeId) -> bool:
    """Consecutive on some line."""
    return (a, b) in _segments(board)


def _neighbours(board: Board, v: NodeId) -> list[NodeId]:
    _segments(board)
    return _PAIRS[id(board)][2][v]


def _assign(slots: Sequence[NodeId], allowed: Callable[[NodeId], list[NodeId]],
            used: tuple[NodeId, ...] = ()) -> bool:
    """Can every slot get its own item? ``allowed(slot)`` lists its items (brute force)."""
    if not slots:
        return True
    first, rest = slots[0], slots[1:]
    return any(_assign(rest, allowed, used + (item,)) for item in allowed(first) if item not in used)


def _doorway_situation(game: PowerOfTwo, state: PowerState,
                       move: Turn) -> tuple[set[NodeId], list[NodeId], dict[NodeId, list[NodeId]]]:
    """After the slide: the occupied nodes, the doorway ends, each doorway's free third corners."""
    board = game.board
    occupied = (set(state.light) | set(state.dark)) - {move.frm} | {move.to}
    ends = [n for n in _neighbours(board, move.to) if n in occupied]
    corners: dict[NodeId, list[NodeId]] = {}
    for e in ends:
        corners[e] = [c for c in _neighbours(board, move.to)
                      if c not in occupied and c != e and _adjacent(board, c, e)]
    return occupied, ends, corners


def candidates(game: PowerOfTwo, state: PowerState) -> list[Turn]:
    """Every slide of an own stone to any node on a line through it, with every set of free
    neighbours of the destination whose size is within one of the number the rule asks for."""
    board = game.board
    me = state.to_move
    mine = state.light if me == 0 else state.dark
    reserve = STONES - len(mine)
    out = []
    for frm in sorted(mine):
        targets = sorted({v for line in board.lines if frm in line for v in line if v != frm})
        for to in targets:
            occupied, ends, _ = _doorway_situation(game, state, Turn(frm, to))
            free_nbrs = [v for v in _neighbours(board, to) if v not in occupied]
            need = min(len(ends), reserve)
            for size in {need - 1, need, need + 1}:
                if 0 <= size <= len(free_nbrs):
                    for chosen in combinations(free_nbrs, size):
                        out.append(Turn(frm, to, frozenset(chosen)))
    return out


def check(game: PowerOfTwo, state: PowerState, move: Turn) -> str | None:
    board = game.board
    me = state.to_move
    mine = state.light if me == 0 else state.dark
    theirs = state.dark if me == 0 else state.light
    if len(theirs) == STONES:
        return "the game is over: the opponent has 16 stones on the board"
    occupied_before = set(state.light) | set(state.dark)
    # 1. move: own stone, along one line, to a free node, never passing over a stone
    if move.frm not in mine:
        return "not an own stone"
    if move.to in occupied_before:
        return "destination occupied"
    ok = False
    for line in board.lines:
        if move.frm in line and move.to in line:
            i, j = line.index(move.frm), line.index(move.to)
            lo, hi = min(i, j), max(i, j)
            if all(line[k] not in occupied_before for k in range(lo + 1, hi)):
                ok = True
    if not ok:
        return "no free straight path"
    # 2. doorways; 3. entry: a matching that covers every doorway
    occupied, ends, corners = _doorway_situation(game, state, move)
    reserve = STONES - len(mine)
    if game.exact_reserve and len(ends) > reserve:
        return "more doorways than reserve stones (exact reserve)"
    if not _assign(ends, lambda e: corners[e]):
        return "the doorways cannot get distinct free third corners"
    if len(move.placed) != min(len(ends), reserve):
        return "wrong number of placed stones"
    placed = sorted(move.placed)
    if any(v in occupied for v in placed):
        return "placement on an occupied node"
    if not _assign(placed, lambda v: [e for e in ends if v in corners[e]]):
        return "placements are not third corners of distinct doorways"
    return None


def apply(game: PowerOfTwo, state: PowerState, move: Turn) -> PowerState:
    """The position after a legal ``move``: RULES.md §2 actions 1-5 in order."""
    board = game.board
    me = state.to_move
    mine = set(state.light if me == 0 else state.dark)
    aged = set(state.aged)
    aged_before = set(state.aged)  # ageing and retiring look at the state before the turn
    # 1. move: the stone keeps its side up
    mine.discard(move.frm)
    mine.add(move.to)
    if move.frm in aged:
        aged.discard(move.frm)
        aged.add(move.to)
        aged_before.discard(move.frm)
        aged_before.add(move.to)
    # 2. doorways: the moved stone with every occupied neighbour of its destination
    occupied, ends, _ = _doorway_situation(game, state, move)
    # 3. entry: the placed stones, fresh
    mine |= set(move.placed)
    # 4. ageing: own stones at the end of a doorway that received a stone (a placed stone completes
    #    the triangle), or of every doorway with the option age_unserved; each once per turn
    served = [e for e in ends
              if game.age_unserved or any(_adjacent(board, c, move.to) and _adjacent(board, c, e) for c in move.placed)]
    parties = ({move.to} | {e for e in served if e in mine}) if served else set()
    for v in sorted(parties):
        if v in aged_before:  # 5. retiring: aged before this turn, back to the reserve
            mine.discard(v)
            aged.discard(v)
        else:
            aged.add(v)
    light, dark = (frozenset(mine), state.dark) if me == 0 else (state.light, frozenset(mine))
    return PowerState(light, dark, frozenset(aged), 1 - me, state.ply + 1)


def outcome(game: PowerOfTwo, state: PowerState) -> int | None:
    """RULES.md §2's end: the player who just completed a turn with all 16 stones on the board
    wins; otherwise a player to move without a legal move loses. ``None`` while the game goes on."""
    last = 1 - state.to_move
    if len(state.light if last == 0 else state.dark) == STONES:
        return last
    if not any(check(game, state, move) is None for move in candidates(game, state)):
        return last
    return None
