"""Netzwerk as written in RULES.md §7, by coordinates, for cross-checking :mod:`powertwo.rules.netzwerk`.

A turn is replayed on a dictionary of labelled squares; energy feeding is
checked by trying every assignment of stones to moves (backtracking), not by
a flow. ``candidates`` builds every turn whose steps, each but the last, are
legal so far (piece steps to any field of the same rank or file, energy steps
to any point of the same line): exponential, meant for small positions only.
Legal candidates carry the position they lead to, so that, as in RULES.md §7,
turns with the same result are the same move.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator, Union

from powertwo.rules.netzwerk import NetStep, NetTurn, Netzwerk, NetzwerkState, PositionKey

Owners = dict[str, int]
"""Each occupied field's label -> the player whose piece stands there."""
StepResult = Union[str, tuple[int, bool]]
"""A piece step: the reason it is illegal, or its cost and whether it captures."""

# Tuning for the generic conformance test (tests/test_rules_conformance.py): ``candidates`` is
# exponential and Netzwerk positions have up to millions of turns (those above the list limit are
# only spot-checked there), so few short playouts with several positions each; the rule tests
# compare fast and plain in full on small positions (tests/test_rules_netzwerk.py).
PLAYOUTS = 2
PLAYOUT_PLIES = 60
SAMPLE_POSITIONS = 16


def _is_field(label: str) -> bool:
    return len(label) == 2


def _field_xy(label: str) -> tuple[int, int]:
    return ord(label[0]) - ord("a") + 1, int(label[1])


def _touching(label: str) -> list[str]:
    f, r = _field_xy(label)
    return [f"e{i}{j}" for i in (f - 1, f) for j in (r - 1, r)]


def _fields_at(point: str) -> list[str]:
    i, j = int(point[1]), int(point[2])
    return [f"{chr(ord('a') + f - 1)}{r}" for f in (i, i + 1) for r in (j, j + 1) if 1 <= f <= 6 and 1 <= r <= 6]


def _feedable(moves: list[tuple[str, int]], energy: set[str]) -> bool:
    """Can each move get ``cost`` distinct unused stones touching its start field?"""
    def place(k: int, used: frozenset[str]) -> bool:
        if k == len(moves):
            return True
        field, cost = moves[k]
        free = [p for p in _touching(field) if p in energy and p not in used]
        return any(place(k + 1, used | set(pick)) for pick in combinations(free, cost))
    return place(0, frozenset())


def _piece_step(game: Netzwerk, owner: Owners, me: int, step_src: str, step_dst: str,
                energy: set[str]) -> StepResult:
    """(cost, captures) of a single piece step on ``owner``, or a reason string."""
    forward = 1 if me == 0 else -1
    (sx, sy), (dx, dy) = _field_xy(step_src), _field_xy(step_dst)
    if dx == sx and (dy - sy) * forward > 0:
        unit = (0, forward)
    elif dy == sy and dx != sx:
        unit = (1 if dx > sx else -1, 0)
    else:
        return "not forward or sideways"
    distance = abs(dx - sx) + abs(dy - sy)
    cost = distance
    for k in range(1, distance):
        between = f"{chr(ord('a') + sx + k * unit[0] - 1)}{sy + k * unit[1]}"
        if owner.get(between) == me:
            cost += 1
        elif owner.get(between) == 1 - me:
            if not game.options["jump_opponents"]:
                return "jumps an opponent"
            cost += 1
    target = owner.get(step_dst)
    if target == me:
        return "lands on an own piece"
    if target == 1 - me:
        if game.options["strength_capture"]:
            if sum(p in energy for p in _touching(step_src)) < sum(p in energy for p in _touching(step_dst)):
                return "too weak to capture"
        return cost + 1, True
    return cost, False


def _single_moves(game: Netzwerk, owner: Owners, me: int, moved: set[str], moves: list[tuple[str, int]],
                  energy: set[str]) -> list[tuple[str, str, bool]]:
    """Every further single piece step that is legal now, as (src, dst, captures)."""
    out: list[tuple[str, str, bool]] = []
    for src in [f for f, p in owner.items() if p == me and f not in moved]:
        for dst in game_fields(game):
            if dst == src:
                continue
            res = _piece_step(game, owner, me, src, dst, energy)
            if isinstance(res, tuple) and _feedable(moves + [(src, res[0])], energy):
                out.append((src, dst, res[1]))
    return out


def game_fields(game: Netzwerk) -> list[str]:
    return [lab for lab in game.board.labels if _is_field(lab)]


