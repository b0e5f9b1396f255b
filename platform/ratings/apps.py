"""App configuration for ``ratings``."""

from typing import Any

from django.apps import AppConfig
from django.db import transaction
from django.db.models.signals import post_delete, post_save


def _leaderboards_changed(sender: Any, **kwargs: Any) -> None:
    """A bot (maybe deactivated) or a rule set (maybe renamed) was saved or deleted: every cached
    leaderboard page is stale once the transaction commits."""
    from ratings.cache import bump

    transaction.on_commit(bump)


class RatingsConfig(AppConfig):
    """Configuration of the ``ratings`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        """Keep cached leaderboards in step with bot and rule-set changes (``ratings.cache``)."""
        for model in ("bots.Bot", "rulesets.RuleSet"):
            post_save.connect(_leaderboards_changed, sender=model, dispatch_uid=f"leaderboards-{model}-saved")
            post_delete.connect(
                _leaderboards_changed, sender=model, dispatch_uid=f"leaderboards-{model}-gone"
            )
