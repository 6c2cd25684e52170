"""``powertwo export``: the line puzzles' models and the board for other tools."""

from __future__ import annotations

import click

from powertwo.boards.outfile import write_text

from .common import force_option, main, output_path


@main.command("export")
@click.argument("puzzle")
@click.option("--format", "fmt", required=True, type=click.Choice(["dimacs", "wcnf", "cpsat", "graphml"]),
              help="dimacs/wcnf: the SAT encoding (comment header maps variables to nodes and lines); "
                   "cpsat: the CP-SAT model as protobuf text; graphml: the board.")
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False), help="Output FILE.")
@click.option("--board", default="power-of-two", show_default=True, help="Board NAME or FILE.")
@click.option("--strict", is_flag=True, help="two-by-two: every line holds 0 or 2 stones.")
@click.option("--stones", default=None,
              help="Stones, a number (default 32): two-by-two places exactly N, the others at most N ('unlimited': "
                   "no limit).")
@click.option("--at-most", "at_most", is_flag=True, help="two-by-two: --stones N is an upper bound (the earlier "
                                                         "reading).")
@click.option("--symmetry/--no-symmetry", default=False, show_default=True,
              help="Include the lex-leader symmetry-breaking clauses.")
@click.option("--bound", type=int, default=None,
              help="dimacs: add 'objective at least as good as BOUND' (optimum - 1 for a minimisation "
                   "gives the UNSAT formula the certificate refutes).")
@force_option
def export(puzzle: str, fmt: str, out: str, board: str, strict: bool, stones: str | None, at_most: bool,
           symmetry: bool, bound: int | None, force: bool) -> None:
    """Export PUZZLE's encoding (or the board) to FILE."""
    from powertwo.boards import load
    from powertwo.solvers.lines import export_text
    from powertwo.solvers.registry import get_puzzle

    get_puzzle(puzzle)  # an unknown puzzle is an error even for graphml
    target = output_path(out, force, [board])
    text = export_text(load(board), puzzle, fmt, strict=strict, stones=stones, at_most=at_most, symmetry=symmetry,
                       bound=bound)
    write_text(target, text)
    click.echo(f"wrote {out}")
