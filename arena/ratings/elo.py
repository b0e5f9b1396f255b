"""Multi-player Elo from a finishing order (pure functions, no Django).

Method (see ``docs/ratings.md``): a match of ``n`` players counts as ``n·(n-1)/2`` pairwise games.
For each pair, the player placed ahead scores 1 and the other 0; players tied on a place score ½ each.
Player ``i``'s change is ``K/(n-1) · Σ_j (S_ij − E_ij)`` with ``E_ij = 1 / (1 + 10^((R_j − R_i)/400))``,
so a two-player match is classic Elo with ``K``, and the changes of one match always sum to zero.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Rating of a bot that has not played on a rule set yet.
START_RATING = 1500.0
#: Elo K-factor for a whole match (split over the ``n - 1`` opponents).
K_FACTOR = 32.0
#: A rating is provisional until the bot has played this many rated games on the rule set.
PROVISIONAL_GAMES = 20


def expected_score(rating: float, opponent: float) -> float:
    """The expected score of a player rated ``rating`` against one rated ``opponent`` (0..1)."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def place_of_seats(places: Sequence[Sequence[int]], players: int) -> list[int]:
    """Turn a finishing order (``[[seats tied first], [next], ...]``) into each seat's place (0 = first).

    Raises ``ValueError`` unless every seat ``0..players-1`` appears exactly once.
    """
    result = [-1] * players
    for place, group in enumerate(places):
        for seat in group:
            if not 0 <= seat < players or result[seat] != -1:
                raise ValueError(f"seat {seat} is out of range or listed twice in {places!r}")
            result[seat] = place
    if -1 in result:
        raise ValueError(f"finishing order {places!r} does not list every one of {players} seats")
    return result


def pairwise_score(place_a: int, place_b: int) -> float:
    """Score of the player on ``place_a`` against the one on ``place_b`` (1 ahead, ½ tie, 0 behind)."""
    if place_a < place_b:
        return 1.0
    if place_a == place_b:
        return 0.5
    return 0.0


def rating_changes(
    ratings: Sequence[float], places: Sequence[Sequence[int]], k: float = K_FACTOR
) -> list[float]:
    """Elo change of each seat after one match, given the seats' ratings before it and the finishing order."""
    n = len(ratings)
    if n < 2:
        raise ValueError("a rated match needs at least two players")
    seat_place = place_of_seats(places, n)
    scale = k / (n - 1)
    changes = []
    for i in range(n):
        total = 0.0
        for j in range(n):
            if i != j:
                total += pairwise_score(seat_place[i], seat_place[j]) - expected_score(ratings[i], ratings[j])
        changes.append(scale * total)
    return changes


def new_ratings(
    ratings: Sequence[float], places: Sequence[Sequence[int]], k: float = K_FACTOR
) -> list[float]:
    """Ratings after one match (``ratings`` plus :func:`rating_changes`)."""
    return [r + d for r, d in zip(ratings, rating_changes(ratings, places, k), strict=True)]


def is_provisional(games: int) -> bool:
    """Whether a rating based on ``games`` rated games is still provisional."""
    return games < PROVISIONAL_GAMES
