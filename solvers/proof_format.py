"""The file format of a game proof (a *certificate*): what ``powertwo prove --proof FILE`` writes and
``powertwo check FILE`` re-verifies. The producer (:mod:`powertwo.solvers.prove`) and the independent
checker (:mod:`powertwo.solvers.proof_check`) share this module and nothing else of each other.

A certificate is one line of JSON (the header), a newline, then the body: an xz (LZMA) stream of
records in depth-first pre-order over the proof, starting at the root. Every record opens with a tag:

* :data:`LEAF` (0): the position is decided, for the winner, by the rules (the game is over) or by a
  game's exact shortcut that the checker proves itself (That's My Line's count bound).
* :data:`NODE` (1) and :data:`KEPT` (2): the position is expanded. With the winner to move, the
  winner's move follows (a text in the game's notation), then the record of the position after it.
  With the defender to move, the number of distinct defences follows, then one record per defence, in
  the order of their notation (the checker generates the defences itself, so none is written down).
  A :data:`KEPT` position is remembered: the ``k``-th kept position of the stream is number ``k``.
* :data:`CLAIM` (3): the position is won for the winner, a claim the checker re-proves with the game's
  independent judge (:mod:`.proof_judge`): a proof too large to write out in full keeps its first
  levels and claims its frontier.
* ``REF + k`` (4 and up): the position is kept position ``k`` (up to the board's symmetries), whose
  proof is complete: a transposition or a symmetric position, proven once.

Numbers are unsigned LEB128 varints; a text is its length in bytes, then UTF-8. The header names the
game, its options, the board and its fingerprint, the root position, the value for the side to move,
the winner and its first move, and the counts of each kind of record (:data:`COUNT_FIELDS`).
"""

from __future__ import annotations

import json
import lzma
from pathlib import Path
from typing import Any, BinaryIO, Iterator

from powertwo.boards.outfile import write_bytes

FORMAT = "powertwo-proof/1"
"""The ``certificate`` field of every header: the format's name and version."""
LEAF, NODE, KEPT, CLAIM, REF = 0, 1, 2, 3, 4
HEADER_LIMIT = 1 << 20
"""The longest header a reader accepts (bytes)."""
COUNT_FIELDS = ("positions", "winner_nodes", "defender_nodes", "leaves", "claims", "references", "kept")
"""The counts a header carries: positions (records that are not references), winner nodes (one move
each), defender nodes (every defence), leaves, claims, references and kept positions."""
READ_CHUNK = 1 << 16


class ProofFormatError(ValueError):
    """A certificate cannot be read (not one, a bad header, a body cut short)."""


def is_certificate(path: str | Path) -> bool:
    """Whether the file opens like a certificate (its header's first field names :data:`FORMAT`)."""
    try:
        with open(path, "rb") as handle:
            start = handle.read(64)
    except OSError:
        return False
    return start.replace(b" ", b"").startswith(b'{"certificate":"' + FORMAT.encode())


def write_varint(out: bytearray, value: int) -> None:
    if value < 0:
        raise ValueError(f"a varint is never negative, not {value}")
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)


def write_text(out: bytearray, text: str) -> None:
    data = text.encode("utf-8")
    write_varint(out, len(data))
    out += data


def write_certificate(path: str | Path, header: dict[str, Any], body: bytes) -> int:
    """Write the header (``certificate`` first) and the xz-compressed ``body``; the file's size."""
    head = {"certificate": FORMAT, **{k: v for k, v in header.items() if k != "certificate"}}
    packed = lzma.compress(body, preset=9 | lzma.PRESET_EXTREME)
    data = json.dumps(head, separators=(",", ":")).encode("utf-8") + b"\n" + packed
    write_bytes(path, data)  # whole or not at all
    return len(data)


def read_header(handle: BinaryIO, where: str) -> dict[str, Any]:
    line = handle.readline(HEADER_LIMIT + 1)
    if len(line) > HEADER_LIMIT or not line.endswith(b"\n"):
        raise ProofFormatError(f"{where}: no certificate header (one line of JSON) at the start")
    try:
        header = json.loads(line)
    except ValueError:
        raise ProofFormatError(f"{where}: the certificate header is not valid JSON") from None
    if not isinstance(header, dict) or header.get("certificate") != FORMAT:
        raise ProofFormatError(f"{where}: not a {FORMAT} certificate (field 'certificate')")
    return header


class BodyReader:
    """The body's numbers and texts, read from the xz stream in chunks (the body is never held whole)."""

    def __init__(self, handle: BinaryIO, where: str):
        self.where = where
        self.chunks = self._chunks(handle)
        self.buffer = b""
        self.at = 0
        self.read_bytes = 0

    def _chunks(self, handle: BinaryIO) -> Iterator[bytes]:
        unpack = lzma.LZMADecompressor()
        try:
            while not unpack.eof:
                raw = handle.read(READ_CHUNK)
                if not raw:
                    raise ProofFormatError(f"{self.where}: the compressed body is cut short")
                yield unpack.decompress(raw)
            if unpack.unused_data or handle.read(1):
                raise ProofFormatError(f"{self.where}: data after the end of the compressed body")
        except lzma.LZMAError:
            raise ProofFormatError(f"{self.where}: the body is not a valid xz stream") from None

    def _byte(self) -> int:
        while self.at >= len(self.buffer):
            chunk = next(self.chunks, None)
            if chunk is None:
                raise ProofFormatError(f"{self.where}: the body ends in the middle of the proof")
            self.buffer, self.at = chunk, 0
        self.at += 1
        self.read_bytes += 1
        return self.buffer[self.at - 1]

    def varint(self) -> int:
        value, shift = 0, 0
        while True:
            byte = self._byte()
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7
            if shift > 63:
                raise ProofFormatError(f"{self.where}: a number in the body is too long")

    def text(self, limit: int = 4096) -> str:
        size = self.varint()
        if size > limit:
            raise ProofFormatError(f"{self.where}: a move text of {size} bytes")
        data = bytes(self._byte() for _ in range(size))
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise ProofFormatError(f"{self.where}: a move text is not UTF-8") from None

    def at_end(self) -> bool:
        """Whether the body holds nothing more."""
        while self.at >= len(self.buffer):
            chunk = next(self.chunks, None)
            if chunk is None:
                return True
            self.buffer, self.at = chunk, 0
        return False


def skip_record(reader: BodyReader, defender_next: bool) -> None:
    """Read past one record and everything below it (``defender_next``: the defender moves at its
    position; the turn alternates with every move)."""
    todo = [defender_next]
    while todo:
        defender = todo.pop()
        tag = reader.varint()
        if tag not in (NODE, KEPT):
            continue
        if defender:
            todo.extend([False] * reader.varint())
        else:
            reader.text()
            todo.append(True)


__all__ = ["FORMAT", "LEAF", "NODE", "KEPT", "CLAIM", "REF", "COUNT_FIELDS", "ProofFormatError", "is_certificate",
           "write_varint", "write_text", "write_certificate", "read_header", "BodyReader",
           "skip_record"]
