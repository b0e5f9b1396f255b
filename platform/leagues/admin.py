"""Admin for leagues (staff also create and schedule them in the site)."""

from django.contrib import admin

from leagues.models import Entrant, League, LeagueMatch, LeagueRound, Standing


class EntrantInline(admin.TabularInline):
    """Entrants of a league."""

    model = Entrant
    extra = 0
    raw_id_fields = ["bot"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    """Leagues."""

    list_display = ["name", "ruleset", "format", "status", "rounds", "created_at"]
    list_filter = ["status", "format", "ruleset"]
    prepopulated_fields = {"slug": ["name"]}
    raw_id_fields = ["periodic_task", "created_by"]
    inlines = [EntrantInline]


@admin.register(LeagueRound)
class LeagueRoundAdmin(admin.ModelAdmin):
    """Rounds."""

    list_display = ["league", "number", "created_at", "finished_at"]
    list_filter = ["league"]


@admin.register(LeagueMatch)
class LeagueMatchAdmin(admin.ModelAdmin):
    """Tables of the rounds."""

    list_display = ["round", "table", "match"]
    raw_id_fields = ["round", "match"]


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    """Stored standings (recomputed from results)."""

    list_display = ["league", "rank", "bot", "points", "buchholz", "wins", "games"]
    list_filter = ["league"]
    raw_id_fields = ["bot"]
