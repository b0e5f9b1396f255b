"""The beat schedules of the ladder, leagues and version tests (django-celery-beat, editable in the admin).

They are created once after ``migrate`` if missing and never overwritten afterwards, so a schedule staff
changed in the admin stays changed (``CELERY_BEAT_SCHEDULE`` entries, by contrast, are re-applied each
time beat starts).
"""

from __future__ import annotations

from typing import Any

from ladder.conf import ladder_settings

#: name -> (task, seconds attribute of LadderSettings, description)
PERIODIC_TASKS = {
    "ladder-matchmaking": (
        "ladder.tasks.matchmake",
        "every",
        "Keep UNO_ARENA_LADDER_QUEUED rated matches queued per rule set (kwargs: rulesets, queued).",
    ),
    "ladder-rating-fit": (
        "ladder.tasks.fit_ratings",
        "fit_every",
        "Batch maximum-likelihood fit of every rule set's rated results (95% intervals on leaderboards).",
    ),
    "leagues-and-tests-sweep": (
        "ladder.tasks.sweep",
        "sweep_every",
        "Safety net: finish league rounds and version-test batches whose last match was missed.",
    ),
}


def install_periodic_tasks(sender: Any = None, using: str = "default", **kwargs: Any) -> int:
    """Create the missing periodic tasks (post_migrate). Returns how many were created."""
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    conf = ladder_settings()
    created = 0
    for name, (task, attribute, description) in PERIODIC_TASKS.items():
        if PeriodicTask.objects.using(using).filter(name=name).exists():
            continue
        seconds = max(1, int(getattr(conf, attribute)))
        interval, _ = IntervalSchedule.objects.using(using).get_or_create(
            every=seconds, period=IntervalSchedule.SECONDS
        )
        PeriodicTask.objects.using(using).create(
            name=name, task=task, interval=interval, description=description, enabled=True
        )
        created += 1
    return created
