"""Celery tasks: run a match, and the periodic reaper of matches whose worker died."""

from __future__ import annotations

import logging
import traceback
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from matches import services
from matches.models import Match
from matches.play import play

log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="matches.tasks.run_match_task",
    acks_late=True,
    soft_time_limit=settings.UNO_ARENA_MATCH_TIME_LIMIT - 30,
    time_limit=settings.UNO_ARENA_MATCH_TIME_LIMIT,
)
def run_match_task(self: Any, match_id: int) -> str:
    """Run a queued match through the referee and store everything in one transaction.

    Idempotent: ``services.claim`` lets only a queued match through, and ``services.record_result``
    writes only while this attempt is current, so a redelivered message never counts a match twice.
    A played match is always recorded (``services.store_result``: finished, or failed with the error;
    never left running by a result that cannot be stored). A worker killed by the hard time limit (or
    a crash) leaves the match running: the reaper re-queues it or marks it failed.
    """
    hostname = getattr(self.request, "hostname", None) or ""
    task_id = getattr(self.request, "id", None) or ""
    match = services.claim(match_id, worker=hostname, task_id=task_id)
    if match is None:
        return "skipped"
    attempt = match.attempts
    try:
        versions = [
            p.bot_version for p in match.participants.select_related("bot_version__bot").order_by("seat")
        ]
        result = play(match.ruleset.to_engine(), versions, match.seed, duplicate=match.duplicate)
    except SoftTimeLimitExceeded:
        services.fail(match_id, attempt, "the match went over its time limit", retry=False)
        return "failed"
    except Exception:
        log.exception("match %s failed", match_id)
        services.fail(match_id, attempt, traceback.format_exc(), retry=True)
        return "error"
    return services.store_result(match_id, attempt, result)


@shared_task(name="matches.tasks.reap_stale_matches")
def reap_stale_matches() -> dict[str, int]:
    """Periodic (beat): re-queue or fail matches stuck in running; re-send forgotten queued ones;
    re-queue smoke tests left pending or running."""
    from bots.tasks import reap_smoke_tests

    counts = services.reap_stale()
    counts["smoke_tests"] = reap_smoke_tests()
    if any(counts.values()):
        log.info("reaper: %s", counts)
    return counts


def run_now(match_id: int) -> Match:
    """Run a match synchronously in this process (tests, management commands)."""
    run_match_task.apply(args=[match_id])
    return Match.objects.get(pk=match_id)
