"""Admin for bots and versions (archives are never shown inline)."""

from django.contrib import admin

from bots.models import Bot, BotVersion


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    """Bots."""

    list_display = ["name", "owner", "language", "is_active", "active_version"]
    list_filter = ["is_active", "language"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner", "active_version"]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    """Versions and their smoke-test results."""

    list_display = ["bot", "number", "entry_point", "smoke_status", "created_at"]
    list_filter = ["smoke_status"]
    readonly_fields = ["sha256", "size", "file_count", "smoke_log"]
    exclude = ["archive"]
    raw_id_fields = ["bot"]
