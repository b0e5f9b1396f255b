"""Elo ratings per (bot, rule set) and their immutable history."""

from __future__ import annotations

from typing import Any

from django.db import models

from arena.ratings.elo import START_RATING, is_provisional


class Rating(models.Model):
    """A bot's current Elo on one rule set (changed only by ``ratings.services.apply_match``)."""

    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="ratings")
    ruleset = models.ForeignKey("rulesets.RuleSet", on_delete=models.CASCADE, related_name="ratings")
    elo = models.FloatField(default=START_RATING)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0, help_text="Rated games finished first (ties included).")
    last_played = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-elo", "id"]
        constraints = [models.UniqueConstraint(fields=["bot", "ruleset"], name="unique_bot_ruleset")]
        indexes = [models.Index(fields=["ruleset", "-elo", "id"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.bot_id} on {self.ruleset_id}: {self.elo:.0f}"

    @property
    def provisional(self) -> bool:
        """Whether too few games were played for the rating to mean much (``arena.ratings.elo``)."""
        return is_provisional(self.games)

    @property
    def win_rate(self) -> float | None:
        """Share of rated games won (0..1), or None before the first game."""
        return self.wins / self.games if self.games else None


class ImmutableError(RuntimeError):
    """Raised on an attempt to change or delete a rating history row."""


class RatingHistory(models.Model):
    """One rating change caused by one match (written once, never changed)."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="history")
    match = models.ForeignKey("matches.Match", on_delete=models.PROTECT, related_name="rating_changes")
    elo_before = models.FloatField()
    elo_after = models.FloatField()
    games = models.PositiveIntegerField(help_text="Games played after this match.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rating_id", "id"]
        verbose_name_plural = "rating history"
        constraints = [models.UniqueConstraint(fields=["rating", "match"], name="unique_rating_match")]

    def __str__(self) -> str:
        return f"{self.rating_id}: {self.elo_before:.0f} -> {self.elo_after:.0f} (match {self.match_id})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Insert only: history rows are immutable."""
        if self.pk is not None and not self._state.adding:
            raise ImmutableError("rating history rows are immutable")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        """History rows are never deleted one by one."""
        raise ImmutableError("rating history rows are immutable")
