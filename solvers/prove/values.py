"""What ``prove`` answers: one value vocabulary (:class:`Value`), the limits it works within and the
result, as frozen dataclasses built with keyword arguments and written as JSON in one place
(:meth:`ProofResult.to_json`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Mapping


class Value(str, Enum):
    """The value of a position for the side to move, with best play by both."""

    WON = "won"
    """The side to move wins in a finite number of moves against every defence."""
    LOST = "lost"
    """The other side does."""
    NEITHER = "neither"
    """Neither side can force a win (Tower of Power: a draw with best play; a game without a draw
    rule: best play goes on for ever)."""
    UNKNOWN = "unknown"
    """Not decided within the limits: a bound and the search's figures, no result."""


class Stop(str, Enum):
    """Why a search ended before it decided."""

    TIME = "time limit"
    MEMORY = "memory limit"
    INTERRUPTED = "interrupted"
    HISTORY = "a claim that no win exists would rest on the game's history or the depth cap"


class Verdict(str, Enum):
    """What one df-pn search (one attacker) came to."""

    PROVEN = "proven"
    """The attacker wins."""
    DISPROVEN = "disproven"
    """The attacker cannot force a win."""
    OPEN = "open"
    """Neither, within the limits."""


@dataclass(frozen=True)
class Limits:
    """The most ``prove`` may spend: ``seconds`` of search (``None``: no limit) and ``memory_mib``
    for its tables."""

    seconds: float | None = None
    memory_mib: int = 1024


@dataclass(frozen=True)
class ProofSize:
    """The size of a proof, counted as its certificate holds it."""

    positions: int
    """Positions written out (every record that is not a reference: expanded, leaves and claims)."""
    winner_nodes: int
    """Positions with the winner to move: one move each."""
    defender_nodes: int
    """Positions with the defender to move: every defence."""
    leaves: int
    """Positions decided by the rules or an exact shortcut."""
    claims: int
    """Positions claimed won, re-proven by the checker's judge (a proof written out in part)."""
    references: int
    """Positions proven earlier in the proof (a transposition or a symmetric position)."""
    kept: int
    """Positions the checker keeps for the references."""

    def to_json(self) -> dict[str, int]:
        return {"positions": self.positions, "winner_nodes": self.winner_nodes,
                "defender_nodes": self.defender_nodes, "leaves": self.leaves, "claims": self.claims,
                "references": self.references, "kept": self.kept}


@dataclass(frozen=True)
class Run:
    """One search: who it tried to prove a win for, what it came to, its root's proof and
    disproof numbers (df-pn; -1: infinite; ``None``: a search without them) and the positions it
    expanded."""

    attacker: str
    verdict: Verdict
    proof_number: int | None
    disproof_number: int | None
    expanded: int

    def to_json(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "verdict": self.verdict.value, "proof_number": self.proof_number,
                "disproof_number": self.disproof_number, "expanded": self.expanded}


@dataclass(frozen=True)
class RootMove:
    """A move of the side to move at the root and what is known of the position after it, for the
    side to move at the root: ``won`` (the move wins), ``lost`` (the opponent wins after it) or
    ``unknown``."""

    move: str
    value: Value


@dataclass(frozen=True)
class Figures:
    """The search's figures: positions expanded, table entries at the end, seconds, why it stopped
    early (``None``: it decided), each run."""

    expanded: int
    table_entries: int
    seconds: float
    stopped: Stop | None
    runs: tuple[Run, ...]

    def to_json(self) -> dict[str, Any]:
        return {"expanded": self.expanded, "table_entries": self.table_entries, "seconds": round(self.seconds, 3),
                "stopped": None if self.stopped is None else self.stopped.value,
                "runs": [r.to_json() for r in self.runs]}


@dataclass(frozen=True)
class Certificate:
    """A proof ready to be written (:func:`powertwo.solvers.proof_format.write_certificate`): the
    header's fields and the uncompressed body."""

    header: Mapping[str, Any]
    body: bytes


@dataclass(frozen=True)
class ProofResult:
    """Who wins a position: the value for the side to move, the winner and a winning move (the
    first move of the proof when the side to move wins), the proof's size, the search's figures and
    what is known of every move at the root."""

    game: str
    board: str
    options: Mapping[str, Any]
    to_move: str
    value: Value
    winner: str | None
    move: str | None
    proof: ProofSize | None
    figures: Figures
    root_moves: tuple[RootMove, ...] = ()
    notes: tuple[str, ...] = ()
    certificate: Certificate | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON object (the certificate's body is not part of it)."""
        return {"game": self.game, "board": self.board, "options": dict(self.options), "to_move": self.to_move,
                "value": self.value.value, "winner": self.winner, "move": self.move,
                "proof": None if self.proof is None else self.proof.to_json(), "figures": self.figures.to_json(),
                "root_moves": [{"move": m.move, "value": m.value.value} for m in self.root_moves],
                "notes": list(self.notes)}


__all__ = ["Value", "Stop", "Verdict", "Limits", "ProofSize", "Run", "RootMove", "Figures", "Certificate",
           "ProofResult"]
