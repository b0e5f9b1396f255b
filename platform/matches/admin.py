"""Admin for matches and their seats."""

from django.contrib import admin

from matches.models import Match, Participant


class ParticipantInline(admin.TabularInline):
    """Seats of a match."""

    model = Participant
    extra = 0
    raw_id_fields = ["bot", "bot_version"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Matches."""

    list_display = ["id", "ruleset", "status", "rated", "attempts", "created_at", "finished_at"]
    list_filter = ["status", "rated", "ruleset"]
    readonly_fields = ["error"]
    inlines = [ParticipantInline]
