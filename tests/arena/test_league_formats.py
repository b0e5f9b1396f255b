"""League formats: table sizes, the circle method, balanced round robins, Swiss rounds, byes."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.tournaments.league_formats import (
    Round,
    circle_pairs,
    meetings,
    pair,
    round_robin_round,
    swiss_round,
    table_sizes,
)


@given(
    n=st.integers(0, 300),
    low=st.integers(2, 10),
    span=st.integers(0, 8),
    preferred=st.integers(2, 10),
)
def test_table_sizes_fit_the_rule_set(n: int, low: int, span: int, preferred: int) -> None:
    high = min(10, low + span)
    sizes = table_sizes(n, preferred, low, high)
    assert sum(sizes) <= n
    assert all(low <= s <= high for s in sizes)
    if sizes:
        assert max(sizes) - min(sizes) <= 1
    if n >= low and high >= 2 * low - 1:  # any n >= low splits exactly when the range is wide enough
        assert sum(sizes) == n


def test_table_sizes_examples() -> None:
    assert table_sizes(12, 4, 2, 10) == [4, 4, 4]
    assert table_sizes(13, 4, 2, 10) == [5, 4, 4]
    assert table_sizes(5, 4, 4, 4) == [4]  # one bye
    assert table_sizes(3, 4, 4, 4) == []  # too few for a table
    with pytest.raises(ValueError, match="player range"):
        table_sizes(10, 4, 5, 4)


@pytest.mark.parametrize("n", [2, 5, 8, 11])
def test_circle_method_is_a_perfect_round_robin(n: int) -> None:
    entrants = list(range(100, 100 + n))
    rounds = n - 1 if n % 2 == 0 else n
    tables, byes = [], Counter[int]()
    for r in range(rounds):
        played = circle_pairs(entrants, r)
        seated = [e for t in played.tables for e in t]
        assert len(seated) == len(set(seated))
        assert sorted(seated + played.byes) == entrants
        tables += played.tables
        byes.update(played.byes)
    met = meetings(tables)
    assert len(met) == n * (n - 1) // 2
    assert set(met.values()) == {1}
    assert all(count == 1 for count in byes.values())
    assert len(byes) == (n % 2) * n
    firsts = Counter(t[0] for t in tables)  # who sits first alternates
    assert max(firsts.values()) - min(firsts.values(), default=0) <= 2


def test_two_player_round_robin_uses_the_circle_method() -> None:
    entrants = list(range(10))
    history: list[tuple[int, ...]] = []
    for r in range(9):
        history += round_robin_round(entrants, r, 2, 2, 2, history).tables
    assert set(meetings(history).values()) == {1}


def run_round_robin(
    n: int, size: int, rounds: int, low: int = 2, high: int = 10
) -> tuple[list[int], Counter]:
    history: list[tuple[int, ...]] = []
    byes: Counter[int] = Counter()
    for r in range(rounds):
        played = round_robin_round(list(range(n)), r, size, low, high, history, byes, seed=9)
        seated = [e for t in played.tables for e in t]
        assert len(seated) == len(set(seated))
        assert sorted(seated + played.byes) == list(range(n))
        assert all(low <= len(t) <= high for t in played.tables)
        history += played.tables
        byes.update(played.byes)
    met = meetings(history)
    return [met.get(pair(a, b), 0) for a in range(n) for b in range(a + 1, n)], byes


@pytest.mark.parametrize(("n", "size", "rounds"), [(12, 3, 11), (20, 4, 19), (30, 5, 29), (9, 3, 8)])
def test_bigger_tables_meet_about_equally_often(n: int, size: int, rounds: int) -> None:
    counts, _ = run_round_robin(n, size, rounds)
    assert max(counts) - min(counts) <= 3
    rng = random.Random(0)
    shuffled: list[list[int]] = []  # a random draw for comparison
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        shuffled += [order[k : k + size] for k in range(0, n, size)]
    random_met = meetings(shuffled)
    random_counts = [random_met.get(pair(a, b), 0) for a in range(n) for b in range(a + 1, n)]
    assert statistics.pstdev(counts) < 0.5 * statistics.pstdev(random_counts)


def test_round_robin_byes_rotate() -> None:
    _, byes = run_round_robin(9, 4, 9, low=4, high=4)  # 8 seats, one bye a round
    assert sum(byes.values()) == 9
    assert set(byes.values()) == {1}


def test_round_robin_is_deterministic() -> None:
    one = round_robin_round(list(range(20)), 3, 4, 2, 10, seed=5)
    assert one == round_robin_round(list(range(20)), 3, 4, 2, 10, seed=5)
    assert isinstance(one, Round)


def test_swiss_keeps_the_standing_order_without_rematches() -> None:
    standing = list(range(16))
    first = swiss_round(standing, 4, 2, 10)
    assert first.tables == [(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15)]


def test_swiss_avoids_rematches_when_it_can() -> None:
    standing = list(range(8))
    history = [(0, 1), (2, 3), (4, 5), (6, 7)]
    played = swiss_round(standing, 2, 2, 2, history)
    assert not {pair(*t) for t in played.tables} & {pair(*t) for t in history}
    assert all(abs(a - b) <= 3 for a, b in played.tables)  # still close in the standing


def test_swiss_byes_go_to_the_lowest_ranked_without_one() -> None:
    standing = list(range(7))
    played = swiss_round(standing, 2, 2, 2)
    assert played.byes == [6]
    played = swiss_round(standing, 2, 2, 2, byes_so_far={6: 1})
    assert played.byes == [5]
