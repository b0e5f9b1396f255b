"""App configuration for ``leagues``: listens for league matches ending."""

from typing import Any

from django.apps import AppConfig
from django.db import transaction
from django.db.models.signals import post_save

FINAL = {"finished", "failed"}


def _match_saved(sender: Any, instance: Any, created: bool = False, **kwargs: Any) -> None:
    """A match reached a final status: after the commit, let its league (if any) catch up."""
    if created or instance.status not in FINAL:
        return
    from leagues.rounds import on_match_final

    match_id = instance.pk
    transaction.on_commit(lambda: on_match_final(match_id), robust=True)


class LeaguesConfig(AppConfig):
    """Configuration of the ``leagues`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"

    def ready(self) -> None:
        """Connect the match signal."""
        post_save.connect(_match_saved, sender="matches.Match", dispatch_uid="leagues-match-final")
