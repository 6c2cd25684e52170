"""Loading and saving boards as JSON; the boards shipped in ``boards/data/``.

A board file is one JSON object with a ``name`` and exactly one of:

* ``"segments"``: ``[[[x1, y1], [x2, y2]], ...]`` (integers or ``"p/q"`` strings);
  nodes and lines are computed (:func:`powertwo.boards.build.from_segments`). With
  ``"symmetry": "square"`` each listed segment stands for its orbit under the 8 symmetries of
  the square about the origin (:func:`powertwo.boards.build.orbit_segments`). With
  ``"cell_names": {"columns": "abcdefghijklm", "first": [-6, 6]}`` the nodes are named and
  numbered by the whole cell nearest each (:func:`powertwo.boards.build.name_by_cells`).
* ``"grids"``: square grids (:func:`powertwo.boards.build.from_grids`), with optional
  ``"link_grids"``.
* ``"nodes"`` and ``"lines"``: the explicit form written by :func:`save`:
  ``"nodes": {"1": ["-4", "4"], ...}``, ``"lines": [[1, 2, 3], ...]``, optional
  ``"labels"``, ``"links"`` and ``"cells"`` (nodes drawn as squares).

Optional in all: ``"description"`` and ``"starts"``: ``{"standard": {"light":
[...], "dark": [...]}}`` (node ids, or labels on labelled boards).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any, Callable

from .board import MAX_NODES, Board, BoardError, NodeError, Starts, format_fraction, read_node
from .jsonfile import loads, read_json
from .outfile import write_text
from .build import SYMMETRIES, from_grids, from_segments, name_by_cells, orbit_segments, parse_point, parse_segments

DATA_PACKAGE = "powertwo.boards.data"


def shipped() -> tuple[str, ...]:
    """Names of the boards shipped with the package."""
    return tuple(sorted(p.name[:-5] for p in resources.files(DATA_PACKAGE).iterdir() if p.name.endswith(".json")))


_CACHE: dict[str, Board] = {}


def load(name_or_path: str | Path, progress: Callable[[str], None] | None = None) -> Board:
    """A shipped board by name (``power-of-two``), or a board file by path (``progress`` hears
    how far a long build from segments is)."""
    key = str(name_or_path)
    if key in _CACHE:
        return _CACHE[key]
    if key in shipped():
        text = resources.files(DATA_PACKAGE).joinpath(key + ".json").read_text(encoding="utf-8")
        board = from_json(text, where=key)
        _CACHE[key] = board
        return board
    path = Path(key)
    try:
        exists = path.exists()
    except OSError as exc:  # a name too long for a file, say
        raise BoardError(f"no board named '{key[:40]}' and no such file ({exc.strerror})") from None
    if not exists:
        raise BoardError(f"no board named {key!r} (shipped: {', '.join(shipped())}) and no such file")
    return from_dict(read_json(path, BoardError, what="board file"), str(path), progress)


def shipped_with(fingerprint: str) -> str | None:
    """The name of the shipped board with this :attr:`Board.fingerprint`, if any (the board an answer
    file or record was made for, named when it is checked against another)."""
    return next((name for name in shipped() if load(name).fingerprint == fingerprint), None)


RENAMED = "power-of-two"
"""The shipped name whose board changed: it meant today's ``power-of-two-sketch`` before the
real board was inferred (RULES.md §1), so files made then name it without being made for it."""


def kin(board: Board) -> tuple[Board, ...]:
    """The other shipped boards of ``board``'s kind: as many nodes and the same named starts (the
    three Power of Two boards are one kind; Tower of Power's 64 squares are not of it), ``board``
    itself (by fingerprint) left out."""
    return tuple(other for other in map(load, shipped())
                 if other.fingerprint != board.fingerprint and len(other.nodes) == len(board.nodes)
                 and other.start_names == board.start_names)


def valid_elsewhere(board: Board, valid_on: Callable[[Board], bool],
                    fault: str = "") -> tuple[Board, str] | None:
    """For a file without a board fingerprint that is not valid on ``board``: the first other
    shipped board of its kind (:func:`kin`) on which ``valid_on`` holds, and the words that say so
    (``not valid on power-of-two; valid on power-of-two-sketch (made before the default board
    changed?)``, with ``fault``, the first fault on ``board``, in brackets after its name when
    given); ``None`` when there is none. Only the boards of its kind are tried, and only after a
    failure, so a valid file costs nothing more."""
    other = next((b for b in kin(board) if valid_on(b)), None)
    if other is None:
        return None
    why = " (made before the default board changed?)" if board.name == RENAMED else ""
    detail = f" ({fault})" if fault else ""
    return other, f"not valid on {board.name}{detail}; valid on {other.name}{why}"


def from_json(text: str, where: str = "board") -> Board:
    return from_dict(loads(text, where, BoardError), where)


def _resolve_starts(raw: Any, board: Board, where: str) -> Starts:
    """The ``starts`` field: each start's sides and their nodes (ids or labels, read by :func:`read_node`)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise BoardError(f"{where}: field 'starts' must be an object")
    out = []
    for name, sides in raw.items():
        if not isinstance(sides, dict):
            raise BoardError(f"{where}: start {name!r} must map sides to node lists")
        entry = []
        for side, nodes in sides.items():
            if not isinstance(nodes, list):
                raise BoardError(f"{where}: start {name!r} side {side!r} must be a list of nodes")
            ids = []
            for v in nodes:
                try:
                    ids.append(read_node(board, v, where))
                except NodeError:
                    raise BoardError(f"{where}: start {name!r} side {side!r}: node {v!r} does not exist") from None
            entry.append((str(side), tuple(ids)))
        out.append((str(name), tuple(entry)))
    return tuple(out)


