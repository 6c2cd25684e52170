"""Perft references of the games on the Power of Two boards (tests/perft_power_of_two_boards.txt):
the fast referee gives every count, and the plain "rules as written" referee (rules/plain/) agrees
with it move for move and position for position."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from powertwo.boards import load as load_board
from powertwo.rules import Game, get_game

REFERENCES = Path(__file__).with_name("perft_power_of_two_boards.txt")


@dataclass(frozen=True)
class PerftEntry:
    """One start of the reference file: its counts by depth and how deep the plain referee goes."""

    id: str
    game: str
    board: str
    start: str
    options: tuple[tuple[str, str], ...]
    counts: tuple[tuple[int, int, bool], ...]
    """(depth, count, slow)."""
    plain: int
    plain_slow: int

    def make(self) -> Game:
        return get_game(self.game, load_board(self.board), **dict(self.options))


def read_references(path: Path = REFERENCES) -> list[PerftEntry]:
    entries, fields = [], None
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        words = raw.split("#", 1)[0].split()
        if not words:
            if fields:
                entries.append(PerftEntry(fields["id"], fields["game"], fields["board"], fields["start"],
                                          tuple(fields["option"]), tuple(fields["perft"]), fields.get("plain", 0),
                                          fields.get("plain-slow", fields.get("plain", 0))))
            fields = None
            continue
        fields = fields or {"option": [], "perft": []}
        key, rest = words[0], words[1:]
        if key == "option":
            fields["option"].append(tuple(rest[0].split("=", 1)))
        elif key == "perft":
            fields["perft"].append((int(rest[0]), int(rest[1]), rest[2:] == ["slow"]))
        elif key in ("plain", "plain-slow"):
            fields[key] = int(rest[0])
        else:
            fields[key] = rest[0]
    return entries


ENTRIES = read_references()


def plain_module(game: Game):
    return importlib.import_module(f"powertwo.rules.plain.{game.name.replace('-', '_')}")


def walk_both(game: Game, plain, state, depth: int) -> list[int]:
    """Leaf counts of depths 1..``depth``, walking both referees at once: in every position the fast
    referee's legal moves (without repeats) are exactly the plain candidates its check accepts, and
    every move leads both referees' ``apply`` to the same position."""
    counts = [0] * depth

    def visit(state, left: int) -> None:
        fast = game.legal_moves(state)
        assert len(set(fast)) == len(fast), f"{game.state_to_json(state)}: a move is listed twice"
        by_plain = {m for m in plain.candidates(game, state) if plain.check(game, state, m) is None}
        if set(fast) != by_plain:
            extra = sorted(game.format_move(m) for m in set(fast) - by_plain)
            missing = sorted(game.format_move(m) for m in by_plain - set(fast))
            pytest.fail(f"{game.state_to_json(state)}: only the fast referee allows {extra}, "
                        f"only the plain one {missing}")
        counts[depth - left] += len(fast)
        for move in fast:
            after = game.apply(state, move)
            assert plain.apply(game, state, move) == after, (
                f"{game.state_to_json(state)} {game.format_move(move)}: the referees disagree on the position")
            if left > 1:
                visit(after, left - 1)

    visit(state, depth)
    return counts


def by_id(entries):
    return pytest.mark.parametrize("entry", entries, ids=[e.id for e in entries])


@by_id(ENTRIES)
def test_fast_referee_gives_every_count(entry):
    game = entry.make()
    start = game.start(entry.start)
    assert [(d, game.perft(start, d)) for d, _, slow in entry.counts if not slow] == [
        (d, n) for d, n, slow in entry.counts if not slow]


@by_id(ENTRIES)
def test_plain_referee_agrees_move_for_move(entry):
    game = entry.make()
    counts = walk_both(game, plain_module(game), game.start(entry.start), entry.plain)
    assert counts == [n for _, n, _ in entry.counts][:entry.plain]


@pytest.mark.slow
@by_id([e for e in ENTRIES if e.plain_slow > e.plain or any(slow for _, _, slow in e.counts)])
def test_deeper_counts_by_both_referees(entry):
    game = entry.make()
    start = game.start(entry.start)
    assert [(d, game.perft(start, d)) for d, _, slow in entry.counts if slow] == [
        (d, n) for d, n, slow in entry.counts if slow]
    if entry.plain_slow > entry.plain:
        counts = walk_both(game, plain_module(game), start, entry.plain_slow)
        assert counts == [n for _, n, _ in entry.counts][:entry.plain_slow]


def test_the_reference_file_covers_every_start_of_the_real_board():
    covered = {(e.game, e.start) for e in ENTRIES if e.board == "power-of-two" and not e.options}
    assert covered == {("power-of-two", "standard"), ("power-of-two", "corners"),
                       ("david-goliath", "standard"), ("thats-my-line", "empty")}
    assert all(e.plain >= 2 for e in ENTRIES)
    assert [d for d, _, _ in ENTRIES[0].counts] == [1, 2, 3]
