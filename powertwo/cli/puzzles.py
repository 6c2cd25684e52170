"""``powertwo solve|check|draw|results``: puzzles, solution files and game records."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

import click

from powertwo.boards import NodeError, read_node
from powertwo.boards.words import counted

from .common import Seconds, echo_json, fail, force_option, main, output_path, progress_display
from .limits import CHECK_SECONDS, UNDECIDED_EXIT
from .outputs import check_outputs, output_folder, write_answer
from .solve_options import OptionValue, PuzzleCommand
from powertwo.solvers.status import OPTIMAL, UNKNOWN

if TYPE_CHECKING:
    from powertwo.boards import Board
    from powertwo.solvers.registry import CheckReport, Puzzle


@main.command("solve", cls=PuzzleCommand)
@click.argument("puzzle")
@click.option("--board", default="power-of-two", show_default=True, help="Board NAME or FILE.")
@click.option("--json", "as_json", is_flag=True, help="Print the result object as JSON.")
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Also write the result JSON to this file.")
@force_option
def solve(puzzle: str, board: str, as_json: bool, out: str | None, force: bool,
          **options: OptionValue | None) -> None:
    """Solve PUZZLE to a proven optimum (or as far as the time limit allows). Its options are
    those PUZZLE takes (`powertwo solve PUZZLE --help`)."""
    import json

    from powertwo.boards import load
    from powertwo.solvers.registry import get_puzzle

    p = get_puzzle(puzzle)
    given = {k: v for k, v in options.items() if v is not None}
    kinds = {o.name: o.kind for o in p.options}
    written = {f"--{o.flag_name}": str(given[o.name]) for o in p.options if o.kind == "output" and o.name in given}
    read = [board, *(str(given[o.name]) for o in p.options if o.kind == "file" and o.name in given)]
    check_outputs({"--out": out, **written}, force, read)
    b = load(board)
    for key, value in given.items():
        if kinds[key] == "node":
            given[key] = node_argument(b, key, str(value))
    with progress_display(f"solving {puzzle}") as progress, _setup_notice(progress) as said:
        result = p.solve(b, progress=said, **given)
    if isinstance(result, dict) and result.get("board") not in (None, board) and Path(board).is_file():
        result["board"] = board  # a board FILE: name it by its path, so `check` and `draw` can load it
    if out:
        output_path(out, force, (*read, *written.values()))
        _, kept = write_answer(out, result, json.dumps(result, indent=1) + "\n")
        if kept:
            click.echo(f"powertwo: {kept}", err=True)
    if as_json:
        echo_json(result)
    else:
        for line in summary_lines(result, b):
            click.echo(line)


@contextmanager
def _setup_notice(progress: Callable[[str], None]) -> Iterator[Callable[[str], None]]:
    """``progress`` passed through, and the solver's last message of its first second said again
    at that second: a display shows nothing before a second, so a line such as "loading the search
    kernel (the first run after install compiles it ...)" would otherwise stay unseen through a long set-up."""
    last: list[str] = []

    def said(message: str) -> None:
        last[:] = [message]
        progress(message)

    def again() -> None:
        if last:
            progress(last[0])

    timer = threading.Timer(1.0, again)
    timer.daemon = True
    timer.start()
    try:
        yield said
    finally:
        timer.cancel()


def node_argument(board: Board, flag: str, text: str) -> int:
    """A node given on the command line: its label (``a13``) or its id (``60``; an id off the board
    is left to the puzzle, which checks it like any id)."""
    try:
        return read_node(board, text, f"--{flag}")
    except NodeError:
        if text.isascii() and text.isdigit() and len(text) <= 9:
            return int(text)
    raise click.BadParameter(f"node {text} does not exist on board {board.name} (give a label such as "
                             f"{board.label(1)}, or an id 1..{board.size})", param_hint=f"'--{flag}'")


NODE_FIELDS = frozenset({"stones", "answer", "light", "dark", "corner", "target", "position", "final_position", "place",
                         "jumps", "from", "answers_up_to_symmetry"})
"""Result fields whose numbers are node ids: a summary writes them as the board's labels."""


