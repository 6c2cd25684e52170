"""A folder of census levels that a later run resumes from: ``census.json`` holds which census it
is (board, start, target), each counted level's figures and, per level stored, a hash (BLAKE2b) of
its stored data and its figures. A resumed run recomputes the hash of every level from its files
and its figures and refuses a folder whose files or figures were changed."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

from .counts import Level
from .tables import CensusError, CensusTables

STATE = "census.json"
BLOCK = 1 << 24


def census_key(tables: CensusTables) -> dict:
    return {"board": tables.board.fingerprint, "start": tables.start, "target": tables.target}


def file_digest(paths: Iterable[Path]) -> "hashlib.blake2b":
    """A running BLAKE2b over the bytes of ``paths`` in order."""
    h = hashlib.blake2b(digest_size=20)
    for path in paths:
        with open(path, "rb") as f:
            while block := f.read(BLOCK):
                h.update(block)
    return h


def level_digest(data: str, figures: Level | None) -> str:
    """The hash of a level: its data's hash and its figures (when counted)."""
    h = hashlib.blake2b(data.encode(), digest_size=20)
    if figures is not None:
        h.update(json.dumps(asdict(figures) | {"seconds": 0, "memory_bytes": 0}, sort_keys=True).encode())
    return h.hexdigest()


@dataclass
class LevelState:
    """The state of a folder: the census it holds, each counted level's figures, the sequences to
    the target per level, and each stored level's data hash (``data``) and full hash (``digests``:
    data and figures)."""

    folder: Path
    key: dict
    levels: list[Level] = field(default_factory=list)
    targets: list[int] = field(default_factory=list)
    data: list[str] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)

    @property
    def path(self) -> Path:
        return self.folder / STATE

    def stored(self, k: int, data: str) -> None:
        """Level ``k`` written, with the hash of its data."""
        del self.data[k:], self.digests[k:]
        self.data.append(data)
        self.digests.append(level_digest(data, None))

    def counted(self, k: int, figures: Level, on_target: int) -> None:
        """Level ``k``'s figures counted."""
        del self.levels[k:], self.targets[k:]
        self.levels.append(figures)
        self.targets.append(on_target)
        self.digests[k] = level_digest(self.data[k], figures)

    def save(self) -> None:
        body = {"census": self.key, "levels": [asdict(lv) for lv in self.levels], "targets": self.targets,
                "data": self.data, "digests": self.digests}
        part = self.path.with_suffix(".part")
        part.write_text(json.dumps(body), encoding="utf-8")
        os.replace(part, self.path)


def read_state(folder: Path, tables: CensusTables) -> LevelState:
    """The folder's state, or a fresh one; a :class:`CensusError` for a folder of another census or
    a state that does not parse."""
    key = census_key(tables)
    state = LevelState(folder, key)
    if not state.path.is_file():
        return state
    try:
        old = json.loads(state.path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise CensusError(f"{state.path}: not a census state this version wrote ({exc})") from None
    if not isinstance(old, dict) or old.get("census") != key:
        raise CensusError(f"{folder}: holds the levels of another census (board, start or target differ)")
    try:
        state.levels = [Level(**lv) for lv in old["levels"]]
        state.targets = [int(t) for t in old["targets"]]
        state.data = [str(d) for d in old["data"]]
        state.digests = [str(d) for d in old["digests"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise CensusError(f"{state.path}: not a census state this version wrote ({exc})") from None
    if len(state.targets) != len(state.levels) or len(state.digests) != len(state.data) \
            or len(state.levels) > len(state.data):
        raise CensusError(f"{state.path}: its levels, targets and hashes do not match in number")
    return state


def check_levels(state: LevelState, files_of) -> None:
    """Every stored level's hash recomputed from ``files_of(k)`` and its figures: a
    :class:`CensusError` naming the first level whose files or figures differ."""
    for k, (data, digest) in enumerate(zip(state.data, state.digests, strict=True)):
        paths = files_of(k)
        missing = [p for p in paths if not Path(p).is_file()]
        if missing:
            raise CensusError(f"{state.folder}: level {k} is missing ({missing[0]}); remove the folder to start over")
        found = file_digest(paths).hexdigest()
        figures = state.levels[k] if k < len(state.levels) else None
        if found != data or level_digest(data, figures) != digest:
            what = "its stored positions" if found != data else "its figures in census.json"
            raise CensusError(f"{state.folder}: level {k} does not match its hash ({what} changed since it was "
                              "written); remove the folder to start over")
