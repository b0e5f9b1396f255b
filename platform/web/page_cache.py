"""Cached bot pages (whole for visitors without a session, their body for every visitor but the bot's
owner), rendered when they change rather than when read.

A bot's page (``web.pages.bot_detail``) is the same for every anonymous visitor, so it is rendered once
and kept for ``UNO_ARENA_BOT_PAGE_CACHE`` seconds (a day; 0 turns the cache off) under a key that carries
the bot's *generation*, bumped (at once and again after the commit) whenever something the page shows
changes: a match of the bot is created, claimed, finished or failed (``Match`` saves), the bot or one of
its versions is saved or deleted. The global leaderboard generation (``ratings.cache``) is part of the key
too, so a rule-set change or a batch fit shows at once as well. The page holds no relative time ("3
minutes ago" is written by ``static/web/ago.js`` from a ``<time>``), so a page stays true while its
generation lasts.

A finished or failed match, and a saved bot or version, also *schedules* the new page:
:func:`schedule_render` queues :func:`web.tasks.render_bot_pages` (queue ``site``) at most once per
:data:`RENDER_DELAY` seconds per bot, and that task renders the page if no visitor has yet. So a visitor
waits for a cold page only while a match of the bot is queued or running, within :data:`RENDER_DELAY` of a
change (the page of a bot playing the ladder often is that fresh), or after the cache was emptied
(``manage.py render_bot_pages`` then renders every missing page, as a deploy does). Logged-in visitors
get the same page's body (:func:`cached_body`, kept under the same generations) inside their own chrome;
the bot's owner (and staff) always get a fresh page: it has their controls and faults, and is never
cached.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest

from ratings import cache as leaderboard_cache

if TYPE_CHECKING:
    from web.pages import BotBody

log = logging.getLogger(__name__)

#: Seconds between a change and the rendering it schedules; changes of a bot within them share one render.
#: A ladder bot plays several matches a minute, and a render costs a worker ~20 ms: at most two renders a
#: minute per bot keeps that under 1 % of a worker core, whatever the ladder's pace.
RENDER_DELAY = 30.0


@functools.cache
def release() -> str:
    """A digest of what a page is made of besides the data (the site's templates, static files and page
    code): pages rendered by another release of the site (a web server or worker not yet updated) are
    never served by this one, and an update never serves a day-old page of the old templates."""
    digest = hashlib.blake2b(digest_size=6)
    root = Path(settings.BASE_DIR)
    files = [*root.glob("*/templates/**/*"), *root.glob("templates/**/*"), *root.glob("static/**/*")]
    files += root.glob("web/**/*.py")
    for path in sorted(f for f in files if f.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _generation_key(bot_id: int) -> str:
    return f"botpage:gen:{bot_id}"


def bot_key(bot_id: int) -> str:
    """The cache key of bot ``bot_id``'s anonymous page, in the current generations."""
    gens = cache.get_many([leaderboard_cache.ALL_GENERATIONS, _generation_key(bot_id)])
    everyone, mine = gens.get(leaderboard_cache.ALL_GENERATIONS, 0), gens.get(_generation_key(bot_id), 0)
    return f"botpage:{release()}:{bot_id}:{everyone}.{mine}"


def timeout() -> int:
    """Seconds a rendered bot page is kept (``UNO_ARENA_BOT_PAGE_CACHE``; 0: not cached)."""
    return int(getattr(settings, "UNO_ARENA_BOT_PAGE_CACHE", 86400))


