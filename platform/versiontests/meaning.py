"""A version test's figures in words, for the people who read its page (the live page shows it too)."""

from __future__ import annotations

from typing import Any


def _elo(value: float | None, sign: str) -> str:
    return f"{sign}∞" if value is None else f"{value:+g}"


def meaning(p: dict[str, Any]) -> str:
    """What a test's progress (``VersionTest.progress()``) says, in a few sentences."""
    status = p["status"]
    elo0, elo1 = p["elo0"], p["elo1"]
    if not p["pairs"]:
        return "No pair has finished yet: the figures appear with the first results."
    low, high = p["elo_low"], p["elo_high"]
    interval = f"{_elo(p['elo'], '')} Elo (95% interval {_elo(low, '−')} to {_elo(high, '+')})"
    excludes_zero = (low is not None and low > 0) or (high is not None and high < 0)
    direction = "better" if low is not None and low > 0 else "worse"
    if status == "accepted":
        return (
            f"Better: the evidence crossed the upper bound, so the new version is at least {elo1:g} Elo "
            f"better (H1) with the error rates asked for. Measured difference: {interval}."
        )
    if status == "rejected":
        return (
            f"Not better: the evidence crossed the lower bound, so the new version is not {elo1:g} Elo "
            f"better (H0: at most {elo0:g}). Measured difference: {interval}."
        )
    text = f"Measured difference so far: {interval}. "
    if status == "limit":
        text += (
            f"No verdict: the game limit came before the evidence decided between H0 (at most {elo0:g} Elo "
            f"better) and H1 (at least {elo1:g} better)."
        )
        if excludes_zero:
            text += (
                f" The interval excludes 0, so the new version is very probably {direction} than the "
                f"baseline; the test asked a sharper question (is the gain at least {elo1:g}?), which these "
                "games do not settle: the true difference may lie between the two bounds."
            )
        return text
    if status == "running":
        return text + (
            "The LLR (log-likelihood ratio: how much more the results favour H1 than H0) moves with each "
            f"pair; the test stops at {p['upper']:g} (better) or {p['lower']:g} (not better)."
        )
    return text + "The test stopped before a verdict."
