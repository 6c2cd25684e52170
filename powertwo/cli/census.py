"""``powertwo census``: every position, jump sequence, dead end and solution of a jump puzzle's
game tree, counted exactly by jumps, or the fewest moves to every position by moves (in memory,
out of core, on a Dask cluster or by plain breadth-first search)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import click

from powertwo.boards import read_node
from powertwo.boards.outfile import write_text

from .common import force_option, main, progress_display
from .limits import MemorySize, Workers
from .outputs import check_outputs, diagram_suffix

if TYPE_CHECKING:
    from powertwo.boards import Board, NodeId
    from powertwo.solvers.census import Census, CensusOptions, MovesCensus

F = TypeVar("F", bound=Callable[..., Any])


def _position(board: Board, position: str | None) -> list[NodeId]:
    from powertwo.solvers.census.tables import default_start

    if position is not None:
        from powertwo.solvers.jump import read_position

        return read_position(position, board)
    central = default_start(board)
    if central is not None:
        return central
    from powertwo.solvers.jump import default_position

    return default_position(board)


def table_lines(census: Census) -> list[str]:
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


def _closing(census: Census | MovesCensus) -> list[str]:
    out = [census.stopped] if census.stopped else []
    return out + [f"{census.engine} engine: {census.seconds:.1f} s, "
                  f"peak memory {census.peak_memory_bytes / 2 ** 20:.0f} MiB"]


def moves_lines(census: MovesCensus) -> list[str]:
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


def _kind(kind: str, choices: tuple[str, ...]) -> dict[str, Any]:
    """The click settings of a census option's kind (:func:`powertwo.solvers.census.options.option`)."""
    kinds: dict[str, dict[str, Any]] = {
        "node": {}, "text": {}, "flag": {"is_flag": True}, "choice": {"type": click.Choice(choices)},
        "count": {"type": click.IntRange(min=0)}, "folder": {"type": click.Path(file_okay=False)},
        "workers": {"type": Workers()}, "memory": {"type": MemorySize()}}
    return kinds[kind]


def census_flags(command: F) -> F:
    """The census's flags, one per field of :class:`CensusOptions` (declared there once)."""
    from dataclasses import fields

    from powertwo.solvers.census.options import CensusOptions

    for f in reversed(fields(CensusOptions)):
        meta = f.metadata
        command = click.option(f"--{f.name.replace('_', '-')}", default=f.default,
                               show_default=meta["kind"] == "choice", help=meta["help"],
                               **_kind(meta["kind"], meta["choices"]))(command)
    return command


@main.command("census")
@click.option("--board", default="power-of-two", show_default=True,
              help="Board NAME or FILE; 'english' is the English 33-hole board.")
@click.option("--position", type=click.Path(dir_okay=False), default=None,
              help="Start position FILE (default: the central game on english, else the Get a Jump On "
                   "reverse puzzle's default position).")
@census_flags
@click.option("--json", "json_out", type=click.Path(dir_okay=False), default=None, help="Write the census as JSON.")
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help="Draw positions (and sequences) per level (SVG or PNG).")
@force_option
def census(board: str, position: str | None, json_out: str | None, plot: str | None, force: bool,
           **flags: Any) -> None:
    """Count the whole game tree of a jump puzzle from a start position, a level per jump or per move."""
    from powertwo.solvers.census import moves_census, run_census
    from powertwo.solvers.census.tables import census_board

    check_outputs({"--json": json_out, "--plot": plot}, force, (board, position))
    if plot is not None:
        diagram_suffix(plot, "--plot")
    b = census_board(board)
    start = _position(b, position)
    options = census_options(b, position, flags)
    with progress_display(f"census of {b.name}", after=0.0, log=True) as progress:
        result: Census | MovesCensus
        if options.by == "moves":
            result = moves_census(b, start, options, progress)
            lines = moves_lines(result)
        else:
            result = run_census(b, start, options, progress)
            lines = table_lines(result)
    for line in lines:
        click.echo(line)
    if json_out:
        write_text(json_out, json.dumps(result.to_dict(), indent=1) + "\n")
    if plot:
        from powertwo.solvers.census.plot import plot_census

        plot_census(result, plot, result.target)


def census_options(board: Board, position: str | None, flags: dict[str, Any]) -> CensusOptions:
    """The census's options from its flags: the target read as a node of ``board``, the store's
    default folder where a set or table is kept, the centre as the backward census's default target
    on a central game."""
    from dataclasses import replace

    from powertwo.solvers.census import CensusOptions
    from powertwo.solvers.census.store import default_store
    from powertwo.solvers.census.tables import centre_node, default_start

    options = CensusOptions(**flags)
    goal = None if options.target is None else read_node(board, options.target, "")
    if options.backward and goal is None and position is None and default_start(board) is not None:
        goal = centre_node(board)
    keeps = options.solvable or options.by == "moves"
    options = replace(options, target=goal, store=str(options.store or default_store()) if keeps else None)
    options.check()
    return options
