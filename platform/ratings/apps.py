"""App configuration for ``ratings``."""

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """Configuration of the ``ratings`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
