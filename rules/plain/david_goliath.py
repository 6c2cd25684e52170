"""David and Goliath, plain: RULES.md section 3 read literally, for cross-checking the generator.

Distances are counted by positions on a line, border lines are the four outer
sides found from the coordinates (x or y at its extreme), and the mandatory
throw is decided by trying every landing node of the board. With the option
``sling`` David's throw of 1 node is allowed only when the node after it, on the
same line and in the same direction, is missing or occupied (else the sling
carries the stone 2 nodes).
"""

from __future__ import annotations

from typing import Any

from powertwo.boards import Board, NodeId
from powertwo.rules.david_goliath import DavidGoliath, DGState, Hurl

Throw = tuple[NodeId, NodeId | None]
"""A throw: its landing node and the stone picked up for it (None: one from the reserve)."""

SAMPLE_POSITIONS = 300
VARIANTS = ({"sling": True},)
"""Rule options the conformance tests also compare the referees under (besides the defaults)."""


def _occupied(state: DGState) -> set[NodeId]:
    return set(state.light_thrown) | set(state.dark_thrown) | {state.david, state.goliath}


def _straight(board: Board, a: NodeId, b: NodeId) -> tuple[list[NodeId], int] | None:
    """Nodes passed between ``a`` and ``b`` sliding along one line, and the distance; None if none."""
    for line in board.lines:
        if a in line and b in line:
            i, j = line.index(a), line.index(b)
            lo, hi = min(i, j), max(i, j)
            return [line[k] for k in range(lo + 1, hi)], hi - lo
    return None


def _reaches(board: Board, occupied: set[NodeId], a: NodeId, b: NodeId, low: int, high: int) -> bool:
    if a == b or b in occupied:
        return False
    way = _straight(board, a, b)
    if way is None:
        return False
    between, dist = way
    return low <= dist <= high and not any(v in occupied for v in between)


def _sling_gives(board: Board, occupied: set[NodeId], a: NodeId, t: NodeId) -> bool:
    """Whether David's sling lands a stone thrown from ``a`` on ``t`` (a node 1 or 2 steps away
    along a free way): 2 steps always; 1 step only when no free node lies just beyond ``t``."""
    for line in board.lines:
        if a in line and t in line:
            i, j = line.index(a), line.index(t)
            beyond = j + (j - i)
            if abs(j - i) == 2:
                return True
            return not (0 <= beyond < len(line) and line[beyond] not in occupied)
    return False


def _on_border(board: Board, v: NodeId) -> bool:
    xs = [x for x, _ in board.coords]
    ys = [y for _, y in board.coords]
    x, y = board.coord(v)
    return x in (min(xs), max(xs)) or y in (min(ys), max(ys))


def _throw_range(player: int) -> tuple[int, int]:
    return (1, 2) if player == 0 else (1, 7)


def _move_range(player: int) -> tuple[int, int]:
    return (1, 99) if player == 0 else (1, 2)


_THROWS: dict[tuple[Any, ...], list[Throw]] = {}


def _all_throws(game: DavidGoliath, state: DGState, frm: NodeId, to: NodeId) -> list[Throw]:
    """Every (landing node, picked-up node), by trying every node of the board (memoised)."""
    key = (id(game), tuple(game.options.items()), state, frm, to)
    if key not in _THROWS:
        if len(_THROWS) > 20_000:
            _THROWS.clear()
        _THROWS[key] = _throws_now(game, state, frm, to)
    return _THROWS[key]


def _throws_now(game: DavidGoliath, state: DGState, frm: NodeId, to: NodeId) -> list[Throw]:
    me = state.to_move
    occupied = _occupied(state) - {frm} | {to}
    reserve = 15 - len(state.light_thrown if me == 0 else state.dark_thrown)
    low, high = _throw_range(me)
    sling = me == 0 and game.options["sling"]

    def lands(free_of: set[NodeId], t: NodeId) -> bool:
        return (_reaches(game.board, free_of, to, t, low, high)
                and (not sling or _sling_gives(game.board, free_of, to, t)))

    out: list[Throw] = []
    if reserve > 0:
        for t in game.board.nodes:
            if lands(occupied, t):
                out.append((t, None))
        return out
    for p in set(state.light_thrown) | set(state.dark_thrown):
        if _on_border(game.board, p):
            continue
        for t in game.board.nodes:
            if lands(occupied - {p}, t):
                out.append((t, p))
    return out


