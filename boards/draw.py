"""Board diagrams with matplotlib (SVG and PNG).

Drawing reads a board and a description of what stands on it; it never changes
a state. Nodes labelled like squares (``a1``) are drawn as the cells of a
chequered board; other nodes are drawn as points on their lines.

Import this module only when drawing: nothing in ``rules`` or ``models`` needs it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "powertwo"  # stable ids in SVG output
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, FancyArrowPatch, Rectangle  # noqa: E402

from .board import Board, NodeId  # noqa: E402

SQUARE_LABEL = re.compile(r"^[a-z][1-9][0-9]?$")

LIGHT_FILL, LIGHT_EDGE = "#f4e6c8", "#7a5a22"
DARK_FILL, DARK_EDGE = "#3b2a1a", "#000000"
ENERGY_FILL, ENERGY_EDGE = "#f2c14e", "#9c6b00"  # Netzwerk's neutral energy stones (drawn smaller)
HIGHLIGHT = "#d1495b"
ARROW = "#1f77b4"


@dataclass(frozen=True)
class Stone:
    """A stone to draw: ``color`` is ``"light"``, ``"dark"`` or ``"energy"`` (a neutral
    Netzwerk energy stone, drawn smaller); an aged stone is drawn
    hatched with a dashed rim (felt down), a fresh one plain; ``text`` is written on it
    (a stack height, a placing order)."""

    node: NodeId
    color: str
    aged: bool = False
    text: str = ""


@dataclass(frozen=True)
class Arrow:
    """A move or a chain of jumps: the nodes visited, in order."""

    path: tuple[NodeId, ...]
    color: str = ARROW


def cell_nodes(board: Board) -> frozenset[NodeId]:
    """Nodes drawn as squares: labelled like squares (``a1``..``n12``) and not the
    point end of a link (Netzwerk's energy points ``e00``..``e66`` are points)."""
    points = {b for _, b in board.links}
    return frozenset(v for v in board.nodes if SQUARE_LABEL.match(board.label(v)) and v not in points)


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


def draw_on(ax, board: Board, *, stones: Iterable[Stone] = (), highlight: Iterable[int] = (),
            arrows: Iterable[Arrow] = (), marks: Iterable[NodeId] = (), ids: bool = False,
            title: str = "", small: bool = False) -> None:
    """Draw ``board`` on the matplotlib axes ``ax``.

    ``highlight`` are line ids drawn thick and red; ``marks`` are nodes ringed
    (a free node of interest); ``ids`` writes every node's label.
    """
    unit = _unit(board)
    radius = 0.28 * unit
    font = 5.5 if small else 7.5
    cells = sorted(cell_nodes(board))
    for v in cells:
        x, y = (float(c) for c in board.coord(v))
        f, r = ord(board.label(v)[0]) - 97, int(board.label(v)[1:]) - 1
        shade = "#d9c7a3" if (f + r) % 2 == 0 else "#f3ead7"
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=shade, edgecolor="#a08c66", lw=0.4, zorder=0))
    highlight = set(highlight)
    cell_set = set(cells)
    for k, line in enumerate(board.lines):
        if any(v in cell_set for v in line):
            if k not in highlight:
                continue
        xs = [float(board.coord(v)[0]) for v in line]
        ys = [float(board.coord(v)[1]) for v in line]
        if k in highlight:
            ax.plot(xs, ys, color=HIGHLIGHT, lw=3.2 if not small else 2.0, alpha=0.75, zorder=1, solid_capstyle="round")
        else:
            ax.plot(xs, ys, color="#5b4a33", lw=1.1 if not small else 0.7, zorder=1)
    for v in board.nodes:
        if v in cell_set:
            continue
        x, y = (float(c) for c in board.coord(v))
        ax.add_patch(Circle((x, y), 0.07 * unit, color="#5b4a33", zorder=2))
    for v in marks:
        x, y = (float(c) for c in board.coord(v))
        ax.add_patch(Circle((x, y), radius * 1.15, fill=False, edgecolor=HIGHLIGHT, lw=1.6, ls="--", zorder=3))
    stone_at = set()
    for s in stones:
        stone_at.add(s.node)
        x, y = (float(c) for c in board.coord(s.node))
        fill, edge = {"light": (LIGHT_FILL, LIGHT_EDGE), "energy": (ENERGY_FILL, ENERGY_EDGE)}.get(
            s.color, (DARK_FILL, DARK_EDGE))
        ax.add_patch(Circle((x, y), radius * (0.6 if s.color == "energy" else 1), facecolor=fill, edgecolor=edge,
                            lw=1.3, hatch="////" if s.aged else None, ls="--" if s.aged else "-", zorder=4))
        if s.text:
            ax.text(x, y, s.text, ha="center", va="center", fontsize=font + 1, fontweight="bold", zorder=6,
                    color="#ffffff" if s.color == "dark" else "#000000")
    for arrow in arrows:
        pts = [(float(board.coord(v)[0]), float(board.coord(v)[1])) for v in arrow.path]
        for p, q in zip(pts, pts[1:], strict=False):
            ax.add_patch(FancyArrowPatch(p, q, arrowstyle="-|>", mutation_scale=12 if not small else 8,
                                         color=arrow.color, lw=2.0 if not small else 1.3,
                                         shrinkA=4, shrinkB=4, zorder=7))
    if ids:
        for v in board.nodes:
            if any(s == v for s in stone_at) and v not in cell_set:
                dx, dy = radius * 0.9, radius * 0.9
            else:
                dx, dy = 0.11 * unit, 0.11 * unit
            x, y = (float(c) for c in board.coord(v))
            if v in cell_set:
                ax.text(x - 0.45, y + 0.45, board.label(v), fontsize=font - 1, ha="left", va="top",
                        color="#6b5a3a", zorder=5)
            else:
                ax.text(x + dx, y + dy, board.label(v), fontsize=font, ha="left", va="bottom", color="#1a1a1a",
                        zorder=5, bbox=dict(boxstyle="round,pad=0.08", fc="white", ec="none", alpha=0.75))
    x0, x1, y0, y1 = _extent(board)
    pad = 0.6 if cell_set else 0.45 * unit + 0.2
    ax.set_xlim(x0 - pad, x1 + pad)
    ax.set_ylim(y0 - pad, y1 + pad)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=font + 3 if not small else font + 1)


