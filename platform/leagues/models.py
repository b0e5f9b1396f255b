"""Leagues, their entrants, rounds, matches and stored standings."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse


def random_seed() -> int:
    """A league's seed: round-robin draws are reproducible from it."""
    return secrets.randbelow(2**31)


class LeagueFormat(models.TextChoices):
    """How a round's tables are drawn (``arena.tournaments.league_formats``)."""

    ROUND_ROBIN = "round-robin", "Round robin"
    SWISS = "swiss", "Swiss"
    SEASON = "season", "Season (a scheduled run of the ladder)"


class Entry(models.TextChoices):
    """Who plays."""

    OPT_IN = "opt-in", "Bots their owners enter"
    ALL = "all", "Every active bot (when the first round starts)"


class LeagueStatus(models.TextChoices):
    """Where a league is."""

    UPCOMING = "upcoming", "Upcoming"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class ScheduleKind(models.TextChoices):
    """How rounds are triggered by beat."""

    INTERVAL = "interval", "Every N minutes"
    CRON = "cron", "Cron expression (UTC)"


class League(models.Model):
    """A competition on one rule set; beat triggers its rounds on a schedule (``leagues.schedule``)."""

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=60, unique=True)
    description = models.TextField(blank=True, max_length=4000)
    ruleset = models.ForeignKey("rulesets.RuleSet", on_delete=models.PROTECT, related_name="leagues")
    format = models.CharField(max_length=20, choices=LeagueFormat.choices, default=LeagueFormat.ROUND_ROBIN)
    entry = models.CharField(max_length=10, choices=Entry.choices, default=Entry.OPT_IN)
    rounds = models.PositiveSmallIntegerField(
        default=5, validators=[MinValueValidator(1), MaxValueValidator(500)], help_text="Number of rounds."
    )
    table_size = models.PositiveSmallIntegerField(
        default=4,
        validators=[MinValueValidator(2), MaxValueValidator(10)],
        help_text="Preferred players per table (kept within the rule set's player range).",
    )
    duplicate = models.BooleanField(
        default=True, help_text="Duplicate deals: every seat plays the same cards."
    )
    rated = models.BooleanField(default=True, help_text="League matches count on the ladder.")
    status = models.CharField(max_length=10, choices=LeagueStatus.choices, default=LeagueStatus.UPCOMING)
    schedule_kind = models.CharField(
        max_length=10, choices=ScheduleKind.choices, default=ScheduleKind.INTERVAL
    )
    interval_minutes = models.PositiveIntegerField(
        default=60, validators=[MinValueValidator(1)], help_text="Minutes between two round triggers."
    )
    cron = models.CharField(
        max_length=100,
        blank=True,
        help_text="minute hour day-of-month month day-of-week, in UTC, e.g. '0 18 * * *' (daily at 18:00).",
    )
    starts_at = models.DateTimeField(null=True, blank=True, help_text="No round before this time (UTC).")
    periodic_task = models.OneToOneField(
        "django_celery_beat.PeriodicTask", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seed = models.BigIntegerField(default=random_seed)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    standings_updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "-created_at"], name="league_status_created")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        """The league page."""
        return reverse("league-detail", args=[self.slug])

    def clean(self) -> None:
        """A cron schedule needs a valid expression (the admin and the site's form both check it)."""
        from leagues.schedule import parse_cron

        if self.schedule_kind == ScheduleKind.CRON:
            try:
                parse_cron(self.cron)
            except ValidationError as exc:
                raise ValidationError({"cron": exc.messages}) from exc

    @property
    def schedule_problem(self) -> str | None:
        """Why beat will not start this league's rounds by itself, or ``None`` when it will (load with
        ``select_related("periodic_task")``)."""
        if self.status == LeagueStatus.FINISHED:
            return None
        task = self.periodic_task
        if task is None:
            return "This league has no beat schedule: no round starts by itself."
        if not task.enabled:
            return "This league's beat schedule is disabled: no round starts by itself."
        return None

    @property
    def size(self) -> int:
        """The preferred table size within the rule set's player range."""
        return max(self.ruleset.min_players, min(self.ruleset.max_players, self.table_size))


class Entrant(models.Model):
    """A bot taking part in a league."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="entrants")
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="league_entries")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league_id", "bot_id"]
        constraints = [models.UniqueConstraint(fields=["league", "bot"], name="unique_league_entrant")]

    def __str__(self) -> str:
        return f"{self.bot_id} in {self.league_id}"


class LeagueRound(models.Model):
    """One round: its matches are created together, once (unique number per league)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    byes = models.JSONField(default=list, blank=True, help_text="Bot ids sitting out (a bye scores points).")
    absent = models.JSONField(default=list, blank=True, help_text="Entrants that could not play (no points).")

    class Meta:
        ordering = ["league_id", "number"]
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="unique_league_round")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.league_id}"

    def get_absolute_url(self) -> str:
        """The round page (its matches and replays)."""
        return reverse("league-round", args=[self.league.slug, self.number])


class LeagueMatch(models.Model):
    """A table of a round: exactly one match (unique table per round, unique match)."""

    round = models.ForeignKey(LeagueRound, on_delete=models.CASCADE, related_name="league_matches")
    table = models.PositiveSmallIntegerField()
    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="league_match")

    class Meta:
        ordering = ["round_id", "table"]
        constraints = [models.UniqueConstraint(fields=["round", "table"], name="unique_round_table")]

    def __str__(self) -> str:
        return f"table {self.table} of {self.round}"


class Standing(models.Model):
    """A stored line of a league's standings (recomputed when results arrive; ``arena.tournaments.standings``)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standings")
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField(default=0)
    points = models.FloatField(default=0.0)
    buchholz = models.FloatField(default=0.0)
    wins = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    byes = models.PositiveIntegerField(default=0)
    elo_change = models.FloatField(default=0.0)

    class Meta:
        ordering = ["league_id", "rank"]
        constraints = [models.UniqueConstraint(fields=["league", "bot"], name="unique_league_standing")]
        indexes = [models.Index(fields=["league", "rank"], name="standing_league_rank")]

    def __str__(self) -> str:
        return f"{self.rank}. {self.bot_id} ({self.points:g})"
