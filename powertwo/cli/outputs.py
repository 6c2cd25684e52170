"""What the commands that write files share beyond :func:`.common.output_path`: answer files that
never get worse, output folders, and the suffixes of diagrams.

Every file goes through the one safe writer (:mod:`powertwo.boards.outfile`): whole or not at
all. On top of that, an answer file never loses a proof: a run that ends without one (a time
limit, Ctrl-C) does not replace a file that holds a proven answer, even with ``--force``; its
answer goes beside it, and the command says where.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from powertwo.boards.outfile import write_text

from .common import OutputError, output_path
from powertwo.solvers.status import PROVEN

DIAGRAM_SUFFIXES = (".svg", ".png")


def proven_status(path: Path) -> str | None:
    """The status of the answer file at ``path`` when it is a proven one; None for anything
    else (no file, another kind of file, an unproven answer)."""
    from powertwo.boards.jsonfile import read_json

    try:
        data = read_json(path)
    except ValueError:
        return None
    status = data.get("status") if isinstance(data, dict) else None
    return status if status in PROVEN else None


def beside(path: Path, word: str) -> Path:
    """A free file name beside ``path``: ``good.feasible.json``, then ``good.feasible-2.json``, ..."""
    word = "".join(c if c.isalnum() or c in "-_" else "-" for c in word) or "new"
    candidate = path.with_name(f"{path.stem}.{word}{path.suffix}")
    k = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.stem}.{word}-{k}{path.suffix}")
        k += 1
    return candidate


def write_answer(path: str | Path, result: Any, text: str) -> tuple[Path, str | None]:
    """``text`` (the JSON of ``result``, an answer) written to ``path``, unless ``path`` holds a
    proven answer and ``result`` is not one: then the old file is kept, ``text`` goes to a free
    name beside it, and the second value is the sentence that says so (None otherwise)."""
    target = Path(path)
    status = result.get("status") if isinstance(result, dict) else None
    old = None if status in PROVEN or not target.exists() else proven_status(target)
    if old is None:
        return write_text(target, text), None
    stopped = result.get("stopped") if isinstance(result, dict) else None
    new = beside(target, str(status or "unproven"))
    write_text(new, text)
    why = f" ({stopped})" if stopped else ""
    return new, (f"{target}: holds a proven answer (status {old}), kept; this run's {status or 'unproven'} "
                 f"answer{why} went to {new}")


def output_folder(path: str | Path, force: bool) -> Path:
    """A folder a command writes many files into: refused when it is a file, or when it already
    holds files and ``force`` is false (they would be replaced)."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: is a file, give a folder to write into")
    if not force and folder.is_dir() and any(folder.iterdir()):
        raise OutputError(f"{folder}: is not empty, not overwritten (give --force to replace what the job "
                          "writes there)")
    return folder


def check_outputs(outputs: dict[str, str | None], force: bool, inputs: Iterable[str | Path | None]) -> None:
    """Refuse, before any work, outputs (option -> file, None when not given) that would
    overwrite a file without ``force``, one of ``inputs``, or each other (``--proof X --out X``)."""
    given = [(option, path) for option, path in outputs.items() if path is not None]
    for k, (option, path) in enumerate(given):
        for other, again in given[k + 1:]:
            if Path(path).resolve() == Path(again).resolve():
                raise OutputError(f"{path}: given to both {option} and {other}, give two files")
    for _, path in given:
        output_path(path, force, inputs)


def diagram_suffix(path: str | Path, option: str) -> None:
    """A diagram's file must end in .svg or .png (checked before any work)."""
    if Path(path).suffix.lower() not in DIAGRAM_SUFFIXES:
        raise OutputError(f"{option} {path}: the output must end in .svg or .png")


__all__ = ["PROVEN", "beside", "check_outputs", "diagram_suffix", "output_folder", "proven_status", "write_answer"]
