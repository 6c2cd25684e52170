"""What a player sees of proofs while playing: "proven: Light wins (hint: d4)".

:func:`proven_hint` is the one entry point for ``powertwo play`` and the workbench: the value of a
position for the side to move when a proof is known (found earlier in this process) or found by
:func:`powertwo.solvers.prove.prove` within the seconds given, else ``None``. A proof found for the
side to move makes the position after its winning move known too (lost for the side to move
there), and the winner's answer to every defence in the proof's first levels known (read from the
certificate), so the hints go on at once along the proof. :func:`proven_move` is the computer
player's use of it: a winning move, or ``None``.
"""

from __future__ import annotations

import io
import json
import lzma
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from powertwo.rules import AnyGame

from ..proof_format import KEPT, NODE, BodyReader, skip_record
from .tree import ordered_children
from .values import Limits, ProofResult, Value

KNOWN_LIMIT = 100_000
"""The most positions remembered."""
MEMORY_MIB = 256
"""The tables of a hint's search."""


@dataclass(frozen=True)
class ProvenHint:
    """A proven value for the side to move: ``won`` (with a winning ``move`` in notation), ``lost``
    or ``neither``, the winner's name (``None`` for ``neither``), and whether it was ``known``
    (found before) or proven now."""

    value: Value
    winner: str | None
    move: str | None
    known: bool

    def text(self) -> str:
        """``proven: Light wins (hint: d4)``, ``proven: Dark wins``, ``proven: neither side can force a win``."""
        if self.value == Value.NEITHER:
            return "proven: neither side can force a win"
        return f"proven: {self.winner} wins" + (f" (hint: {self.move})" if self.move else "")

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value.value, "winner": self.winner, "move": self.move, "known": self.known,
                "text": self.text()}


_known: OrderedDict[tuple[str, str, str, str], ProvenHint] = OrderedDict()


def _where(game: AnyGame, state: Any) -> tuple[str, str, str, str]:
    return (game.name, game.board.fingerprint, json.dumps(dict(game.options), sort_keys=True, default=str),
            json.dumps(game.state_to_json(state), sort_keys=True))


def _remember(game: AnyGame, state: Any, hint: ProvenHint) -> None:
    where = _where(game, state)
    _known[where] = hint
    _known.move_to_end(where)
    while len(_known) > KNOWN_LIMIT:
        _known.popitem(last=False)


def proven_hint(game: AnyGame, state: Any, *, seconds: float = 1.0, memory_mib: int = MEMORY_MIB) -> ProvenHint | None:
    """The proven value of ``state`` for the side to move, known or found within ``seconds``; ``None``
    when neither (see the module text). A finished game has no hint."""
    from . import prove

    if game.outcome(state) is not None:
        return None
    known = _known.get(_where(game, state))
    if known is not None:
        return ProvenHint(value=known.value, winner=known.winner, move=known.move, known=True)
    if seconds <= 0:
        return None
    try:
        result = prove(game, state, limits=Limits(seconds=seconds, memory_mib=memory_mib), symmetry=False,
                       engine="df-pn")
    except ValueError:  # a position the search cannot list the moves of (Netzwerk's opening)
        return None
    if result.value == Value.UNKNOWN:
        return None
    hint = ProvenHint(value=result.value, winner=result.winner, move=result.move, known=False)
    _remember(game, state, hint)
    if result.value == Value.WON and result.move is not None:
        _learn_line(game, state, result)
    return hint


def proven_move(game: AnyGame, state: Any, seconds: float) -> Any | None:
    """A move of the side to move proven to win (known or found within ``seconds``), or ``None``."""
    hint = proven_hint(game, state, seconds=seconds)
    if hint is None or hint.value != Value.WON or hint.move is None:
        return None
    return game.parse_move(hint.move, state)


def _learn_line(game: AnyGame, state: Any, result: ProofResult) -> None:
    """Remember the position after the winning move (lost for the side to move there) and, from the
    certificate, the winner's move after each defence there."""
    assert result.move is not None and result.winner is not None
    after = game.apply(state, game.parse_move(result.move, state))
    if game.outcome(after) is not None:
        return
    _remember(game, after, ProvenHint(value=Value.LOST, winner=result.winner, move=None, known=False))
    if result.certificate is None:
        return
    reader = BodyReader(io.BytesIO(lzma.compress(result.certificate.body, preset=0)), "the proof")
    if reader.varint() not in (NODE, KEPT):
        return
    reader.text()  # the winning move, played above
    if reader.varint() not in (NODE, KEPT):
        return
    defences = ordered_children(game, after)
    if reader.varint() != len(defences):
        return
    for _, reply in defences:
        if reader.varint() not in (NODE, KEPT):
            continue
        move = reader.text()
        _remember(game, reply, ProvenHint(value=Value.WON, winner=result.winner, move=move, known=False))
        skip_record(reader, defender_next=True)


__all__ = ["ProvenHint", "proven_hint", "proven_move"]
