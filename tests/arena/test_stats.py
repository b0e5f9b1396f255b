"""The benchmarks' statistics (arena.ratings.stats): Wilson intervals and paired differences."""

from __future__ import annotations

import doctest
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.ratings import stats
from arena.ratings.stats import paired_difference, wilson_interval


def test_the_examples_in_the_docstrings_hold() -> None:
    assert doctest.testmod(stats).failed == 0


@given(st.integers(1, 10_000), st.data())
def test_a_wilson_interval_holds_its_proportion_inside_0_and_1(trials: int, data: st.DataObject) -> None:
    wins = data.draw(st.integers(0, trials))
    low, high = wilson_interval(wins, trials)
    assert 0.0 <= low <= wins / trials <= high <= 1.0


def test_a_wilson_interval_narrows_with_trials() -> None:
    small = wilson_interval(80, 100)
    large = wilson_interval(800, 1000)
    assert small[1] - small[0] > large[1] - large[0]
    assert wilson_interval(0, 0) == (0.0, 1.0)


pairs = st.lists(st.tuples(st.floats(0, 4), st.floats(0, 4)), min_size=2, max_size=200)


@given(pairs)
def test_a_paired_difference_holds_its_mean_and_turns_over_with_the_pairs(
    values: list[tuple[float, float]],
) -> None:
    a = [x for x, _ in values]
    b = [y for _, y in values]
    mean, low, high = paired_difference(a, b)
    assert mean == pytest.approx(sum(a) / len(a) - sum(b) / len(b), abs=1e-9)
    assert low <= mean <= high
    back, back_low, back_high = paired_difference(b, a)
    assert back == pytest.approx(-mean, abs=1e-9)
    assert back_low == pytest.approx(-high, abs=1e-9)
    assert back_high == pytest.approx(-low, abs=1e-9)


@given(pairs, st.floats(-3, 3))
def test_what_the_pairs_share_cancels_out(values: list[tuple[float, float]], shift: float) -> None:
    # The same unit effect in both members of a pair (a deal's luck) moves neither the mean nor the width.
    a = [x for x, _ in values]
    b = [y for _, y in values]
    shifted = paired_difference([x + shift for x in a], [y + shift for y in b])
    for got, want in zip(shifted, paired_difference(a, b), strict=True):
        assert got == pytest.approx(want, abs=1e-6)


def test_identical_pairs_differ_by_nothing_with_certainty() -> None:
    assert paired_difference([1, 0, 0.5, 1], [1, 0, 0.5, 1]) == (0.0, 0.0, 0.0)


def test_pairing_is_narrower_than_two_separate_intervals_when_units_share_their_luck() -> None:
    # Each unit's luck dominates both members: the paired interval sees only the small difference.
    luck = [0, 4, 1, 3, 2, 4, 0, 3] * 10
    a = [u + 0.2 for u in luck]
    mean, low, high = paired_difference(a, luck)
    assert mean == pytest.approx(0.2)
    assert high - low < 1e-9
    noisy = [u + (0.3 if i % 2 else 0.1) for i, u in enumerate(luck)]
    mean, low, high = paired_difference(noisy, luck)
    assert low > 0.15
    assert high < 0.25


def test_a_paired_difference_needs_pairs() -> None:
    with pytest.raises(ValueError, match="3 values against 2"):
        paired_difference([1, 2, 3], [1, 2])
    assert paired_difference([], []) == (0.0, 0.0, 0.0)
    mean, low, high = paired_difference([1], [0])
    assert mean == 1
    assert (low, high) == (-math.inf, math.inf)
