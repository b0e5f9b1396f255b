"""``{% replay_viewer match %}``: the replay viewer, for any page (match pages, league pages, ...).

    {% load replay_viewer %}
    {% replay_viewer match %}                     {# the viewer that follows the URL (#d=…&pov=…) #}
    {% replay_viewer match url_state=False %}     {# a second viewer on the same page #}

One query (the seats with their bots, versions and owners). The bot owner's per-decision stderr is
fetched by the viewer only when the visitor owns a seat's bot (or is staff).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from arena.engine.replay_view import VIEW_VERSION
from matches.models import Match, MatchStatus
from viewer.services import game_count, replay_command, replay_filename, reproduce_command

register = template.Library()


@register.inclusion_tag("viewer/_viewer.html", takes_context=True)
def replay_viewer(context: dict[str, Any], match: Match, url_state: bool = True) -> dict[str, Any]:
    """The context of ``viewer/_viewer.html`` for a match (finished or not)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    seats = list(
        match.participants.select_related("bot__owner", "bot_version")
        .defer("bot_version__archive", "bot_version__smoke_log", "stderr", "fault_detail")
        .order_by("seat")
    )
    owns = any(seat.bot.is_owned_by(user) for seat in seats)
    info = [
        {
            "name": seat.bot.name,
            "version": seat.bot_version.number,
            "url": reverse("bot-detail", args=[seat.bot_id]),
            "owner": seat.bot.owner.username,
        }
        for seat in seats
    ]
    finished = match.status == MatchStatus.FINISHED
    return {
        "match": match,
        "finished": finished,
        "seats_info": info,
        "games": game_count(match, len(seats)),
        "view_url": f"{reverse('match-view-data', args=[match.pk])}?v={VIEW_VERSION}",
        "stderr_url": reverse("match-decision-stderr", args=[match.pk]) if owns and finished else "",
        "replay_url": reverse("match-replay", args=[match.pk]),
        "command": reproduce_command(match, seats) if finished else "",
        "replay_command": replay_command(match) if finished else "",
        "replay_filename": replay_filename(match),
        "guide_url": reverse("guide"),
        "url_state": url_state,
    }