def summary_lines(result: Mapping[str, Any], board: Board) -> list[str]:
    """A result object for a person: status, objective, bound, time, then the answer itself
    (its stones, or one line per move or step), then every other field in plain words; nodes
    are written by their labels (``a13``), not their ids."""
    status = result.get("status")
    head = f"{result.get('puzzle', '?')} on board {result.get('board', '?')}" + (f": {status}" if status else "")
    if result.get("stopped"):
        head += f" ({result['stopped']}: " + ("no answer yet)" if result.get("objective", 0) is None
                                              or status == UNKNOWN else "best answer so far)")
    lines = [head]
    if "objective" in result:
        lines.append("objective: " + ("no answer found" if result["objective"] is None else str(result["objective"])))
    if result.get("bound") is not None:
        lines.append(f"bound: {result['bound']}" + (" (proven)" if status == OPTIMAL else ""))
    if "seconds" in result:
        lines.append(f"time: {result['seconds']} s")
    shown = {"puzzle", "board", "status", "objective", "bound", "seconds", "stopped"}
    stones = result.get("stones")
    if isinstance(stones, list):
        lines.append(f"stones ({len(stones)}): " + (_plain(stones, board) or "none"))
        shown.add("stones")
    for key, value in result.items():
        if key in shown:
            continue
        nodes = board if key in NODE_FIELDS and key != "stones" else None  # a number of stones: a supply
        if key == "record" and isinstance(value, list) or isinstance(value, list) and value and all(
                isinstance(v, dict) for v in value):
            lines.append(f"{key.replace('_', ' ')} ({len(value)}):")
            lines += [f"  {k:>3}. {_move_text(m, board)}" for k, m in enumerate(value, 1)]
        else:
            lines.append(f"{key.replace('_', ' ')}: {_plain(value, nodes)}")
    return lines


def _move_text(move: object, board: Board) -> str:
    if isinstance(move, dict):
        return ", ".join(f"{k} {_plain(v, board if k in NODE_FIELDS else None)}" for k, v in move.items())
    return _plain(move)


