"""That's My Line solitaire (RULES.md section 5): the proven maximum, delivered as a legal game;
and That's My Line with a given result (``score``): a legal game that ends with it, or the proof
that none does.

:func:`solve` asks a model (:mod:`powertwo.models.thats_my_line`) for the final position of a legal game
with the most stones, proves that no legal game ends with more (CP-SAT: status OPTIMAL; SAT:
unsatisfiable with at least one stone more), turns the position into a game record (placements
in a legal order, passes only when forced) and replays that record through the That's My Line
referee (:mod:`powertwo.rules.thats_my_line`) before returning it. :func:`check` trusts nothing in a
solution file that it can recompute: it replays the record, and re-proves the claimed bound.

The work is split by job: :mod:`.game` (names, supply, the record through the referee),
:mod:`.backends` (both backends), :mod:`.score` (the score question), :mod:`.checker`,
:mod:`.certificate` (the DRAT certificate of an optimum or of a score no game reaches),
:mod:`.live` (the workbench's live check), :mod:`.drawing` and :mod:`.results_step` (the part of
``make results``). This module
registers the puzzle and re-exports the names the tests and benchmarks use.
"""

from __future__ import annotations

from ..registry import Clicks, Option, Puzzle, PuzzlePage, Steps, Verdict, register_puzzle, time_limit_option
from ..schemas import ThatsMyLineAnswer
from .certificate import certificate_cnf, certify_optimum, write_gzip
from ..status import STATUSES
from .checker import CHECK_TIME_LIMIT, FIELDS, bound_holds, check, max_record
from .drawing import diagram
from .live import live_check
from .game import BACKENDS, GAME, PUZZLE, SAT_SOLVER, answer_record, legal_record, record_moves, replay, supply_of, \
    supply_text, trivial_bound, unfinished
from .backends import optimal_splits, solve
from .results_step import results
from .score import Score, read_score

__all__ = [
    "BACKENDS", "CHECK_TIME_LIMIT", "FIELDS", "GAME", "PUZZLE", "SAT_SOLVER", "STATUSES", "Score", "bound_holds",
    "certificate_cnf", "certify_optimum", "check", "diagram", "legal_record", "max_record", "optimal_splits",
    "read_score", "record_moves", "replay", "results", "solve", "supply_of", "supply_text", "trivial_bound",
    "unfinished", "write_gzip",
]


register_puzzle(Puzzle(
    name=PUZZLE,
    title="That's My Line solitaire: the most stones a legal game can end with",
    solve=solve,
    check=check,
    diagram=diagram,
    results=results,
    options=(
        Option("backend", "backend", "choice", "cp-sat", choices=BACKENDS, recorded=True),
        time_limit_option(),
        Option("stones", "stones per side", "int", 16, minimum=0, maximum=999_999_999, unit="stones",
               words=("unlimited",), help="Stones per side, a number or 'unlimited' (default 16)."),
        Option("symmetry", "symmetry breaking", "bool", True, recorded=True, help="Symmetry breaking (on by default)."),
        Option("score", "a game that ends Light:Dark (e.g. 19:16; empty: the most stones)", "text", None,
               help="A legal game that ends with L Light and D Dark stones (19:16), or the proof that none does."),
        Option("proof", "DRAT certificate", "output", None, page=False,
               help="NAME.drat.gz, the DRAT certificate of the optimum or of a score no game reaches, its CNF "
                    "beside it as NAME.cnf.gz (either backend)."),
    ),
    order=30,
    reads_files=True,
    draw_options=("names",),
    record=answer_record,
    answer=ThatsMyLineAnswer,
    live_check=live_check,
    page=PuzzlePage(
        goal="play both sides of a legal game that ends with as many stones as possible",
        clicks=Clicks("alternate", "click a node to place the next stone, Light and Dark in turn; a side that "
                      "cannot place passes", "record", "check"),
        verdict=Verdict(("invalid", "valid, not optimal", "valid, optimal"),
                        ("objective", "optimum", "fault", "next", "pass", "to_move", "stones_view"), "stones", "max"),
        steps=Steps("moves", "{n} moves, {stones} stones", "the game is over"),
        committed="thats-my-line-16.json",
    ),
))
