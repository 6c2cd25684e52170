"""The opponent bench's statistics: the one-sided Clopper-Pearson bound and the verdict."""

from __future__ import annotations

from math import comb

import pytest

from bench.opponent import Tally, lower_bound, verdict


def at_least(wins: int, n: int, p: float) -> float:
    """The probability of ``wins`` or more wins of ``n`` at win rate ``p``."""
    return sum(comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(wins, n + 1))


@pytest.mark.parametrize(("wins", "n"), [(60, 60), (59, 59), (58, 60), (7, 10), (1, 3)])
def test_lower_bound_leaves_five_percent_above_it(wins, n):
    assert at_least(wins, n, lower_bound(wins, n)) == pytest.approx(0.05, abs=1e-9)


def test_straight_wins_need_59_games_for_95_percent():
    assert lower_bound(59, 59) == pytest.approx(0.05 ** (1 / 59)) and lower_bound(59, 59) >= 0.95
    assert lower_bound(58, 58) < 0.95
    assert lower_bound(0, 10) == 0.0


def test_verdict_needs_the_target_and_no_unfinished_game():
    assert verdict(Tally(wins=60), 0.95, True) == "PASS"
    assert verdict(Tally(wins=59, losses=1), 0.95, True) == "FAIL"
    assert verdict(Tally(wins=7, losses=3), 0.70, False) == "PASS"
    assert verdict(Tally(wins=7, losses=2, unfinished=1), 0.70, False) == "FAIL"
    assert verdict(Tally(), 0.70, False) == "FAIL"
