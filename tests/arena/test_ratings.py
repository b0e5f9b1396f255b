"""Unit tests of the multi-player Elo maths in ``arena.ratings.elo``."""

import math

import pytest

from arena.ratings import elo as elo


def test_expected_score_is_half_for_equal_ratings():
    assert elo.expected_score(1500, 1500) == pytest.approx(0.5)


def test_expected_score_400_points_is_ten_to_one():
    assert elo.expected_score(1900, 1500) == pytest.approx(10 / 11)
    assert elo.expected_score(1500, 1900) == pytest.approx(1 / 11)


def test_two_players_is_classic_elo():
    changes = elo.rating_changes([1500, 1500], [[0], [1]])
    assert changes == pytest.approx([16.0, -16.0])


def test_changes_sum_to_zero_for_many_players():
    changes = elo.rating_changes([1400, 1550, 1600, 1720, 1500], [[3], [0, 4], [1], [2]])
    assert math.fsum(changes) == pytest.approx(0.0, abs=1e-9)


def test_k_is_scaled_by_player_count():
    # Four equal players: the winner beats three opponents, each worth (1 - 0.5) * K / 3.
    changes = elo.rating_changes([1500] * 4, [[2], [0], [3], [1]])
    assert changes[2] == pytest.approx(16.0)
    assert changes[1] == pytest.approx(-16.0)
    assert changes[0] == pytest.approx(32 / 3 * (2 - 1.5))
    assert changes[3] == pytest.approx(32 / 3 * (1 - 1.5))


def test_tie_between_equals_changes_nothing():
    assert elo.rating_changes([1500, 1500], [[0, 1]]) == pytest.approx([0.0, 0.0])


def test_tie_moves_ratings_towards_each_other():
    low, high = elo.rating_changes([1400, 1600], [[0, 1]])
    assert low > 0 > high
    assert low == pytest.approx(-high)


def test_upset_gains_more_than_expected_win():
    upset = elo.rating_changes([1400, 1600], [[0], [1]])[0]
    expected_win = elo.rating_changes([1600, 1400], [[0], [1]])[0]
    assert upset > expected_win > 0


def test_new_ratings_adds_changes():
    assert elo.new_ratings([1500, 1500], [[1], [0]]) == pytest.approx([1484.0, 1516.0])


def test_custom_k():
    assert elo.rating_changes([1500, 1500], [[0], [1]], k=10) == pytest.approx([5.0, -5.0])


@pytest.mark.parametrize(
    "places",
    [[[0]], [[0], [0, 1]], [[0], [2]], [[0], [1], [5]]],
)
def test_bad_finishing_orders_are_rejected(places):
    with pytest.raises(ValueError, match=r"seat|finishing order"):
        elo.rating_changes([1500, 1500], places)


def test_single_player_is_rejected():
    with pytest.raises(ValueError, match="two players"):
        elo.rating_changes([1500], [[0]])


def test_provisional_until_twenty_games():
    assert elo.is_provisional(0)
    assert elo.is_provisional(19)
    assert not elo.is_provisional(20)


def test_place_of_seats():
    assert elo.place_of_seats([[2], [0, 1], [3]], 4) == [1, 1, 0, 2]
