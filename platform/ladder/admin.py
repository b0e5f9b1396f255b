"""Admin for the ladder's bookkeeping (read-only: tasks write it)."""

from django.contrib import admin

from ladder.models import FittedRating, LadderMatch, RatingFit


@admin.register(RatingFit)
class RatingFitAdmin(admin.ModelAdmin):
    """The latest batch fit per rule set."""

    list_display = ["ruleset", "computed_at", "matches", "bots", "method", "seconds"]
    readonly_fields = ["ruleset", "computed_at", "matches", "bots", "method", "iterations", "seconds"]


@admin.register(FittedRating)
class FittedRatingAdmin(admin.ModelAdmin):
    """Fitted Elo with 95% intervals."""

    list_display = ["rating", "elo", "low", "high", "games", "computed_at"]
    list_filter = ["rating__ruleset"]
    raw_id_fields = ["rating"]


@admin.register(LadderMatch)
class LadderMatchAdmin(admin.ModelAdmin):
    """Matches queued by the matchmaker."""

    list_display = ["match", "explore", "created_at"]
    raw_id_fields = ["match"]
