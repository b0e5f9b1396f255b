"""Are there workers to run matches? Asked over Celery's broadcast control channel."""

from __future__ import annotations

import logging

from celery import current_app

log = logging.getLogger(__name__)
MATCH_QUEUE = "matches"


def live_match_workers(timeout: float = 1.0) -> int:
    """How many live workers consume the ``matches`` queue (0 when none answer or the broker is down).

    One broadcast (``inspect().active_queues()``), waiting ``timeout`` seconds for the replies.
    """
    try:
        replies = current_app.control.inspect(timeout=timeout).active_queues() or {}
    except Exception:
        log.warning("could not ask the workers which queues they consume", exc_info=True)
        return 0
    return sum(1 for queues in replies.values() if any(q.get("name") == MATCH_QUEUE for q in queues or []))
