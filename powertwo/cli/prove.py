"""``powertwo prove GAME``: who wins a position with best play, proven, with a certificate that
``powertwo check`` re-verifies through the plain referees."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click

from .common import Seconds, echo_json, main, output_path, progress_display
from .games import OPTION_HELP, game_and_state, rule_flags, rule_values
from .limits import UNDECIDED_EXIT, MemoryMiB, Workers, cores

DEFAULT_MEMORY = 1024
"""MiB for the search's tables when ``--memory`` is not given."""


@main.command("prove")
@click.argument("game_name", metavar="GAME")
@rule_flags
@rule_values
@click.option("--record", type=click.Path(dir_okay=False), default=None,
              help="A game record FILE: prove the position after its last move (or --move N, or --every).")
@click.option("--move", "move_number", type=click.IntRange(0), default=None,
              help="With --record: the position after move N (0: the record's start).")
@click.option("--every", is_flag=True, help="With --record: every position of the record, one line each.")
@click.option("--position", type=click.Path(dir_okay=False), default=None, help="A position FILE (JSON).")
@click.option("--start", default=None, help="A named start position (default: the game's own).")
@click.option("--option", "rule_options", multiple=True, metavar="NAME=VALUE", help=OPTION_HELP)
@click.option("--board", default=None, help="Board NAME or FILE (default: the game's own).")
@click.option("--time-limit", "time_limit", type=Seconds(), default=None,
              help="Seconds of search; when they run out, 'unknown' with the search's figures (exit 3).")
@click.option("--memory", type=MemoryMiB(), default=DEFAULT_MEMORY, show_default=True,
              help="MiB for the search's tables.")
@click.option("--proof", type=click.Path(dir_okay=False), default=None,
              help="Write the certificate (JSON header, compressed body) to FILE; `powertwo check FILE` "
                   "re-verifies it.")
@click.option("--engine", type=click.Choice(["auto", "df-pn", "compiled", "dask"]), default="auto", show_default=True,
              help="auto: That's My Line's compiled producer where it serves (boards of at most 64 nodes), else df-pn; "
                   "dask: split the tree into jobs run in parallel on Dask (--split-depth).")
@click.option("--split-depth", "split_depth", type=click.IntRange(0, 4), default=None,
              help="dask: the plies below the position at which the tree is split into jobs (default 1); "
                   "--time-limit is then per job.")
@click.option("--store", type=click.Path(dir_okay=False), default=None,
              help="dask: keep the jobs in this SQLite FILE; a later run resumes from it.")
@click.option("--scheduler", default=None, help="dask: address of a running scheduler (default: a LocalCluster).")
@click.option("--workers", type=Workers(), default=None,
              help="dask: workers of the LocalCluster (default: 2, or 1 on a machine of one core).")
@click.option("--certificates", type=click.Path(file_okay=False), default=None,
              help="dask: write each proven job's certificate to this folder (with index.json).")
@click.option("--symmetry/--no-symmetry", default=True, show_default=True,
              help="Merge positions that a symmetry of the board (one the rules respect) maps onto each other.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--force", is_flag=True, help="Overwrite the --proof file if it exists.")
def prove(game_name: str, flags: dict[str, bool], values: dict[str, Any], **given: Any) -> None:
    """Who wins a position of GAME with best play: won or lost for the side to move (with the
    winning move, the proof's size and, with --proof, its certificate), neither (no side can force a
    win), or unknown within --time-limit and --memory (the search's figures, exit code 3)."""
    from powertwo.solvers.prove import Limits, Value
    from powertwo.solvers.prove import prove as run_prove

    ask = _Request(game_name=game_name, options={**flags, **values}, **given)
    if ask.engine == "dask" or ask.split_depth is not None:
        _prove_split(ask)
        return
    if ask.store or ask.scheduler or ask.certificates:
        raise click.UsageError("--store, --scheduler and --certificates apply to --engine dask")
    if sum(x is not None for x in (ask.record, ask.position, ask.start)) > 1:
        raise click.UsageError("give one of --record, --position and --start")
    if (ask.move_number is not None or ask.every) and ask.record is None:
        raise click.UsageError("--move and --every apply to --record")
    if ask.every and ask.proof is not None:
        raise click.UsageError("--proof writes one certificate: give --move N instead of --every")
    if ask.proof is not None:
        output_path(ask.proof, ask.force, (ask.record, ask.position, ask.board))
    game, states = _positions(ask)
    limits = Limits(seconds=ask.time_limit, memory_mib=ask.memory)
    decided = True
    for number, state in states:
        with progress_display(f"proving {game.name}") as progress:
            result = run_prove(game, state, limits=limits, symmetry=ask.symmetry, progress=progress,
                               board_name=ask.board, engine=ask.engine)
        decided = decided and result.value is not Value.UNKNOWN
        if ask.as_json:
            echo_json(result.to_json() | ({"move_number": number} if number is not None else {}))
        else:
            label = "the position" if ask.position is not None else f"the start ({ask.start or 'default'})"
            for line in _summary(game, result, number, label):
                click.echo(line)
        if ask.proof is not None:
            _write(ask.proof, result)
    if not decided:
        raise SystemExit(UNDECIDED_EXIT)


