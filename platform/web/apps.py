"""App configuration for ``web``."""

from django.apps import AppConfig


class WebConfig(AppConfig):
    """Configuration of the ``web`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "web"
