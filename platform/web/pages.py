"""The pages people come back to: the home page (what is happening now), a bot's page (ratings with their
Elo history, table sizes, recent matches and replays, versions, faults for the owner) and a player's page.
Queries live in :mod:`web.insights`; each page makes a fixed number of them."""

from __future__ import annotations

from datetime import timedelta
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from arena.ratings.elo import START_RATING
from bots.models import Bot, owns
from matches.models import MatchStatus, Participant
from ratings.models import Rating
from rulesets.models import RuleSet
from web import insights, page_cache
from web.views import is_anonymous


def home(request: HttpRequest) -> HttpResponse:
    """What is happening now: running and queued matches, the latest matches with their replays, the top
    of every ladder, and the running leagues (``web/_running_leagues.html``, when the leagues app has it)."""
    now = timezone.now()
    ladders = insights.ladder_tops(3)
    context = {
        "activity": insights.activity(now - timedelta(days=1)),
        "ladders": [ladder for ladder in ladders if ladder.top],
        "quiet_rulesets": [ladder.ruleset for ladder in ladders if not ladder.top],
    }
    return render(request, "web/home.html", context)


class BotBody(NamedTuple):
    """A bot's page without the site's chrome (``web/bot_detail_body.html``): what every visitor but its
    owner sees alike, so it is cached once for all of them (``web.page_cache.cached_body``)."""

    name: str
    owner_id: int
    html: str


def bot_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A bot: its rating on every rule set with the Elo history as a chart, matches by table size, recent
    matches with links to their replays, versions with their smoke tests, and (owner) its faults.

    From the cache (``web.page_cache``: current, usually rendered by a task after the change rather than
    by a visitor): the whole page for visitors without a session (no query on a hit), the page's body for
    the other visitors but the bot's owner (their own chrome around it). The owner (and staff) get it
    rendered afresh, with their controls and faults."""
    if page_cache.timeout() <= 0:
        response = render_bot_page(request, render_bot_body(request, pk))
    elif is_anonymous(request):
        response = HttpResponse(page_cache.cached_page(pk, request)[0])
    else:
        body = page_cache.cached_body(pk)
        if owns(request.user, body.owner_id):
            body = render_bot_body(request, pk)
        response = render_bot_page(request, body)
    patch_vary_headers(response, ["Cookie"])
    return response


def render_bot_page(request: HttpRequest, body: BotBody) -> HttpResponse:
    """The bot page for ``request``: the site's chrome (its user, its messages) around ``body``."""
    return render(request, "web/bot_detail.html", {"title": body.name, "body": body.html})


def render_bot_body(request: HttpRequest | None, pk: int) -> BotBody:
    """Bot ``pk``'s page body as ``request``'s user sees it (``None``: as everyone but its owner does).
    Raises ``Http404`` for a bot that does not exist."""
    bot = get_object_or_404(
        Bot.objects.select_related("owner", "active_version").defer(
            "active_version__archive", "active_version__smoke_log"
        ),
        pk=pk,
    )
    is_owner = request is not None and bot.is_owned_by(request.user)
    ratings = {r.ruleset_id: r for r in Rating.objects.filter(bot=bot)}
    rulesets = RuleSet.objects.filter(is_active=True).only("id", "slug", "name")
    rows = sorted(
        ((rs, ratings.get(rs.pk)) for rs in rulesets),
        key=lambda row: (row[1] is None, -(row[1].games if row[1] else 0), row[0].slug),
    )
    versions = list(bot.versions.defer("archive", "smoke_log").order_by("-number"))
    context = {
        "bot": bot,
        "is_owner": is_owner,
        "rows": rows,
        "chart": {
            "series": insights.elo_series(bot),
            "marks": insights.version_marks(versions),
            "start": START_RATING,
        },
        "table_sizes": insights.table_sizes(bot),
        "recent": insights.recent_matches(Participant.objects.filter(bot=bot)),
        "versions": versions,
        "faults": insights.faults(bot) if is_owner else [],
    }
    # The owner's body has forms (their CSRF token): rendered with the request. Everyone else's is
    # rendered without one, so nothing of a visitor's can end up in the cached body.
    html = render_to_string("web/bot_detail_body.html", context, request if is_owner else None)
    return BotBody(bot.name, bot.owner_id, html)


def player_detail(request: HttpRequest, username: str) -> HttpResponse:
    """A player: their bots with their best ratings, and their bots' recent results."""
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    context = {
        "player": player,
        "bots": insights.player_bots(player),
        "recent": insights.recent_matches(
            Participant.objects.filter(bot__owner=player, match__status=MatchStatus.FINISHED), limit=25
        ),
        "is_self": request.user.is_authenticated and request.user.pk == player.pk,
    }
    return render(request, "web/player_detail.html", context)
