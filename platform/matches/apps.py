"""App configuration for ``matches``."""

from django.apps import AppConfig


class MatchesConfig(AppConfig):
    """Configuration of the ``matches`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
