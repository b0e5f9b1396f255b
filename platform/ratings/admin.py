"""Admin for ratings (read-only: they change only through matches)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ratings.models import Rating, RatingHistory


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """Ratings."""

    list_display = ["bot", "ruleset", "elo", "games", "wins", "last_played"]
    list_filter = ["ruleset"]
    readonly_fields = ["bot", "ruleset", "elo", "games", "wins", "last_played"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(admin.ModelAdmin):
    """Immutable rating history."""

    list_display = ["rating", "match", "elo_before", "elo_after", "games", "created_at"]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """History is immutable."""
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """History is immutable."""
        return False
