"""The store of the job runner (:mod:`.jobs`): one SQLite file, one row per job (a position key up to
symmetry) with its value, the winning move, the search's figures and, for a proven job, its
certificate; a second run over the same store resumes where the first stopped.

The ``meta`` table names what the store is about (game, options, board fingerprint, symmetry, the
split's root); a store of another split is refused. A job is done when its row holds a decision
(``won``, ``lost``, ``neither``) or an ``unknown`` found with at least the time limit now asked
for; every other job is run again. Rows are written as each job comes back (one transaction
each), so an interrupted run loses only the jobs in flight.
"""

from __future__ import annotations

import json
import lzma
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from .dfpn import ProveError
from .values import Value

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
    key TEXT PRIMARY KEY,
    position TEXT NOT NULL,
    value TEXT NOT NULL,
    move TEXT,
    time_limit REAL,
    seconds REAL NOT NULL,
    expanded INTEGER NOT NULL,
    figures TEXT NOT NULL,
    proof TEXT,
    header TEXT,
    body BLOB
);
"""
DECIDED = frozenset({Value.WON.value, Value.LOST.value, Value.NEITHER.value})


@dataclass(frozen=True)
class JobRow:
    """One job's result: its key and position (JSON), the value for the side to move, the first move
    of its proof (the side to move wins), the time limit it ran under (``None``: none), its seconds
    and positions expanded, the search's figures and the proof's size (JSON objects), and its
    certificate (header and uncompressed body) when proven."""

    key: str
    position: Mapping[str, Any]
    value: str
    move: str | None
    time_limit: float | None
    seconds: float
    expanded: int
    figures: Mapping[str, Any]
    proof: Mapping[str, Any] | None = None
    header: Mapping[str, Any] | None = None
    body: bytes | None = None

    def settled(self, time_limit: float | None) -> bool:
        """Whether a run asking for ``time_limit`` seconds a job would learn nothing new from it."""
        if self.value in DECIDED:
            return True
        if self.time_limit is None:
            return True
        return time_limit is not None and self.time_limit >= time_limit


class JobStore:
    """The SQLite store (see the module text); ``None`` as the path keeps it in memory."""

    def __init__(self, path: str | Path | None, about: Mapping[str, Any]):
        self.path = None if path is None else Path(path)
        where = ":memory:" if self.path is None else str(self.path)
        try:
            self.db = sqlite3.connect(where)
            self.db.executescript(SCHEMA)
            stored = dict(self.db.execute("SELECT name, value FROM meta"))
        except sqlite3.DatabaseError as exc:
            raise ProveError(f"{where}: not a job store of powertwo prove ({exc})") from None
        wanted = {name: json.dumps(value, sort_keys=True) for name, value in about.items()}
        if stored and stored != wanted:
            differ = sorted(n for n in wanted.keys() | stored.keys() if stored.get(n) != wanted.get(n))
            raise ProveError(f"{where}: holds the jobs of another split ({', '.join(differ)} differ)")
        if not stored:
            with self.db:
                self.db.executemany("INSERT INTO meta VALUES (?, ?)", wanted.items())

    def rows(self) -> Iterator[JobRow]:
        for r in self.db.execute("SELECT key, position, value, move, time_limit, seconds, expanded, figures, "
                                 "proof, header, body FROM jobs"):
            yield JobRow(key=r[0], position=json.loads(r[1]), value=r[2], move=r[3], time_limit=r[4], seconds=r[5],
                         expanded=r[6], figures=json.loads(r[7]), proof=None if r[8] is None else json.loads(r[8]),
                         header=None if r[9] is None else json.loads(r[9]),
                         body=None if r[10] is None else lzma.decompress(r[10]))

    def put(self, row: JobRow) -> None:
        body = None if row.body is None else lzma.compress(row.body)
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO jobs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                            (row.key, json.dumps(row.position), row.value, row.move, row.time_limit, row.seconds,
                             row.expanded, json.dumps(row.figures),
                             None if row.proof is None else json.dumps(row.proof),
                             None if row.header is None else json.dumps(row.header), body))

    def close(self) -> None:
        self.db.close()


__all__ = ["JobStore", "JobRow", "DECIDED"]
