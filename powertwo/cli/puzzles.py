"""``powertwo solve|check|draw|results``: puzzles, solution files and game records."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from .common import echo_json, fail, main

SOLVE_OPTIONS = ("backend", "time_limit", "all_solutions", "strict", "stones", "corner", "position",
                 "symmetry", "proof", "target", "memory")


@main.command("solve")
@click.argument("puzzle")
@click.option("--board", default="power-of-two", show_default=True, help="Board NAME or FILE.")
@click.option("--backend", default=None, help="cp-sat | sat (line puzzles); search | sat (jump-reverse).")
@click.option("--time-limit", "time_limit", type=float, default=None,
              help="Seconds; when it runs out, the best answer so far with status 'feasible'.")
@click.option("--all", "all_solutions", is_flag=True, default=None, help="Enumerate every optimal answer.")
@click.option("--strict", is_flag=True, default=None, help="two-by-two: every line holds 0 or 2 stones.")
@click.option("--stones", default=None, help="thats-my-line: stones per side, a number or 'unlimited'.")
@click.option("--corner", type=int, default=None, help="jump-forward: the jumper's corner node.")
@click.option("--position", type=click.Path(dir_okay=False), default=None, help="jump-reverse: a position FILE.")
@click.option("--target", type=int, default=None, help="jump-reverse: the node that must hold the last stone.")
@click.option("--memory", type=int, default=None, help="jump-reverse: MiB for the search's hash tables (default 4096).")
@click.option("--symmetry/--no-symmetry", default=None, help="Symmetry breaking (on by default).")
@click.option("--proof", type=click.Path(dir_okay=False), default=None,
              help="sat backend: write the DRAT proof of the last call.")
@click.option("--json", "as_json", is_flag=True, help="Print the result object as JSON.")
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Also write the result JSON to this file.")
def solve(puzzle: str, board: str, as_json: bool, out: str | None, **options) -> None:
    """Solve PUZZLE to a proven optimum (or as far as the time limit allows)."""
    import json

    from powertwo.boards import load
    from powertwo.solvers.registry import SolutionError, get_puzzle

    p = get_puzzle(puzzle)
    given = {k: v for k, v in options.items() if v is not None}
    unknown = [k for k in given if k not in p.options]
    if unknown:
        option = unknown[0].replace('_', '-').replace('all-solutions', 'all')
        raise SolutionError(f"puzzle {puzzle} does not take --{option}")
    live = _LiveProgress() if p.name == "jump-reverse" else None
    if live is not None:
        given["progress"] = live
    try:
        result = p.solve(load(board), **given)
    finally:
        if live is not None:
            live.stop()
    if isinstance(result, dict) and result.get("board") not in (None, board) and Path(board).is_file():
        result["board"] = board  # a board FILE: name it by its path, so `check` and `draw` can load it
    if out:
        Path(out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if as_json:
        echo_json(result)
    else:
        _summary(result)


class _LiveProgress:
    """Progress of a long search on stderr (stdout stays the result): after the first second, the
    latest message on one transient rich status line, or on a pipe one line every 5 s."""

    def __init__(self) -> None:
        from rich.console import Console

        self.console = Console(stderr=True)
        self.began = self.printed = time.perf_counter()
        self.status: Any = None

    def __call__(self, message: str) -> None:
        now = time.perf_counter()
        if now - self.began < 1:
            return
        if not self.console.is_terminal:
            if now - self.printed >= 5:
                self.printed = now
                click.echo(message, err=True)
        elif self.status is None:
            self.status = self.console.status(message)
            self.status.start()
        else:
            self.status.update(message)

    def stop(self) -> None:
        if self.status is not None:
            self.status.stop()


def _summary(result: dict) -> None:
    for key, value in result.items():
        if isinstance(value, list) and len(value) > 12 and isinstance(value[0], (dict, list)):
            click.echo(f"{key}: {len(value)} entries (see --json)")
        elif isinstance(value, (dict, list)):
            text = str(value)
            click.echo(f"{key}: {text if len(text) < 300 else text[:297] + '...'}")
        else:
            click.echo(f"{key}: {value}")


@main.command("check")
@click.argument("file", type=click.Path(dir_okay=False))
def check(file: str) -> None:
    """Check a solution file or a game record; exit 0 if valid, 1 with the faults."""
    from powertwo.solvers.registry import SolutionError, get_puzzle, read_json_file, solution_board

    data = read_json_file(file)
    if isinstance(data, dict) and "puzzle" in data:
        if not isinstance(data["puzzle"], str):
            raise SolutionError(f"{file}: field 'puzzle' must be a string")
        p = get_puzzle(data["puzzle"])
        report = p.check(data, solution_board(data, file))
        if report.valid:
            click.echo("valid")
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
        winner = ("" if res.outcome is None or res.outcome.winner is None
                  else f", {res.game.player_name(res.outcome.winner)} wins")
        click.echo(f"valid: {len(res.moves)} moves, {tail}{winner}")
        return
    raise SolutionError(f"{file}: neither a solution (field 'puzzle') nor a game record (field 'game')")


@main.command("draw")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--out", "out", required=True, type=click.Path(dir_okay=False), help="OUT.svg or OUT.png")
@click.option("--move", "move", type=int, default=None,
              help="Game records: the position after move N (default: the last).")
@click.option("--ids", is_flag=True, help="Write node ids.")
def draw(file: str, out: str, move: int | None, ids: bool) -> None:
    """Draw a solution file or a game record to SVG or PNG."""
    from powertwo.boards import draw as drawing
    from powertwo.solvers.registry import SolutionError, get_puzzle, read_json_file, solution_board

    data = read_json_file(file)
    if isinstance(data, dict) and "puzzle" in data:
        p = get_puzzle(str(data["puzzle"]))
        if p.diagram is None:
            raise SolutionError(f"puzzle {p.name} has no diagram")
        fig = p.diagram(data, solution_board(data, file))
    elif isinstance(data, dict) and "game" in data:
        from powertwo.rules import validate_record

        res = validate_record(data, where=file)
        n = len(res.moves) if move is None else move
        if not 0 <= n <= len(res.moves):
            raise SolutionError(f"{file}: --move {n} is outside 0..{len(res.moves)}")
        kw = res.game.diagram(res.states[n], res.moves[n - 1] if n > 0 else None)
        kw.setdefault("title", f"{res.game.title or res.game.name}: after move {n}")
        fig = drawing.figure(res.game.board, ids=ids, **kw)
    else:
        raise SolutionError(f"{file}: neither a solution (field 'puzzle') nor a game record (field 'game')")
    path = drawing.save(fig, out)
    click.echo(f"wrote {path}")


@main.command("results")
@click.option("--out", default="results", show_default=True, type=click.Path(file_okay=False))
@click.option("--only", multiple=True, help="Only these puzzles (repeatable).")
def results(out: str, only: tuple[str, ...]) -> None:
    """The main job: every answer with proof status, timing and diagram, into OUT/."""
    from powertwo.solvers.results import run_all

    def progress(message: str) -> None:
        click.echo(f"[{time.strftime('%H:%M:%S')}] {message}", err=True)

    rows = run_all(Path(out), progress, only=only or None)
    if only:
        click.echo(f"wrote {len(rows)} results into {out}/ ({out}/README.md is written only by a full run)")
    else:
        click.echo(f"wrote {Path(out) / 'README.md'} ({len(rows)} rows)")


__all__ = ["solve", "check", "draw", "results", "fail"]
