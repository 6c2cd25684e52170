"""``powertwo solve``'s flags, made from the puzzles' own option declarations.

Each puzzle declares its solve options once (:class:`powertwo.solvers.registry.Option`); the
flags of ``powertwo solve PUZZLE`` are made from those of PUZZLE alone, so only its package is
imported (``powertwo solve --help``, without a puzzle, lists every puzzle's). A flag the puzzle
does not take is refused in one line naming it (``puzzle one-by-one does not take --strict``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, Union

import click

from .common import Seconds
from .limits import MemoryMiB, Workers

if TYPE_CHECKING:
    from powertwo.solvers.registry import Option, Puzzle

OptionValue = Union[str, int, float, bool]
"""A solve option's value as the command line hands it to the puzzle's ``solve``: text the solver
reads itself (a number of stones, a backend, a score, a file), a node id, seconds, a count, a flag."""


def _param_type(kind: str, unit: str) -> click.ParamType[OptionValue]:
    """The click type of an option's flag: machine limits and seconds checked here, every other
    value handed to the solver as text (it reads it and names what is wrong)."""
    if kind == "cores":
        return Workers()
    if kind == "mib":
        return MemoryMiB()
    if kind == "float" and unit == "s":
        return Seconds()
    if kind in ("file", "output"):
        return click.Path(dir_okay=False)
    return click.STRING


def option_params(puzzles: Sequence[Puzzle]) -> list[click.Option]:
    """One flag per option name over ``puzzles`` (:class:`~powertwo.solvers.registry.Puzzle`), its
    help the option's own, prefixed with the puzzles that take it when they are not all alike."""
    declared: dict[str, list[tuple[str, Option]]] = {}
    for puzzle in puzzles:
        for option in puzzle.options:
            declared.setdefault(option.name, []).append((puzzle.name, option))
    params = []
    for name, uses in declared.items():
        first = uses[0][1]
        helps: dict[str, list[str]] = {}
        for puzzle_name, option in uses:
            helps.setdefault(option.help_text, []).append(puzzle_name)
        text = first.help_text if len(helps) == 1 and len(uses) == len(puzzles) else "; ".join(
            f"{', '.join(names)}: {help_text.rstrip('.')}" for help_text, names in helps.items()) + "."
        flag = f"--{first.flag_name}"
        if first.kind == "bool":
            decl = f"{flag}/--no-{first.flag_name}" if first.default is True else flag
            params.append(click.Option([decl, name], is_flag=True, default=None, help=text))
        else:
            params.append(click.Option([flag, name], type=_param_type(first.kind, first.unit), default=None,
                                       metavar=_metavar(first), help=text))
    return params


def _metavar(option: Option) -> str | None:
    """How the flag's value is written in the help (None: its type's own name)."""
    if option.kind == "choice":
        return "|".join(option.choices)
    if option.kind == "int":
        return "|".join(("N", *option.words))
    return {"node": "NODE", "text": "TEXT"}.get(option.kind)


def _puzzle_in(args: Sequence[str]) -> str | None:
    """The puzzle a command line names: its first word that is a puzzle's name."""
    from powertwo.solvers.registry import PUZZLE_MODULES, PUZZLES

    known = set(PUZZLES).union(*PUZZLE_MODULES.values())
    return next((a for a in args if a in known), None)


class PuzzleCommand(click.Command):
    """A command whose first argument is a puzzle and whose further flags are that puzzle's
    options (:func:`option_params`); without a known puzzle, every puzzle's."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("context_settings", {"ignore_unknown_options": True, "allow_extra_args": True})
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.common: list[click.Parameter] = list(self.params)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        from powertwo.solvers.registry import get_puzzle, puzzle_names

        name = _puzzle_in(args)
        if name is not None:
            args = [name, *(a for k, a in enumerate(args) if k != args.index(name))]
            puzzles = [get_puzzle(name)]
        else:
            puzzles = [get_puzzle(n) for n in puzzle_names()]
        self.params = [*self.common, *option_params(puzzles)]
        rest = super().parse_args(ctx, args)
        flags = [a.partition("=")[0] for a in ctx.args if a.startswith("-")]
        if flags and name is not None:
            raise click.UsageError(f"puzzle {name} does not take {flags[0]}", ctx)
        if ctx.args:
            raise click.UsageError(f"unexpected {'option' if flags else 'argument'} {(flags or ctx.args)[0]}", ctx)
        return rest


__all__ = ["OptionValue", "PuzzleCommand", "option_params"]
