"""``powertwo census``: every position, jump sequence, dead end and solution of a jump puzzle's
game tree, counted exactly (single machine, Dask cluster or plain breadth-first search)."""

from __future__ import annotations

import json

import click

from powertwo.boards.outfile import write_text

from .common import force_option, main, progress_display
from .outputs import check_outputs, diagram_suffix


def _position(board, position: str | None) -> list[int]:
    from powertwo.solvers.census.tables import default_start

    if position is not None:
        from powertwo.solvers.jump import read_position

        return read_position(position, board)
    central = default_start(board)
    if central is not None:
        return central
    from powertwo.solvers.jump import default_position

    return default_position(board)


def table_lines(census) -> list[str]:
    """The census as a text table: one row per level, then the totals."""
    solvable = census.levels[0].solvable_positions is not None
    head = (f"{'jumps':>5} {'stones':>6} {'positions':>14} {'up to sym':>12} {'sequences':>28} {'dead ends':>10}"
            + (f" {'solvable':>12}" if solvable else "") + f" {'seconds':>8} {'MiB':>6}")
    out = [head]
    for lv in census.levels:
        out.append(f"{lv.jumps:>5} {lv.stones:>6} {lv.positions:>14,} {lv.classes:>12,} {lv.sequences:>28,} "
                   f"{lv.dead_positions:>10,}" + (f" {lv.solvable_positions or 0:>12,}" if solvable else "")
                   + f" {lv.seconds:>8.2f} {lv.memory_bytes / 2 ** 20:>6.0f}")
    d = census.to_dict()
    t = d["totals"]
    out += ["", f"distinct positions: {t['positions']:,} ({t['classes']:,} up to the {census.group_size} "
                f"symmetries of the start)",
            f"jump sequences: {t['jump_sequences']:,}; game sequences (to a position with no jump): "
            f"{t['game_sequences']:,}",
            f"sequences to one stone: {t['one_stone_sequences']:,}"
            + ("" if census.target is None else f"; to one stone on the target: {t['solutions']:,}")]
    sym = d["up_to_symmetry"]
    if sym:
        out.append(f"up to symmetry: {sym['game_sequences']:,} game sequences, {sym['solutions']:,} solutions")
    if not census.complete:
        out.append(f"stopped after {census.levels[-1].jumps} jumps (--max-levels): totals cover those levels only")
    out.append(f"{census.engine} engine: {census.seconds:.1f} s, "
               f"peak memory {census.peak_memory_bytes / 2 ** 20:.0f} MiB")
    return out


@main.command("census")
@click.option("--board", default="power-of-two", show_default=True,
              help="Board NAME or FILE; 'english' is the English 33-hole board.")
@click.option("--position", type=click.Path(dir_okay=False), default=None,
              help="Start position FILE (default: the central game on english, else the Get a Jump On "
                   "reverse puzzle's default position).")
@click.option("--target", default=None, help="Count solutions to one stone on this node (label or id).")
@click.option("--engine", type=click.Choice(["numba", "dask", "plain"]), default="numba", show_default=True)
@click.option("--scheduler", default=None, help="dask: address of a running scheduler (default: a LocalCluster).")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True,
              help="dask: workers of the LocalCluster.")
@click.option("--parquet", type=click.Path(file_okay=False), default=None,
              help="dask: write every level to this folder as Parquet; a later run resumes from it.")
@click.option("--solvable", is_flag=True, help="Count the positions that can still reach one stone (on the target).")
@click.option("--store", type=click.Path(file_okay=False), default=None,
              help="--solvable: keep the solvable set in this folder (default ~/.cache/powertwo/census).")
@click.option("--max-levels", type=click.IntRange(min=0), default=None, help="Stop after this many jumps.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False), default=None, help="Write the census as JSON.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help="Draw positions and sequences per level (SVG or PNG).")
@force_option
def census(board: str, position: str | None, target: str | None, engine: str, scheduler: str | None, workers: int,
           parquet: str | None, solvable: bool, store: str | None, max_levels: int | None, json_out: str | None,
           plot: str | None, force: bool) -> None:
    """Count the whole game tree of a jump puzzle from a start position, one jump per level."""
    from powertwo.solvers.census import CensusError, run_census
    from powertwo.solvers.census.store import default_store
    from powertwo.solvers.census.tables import census_board

    if parquet and engine != "dask":
        raise CensusError(f"--parquet: only the dask engine writes levels, not {engine}")
    if scheduler and engine != "dask":
        raise CensusError(f"--scheduler: only the dask engine runs on a cluster, not {engine}")
    check_outputs({"--json": json_out, "--plot": plot}, force, (board, position))
    if plot is not None:
        diagram_suffix(plot, "--plot")
    b = census_board(board)
    start = _position(b, position)
    goal = None if target is None else b.node(target)
    with progress_display(f"census of {b.name}", after=0.0, log=True) as progress:
        result = run_census(b, start, target=goal, engine=engine, solvable=solvable, max_levels=max_levels,
                            store=parquet if engine == "dask" else str(store or default_store()) if solvable else None,
                            scheduler=scheduler, workers=workers, progress=progress)
    for line in table_lines(result):
        click.echo(line)
    if json_out:
        write_text(json_out, json.dumps(result.to_dict(), indent=1) + "\n")
    if plot:
        from powertwo.solvers.census.plot import plot_census

        plot_census(result, plot, None if goal is None else b.label(goal))
