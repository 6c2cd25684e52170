"""Board diagrams with matplotlib (SVG and PNG).

Drawing reads a board and a description of what stands on it (the values of
:mod:`powertwo.boards.diagram`); it never changes a state. Nodes labelled like squares
(``a1``) are drawn as the cells of a chequered board; other nodes are drawn as points on
their lines. Every diagram carries a legend of what it draws.

Import this module only when drawing: nothing in ``rules`` or ``models`` needs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "powertwo"  # stable ids in SVG output
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Circle, FancyArrowPatch, Patch, Rectangle  # noqa: E402

from .board import Board, LineId, NodeId  # noqa: E402
from .diagram import (  # noqa: E402
    ARROW, BARE, DEFAULT_LEGEND, LEGEND_KEYS, NODE_NAMES, OVERLAY_FIELDS, Arrow, LineMark, Overlay, Stone,
)
from .outfile import atomic_path  # noqa: E402

LIGHT_FILL, LIGHT_EDGE = "#f4e6c8", "#7a5a22"
DARK_FILL, DARK_EDGE = "#3b2a1a", "#000000"
ENERGY_FILL, ENERGY_EDGE = "#f2c14e", "#9c6b00"  # Netzwerk's neutral energy stones (drawn smaller)
HIGHLIGHT = "#d1495b"
LAST_MOVE = "#1f77b4"
LINE_STYLE = {  # kind: (colour, line style)
    "highlight": (HIGHLIGHT, "-"),
    "too many": ("#7b2cbf", "-"),
    "too few": ("#f08c00", "--"),
    "none": ("#6c757d", ":"),
}

__all__ = ["Arrow", "LineMark", "Overlay", "Stone", "board_diagram", "cell_nodes", "draw_on", "figure", "panels",
           "save"]


def cell_nodes(board: Board) -> frozenset[NodeId]:
    """Nodes drawn as squares: the board's grid cells (:attr:`Board.cells`)."""
    return frozenset(board.cells)


def _extent(board: Board) -> tuple[float, float, float, float]:
    xs = [float(x) for x, _ in board.coords]
    ys = [float(y) for _, y in board.coords]
    return min(xs), max(xs), min(ys), max(ys)


def _unit(board: Board) -> float:
    """The shortest segment length: the scale for stone and font sizes."""
    best = None
    for a, b in board.edges:
        (x1, y1), (x2, y2) = board.coord(a), board.coord(b)
        d = (float(x1 - x2) ** 2 + float(y1 - y2) ** 2) ** 0.5
        best = d if best is None else min(best, d)
    return best or 1.0


def draw_on(ax: Axes, board: Board, over: Overlay = BARE, *, names: str | None = None, title: str = "",
            small: bool = False, legend: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """Draw ``board`` on the matplotlib axes ``ax``, and ``over`` it its stones, marked lines,
    arrows and ringed nodes (:class:`~powertwo.boards.diagram.Overlay`).

    ``names`` writes every node's
    name: ``"labels"`` its label (``a13``), ``"ids"`` its number (``60``), None nothing.
    Returns the legend entries of what was drawn, ``(key, text)`` in the
    order of :data:`~powertwo.boards.diagram.LEGEND_KEYS`, worded by ``legend`` where it has the key.
    """
    if names is not None and names not in NODE_NAMES:
        raise ValueError(f"node names {names!r}: write one of {', '.join(NODE_NAMES)}")
    scale = _Scale(_unit(board), small)
    cells = cell_nodes(board)
    _draw_cells(ax, board, cells)
    drawn = _draw_lines(ax, board, _line_kinds(board, over.highlight, over.lines), cells, scale)
    drawn |= _draw_nodes(ax, board, cells, over.marks, over.last, scale)
    drawn |= _draw_stones(ax, board, list(over.stones), scale)
    drawn |= _draw_arrows(ax, board, over.arrows, scale)
    if names is not None:
        _draw_names(ax, board, names, {s.node for s in over.stones}, cells, scale)
        drawn.add(names)
    x0, x1, y0, y1 = _extent(board)
    pad = 0.6 if cells else 0.45 * scale.unit + 0.2
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_ylim(y0 - pad, y1 + pad)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=scale.font + 3 if not small else scale.font + 1)
    words = dict(DEFAULT_LEGEND, **(legend or {}))
    return [(key, words[key]) for key in LEGEND_KEYS if key in drawn]


