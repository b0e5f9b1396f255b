"""App configuration for ``leagues``: listens for league matches ending."""

import logging
from typing import Any

from django.apps import AppConfig
from django.db import transaction
from django.db.models.signals import post_delete, post_save

FINAL = {"finished", "failed"}
log = logging.getLogger(__name__)


def _match_saved(sender: Any, instance: Any, created: bool = False, **kwargs: Any) -> None:
    """A match reached a final status: after the commit, let its league (if any) catch up."""
    if created or instance.status not in FINAL:
        return
    from leagues.rounds import on_match_final

    match_id = instance.pk
    transaction.on_commit(lambda: on_match_final(match_id), robust=True)


def _league_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """However a league is saved (the site's form, the admin, the API, the shell, fixtures), its beat
    schedule follows it; a league whose schedule cannot be made says so on its page."""
    from django.core.exceptions import ValidationError

    from leagues.schedule import sync_schedule

    try:
        sync_schedule(instance)
    except ValidationError:
        log.exception("league %s: its schedule could not be made", instance.pk)


def _league_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A deleted league takes its beat schedule with it."""
    from django_celery_beat.models import PeriodicTask

    from leagues.schedule import task_name

    PeriodicTask.objects.filter(name=task_name(instance)).delete()


class LeaguesConfig(AppConfig):
    """Configuration of the ``leagues`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"

    def ready(self) -> None:
        """Connect the match and league signals."""
        post_save.connect(_match_saved, sender="matches.Match", dispatch_uid="leagues-match-final")
        post_save.connect(_league_saved, sender="leagues.League", dispatch_uid="leagues-saved")
        post_delete.connect(_league_deleted, sender="leagues.League", dispatch_uid="leagues-deleted")
