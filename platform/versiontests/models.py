"""A version test and the duplicate-deal matches it scheduled."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse

from arena.tournaments.sprt import ALPHA, BETA, SPRTResult, sprt


def empty_pentanomial() -> list[int]:
    """Counts of pairs scoring 0, ¼, ½, ¾, 1 for the new version."""
    return [0, 0, 0, 0, 0]


class TestStatus(models.TextChoices):
    """Where a test is; every status but ``running`` is final."""

    RUNNING = "running", "Running"
    ACCEPTED = "accepted", "Better (H1 accepted)"
    REJECTED = "rejected", "Not better (H0 accepted)"
    LIMIT = "limit", "Game limit reached, no verdict"
    CANCELLED = "cancelled", "Cancelled"
    ERROR = "error", "Stopped: too many failed matches"


class VersionTest(models.Model):
    """A new version against a baseline version on a rule set: batches of unrated duplicate pairs,
    evaluated by the GSPRT of ``arena.tournaments.sprt`` after every finished pair."""

    __test__ = False  # not a pytest class

    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="version_tests")
    new_version = models.ForeignKey("bots.BotVersion", on_delete=models.PROTECT, related_name="+")
    baseline_version = models.ForeignKey("bots.BotVersion", on_delete=models.PROTECT, related_name="+")
    ruleset = models.ForeignKey("rulesets.RuleSet", on_delete=models.PROTECT, related_name="version_tests")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=TestStatus.choices, default=TestStatus.RUNNING)
    elo0 = models.FloatField(default=0.0, help_text="H0: the new version is this many Elo better (or less).")
    elo1 = models.FloatField(default=30.0, help_text="H1: the new version is at least this many Elo better.")
    alpha = models.FloatField(default=ALPHA)
    beta = models.FloatField(default=BETA)
    max_games = models.PositiveIntegerField(
        default=2000, help_text="Stop without a verdict after this many games."
    )
    batch_pairs = models.PositiveSmallIntegerField(default=10, help_text="Duplicate pairs queued at a time.")
    batches = models.PositiveIntegerField(default=0)
    penta = models.JSONField(default=empty_pentanomial)
    failures = models.PositiveIntegerField(default=0)
    llr = models.FloatField(default=0.0)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "-created_at"], name="vtest_status_created")]

    def __str__(self) -> str:
        return f"test {self.pk}: {self.new_version_id} vs {self.baseline_version_id}"

    def get_absolute_url(self) -> str:
        """The test page."""
        return reverse("versiontest-detail", args=[self.pk])

    @property
    def pairs(self) -> int:
        """Finished duplicate pairs."""
        return sum(self.penta)

    @property
    def games(self) -> int:
        """Games played (two per pair)."""
        return 2 * self.pairs

    @property
    def is_running(self) -> bool:
        """Whether more games may be scheduled."""
        return self.status == TestStatus.RUNNING

    def result(self) -> SPRTResult:
        """The SPRT on the counts so far."""
        return sprt(self.penta, self.elo0, self.elo1, self.alpha, self.beta)

    def progress(self) -> dict[str, Any]:
        """What the live page polls (JSON-ready)."""
        res = self.result()

        def finite(x: float) -> float | None:
            return round(x, 1) if abs(x) != float("inf") else None

        from versiontests.meaning import meaning

        progress = {
            "id": self.pk,
            "status": self.status,
            "status_label": self.get_status_display(),
            "running": self.is_running,
            "games": self.games,
            "pairs": self.pairs,
            "max_games": self.max_games,
            "pentanomial": list(self.penta),
            "failures": self.failures,
            "llr": round(res.llr, 3),
            "lower": round(res.lower, 3),
            "upper": round(res.upper, 3),
            "elo": finite(res.elo) if self.pairs else None,
            "elo_low": finite(res.elo_low) if self.pairs else None,
            "elo_high": finite(res.elo_high) if self.pairs else None,
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
        }
        progress["meaning"] = meaning(progress)
        return progress


class TestMatch(models.Model):
    """One duplicate pair of a test (unique per test, batch and index; one match each)."""

    __test__ = False

    test = models.ForeignKey(VersionTest, on_delete=models.CASCADE, related_name="test_matches")
    batch = models.PositiveIntegerField()
    index = models.PositiveSmallIntegerField()
    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="version_test")
    counted = models.BooleanField(default=False, help_text="Its result is in the test's counts.")

    class Meta:
        ordering = ["test_id", "batch", "index"]
        constraints = [
            models.UniqueConstraint(fields=["test", "batch", "index"], name="unique_test_batch_index")
        ]

    def __str__(self) -> str:
        return f"pair {self.batch}.{self.index} of test {self.test_id}"
