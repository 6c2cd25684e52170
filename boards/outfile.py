"""The one safe writer: every file the toolkit writes (answers, proofs, certificates, diagrams,
boards, census tables and plots, the results job's index and timings) goes through
:func:`atomic_path`, :func:`write_text` or :func:`write_bytes`.

Safe means: the content goes to a temporary file in the same folder (so the rename cannot cross
file systems), is flushed to disk, and only then renamed onto the target in one step
(:func:`os.replace`). An interrupted write (Ctrl-C, a full disk, a crash in a drawing library)
removes the temporary file and leaves the target as it was: the old file whole, or no file;
never a partial or empty one. The temporary name starts with a dot and keeps the target's
suffix (``.good.png.3f9a.part.png``), so a library that picks its format by the file's
extension writes the right one.
"""

from __future__ import annotations

import os
import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def _temporary(path: Path) -> Path:
    """A fresh file beside ``path`` (created empty, with the permissions a new file gets)."""
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.part{path.suffix}")
        try:
            fd = os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
        except FileExistsError:
            continue
        os.close(fd)
        return tmp
    raise FileExistsError(f"{path}: no free temporary name beside it")  # pragma: no cover - 100 collisions


def _flush(tmp: Path) -> None:
    """The file's content on disk before the rename (a crash after it leaves the new file whole)."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; when the block ends normally it is renamed
    onto ``path``; when the block raises (``KeyboardInterrupt`` included) it is removed and
    ``path`` is left as it was.

    >>> with atomic_path("out.png") as tmp:  # doctest: +SKIP
    ...     figure.savefig(tmp, format="png")
    """
    target = Path(path)
    tmp = _temporary(target)
    try:
        yield tmp
        _flush(tmp)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_bytes(path: str | Path, data: bytes) -> Path:
    """``data`` written to ``path`` whole or not at all (see :func:`atomic_path`)."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def write_text(path: str | Path, text: str) -> Path:
    """``text`` written to ``path`` as UTF-8, whole or not at all (see :func:`atomic_path`)."""
    return write_bytes(path, text.encode("utf-8"))


__all__ = ["atomic_path", "write_bytes", "write_text"]