@dataclass(frozen=True)
class _Scale:
    """The sizes of one drawing: ``unit`` the board's node spacing, ``small`` a panel's."""

    unit: float
    small: bool

    @property
    def radius(self) -> float:
        return 0.28 * self.unit

    @property
    def font(self) -> float:
        return 5.5 if self.small else 7.5


def _xy(board: Board, v: NodeId) -> tuple[float, float]:
    x, y = board.coord(v)
    return float(x), float(y)


def _draw_cells(ax: Axes, board: Board, cells: frozenset[NodeId]) -> None:
    """The chequered cell under each node of a cell board."""
    for v in sorted(cells):
        x, y = _xy(board, v)
        f, r = ord(board.label(v)[0]) - 97, int(board.label(v)[1:]) - 1
        shade = "#d9c7a3" if (f + r) % 2 == 0 else "#f3ead7"
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=shade, edgecolor="#a08c66", lw=0.4, zorder=0))


def _line_kinds(board: Board, highlight: Iterable[LineId], lines: Iterable[LineMark]) -> dict[LineId, str]:
    """The kind each marked line is drawn as (``highlight`` first, then each :class:`LineMark`)."""
    kind_of: dict[LineId, str] = {}
    for k in highlight:
        if not 0 <= k < len(board.lines):
            raise ValueError(f"highlight: line {k} does not exist on board {board.name}")
        kind_of[k] = "highlight"
    for mark in lines:
        if not 0 <= mark.line < len(board.lines):
            raise ValueError(f"lines: line {mark.line} does not exist on board {board.name}")
        kind_of[mark.line] = mark.kind
    return kind_of


def _draw_lines(ax: Axes, board: Board, kind_of: Mapping[LineId, str], cells: frozenset[NodeId],
                scale: _Scale) -> set[str]:
    """Every line (a cell board's unmarked lines are its cells' order, not drawn); marked ones in their style."""
    drawn = set()
    for k, line in enumerate(board.lines):
        kind = kind_of.get(k)
        if kind is None and any(v in cells for v in line):
            continue
        xs = [float(board.coord(v)[0]) for v in line]
        ys = [float(board.coord(v)[1]) for v in line]
        if kind is not None:
            color, style = LINE_STYLE[kind]
            ax.plot(xs, ys, color=color, ls=style, lw=3.2 if not scale.small else 2.0, alpha=0.8, zorder=1,
                    solid_capstyle="round")
            drawn.add(kind)
        else:
            ax.plot(xs, ys, color="#5b4a33", lw=1.1 if not scale.small else 0.7, zorder=1)
    return drawn


def _draw_nodes(ax: Axes, board: Board, cells: frozenset[NodeId], marks: Iterable[NodeId], last: Iterable[NodeId],
                scale: _Scale) -> set[str]:
    """A dot on each node that is not a cell, a dashed red ring on each mark, a blue ring on each last node."""
    drawn = set()
    for v in board.nodes:
        if v not in cells:
            ax.add_patch(Circle(_xy(board, v), 0.07 * scale.unit, color="#5b4a33", zorder=2))
    for v in marks:
        ax.add_patch(Circle(_xy(board, v), scale.radius * 1.15, fill=False, edgecolor=HIGHLIGHT, lw=1.6, ls="--",
                            zorder=3))
        drawn.add("ring")
    for v in last:
        ax.add_patch(Circle(_xy(board, v), scale.radius * 1.3, fill=False, edgecolor=LAST_MOVE, lw=2.2, zorder=5))
        drawn.add("move")
    return drawn


def _draw_stones(ax: Axes, board: Board, stones: Sequence[Stone], scale: _Scale) -> set[str]:
    drawn = set()
    for s in stones:
        x, y = _xy(board, s.node)
        fill, edge = {"light": (LIGHT_FILL, LIGHT_EDGE), "energy": (ENERGY_FILL, ENERGY_EDGE)}.get(
            s.color, (DARK_FILL, DARK_EDGE))
        ax.add_patch(Circle((x, y), scale.radius * (0.6 if s.color == "energy" else 1), facecolor=fill,
                            edgecolor=edge, lw=1.3, hatch="////" if s.aged else None, ls="--" if s.aged else "-",
                            zorder=4))
        drawn.add(s.color if s.color in ("light", "energy") else "dark")
        if s.aged:
            drawn.add("aged")
        if s.text:
            ax.text(x, y, s.text, ha="center", va="center", fontsize=scale.font + 1, fontweight="bold", zorder=6,
                    color="#ffffff" if s.color == "dark" else "#000000")
            drawn.add("number")
    return drawn


