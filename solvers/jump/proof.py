"""The proof of a ``jump-reverse`` answer's bound (:class:`Proof`): what shows that no finish takes
fewer than ``bound`` moves (for status ``infeasible``: that no finish exists at all), and which
engine showed it. Written into an answer file as ``"proof": {"kind", "bound", "engine"}``; the
checker recomputes or re-proves it (:mod:`.checker`).

Kinds:

* ``admissible bound``: the unjumpable stones and the full Merson regions need ``bound`` moves
  (at least one move for two or more stones); the checker recomputes it.
* ``exhausted search``: the engine's search refuted every finish within ``bound - 1`` moves (for
  ``infeasible``: every finish); the checker re-proves it with its own search.
* ``move-set model``: the SAT backend found no plan of ``bound - 1`` moves or fewer (for
  ``infeasible``: of any length); the checker re-proves it with its own search.
* ``position classes and pagodas``: no node can hold the last stone (``infeasible`` only); the
  checker recomputes the position classes and pagodas.
* ``census``: a stored census solvable set leaves the position out (``infeasible`` only); the
  checker re-proves it with its own search.
* ``fewest-moves table``: a stored census by moves (the fewest moves from every position to the
  end, met by a census from the position where the table is partial) puts the position ``bound``
  moves from the end (for ``infeasible``: a complete table, or every level from the position,
  misses it); the checker re-proves it with its own search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

Engine = Literal["kernel", "python", "sat", "census", "census-table"]
ENGINES: tuple[Engine, ...] = get_args(Engine)
ProofKind = Literal["admissible bound", "exhausted search", "move-set model", "position classes and pagodas",
                    "census", "fewest-moves table"]
PROOF_KINDS: tuple[ProofKind, ...] = get_args(ProofKind)
PROOF_FIELDS = ("kind", "bound", "engine")

SEARCHED: dict[Engine, ProofKind] = {"kernel": "exhausted search", "python": "exhausted search",
                                     "sat": "move-set model", "census": "census",
                                     "census-table": "fewest-moves table"}
"""The kind of proof each engine's own work gives (beyond the admissible bound)."""
KINDS_BY_ENGINE: dict[Engine, tuple[ProofKind, ...]] = {
    engine: (kind,) if engine in ("census", "census-table") else ("admissible bound", kind,
                                                                 "position classes and pagodas")
    for engine, kind in SEARCHED.items()}
"""The kinds of proof each engine gives."""
INFEASIBLE_ONLY: tuple[ProofKind, ...] = ("position classes and pagodas", "census")
"""Kinds that prove only that no finish exists at all."""


@dataclass(frozen=True)
class Proof:
    """``engine`` showed that no finish takes fewer than ``bound`` moves, by ``kind``."""

    kind: ProofKind
    bound: int
    engine: Engine

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "bound": self.bound, "engine": self.engine}


def bound_proof(bound: int, admissible: int, engine: Engine) -> Proof | None:
    """The proof of "no finish within ``bound - 1`` moves" from an engine whose search starts at the
    ``admissible`` bound: the admissible bound itself up to there, its own work above; None for a
    bound below 1 (nothing to prove)."""
    if bound < 1:
        return None
    kind: ProofKind = "admissible bound" if bound <= admissible else SEARCHED[engine]
    return Proof(kind=kind, bound=bound, engine=engine)