def simulate(game: Netzwerk, state: NetzwerkState, turn: NetTurn, *,
             phase_a_only: bool = False) -> tuple[str | None, PositionKey | None]:
    """(reason or None, resulting position key or None)."""
    lab, node = game.board.label, game.board.node
    me = state.to_move
    owner = {lab(v): p for p in (0, 1) for v in state.pieces[p]}
    energy = {lab(v) for v in state.energy}
    moved: set[str] = set()
    moves: list[tuple[str, int]] = []
    if not turn.pieces and not phase_a_only and _single_moves(game, owner, me, moved, moves, energy):
        return "must move a piece", None
    for step in turn.pieces:
        src, dst = lab(step.frm), lab(step.to)
        if not (_is_field(src) and _is_field(dst)):
            return "not a field", None
        if owner.get(src) != me:
            return "no own piece", None
        if src in moved:
            return "moved twice", None
        res = _piece_step(game, owner, me, src, dst, energy)
        if isinstance(res, str):
            return res, None
        moves.append((src, res[0]))
        if not _feedable(moves, energy):
            return "no energy", None
        del owner[src]
        owner[dst] = me
        moved.add(dst)
    if phase_a_only:
        return None, None
    if game.options["compulsory_capture"]:
        if any(c for _, _, c in _single_moves(game, owner, me, moved, moves, energy)):
            return "a capture is left", None
    def controls(p: str) -> bool:
        counts = [sum(1 for f in _fields_at(p) if owner.get(f) == q) for q in (0, 1)]
        mine = counts[me] >= 1 and counts[me] >= counts[1 - me]
        theirs = counts[1 - me] >= 1 and counts[1 - me] >= counts[me]
        return mine and not (theirs and game.options["both_control_blocks"])
    used_lines: set[str] = set()
    arrived: set[str] = set()
    for step in turn.energy:
        src, dst = lab(step.frm), lab(step.to)
        if _is_field(src) or _is_field(dst):
            return "not a point", None
        if src not in energy or src in arrived or not controls(src):
            return "stone missing, moved or not controlled", None
        (si, sj), (di, dj) = (int(src[1]), int(src[2])), (int(dst[1]), int(dst[2]))
        if si == di and sj != dj:
            line, unit = f"v{si}", (0, 1 if dj > sj else -1)
        elif sj == dj and si != di:
            line, unit = f"h{sj}", (1 if di > si else -1, 0)
        else:
            return "not along a line", None
        if line in used_lines:
            return "line used twice", None
        k = 1
        while f"e{si + k * unit[0]}{sj + k * unit[1]}" in energy:
            k += 1
        if f"e{si + k * unit[0]}{sj + k * unit[1]}" != dst:
            return "not the next free point", None
        energy.discard(src)
        energy.add(dst)
        arrived.add(dst)
        used_lines.add(line)
    key = (frozenset(node(f) for f, p in owner.items() if p == 0),
           frozenset(node(f) for f, p in owner.items() if p == 1),
           frozenset(node(p) for p in energy))
    return None, key


_VERDICTS: dict[tuple[int, int, tuple[NetStep, ...], tuple[NetStep, ...]], str | None] = {}
"""Verdicts ``candidates`` already reached, for the ``check`` calls that follow it:
(id of the game, id of the state, steps) -> reason or None."""


def check(game: Netzwerk, state: NetzwerkState, move: NetTurn) -> str | None:
    key = (id(game), id(state), move.pieces, move.energy)
    if key in _VERDICTS:
        return _VERDICTS[key]
    if _finished(game, state):
        return "the game is over"
    return simulate(game, state, move)[0]


def _finished(game: Netzwerk, state: NetzwerkState) -> bool:
    for p in (0, 1):
        mine = [game.board.label(v) for v in state.pieces[p]]
        if mine and not state.pieces[1 - p]:
            return True
        goal = 6 if p == 0 else 1
        if mine and 2 * sum(1 for f in mine if int(f[1]) == goal) >= len(mine):
            return True
    return False


