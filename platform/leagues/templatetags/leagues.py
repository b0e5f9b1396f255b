"""Template tags of the leagues app: the running leagues for the home page include."""

from __future__ import annotations

from django import template
from django.db.models import Count, QuerySet

from leagues.models import League, LeagueStatus

register = template.Library()


@register.simple_tag
def running_leagues(limit: int = 5) -> QuerySet[League]:
    """The most recently started running leagues with their rule set and round count (one query)."""
    return (
        League.objects.filter(status=LeagueStatus.RUNNING)
        .select_related("ruleset")
        .annotate(played=Count("round_set"))
        .order_by("-started_at", "-id")[:limit]
    )
