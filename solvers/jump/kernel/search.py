"""The strategies of the compiled reverse search (:class:`KernelSearch`): the first finish, the upper
bounds (the beam of :mod:`.beam`, then branch and bound), iterative deepening on moves and the
polishing of a stalled run's answer, each driving the machine (:class:`~.machine.KernelMachine`)
through its searches; the run's outcome is a :class:`KernelResult`."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from powertwo.boards.words import counted

from ..proof import Proof, bound_proof
from ..tables import mask_of
from .beam import Moves, beam
from .leaves import _lower_bound
from .machine import KernelMachine, chains
from .tuning import (
    ANY_SHARE,
    BEAM_SHARE,
    EXHAUSTED,
    FIRST_NODES,
    FIRST_STEP,
    FOUND,
    PAUSED,
    STALL_NODES,
    UPPER_SHARE,
)


@dataclass(frozen=True)
class KernelResult:
    """The outcome of :meth:`KernelSearch.run`: the best answer as moves ``(from, [landings])`` (None:
    none found), the proven lower bound and its proof, and how the run went."""

    moves: Moves | None
    bound: int
    proven: bool
    """The bound is the answer's length, or the position is proven to have no finish."""
    infeasible: bool
    """No finish exists (proven)."""
    proof: Proof | None
    """What proves ``bound`` (None for a bound of 0: the start is one stone)."""
    nodes: int
    seconds: float
    log: tuple[str, ...] = ()
    first_found_seconds: float | None = None
    first_found_moves: int | None = None
    interrupted: bool = False
    """Ctrl-C ended the run: ``moves`` is the best answer so far, ``bound`` the bound so far."""
    answers: tuple[tuple[float, int], ...] = ()
    """Every answer the run found that was shorter than the ones before: (seconds into the run,
    moves); the first is the first answer a user could have."""


@dataclass
class _Run:
    """What one :meth:`KernelSearch.run` has so far: its limits, clock, log and answers."""

    search: KernelSearch
    time_limit: float | None
    node_limit: int | None
    stall: int
    cap: int
    """The most moves an answer may have."""
    started: float = field(default_factory=time.perf_counter)
    started_nodes: int = 0
    low: int = 0
    """The admissible lower bound of the start."""
    log: list[str] = field(default_factory=list)
    answers: list[tuple[float, int]] = field(default_factory=list)
    first_s: float | None = None
    first_m: int | None = None

    @property
    def limited(self) -> bool:
        return self.time_limit is not None or self.node_limit is not None

    def share(self, fraction: float) -> tuple[float | None, int | None]:
        """The deadline and the positions of ``fraction`` of the limits (None: no such limit)."""
        return (None if self.time_limit is None else self.started + self.time_limit * fraction,
                None if self.node_limit is None else int(self.node_limit * fraction))

    def note(self, msg: str) -> None:
        msg = f"{msg} ({self.search.nodes:,} positions, {time.perf_counter() - self.started:.2f} s)"
        self.log.append(msg)
        self.search.progress(msg)

    def result(self, moves: Moves | None, bound: int, *, proven: bool, infeasible: bool = False,
               proof: Proof | None = None) -> KernelResult:
        """The run's outcome; ``proof`` defaults to the proof of ``bound`` (:meth:`refuted`)."""
        return KernelResult(moves=moves, bound=bound, proven=proven, infeasible=infeasible,
                            proof=proof or self.refuted(bound), nodes=self.search.nodes,
                            seconds=time.perf_counter() - self.started, log=tuple(self.log),
                            first_found_seconds=self.first_s, first_found_moves=self.first_m,
                            interrupted=self.search.interrupted, answers=tuple(self.answers))

    def better(self, moves: Moves) -> Moves:
        """Records ``moves`` among the answers when shorter than the ones before."""
        if not self.answers or len(moves) < self.answers[-1][1]:
            self.answers.append((time.perf_counter() - self.started, len(moves)))
        return moves

    def polish(self, given: Moves, shorter: Moves) -> Moves:
        """Logs what the beam brought (its answer is never longer than the one it was given)."""
        self.note(f"beam: {counted(len(shorter), 'move')}" if len(shorter) < len(given) else "beam: no shorter answer")
        return self.better(shorter)

    def refuted(self, budget: int) -> Proof | None:
        """The proof that no finish takes fewer than ``budget`` moves: the admissible bound up to
        :attr:`low`, the exhausted search above (none for ``budget`` 0: the position is already one
        stone)."""
        return bound_proof(budget, self.low, "kernel")


