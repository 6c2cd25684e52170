"""Who wins a position with best play, proven: ``powertwo prove GAME``.

:func:`prove` runs df-pn (:mod:`.dfpn`) for a win of the side to move and, where the game can
repeat a position or end drawn, for a win of the other side at the same time (in slices of
doubling length); in That's My Line, which can do neither, the second search starts only when the
first has shown that the side to move cannot win. The answer is a :class:`ProofResult`: ``won`` or
``lost`` with the proof's size and its certificate (:mod:`.tree`, checked by
:mod:`powertwo.solvers.proof_check`), ``neither`` when neither side can force a win, or ``unknown``
with the search's figures when the limits came first. That's My Line on a board of at most 64
nodes has a compiled producer (:mod:`.tml_kernel`) for positions beyond this search's reach.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from powertwo.rules import AnyGame

from ..registry import Progress, no_progress
from .dfpn import ENTRY_BYTES, INF, ProveError, Search, SearchStopped
from .positions import Positions
from .tree import certificate_header, ordered_children, write_proof
from .values import (
    Certificate, Figures, Limits, ProofResult, ProofSize, RootMove, Run, Stop, Value, Verdict,
)

FIRST_SLICE = 0.5
"""Seconds of the first slice when two searches take turns (each later slice twice as long)."""
ROOT_MOVES_LISTED = 500
"""At most this many root moves are listed with what is known of them."""
PROGRESS_SECONDS = 2.0


@dataclass
class _Attempt:
    """One attacker's search and what it came to so far."""

    search: Search
    verdict: Verdict = Verdict.OPEN
    numbers: tuple[int, int] = (1, 1)
    tainted: bool = False


@dataclass
class _Clock:
    began: float = field(default_factory=time.monotonic)
    deadline: float = math.inf
    next_report: float = 0.0


NO_LIMITS = Limits()


ENGINES = ("auto", "df-pn", "compiled")
"""``auto``: the compiled producer where it serves the game (That's My Line, at most 64 nodes), else
df-pn; ``df-pn`` and ``compiled`` ask for one."""


