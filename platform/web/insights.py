"""Read-side queries of the pages people look at: bot pages, player pages, the home page.

Every function makes a fixed number of queries whatever the number of matches, bots or rule sets
(tests/platform/test_insight_pages.py asserts the counts).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery, Window
from django.db.models.functions import RowNumber

from bots.models import Bot, BotVersion
from matches.models import Match, MatchStatus, Participant
from ratings.models import Rating, RatingHistory
from rulesets.models import RuleSet
from web.match_filters import with_origin

#: The Elo chart shows at most this many rating changes of a bot (the most recent).
HISTORY_POINTS = 3000


def _table_size() -> Subquery:
    """The number of seats of a participant's match."""
    return Subquery(
        Participant.objects.filter(match=OuterRef("match"))
        .order_by()
        .values("match")
        .annotate(seats=Count("pk"))
        .values("seats")[:1]
    )


@dataclass
class TableSizeRow:
    """A bot's finished matches at one table size."""

    players: int
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        """Share of these matches it finished first (ties included), 0..1."""
        return self.wins / self.games if self.games else 0.0

    @property
    def percent(self) -> int:
        """The win rate in whole percent."""
        return round(100 * self.win_rate)


def table_sizes(bot: Bot) -> list[TableSizeRow]:
    """Matches played and won by table size (finished matches, rated or not). One query."""
    rows = (
        Participant.objects.filter(bot=bot, match__status=MatchStatus.FINISHED, place__isnull=False)
        .annotate(players=_table_size())
        .values("players")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(place=1)))
        .order_by("players")
    )
    return [TableSizeRow(r["players"], r["games"], r["wins"]) for r in rows]


def elo_series(bot: Bot, limit: int = HISTORY_POINTS) -> list[dict[str, Any]]:
    """The Elo history of a bot per rule set, for the chart: ``[{"slug", "name", "points": [[time (ms),
    Elo after, match id, games], ...]}]``, oldest first (the chart's dotted line marks the start rating).
    The ``limit`` most recent changes. One query."""
    rows = list(
        RatingHistory.objects.filter(rating__bot=bot)
        .order_by("-id")
        .values_list(
            "rating__ruleset__slug",
            "rating__ruleset__name",
            "created_at",
            "elo_after",
            "match_id",
            "games",
        )[:limit]
    )
    series: dict[str, dict[str, Any]] = {}
    for slug, name, created, after, match_id, games in reversed(rows):
        entry = series.setdefault(slug, {"slug": slug, "name": name, "points": []})
        entry["points"].append([int(created.timestamp() * 1000), round(after, 1), match_id, games])
    return sorted(series.values(), key=lambda s: -len(s["points"]))


def version_marks(versions: Iterable[BotVersion]) -> list[dict[str, Any]]:
    """Version uploads as chart markers: ``[{"t": time (ms), "label": "v2"}]``."""
    return [{"t": int(v.created_at.timestamp() * 1000), "label": f"v{v.number}"} for v in versions]


@dataclass(slots=True)
class RecentSeat:
    """One seat of a recent match, as the recent-matches table shows it (``web.templatetags.pages``
    ``recent_rows``): plain values, no model instances."""

    match_id: int
    rated: bool
    duplicate: bool
    status: str
    ruleset_name: str
    bot_id: int
    bot_name: str
    version_number: int
    seat: int
    place: int | None
    score: int | None
    rating_before: float | None
    rating_after: float | None
    fault_kind: str
    #: The match's other seats in seat order: (bot id, bot name, place).
    opponents: list[tuple[int, str, int | None]] = field(default_factory=list)

    @property
    def rating_change(self) -> float | None:
        """Elo change of this seat (rated matches only)."""
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


def recent_matches(participations: QuerySet[Participant], limit: int = 20) -> list[RecentSeat]:
    """The latest ``limit`` seats of a queryset of participants, newest match first, with the match, rule
    set, version and the other seats of the match (bots) for the opponents column. Two queries, of values
    (no model instances)."""
    rows = [
        RecentSeat(*values)
        for values in participations.order_by("-match_id").values_list(
            "match_id",
            "match__rated",
            "match__duplicate",
            "match__status",
            "match__ruleset__name",
            "bot_id",
            "bot__name",
            "bot_version__number",
            "seat",
            "place",
            "score",
            "rating_before",
            "rating_after",
            "fault_kind",
        )[:limit]
    ]
    if not rows:
        return rows
    seats: dict[int, list[tuple[int, int, str, int | None]]] = {}
    for match_id, seat, bot_id, bot_name, place in (
        Participant.objects.filter(match_id__in={row.match_id for row in rows})
        .order_by("match_id", "seat")
        .values_list("match_id", "seat", "bot_id", "bot__name", "place")
    ):
        seats.setdefault(match_id, []).append((seat, bot_id, bot_name, place))
    for row in rows:
        row.opponents = [
            (b, name, place) for seat, b, name, place in seats.get(row.match_id, ()) if seat != row.seat
        ]
    return rows


