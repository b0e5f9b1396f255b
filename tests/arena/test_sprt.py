"""The GSPRT of version tests: bounds, LLR, Elo estimate, and its error rates by simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arena.tournaments.sprt import bounds, elo_estimate, elo_from_score, llr, outcomes, score_from_elo, sprt


def test_bounds_and_logistic() -> None:
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=1e-3)
    assert upper == pytest.approx(2.944, abs=1e-3)
    assert score_from_elo(0) == 0.5
    assert elo_from_score(score_from_elo(123.0)) == pytest.approx(123.0)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    assert outcomes(5) == [0, 0.25, 0.5, 0.75, 1]
    with pytest.raises(ValueError, match="elo1"):
        sprt([1, 1, 1, 1, 1], 10, 0)


def test_llr_sign_follows_the_evidence() -> None:
    good = [5, 20, 100, 40, 15]  # mean score above ½
    bad = list(reversed(good))
    assert llr(good, 0, 20) > 0 > llr(bad, 0, 20)
    assert llr([0, 0, 0, 0, 0], 0, 20) == 0
    assert llr([2 * c for c in good], 0, 20) == pytest.approx(2 * llr(good, 0, 20), rel=1e-3)


def test_trinomial_works_too() -> None:
    assert llr([30, 40, 50], 0, 20) > 0


def test_verdicts() -> None:
    assert sprt([0, 0, 0, 0, 0], 0, 20).verdict is None
    assert sprt([0, 5, 50, 150, 100], 0, 20).verdict == "H1"
    assert sprt([100, 150, 50, 5, 0], 0, 20).verdict == "H0"


def test_elo_estimate_interval() -> None:
    elo, low, high = elo_estimate([10, 20, 40, 20, 10])
    assert elo == pytest.approx(0, abs=1e-9)
    assert low < 0 < high
    elo, low, high = elo_estimate([0, 10, 40, 30, 20])
    assert low < elo < high
    assert elo > 0
    assert elo_estimate([0, 0, 0, 0, 0])[1] == -math.inf
    elo, low, high = elo_estimate([0, 0, 0, 0, 23])  # a clean sweep: finite, and honestly wide
    assert 0 < low < elo < 1000
    assert high == math.inf  # the data cannot bound it from above yet
    elo, low, high = elo_estimate([1000, 2000, 4000, 2000, 1000])
    assert elo == pytest.approx(0, abs=1e-9)
    assert high - low == pytest.approx(2 * 1.96 * math.sqrt(0.075 / 10000) * 1600 / math.log(10), rel=0.01)


def pentanomial(elo: float, draw_share: float) -> np.ndarray:
    """Pair outcome probabilities with mean score exactly ``score_from_elo(elo)``: a share of pairs
    split 1-1 by the deal (duplicate luck), the rest two independent games."""
    s = score_from_elo(elo)
    q = (s - 0.5 * draw_share) / (1 - draw_share)
    probs = np.array([(1 - q) ** 2, 0, 2 * q * (1 - q), 0, q * q]) * (1 - draw_share)
    probs[2] += draw_share
    return probs


def run_tests(true_elo: float, runs: int, seed: int, draw_share: float, batch: int = 10) -> list[str]:
    """Run ``runs`` SPRTs [0, 50] checked every ``batch`` pairs, as the platform does; their verdicts."""
    rng = np.random.default_rng(seed)
    probs = pentanomial(true_elo, draw_share)
    verdicts = []
    for _ in range(runs):
        counts = np.zeros(5)
        for _ in range(1000):
            counts += rng.multinomial(batch, probs)
            verdict = sprt(list(counts), 0, 50).verdict
            if verdict:
                break
        verdicts.append(verdict or "none")
    return verdicts


@pytest.mark.parametrize("draw_share", [0.0, 0.5])
def test_error_rates_by_simulation(draw_share: float) -> None:
    """alpha = beta = 0.05: at elo0 H1 is accepted at most ~5% of the time, at elo1 H0 at most ~5%."""
    runs = 400
    false_positive = run_tests(0, runs, seed=1, draw_share=draw_share).count("H1") / runs
    false_negative = run_tests(50, runs, seed=2, draw_share=draw_share).count("H0") / runs
    print(
        f"draw share {draw_share}: alpha {false_positive:.3f}, beta {false_negative:.3f} ({runs} runs each)"
    )
    # 400 runs: the standard error of a 5% rate is 1.1%; checking every 10 pairs only overshoots.
    assert false_positive <= 0.08
    assert false_negative <= 0.08