def candidates(game: DavidGoliath, state: DGState) -> list[Hurl]:
    me = state.to_move
    frm = state.david if me == 0 else state.goliath
    board = game.board
    reserve = 15 - len(state.light_thrown if me == 0 else state.dark_thrown)
    # a pickup is only worth asking about when the reserve is empty (and one wrong one otherwise)
    thrown = sorted(set(state.light_thrown) | set(state.dark_thrown))
    pickups: list[NodeId | None] = [None, *(thrown if reserve == 0 else thrown[:1])]
    out = []
    for to in board.nodes:
        if to == frm or not any(frm in line and to in line for line in board.lines):
            continue
        out.append(Hurl(frm, to))
        for t in board.nodes:
            if any(to in line and t in line for line in board.lines) and t != to:
                for p in pickups:
                    out.append(Hurl(frm, to, t, p))
    return out


def check(game: DavidGoliath, state: DGState, move: Hurl) -> str | None:
    board = game.board
    me = state.to_move
    mine = state.david if me == 0 else state.goliath
    occupied = _occupied(state)
    if all(v in occupied for line in board.lines if mine in line
           for v in [line[k] for k in (line.index(mine) - 1, line.index(mine) + 1) if 0 <= k < len(line)]):
        return "the game is over: the mover's candidate cannot move"
    if game.options["count_win"]:
        david, goliath = free_room(game, state, state.david), free_room(game, state, state.goliath)
        if state.goliath not in _room_and_walls(game, state, state.david) and len(david) != len(goliath):
            return "the game is over: the candidates are separated and the counts differ (count_win)"
    if move.frm != mine:
        return "not the mover's candidate"
    if not _reaches(board, occupied, move.frm, move.to, *_move_range(me)):
        return "bad candidate move"
    throws = _all_throws(game, state, move.frm, move.to)
    if move.throw is None:
        if move.pickup is not None:
            return "pickup without throw"
        return "a throw is possible" if throws else None
    if (move.throw, move.pickup) not in throws:
        return "not a possible throw"
    return None


def _room_and_walls(game: DavidGoliath, state: DGState, start: NodeId) -> set[NodeId]:
    """Every node reachable from ``start`` through free nodes, and the occupied nodes next to them."""
    board = game.board
    occupied = _occupied(state)
    seen, todo = {start}, [start]
    while todo:
        v = todo.pop()
        for line in board.lines:
            if v in line:
                i = line.index(v)
                for k in (i - 1, i + 1):
                    if 0 <= k < len(line) and line[k] not in seen:
                        seen.add(line[k])
                        if line[k] not in occupied:
                            todo.append(line[k])
    return seen


def free_room(game: DavidGoliath, state: DGState, start: NodeId) -> set[NodeId]:
    """The free nodes a candidate on ``start`` can walk to step by step."""
    occupied = _occupied(state)
    return {v for v in _room_and_walls(game, state, start) if v not in occupied}


def apply(game: DavidGoliath, state: DGState, move: Hurl) -> DGState:
    """The position after a legal ``move``: the candidate moves, then the stone is thrown (a reused
    stone leaves its node and keeps its colour; a new one has the thrower's colour)."""
    me = state.to_move
    david, goliath = (move.to, state.goliath) if me == 0 else (state.david, move.to)
    light, dark = set(state.light_thrown), set(state.dark_thrown)
    if move.throw is not None:
        if move.pickup is None:
            colour = light if me == 0 else dark
        else:
            colour = light if move.pickup in light else dark
            colour.remove(move.pickup)
        colour.add(move.throw)
    return DGState(david, goliath, frozenset(light), frozenset(dark), 1 - me, state.ply + 1)


def outcome(game: DavidGoliath, state: DGState) -> int | None:
    """RULES.md §3's end: a player whose candidate cannot move on their turn loses; with the
    option ``count_win``, separated candidates end the game and more free room wins (equal
    counts: play on). ``None`` while the game goes on."""
    me = state.to_move
    mine = state.david if me == 0 else state.goliath
    occupied = _occupied(state)
    free_steps = [line[k] for line in game.board.lines if mine in line
                  for k in (line.index(mine) - 1, line.index(mine) + 1) if 0 <= k < len(line)]
    if all(v in occupied for v in free_steps):
        return 1 - me
    if game.options["count_win"] and state.goliath not in _room_and_walls(game, state, state.david):
        david, goliath = len(free_room(game, state, state.david)), len(free_room(game, state, state.goliath))
        if david != goliath:
            return 0 if david > goliath else 1
    return None