def _plain(value: object, nodes: Board | None = None) -> str:
    """``value`` in plain words; with ``nodes`` (a board) its whole numbers are that board's nodes,
    written by their labels."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if value and all(isinstance(v, list) for v in value):
            return "; ".join(" ".join(_plain(w, nodes) for w in v) for v in value)
        return " ".join(_plain(v, nodes) for v in value) if all(not isinstance(v, dict) for v in value) else \
            "; ".join(_plain(v, nodes) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v, nodes)}" for k, v in value.items())
    if nodes is not None and isinstance(value, int) and nodes.has_node(value):
        return nodes.label(value)
    return str(value)


BOARD_HELP = ("Judge a solution file against board NAME or FILE. A file that carries its board's fingerprint "
              "is judged only against the board it was made for (another board is refused, naming that one); "
              "a hand-written file without one is judged against this board instead of the one it names.")


def given_board(board: str | None, file: str, data: object) -> Board | None:
    """The ``--board`` a solution file is judged against (None: the board the file names); a
    game record names its own board, so ``--board`` is refused for one."""
    if board is None or not isinstance(data, dict) or "puzzle" not in data and "game" not in data:
        return None  # neither a solution nor a record: the command says so
    if "puzzle" not in data:
        from powertwo.solvers.registry import SolutionError

        raise SolutionError(f"{file}: --board applies to solution files; a game record names its board "
                            "in its field 'board'")
    from powertwo.boards import load

    return load(board)


@main.command("check")
@click.argument("file", type=click.Path(dir_okay=False, exists=True))
@click.option("--board", default=None, help=BOARD_HELP)
@click.option("--time-limit", "time_limit", type=Seconds(), default=CHECK_SECONDS, show_default=True,
              help="Seconds for checking a solution file (its loading included); past them the check ends "
                   f"'not decided within the limit' with exit code {UNDECIDED_EXIT}.")
def check(file: str, board: str | None, time_limit: float) -> None:
    """Check a solution file, a game record or a game proof (the certificate of `powertwo prove
    --proof`); exit 0 if valid, 1 with the faults, 2 for an input refused, 3 when a solution file or
    a proof is not decided within --time-limit."""
    from powertwo.solvers.proof_format import is_certificate
    from powertwo.solvers.registry import SolutionError, read_json_file

    if is_certificate(file):
        from .prove import check_certificate_file

        check_certificate_file(file, board, time_limit)
        return
    data = read_json_file(file)
    against = given_board(board, file, data)
    if isinstance(data, dict) and "puzzle" in data:
        report = _bounded_check(file, against, time_limit)
        if report.valid:
            click.echo(f"valid: {report.summary}" if report.summary else "valid")
            for note in report.notes:
                click.echo(note)
            return
        for fault in report.faults:
            click.echo(fault)
        raise SystemExit(1) from None
    if isinstance(data, dict) and "game" in data:
        from powertwo.rules import IllegalMoveError, InvalidMoveError, validate_record

        try:
            res = validate_record(data, where=file)
        except (IllegalMoveError, InvalidMoveError) as exc:
            click.echo(str(exc))
            raise SystemExit(1) from None
        tail = f"{res.outcome.reason}" if res.outcome else "game not over"
        winner = "" if res.outcome is None or res.outcome.winner is None else \
            f", {res.game.player_name(res.outcome.winner)} wins"
        click.echo(f"valid: {counted(len(res.moves), 'move')}, {tail}{winner}")
        return
    raise SolutionError(f"{file}: neither a solution (field 'puzzle') nor a game record (field 'game')")


def _bounded_check(file: str, against: Board | None, time_limit: float) -> CheckReport:
    """The check of a solution file in a child process capped at ``time_limit`` seconds (a spinner
    on a terminal past a second); exit :data:`UNDECIDED_EXIT` with one line when it is not decided."""
    from powertwo.solvers.bounded import CANCELLED, CRASHED, MEMORY, TIMEOUT, run_bounded
    from powertwo.solvers.registry import check_file

    with progress_display(f"checking {file}"):
        outcome = run_bounded(check_file, file, against, time_limit=time_limit)
    if outcome.status in (TIMEOUT, MEMORY, CANCELLED, CRASHED):
        fail(f"{file}: {outcome.message}", UNDECIDED_EXIT)
    report: CheckReport = outcome.result()
    return report


@main.command("draw")
@click.argument("file", type=click.Path(dir_okay=False, exists=True))
@click.option("-o", "--out", "out", required=True, type=click.Path(dir_okay=False), help="OUT.svg or OUT.png")
@click.option("--move", "move", type=int, default=None,
              help="Game records: the position after move N (0: the start; default: the last).")
@click.option("--labels", "names", flag_value="labels", default=None,
              help="Write every node's label beside it (a13): the default, but for the small panels of --all.")
@click.option("--ids", "names", flag_value="ids", help="Write every node's id (60) instead of its label.")
@click.option("--no-names", "names", flag_value="none", help="Write no node names.")
@click.option("--all", "all_answers", is_flag=True,
              help="Line-puzzle files solved with --all: every optimal answer, one panel each.")
@click.option("--board", default=None, help=BOARD_HELP)
@force_option
def draw(file: str, out: str, move: int | None, names: str | None, all_answers: bool, board: str | None,
         force: bool) -> None:
    """Draw a solution file or a game record to SVG or PNG, with a legend of what it shows.
    Nodes are named by their labels unless --ids or --no-names says otherwise. An option that
    does not apply to FILE is refused. A line puzzle's status is not checked by drawing (its
    stones and lines are): the title calls it "claimed"; `powertwo check` verifies it. A solution
    file without a board fingerprint that fails on the board it names but is valid on another
    shipped board of that kind is refused in the line `check` gives (pass --board to draw it)."""
    from powertwo.boards import draw as drawing
    from powertwo.solvers.registry import (SolutionError, file_checker, get_puzzle, read_json_file,
                                           refuse_if_made_elsewhere, solution_board)

    output_path(out, force, (file, board))
    data = read_json_file(file)
    against = given_board(board, file, data)
    if isinstance(data, dict) and "puzzle" in data:
        p = get_puzzle(str(data["puzzle"]))
        if against is None:  # an answer made before the default board changed: the line `check` gives
            _, check_on = file_checker(Path(file))
            refuse_if_made_elsewhere(data, file, solution_board(data, file), check_on)
        data = _claimed(data)
        if p.diagram is None:
            raise SolutionError(f"puzzle {p.name} has no diagram")
        if move is not None:
            raise SolutionError(f"{file}: --move applies to game records; this is a {p.name} solution")
        options = _draw_options(p, file, names, all_answers)
        fig = p.diagram(data, solution_board(data, file, against), **options)
    elif isinstance(data, dict) and "game" in data:
        from powertwo.rules import validate_record

        if all_answers:
            raise SolutionError(f"{file}: --all applies to line-puzzle solution files, not to game records")
        res = validate_record(data, where=file)
        n = len(res.moves) if move is None else move
        if not 0 <= n <= len(res.moves):
            raise SolutionError(f"{file}: --move {n} is outside 0..{len(res.moves)}")
        kw = res.game.diagram(res.states[n], res.moves[n - 1] if n > 0 else None)
        kw.setdefault("title", f"{res.game.title or res.game.name}: after move {n}")
        fig = drawing.figure(res.game.board, names=None if names == "none" else names or "labels", **kw)
    else:
        raise SolutionError(f"{file}: neither a solution (field 'puzzle') nor a game record (field 'game')")
    path = drawing.save(fig, out)
    click.echo(f"wrote {path}")


def _claimed(data: dict[str, Any]) -> dict[str, Any]:
    """A line-puzzle solution whose status the drawing shows as claimed, not verified (the other
    puzzles' diagrams check the whole file before drawing)."""
    from powertwo.solvers.lines.variants import PUZZLES as LINE_PUZZLES

    if data.get("puzzle") in LINE_PUZZLES and isinstance(data.get("status"), str) and data["status"]:
        return {**data, "status": f"claimed {data['status']}"}
    return data


def _draw_options(puzzle: Puzzle, file: str, names: str | None, all_answers: bool) -> dict[str, Any]:
    """The keywords of ``puzzle``'s diagram for ``--labels/--ids/--no-names`` and ``--all``
    (refused where the diagram does not take them). Without one of the three, a diagram names its
    nodes as it does by default (none in the small panels of ``--all``)."""
    from powertwo.solvers.registry import SolutionError

    options: dict[str, Any] = {}
    if all_answers:
        if "all_answers" not in puzzle.draw_options:
            raise SolutionError(f"{file}: --all does not apply to a {puzzle.name} solution")
        options["all_answers"] = True
    if "names" in puzzle.draw_options:
        if names is not None or all_answers:
            options["names"] = None if names in (None, "none") else names
    elif names is not None:
        flag = {"labels": "--labels", "ids": "--ids", "none": "--no-names"}[names]
        raise SolutionError(f"{file}: {flag} does not apply to a {puzzle.name} solution")
    return options


@main.command("results")
@click.option("--out", default="results", show_default=True, type=click.Path(file_okay=False))
@click.option("--only", multiple=True, help="Only these puzzles (repeatable).")
@click.option("--force", is_flag=True, help="Write into an OUT/ that already holds files (the job replaces its own).")
def results(out: str, only: tuple[str, ...], force: bool) -> None:
    """The main job: every answer with proof status, timing and diagram, into OUT/. Ctrl-C stops
    the whole job (exit 130): every file is written whole or not at all, and a step that was
    running writes nothing."""
    from powertwo.solvers.results import CENSUS, INFERENCE, PROVE, jobs, run_all
    from powertwo.solvers.satcall import JobInterrupted, ctrl_c_stops_the_job

    known = [name for name, _ in jobs()] + [INFERENCE, CENSUS, PROVE]
    for name in only:
        if name not in known:
            fail(f"--only {name}: not a step of the results job (known: {', '.join(known)})")
    output_folder(out, force)
    try:
        with progress_display("results", after=0.0, log=True) as progress, ctrl_c_stops_the_job():
            rows = run_all(Path(out), progress, only=only or None)
    except JobInterrupted as exc:
        fail(str(exc), 130)
    if only:
        readme = Path(out) / "README.md"
        click.echo(f"wrote {len(rows)} results into {out}/ " + (
            f"(their rows in {readme} and their timings replaced; the other rows kept)" if readme.exists()
            else f"(no {readme} to update: a full run writes it)"))
    else:
        click.echo(f"wrote {Path(out) / 'README.md'} ({len(rows)} rows)")


__all__ = ["solve", "check", "draw", "results", "fail"]
