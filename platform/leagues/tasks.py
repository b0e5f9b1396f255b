"""Beat's entry point for leagues: one periodic task per league (``leagues.schedule``)."""

from __future__ import annotations

import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task(name="leagues.tasks.league_tick")
def league_tick(league_id: int) -> str:
    """Start the league's next round if the previous one is complete (idempotent; see ``rounds.advance``)."""
    from leagues.models import League
    from leagues.rounds import advance

    if not League.objects.filter(pk=league_id).exists():
        return "gone"
    outcome = advance(league_id)
    log.info("league %s: %s", league_id, outcome)
    return outcome
