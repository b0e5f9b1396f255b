"""Viewer data cached per game of a match, and each seat's per-decision stderr (owner-only)."""

from __future__ import annotations

import gzip
import json
from typing import Any

from django.db import models


def pack(value: Any) -> tuple[bytes, int]:
    """Compact JSON, gzip-compressed; returns (gzip bytes, uncompressed size)."""
    raw = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
    return gzip.compress(raw, compresslevel=6, mtime=0), len(raw)


def unpack(data: bytes | memoryview) -> Any:
    """The value :func:`pack` stored."""
    return json.loads(gzip.decompress(bytes(data)))


class ReplayView(models.Model):
    """The viewer data (``arena.engine.replay_view.expand``) of one game of a finished match, as gzip JSON.

    Derived from the stored replay by re-simulation, on first request; rebuilt when ``version`` is not the
    engine's current ``VIEW_VERSION``. A plain match has game 0 only; a duplicate-deal match one game per
    seat rotation.
    """

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="replay_views")
    game = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveSmallIntegerField(
        help_text="arena.engine.replay_view.VIEW_VERSION it was built with."
    )
    data = models.BinaryField()
    size = models.PositiveIntegerField(help_text="Uncompressed JSON size in bytes.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "game"], name="unique_replay_view")]

    def __str__(self) -> str:
        return f"viewer data of match {self.match_id}, game {self.game}"


class DecisionLog(models.Model):
    """What one seat's bot wrote to stderr, decision by decision: private to the bot's owner and staff.

    ``data`` is gzip JSON ``[[game, seat, decision, text], ...]`` (seat and decision as in that game's
    replay), from the referee's ``MatchResult.decision_stderr``.
    """

    participant = models.OneToOneField(
        "matches.Participant", on_delete=models.CASCADE, primary_key=True, related_name="decision_log"
    )
    data = models.BinaryField()
    entries = models.PositiveIntegerField()

    def __str__(self) -> str:
        return f"stderr by decision of {self.participant}"

    def rows(self) -> list[list[Any]]:
        """The ``[game, seat, decision, text]`` rows."""
        return list(unpack(self.data))
