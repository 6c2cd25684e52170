"""``powertwo census``: every position, jump sequence, dead end and solution of a jump puzzle's
game tree, counted exactly by jumps, or the fewest moves to every position by moves (in memory,
out of core, on a Dask cluster or by plain breadth-first search)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .common import main, progress_display
from .limits import MemorySize, Workers


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
    """The census by jumps as a text table: one row per level, then the totals."""
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
    return out + _closing(census)


def _closing(census) -> list[str]:
    out = [census.stopped] if census.stopped else []
    return out + [f"{census.engine} engine: {census.seconds:.1f} s, "
                  f"peak memory {census.peak_memory_bytes / 2 ** 20:.0f} MiB"]


def moves_lines(census) -> list[str]:
    """The census by moves as a text table: one row per level, then the totals."""
    solvable = census.levels[0].solvable_positions is not None
    head = (f"{'moves':>5} {'stones':>7} {'positions':>14} {'up to sym':>12}"
            + (f" {'solvable':>12} {'sym':>10}" if solvable else "") + f" {'seconds':>8} {'MiB':>6}")
    out = [head]
    for lv in census.levels:
        stones = f"{lv.fewest_stones}-{lv.most_stones}" if lv.fewest_stones != lv.most_stones else str(lv.most_stones)
        out.append(f"{lv.moves:>5} {stones:>7} {lv.positions:>14,} {lv.classes:>12,}"
                   + (f" {lv.solvable_positions or 0:>12,} {lv.solvable_classes or 0:>10,}" if solvable else "")
                   + f" {lv.seconds:>8.2f} {lv.memory_bytes / 2 ** 20:>6.0f}")
    way = (f"backward from one stone on {census.target}" if census.backward and census.target
           else "backward from every one-stone position" if census.backward else "forward from the start")
    out += ["", f"by moves, {way}: {census.positions:,} positions ({census.classes:,} up to the "
                f"{census.group_size} symmetries), {census.levels[-1].moves} moves at most"]
    return out + _closing(census)


@main.command("census")
@click.option("--board", default="power-of-two", show_default=True,
              help="Board NAME or FILE; 'english' is the English 33-hole board.")
@click.option("--position", type=click.Path(dir_okay=False), default=None,
              help="Start position FILE (default: the central game on english, else the Get a Jump On "
                   "reverse puzzle's default position).")
@click.option("--target", default=None, help="Count solutions to one stone on this node (label or id).")
@click.option("--by", type=click.Choice(["jumps", "moves"]), default="jumps", show_default=True,
              help="A level per jump (sequences counted), or per move: a chain of jumps by one stone "
                   "(the fewest moves to every position).")
@click.option("--backward", is_flag=True,
              help="--by moves: from one stone on --target back (default the central game's centre; "
                   "every one-stone position on a board without a central start).")
@click.option("--engine", type=click.Choice(["numba", "disk", "dask", "plain"]), default="numba",
              show_default=True, help="numba: in memory, every core; disk: out of core (sorted runs merged "
                                      "on disk); dask: a cluster; plain: the slow referee.")
@click.option("--memory", type=MemorySize(), default=None,
              help="Memory budget, e.g. 2GiB (default: 60% of this machine's memory). The numba engine stops "
                   "before a level that would pass it (the levels so far are kept); the disk engine stays "
                   "within it.")
@click.option("--workers", type=Workers(), default=None,
              help="Threads (numba, disk; default every core) or dask workers (default 2).")
@click.option("--scratch", type=click.Path(file_okay=False), default=None,
              help="disk: keep the levels and runs in this folder; a later run resumes from it "
                   "(default: a temporary folder, removed at the end).")
@click.option("--scheduler", default=None, help="dask: address of a running scheduler (default: a LocalCluster).")
@click.option("--parquet", type=click.Path(file_okay=False), default=None,
              help="dask: write every level to this folder as Parquet; a later run resumes from it.")
@click.option("--solvable", is_flag=True, help="Count the positions that can still reach one stone (on the target).")
@click.option("--store", type=click.Path(file_okay=False), default=None,
              help="Where --solvable keeps its set and --by moves its fewest-moves table "
                   "(default ~/.cache/powertwo/census, or $POWERTWO_CENSUS).")
@click.option("--max-levels", type=click.IntRange(min=0), default=None, help="Stop after this many levels.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False), default=None, help="Write the census as JSON.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help="Draw positions and sequences per level (SVG or PNG).")
def census(**flags) -> None:
    """Count the whole game tree of a jump puzzle from a start position, a level per jump or per move."""
    from powertwo.solvers.census import moves_census, run_census
    from powertwo.solvers.census.tables import census_board

    b = census_board(flags["board"])
    start = _position(b, flags["position"])
    options = census_options(b, flags)
    with progress_display(f"census of {b.name}", after=0.0, log=True) as progress:
        result = (moves_census if options.by == "moves" else run_census)(b, start, options, progress)
    lines = moves_lines(result) if options.by == "moves" else table_lines(result)
    for line in lines:
        click.echo(line)
    if flags["json_out"]:
        Path(flags["json_out"]).write_text(json.dumps(result.to_dict(), indent=1) + "\n", encoding="utf-8")
    if flags["plot"]:
        from powertwo.solvers.census.plot import plot_census

        plot_census(result, flags["plot"], result.target)


def census_options(board, flags: dict):
    """The census's options from the command line's flags."""
    from powertwo.solvers.census import CensusOptions
    from powertwo.solvers.census.store import default_store
    from powertwo.solvers.census.tables import centre_node, default_start

    goal = None if flags["target"] is None else board.node(flags["target"])
    if flags["backward"] and goal is None and flags["position"] is None and default_start(board) is not None:
        goal = centre_node(board)
    keeps = flags["solvable"] or flags["by"] == "moves"
    options = CensusOptions(target=goal, engine=flags["engine"], by=flags["by"], backward=flags["backward"],
                            solvable=flags["solvable"], max_levels=flags["max_levels"],
                            store=str(flags["store"] or default_store()) if keeps else None,
                            scratch=flags["scratch"], parquet=flags["parquet"], scheduler=flags["scheduler"],
                            workers=flags["workers"], memory=flags["memory"])
    options.check()
    return options
