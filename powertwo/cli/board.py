"""``powertwo board info|lines|draw|build``."""

from __future__ import annotations

from pathlib import Path

import click

from powertwo.boards import from_json, load, save

from .common import echo_json, main


@main.group("board")
def board_group() -> None:
    """Boards: summary, lines, diagram, build from segments."""


@board_group.command("info")
@click.argument("board")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def info(board: str, as_json: bool) -> None:
    """Summary of a shipped board (by NAME) or a board FILE."""
    b = load(board)
    data = b.info()
    if as_json:
        echo_json({k: v for k, v in data.items() if v is not None})
        return
    click.echo(f"board {b.name}: {data['nodes']} nodes, {data['lines']} lines, {data['symmetries']} symmetries")
    click.echo("line lengths: " + ", ".join(f"{n} lines of {k}" for k, n in data["line_lengths"].items()))
    click.echo(f"adjacent pairs: {data['adjacent_pairs']}, triangles: {data['triangles']}")
    if data["starts"]:
        click.echo("start positions: " + ", ".join(data["starts"]))
    if b.description:
        click.echo(b.description)


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
@click.option("--ids", is_flag=True, help="Write every node's id (or square name).")
def draw(board: str, out: str, ids: bool) -> None:
    """Draw a board (empty) to SVG or PNG."""
    from powertwo.boards.draw import board_diagram

    b = load(board)
    path = board_diagram(b, out, ids=ids)
    click.echo(f"wrote {path}")


@board_group.command("build")
@click.argument("segments", type=click.Path(dir_okay=False))
@click.option("-o", "--out", "out", required=True, type=click.Path(dir_okay=False), help="BOARD.json to write")
def build(segments: str, out: str) -> None:
    """Compute nodes and lines from a SEGMENTS.json file and write the board."""
    path = Path(segments)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    b = from_json(text, where=str(path))
    save(b, out)
    click.echo(f"wrote {out}: {b.size} nodes, {len(b.lines)} lines, {len(b.symmetries)} symmetries")
