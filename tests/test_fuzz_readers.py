"""Fuzzing the strict readers and the referees: random mutations (``bench.fuzz``'s) of every
committed answer file and of game records made by the rules modules (delete, duplicate, retype,
out of range, unknown field at any depth, duplicate key). Each mutation ends in one line (a
``ValueError``) or a verdict, never another exception; an unknown field or a repeated key is always refused; a
verdict of ``valid`` is checked by an independent path.

Set ``FUZZ_TALLY=1`` (with ``-s``) to print the outcomes by kind.
"""

from __future__ import annotations

import importlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bench.fuzz import KINDS, MUST_REFUSE, game_records, mutate, paths
from powertwo.boards.jsonfile import loads
from powertwo.rules import RulesError, get_game, validate_record
from powertwo.solvers.registry import SolutionError, check_file, get_puzzle, solution_board
from powertwo.solvers.registry import check_answer_shape

ROOT = Path(__file__).resolve().parent.parent
ANSWER_FILES = sorted(p for p in ROOT.glob("results/**/*.json")
                      if isinstance(d := json.loads(p.read_text()), dict) and "puzzle" in d)
FORWARD_FILES = [p for p in ANSWER_FILES if json.loads(p.read_text())["puzzle"] == "jump-forward"]
TALLY: Counter = Counter()
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert text and "\n" not in text and "Traceback" not in text, text
    assert "Error(" not in text and "<class" not in text, text
    return text


def read_answer(text: str, where: str) -> Any:
    """The strict reader stage of ``check``: parse, the puzzle, the board, the puzzle's schema."""
    data = loads(text, where, SolutionError)
    if not isinstance(data, dict) or not isinstance(data.get("puzzle"), str):
        raise SolutionError(f"{where}: not a solution file (no field 'puzzle')")
    get_puzzle(data["puzzle"])
    board = solution_board(data, where)
    check_answer_shape(data, where, board)
    known = top_fields(data["puzzle"])  # the checker's own first step: its list of top-level fields
    if set(data) - known:
        raise SolutionError(f"{where}: unknown field '{sorted(set(data) - known)[0]}'")
    return data


def top_fields(puzzle: str) -> frozenset[str]:
    """The top-level fields the puzzle's checker knows (each checker keeps its list)."""
    if puzzle.startswith("jump-"):
        from powertwo.solvers.jump import files as jump

        return frozenset(jump.FORWARD_FIELDS if puzzle == "jump-forward" else jump.REVERSE_FIELDS)
    if puzzle == "thats-my-line":
        from powertwo.solvers.thats_my_line import checker as tml

        return frozenset(tml.FIELDS)
    from powertwo.solvers.lines import checker as lines

    return frozenset(lines.TOP_FIELDS)


ANSWERS = {p: json.loads(p.read_text()) for p in ANSWER_FILES}


@st.composite
def answer_mutation(draw: Any, files: list[Path]) -> tuple[Path, tuple, str, str]:
    path = draw(st.sampled_from(files))
    data = ANSWERS[path]
    spots = paths(data)
    at = spots[draw(st.integers(0, len(spots) - 1))]
    kind = draw(st.sampled_from(KINDS))
    return path, at, kind, mutate(data, at, kind, draw(st.integers(0, 99)))


@settings(max_examples=4000, **SETTINGS)
@given(answer_mutation(ANSWER_FILES))
def test_mutated_answer_files_end_in_one_line_or_pass_the_reader(case: tuple) -> None:
    path, at, kind, text = case
    try:
        read_answer(text, path.name)
    except ValueError as exc:
        one_line(exc)
        TALLY[("answer reader", kind, "refused")] += 1
        return
    assert kind not in MUST_REFUSE, (path.name, at, kind)
    TALLY[("answer reader", kind, "read")] += 1


def same_board(mutated: dict, original: dict) -> bool:
    """Whether a mutated answer is judged on its original board (its name, or its fingerprint alone)."""
    return solution_board(mutated, "mutated").fingerprint == solution_board(original, "original").fingerprint


def checked_or_refused(file: Path, case: tuple, target: str) -> Any:
    """The report of ``check_file`` on the mutated ``file``, or None when it is refused in one
    line (never for an unknown field or a repeated key: those are always refused)."""
    path, at, kind, _ = case
    try:
        report = check_file(file)
    except ValueError as exc:
        one_line(exc)
        TALLY[(target, kind, "refused")] += 1
        return None
    assert kind not in MUST_REFUSE, (path.name, at, kind)
    return report


@settings(max_examples=1000, **SETTINGS)
@given(case=answer_mutation(FORWARD_FILES))
def test_mutated_jump_forward_answers_get_the_true_verdict(case: tuple, tmp_path_factory: Any) -> None:
    path, at, kind, text = case
    file = tmp_path_factory.getbasetemp() / "forward.json"
    file.write_text(text)
    report = checked_or_refused(file, case, "jump-forward check")
    if report is None:
        return
    if not report.faults:  # valid: the answer itself must be the committed one
        mutated, original = json.loads(text), ANSWERS[path]
        for key in ("corner", "steps", "puzzle"):
            assert mutated.get(key) == original.get(key), (path.name, at, kind)
        assert same_board(mutated, original), (path.name, at, kind)
        assert mutated.get("final_position") in (None, original["final_position"])  # null: not given
        TALLY[("jump-forward check", kind, "valid")] += 1
    else:
        TALLY[("jump-forward check", kind, "faults")] += 1