def _draw_arrows(ax: Axes, board: Board, arrows: Iterable[Arrow], scale: _Scale) -> set[str]:
    """Each arrow leg by leg; a numbered arrow's legs carry their numbers a little off their middles."""
    drawn = set()
    for arrow in arrows:
        pts = [_xy(board, v) for v in arrow.path]
        for i, (p, q) in enumerate(zip(pts, pts[1:], strict=False), start=1):
            ax.add_patch(FancyArrowPatch(p, q, arrowstyle="-|>", mutation_scale=12 if not scale.small else 8,
                                         color=arrow.color, lw=2.0 if not scale.small else 1.3,
                                         shrinkA=4, shrinkB=4, zorder=7))
            if arrow.numbered:
                mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
                dx, dy = q[0] - p[0], q[1] - p[1]
                norm = max((dx * dx + dy * dy) ** 0.5, 1e-9)
                off = 0.22 * scale.unit
                ax.text(mx - dy / norm * off, my + dx / norm * off, str(i), ha="center", va="center",
                        fontsize=scale.font, fontstyle="italic", color=arrow.color, zorder=8,
                        bbox=dict(boxstyle="circle,pad=0.12", fc="white", ec=arrow.color, lw=0.6))
        drawn.add("arrow")
        if arrow.numbered and len(arrow.path) > 2:
            drawn.add("chain")
    return drawn


def _draw_names(ax: Axes, board: Board, names: str, stone_at: set[NodeId], cells: frozenset[NodeId],
                scale: _Scale) -> None:
    """Every node's name: in a cell's corner, or beside the node (further out beside a stone)."""
    name_of = board.label if names == "labels" else str
    for v in board.nodes:
        x, y = _xy(board, v)
        if v in cells:
            ax.text(x - 0.45, y + 0.45, name_of(v), fontsize=scale.font - 1, ha="left", va="top",
                    color="#6b5a3a", zorder=5)
            continue
        d = scale.radius * 0.9 if v in stone_at else 0.11 * scale.unit
        ax.text(x + d, y + d, name_of(v), fontsize=scale.font, ha="left", va="bottom", color="#1a1a1a",
                zorder=5, bbox=dict(boxstyle="round,pad=0.08", fc="white", ec="none", alpha=0.75))


def _handle(key: str) -> Any:
    """The legend's sample for one entry."""
    if key in LINE_STYLE:
        color, style = LINE_STYLE[key]
        return Line2D([], [], color=color, ls=style, lw=3)
    stone = {"light": (LIGHT_FILL, LIGHT_EDGE, None), "dark": (DARK_FILL, DARK_EDGE, None),
             "aged": (LIGHT_FILL, LIGHT_EDGE, "////"), "energy": (ENERGY_FILL, ENERGY_EDGE, None)}
    if key in stone:
        fill, edge, hatch = stone[key]
        return Line2D([], [], ls="", marker="o", markersize=9, markerfacecolor=fill, markeredgecolor=edge) \
            if hatch is None else Patch(facecolor=fill, edgecolor=edge, hatch=hatch, ls="--")
    if key == "ring":
        return Line2D([], [], ls="", marker="o", markersize=11, markerfacecolor="none", markeredgecolor=HIGHLIGHT)
    if key == "move":
        return Line2D([], [], ls="", marker="o", markersize=12, markerfacecolor="none", markeredgecolor=LAST_MOVE,
                      markeredgewidth=2)
    if key in ("arrow", "chain"):
        return Line2D([], [], color=ARROW, lw=2, marker=">", markevery=[1])
    return Line2D([], [], ls="")  # numbers and node names: the words say what they are


