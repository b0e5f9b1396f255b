"""Admin of the viewer's cached data (staff may delete rows: they are rebuilt or simply gone)."""

from django.contrib import admin

from viewer.models import DecisionLog, ReplayView


@admin.register(ReplayView)
class ReplayViewAdmin(admin.ModelAdmin):
    """Cached viewer data per match and game (read-only; delete to rebuild on the next view)."""

    list_display = ("match", "game", "version", "size", "created_at")
    list_select_related = ("match",)
    readonly_fields = ("match", "game", "version", "size", "created_at")
    exclude = ("data",)
    search_fields = ("match__id",)


@admin.register(DecisionLog)
class DecisionLogAdmin(admin.ModelAdmin):
    """Per-decision stderr of a seat (private to the bot's owner; staff only here)."""

    list_display = ("participant", "entries")
    list_select_related = ("participant__match",)
    readonly_fields = ("participant", "entries")
    exclude = ("data",)