@dataclass(frozen=True)
class _Request:
    """What ``prove`` was asked (its command-line options)."""

    game_name: str
    options: dict[str, Any]
    record: str | None
    move_number: int | None
    every: bool
    position: str | None
    start: str | None
    rule_options: tuple[str, ...]
    board: str | None
    time_limit: float | None
    memory: int
    proof: str | None
    engine: str
    split_depth: int | None
    store: str | None
    scheduler: str | None
    workers: int | None
    certificates: str | None
    symmetry: bool
    as_json: bool
    force: bool


def _positions(ask: _Request) -> tuple[Any, list[tuple[int | None, Any]]]:
    """The game and the positions to prove: ``(move number or None, state)`` each."""
    from powertwo.boards import load
    from powertwo.rules import RecordError, validate_record
    from powertwo.solvers.registry import read_json_file

    if ask.record is None:
        board = load(ask.board) if ask.board is not None else None
        game, state = game_and_state(ask.game_name, ask.rule_options, ask.start, ask.position, ask.options, board)
        return game, [(None, state)]
    record = ask.record
    if ask.board is not None:
        raise RecordError(f"{record}: a game record names its board in its field 'board'; --board does not apply")
    if ask.rule_options or ask.options:
        raise RecordError(f"{record}: a game record names its rule options in its field 'options'")
    data = read_json_file(record)
    if not isinstance(data, dict) or data.get("game", ask.game_name) != ask.game_name:
        raise RecordError(f"{record}: not a game record of {ask.game_name}")
    res = validate_record(dict(data, game=ask.game_name), where=record)
    last = len(res.moves)
    if ask.move_number is not None and ask.move_number > last:
        raise RecordError(f"{record}: --move {ask.move_number} is past the record's last move ({last})")
    numbers = range(last + 1) if ask.every else [last if ask.move_number is None else ask.move_number]
    return res.game, [(n, res.states[n]) for n in numbers]


def _summary(game: Any, result: Any, number: int | None, given: str = "the position") -> list[str]:
    from powertwo.solvers.prove import Value

    where = "the start" if number == 0 else (f"after move {number}" if number is not None else given)
    head = f"{game.title or game.name}, {where}, {result.to_move} to move: {result.value.value}"
    value = result.value.value
    if value == "won":
        lines = [head + f": {result.winner} wins with {result.move} against every defence"
                 if result.move else head + f": {result.winner} has won"]
    elif value == "lost":
        lines = [head + f": {result.winner} wins against every defence"]
    elif value == "neither":
        lines = [head + ": neither side can force a win"
                 + (" (a draw with best play)" if game.name == "tower-of-power" else " (best play never ends)")]
    else:
        stopped = result.figures.stopped.value if result.figures.stopped else "limits"
        lines = [head + f" ({stopped}): not decided, no result"]
        for run in result.figures.runs:
            numbers = "".join(f"{name} {'infinite' if n < 0 else f'{n:,}'}, " for name, n in
                              (("proof number", run.proof_number), ("disproof number", run.disproof_number))
                              if n is not None)
            lines.append(f"search for a win of {run.attacker}: {run.verdict.value} ({numbers}"
                         f"{run.expanded:,} positions expanded)")
    if result.proof is not None:
        p = result.proof
        claimed = f", {p.claims:,} claimed for the checker's judge" if p.claims else ""
        lines.append(f"proof: {p.positions:,} positions ({p.winner_nodes:,} with the winner's move, "
                     f"{p.defender_nodes:,} with every defence, {p.leaves:,} decided{claimed}), "
                     f"{p.references:,} references")
    known = [m for m in result.root_moves if m.value is not Value.UNKNOWN]
    if known and value != "won":
        won = sum(1 for m in known if m.value.value == "won")
        lines.append(f"moves at the root: {won} proven winning, {len(known) - won} proven losing, "
                     f"{len(result.root_moves) - len(known)} open")
    f = result.figures
    lines.append(f"search: {f.expanded:,} positions expanded, {f.table_entries:,} in the table, {f.seconds:.1f} s")
    return lines


