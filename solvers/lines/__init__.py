"""One by One, the line cover, and Two by Two (RULES.md section 5): solved to proven optima
by CP-SAT and by SAT, checked, drawn, and certified.

Registers three puzzles: ``one-by-one``, ``line-cover`` and ``two-by-two`` (options ``strict``,
``at_most`` and ``table``).
The work is split by job, one module each:

- :mod:`.variants`: the variants as data (model module, options, line rule);
- :mod:`.options`: the solve options, read once (:class:`.options.LineOptions`);
- :mod:`.backends`: the CP-SAT and SAT backends, and the DRAT certificate of an optimum;
- :mod:`.answers`: every optimal answer, and the canonical one;
- :mod:`.files`: the typed result, the solution file, the diagram;
- :mod:`.checker`: the checker (every field verified or refused); :mod:`.live`: the workbench's live check;
- :mod:`.table`: Two by Two's optimum for every stone count, and its plot;
- :mod:`.results_step`: the part of ``make results``;
- :mod:`.export`: DIMACS, WCNF, CP-SAT protobuf and GraphML.

This module holds :func:`solve` (what ``powertwo solve`` runs) and the registration, and
re-exports the names the tests and benchmarks use.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Callable

from powertwo.boards import Board
from powertwo.boards.outfile import write_text

from ..fields import SolutionError, seconds_value
from .answers import MAX_ANSWERS, Answers, enumerate_cpsat, enumerate_sat
from .backends import BACKENDS, Outcome, certify, run, solve_cpsat, solve_sat
from .checker import CHECK_TIME_LIMIT, check, confirmed, confirmed_answers, confirmed_by_sat
from .export import EXPORT_FORMATS, export_text
from .files import LineResult, answer_fields, diagram, dumps
from .live import live_check
from .options import BOARD, LineOptions, keywords
from .results_step import results
from .table import count_table
from .variants import STONES, VARIANTS, LineRule, Variant, lines_with_two, stone_limit, variant
from ..registry import (
    Clicks, Option, Progress, Puzzle, PuzzlePage, ResultRow, Steps, Verdict, no_progress, register_puzzle,
    time_limit_option,
)
from ..schemas import LineAnswer
from ..status import OPTIMAL, STATUSES

__all__ = [
    "BACKENDS", "CHECK_TIME_LIMIT", "EXPORT_FORMATS", "MAX_ANSWERS", "STATUSES", "STONES", "VARIANTS", "Answers",
    "LineResult", "LineRule", "Outcome", "SolutionError", "Variant", "answer_fields", "certify", "check", "confirmed",
    "confirmed_answers", "confirmed_by_sat", "diagram", "dumps", "enumerate_cpsat", "enumerate_sat", "export_text",
    "lines_with_two", "results", "run", "solve", "solve_cpsat", "solve_sat", "stone_limit", "variant",
]


def solve(board: Board, puzzle: str = "one-by-one", *, progress: Progress = no_progress,
          **options: Any) -> dict[str, Any]:
    """Solve a line puzzle: the solution file's object (see :mod:`.files`). ``options`` are the
    fields of :class:`.options.LineOptions` by name (the signature lists them). A time limit or
    Ctrl-C ends the search with the best answer so far (status ``feasible``, with its bound).
    ``table`` solves Two by Two for every stone count instead (:mod:`.table`; ``time_limit`` is
    then per count)."""
    given = LineOptions(**options)
    var = variant(puzzle, bool(given.strict), bool(given.at_most))
    return (_table if given.table else _search)(board, var, given, progress)


solve.__signature__ = keywords(  # type: ignore[attr-defined]
    BOARD, inspect.Parameter("puzzle", inspect.Parameter.POSITIONAL_OR_KEYWORD, default="one-by-one",
                             annotation="str"))


def _table(board: Board, var: Variant, given: LineOptions, progress: Progress) -> dict[str, Any]:
    """``--table``: Two by Two's optimum for every stone count, each with cp-sat."""
    if given.stones is not None or given.all_solutions or given.proof is not None or given.backend != "cp-sat":
        raise SolutionError("--table solves every stone count with cp-sat: it takes no --stones, --all, "
                            "--proof or --backend")
    return count_table(board, var, time_limit=seconds_value(given.time_limit), symmetry=given.symmetry,
                       progress=progress).to_json()


