"""Head-to-head records between two bots with Wilson 95% intervals (pure, no Django).

Every match both bots played counts once, whatever the table size: bot A "wins" the meeting when it
finished ahead of B, ties when they share a place, loses when behind. The win rate is
``(wins + ties/2) / meetings`` and its interval is the Wilson score interval of that proportion (ties as
half a success), translated to an Elo difference through the logistic curve for display.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from arena.ratings.stats import wilson_interval
from arena.tournaments.sprt import elo_from_score


@dataclass(frozen=True)
class HeadToHead:
    """A's record against B."""

    wins: int
    ties: int
    losses: int

    @property
    def meetings(self) -> int:
        """Matches both played."""
        return self.wins + self.ties + self.losses

    @property
    def score(self) -> float | None:
        """A's share of the points against B (ties ½), or None before any meeting."""
        return (self.wins + self.ties / 2) / self.meetings if self.meetings else None

    @property
    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of :attr:`score` ((0, 1) before any meeting)."""
        return wilson_interval(self.wins + self.ties / 2, self.meetings)

    @property
    def elo(self) -> tuple[float, float, float] | None:
        """The implied Elo difference A − B with its interval, or None before any meeting."""
        if self.score is None:
            return None
        low, high = self.interval
        return elo_from_score(self.score), elo_from_score(low), elo_from_score(high)


def head_to_head(place_pairs: Iterable[tuple[int, int]]) -> HeadToHead:
    """A's record from ``(place of A, place of B)`` per meeting (1 = first)."""
    wins = ties = losses = 0
    for a, b in place_pairs:
        if a < b:
            wins += 1
        elif a == b:
            ties += 1
        else:
            losses += 1
    return HeadToHead(wins, ties, losses)
