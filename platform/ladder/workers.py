"""Are there workers to run matches? Asked over Celery's broadcast control channel.

A broadcast can miss a busy worker's reply (and the filesystem broker of ``scripts/run`` sometimes reads a
reply half-written), so :func:`match_workers` remembers the last positive answer for a short grace
period: one lost reply does not pause the ladder, while workers that are really gone stop it within
``grace`` seconds (and the capacity limit bounds what is queued meanwhile).
"""

from __future__ import annotations

import logging

from celery import current_app
from django.core.cache import cache

log = logging.getLogger(__name__)
MATCH_QUEUE = "matches"
SEEN = "ladder:match-workers:seen"


def live_match_workers(timeout: float = 1.0) -> int:
    """How many live workers consume the ``matches`` queue (0 when none answer or the broker is down).

    One broadcast (``inspect().active_queues()``), waiting ``timeout`` seconds for the replies.
    """
    try:
        replies = current_app.control.inspect(timeout=timeout).active_queues() or {}
    except Exception as exc:  # broker down, or (filesystem broker) a reply read half-written
        log.warning("could not ask the workers which queues they consume: %r", exc)
        return 0
    return sum(1 for queues in replies.values() if any(q.get("name") == MATCH_QUEUE for q in queues or []))


def match_workers(grace: float = 60.0) -> int:
    """:func:`live_match_workers`, or the last positive answer if it is less than ``grace`` seconds old."""
    count = live_match_workers()
    if count > 0:
        cache.set(SEEN, count, timeout=grace)
        return count
    return int(cache.get(SEEN) or 0)


def known_match_workers() -> int:
    """The last positive answer of :func:`match_workers` still remembered (0 if none): no broadcast, for
    callers that must not wait a second for the replies (the dispatcher after each match)."""
    return int(cache.get(SEEN) or 0)