def _search(board: Board, var: Variant, given: LineOptions, progress: Progress) -> dict[str, Any]:
    """One search for the optimum, then its optimal answers (``--all``) and its DRAT proof (``--proof``)."""
    backend, symmetry, proof = given.backend, given.symmetry, given.proof
    limit = stone_limit(given.stones, board, var)
    if backend not in BACKENDS:
        raise SolutionError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if proof is not None and backend != "sat":
        raise SolutionError("--proof needs --backend sat (the DRAT proof comes from the SAT solver)")
    time_limit = seconds_value(given.time_limit)
    progress(f"{var.name}: solving with {backend}")
    outcome = run(board, var, backend, stones=limit, symmetry=symmetry, time_limit=time_limit, progress=progress)
    answers = None
    if given.all_solutions and outcome.status == OPTIMAL and outcome.objective is not None:
        progress(f"{var.name}: enumerating the optimal answers")
        enum = enumerate_cpsat if backend == "cp-sat" else enumerate_sat
        answers = enum(board, var, outcome.objective, stones=limit, symmetry=symmetry)
    cert = files = None
    if proof is not None:
        cert = certify(board, var, outcome, limit)
        if cert is None:
            raise SolutionError(f"--proof: nothing to prove, the status is {outcome.status}")
        write_text(proof, cert.proof)
        files = {"proof": Path(proof).name}  # named relative to the result file: write both in one folder
    res = LineResult(board, var, backend, outcome, outcome.stones, stone_limit=limit,
                     symmetry_breaking=bool(symmetry), answers=answers, certificate=cert,
                     certificate_files=files or {})
    out = res.to_json()
    if outcome.interrupted:
        out["stopped"] = "interrupted (Ctrl-C)"
    return out


def _solve_hook(name: str) -> Callable[..., dict]:
    def hook(board: Board, *, progress: Progress = no_progress, **options: Any) -> dict[str, Any]:
        return solve(board, name, progress=progress, **options)

    hook.__doc__ = f"Solve {name} (see :func:`solve`)."
    hook.__signature__ = keywords(BOARD)  # type: ignore[attr-defined]  # its keywords are the puzzle's options
    return hook


def _results_hook(*names: str) -> Callable[[Path, Progress], list[ResultRow]]:
    def hook(out: Path, progress: Progress) -> list[ResultRow]:
        return results(out, progress, names=names)

    return hook


CLICKS = Clicks("toggle", "click a node to put a stone on it, click it again to take the stone off", "stones",
                "check")
AT_MOST_STONES = Option("stones", "stone limit", "int", STONES, minimum=0, maximum=999_999_999, unit="stones",
                        words=("unlimited",),
                        help=f"At most N stones, a number or 'unlimited' (default {STONES}).")
OPTIONS = (
    Option("backend", "backend", "choice", "cp-sat", choices=BACKENDS, recorded=True),
    time_limit_option(),
    Option("symmetry", "symmetry breaking", "bool", True, help="Symmetry breaking (on by default)."),
    Option("all_solutions", "every optimal answer", "bool", False, flag="all", help="Enumerate every optimal answer."),
    Option("proof", "DRAT proof", "output", None, page=False,
           help="sat backend: write the DRAT proof of the last call (beside the --out file)."),
)
"""The solve options of every line puzzle, besides its ``stones`` (``proof`` writes a file: the
command line's alone)."""
TWO_BY_TWO_OPTIONS = (
    Option("stones", "stone limit", "int", STONES, minimum=0, maximum=999_999_999, unit="stones",
           words=("unlimited",), help=f"Exactly N stones (default {STONES}); with --at-most, at most N."),
    Option("strict", "strict: every line holds 0 or 2", "bool", False, recorded=True,
           help="Every line holds 0 or 2 stones."),
    Option("at_most", "at most: the stones are a limit (the earlier reading)", "bool", False,
           help="--stones N is an upper bound (the earlier reading), not the exact count."),
    Option("table", "the optimum for every stone count", "bool", False, page=False,
           help="The optimum for every stone count 0..nodes (--time-limit: CP-SAT work seconds per count, "
                "default 20, the same answer on every machine)."),
)


def page(name: str, goal: str, reached: str) -> PuzzlePage:
    """The workbench's description of a line puzzle: stones toggled by clicks, checked live;
    ``reached`` is what a complete answer's stones do."""
    var = variant(name)
    return PuzzlePage(
        goal=goal, clicks=CLICKS,
        verdict=Verdict(("invalid", "valid, not optimal", "valid, optimal"),
                        ("objective", "optimum", "bad_lines", "line_counts"), var.unit, var.sense),
        steps=Steps("stones", "{stones} stones", reached), committed=f"{name}.json")


for _name, _title, _order, _names, _options, _goal, _reached in (
        ("one-by-one", "One by One", 10, ("one-by-one",), OPTIONS[:2] + (AT_MOST_STONES,) + OPTIONS[2:],
         "the fewest stones with exactly one stone on every line", "every line holds exactly one stone"),
        ("line-cover", "Line cover (One by One relaxed)", 11, ("line-cover",),
         OPTIONS[:2] + (AT_MOST_STONES,) + OPTIONS[2:],
         "the fewest stones with at least one stone on every line", "every line holds at least one stone"),
        ("two-by-two", "Two by Two", 12, tuple(n for n in VARIANTS if n.startswith("two-by-two")),
         OPTIONS[:2] + TWO_BY_TWO_OPTIONS[:1] + OPTIONS[2:] + TWO_BY_TWO_OPTIONS[1:],
         f"all {STONES} stones, the most lines holding exactly two", "the most lines hold exactly two")):
    register_puzzle(Puzzle(name=_name, title=_title, solve=_solve_hook(_name), check=check, diagram=diagram,
                           results=_results_hook(*_names), options=_options, order=_order, reads_files=True,
                           draw_options=("names", "all_answers"), answer=LineAnswer,
                           page=page(_name, _goal, _reached), live_check=live_check))
