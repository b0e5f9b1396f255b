"""Sequential probability ratio test for "is the new version better?" (fishtest-style GSPRT; pure).

The samples are game pairs (a duplicate-deal match of two bots: the same deal once from each seat).
A pair's score for the new version is 0, ¼, ½, ¾ or 1 (its points over the two games, a win 1, a tie
½, divided by 2): the **pentanomial** model, which keeps the strong correlation between the two games of
a duplicate pair (the deal's luck cancels) instead of pretending they are independent. Plain games fit
the **trinomial** model (0, ½, 1); any number of equally spaced outcomes on ``[0, 1]`` works.

Hypotheses, in logistic Elo of the new version over the old: ``H0: elo = elo0`` against
``H1: elo = elo1``, i.e. an expected score ``s = 1 / (1 + 10^(-elo/400))`` of ``s0`` or ``s1``.
The log-likelihood ratio is the generalised one (Van den Bergh's GSPRT, used by fishtest):

    LLR = N · Σ_i p̂_i · log(p1_i / p0_i)

where ``p̂`` are the observed frequencies of the outcomes over ``N`` pairs and ``p0``/``p1`` the
distributions closest to ``p̂`` (maximum likelihood) whose mean score is ``s0``/``s1``:
``p_i = p̂_i / (1 + x·(a_i - s))`` with ``x`` solving ``Σ p̂_i (a_i - s) / (1 + x·(a_i - s)) = 0``.
Empty outcome classes get a count of 1e-3 (as fishtest does) so the test can start at once.

Stopping (Wald): accept H1 when ``LLR >= log((1 - β)/α)``, accept H0 when ``LLR <= log(β/(1 - α))``;
with ``α = β = 0.05`` the bounds are ``±2.944``. The platform also stops at a game limit ("no verdict").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena.ratings.elo import expected_score

ALPHA = 0.05
BETA = 0.05
Z95 = 1.959963984540054
_EMPTY = 1e-3


def score_from_elo(elo: float) -> float:
    """Expected score (0..1) of a player ``elo`` logistic Elo points stronger."""
    return expected_score(elo, 0.0)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference of an expected score (``-inf`` at 0 and below, ``inf`` at 1 and above)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def bounds(alpha: float = ALPHA, beta: float = BETA) -> tuple[float, float]:
    """Wald's ``(lower, upper)`` LLR bounds."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def outcomes(k: int) -> list[float]:
    """Scores of ``k`` equally spaced outcome classes: 3 → 0, ½, 1 (trinomial), 5 → pentanomial."""
    if k < 2:
        raise ValueError("need at least two outcome classes")
    return [i / (k - 1) for i in range(k)]


def _constrained_mle(freq: Sequence[float], scores: Sequence[float], s: float) -> list[float]:
    """The distribution nearest to ``freq`` (maximum likelihood) with mean score ``s``."""
    shifted = [a - s for a in scores]
    top, bottom = max(shifted), min(shifted)
    if not bottom < 0 < top:
        raise ValueError(f"score {s} is outside the outcome range")
    lo, hi = -1.0 / top, -1.0 / bottom

    def f(x: float) -> float:
        return sum(p * d / (1.0 + x * d) for p, d in zip(freq, shifted, strict=True))

    # f decreases on (lo, hi); bisect inside the open interval.
    lo_x, hi_x = lo + 1e-12 * (hi - lo), hi - 1e-12 * (hi - lo)
    for _ in range(200):
        mid = 0.5 * (lo_x + hi_x)
        if f(mid) > 0:
            lo_x = mid
        else:
            hi_x = mid
        if hi_x - lo_x < 1e-14:
            break
    x = 0.5 * (lo_x + hi_x)
    q = [p / (1.0 + x * d) for p, d in zip(freq, shifted, strict=True)]
    total = sum(q)
    return [v / total for v in q]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalised log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for ``counts`` of
    equally spaced outcomes (see the module docstring)."""
    if sum(counts) <= 0:
        return 0.0
    regular = [c if c > 0 else _EMPTY for c in counts]
    n = sum(regular)
    freq = [c / n for c in regular]
    scores = outcomes(len(counts))
    p0 = _constrained_mle(freq, scores, score_from_elo(elo0))
    p1 = _constrained_mle(freq, scores, score_from_elo(elo1))
    return n * sum(p * math.log(b / a) for p, a, b in zip(freq, p0, p1, strict=True))


def elo_estimate(counts: Sequence[float]) -> tuple[float, float, float]:
    """Elo difference with its 95% interval ``(elo, low, high)``: the mean score and its normal
    interval (per-sample variance over ``N``), through the logistic curve.

    One pseudo-sample, half in the worst and half in the best outcome class, is added first (as the
    Agresti-Coull interval does for a proportion), so that a run of identical outcomes (say 20 pairs
    all won) still gives a finite estimate and an interval of honest width; with many samples it
    changes nothing visible.
    """
    n = sum(counts)
    if n <= 0:
        return 0.0, -math.inf, math.inf
    adjusted = list(counts)
    adjusted[0] += 0.5
    adjusted[-1] += 0.5
    n += 1
    scores = outcomes(len(counts))
    mean = sum(c * a for c, a in zip(adjusted, scores, strict=True)) / n
    var = sum(c * (a - mean) ** 2 for c, a in zip(adjusted, scores, strict=True)) / n
    half = Z95 * math.sqrt(var / n)
    return elo_from_score(mean), elo_from_score(mean - half), elo_from_score(mean + half)


@dataclass(frozen=True)
class SPRTResult:
    """Where a test stands: LLR against its bounds, the verdict, and the Elo estimate."""

    samples: float
    llr: float
    lower: float
    upper: float
    verdict: str | None  # "H1" (new is better), "H0" (it is not), None (carry on)
    elo: float
    elo_low: float
    elo_high: float


def sprt(
    counts: Sequence[float], elo0: float, elo1: float, alpha: float = ALPHA, beta: float = BETA
) -> SPRTResult:
    """Evaluate the test on ``counts`` (pentanomial: pairs scoring 0, ¼, ½, ¾, 1)."""
    if not elo1 > elo0:
        raise ValueError("elo1 must be greater than elo0")
    lower, upper = bounds(alpha, beta)
    value = llr(counts, elo0, elo1)
    verdict = "H1" if value >= upper else "H0" if value <= lower else None
    elo, low, high = elo_estimate(counts)
    return SPRTResult(sum(counts), value, lower, upper, verdict, elo, low, high)