def from_dict(raw: Any, where: str = "board", progress: Callable[[str], None] | None = None) -> Board:
    """A board from its parsed JSON object; every problem raises :class:`BoardError` naming the field."""
    if not isinstance(raw, dict):
        raise BoardError(f"{where}: a board file must hold a JSON object")
    name = raw.get("name", "custom")
    if not isinstance(name, str) or not name:
        raise BoardError(f"{where}: field 'name' must be a non-empty string")
    description = raw.get("description", "")
    kinds = [k for k in ("segments", "grids", "nodes") if k in raw]
    if len(kinds) != 1:
        raise BoardError(f"{where}: needs exactly one of the fields 'segments', 'grids' or 'nodes' (with 'lines')")
    kind = kinds[0]
    if kind == "segments":
        segments = parse_segments(raw["segments"], f"{where}: segments")
        if "symmetry" in raw:
            if raw["symmetry"] not in SYMMETRIES:
                raise BoardError(f"{where}: field 'symmetry' must be one of {', '.join(SYMMETRIES)}")
            segments = orbit_segments(segments, raw["symmetry"])
        if progress is not None:
            progress(f"nodes and lines from {len(segments):,} segments")
        board = from_segments(segments, name, description=description, progress=progress)
        if "cell_names" in raw:
            board = name_by_cells(board, *_cell_names(raw["cell_names"], where))
    elif kind == "grids":
        grids = raw["grids"]
        if not isinstance(grids, list) or not grids or not all(isinstance(g, dict) for g in grids):
            raise BoardError(f"{where}: field 'grids' must be a non-empty list of objects")
        board = from_grids(grids, name, link_grids=raw.get("link_grids"), description=description)
    else:
        board = _explicit(raw, name, description, where)
    starts = _resolve_starts(raw.get("starts"), board, where)
    return Board(name=board.name, coords=board.coords, lines=board.lines, labels=board.labels,
                 links=board.links, starts=starts, cells=board.cells, description=board.description)


