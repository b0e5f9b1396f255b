"""Admin: staff adjust one user's quotas; the dispatcher's state is shown read-only."""

from django.contrib import admin

from scheduling.models import DispatchLock, FairShare, Quota


@admin.register(Quota)
class QuotaAdmin(admin.ModelAdmin):
    """Per-user quota overrides (an empty field keeps the site-wide default)."""

    list_display = ["user", "challenges", "version_tests", "test_batch", "smoke_tests", "bots", "note"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(DispatchLock)
class DispatchLockAdmin(admin.ModelAdmin):
    """The last dispatch."""

    list_display = ["id", "dispatched_at", "dispatched"]
    readonly_fields = ["dispatched_at", "dispatched"]


@admin.register(FairShare)
class FairShareAdmin(admin.ModelAdmin):
    """Fair-share passes (the planner's memory)."""

    list_display = ["key", "value"]
    search_fields = ["key"]
