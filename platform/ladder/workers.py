"""How many worker processes can run matches? Asked over Celery's broadcast control channel.

The dispatcher hands out one job per process that consumes the ``matches`` queue (times
``UNO_ARENA_PER_PROCESS``), not a fixed number per worker: a job handed to a worker whose processes are
all busy waits in the broker, out of the planner's reach, and a newcomer's smoke test dispatched after it
would wait behind it although the planner put it first.

A broadcast can miss a busy worker's reply (and the filesystem broker of ``scripts/run`` sometimes reads a
reply half-written), so :func:`match_processes` remembers the last positive answer for a short grace
period: one lost reply does not pause the ladder, while workers that are really gone stop it within
``grace`` seconds (and the capacity limit bounds what is queued meanwhile).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.core.cache import cache

log = logging.getLogger(__name__)
MATCH_QUEUE = "matches"
SEEN = "ladder:match-processes:seen"
POOL = "ladder:pool-size:"
"""Cache key prefix of a worker's pool size, remembered for :data:`POOL_MEMORY` seconds: the stats reply
of a busy worker is often late (the filesystem broker of ``scripts/run`` polls once a second), and a
worker's pool size does not change while it runs."""
POOL_MEMORY = 3600


def pool_size(stats: Any) -> int:
    """The number of processes in one worker's ``inspect().stats()`` reply (1 when it does not say:
    a worker that answered runs at least one)."""
    try:
        size = int(stats["pool"]["max-concurrency"])
    except (KeyError, TypeError, ValueError):
        return 1
    return max(1, size)


def live_match_processes(timeout: float = 1.0) -> int:
    """How many processes of live workers consume the ``matches`` queue (0 when none answer or the
    broker is down).

    Two broadcasts, each waiting ``timeout`` seconds for the replies: ``active_queues`` finds the workers
    of the queue, ``stats`` (sent to those workers only) their pool sizes; a worker whose stats reply is
    missing counts with its pool size remembered from an earlier reply (:data:`POOL`), else as one.
    """
    try:
        replies = current_app.control.inspect(timeout=timeout).active_queues() or {}
    except Exception as exc:  # broker down, or (filesystem broker) a reply read half-written
        log.warning("could not ask the workers which queues they consume: %r", exc)
        return 0
    nodes = [
        node for node, queues in replies.items() if any(q.get("name") == MATCH_QUEUE for q in queues or [])
    ]
    if not nodes:
        return 0
    try:
        stats = current_app.control.inspect(destination=nodes, timeout=timeout).stats() or {}
    except Exception as exc:  # as above: the pool sizes remembered, or one process each
        log.warning("could not ask the workers their pool sizes: %r", exc)
        stats = {}
    sizes = {node: pool_size(stats[node]) for node in nodes if node in stats}
    if sizes:
        cache.set_many({POOL + node: size for node, size in sizes.items()}, timeout=POOL_MEMORY)
    missing = [node for node in nodes if node not in sizes]
    remembered = cache.get_many([POOL + node for node in missing]) if missing else {}
    return sum(sizes.values()) + sum(int(remembered.get(POOL + node) or 1) for node in missing)


def match_processes(grace: float = 60.0) -> int:
    """:func:`live_match_processes`, or the last positive answer if it is less than ``grace`` seconds
    old."""
    count = live_match_processes()
    if count > 0:
        cache.set(SEEN, count, timeout=grace)
        return count
    return int(cache.get(SEEN) or 0)


def known_match_processes() -> int:
    """The last positive answer of :func:`match_processes` still remembered (0 if none): no broadcast,
    for callers that must not wait for the replies (the dispatcher after each match)."""
    return int(cache.get(SEEN) or 0)
