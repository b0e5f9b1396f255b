"""Admin for version tests."""

from django.contrib import admin

from versiontests.models import TestMatch, VersionTest


@admin.register(VersionTest)
class VersionTestAdmin(admin.ModelAdmin):
    """Version tests."""

    list_display = ["id", "bot", "new_version", "baseline_version", "ruleset", "status", "llr", "created_at"]
    list_filter = ["status", "ruleset"]
    raw_id_fields = ["bot", "new_version", "baseline_version", "created_by"]


@admin.register(TestMatch)
class TestMatchAdmin(admin.ModelAdmin):
    """Pairs of the tests."""

    list_display = ["test", "batch", "index", "match", "counted"]
    raw_id_fields = ["test", "match"]
