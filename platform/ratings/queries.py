"""Read-side queries for leaderboards and bot pages, written to avoid N+1 queries."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from ratings.models import Rating
from rulesets.models import RuleSet


def leaderboard(ruleset: RuleSet) -> QuerySet[Rating]:
    """Ratings of active bots on a rule set, best first, with bot and owner joined in."""
    return (
        Rating.objects.filter(ruleset=ruleset, bot__is_active=True)
        .select_related("bot__owner")
        .only("id", "elo", "games", "wins", "last_played", "bot__id", "bot__name", "bot__owner__username")
        .order_by("-elo", "id")
    )


def number_rows(rows: Iterable[Rating], start: int) -> list[Rating]:
    """Give each row its rank (``start`` is the rank of the first row)."""
    ranked = list(rows)
    for offset, row in enumerate(ranked):
        row.rank = start + offset  # type: ignore[attr-defined]
    return ranked
