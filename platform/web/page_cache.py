"""Cached bot pages for visitors without a session.

A bot's page (``web.pages.bot_detail``) is the same for every anonymous visitor, so it is rendered once
and kept for ``UNO_ARENA_LEADERBOARD_CACHE`` seconds under a key that carries the bot's *generation*, bumped
(at once and again after the commit) whenever something the page shows changes: a match of the bot is created, claimed,
finished or failed (``Match`` saves), the bot or one of its versions is saved or deleted. The global
leaderboard generation (``ratings.cache``) is part of the key too, so a rule-set change or a batch fit
shows at once as well; the time limit bounds how old the relative times ("3 minutes ago") may look.
Owners and other logged-in users always get a fresh page (it has their controls and faults).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache import cache
from django.db import transaction

from ratings import cache as leaderboard_cache


def _generation_key(bot_id: int) -> str:
    return f"botpage:gen:{bot_id}"


def bot_key(bot_id: int) -> str:
    """The cache key of bot ``bot_id``'s anonymous page, in the current generations."""
    gens = cache.get_many([leaderboard_cache.ALL_GENERATIONS, _generation_key(bot_id)])
    return f"botpage:{bot_id}:{gens.get(leaderboard_cache.ALL_GENERATIONS, 0)}.{gens.get(_generation_key(bot_id), 0)}"


def bump_bots(bot_ids: Iterable[int]) -> None:
    """Start a new generation for each of these bots' pages."""
    stamp = time.time_ns()
    cache.set_many({_generation_key(int(pk)): stamp for pk in set(bot_ids)}, None)


def _now_and_after_commit(bump: Callable[[], None]) -> None:
    """Bump at once (this connection's next reads, in the transaction, see the change) and again after the
    commit (a page that another request rendered from the old data in between is dropped)."""
    bump()
    transaction.on_commit(bump)


def match_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A match changed (created, claimed, finished, failed): its bots' pages are stale."""
    from matches.models import Participant

    match_id = instance.pk
    _now_and_after_commit(
        lambda: bump_bots(Participant.objects.filter(match_id=match_id).values_list("bot_id", flat=True))
    )


def bot_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A bot or one of its versions was saved or deleted: its page is stale."""
    bot_id = getattr(instance, "bot_id", None) or instance.pk
    _now_and_after_commit(lambda: bump_bots([bot_id]))
