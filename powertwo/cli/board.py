"""``powertwo board info|lines|draw|build``."""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

import click

from powertwo.boards import Board, load, save
from powertwo.boards.board import format_fraction, order_value
from powertwo.boards.words import counted

from .common import echo_json, force_option, main, output_path, progress_display


@main.group("board")
def board_group() -> None:
    """Boards: summary, lines, diagram, build from segments."""


@board_group.command("info")
@click.argument("board")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def info(board: str, as_json: bool) -> None:
    """Summary of a shipped board (by NAME) or a board FILE."""
    with progress_display(f"board {board}") as progress:
        b = load(board, progress)
        progress(f"the symmetry group of {b.size:,} nodes and {len(b.lines):,} lines (bliss, Schreier-Sims)")
        data = b.info()
    if as_json:
        echo_json({k: v for k, v in data.items() if v is not None})
        return
    unconfirmed = "" if data["symmetries_confirmed"] else " (counted by bliss; too many generators to confirm)"
    click.echo(f"board {b.name}: {data['nodes']} nodes, {data['lines']} lines, {data['symmetries']} symmetries"
               + unconfirmed)
    click.echo("line lengths: " + ", ".join(f"{counted(n, 'line')} of {k}"
                                            for k, n in data["line_lengths"].items()))
    click.echo(f"adjacent pairs: {data['adjacent_pairs']}, triangles: {data['triangles']}")
    click.echo(f"fingerprint: {data['fingerprint']}")
    if data["starts"]:
        click.echo("start positions: " + ", ".join(data["starts"]))
    if b.description:
        click.echo(b.description)
    click.echo("nodes (id=label(x,y)), row by row:" if data["labels"] else "nodes (id=(x,y)), row by row:")
    for row in node_rows(b):
        click.echo(row)


def node_rows(b: Board) -> list[str]:
    """The nodes row by row, as in RULES.md section 1: ``row  1: 1=a1(-6,6) 2=e1(-2,6) ...``. The rows
    are those of cell-like labels (``a1``, ``m13``) when the ids read them in order (the Power of Two
    board's server cells), otherwise the values of y from the top (``1=(-4,4)``: no labels)."""
    import re

    def grouped(key: Callable[[int], Fraction | int]) -> list[list[int]]:
        rows: dict[Fraction | int, list[int]] = {}
        for v in b.nodes:
            rows.setdefault(key(v), []).append(v)
        return [rows[k] for k in sorted(rows)]

    rows = grouped(lambda v: -b.coord(v)[1])
    if all(re.fullmatch(r"[a-z]+[0-9]+", lab) for lab in b.labels):
        by_label = grouped(lambda v: int(re.sub(r"^[a-z]+", "", b.label(v))))
        if [v for row in by_label for v in row] == list(b.nodes):
            rows = by_label

    def text(v: int) -> str:
        x, y = b.coord(v)
        return f"{v}={b.label(v) if b.label(v) != str(v) else ''}({format_fraction(x)},{format_fraction(y)})"

    width = len(str(len(rows)))
    return [f"row {k:>{width}}: " + " ".join(text(v) for v in row) for k, row in enumerate(rows, start=1)]


@board_group.command("lines")
@click.argument("board")
@click.option("--json", "as_json", is_flag=True, help="Print [{line, nodes}] as JSON.")
def lines(board: str, as_json: bool) -> None:
    """Every line of a board, with its nodes in order along it: `LINE: NODE NODE ...` (the line
    ids are those of diagrams and solution checks; compare them with a physical board)."""
    b = load(board)
    if as_json:
        echo_json([{"line": k, "nodes": [b.label(v) for v in line]} for k, line in enumerate(b.lines)])
        return
    width = len(str(len(b.lines) - 1))
    for k, line in enumerate(b.lines):
        click.echo(f"{k:>{width}}: " + " ".join(b.label(v) for v in line))
    click.echo(f"{len(b.lines)} lines on board {b.name}", err=True)


@board_group.command("draw")
@click.argument("board")
@click.option("-o", "--out", "out", required=True, type=click.Path(dir_okay=False), help="OUT.svg or OUT.png")
@click.option("--ids", is_flag=True, help="Write node ids instead of their names (a13, m1).")
@click.option("--no-names", is_flag=True, help="Write no node names or ids.")
@force_option
def draw(board: str, out: str, ids: bool, no_names: bool, force: bool) -> None:
    """Draw a board (empty) to SVG or PNG, its nodes named by their labels."""
    from powertwo.boards.draw import board_diagram

    if ids and no_names:
        raise click.UsageError("--ids and --no-names exclude each other")
    output_path(out, force, [board])
    with progress_display(f"drawing board {board}") as progress:
        b = load(board, progress)
        path = board_diagram(b, out, names=None if no_names else "ids" if ids else "labels")
    click.echo(f"wrote {path}")


@board_group.command("build")
@click.argument("segments", type=click.Path(dir_okay=False))
@click.option("-o", "--out", "out", required=True, type=click.Path(dir_okay=False), help="BOARD.json to write")
@force_option
def build(segments: str, out: str, force: bool) -> None:
    """Compute nodes and lines from a SEGMENTS.json file and write the board."""
    from powertwo.boards import BoardError
    from powertwo.boards.io import from_dict
    from powertwo.boards.jsonfile import read_json

    output_path(out, force, [segments])
    with progress_display(f"building {segments}") as progress:
        b = from_dict(read_json(segments, BoardError, what="segments file"), str(segments), progress)
        progress(f"the symmetry group of {b.size:,} nodes and {len(b.lines):,} lines (bliss, Schreier-Sims)")
        order = order_value(b.symmetry_order)
        save(b, out)
    click.echo(f"wrote {out}: {b.size} nodes, {len(b.lines)} lines, {order} symmetries")