def _overlay_apart(kw: Mapping[str, Any]) -> tuple[Overlay, dict[str, Any]]:
    """A diagram's keywords (a frame of :func:`panels`, those of :func:`figure`) as its
    :class:`Overlay` and the keywords of :func:`draw_on` that say how it is drawn."""
    return (Overlay(**{k: v for k, v in kw.items() if k in OVERLAY_FIELDS}),
            {k: v for k, v in kw.items() if k not in OVERLAY_FIELDS})


def _legend_rows(entries: Sequence[tuple[str, str]], columns: int) -> int:
    return (len(entries) + columns - 1) // columns if entries else 0


def _add_legend(fig: Figure, entries: Sequence[tuple[str, str]], columns: int, fontsize: float) -> None:
    if entries:
        fig.legend([_handle(k) for k, _ in entries], [text for _, text in entries], loc="lower center",
                   ncol=columns, fontsize=fontsize, frameon=False, handlelength=2.2, columnspacing=1.5)


LEGEND_ROW_INCHES = 0.26


def figure(board: Board, *, size_px: int = 900, **kw: Any) -> Figure:
    """One diagram as a matplotlib figure (``size_px`` wide at 100 dpi), its legend below it."""
    x0, x1, y0, y1 = _extent(board)
    ratio = (y1 - y0 + 1) / (x1 - x0 + 1)
    width = size_px / 100
    height = width * ratio + (0.4 if kw.get("title") else 0)
    fig, ax = plt.subplots(figsize=(width, height), dpi=100)
    over, style = _overlay_apart(kw)
    entries = draw_on(ax, board, over, **style)
    columns = 2
    extra = _legend_rows(entries, columns) * LEGEND_ROW_INCHES + 0.1
    fig.set_size_inches(width, height + extra)
    fig.tight_layout(rect=(0, extra / (height + extra), 1, 1))
    _add_legend(fig, entries, columns, 9)
    return fig


def panels(board: Board, frames: Sequence[Mapping[str, Any]], *, columns: int = 4, panel_px: int = 320,
           legend: Mapping[str, str] | None = None) -> Figure:
    """A grid of small diagrams, one per frame (keyword arguments of :func:`draw_on`), with
    one legend below for everything the panels draw (``legend`` words it, as in draw_on)."""
    n = max(1, len(frames))
    cols = min(columns, n)
    rows = (n + cols - 1) // cols
    width, height = cols * panel_px / 100, rows * panel_px / 100 * 1.08
    fig, axes = plt.subplots(rows, cols, figsize=(width, height), dpi=100, squeeze=False)
    seen: dict[str, str] = {}
    for i, ax in enumerate(axes.flat):
        if i < len(frames):
            frame = dict(frames[i])
            frame.setdefault("legend", legend)
            over, style = _overlay_apart(frame)
            for key, text in draw_on(ax, board, over, small=True, **style):
                seen.setdefault(key, text)
        else:
            ax.axis("off")
    entries = [(k, seen[k]) for k in LEGEND_KEYS if k in seen]
    legend_columns = 3 if width >= 12 else 2
    extra = _legend_rows(entries, legend_columns) * LEGEND_ROW_INCHES + 0.1
    fig.set_size_inches(width, height + extra)
    fig.tight_layout(rect=(0, extra / (height + extra), 1, 1))
    _add_legend(fig, entries, legend_columns, 9)
    return fig


def save(fig: Figure, path: str | Path) -> Path:
    """Write a figure as SVG or PNG, chosen by the file's ending."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise ValueError(f"{path}: the output must end in .svg or .png")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with atomic_path(path) as tmp:  # an interrupted drawing leaves the old file, never a partial one
            fig.savefig(tmp, format=suffix[1:], dpi=100 if suffix == ".png" else None, metadata=_metadata(suffix))
    finally:
        plt.close(fig)
    return path


def _metadata(suffix: str) -> dict[str, Any]:
    # reproducible output: no creation dates in the files
    return {"Date": None} if suffix == ".svg" else {"Software": None}


def board_diagram(board: Board, path: str | Path, *, names: str | None = None,
                  title: str | None = None) -> Path:
    """The empty board written to ``path``, optionally with its nodes' names (``names`` as in
    :func:`draw_on`)."""
    lines = "(line ids: `powertwo board lines`)"
    fig = figure(board, names=names, title=board.name if title is None else title,
                 legend={"labels": f"small text: node names {lines}", "ids": f"small numbers: node ids {lines}"})
    return save(fig, path)
