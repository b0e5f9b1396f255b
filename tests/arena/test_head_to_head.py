"""Head-to-head records with Wilson intervals."""

from __future__ import annotations

import pytest

from arena.ratings.ranking import average_ranks, spearman
from arena.tournaments.head_to_head import head_to_head


def test_record_and_interval() -> None:
    record = head_to_head([(1, 2)] * 60 + [(2, 1)] * 30 + [(1, 1)] * 10)
    assert (record.wins, record.ties, record.losses, record.meetings) == (60, 10, 30, 100)
    assert record.score == pytest.approx(0.65)
    low, high = record.interval
    assert low < 0.65 < high
    assert (round(low, 3), round(high, 3)) == (0.553, 0.736)
    elo = record.elo
    assert elo is not None
    assert elo[1] < elo[0] < elo[2]
    assert elo[0] == pytest.approx(107.5, abs=0.5)


def test_no_meetings() -> None:
    record = head_to_head([])
    assert record.score is None
    assert record.elo is None
    assert record.interval == (0.0, 1.0)


def test_spearman() -> None:
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1)
    assert average_ranks([10, 20, 20, 30]) == [1, 2.5, 2.5, 4]
    assert spearman([1, 1, 1], [1, 2, 3]) == 0.0
    with pytest.raises(ValueError, match="same length"):
        spearman([1], [1])
