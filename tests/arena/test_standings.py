"""League standings: points per place, byes, tie-breaks, Elo change."""

from __future__ import annotations

import pytest

from arena.tournaments.standings import (
    TableResult,
    bye_points,
    compute_standings,
    places_to_order,
    table_points,
)


def test_points_per_place() -> None:
    assert table_points([1, 2]) == [1.0, 0.0]
    assert table_points([2, 1, 3, 4]) == [2.0, 3.0, 1.0, 0.0]
    assert table_points([1, 1, 3]) == [1.5, 1.5, 0.0]  # a tie shares the point
    assert sum(table_points([1, 2, 3, 4, 5])) == 10  # n(n-1)/2 points per table
    assert bye_points(4) == 1.5
    assert places_to_order([2, 1, 2]) == [[1], [0, 2]]


def test_order_points_then_buchholz_then_wins() -> None:
    results = [
        TableResult([1, 2], [1, 2]),  # 1 beats 2
        TableResult([3, 4], [1, 2]),  # 3 beats 4
        TableResult([1, 3], [2, 1]),  # 3 beats 1
        TableResult([2, 4], [1, 2]),  # 2 beats 4
    ]
    rows = compute_standings([1, 2, 3, 4], results)
    assert [r.entrant for r in rows] == [3, 1, 2, 4]
    assert [r.points for r in rows] == [2.0, 1.0, 1.0, 0.0]
    # 1 and 2 both have 1 point: 1 met 2 (1) and 3 (2) -> Buchholz 3; 2 met 1 and 4 -> 1.
    assert rows[1].buchholz == 3.0
    assert rows[2].buchholz == 1.0
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert rows[0].wins == 2
    assert rows[0].games == 2


def test_equal_rows_fall_back_to_the_entrant_id() -> None:
    rows = compute_standings([5, 3], [TableResult([5, 3], [1, 1])])
    assert [r.entrant for r in rows] == [3, 5]
    assert rows[0].points == rows[1].points == 0.5


def test_byes_absences_and_entrants_without_games() -> None:
    rows = compute_standings([1, 2, 3], [TableResult([1, 2], [1, 2])], byes={3: 1}, table_size=2)
    by_id = {r.entrant: r for r in rows}
    assert by_id[3].points == 0.5
    assert by_id[3].byes == 1
    assert by_id[3].games == 0
    assert by_id[1].points == 1.0


def test_elo_change_unrated_is_a_league_elo_from_1500() -> None:
    rows = compute_standings([1, 2], [TableResult([1, 2], [1, 2])], rated=False)
    by_id = {r.entrant: r for r in rows}
    assert by_id[1].elo_change == pytest.approx(16)
    assert by_id[2].elo_change == pytest.approx(-16)


def test_elo_change_rated_sums_the_ladder_changes() -> None:
    results = [TableResult([1, 2], [1, 2], [10.0, -10.0]), TableResult([1, 2], [2, 1], [-4.0, 4.0])]
    rows = compute_standings([1, 2], results)
    by_id = {r.entrant: r for r in rows}
    assert by_id[1].elo_change == pytest.approx(6)
    assert by_id[2].elo_change == pytest.approx(-6)
