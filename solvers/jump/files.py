"""Get a Jump On: the typed answers (:class:`ForwardAnswer`, :class:`ReverseAnswer`) and their JSON
form, the one place an answer file is written from. A forward answer file::

    {"puzzle": "jump-forward", "board", "board_fingerprint", "corner",
     "steps": [{"place": node, "jumps": [landings]}], "final_position": [32 node ids], "seconds"}

A reverse answer file::

    {"puzzle": "jump-reverse", "board", "board_fingerprint", "position": [start nodes],
     "moves": [{"from": node, "jumps": [landings]}], "status" (a Status),
     "objective": moves or null, "bound": proven lower bound, "engine": "kernel"|"python"|"sat"|"census"|"census-table",
     "proof": {"kind", "bound", "engine"} or null, "positions_searched", "answers", "workers", "note",
     "stopped", "target", "seed", "chain_steps", "seconds"}

(the fields after ``proof`` only where they apply). Jumped nodes are implied by consecutive
landings and recomputed by the checker. Run facts (``seconds``, ``answers``: when each shorter
answer came, ``positions_searched``, ``workers``, ``note``, ``stopped``) say how a run went; the
answer files in ``results/`` carry no ``seconds`` or ``answers`` (:data:`RUN_TIMES`; their timings are
in ``results/timings.json``), so a rerun writes them byte for byte the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from powertwo.boards import Board, NodeId

from ..fields import board_fields
from .forward import ForwardStep, forward_final
from .options import FORWARD, REVERSE
from .proof import Engine, Proof
from ..status import FEASIBLE, OPTIMAL, Status

Move = tuple[NodeId, tuple[NodeId, ...]]
"""A reverse move: the node of the stone that moves, and its landings in order."""

FORWARD_FIELDS = frozenset({"puzzle", "board", "board_fingerprint", "corner", "steps", "final_position", "seconds"})
REVERSE_FIELDS = frozenset({"puzzle", "board", "board_fingerprint", "position", "moves", "status", "objective",
                            "bound", "engine", "proof", "positions_searched", "answers", "workers", "note", "stopped",
                            "target", "seed", "chain_steps", "seconds"})
RUN_TIMES = ("seconds", "answers")
"""Fields that time a run: the answer files in ``results/`` leave them out (a rerun rewrites them
byte for byte; the timings go to ``results/timings.json``)."""


def moves_of(raw: Sequence[tuple[NodeId, Sequence[NodeId]]]) -> tuple[Move, ...]:
    """Moves ``(from, landings)`` as the answer's tuples."""
    return tuple((frm, tuple(landings)) for frm, landings in raw)


@dataclass(frozen=True)
class ForwardAnswer:
    """A forward answer: 31 steps from the jumper on ``corner``, found in ``seconds``."""

    board: Board
    corner: NodeId
    steps: tuple[ForwardStep, ...]
    seconds: float | None = None

    @property
    def final_position(self) -> list[NodeId]:
        return forward_final(self.corner, self.steps)

    @property
    def chain_steps(self) -> int:
        """How many steps jump a chain (more than one jump)."""
        return sum(len(s.jumps) > 1 for s in self.steps)

    def to_json(self, timings: bool = True) -> dict[str, Any]:
        """The answer file; without ``timings`` nothing in it depends on the run."""
        out: dict[str, Any] = {
            "puzzle": FORWARD, **board_fields(self.board), "corner": self.corner,
            "steps": [{"place": s.place, "jumps": list(s.jumps)} for s in self.steps],
            "final_position": self.final_position,
        }
        if timings and self.seconds is not None:
            out["seconds"] = round(self.seconds, 3)
        return out


@dataclass(frozen=True)
class ReverseAnswer:
    """A reverse answer: ``moves`` from ``start`` (none unless the status is ``optimal`` or
    ``feasible``), the proven ``bound`` and its ``proof``, by ``engine``; the rest says how the run
    went (``answers``: (seconds, moves) of each shorter answer as it came)."""

    board: Board
    start: tuple[NodeId, ...]
    status: Status
    bound: int
    engine: Engine
    moves: tuple[Move, ...] = ()
    proof: Proof | None = None
    positions_searched: int | None = None
    answers: tuple[tuple[float, int], ...] = ()
    workers: int = 1
    note: str = ""
    stopped: str = ""
    target: NodeId | None = None
    seed: int | None = None
    chain_steps: int | None = None
    seconds: float | None = None

    @property
    def objective(self) -> int | None:
        """The answer's moves (None without an answer)."""
        return len(self.moves) if self.status in (OPTIMAL, FEASIBLE) else None

    def to_json(self, timings: bool = True) -> dict[str, Any]:
        """The answer file; without ``timings`` (:data:`RUN_TIMES`) nothing in it depends on the run's
        clock."""
        out: dict[str, Any] = {
            "puzzle": REVERSE, **board_fields(self.board), "position": sorted(self.start),
            "moves": [{"from": f, "jumps": list(js)} for f, js in self.moves],
            "status": self.status, "objective": self.objective, "bound": self.bound, "engine": self.engine,
            "proof": None if self.proof is None else self.proof.to_json(),
        }
        if self.positions_searched is not None:
            out["positions_searched"] = self.positions_searched
        if timings and self.answers:
            out["answers"] = [{"seconds": round(s, 3), "moves": m} for s, m in self.answers]
        if self.workers > 1:   # the positions are those of all threads together
            out["workers"] = self.workers
        optional = {"note": self.note, "stopped": self.stopped, "target": self.target, "seed": self.seed,
                    "chain_steps": self.chain_steps}
        out.update((key, value) for key, value in optional.items() if value not in ("", None))
        if timings and self.seconds is not None:
            out["seconds"] = round(self.seconds, 3)
        return out
