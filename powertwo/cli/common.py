"""The click group, the shared error handling and the progress display of the CLI."""

from __future__ import annotations

import json
import math
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator

import click

LONG_VALUE = 120
"""Values quoted in an error are cut to this many characters (a 5,001-digit number is not echoed)."""


def _short(text: str) -> str:
    words = []
    for word in text.split(" "):
        core = word.strip("'\".,")
        words.append(word if len(word) <= LONG_VALUE else f"'{core[:40]}...' ({len(core)} characters)")
    return " ".join(words)


class Group(click.Group):
    """Turns library errors and bad arguments into one line on stderr and exit code 2 (never a
    traceback, never click's usage text), and Ctrl-C into exit code 130."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as exc:  # bad option, bad value, missing argument
            where = exc.ctx.command_path if exc.ctx is not None else "powertwo"
            hint = "" if exc.ctx is None else f" (see {where} --help)"
            click.echo(f"{where}: {_short(exc.format_message())}{hint}", err=True)
            sys.exit(2)
        except click.ClickException as exc:
            click.echo(f"powertwo: {_short(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("interrupted", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except BrokenPipeError:  # output piped into `head`: stop quietly
            sys.stderr.close()
            sys.exit(0)
        except OSError as exc:  # "x.json: No such file or directory", never "[Errno 2] ..."
            fail(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror
                 else exc.strerror or exc.__class__.__name__)
        except ValueError as exc:  # library errors are ValueError subclasses
            text = str(exc)
            if "int_max_str_digits" in text or "integer string conversion" in text:
                text = "a number with too many digits (more than 4,300)"
            fail(text or exc.__class__.__name__)
        except RecursionError:
            fail("input nested too deeply")
        except KeyboardInterrupt:  # pragma: no cover - interactive
            click.echo("interrupted", err=True)
            sys.exit(130)


def fail(message: str, code: int = 2) -> None:
    """One line on stderr, then exit."""
    click.echo(f"powertwo: {_short(message.splitlines()[0]) if message else 'error'}", err=True)
    sys.exit(code)


class OutputError(ValueError):
    """An output path that would destroy something: an existing file without ``--force``, or an
    input of the same command."""


def output_path(path: str | Path, force: bool, inputs: Iterable[str | Path | None] = ()) -> Path:
    """The file a command may write: refused (one :class:`OutputError` line) when it already
    exists and ``force`` is false, when it is a directory, or when it is one of ``inputs`` (the
    files the command reads, such as a board file or the answer file; never overwritten, even with
    ``force``). Inputs that are shipped names rather than files are ignored."""
    out = Path(path)
    for given in inputs:
        if given is None:
            continue
        source = Path(given)
        try:
            same = source.exists() and out.exists() and out.samefile(source)
        except OSError:
            same = False
        if same or out.resolve() == source.resolve():
            raise OutputError(f"{out}: is also an input of this command, not overwritten (write elsewhere)")
    if out.is_dir():
        raise OutputError(f"{out}: is a directory, give a file to write")
    if out.exists() and not force:
        raise OutputError(f"{out}: already exists, not overwritten (give --force to replace it)")
    return out


def force_option(command: Any) -> Any:
    """The ``--force`` flag every command that writes a file takes."""
    return click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")(command)


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=1, sort_keys=False))


class Seconds(click.ParamType):
    """A time limit: a positive, finite number of seconds (``nan``, ``inf``, 0 refused)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):
            seconds = value
        else:
            try:
                seconds = float(str(value))
            except ValueError:
                self.fail(f"{str(value)!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value} is not a positive, finite number of seconds", param, ctx)
        return seconds


HEARTBEAT_FIRST = 2.0
"""Seconds of work after which a pipe or a log hears of it, though the work has said nothing."""
HEARTBEAT_EVERY = 10.0
"""Seconds of silence after which a pipe or a log hears again that the work goes on."""


@contextmanager
def progress_display(title: str, after: float = 1.0, log: bool = False) -> Iterator[Any]:
    """A progress callback for library code: each message replaces a spinner line on stderr
    (rich), shown only when the work takes longer than ``after`` seconds and stderr is a
    terminal (with ``log`` every message also stays as a line above it); elsewhere (pipes, CI
    logs) each message is one timestamped line, and when stderr is a pipe or a file, work that
    goes on past :data:`HEARTBEAT_FIRST` seconds, or stays silent for :data:`HEARTBEAT_EVERY`,
    gets a timestamped line saying what it is doing and for how long (:func:`_heartbeat`)."""
    from rich.console import Console

    console = Console(stderr=True)
    if not console.is_terminal:
        with _heartbeat(title, after) as plain:
            yield plain
        return
    import threading

    status = console.status(title, spinner="dots")
    timer = threading.Timer(after, status.start)
    timer.daemon = True

    def show(message: str) -> None:
        status.update(f"{title}: {message}")
        if log:
            console.log(message)

    timer.start()
    try:
        yield show
    finally:
        timer.cancel()
        status.stop()


@contextmanager
def _heartbeat(title: str, after: float) -> Iterator[Any]:
    """The plain progress of :func:`progress_display`: each message (past ``after`` seconds) as a
    timestamped line, and, where stderr is a real pipe or file (a descriptor: not the in-memory
    stream of a test runner), a line from a timer thread when the work has run
    :data:`HEARTBEAT_FIRST` seconds unheard, then each :data:`HEARTBEAT_EVERY` seconds of silence:
    ``[12:00:07] checking f.json: still working (7 s)``."""
    import threading

    began = time.perf_counter()
    last = [""]  # the last message
    said = [began]  # when the last line was written
    lock = threading.Lock()

    def line(text: str) -> None:
        click.echo(f"[{time.strftime('%H:%M:%S')}] {text}", err=True)

    def plain(message: str) -> None:
        with lock:
            last[0] = message
            if time.perf_counter() - began >= after:
                said[0] = time.perf_counter()
                line(message)

    stop = threading.Event()

    def beat() -> None:
        wait = HEARTBEAT_FIRST
        while not stop.wait(wait):
            with lock:
                now = time.perf_counter()
                quiet = now - said[0]
                due = HEARTBEAT_FIRST if said[0] == began else HEARTBEAT_EVERY
                if quiet >= due - 0.05:
                    line(f"{f'{title}: {last[0]}' if last[0] else title} (still working, {now - began:.0f} s)")
                    said[0] = now
                    quiet = 0.0
                wait = max(0.1, HEARTBEAT_EVERY - quiet)

    timer = threading.Thread(target=beat, daemon=True, name="heartbeat")
    if _real_stream(sys.stderr):
        timer.start()
    try:
        yield plain
    finally:
        stop.set()


def _real_stream(stream: Any) -> bool:
    """Whether ``stream`` is backed by a file descriptor (a pipe, a file, a terminal)."""
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="powertwo")
def main() -> None:
    """Solve, check and draw the puzzles of The Power of Two, and referee its games."""