def figure(board: Board, *, size_px: int = 900, **kw):
    """One diagram as a matplotlib figure (``size_px`` wide at 100 dpi)."""
    x0, x1, y0, y1 = _extent(board)
    ratio = (y1 - y0 + 1) / (x1 - x0 + 1)
    fig, ax = plt.subplots(figsize=(size_px / 100, size_px / 100 * ratio + (0.4 if kw.get("title") else 0)), dpi=100)
    draw_on(ax, board, **kw)
    fig.tight_layout()
    return fig


def panels(board: Board, frames: Sequence[dict], *, columns: int = 4, panel_px: int = 320):
    """A grid of small diagrams, one per frame (keyword arguments of :func:`draw_on`)."""
    n = max(1, len(frames))
    cols = min(columns, n)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(cols * panel_px / 100, rows * panel_px / 100 * 1.08), dpi=100,
                             squeeze=False)
    for i, ax in enumerate(axes.flat):
        if i < len(frames):
            draw_on(ax, board, small=True, **frames[i])
        else:
            ax.axis("off")
    fig.tight_layout()
    return fig


def save(fig, path: str | Path) -> Path:
    """Write a figure as SVG or PNG, chosen by the file's ending."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise ValueError(f"{path}: the output must end in .svg or .png")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format=suffix[1:], dpi=100 if suffix == ".png" else None, metadata=_metadata(suffix))
    plt.close(fig)
    return path


def _metadata(suffix: str) -> dict:
    # reproducible output: no creation dates in the files
    return {"Date": None} if suffix == ".svg" else {"Software": None}


def board_diagram(board: Board, path: str | Path, *, ids: bool = False, title: str | None = None) -> Path:
    """The empty board, optionally with node ids, written to ``path``."""
    fig = figure(board, ids=ids, title=board.name if title is None else title)
    return save(fig, path)