class KernelSearch(KernelMachine):
    """The compiled reverse search from ``start`` to one stone on one of ``targets`` (the machine's
    arguments, :class:`~.machine.KernelMachine`): :meth:`run` finds an answer and proves its bound."""

    first_step = FIRST_STEP
    """The short first searches of :meth:`run` (:data:`FIRST_STEP`; 0: the search for any finish
    comes first)."""

    def beam(self, best: Moves, deadline: float | None, node_cap: int) -> Moves:
        """Shorter answers than ``best`` by a beam search on whole moves (:func:`~.beam.beam`)."""
        return beam(self, best, deadline, node_cap)

    def run(self, time_limit: float | None = None, node_limit: int | None = None,
            max_moves: int | None = None, stall: int = STALL_NODES) -> KernelResult:
        """Feasibility first (any finish: an upper bound, or ``infeasible``), then (with a limit)
        the beam (:meth:`beam`) and branch and bound until it stalls (:data:`STALL_NODES`), together
        within :data:`UPPER_SHARE` of the limit, then iterative deepening on moves from the admissible
        bound up to one below the best found (without a limit, the beam runs when a budget stalls)."""
        r = _Run(self, time_limit, node_limit, stall, self.stones - 1 if max_moves is None else max_moves,
                 started_nodes=self.nodes)
        if not self.setup.targets:
            return r.result(None, r.cap + 1, proven=True, infeasible=True,
                            proof=Proof(kind="position classes and pagodas", bound=r.cap + 1, engine="kernel"))
        tb = self.tables
        r.low = int(_lower_bound(np.uint64(mask_of(self.start_nodes)), -1, tb.targets, tb.unj, tb.regions))
        first = self._first_finish(r)
        if isinstance(first, KernelResult):
            return first
        best = first
        if r.limited and best is not None:
            upper = self._upper_bounds(r, best)
            if isinstance(upper, KernelResult):
                return upper
            best = upper
        return self._deepen(r, best, max_moves is None)

    def _first_finish(self, r: _Run) -> KernelResult | Moves | None:
        """The first answer of :meth:`run`: short searches within the bound plus :data:`FIRST_STEP` moves
        (then twice that), else the search for any finish within :data:`ANY_SHARE` of the limit. Returns
        the answer, None (none in its share), or the run's result (infeasible, or Ctrl-C)."""
        any_deadline, any_nodes = r.share(ANY_SHARE)
        status, jumps = PAUSED, list[tuple[int, int]]()
        first_deadline, _ = r.share(ANY_SHARE / 2)
        for within in (r.low + self.first_step, r.low + 2 * self.first_step):   # a short first answer, if soon
            if not self.first_step or within > r.cap or self.interrupted:
                break
            first_nodes = FIRST_NODES if any_nodes is None else min(FIRST_NODES, any_nodes // 4)
            status, jumps = self.search(within, first_deadline, first_nodes,
                                        label=f"a finish within {counted(within, 'move')}")
            if status == FOUND:
                r.note(f"first finish within {counted(within, 'move')}: {counted(len(chains(jumps)), 'move')}")
                break
            r.note(f"first finish within {counted(within, 'move')}: "
                   + ("none (search exhausted)" if status == EXHAUSTED else f"none within {first_nodes:,} positions"))
        short = status == FOUND
        if not short:
            status, jumps = self.search(None, any_deadline, any_nodes, label="any finish")
        if status == EXHAUSTED:
            r.note("any finish: none (search exhausted)")
            return r.result(None, r.cap + 1, proven=True, infeasible=True,
                            proof=Proof(kind="exhausted search", bound=r.cap + 1, engine="kernel"))
        if status == PAUSED:
            if self.interrupted:
                r.note("any finish: interrupted (Ctrl-C)")
                return r.result(None, r.low, proven=False)
            r.note("any finish: none within its share of the limit (the deepening goes on)")
            return None
        best = r.better(chains(jumps))
        r.first_s, r.first_m = time.perf_counter() - r.started, len(best)
        if not short:
            r.note(f"any finish: {counted(len(best), 'move')}")
        return best

    def _upper_bounds(self, r: _Run, best: Moves) -> KernelResult | Moves:
        """With a limit: the beam, then branch and bound (better answers early; its failed budgets stay
        in the table as proofs for the deepening), until ``r.stall`` positions bring no better answer or
        :data:`UPPER_SHARE` of the limit is spent. Returns the best answer, or the run's result."""
        low = r.low
        if len(best) - 1 > low:
            beam_deadline, beam_nodes = r.share(BEAM_SHARE)
            best = r.polish(best, self.beam(best, beam_deadline, r.stall if beam_nodes is None else beam_nodes))
            if self.interrupted:
                return r.result(best, low, proven=False)
        share_deadline, share_nodes = r.share(UPPER_SHARE)
        share_end = None if share_nodes is None else r.started_nodes + share_nodes
        while len(best) - 1 >= low:
            left = r.stall if share_end is None else min(r.stall, share_end - self.nodes)
            if left <= 0:
                break
            status, jumps = self.search(len(best) - 1, share_deadline, left,
                                        label=f"branch and bound below {len(best)}")
            if status == FOUND:
                best = r.better(chains(jumps))
                r.note(f"branch and bound: {counted(len(best), 'move')}")
            elif status == EXHAUSTED:
                r.note(f"branch and bound: none within {counted(len(best) - 1, 'move')}")
                return r.result(best, len(best), proven=True)
            elif self.interrupted:
                r.note(f"branch and bound below {len(best)}: interrupted (Ctrl-C)")
                return r.result(best, low, proven=False)
            else:
                r.note("branch and bound: no better answer within its share of the limit"
                       if share_deadline is not None and time.perf_counter() > share_deadline
                       else f"branch and bound: no better answer within {left:,} positions")
                break
        return best

    def _deepen(self, r: _Run, best: Moves | None, whole: bool) -> KernelResult:
        """Iterative deepening from the admissible bound up to one below ``best``: the first finish is
        optimal. Without a limit, a budget that takes more than ``r.stall`` positions ends the run (the
        answer stays feasible, with the bound so far; the beam polishes it). ``whole``: no cap on the
        moves was given (so refuting every budget up to the cap proves infeasible)."""
        deadline, _ = r.share(1.0)
        budget = r.low
        while budget < (r.cap + 1 if best is None else min(len(best), r.cap + 1)):
            remaining = r.stall if not r.limited else None if r.node_limit is None else r.node_limit - self.nodes
            if remaining is not None and remaining <= 0:
                return r.result(best, budget, proven=False)
            status, jumps = self.search(budget, deadline, remaining,
                                        label=f"{counted(budget, 'move')} "
                                              f"(best {'none' if best is None else len(best)})")
            if status == PAUSED:
                why = ("interrupted (Ctrl-C)" if self.interrupted else "time or position limit reached" if r.limited
                       else f"{r.stall:,} positions reached")
                r.note(f"{why} while searching {counted(budget, 'move')}")
                if not r.limited and not self.interrupted and best is not None and len(best) - 1 > budget:
                    best = r.polish(best, self.beam(best, None, r.stall))   # the bound stays: improve the answer
                return r.result(best, budget, proven=False)
            if status == FOUND:
                best = r.better(chains(jumps))
                r.note(f"{counted(budget, 'move')}: found")
                return r.result(best, budget, proven=True)
            r.note(f"{counted(budget, 'move')}: none")
            budget += 1
        if best is None:    # every budget up to the cap refuted, and no finish uses more moves
            return r.result(None, r.cap + 1, proven=True, infeasible=whole)
        return r.result(best, len(best), proven=True)

