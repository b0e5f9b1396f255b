"""App configuration for ``bots``."""

from django.apps import AppConfig


class BotsConfig(AppConfig):
    """Configuration of the ``bots`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "bots"
