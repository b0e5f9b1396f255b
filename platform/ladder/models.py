"""Ladder bookkeeping: which matches the matchmaker queued, and the stored batch rating fits."""

from __future__ import annotations

from django.db import models


class LadderMatch(models.Model):
    """A rated match queued by the matchmaker (so its queue per rule set can be counted)."""

    match = models.OneToOneField(
        "matches.Match", on_delete=models.CASCADE, primary_key=True, related_name="ladder"
    )
    explore = models.BooleanField(default=False, help_text="An exploration table (random opponents).")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"ladder match {self.match_id}"


class RatingFit(models.Model):
    """The latest batch fit of a rule set's rated results (``arena.ratings.fit``)."""

    ruleset = models.OneToOneField("rulesets.RuleSet", on_delete=models.CASCADE, related_name="rating_fit")
    computed_at = models.DateTimeField()
    matches = models.PositiveIntegerField(default=0)
    bots = models.PositiveIntegerField(default=0)
    method = models.CharField(max_length=40, blank=True)
    iterations = models.PositiveIntegerField(default=0)
    seconds = models.FloatField(default=0.0)

    def __str__(self) -> str:
        return f"fit of {self.ruleset_id} at {self.computed_at:%Y-%m-%d %H:%M}"


class FittedRating(models.Model):
    """A bot's fitted Elo on a rule set with its 95% interval, attached to its ladder rating row."""

    rating = models.OneToOneField(
        "ratings.Rating", on_delete=models.CASCADE, primary_key=True, related_name="fit"
    )
    elo = models.FloatField()
    low = models.FloatField()
    high = models.FloatField()
    stderr = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.elo:.0f} [{self.low:.0f}, {self.high:.0f}]"

    @property
    def half_width(self) -> float:
        """Half the interval's width (the ``±`` shown on leaderboards)."""
        return (self.high - self.low) / 2
