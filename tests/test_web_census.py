"""The Get a Jump On reverse hint on the English board answered from a stored census solvable set
(``powertwo census --solvable``): a small set made here from a position near the end, compared with
a plain recursive search of the same positions."""

from __future__ import annotations

import functools
import json

import pytest
from click.testing import CliRunner

starlette_testclient = pytest.importorskip("starlette.testclient")

from powertwo.boards import load  # noqa: E402
from powertwo.cli import main  # noqa: E402
from powertwo.web import create_app  # noqa: E402
from powertwo.web.background import warmed  # noqa: E402

BASE = "http://127.0.0.1:8765"
BOARD = load("english")
CENTRE = BOARD.node("d4")
ORIGIN = sorted(BOARD.node(s) for s in "b4 c3 c4 c6 c7 d2 d3 e4".split())


def children(position: frozenset) -> list[tuple[int, int, frozenset]]:
    return [(a, c, (position - {a, b}) | {c}) for a, b, c in BOARD.jumps
            if a in position and b in position and c not in position]


@functools.lru_cache(maxsize=None)
def finishes(position: frozenset, target: int | None) -> bool:
    """One stone (on ``target``) reachable by single jumps: plain recursion, independent of the census."""
    if len(position) == 1:
        return target is None or position == {target}
    return any(finishes(child, target) for _, _, child in children(position))


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """One server for the module, its census store an empty folder of the test's own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("POWERTWO_CENSUS", str(tmp_path_factory.mktemp("census")))
        with starlette_testclient.TestClient(create_app(), base_url=BASE) as c:
            warmed(lambda: c.get("/api/meta").json())  # every kernel compiled and loaded: answers as on a warm server
            yield c


def census(tmp_path, *target: str) -> None:
    start = tmp_path / "start.json"
    start.write_text(json.dumps([BOARD.label(v) for v in ORIGIN]))
    result = CliRunner().invoke(main, ["census", "--board", "english", "--position", str(start), "--solvable",
                                       *(["--target", *target] if target else [])])
    assert result.exit_code == 0, result.output


def hint(client, position, origin=ORIGIN) -> dict:
    response = client.post("/api/jump/hint", json={"puzzle": "jump-reverse", "board": "english",
                                                   "position": sorted(position), "origin": origin})
    assert response.status_code == 200, response.text
    return response.json()


def expected_jumps(position: frozenset, target: int | None) -> list[list[int]]:
    return sorted([a, c] for a, c, child in children(position) if finishes(child, target))


def check_census_hint(client, target: str | None) -> None:
    goal = None if target is None else CENTRE
    where = "" if target is None else " on d4"
    start = frozenset(ORIGIN)
    assert finishes(start, goal)
    got = hint(client, start)
    jumps = expected_jumps(start, goal)
    assert 1 < len(jumps) < len(children(start))  # some jumps keep it solvable, some do not
    assert got["source"] == "census" and got["solvable"] is True and got["target"] == target
    assert sorted(got["jumps"]) == jumps
    assert got["marks"] == sorted({v for pair in jumps for v in pair})
    assert got["text"].startswith(f"solvable (census): one stone{where} can still be reached; {len(jumps)} jumps "
                                  "keep it so: ")
    named = {f"{BOARD.label(a)}-{BOARD.label(c)}" for a, c in jumps}
    assert set(got["text"].split(": ")[-1].split(", ")) == named
    lost = next(child for _, _, child in children(start) if not finishes(child, goal))
    dead = hint(client, lost)
    assert dead["solvable"] is False
    if target is None:
        assert dead["source"] == "census" and dead["text"] == "no finish from here (census): undo"
    else:  # no finish on d4 may still finish elsewhere: the solver answers that
        assert dead["source"] == "solver"
        assert dead["text"].startswith("the census: no finish with one stone on d4 from here; no finish from here")


@pytest.mark.slow  # two census runs and two solver hints of up to a second
def test_hint_answers_from_the_stored_set_with_the_jumps_that_keep_it_solvable(client, tmp_path):
    """No set: the solver's answer; a set to d4: its answer; a set to any node: asked first."""
    got = hint(client, frozenset(ORIGIN))
    assert got["source"] == "solver" and got["solvable"] is True
    assert got["text"].startswith("solvable: a finish in ")
    census(tmp_path, "d4")
    check_census_hint(client, "d4")
    census(tmp_path)
    check_census_hint(client, None)


def test_reverse_puzzle_on_the_english_board_starts_from_the_central_game(client):
    view = client.post("/api/jump", json={"puzzle": "jump-reverse", "board": "english", "chains": []}).json()
    meta = client.get("/api/meta").json()
    central = sorted(v for side in BOARD.start("central").values() for v in side)
    assert sorted(view["origin"]) == central == [v for v in BOARD.nodes if v != CENTRE]
    entry = next(p for p in meta["puzzles"] if p["name"] == "jump-reverse")
    assert entry["boards"] == ["power-of-two", "english"]


def test_hint_on_the_central_game_says_the_fewest_moves_left_from_the_shipped_table(client):
    """From the central start (no set stored): the shipped fewest-moves table answers, its count
    equal to the jump solver's optimum, with the jumps after which the table still holds it."""
    from powertwo.solvers.jump import solve_reverse

    import random

    from powertwo.solvers.census.fewest import fewest_left

    central = sorted(v for side in BOARD.start("central").values() for v in side)
    played, rng = frozenset(central), random.Random(49)
    while len(played) > 14:  # single jumps that keep a finish in the centre (the table says which)
        played = rng.choice([child for _, _, child in children(played) if fewest_left(BOARD, child, CENTRE)])
    got = hint(client, played, origin=central)
    best = solve_reverse(BOARD, position=sorted(played), target=CENTRE)
    assert got["source"] == "census" and got["solvable"] is True and got["target"] == "d4"
    assert got["fewest_moves"] == best["objective"]
    assert got["text"].startswith(f"solvable (census): one stone on d4 in {best['objective']} moves at fewest; ")
    assert sorted(got["jumps"]) == expected_jumps(played, CENTRE)
