"""Admin for rule sets: presets are read-only, custom ones are validated by the engine."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from rulesets.forms import RuleSetForm
from rulesets.models import RuleSet


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    """Staff add custom rule sets; presets come from the engine (``sync_rulesets``)."""

    form = RuleSetForm
    list_display = ["slug", "name", "is_preset", "is_active", "min_players", "max_players"]
    list_filter = ["is_preset", "is_active"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Presets are owned by the engine; only custom rule sets are edited here."""
        if obj is not None and obj.is_preset:
            return False
        return super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Remember who made a custom rule set."""
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)
