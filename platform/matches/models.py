"""Matches, their seats (participants) and stored replays.

Status state machine (see ``docs/platform.md``)::

    queued ──claim──▶ running ──result stored──▶ finished
       ▲                 │
       └──reaper (attempts left)──┤──error / time limit / reaper (no attempts left)──▶ failed
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse


class MatchStatus(models.TextChoices):
    """Where a match is in its life (transitions in the module docstring)."""

    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    FAILED = "failed", "Failed"


#: Allowed status transitions; everything else is a bug.
TRANSITIONS: dict[str, set[str]] = {
    MatchStatus.QUEUED: {MatchStatus.RUNNING, MatchStatus.FAILED},
    MatchStatus.RUNNING: {MatchStatus.FINISHED, MatchStatus.FAILED, MatchStatus.QUEUED},
    MatchStatus.FINISHED: set(),
    MatchStatus.FAILED: set(),
}


class Origin(models.TextChoices):
    """Why a match exists: the scheduler shares the workers between origins (``docs/scheduling.md``)."""

    LADDER = "ladder", "Ladder"
    LEAGUE = "league", "League"
    CHALLENGE = "challenge", "Challenge"
    VERSIONTEST = "versiontest", "Version test"


class Match(models.Model):
    """One game between bot versions on a rule set, run by a Celery worker through the referee.

    A match is created ``queued`` and waits in the database until the scheduler hands it to the workers
    (``dispatched_at``); ``created_by`` is the user whose quota and fair share it counts against (none for
    the ladder and leagues).
    """

    ruleset = models.ForeignKey("rulesets.RuleSet", on_delete=models.PROTECT, related_name="matches")
    status = models.CharField(max_length=10, choices=MatchStatus.choices, default=MatchStatus.QUEUED)
    seed = models.BigIntegerField()
    rated = models.BooleanField(default=True)
    duplicate = models.BooleanField(
        default=False, help_text="Duplicate deals (every seat plays the same cards)."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="challenges"
    )
    origin = models.CharField(max_length=12, choices=Origin.choices, default=Origin.CHALLENGE)
    created_at = models.DateTimeField(auto_now_add=True)
    dispatched_at = models.DateTimeField(
        null=True, blank=True, help_text="When the scheduler handed it to the workers (null: still waiting)."
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    task_id = models.CharField(max_length=100, blank=True)
    error = models.TextField(blank=True)
    decisions = models.PositiveIntegerField(null=True, blank=True)
    series = models.UUIDField(
        null=True,
        blank=True,
        help_text="Matches sharing this id are the games of one series, run as one job (in id order) in the "
        "same sandboxes (docs/scheduling.md); null: a job of its own.",
    )
    timings = models.JSONField(
        default=dict,
        blank=True,
        help_text="Where the match's time went, in seconds (queued, start, think, engine, record, ...): "
        "see docs/throughput.md.",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["status", "started_at"], name="match_status_started"),
            models.Index(fields=["created_by", "created_at"], name="match_creator_created"),
            models.Index(fields=["-finished_at"], name="match_finished"),
            models.Index(
                fields=["origin", "created_by", "created_at"],
                condition=models.Q(status="queued", dispatched_at__isnull=True),
                name="match_waiting",
            ),
            models.Index(
                fields=["series", "id"], condition=models.Q(series__isnull=False), name="match_series"
            ),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.ruleset_id}, {self.status})"

    def get_absolute_url(self) -> str:
        """The public match page."""
        return reverse("match-detail", args=[self.pk])

    def can_move_to(self, status: str) -> bool:
        """Whether the state machine allows ``self.status -> status``."""
        return status in TRANSITIONS[self.status]


class FaultKind(models.TextChoices):
    """Why a seat was faulted by the referee (the referee's ``Fault.kind``; other values are kept as is)."""

    TIMEOUT = "timeout", "Timed out"
    CRASH = "crash", "Crashed / exited"
    ILLEGAL = "illegal", "Illegal action"
    PROTOCOL = "protocol", "Protocol error"


class Participant(models.Model):
    """A seat in a match: which bot version sat there and how it did.

    ``fault_detail`` and ``stderr`` are private to the bot's owner and staff.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="participants")
    seat = models.PositiveSmallIntegerField()
    bot = models.ForeignKey("bots.Bot", on_delete=models.PROTECT, related_name="participations")
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.PROTECT, related_name="participations"
    )
    place = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1 = first; tied seats share.")
    score = models.IntegerField(null=True, blank=True)
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    fault_kind = models.CharField(max_length=30, blank=True)
    fault_decision = models.IntegerField(null=True, blank=True)
    fault_detail = models.TextField(blank=True)
    stderr = models.TextField(blank=True)

    class Meta:
        ordering = ["match_id", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="unique_match_seat")]
        indexes = [models.Index(fields=["bot", "-match"], name="participant_bot_match")]

    def __str__(self) -> str:
        return f"seat {self.seat} of match {self.match_id}"

    @property
    def rating_change(self) -> float | None:
        """Elo change of this seat (rated matches only)."""
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


class Replay(models.Model):
    """The replay of a finished match: gzip-compressed JSON (``docs/replay-format.md``)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="replay")
    data = models.BinaryField()
    size = models.PositiveIntegerField(help_text="Uncompressed JSON size in bytes.")

    def __str__(self) -> str:
        return f"replay of match {self.match_id}"

    @classmethod
    def pack(cls, replay: dict[str, Any]) -> tuple[bytes, int]:
        """Compress a replay dict; returns (gzip bytes, uncompressed size)."""
        raw = json.dumps(replay, separators=(",", ":"), sort_keys=False).encode()
        return gzip.compress(raw, compresslevel=6, mtime=0), len(raw)

    def json_bytes(self) -> bytes:
        """The replay as uncompressed JSON bytes."""
        return gzip.decompress(bytes(self.data))
