"""The scheduler's state (fair-share passes, the dispatch lock) and per-user quota overrides."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class FairShare(models.Model):
    """One pass of the fair-share planner (``scheduling.planner``): an origin's, an owner's within an
    origin, or a level's virtual time. Written by the dispatcher only, under :class:`DispatchLock`."""

    key = models.CharField(max_length=80, primary_key=True)
    value = models.FloatField(default=0.0)

    def __str__(self) -> str:
        return f"{self.key} = {self.value:g}"


class DispatchLock(models.Model):
    """A single row locked (``SELECT ... FOR UPDATE``) by each dispatch, so two never overlap; it also
    records the last dispatch."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    dispatched_at = models.DateTimeField(null=True, blank=True)
    dispatched = models.PositiveBigIntegerField(default=0, help_text="Jobs handed to the workers in all.")

    def __str__(self) -> str:
        return f"dispatcher ({self.dispatched} jobs)"


class Quota(models.Model):
    """One user's quotas, set by staff; an empty field keeps the site-wide default
    (``scheduling.conf``, documented in ``docs/scheduling.md``)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quota")
    challenges = models.PositiveIntegerField(
        null=True, blank=True, help_text="Challenges queued or running at once."
    )
    version_tests = models.PositiveIntegerField(
        null=True, blank=True, help_text="Version tests running at once."
    )
    test_batch = models.PositiveIntegerField(
        null=True, blank=True, help_text="Pairs a version test queues at a time."
    )
    smoke_tests = models.PositiveIntegerField(
        null=True, blank=True, help_text="Versions waiting for their smoke test at once."
    )
    bots = models.PositiveIntegerField(null=True, blank=True, help_text="Bots owned.")
    note = models.CharField(max_length=200, blank=True, help_text="Why (for staff).")

    def __str__(self) -> str:
        return f"quotas of {self.user}"
