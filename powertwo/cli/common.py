"""The click group and the shared error handling of the CLI."""

from __future__ import annotations

import json
import sys
from typing import Any

import click


class Group(click.Group):
    """Turns library errors into one line on stderr and exit code 2 (never a traceback)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except BrokenPipeError:  # output piped into `head`: stop quietly
            sys.stderr.close()
            sys.exit(0)
        except (ValueError, OSError) as exc:  # library errors are ValueError subclasses
            fail(str(exc) or exc.__class__.__name__)
        except KeyboardInterrupt:  # pragma: no cover - interactive
            click.echo("interrupted", err=True)
            sys.exit(130)


def fail(message: str, code: int = 2) -> None:
    """One line on stderr, then exit."""
    click.echo(f"powertwo: {message.splitlines()[0] if message else 'error'}", err=True)
    sys.exit(code)


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=1, sort_keys=False))


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="powertwo")
def main() -> None:
    """Solve, check and draw the puzzles of The Power of Two, and referee its games."""
