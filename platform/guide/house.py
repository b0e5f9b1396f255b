"""The house bots as the guide shows them: the example bots, each with its rating on the official rules.

They play on every leaderboard, so a newcomer reads where their own bot stands against fixed points of
known strength (docs/bots.md, "Strength"), and plays the same bots at home by the same names
(``uno-arena match mybot.py search-10ms strategist``: ``arena.play.examples`` accepts the site's names).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Prefetch

from bots.models import Bot
from ratings.models import Rating

OFFICIAL_RULES = "classic"
"""The rule set whose ratings the guide shows: the official rules, the guide's local match command's."""


@dataclass(frozen=True)
class HouseBot:
    """One house bot: its name, page, what it is, and its rating on :data:`OFFICIAL_RULES` (``None``
    until it has played a rated game there)."""

    name: str
    url: str
    summary: str
    elo: float | None
    games: int


def house_bots(ruleset_slug: str = OFFICIAL_RULES) -> list[HouseBot]:
    """The active example bots, strongest first (the unrated after the rated, by name)."""
    ratings = Rating.objects.filter(ruleset__slug=ruleset_slug, games__gt=0)
    bots = (
        Bot.objects.filter(owner__username=settings.UNO_ARENA_SYSTEM_USER, is_active=True)
        .exclude(active_version=None)
        .prefetch_related(Prefetch("ratings", queryset=ratings, to_attr="official"))
        .order_by("name")
    )
    rows = []
    for bot in bots:
        rating = bot.official[0] if bot.official else None
        rows.append(
            HouseBot(
                name=bot.name,
                url=bot.get_absolute_url(),
                summary=bot.description,
                elo=rating.elo if rating else None,
                games=rating.games if rating else 0,
            )
        )
    return sorted(rows, key=lambda r: (r.elo is None, -(r.elo or 0.0), r.name))