def candidates(game: Netzwerk, state: NetzwerkState) -> Iterator[NetTurn]:
    """Every legal turn reachable step by step (orderings that revisit a reached situation are
    cut), and every single illegal step added to the start of each phase (see the module text)."""
    lab, node = game.board.label, game.board.node
    me = state.to_move
    fields = game_fields(game)
    points = [x for x in game.board.labels if not _is_field(x)]
    finished = _finished(game, state)
    start_energy = {lab(v) for v in state.energy}

    _VERDICTS.clear()

    def turn_of(pieces: list[NetStep], energy: list[NetStep]) -> NetTurn:
        turn = NetTurn(tuple(pieces), tuple(energy))
        reason, key = simulate(game, state, turn)
        if finished:
            reason = "the game is over"
        _VERDICTS[(id(game), id(state), turn.pieces, turn.energy)] = reason
        return NetTurn(turn.pieces, turn.energy, key) if reason is None else turn

    seen_pieces: set[tuple[frozenset[tuple[str, int]], frozenset[str], tuple[tuple[str, int], ...]]] = set()

    def piece_sequences(prefix: list[NetStep], owner: Owners, moved: frozenset[str],
                        costs: tuple[tuple[str, int], ...] = ()) -> Iterator[tuple[list[NetStep], bool]]:
        yield prefix, True
        for src in sorted(f for f, p in owner.items() if p == me and f not in moved):
            for dst in fields:
                if dst == src or (dst[0] != src[0] and dst[1] != src[1]):
                    continue
                seq = prefix + [NetStep(node(src), node(dst))]
                if simulate(game, state, NetTurn(tuple(seq), ()), phase_a_only=True)[0] is None:
                    after = {f: p for f, p in owner.items() if f != src}
                    after[dst] = me
                    step = _piece_step(game, owner, me, src, dst, start_energy)
                    cost = step[0] if isinstance(step, tuple) else 0  # a legal step: always its cost
                    spent = tuple(sorted(costs + ((src, cost),)))
                    situation = (frozenset(after.items()), frozenset(moved | {dst}), spent)
                    if situation not in seen_pieces:
                        seen_pieces.add(situation)
                        yield from piece_sequences(seq, after, moved | {dst}, spent)
                elif not prefix:
                    yield seq, False

    def energy_sequences(pieces: list[NetStep], prefix: list[NetStep], energy: set[str], arrived: set[str],
                         seen: set[tuple[frozenset[str], frozenset[str], frozenset[str]]]) -> Iterator[list[NetStep]]:
        yield prefix
        for src in sorted(energy - arrived):
            for dst in points:
                if dst == src or dst in energy or (dst[1] != src[1] and dst[2] != src[2]):
                    continue
                seq = prefix + [NetStep(node(src), node(dst))]
                if simulate(game, state, NetTurn(tuple(pieces), tuple(seq)))[0] is None:
                    lines = frozenset(("v" + lab(s.frm)[1]) if lab(s.frm)[1] == lab(s.to)[1] else ("h" + lab(s.frm)[2])
                                      for s in seq)
                    after = (energy - {src}) | {dst}
                    situation = (frozenset(after), frozenset(arrived | {dst}), lines)
                    if situation not in seen:
                        seen.add(situation)
                        yield from energy_sequences(pieces, seq, after, arrived | {dst}, seen)
                elif not prefix:
                    yield seq

    owner = {lab(v): p for p in (0, 1) for v in state.pieces[p]}
    for pieces, ok in piece_sequences([], owner, frozenset()):
        if not ok or simulate(game, state, NetTurn(tuple(pieces), ()))[0] is not None:
            yield turn_of(pieces, [])
            continue
        for energy in energy_sequences(pieces, [], {lab(v) for v in state.energy}, set(), set()):
            yield turn_of(pieces, energy)


def apply(game: Netzwerk, state: NetzwerkState, move: NetTurn) -> NetzwerkState:
    """The position after a legal turn: its piece steps in order (a piece ending on an opponent
    piece removes it), then its energy steps (a stone leaves its point for the other one)."""
    me = state.to_move
    mine, theirs = set(state.pieces[me]), set(state.pieces[1 - me])
    energy = set(state.energy)
    for step in move.pieces:
        mine.discard(step.frm)
        theirs.discard(step.to)
        mine.add(step.to)
    for step in move.energy:
        energy.discard(step.frm)
        energy.add(step.to)
    pieces = [frozenset(mine), frozenset(theirs)]
    if me == 1:
        pieces.reverse()
    return NetzwerkState(pieces=(pieces[0], pieces[1]), energy=frozenset(energy), to_move=1 - me, ply=state.ply + 1)


def outcome(game: Netzwerk, state: NetzwerkState) -> int | None:
    """RULES.md §7's end, checked after every complete turn: a player wins who has at least half
    of their remaining pieces on the opponent's home row, or who has captured every opposing
    piece; when both qualify, the player who just moved. ``None`` while the game goes on."""
    last = 1 - state.to_move
    for p in (last, 1 - last):
        mine = [game.board.label(v) for v in state.pieces[p]]
        goal = 6 if p == 0 else 1
        if mine and (not state.pieces[1 - p] or 2 * sum(1 for f in mine if int(f[1]) == goal) >= len(mine)):
            return p
    return None