def visitor_request(bot_id: int) -> HttpRequest:
    """A request for bot ``bot_id``'s page as a visitor without a session sends it (what the page of such
    a visitor depends on: the path and no user), for rendering the page outside a request."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = f"/bots/{bot_id}/"
    request.META = {"SERVER_NAME": settings.ALLOWED_HOSTS[0] if settings.ALLOWED_HOSTS else "localhost"}
    request.user = AnonymousUser()
    return request


def cached_body(bot_id: int, key: str | None = None) -> BotBody:
    """Bot ``bot_id``'s page body as everyone but its owner sees it, from the cache or rendered now and
    kept (under ``key``, read before the data, or :func:`bot_key` now). Raises ``Http404`` for a bot that
    does not exist."""
    from web.pages import BotBody, render_bot_body

    key = f"{key or bot_key(bot_id)}:body"
    cached = cache.get(key)
    if cached is not None:
        return BotBody(*cached)
    body = render_bot_body(None, bot_id)
    cache.set(key, tuple(body), timeout())
    return body


def cached_page(bot_id: int, request: HttpRequest) -> tuple[bytes, bool]:
    """Bot ``bot_id``'s visitors' page from the cache, or made for ``request`` (a visitor's, without a
    session: the chrome around :func:`cached_body`) and kept; and whether it was made now. The key is read
    before the data, so a change during the rendering leaves the page under an old generation, where no
    one reads it. Raises ``Http404`` for a bot that does not exist."""
    from web.pages import render_bot_page

    key = bot_key(bot_id)
    html = cache.get(key)
    if html is not None:
        return html, False
    html = render_bot_page(request, cached_body(bot_id, key)).content
    cache.set(key, html, timeout())
    return html, True


def render(bot_id: int) -> bool:
    """Render bot ``bot_id``'s visitors' page into the cache unless it is there already (or the bot is
    gone, or the cache is off); returns whether it rendered."""
    from django.http import Http404

    if timeout() <= 0:
        return False
    try:
        return cached_page(bot_id, visitor_request(bot_id))[1]
    except Http404:
        return False


def _queued_key(bot_id: int) -> str:
    return f"botpage:queued:{bot_id}"


def schedule_render(bot_ids: Iterable[int]) -> list[int]:
    """Queue the rendering of these bots' pages in :data:`RENDER_DELAY` seconds, except for those already
    queued; returns the bots queued now. A broker that cannot take the task costs only the early render
    (the next visitor renders the page), never the change that asked for it."""
    if timeout() <= 0:
        return []
    fresh = [
        int(pk) for pk in dict.fromkeys(bot_ids) if cache.add(_queued_key(int(pk)), 1, RENDER_DELAY + 60)
    ]
    if fresh:
        from web.tasks import render_bot_pages

        try:
            render_bot_pages.apply_async((fresh,), countdown=RENDER_DELAY)
        except Exception:  # the broker is down: the pages will be rendered when read
            log.exception("could not queue the rendering of bot pages %s", fresh)
            cache.delete_many([_queued_key(pk) for pk in fresh])
            return []
    return fresh


def render_queued(bot_ids: Iterable[int]) -> int:
    """The task's work: clear the bots' queued marks (a change from now on queues a new render), then
    render the pages not yet rendered. Returns how many it rendered."""
    ids = [int(pk) for pk in bot_ids]
    cache.delete_many([_queued_key(pk) for pk in ids])
    rendered = 0
    for pk in ids:
        try:
            rendered += render(pk)
        except Exception:  # e.g. a worker without the collected static files: visitors render the page
            log.exception("could not render bot %s's page", pk)
    return rendered


def bump_bots(bot_ids: Iterable[int]) -> None:
    """Start a new generation for each of these bots' pages."""
    stamp = time.time_ns()
    cache.set_many({_generation_key(int(pk)): stamp for pk in set(bot_ids)}, None)


def match_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A match changed (created, claimed, finished, failed): its bots' pages are stale; once it has ended,
    their new pages are scheduled."""
    from matches.models import MatchStatus, Participant

    match_id = instance.pk
    ended = instance.status in (MatchStatus.FINISHED, MatchStatus.FAILED)

    def bots() -> list[int]:
        return list(Participant.objects.filter(match_id=match_id).values_list("bot_id", flat=True))

    bump_bots(bots())
    transaction.on_commit(lambda: _bump_and_schedule(bots(), ended))


def bot_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A bot or one of its versions was saved or deleted: its page is stale, and its new one scheduled."""
    bot_id = getattr(instance, "bot_id", None) or instance.pk
    bump_bots([bot_id])
    transaction.on_commit(lambda: _bump_and_schedule([bot_id], True))


def _bump_and_schedule(bot_ids: list[int], schedule: bool) -> None:
    # The bump before the commit makes this connection's next reads (in the transaction) see the change;
    # this one, after it, drops a page another request rendered from the old data in between.
    bump_bots(bot_ids)
    if schedule:
        schedule_render(bot_ids)
