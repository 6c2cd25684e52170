"""Get a Jump On: the time limit covers the reverse search's set-up (pagodas, perimeter) and the
move generation watches the deadline; compiling the kernel is announced as outside the limit."""

import subprocess
import sys
import time

import pytest
from powertwo.solvers.jump import check_reverse, solve_reverse
from powertwo.solvers.jump.engine import ReverseSearch
from powertwo.solvers.jump.invariants import class_targets, target_setup
from powertwo.solvers.jump import KERNEL_COMPILING
from powertwo.solvers.jump.tables import JumpTables, TimeUp, english_board, mask_of, node_at, nodes_of

ENGLISH = english_board()
CENTRE = node_at(ENGLISH, 0, 0)
FULL_BUT_CENTRE = [v for v in ENGLISH.nodes if v != CENTRE]   # 32 stones: a perimeter is built


def test_a_passed_deadline_leaves_every_class_target_without_a_pagoda():
    """No LP runs once the deadline has passed: the targets are the position classes' nodes, each
    kept (a pagoda only prunes); with time, the pagodas exclude some of them."""
    start = mask_of(FULL_BUT_CENTRE)
    late = target_setup(ENGLISH, start, None, deadline=time.perf_counter() - 1)
    assert late.targets == class_targets(ENGLISH, start)
    assert [p for _, p, _ in late.entries] == [None] * len(nodes_of(late.targets))
    assert late.pagodas == []
    full = target_setup(ENGLISH, start, None)
    assert full.targets & ~late.targets == 0
    assert any(p is not None for _, p, _ in full.entries)


def test_move_generation_past_the_deadline_raises_time_up():
    tables = JumpTables(ENGLISH)
    pos = mask_of(FULL_BUT_CENTRE)
    assert len(tables.successors(pos)) == 4
    tables.deadline = time.perf_counter() - 1
    with pytest.raises(TimeUp):
        tables.successors(pos)


def test_the_python_engine_keeps_what_its_set_up_built_by_the_deadline():
    """A passed deadline: no pagodas, no perimeter layer, the move generator free again after the
    set-up; the search itself (no limit) still finds the classic 18-move optimum."""
    rs = ReverseSearch(ENGLISH, FULL_BUT_CENTRE, targets=[CENTRE], deadline=time.perf_counter() - 1)
    assert [p for _, p, _ in rs.target_pagodas] == [None]
    assert rs.radius == 0 and len(rs.perimeter) == 1          # the goal itself (layer 0)
    assert rs.tables.deadline is None
    timely = ReverseSearch(ENGLISH, FULL_BUT_CENTRE, targets=[CENTRE])
    assert timely.radius > 0 and [p is not None for _, p, _ in timely.target_pagodas] == [True]


def test_a_limit_the_set_up_uses_up_gives_unknown_with_an_honest_bound():
    """A limit shorter than the set-up: status unknown, no position searched, bound 1, said why; the
    checker accepts the file (nothing is claimed beyond one move)."""
    res = solve_reverse(ENGLISH, position=FULL_BUT_CENTRE, target=CENTRE, time_limit=1e-9)
    assert (res["status"], res["objective"], res["bound"], res["positions_searched"], res["moves"]) == (
        "unknown", None, 1, 0, [])
    assert res["stopped"] == "time limit reached during the set-up (pagodas, perimeter)"
    assert res["engine"] == "kernel"
    assert check_reverse(res, ENGLISH).valid


def test_the_python_engine_run_out_of_time_in_set_up_reports_its_admissible_bound():
    from powertwo.boards import load

    board = load("epaminondas")    # 168 nodes: the Python engine
    start = nodes_of(mask_of([1, 2, 3, 4]))
    res = solve_reverse(board, position=start, time_limit=1e-9)
    rs = ReverseSearch(board, start, pagodas=False)
    assert (res["status"], res["engine"], res["positions_searched"]) == ("unknown", "python", 0)
    assert res["bound"] == rs.lower_bound(rs.start, rs.targets)


def test_compiling_the_kernel_is_announced_as_outside_the_limit():
    """A fresh process's first reverse solve says that it compiles or loads the kernel, outside the
    time limit, once; the second says nothing of it."""
    code = ("from powertwo.solvers.jump import solve_reverse; from powertwo.solvers.jump.tables import "
            "english_board; b = english_board(); said = []; "
            "[solve_reverse(b, position=[1, 2, 4], progress=said.append) for _ in range(2)]; print(said)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    assert out.stdout.strip() == repr([KERNEL_COMPILING])
