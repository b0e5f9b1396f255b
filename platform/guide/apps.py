"""App configuration for ``guide``: the bot author's guide, the docs and the starter kits."""

from django.apps import AppConfig


class GuideConfig(AppConfig):
    """Configuration of the ``guide`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "guide"
