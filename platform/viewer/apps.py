"""App configuration of the replay viewer."""

from django.apps import AppConfig


class ViewerConfig(AppConfig):
    """Viewer data (``arena.engine.replay_view``) cached per match, and the bots' per-decision stderr."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "viewer"
    verbose_name = "Replay viewer"
