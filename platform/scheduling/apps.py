"""App configuration for ``scheduling``: a job that ends makes room for the next one at once."""

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_save

FINAL = {"finished", "failed"}


def _match_saved(sender: Any, instance: Any, created: bool = False, **kwargs: Any) -> None:
    """A match reached a final status: dispatch the next job after the commit."""
    if created or instance.status not in FINAL:
        return
    from scheduling.dispatcher import dispatch_after_commit

    dispatch_after_commit()


class SchedulingConfig(AppConfig):
    """Configuration of the ``scheduling`` app (the fair-share dispatcher and the quotas)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "scheduling"

    def ready(self) -> None:
        """Connect the match signal."""
        post_save.connect(_match_saved, sender="matches.Match", dispatch_uid="scheduling-match-final")
