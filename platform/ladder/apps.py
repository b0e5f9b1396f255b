"""App configuration for ``ladder``."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class LadderConfig(AppConfig):
    """Configuration of the ``ladder`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "ladder"

    def ready(self) -> None:
        """Create the beat schedules after ``migrate`` (once; staff edit them in the admin)."""
        from ladder.schedule import install_periodic_tasks

        post_migrate.connect(install_periodic_tasks, sender=self, dispatch_uid="ladder-periodic-tasks")
