"""Periodic tasks (django-celery-beat): matchmaking, batch rating fits, the leagues/tests sweep."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.core.cache import cache

from ladder.conf import ladder_settings
from ladder.workers import match_processes

log = logging.getLogger(__name__)
LOCK = "ladder:matchmake:lock"


@shared_task(name="ladder.tasks.matchmake")
def matchmake(rulesets: list[str] | None = None, queued: int | None = None) -> dict[str, Any]:
    """Keep ``queued`` rated matches waiting per rule set (all active ones unless ``rulesets``).

    Throughput control: nothing is planned when no worker consumes the ``matches`` queue (no answer to
    the broadcast for two periods: ``ladder.workers.match_processes``), and never
    more than ``min(UNO_ARENA_LADDER_CAPACITY, live processes x UNO_ARENA_LADDER_PER_PROCESS)`` ladder
    matches are queued or running (the scheduler shares the workers between origins). A cache lock keeps two runs from planning at the same time.
    """
    from ladder.matchmaker import plan_round

    conf = ladder_settings()
    if not conf.enabled:
        return {"disabled": True}
    processes = match_processes(grace=2 * conf.every)
    if processes == 0:
        log.warning("ladder: no worker consumes the matches queue; nothing planned")
        return {"processes": 0}
    if not cache.add(LOCK, 1, timeout=300):
        return {"locked": True}
    try:
        capacity = min(conf.capacity, processes * conf.per_process)
        return {"processes": processes, **plan_round(capacity, rulesets=rulesets, queued=queued)}
    finally:
        cache.delete(LOCK)


@shared_task(name="ladder.tasks.fit_ratings")
def fit_ratings(rulesets: list[str] | None = None) -> dict[str, int]:
    """Refit every active rule set with rated results (or only ``rulesets``); bots fitted per slug."""
    from ladder.fits import refit
    from rulesets.models import RuleSet

    qs = RuleSet.objects.filter(is_active=True, matches__rated=True).distinct()
    if rulesets:
        qs = qs.filter(slug__in=rulesets)
    return {ruleset.slug: refit(ruleset).bots for ruleset in qs}


@shared_task(name="ladder.tasks.sweep")
def sweep() -> dict[str, int]:
    """Finish league rounds and version-test batches whose final match notification was missed."""
    from leagues.services import sweep_leagues
    from versiontests.services import sweep_tests

    return {"leagues": sweep_leagues(), "tests": sweep_tests()}
