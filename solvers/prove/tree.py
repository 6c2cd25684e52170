"""The proof a df-pn search found, written out as a certificate's body (:mod:`..proof_format`).

The proof is walked depth first from the root: at the winner's positions one move, to a position
proven before this one (the search numbers its decisions, so the walk never comes back to a position
on its own path); at the defender's every move, in the order of their notation, one position per
distinct result. A position met a second time, or a symmetric one, is a reference to the first; a
finished game or one the game's shortcut decides is a leaf.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable

from ..proof_format import FORMAT, KEPT, LEAF, NODE, REF, write_text, write_varint
from .dfpn import PROVEN, Search
from .values import ProofSize, Value

LEAF_RECORD, NODE_RECORD, REF_RECORD = 0, 1, 2
PROGRESS_EVERY = 100_000


class ProofWalkError(RuntimeError):
    """The search's table does not hold the proof it claimed (a defect, never a user's error)."""


@dataclass(frozen=True)
class WrittenProof:
    """The body of a certificate, its size and the winner's first move (when the winner moves first)."""

    body: bytes
    size: ProofSize
    first_move: str | None


def ordered_children(game: Any, state: Any) -> list[tuple[str, Any]]:
    """Every legal move's notation and the position after it, in the order of the notation, one per
    distinct position (the certificate's order of the defences)."""
    out: list[tuple[str, Any]] = []
    seen: set = set()
    for text, move in sorted(((game.format_move(m, state), m) for m in game.legal_moves(state)),
                             key=lambda pair: pair[0]):
        after = game._apply(state, move)
        if after not in seen:
            seen.add(after)
            out.append((text, after))
    return out


@dataclass
class _Frame:
    key: Hashable
    node: int
    pending: list[Any]
    at: int = 0


class _Walk:
    def __init__(self, search: Search, progress: Callable[[str], None]):
        self.search, self.progress = search, progress
        self.records: list[tuple] = []
        self.done: dict[Hashable, int] = {}
        self.open_keys: set[Hashable] = set()
        self.nodes = 0

    def enter(self, state: Any) -> _Frame | None:
        """Write the record of ``state``; the frame of its children when it is expanded."""
        search = self.search
        key = search.positions.key(state)
        if len(self.records) % PROGRESS_EVERY == 0 and self.records:
            self.progress(f"writing the proof: {len(self.records):,} records")
        if key in self.done:
            self.records.append((REF_RECORD, self.done[key]))
            return None
        known = search.terminal(state)
        if known is not None:
            if known != PROVEN:
                raise ProofWalkError("the proof reaches a position its winner does not win")
            self.records.append((LEAF_RECORD,))
            return None
        serial = search.proven_serial(key)
        if serial is None or key in self.open_keys:
            raise ProofWalkError("the proof reaches a position the search did not prove")
        node = self.nodes
        self.nodes += 1
        kids = ordered_children(search.game, state)
        if state.to_move == search.attacker:
            text, child = self.winning(kids, serial)
            self.records.append((NODE_RECORD, node, text))
            pending = [child]
        else:
            self.records.append((NODE_RECORD, node, len(kids)))
            pending = [after for _, after in kids]
        self.open_keys.add(key)
        return _Frame(key, node, pending)

    def winning(self, kids: list[tuple[str, Any]], serial: int) -> tuple[str, Any]:
        """The winner's move to a position won at once, or else proven earliest (before ``serial``)."""
        search = self.search
        best: tuple[int, str, Any] | None = None
        for text, after in kids:
            if search.terminal(after) == PROVEN:
                return text, after
            proven = search.proven_serial(search.positions.key(after))
            if proven is not None and proven < serial and (best is None or proven < best[0]):
                best = (proven, text, after)
        if best is None:
            raise ProofWalkError("a winner's position of the proof has no move proven before it")
        return best[1], best[2]

    def walk(self, root: Any) -> None:
        stack: list[_Frame] = []
        top = self.enter(root)
        if top is not None:
            stack.append(top)
        while stack:
            frame = stack[-1]
            if frame.at < len(frame.pending):
                child = frame.pending[frame.at]
                frame.at += 1
                below = self.enter(child)
                if below is not None:
                    stack.append(below)
                continue
            stack.pop()
            self.open_keys.discard(frame.key)
            self.done[frame.key] = frame.node


def encode(records: list[tuple], attacker_nodes: int) -> tuple[bytes, ProofSize]:
    """The body (uncompressed) and the counts of a list of records (see :mod:`..proof_format`)."""
    referenced = sorted({r[1] for r in records if r[0] == REF_RECORD})
    kept = {node: k for k, node in enumerate(referenced)}
    body = bytearray()
    leaves = references = nodes = 0
    for record in records:
        if record[0] == LEAF_RECORD:
            write_varint(body, LEAF)
            leaves += 1
        elif record[0] == REF_RECORD:
            write_varint(body, REF + kept[record[1]])
            references += 1
        else:
            write_varint(body, KEPT if record[1] in kept else NODE)
            nodes += 1
            if isinstance(record[2], str):
                write_text(body, record[2])
            else:
                write_varint(body, record[2])
    size = ProofSize(positions=nodes + leaves, winner_nodes=attacker_nodes, defender_nodes=nodes - attacker_nodes,
                     leaves=leaves, claims=0, references=references, kept=len(kept))
    return bytes(body), size


def write_proof(search: Search, root: Any, progress: Callable[[str], None]) -> WrittenProof:
    """The certificate body of the proof ``search`` found for its attacker from ``root``."""
    walk = _Walk(search, progress)
    walk.walk(root)
    winner_nodes = sum(1 for r in walk.records if r[0] == NODE_RECORD and isinstance(r[2], str))
    body, size = encode(walk.records, winner_nodes)
    first = walk.records[0]
    first_move = first[2] if first[0] == NODE_RECORD and isinstance(first[2], str) else None
    return WrittenProof(body=body, size=size, first_move=first_move)


def certificate_header(game: Any, state: Any, value: Value, winner: int, first: str | None, size: ProofSize, *,
                       symmetry: bool, board_name: str | None, producer: str) -> dict[str, Any]:
    """The header of a certificate (see :mod:`..proof_format`)."""
    return {"certificate": FORMAT, "game": game.name, "options": dict(game.options),
            "board": board_name or game.board.name, "board_fingerprint": game.board.fingerprint,
            "root": game.state_to_json(state), "to_move": game.player_keys[state.to_move], "value": value.value,
            "winner": game.player_keys[winner], "move": first, "counts": size.to_json(), "symmetry": symmetry,
            "producer": producer}


__all__ = ["certificate_header", "WrittenProof", "write_proof", "encode", "ordered_children", "ProofWalkError"]