def faults(bot: Bot, limit: int = 20) -> list[Participant]:
    """The bot's latest faults with their details (owner-only). One query."""
    return list(
        Participant.objects.filter(bot=bot)
        .exclude(fault_kind="")
        .select_related("match__ruleset", "bot_version")
        .only(
            "id",
            "seat",
            "fault_kind",
            "fault_decision",
            "fault_detail",
            "match__id",
            "match__created_at",
            "match__ruleset__slug",
            "match__ruleset__name",
            "bot_version__number",
        )
        .order_by("-match_id")[:limit]
    )


@dataclass
class Ladder:
    """The top of one rule set's ladder."""

    ruleset: RuleSet
    top: list[Rating] = field(default_factory=list)


def ladder_tops(size: int = 3) -> list[Ladder]:
    """The ``size`` best active bots of every active rule set. Two queries (a window function ranks the
    ratings inside each rule set)."""
    rulesets = list(RuleSet.objects.filter(is_active=True).only("id", "slug", "name", "description"))
    ranked = (
        Rating.objects.filter(ruleset__is_active=True, bot__is_active=True, games__gt=0)
        .annotate(
            rank=Window(
                RowNumber(), partition_by=[F("ruleset_id")], order_by=[F("elo").desc(), F("id").asc()]
            )
        )
        .filter(rank__lte=size)
        .select_related("bot__owner")
        .only("id", "elo", "games", "wins", "ruleset_id", "bot__id", "bot__name", "bot__owner__username")
        .order_by("ruleset_id", "rank")
    )
    by_ruleset: dict[int, list[Rating]] = {}
    for rating in ranked:
        by_ruleset.setdefault(rating.ruleset_id, []).append(rating)
    return [Ladder(rs, by_ruleset.get(rs.pk, [])) for rs in rulesets]


@dataclass
class Activity:
    """What the platform is doing now."""

    running: int
    queued: int
    finished_today: int
    latest: list[Match]


def activity(since: datetime, limit: int = 12) -> Activity:
    """Counts of running and queued matches, matches finished since ``since``, and the latest matches
    (any status, version tests left out) with their seats and origin. Three queries."""
    counts = Match.objects.aggregate(
        running=Count("pk", filter=Q(status=MatchStatus.RUNNING)),
        queued=Count("pk", filter=Q(status=MatchStatus.QUEUED)),
        finished_today=Count("pk", filter=Q(status=MatchStatus.FINISHED, finished_at__gte=since)),
    )
    seats = Prefetch(
        "participants",
        Participant.objects.select_related("bot")
        .only("id", "seat", "place", "match_id", "bot__id", "bot__name")
        .order_by("seat"),
    )
    # Ladder, league and challenge games: a version test plays hundreds of unrated pairs in a burst, which
    # would fill the feed (they are on the match list and the test's own page).
    shown = with_origin(Match.objects.filter(version_test__isnull=True).select_related("ruleset"))
    latest = list(shown.prefetch_related(seats)[:limit])
    return Activity(counts["running"], counts["queued"], counts["finished_today"], latest)


@dataclass
class BotSummary:
    """One of a player's bots, with its best rating."""

    bot: Bot
    ratings: list[Rating]

    @property
    def best(self) -> Rating | None:
        """Its highest rating (on any rule set)."""
        return max(self.ratings, key=lambda r: r.elo, default=None)

    @property
    def games(self) -> int:
        """Rated games on every rule set."""
        return sum(r.games for r in self.ratings)


def player_bots(owner: Any) -> list[BotSummary]:
    """A player's bots with their ratings (two queries)."""
    ratings = Prefetch(
        "ratings",
        Rating.objects.select_related("ruleset").only(
            "id",
            "elo",
            "games",
            "wins",
            "bot_id",
            "last_played",
            "ruleset__id",
            "ruleset__slug",
            "ruleset__name",
        ),
    )
    bots = (
        Bot.objects.filter(owner=owner)
        .select_related("active_version")
        .only(
            "id",
            "name",
            "description",
            "is_active",
            "created_at",
            "active_version__id",
            "active_version__number",
            "active_version__smoke_status",
            "owner_id",
        )
        .prefetch_related(ratings)
        .order_by("name")
    )
    return [BotSummary(bot, list(bot.ratings.all())) for bot in bots]
