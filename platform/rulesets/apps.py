"""App configuration for ``rulesets``."""

from django.apps import AppConfig


class RulesetsConfig(AppConfig):
    """Configuration of the ``rulesets`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "rulesets"