def prove(game: AnyGame, state: Any, *, limits: Limits = NO_LIMITS, symmetry: bool = True,
          progress: Progress = no_progress, board_name: str | None = None, engine: str = "auto") -> ProofResult:
    """Who wins ``state`` of ``game`` (see the module text). ``board_name`` is how the certificate
    names the board (default its name); ``engine`` one of :data:`ENGINES`."""
    from ..players.evaluations import evaluation_for
    from . import tml

    if engine not in ENGINES:
        raise ProveError(f"engine {engine!r}: use one of {', '.join(ENGINES)}")
    if engine == "compiled" and not tml.usable(game):
        raise ProveError("the compiled producer proves That's My Line on boards of at most 64 nodes "
                         "with a supply of at least one stone")
    if engine != "df-pn" and tml.usable(game):
        return tml.prove_tml(game, state, limits=limits, symmetry=symmetry, progress=progress,
                             board_name=board_name)

    clock = _Clock()
    if limits.seconds is not None:
        clock.deadline = clock.began + limits.seconds
    positions = Positions.of(game, symmetry)
    evaluation = evaluation_for(game.name)
    capacity = max(1000, limits.memory_mib * 2**20 // ENTRY_BYTES // 2)
    me = state.to_move
    attempts = {p: _Attempt(Search(game, positions, p, capacity=capacity,
                                   evaluate=None if evaluation is None else evaluation.evaluate,
                                   scale=1.0 if evaluation is None else evaluation.scale)) for p in (me, 1 - me)}
    for attempt in attempts.values():
        attempt.search.report = lambda: _report(attempts, clock, progress)
    stopped = _take_turns(state, attempts, positions, clock, progress)
    return _result(game, state, attempts, stopped, clock, progress, symmetry, board_name)


def _take_turns(state: Any, attempts: dict[int, _Attempt], positions: Positions, clock: _Clock,
                progress: Progress) -> Stop | None:
    """Run the two searches (see the module text) until one proves a win, both disprove, or a limit
    comes; the reason of an early stop."""
    me = state.to_move
    together = positions.cycles or positions.draws
    slice_seconds = FIRST_SLICE
    while True:
        for player in (me, 1 - me):
            attempt = attempts[player]
            if attempt.verdict != Verdict.OPEN or attempt.tainted:
                continue
            if not together and player != me and attempts[me].verdict == Verdict.OPEN:
                continue
            end = min(clock.deadline, time.monotonic() + slice_seconds) if together else clock.deadline
            try:
                pn, dn, rests = attempt.search.run(state, end)
            except SearchStopped as stop:
                attempt.numbers = attempt.search.root_numbers(state)
                if stop.reason != Stop.TIME or time.monotonic() >= clock.deadline:
                    return stop.reason
                _report(attempts, clock, progress)
                continue
            except KeyboardInterrupt:
                attempt.numbers = attempt.search.root_numbers(state)
                return Stop.INTERRUPTED
            attempt.numbers = (pn, dn)
            if pn == 0:
                attempt.verdict = Verdict.PROVEN
                return None
            if rests:
                attempt.tainted = True
            elif dn == 0:
                attempt.verdict = Verdict.DISPROVEN
        if all(a.verdict == Verdict.DISPROVEN for a in attempts.values()):
            return None
        if all(a.verdict != Verdict.OPEN or a.tainted for a in attempts.values()):
            return Stop.HISTORY
        slice_seconds *= 2


def _report(attempts: dict[int, _Attempt], clock: _Clock, progress: Progress) -> None:
    now = time.monotonic()
    if now < clock.next_report:
        return
    clock.next_report = now + PROGRESS_SECONDS
    expanded = sum(a.search.expanded for a in attempts.values())
    entries = sum(len(a.search.table) for a in attempts.values())
    progress(f"{expanded:,} positions expanded, {entries:,} in the tables, {now - clock.began:.0f} s")


def _result(game: AnyGame, state: Any, attempts: dict[int, _Attempt], stopped: Stop | None, clock: _Clock,
            progress: Progress, symmetry: bool, board_name: str | None) -> ProofResult:
    me = state.to_move
    winner = next((p for p, a in attempts.items() if a.verdict == Verdict.PROVEN), None)
    if winner is not None:
        value = Value.WON if winner == me else Value.LOST
    elif stopped is None and all(a.verdict == Verdict.DISPROVEN for a in attempts.values()):
        value = Value.NEITHER
    else:
        value = Value.UNKNOWN
    size = first = certificate = None
    if winner is not None:
        progress("writing the proof")
        written = write_proof(attempts[winner].search, state, progress)
        size, first = written.size, written.first_move
        header = certificate_header(game, state, value, winner, first, size, symmetry=symmetry,
                                    board_name=board_name, producer="df-pn")
        certificate = Certificate(header=header, body=written.body)
    seconds = time.monotonic() - clock.began
    runs = tuple(Run(attacker=game.player_name(p), verdict=a.verdict, proof_number=_finite(a.numbers[0]),
                     disproof_number=_finite(a.numbers[1]), expanded=a.search.expanded)
                 for p, a in attempts.items() if a.search.expanded or p == me)
    figures = Figures(expanded=sum(a.search.expanded for a in attempts.values()),
                      table_entries=sum(len(a.search.table) for a in attempts.values()), seconds=seconds,
                      stopped=stopped if value == Value.UNKNOWN else None, runs=runs)
    return ProofResult(game=game.name, board=board_name or game.board.name, options=dict(game.options),
                       to_move=game.player_name(me), value=value,
                       winner=None if winner is None else game.player_name(winner), move=first, proof=size,
                       figures=figures, root_moves=_root_moves(game, state, attempts), certificate=certificate)


def _finite(n: int) -> int:
    return -1 if n >= INF else n


def _root_moves(game: AnyGame, state: Any, attempts: dict[int, _Attempt]) -> tuple[RootMove, ...]:
    """What the searches know of each move at the root (``won``: the move wins for the side to
    move; ``lost``: the other side wins after it)."""
    if game.outcome(state) is not None:
        return ()
    me = state.to_move
    try:
        kids = ordered_children(game, state)[:ROOT_MOVES_LISTED]
    except ValueError:
        return ()
    out = []
    for text, after in kids:
        value = Value.UNKNOWN
        for player, attempt in attempts.items():
            search = attempt.search
            known = search.terminal(after)
            if known is not None and known[0] == 0 or search.proven_serial(search.positions.key(after)) is not None:
                value = Value.WON if player == me else Value.LOST
        out.append(RootMove(move=text, value=value))
    return tuple(out)


__all__ = ["prove", "Limits", "ProofResult", "ProofSize", "Value", "Stop", "Verdict", "Figures", "Run", "RootMove",
           "Certificate", "ProveError"]
