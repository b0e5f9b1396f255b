"""Cached leaderboard pages.

A rendered leaderboard page (``web.views.leaderboard``) is kept in the cache for
``UNO_ARENA_LEADERBOARD_CACHE`` seconds under a key that carries two *generations*: one per rule set,
bumped when a rated match on it is stored (``ratings.services.apply_match``, after the commit), and one
for all leaderboards, bumped when a bot or a rule set is saved or deleted (a bot may have been
deactivated, a rule set renamed). A new generation makes the old pages unreachable, so new ratings show
at once; the time limit bounds how old the "last played" times may look. A hit costs two cache reads and
no database query. The API's leaderboard (``api.views.LeaderboardView``) is cached the same way, one
entry per page and page size.
"""

from __future__ import annotations

import hashlib
import time

from django.conf import settings
from django.core.cache import cache

ALL_GENERATIONS = "leaderboard:gen:*"
"""The generation of every leaderboard (and of every cached bot page, ``web.page_cache``)."""


def _generation_key(slug: str) -> str:
    return f"leaderboard:gen:{slug}"


def page_key(slug: str, page: int) -> str:
    """The cache key of page ``page`` of rule set ``slug``'s leaderboard, in the current generations."""
    gens = cache.get_many([ALL_GENERATIONS, _generation_key(slug)])
    return f"leaderboard:{slug}:{gens.get(ALL_GENERATIONS, 0)}.{gens.get(_generation_key(slug), 0)}:{page}"


def api_key(slug: str, page: str, variant: str) -> str:
    """The cache key of one page of the API's leaderboard of ``slug`` (``page`` as the query gave it,
    ``variant`` whatever else shapes the response), in the same generations as the site's pages: a new result shows at once here too."""
    query = hashlib.sha256(f"{page}\n{variant}".encode()).hexdigest()[:32]  # raw query text: any bytes
    return f"{page_key(slug, 0)}:api:{query}"


def bump(slug: str | None = None) -> None:
    """Start a new generation for rule set ``slug``'s leaderboard, or (``None``) for all of them."""
    cache.set(ALL_GENERATIONS if slug is None else _generation_key(slug), time.time_ns(), None)


def timeout() -> int:
    """Seconds a rendered page may be served (0 turns the cache off)."""
    return int(getattr(settings, "UNO_ARENA_LEADERBOARD_CACHE", 30))
