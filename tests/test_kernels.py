"""The compiled kernels ahead of use: ``powertwo warm`` compiles (or loads) each one with a progress
line, and a process that uses loaded kernels only runs the plain engines meanwhile and says so."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from powertwo.boards import load
from powertwo.cli import main
from powertwo.solvers import kernels
from powertwo.solvers.jump import check_reverse, solve_reverse
from powertwo.solvers.warm import WARMERS, load as load_kernel

P2 = load("power-of-two")


@pytest.fixture
def loaded_only(monkeypatch):
    """This process uses a kernel only once it is loaded, and none is (restored afterwards)."""
    monkeypatch.setattr(kernels, "_loaded", set())
    kernels.use_loaded_only()
    yield
    kernels.use_loaded_only(False)


def test_every_kernel_has_a_warm_up_and_a_name():
    assert list(WARMERS) == list(kernels.KERNELS) == ["endgame", "jump", "census", "prove"]
    with pytest.raises(ValueError, match="unknown kernel 'x' \\(known: endgame, jump, census, prove\\)"):
        load_kernel("x")


def test_warm_prints_a_line_per_kernel_and_the_kernel_is_ready(loaded_only):
    out = CliRunner().invoke(main, ["warm", "--kernel", "endgame"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert any(line.endswith("[1/1] That's My Line's compiled endgame search: compiling (or loading from numba's "
                             "cache)") for line in lines)
    assert any("[1/1] That's My Line's compiled endgame search: ready in " in line for line in lines)
    assert lines[-1].startswith("1 kernel ready in numba's cache (")
    assert kernels.ready("endgame") and not kernels.ready("jump")


def test_warm_refuses_an_unknown_kernel():
    out = CliRunner().invoke(main, ["warm", "--kernel", "nope"])
    assert out.exit_code == 2 and "--kernel nope: unknown (known: endgame, jump, census, prove)" in out.output


def test_the_reverse_search_runs_the_python_engine_while_its_kernel_is_not_loaded(loaded_only):
    res = solve_reverse(P2, position=["a13", "m13"])
    assert (res["status"], res["engine"]) == ("infeasible", "python")
    assert res["note"] == ("Get a Jump On's compiled reverse search is still being compiled: "
                           "the plain Python search ran instead")
    claim = dict(res, status="optimal", moves=[], objective=None, bound=5)
    report = check_reverse(res, P2)  # an infeasible claim is not re-proved now: said so
    assert report.valid and report.notes[-1] == (f"status infeasible, bound {res['bound']}: not re-proved now (Get a "
                                                 "Jump On's compiled reverse search is still being compiled)")
    assert not check_reverse(claim, P2).valid  # what needs no search is still checked
