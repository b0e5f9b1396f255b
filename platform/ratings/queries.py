"""Read-side queries for leaderboards and bot pages, written to avoid N+1 queries."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Case, QuerySet, Value, When

from arena.ratings.elo import PROVISIONAL_GAMES
from ratings.models import Rating
from rulesets.models import RuleSet


def leaderboard(ruleset: RuleSet) -> QuerySet[Rating]:
    """Ratings of active bots on a rule set: established bots best first, then the provisional ones
    (fewer than ``PROVISIONAL_GAMES`` rated games) best first, ranked apart; with bot, owner and the
    batch fit's Elo and 95% interval (``ladder.FittedRating``, ``rating.fit``) joined in."""
    provisional = Case(When(games__lt=PROVISIONAL_GAMES, then=Value(1)), default=Value(0))
    return (
        Rating.objects.filter(ruleset=ruleset, bot__is_active=True)
        .select_related("bot__owner", "fit")
        .only(
            "id",
            "elo",
            "games",
            "wins",
            "last_played",
            "bot__id",
            "bot__name",
            "bot__owner__username",
            "fit__elo",
            "fit__low",
            "fit__high",
            "fit__computed_at",
        )
        .order_by(provisional.asc(), "-elo", "id")
    )


def number_rows(rows: Iterable[Rating], start: int) -> list[Rating]:
    """Give each row its rank (``start`` is the rank of the first row)."""
    ranked = list(rows)
    for offset, row in enumerate(ranked):
        row.rank = start + offset  # type: ignore[attr-defined]
    return ranked