LINE_PUZZLES = ("one-by-one", "line-cover", "two-by-two")
LINE_FILES = [p for p in ANSWER_FILES if json.loads(p.read_text())["puzzle"] in LINE_PUZZLES
              and "table" not in json.loads(p.read_text())  # Two by Two's table: test_two_by_two.py
              and not str(json.loads(p.read_text()).get("certificate", {}).get("proof", "")).endswith(".gz")]
"""Two by Two's 32-stone answers, whose gzipped proofs take dratify minutes, are checked and mutated
in test_two_by_two.py and test_check_every_field.py (marked slow), not under 300 random mutations."""


@settings(max_examples=300, **SETTINGS)
@given(case=answer_mutation(LINE_FILES))
def test_mutated_line_answers_get_the_true_verdict(case: tuple, tmp_path_factory: Any) -> None:
    """The whole check (as ``powertwo check``) of a mutated one-by-one, line-cover or two-by-two
    answer, beside its certificate files: one line or a verdict, and ``valid`` only for the
    committed answer's stones."""
    path, at, kind, text = case
    folder = tmp_path_factory.getbasetemp() / "lines" / path.parent.name  # one folder per board's results
    folder.mkdir(parents=True, exist_ok=True)
    for proof in path.parent.glob(f"{path.stem}.*"):
        if proof.name.endswith((".cnf", ".drat", ".cnf.gz", ".drat.gz")) and not (folder / proof.name).exists():
            (folder / proof.name).symlink_to(proof)
    file = folder / path.name
    file.write_text(text)
    report = checked_or_refused(file, case, "line check")
    if report is None:
        return
    if not report.faults:  # valid: the same stones, puzzle, board, variant and objective as committed
        mutated, original = json.loads(text), ANSWERS[path]
        assert isinstance(mutated.get("stones"), list), (path.name, at, kind)
        assert sorted(mutated["stones"]) == sorted(original["stones"]), (path.name, at, kind)
        assert len(set(mutated["stones"])) == len(mutated["stones"]), (path.name, at, kind)
        for key in ("puzzle", "objective"):
            assert mutated.get(key) == original.get(key), (path.name, at, kind)
        assert same_board(mutated, original), (path.name, at, kind)
        assert bool(mutated.get("strict", False)) == bool(original.get("strict", False)), (path.name, at, kind)
        TALLY[("line check", kind, "valid")] += 1
    else:
        TALLY[("line check", kind, "faults")] += 1


RECORDS = game_records()


def replays_legally(data: dict) -> bool:
    """An independent replay: every move legal and applied by the plain referee of RULES.md
    (``rules/plain``), which shares no legality code with the fast one."""
    plain = importlib.import_module(f"powertwo.rules.plain.{data['game'].replace('-', '_')}")
    game = get_game(data["game"], **data.get("options", {}))
    state = game.state_from_json(data["position"]) if data.get("position") else game.start(data.get("start"))
    for text in data["moves"]:
        move = game.parse_move(text, state)
        if game.outcome(state) is not None or plain.check(game, state, move) is not None:
            return False
        state = plain.apply(game, state, move)
    return True


@st.composite
def record_mutation(draw: Any) -> tuple[dict, tuple, str, str]:
    data = draw(st.sampled_from(RECORDS))
    spots = paths(data)
    at = spots[draw(st.integers(0, len(spots) - 1))]
    kind = draw(st.sampled_from(KINDS))
    return data, at, kind, mutate(data, at, kind, draw(st.integers(0, 99)))


@settings(max_examples=2000, **SETTINGS)
@given(record_mutation())
def test_mutated_records_get_the_true_verdict(case: tuple) -> None:
    data, at, kind, text = case
    try:
        result = validate_record(text, where="record")
    except RulesError as exc:  # malformed record, unreadable or illegal move
        one_line(exc)
        TALLY[("record", kind, "refused")] += 1
        return
    assert kind not in MUST_REFUSE, (data["game"], at, kind)
    assert replays_legally(json.loads(text)), (data["game"], at, kind)
    assert len(result.moves) == len(json.loads(text)["moves"])
    TALLY[("record", kind, "valid")] += 1


def test_every_kind_was_tried_and_the_tally_is_reported() -> None:
    if not TALLY:
        pytest.skip("run with the fuzz tests")
    for target in ("answer reader", "record"):
        assert {kind for (t, kind, _) in TALLY if t == target} == set(KINDS), target
    if any(t == "line check" for t, _, _ in TALLY):  # the full check was reached, and judged both ways
        assert {kind for (t, kind, _) in TALLY if t == "line check"} == set(KINDS)
        assert {outcome for (t, _, outcome) in TALLY if t == "line check"} == {"refused", "faults", "valid"}
    if os.environ.get("FUZZ_TALLY"):
        total = sum(TALLY.values())
        print(f"\n{total} mutations")
        for key in sorted(TALLY):
            print(" ".join(key), TALLY[key])
