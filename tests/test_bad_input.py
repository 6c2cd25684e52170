"""Bad input (issue 13 section 6): every malformed file or argument is one line on stderr naming
it, exit code 2; nothing that cannot be an answer is worked on."""

from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from powertwo.boards import load
from powertwo.boards.jsonfile import MAX_BYTES, MAX_DEPTH
from powertwo.cli import main

RESULTS = Path(__file__).resolve().parent.parent / "results"


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)))


def one_line_exit_2(res, *words: str) -> None:
    assert res.exit_code == 2, res.output
    assert res.output.count("\n") == 1, res.output
    assert "Traceback" not in res.output and "Usage:" not in res.output
    for word in words:
        assert word in res.output, res.output


@pytest.fixture
def deep(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 10_000 + "]" * 10_000)
    return path


@pytest.mark.parametrize("args", [
    ("check", "{f}"), ("validate", "thats-my-line", "{f}"), ("draw", "{f}", "-o", "{d}/x.svg"),
    ("board", "build", "{f}", "-o", "{d}/b.json"), ("board", "info", "{f}"), ("solve", "one-by-one", "--board", "{f}"),
    ("solve", "jump-reverse", "--position", "{f}"), ("moves", "thats-my-line", "--position", "{f}"),
])
def test_deeply_nested_json_is_one_line(args, deep, tmp_path):
    res = run(*(a.format(f=deep, d=tmp_path) for a in args))
    one_line_exit_2(res, "deep.json", f"nested more than {MAX_DEPTH} levels deep")


def test_oversized_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.json"
    with path.open("w") as out:
        out.write('{"puzzle": "one-by-one", "stones": [' + "1, " * (MAX_BYTES // 3) + "1]}")
    res = run("check", path)
    one_line_exit_2(res, "big.json", "bytes, larger than the 8 MiB")


def test_more_stones_than_nodes_is_refused_before_any_work(tmp_path):
    data = json.loads((RESULTS / "one-by-one.json").read_text())
    data["stones"] = list(range(1, 65)) * 20
    path = tmp_path / "many.json"
    path.write_text(json.dumps(data))
    res = run("check", path)
    one_line_exit_2(res, "field 'stones' lists 1280 nodes, the board has only 64")


def test_record_longer_than_any_game_is_refused(tmp_path):
    data = json.loads((RESULTS / "thats-my-line-16.json").read_text())
    data["record"] = data["record"] * 10
    path = tmp_path / "long.json"
    path.write_text(json.dumps(data))
    res = run("check", path)
    one_line_exit_2(res, "field 'record' has 320 moves, no game on board power-of-two has more than 130")


@pytest.mark.parametrize("args, words", [
    (("check", "{d}"), ("'FILE'", "is a directory")),
    (("draw", "{d}", "-o", "x.svg"), ("'FILE'", "is a directory")),
    (("validate", "thats-my-line", "{d}"), ("'RECORD'", "is a directory")),
    (("board", "info", "{d}"), ("is a directory, not a board file",)),
    (("solve", "one-by-one", "--board", "{d}"), ("is a directory, not a board file",)),
    (("perft", "thats-my-line", "-1"), ("'DEPTH'", "-1 is not in the range")),
    (("perft", "thats-my-line", "9" * 5001), ("'DEPTH'", "(5001 characters)")),
    (("solve", "jump-forward", "--corner", "9" * 5001), ("'--corner'", "(5001 characters)")),
    (("solve", "thats-my-line", "--stones", "9" * 5001), ("--stones", "'9999")),
    (("moves", "thats-my-line", "--option", "stones=" + "9" * 5001), ("option stones",)),
    (("solve", "one-by-one", "--time-limit", "nan"), ("'--time-limit'", "nan is not a positive, finite number")),
    (("solve", "one-by-one", "--time-limit", "inf"), ("'--time-limit'",)),
    (("solve", "one-by-one", "--time-limit", "0"), ("'--time-limit'",)),
    (("solve", "jump-reverse", "--workers", "0"), ("Invalid value for '--workers': 0 is outside 1..",)),
    (("solve", "one-by-one", "--workers", "2"), ("puzzle one-by-one does not take --workers",)),
])
def test_bad_arguments_are_one_line_naming_the_argument(args, words, tmp_path):
    res = run(*(a.format(d=tmp_path) for a in args))
    one_line_exit_2(res, *words)
    assert "9" * 200 not in res.output


def test_number_with_too_many_digits_in_a_file(tmp_path):
    path = tmp_path / "digits.json"
    path.write_text('{"puzzle": "one-by-one", "stones": [], "objective": ' + "9" * 5001 + "}")
    one_line_exit_2(run("check", path), "digits.json", "a number with too many digits")


def test_time_limit_nan_refused_by_the_library_too():
    from powertwo.solvers.lines import solve
    from powertwo.solvers.registry import SolutionError

    with pytest.raises(SolutionError, match="give a positive, finite number of seconds"):
        solve(load("power-of-two"), "one-by-one", time_limit=float("nan"))


# ----------------------------------------------------------------------------- output a person reads
def test_solve_summary_of_a_search_without_status():
    res = run("solve", "jump-forward")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "jump-forward on board power-of-two" and "steps (31):" in lines
    assert lines[lines.index("steps (31):") + 1].startswith("    1. place ")


def test_solve_summary_is_readable():
    res = run("solve", "thats-my-line", "--stones", "2")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "thats-my-line on board power-of-two: optimal"
    assert lines[1].startswith("objective: ") and lines[2].startswith("bound: ") and lines[3].startswith("time: ")
    record = lines.index(next(x for x in lines if x.startswith("record (")))
    assert lines[record + 1].startswith("    1. ")
    assert "None" not in res.stdout and "{" not in res.stdout and "..." not in res.stdout


@pytest.mark.slow
def test_ctrl_c_returns_the_best_answer_so_far():
    """Ctrl-C (SIGINT) in the middle of the 52-stone That's My Line search by SAT, once the first
    game is found: the best game so far, status feasible, with its bound and why it stopped."""
    from powertwo.solvers.thats_my_line import check, solve

    board = load("power-of-two")
    timers: list[threading.Timer] = []

    def progress(message: str) -> None:
        if message.startswith("sat: a legal game") and not timers:
            timers.append(threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)))
            timers[0].start()

    # a terminal's Ctrl-C even when this suite runs in the background (started with SIGINT ignored)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        result = solve(board, backend="sat", stones="unlimited", progress=progress)
    except KeyboardInterrupt:  # pragma: no cover - the signal came after the search, outside the solver
        pytest.skip("the interrupt arrived after the search")
    finally:
        for timer in timers:
            timer.cancel()
        signal.signal(signal.SIGINT, previous)
    if result["status"] == "optimal":
        pytest.skip("the search finished before the interrupt")
    assert result["status"] == "feasible" and result["stopped"] == "interrupted (Ctrl-C)"
    assert result["objective"] <= 52 <= result["bound"]
    assert check(result, board, prove_bound=False).valid


