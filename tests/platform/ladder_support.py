"""Helpers of the ladder, league and version-test tests: many bots at once, finishing matches by hand."""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from typing import Any

from bots.models import Bot, BotVersion, SmokeStatus
from matches.models import Match, MatchStatus
from matches.services import claim, fail, record_result
from tests.platform.factories import FakeResult


def bulk_bots(owner: Any, count: int, prefix: str = "bot", passed: bool = True) -> list[Bot]:
    """``count`` bots with one version each (smoke test passed), created in a few queries."""
    bots = Bot.objects.bulk_create(Bot(owner=owner, name=f"{prefix}{i:05d}") for i in range(count))
    status = SmokeStatus.PASSED if passed else SmokeStatus.PENDING
    versions = BotVersion.objects.bulk_create(
        BotVersion(
            bot=bot,
            number=1,
            filename="bot.py",
            entry_point="bot.py",
            archive=b"",
            sha256=hashlib.sha256(bot.name.encode()).hexdigest(),
            size=1,
            smoke_status=status,
        )
        for bot in bots
    )
    for bot, version in zip(bots, versions, strict=True):
        bot.active_version = version
    Bot.objects.bulk_update(bots, ["active_version"])
    return bots


def finish(match: Match, places: Sequence[int], replay: dict[str, Any] | None = None, **kwargs: Any) -> bool:
    """Claim ``match`` and store a result: ``places[seat]`` (1 = first, tied share). Returns whether stored."""
    claimed = claim(match.pk)
    if claimed is None:
        return False
    order: dict[int, list[int]] = {}
    for seat, place in enumerate(places):
        order.setdefault(place, []).append(seat)
    result = FakeResult(
        places=[order[p] for p in sorted(order)],
        scores=[0] * len(places),
        stderr=[""] * len(places),
        **kwargs,
    )
    if replay is not None:
        result.replay = replay
    return record_result(match.pk, claimed.attempts, result)


def fail_for_good(match: Match) -> None:
    """Claim ``match`` and fail it with no attempts left (as the task does after a crash, 3 times)."""
    claimed = claim(match.pk)
    assert claimed is not None
    Match.objects.filter(pk=match.pk).update(attempts=3)
    assert fail(match.pk, 3, "the sandbox is broken", retry=True) == MatchStatus.FAILED


def plackett_luce(strengths: Sequence[float], rng: random.Random) -> list[int]:
    """Places (1 = first) of players with Elo ``strengths``: strength plus Gumbel noise, sorted.

    Any two players then finish in the order the Elo formula predicts (Bradley-Terry marginals).
    """
    scale = 400 / math.log(10)
    perf = [s / scale - math.log(-math.log(rng.random())) for s in strengths]
    order = sorted(range(len(perf)), key=lambda k: -perf[k])
    places = [0] * len(perf)
    for rank, seat in enumerate(order, start=1):
        places[seat] = rank
    return places
