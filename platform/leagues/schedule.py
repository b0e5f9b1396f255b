"""A league's beat schedule: one django-celery-beat ``PeriodicTask`` per league, kept in step with it.

The task (``leagues.tasks.league_tick``) starts the next round when the previous one is complete; it
is disabled once the league is finished. :func:`sync_schedule` runs whenever a league is saved, however
(``leagues.apps``). Staff may also edit the task in the admin (until the league is saved again).
"""

from __future__ import annotations

import json

from celery.schedules import crontab
from django.core.exceptions import ValidationError
from django_celery_beat.models import CrontabSchedule, IntervalSchedule, PeriodicTask

from leagues.models import League, LeagueStatus, ScheduleKind

TASK = "leagues.tasks.league_tick"


def parse_cron(expression: str) -> dict[str, str]:
    """``"m h dom mon dow"`` as CrontabSchedule fields; raises ``ValidationError`` when invalid."""
    fields = expression.split()
    if len(fields) != 5:
        raise ValidationError(
            "A cron expression has five fields: minute hour day-of-month month day-of-week."
        )
    spec = dict(zip(("minute", "hour", "day_of_month", "month_of_year", "day_of_week"), fields, strict=True))
    try:
        crontab(**spec)
    except (ValueError, TypeError, KeyError) as exc:
        raise ValidationError(f"Invalid cron expression: {exc}") from exc
    return spec


def task_name(league: League) -> str:
    """The periodic task's unique name."""
    return f"league-{league.pk}"


def sync_schedule(league: League) -> PeriodicTask:
    """Create or update the league's periodic task from its schedule fields and status."""
    interval = cron = None
    if league.schedule_kind == ScheduleKind.CRON:
        cron, _ = CrontabSchedule.objects.get_or_create(**parse_cron(league.cron), timezone="UTC")
    else:
        interval, _ = IntervalSchedule.objects.get_or_create(
            every=max(1, league.interval_minutes), period=IntervalSchedule.MINUTES
        )
    task, _ = PeriodicTask.objects.update_or_create(
        name=task_name(league),
        defaults={
            "task": TASK,
            "kwargs": json.dumps({"league_id": league.pk}),
            "interval": interval,
            "crontab": cron,
            "solar": None,
            "clocked": None,
            "start_time": league.starts_at,
            "enabled": league.status != LeagueStatus.FINISHED,
            "description": f"Rounds of the league {league.name} ({league.slug}).",
        },
    )
    if league.periodic_task_id != task.pk:
        League.objects.filter(pk=league.pk).update(periodic_task=task)
        league.periodic_task = task
    return task
