"""App configuration for ``web``."""

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class WebConfig(AppConfig):
    """Configuration of the ``web`` app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "web"

    def ready(self) -> None:
        """Keep cached bot pages in step with their matches, bots and versions (``web.page_cache``)."""
        from web import page_cache

        post_save.connect(page_cache.match_saved, sender="matches.Match", dispatch_uid="botpage-match-saved")
        for model in ("bots.Bot", "bots.BotVersion"):
            post_save.connect(page_cache.bot_saved, sender=model, dispatch_uid=f"botpage-{model}-saved")
            post_delete.connect(page_cache.bot_saved, sender=model, dispatch_uid=f"botpage-{model}-gone")