def _cell_names(raw: Any, where: str) -> tuple[str, Any]:
    """The ``cell_names`` field: ``{"columns": "abc...", "first": [x, y]}``."""
    if not isinstance(raw, dict) or set(raw) != {"columns", "first"}:
        raise BoardError(f"{where}: field 'cell_names' must be an object with 'columns' and 'first'")
    columns = raw["columns"]
    if not isinstance(columns, str) or not columns.isalpha() or len(set(columns)) != len(columns):
        raise BoardError(f"{where}: cell_names.columns must be a string of distinct letters")
    return columns, parse_point(raw["first"], f"{where}: cell_names.first")


def _explicit(raw: dict[str, Any], name: str, description: str, where: str) -> Board:
    nodes = raw["nodes"]
    if not isinstance(nodes, dict) or not nodes:
        raise BoardError(f"{where}: field 'nodes' must be a non-empty object {{id: [x, y]}}")
    size = len(nodes)
    if size > MAX_NODES:
        raise BoardError(f"{where}: {size:,} nodes, more than the {MAX_NODES:,} a board may have")
    coords = []
    for i in range(1, size + 1):
        if str(i) not in nodes:
            raise BoardError(f"{where}: field 'nodes' must have the ids 1..{size}; {i} is missing")
        coords.append(parse_point(nodes[str(i)], f"{where}: node {i}"))
    if len(set(coords)) != size:
        raise BoardError(f"{where}: two nodes share a position")
    if "lines" not in raw or not isinstance(raw["lines"], list):
        raise BoardError(f"{where}: field 'lines' must be a list of node-id lists")
    lines = []
    for k, line in enumerate(raw["lines"]):
        if not isinstance(line, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in line):
            raise BoardError(f"{where}: lines[{k}] must be a list of node ids")
        lines.append(tuple(line))
    labels = raw.get("labels")
    if labels is not None:
        if not isinstance(labels, dict):
            raise BoardError(f"{where}: field 'labels' must be an object {{id: label}}")
        labels = tuple(str(labels.get(str(i), i)) for i in range(1, size + 1))
    links = raw.get("links", [])
    if not isinstance(links, list) or not all(isinstance(p, list) and len(p) == 2 for p in links):
        raise BoardError(f"{where}: field 'links' must be a list of node-id pairs")
    cells = raw.get("cells", [])
    if not isinstance(cells, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in cells):
        raise BoardError(f"{where}: field 'cells' must be a list of node ids")
    return Board(name=name, coords=tuple(coords), lines=tuple(lines), labels=labels or (),
                 links=tuple(tuple(p) for p in links), cells=tuple(cells), description=description)


def to_dict(board: Board) -> dict[str, Any]:
    """The explicit JSON form of a board (what ``powertwo board build`` writes)."""
    out: dict[str, Any] = {"name": board.name}
    if board.description:
        out["description"] = board.description
    out["nodes"] = {str(v): [format_fraction(x), format_fraction(y)]
                    for v, (x, y) in zip(board.nodes, board.coords, strict=True)}
    if board.labels != tuple(str(v) for v in board.nodes):
        out["labels"] = {str(v): board.label(v) for v in board.nodes}
    out["lines"] = [list(line) for line in board.lines]
    if board.links:
        out["links"] = [list(p) for p in board.links]
    if board.cells:
        out["cells"] = list(board.cells)
    if board.starts:
        out["starts"] = {k: {side: list(ns) for side, ns in v} for k, v in board.starts}
    return out


def to_json(board: Board) -> str:
    """:func:`to_dict` as text, one node and one line per row."""
    rows = []
    for key, value in to_dict(board).items():
        if key == "nodes":
            inner = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
            rows.append(f' "nodes": {{\n{inner}\n }}')
        elif key == "lines":
            inner = ",\n".join(f"  {json.dumps(line)}" for line in value)
            rows.append(f' "lines": [\n{inner}\n ]')
        else:
            rows.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(rows) + "\n}\n"


def save(board: Board, path: str | Path) -> None:
    """The board's explicit form written to ``path`` (whole or not at all)."""
    write_text(path, to_json(board))