def test_ctrl_c_still_works_after_a_cp_sat_solve():
    """CP-SAT catches SIGINT during its search and leaves no handler behind; the solvers put the
    Python handler back, so a later Ctrl-C is a KeyboardInterrupt, not the death of the process
    nor a signal swallowed. Run in a fresh interpreter (a process that has solved once, as the CLI
    does), so no signal handler left by another test's solver can interfere."""
    import subprocess
    import sys

    script = (  # Python's own handler first: a background job of a non-interactive shell starts with
        # SIGINT ignored, and a Python started so keeps it ignored (it failed so, launched with `&`)
        "import os, signal, time\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "from powertwo.boards import load\n"
        "from powertwo.solvers.lines import VARIANTS, solve_cpsat\n"
        "solve_cpsat(load('power-of-two'), VARIANTS['one-by-one'])\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(5)\n"
        "    print('swallowed')\n"
        "except KeyboardInterrupt:\n"
        "    print('KeyboardInterrupt')\n"
    )
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert (res.returncode, res.stdout.strip()) == (0, "KeyboardInterrupt"), res.stderr[-500:]


@pytest.mark.slow
def test_ctrl_c_in_jump_reverse_returns_the_best_answer_so_far(tmp_path):
    """Ctrl-C (SIGINT) to ``powertwo solve jump-reverse`` while the kernel raises the bound: a
    32-stone position (benchmark seed 1, in labels) whose last stone must end on f6, which keeps
    the kernel busy well past its first answer (about 4 s to find a 22-move finish, then the
    bound rises): the answer found first, status feasible, why it stopped, exit code 0, and the
    answer checks."""
    import subprocess
    import sys

    from powertwo.solvers.jump import check_reverse

    seed_1 = tmp_path / "seed-1.json"
    seed_1.write_text(json.dumps({"position": [
        "e1", "i1", "c3", "e3", "i3", "g4", "a5", "c5", "e5", "i5", "k5", "m5", "k6", "d7", "e7", "j7", "c8", "k8",
        "a9", "e9", "i9", "k9", "m9", "b10", "g10", "c11", "e11", "f11", "i11", "k11", "e13", "i13"]}))
    # a terminal's Ctrl-C: SIGINT at its default in the child, even when this suite runs in the background
    # (a shell starts background jobs with SIGINT ignored, and Python then installs no handler for it)
    proc = subprocess.Popen([sys.executable, "-m", "powertwo", "solve", "jump-reverse", "--position", str(seed_1),
                             "--target", "f6", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stderr is not None
    for line in proc.stderr:  # progress lines (stderr is not a terminal: one line each)
        if "moves (best " in line:
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    result = json.loads(out)
    assert (result["status"], result["stopped"]) == ("feasible", "interrupted (Ctrl-C)")
    assert result["objective"] == len(result["moves"]) > result["bound"] >= 1
    assert check_reverse(result, load("power-of-two"), reprove=False).valid


def test_ctrl_c_in_a_sat_call_ends_it_like_a_budget():
    """PySAT's C solvers catch SIGINT themselves and raise ``error("Caught keyboard interrupt")``:
    :func:`sat_call` turns it (and a KeyboardInterrupt) into "no answer", noted on the budget; any
    other error goes through."""
    from powertwo.solvers.satcall import Budget, sat_call

    class Solver:
        def __init__(self, exc: BaseException):
            self.exc = exc

        def conf_budget(self, n: int) -> None:
            pass

        def solve_limited(self, assumptions: list[int]) -> bool | None:
            raise self.exc

    for exc in (KeyboardInterrupt(), Exception("Caught keyboard interrupt")):
        budget = Budget()
        assert sat_call(Solver(exc), [], budget) is None
        assert budget.interrupted and budget.reason == "interrupted (Ctrl-C)"
    with pytest.raises(Exception, match="out of memory"):
        sat_call(Solver(Exception("out of memory")), [], Budget())
    budget = Budget(conflicts=10_000, conflict_slice=5_000)

    class Unknown(Solver):
        def solve_limited(self, assumptions: list[int]) -> bool | None:
            return None

    assert sat_call(Unknown(KeyboardInterrupt()), [], budget) is None
    assert (budget.spent_conflicts, budget.interrupted, budget.reason) == (10_000, False, "10,000 conflicts spent")
