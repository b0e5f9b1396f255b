"""The batch rating fit: recovers known strengths, and its 95% intervals cover them about 95% of the time."""

from __future__ import annotations

import numpy as np
import pytest

from arena.ratings.fit import ELO_PER_NAT, bootstrap_intervals, fit_ratings, pair_data
from arena.ratings.ranking import spearman


def simulate(
    bots: int, matches: int, seats: int | None, seed: int, spread: float = 150.0
) -> tuple[np.ndarray, list[list[tuple[int, int]]]]:
    """True ratings and Plackett-Luce finishing orders (strength + Gumbel noise) of random tables."""
    rng = np.random.default_rng(seed)
    truth = rng.normal(1500.0, spread, bots)
    strength = (truth - 1500.0) / ELO_PER_NAT
    out = []
    for _ in range(matches):
        n = seats or int(rng.integers(2, 7))
        table = rng.choice(bots, n, replace=False)
        order = np.argsort(-(strength[table] + rng.gumbel(size=n)))
        places = np.empty(n, dtype=int)
        places[order] = np.arange(1, n + 1)
        out.append([(int(b), int(p)) for b, p in zip(table, places, strict=True)])
    return truth, out


def coverage(truth: np.ndarray, fit: object) -> float:
    """Share of bots whose interval covers the truth (the scale's origin is the pool's, so centre it)."""
    ids = fit.ids  # type: ignore[attr-defined]
    true = truth[ids] - truth[ids].mean() + fit.ratings.mean()  # type: ignore[attr-defined]
    return float(np.mean((fit.low <= true) & (true <= fit.high)))  # type: ignore[attr-defined]


def test_two_player_fit_recovers_the_order() -> None:
    truth, matches = simulate(30, 3000, 2, seed=1)
    fit = fit_ratings(matches)
    assert fit.method == "sandwich-dense"
    assert spearman(list(truth[fit.ids]), list(fit.ratings)) > 0.9
    assert abs(fit.ratings.mean() - 1500) < 5
    assert set(fit.games) == {int(g) for g in np.bincount([b for m in matches for b, _ in m])}


@pytest.mark.parametrize(("seats", "dense_limit"), [(2, 600), (4, 600), (4, 0), (None, 600), (None, 0)])
def test_intervals_cover_the_truth_95_percent(seats: int | None, dense_limit: int) -> None:
    """Dense sandwich and the large-pool diagonal approximation, 2-, 4- and mixed-size tables."""
    rates = []
    for seed in range(12):
        truth, matches = simulate(40, 1200, seats, seed=100 + seed)
        rates.append(coverage(truth, fit_ratings(matches, dense_limit=dense_limit)))
    rate = float(np.mean(rates))
    print(f"seats={seats} dense_limit={dense_limit}: coverage {rate:.3f}")
    assert 0.91 <= rate <= 0.985


def test_the_sandwich_is_needed_on_big_tables() -> None:
    """The pairs of a 6-player table are not independent games: the naive information of the weighted
    pairs misjudges the spread, the sandwich gets it right."""
    from arena.ratings.fit import _Problem

    naive_cover, sandwich_cover = [], []
    for seed in range(8):
        truth, matches = simulate(40, 1500, 6, seed=200 + seed)
        data = pair_data(matches)
        fit = fit_ratings(data)
        _, diag, _ = _Problem(data, data.weight, 1.0).gradient((fit.ratings - 1500) / ELO_PER_NAT)
        ids = fit.ids
        true = truth[ids] - truth[ids].mean() + fit.ratings.mean()
        naive = 1.96 * ELO_PER_NAT / np.sqrt(diag)
        naive_cover.append(np.mean(np.abs(true - fit.ratings) <= naive))
        sandwich_cover.append(coverage(truth, fit))
    print(
        f"6-player tables: naive coverage {np.mean(naive_cover):.3f}, sandwich {np.mean(sandwich_cover):.3f}"
    )
    assert 0.91 <= np.mean(sandwich_cover) <= 0.985
    assert abs(np.mean(naive_cover) - 0.95) > abs(np.mean(sandwich_cover) - 0.95)


def test_dense_and_diagonal_agree_on_a_well_connected_pool() -> None:
    _, matches = simulate(300, 6000, None, seed=3)
    dense = fit_ratings(matches, dense_limit=1000)
    sparse = fit_ratings(matches, dense_limit=0)
    assert dense.method == "sandwich-dense"
    assert sparse.method == "sandwich-diagonal"
    assert np.max(np.abs(dense.ratings - sparse.ratings)) < 1e-6
    assert np.max(np.abs(sparse.stderr / dense.stderr - 1)) < 0.05


def test_bootstrap_agrees_with_the_sandwich() -> None:
    _, matches = simulate(12, 800, 4, seed=5)
    fit = fit_ratings(matches)
    ids, low, high = bootstrap_intervals(matches, samples=150, seed=1)
    assert ids == fit.ids
    ratio = (high - low) / (fit.high - fit.low)
    assert 0.8 < float(np.median(ratio)) < 1.25


def test_unbeaten_and_isolated_players_stay_finite() -> None:
    matches = [[(1, 1), (2, 2)]] * 10 + [[(3, 1), (4, 1)]]
    fit = fit_ratings(matches)
    by_id = dict(zip(fit.ids, fit.ratings, strict=True))
    assert np.all(np.isfinite(fit.ratings))
    assert np.all(np.isfinite(fit.stderr))
    assert by_id[1] > 1500 > by_id[2]
    assert by_id[3] == pytest.approx(1500) == by_id[4]
    assert fit.as_dict()[1][1] < by_id[1] < fit.as_dict()[1][2]


def test_empty_input() -> None:
    fit = fit_ratings([])
    assert fit.ids == []
    assert fit.method == "none"
    assert fit_ratings([[(1, 1)]]).ids == []  # a one-player "match" says nothing
