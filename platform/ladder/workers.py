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
SMOKE_QUEUE = "smoke"
"""The express lane: workers that consume it run smoke tests only, so a newcomer's upload is tested at once
even while every match process plays a long series (``scheduling.dispatcher``)."""
SEEN = "ladder:match-processes:seen"
SEEN_SMOKE = "ladder:smoke-processes:seen"
SMOKE_MEMORY = 120.0
"""Seconds the smoke lane's process count is remembered after the last broadcast that saw it: a smoke
worker that is gone stops taking smoke tests within this (they go back to the match processes)."""
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
    broker is down). From the same replies, it remembers for :data:`SMOKE_MEMORY` seconds how many
    consume the smoke lane (:data:`SMOKE_QUEUE`; :func:`known_smoke_processes`).

    Two broadcasts, each waiting ``timeout`` seconds for the replies: ``active_queues`` finds the workers
    of the queues, ``stats`` (sent to those workers only) their pool sizes; a worker whose stats reply is
    missing counts with its pool size remembered from an earlier reply (:data:`POOL`), else as one.
    """
    try:
        replies = current_app.control.inspect(timeout=timeout).active_queues() or {}
    except Exception as exc:  # broker down, or (filesystem broker) a reply read half-written
        log.warning("could not ask the workers which queues they consume: %r", exc)
        return 0
    names = {node: {q.get("name") for q in queues or []} for node, queues in replies.items()}
    matches = [node for node, queues in names.items() if MATCH_QUEUE in queues]
    lane = [node for node, queues in names.items() if SMOKE_QUEUE in queues and MATCH_QUEUE not in queues]
    counts = _processes(sorted(matches + lane), timeout)
    smoke = sum(counts[node] for node in lane)  # a worker of both queues is a match worker
    if smoke:
        cache.set(SEEN_SMOKE, smoke, timeout=SMOKE_MEMORY)
    return sum(counts[node] for node in matches)


def _processes(nodes: list[str], timeout: float) -> dict[str, int]:
    """Each of these workers' pool size: from a ``stats`` broadcast to them, else as last seen, else 1."""
    if not nodes:
        return {}
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
    return sizes | {node: int(remembered.get(POOL + node) or 1) for node in missing}


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


def known_smoke_processes() -> int:
    """How many processes consume the smoke lane, as the last broadcast that saw one said (0 if none was
    seen in the last :data:`SMOKE_MEMORY` seconds): no broadcast."""
    return int(cache.get(SEEN_SMOKE) or 0)