def _prove_split(ask: _Request) -> None:
    """``--engine dask``: the position split into jobs ``--split-depth`` plies down, run on Dask."""
    from powertwo.solvers.prove import Limits, Value
    from powertwo.solvers.prove.jobs import Cluster, prove_split, write_certificates

    if ask.engine != "dask":
        raise click.UsageError("--split-depth: the jobs run on Dask: add --engine dask")
    if ask.record is not None and ask.every:
        raise click.UsageError("--engine dask proves one position: give --move N instead of --every")
    if ask.proof is not None:
        raise click.UsageError("--proof: a split run has a certificate per proven job: use --certificates DIR")
    if ask.scheduler is not None and ask.workers is not None:
        raise click.UsageError("--workers sizes the LocalCluster: a running scheduler (--scheduler) has its own")
    game, states = _positions(ask)
    number, state = states[0]
    limits = Limits(seconds=ask.time_limit, memory_mib=ask.memory)
    depth = 1 if ask.split_depth is None else ask.split_depth
    with progress_display(f"proving {game.name} in jobs", log=True) as progress:
        result = prove_split(game, state, depth=depth, limits=limits, store=ask.store,
                             cluster=Cluster(ask.scheduler, ask.workers or min(2, cores())), symmetry=ask.symmetry,
                             progress=progress, board_name=ask.board)
    if ask.certificates is not None:
        written = write_certificates(result, ask.certificates)
        click.echo(f"{len(written)} certificate{'' if len(written) == 1 else 's'} written to {ask.certificates}",
                   err=True)
    if ask.as_json:
        echo_json(result.to_json() | ({"move_number": number} if number is not None else {}))
    else:
        label = "the position" if ask.position is not None else f"the start ({ask.start or 'default'})"
        for line in split_summary(game, result, number, label):
            click.echo(line)
    if result.value is Value.UNKNOWN:
        raise SystemExit(UNDECIDED_EXIT)


def split_summary(game: Any, result: Any, number: int | None, given: str) -> list[str]:
    """The lines ``prove --engine dask`` prints: the value, each ply's counts, the openings, the jobs."""
    from powertwo.solvers.prove import Value

    where = "the start" if number == 0 else (f"after move {number}" if number is not None else given)
    value = result.value.value
    head = f"{game.title or game.name}, {where}, {result.to_move} to move: {value}"
    if value == "won":
        head += f" (wins with {result.move})"
    lines = [head + f"; split {result.depth} plies down"]
    for p in result.plies:
        lines.append(f"ply {p.ply}: {p.positions:,} positions up to symmetry: {p.won:,} won, {p.lost:,} lost, "
                     f"{p.neither:,} neither, {p.unknown:,} unknown (for the side to move there)")
    deepest = "none" if result.decided_depth is None else str(result.decided_depth)
    lines.append(f"deepest ply with every position decided: {deepest}")
    known = [o for o in result.openings if o.value is not Value.UNKNOWN]
    won = sum(1 for o in known if o.value.value == "won")
    lines.append(f"moves at the root: {len(result.openings):,}: {won} proven winning, "
                 f"{sum(1 for o in known if o.value.value == 'lost')} proven losing, "
                 f"{len(result.openings) - len(known):,} not decided")
    for o in known[:20]:
        lines.append(f"  {o.move}: {o.value.value}")
    f = result.figures
    limit = "no time limit" if f.time_limit is None else f"{f.time_limit:g} s each"
    lines.append(f"jobs: {f.jobs:,} ({limit}): {f.run:,} run now, {f.from_store:,} settled in the store; "
                 f"{f.expanded:,} positions expanded in {f.job_seconds:,.0f} s of search, {f.seconds:,.0f} s in all")
    return lines


def _write(path: str, result: Any) -> None:
    from powertwo.solvers.proof_format import write_certificate

    if result.certificate is None:
        click.echo(f"no certificate written to {path}: nothing was proven", err=True)
        return
    size = write_certificate(path, dict(result.certificate.header), result.certificate.body)
    click.echo(f"certificate: {path} ({size:,} bytes; `powertwo check {path}` re-verifies it)")


def check_certificate_file(file: str, board: str | None, time_limit: float) -> None:
    """``powertwo check FILE`` for a certificate: the independent checker in a child process capped
    at ``time_limit`` seconds; exit 0 valid, 1 with the fault, 3 not decided within the limit."""
    from powertwo.boards import load
    from powertwo.cli.common import fail
    from powertwo.solvers.bounded import CANCELLED, CRASHED, MEMORY, TIMEOUT, run_bounded
    from powertwo.solvers.proof_check import check_certificate

    against = load(board) if board is not None else None
    with progress_display(f"checking {file}") as progress:
        outcome = run_bounded(check_certificate, file, board=against, time_limit=time_limit, on_progress=progress)
    if outcome.status in (TIMEOUT, MEMORY, CANCELLED, CRASHED):
        fail(f"{file}: {outcome.message}", UNDECIDED_EXIT)
    report = outcome.result()
    if not report.valid:
        for fault in report.faults:
            click.echo(fault)
        raise SystemExit(1)
    click.echo(f"valid: {report.summary}")
    for note in report.notes:
        click.echo(note)


__all__ = ["prove", "check_certificate_file"]
