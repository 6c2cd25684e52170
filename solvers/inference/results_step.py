"""The board inference's step of the results job: the answer file and the pictures of the inferred board."""

from __future__ import annotations

import time
from pathlib import Path

from powertwo.boards import Board
from powertwo.boards.outfile import write_text

from ..registry import Progress, ResultRow
from .answer import answer_text, infer
from .evidence import Evidence, load_evidence


def cells_figure(board: Board, evidence: Evidence | None = None):
    """The display's 13 x 13 cells (light squares, the node cells named) over the board's exact
    nodes and lines; a short red stroke joins each cell's centre to its node where they differ."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    from powertwo.boards.draw import draw_on

    evidence = evidence or load_evidence()
    fig, ax = plt.subplots(figsize=(9, 9.6), dpi=100)
    draw_on(ax, board, title=f"{board.name}: the server's cells over the exact nodes")
    nodes = evidence.node_cells
    for x in range(evidence.first[0], evidence.first[0] + len(evidence.columns)):
        for y in range(evidence.first[1], evidence.first[1] - len(evidence.columns), -1):
            filled = (x, y) in nodes
            ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="#eef3fb" if filled else "white",
                                   edgecolor="#b8c4d6", lw=0.5, zorder=0))
            if filled:
                ax.text(x - 0.45, y + 0.45, evidence.name((x, y)), fontsize=6.5, ha="left", va="top",
                        color="#4a5a78", zorder=5)
    for v in board.nodes:
        nx, ny = (float(c) for c in board.coord(v))
        cx, cy = evidence.cell(board.label(v))
        if (nx, ny) != (cx, cy):
            ax.plot([cx, nx], [cy, ny], color="#d1495b", lw=1.4, zorder=3, solid_capstyle="round")
            ax.plot([cx], [cy], marker="+", color="#d1495b", ms=5, zorder=3)
    half = len(evidence.columns) / 2 + 0.2
    ax.set_xlim(-half, half)
    ax.set_ylim(-half, half)
    fig.legend([Rectangle((0, 0), 1, 1, facecolor="#eef3fb", edgecolor="#b8c4d6"),
                Line2D([], [], ls="", marker="o", color="#5b4a33", ms=4),
                Line2D([], [], color="#d1495b", lw=1.4, marker="+")],
               ["a cell of the server's display holding a node (its name)", "exact node, with the board's lines",
                "from a cell's centre to its node (where they differ)"],
               loc="lower center", ncol=1, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 0.98))
    return fig


def results(out: Path, progress: Progress) -> list[ResultRow]:
    """The results job's step: ``board-inference.json`` and the two pictures of the inferred board
    (``boards/power-of-two-labels`` with its node names, ``boards/power-of-two-cells`` with the
    server's cells over the exact nodes)."""
    from powertwo.boards import load
    from powertwo.boards.draw import board_diagram, save

    started = time.perf_counter()
    answer, timings = infer(shipped=("power-of-two", "power-of-two-square-sides"))
    write_text(out / "board-inference.json", answer_text(answer))
    files = ["board-inference.json"]
    board = load("power-of-two")
    for ext in ("svg", "png"):
        path = board_diagram(board, out / "boards" / f"power-of-two-labels.{ext}", names="labels",
                             title=f"{board.name}: the board inferred from the server's display")
        files.append(str(path.relative_to(out)))
        path = save(cells_figure(board), out / "boards" / f"power-of-two-cells.{ext}")
        files.append(str(path.relative_to(out)))
    found = [s for square in answer["squares"] for s in square["solutions"]]
    for square in answer["squares"]:
        progress(f"board inference, {square['square']} square: {square['candidate_families']} candidate families, "
                 f"{len(square['solutions'])} solutions")
    names = ", ".join(s["equals"] or f"{s['lines']} lines" for s in found)
    return [ResultRow("board-inference", "lines from the server's display", f"{len(found)} line sets ({names})",
                      "complete enumeration" if answer["complete"] else "incomplete: time limit",
                      "cp-sat, board builder", str(len(found)), time.perf_counter() - started, tuple(files),
                      timings)]
