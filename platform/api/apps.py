"""App configuration for ``api``."""

from django.apps import AppConfig


class ApiConfig(AppConfig):
    """Configuration of the ``api`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "api"
