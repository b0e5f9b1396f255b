"""A version-test series through a real Celery worker, Redis and PostgreSQL (the strongest sandbox): the
worker is SIGKILLed in the last rotation, after the first pair was recorded; that pair stays recorded, and
the reaper (beat, in a second worker) re-queues the other two, which the next worker plays rotation-major as
a series of their own; the test then counts every pair once and decides. Missing services skip (and fail
on CI), as in ``test_series_worker.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bots.models import BotVersion, SmokeStatus
from bots.services import create_version
from matches.models import Match, Replay
from rulesets.models import RuleSet
from tests.platform.factories import make_bot
from tests.platform.live_support import (
    CeleryWorker,
    kill_after_first_recorded,
    redis_broker,
    rescue,
    wait_for,
)
from tests.platform.test_series_worker import SLOW_SECOND
from versiontests.models import TestMatch, VersionTest
from versiontests.models import TestStatus as Verdict
from versiontests.services import create_test

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def test_a_worker_killed_mid_version_series_keeps_the_pairs_recorded(
    celery_worker: Callable[..., CeleryWorker],
    live_services: dict[str, str],
    rulesets: None,
    owner: Any,
) -> None:
    # Both versions think 4 s over the first decision of their sandbox's second game: pair 1 of each
    # rotation, so the kill lands in pair 1's second rotation, after pair 0 was recorded.
    bot = make_bot(owner, "slow", source=SLOW_SECOND)
    baseline = BotVersion.objects.get(bot=bot, number=1)
    new = create_version(bot, "bot.py", SLOW_SECOND + b"\n# v2\n")
    BotVersion.objects.filter(pk=new.pk).update(smoke_status=SmokeStatus.PASSED)
    new.refresh_from_db()
    with redis_broker(live_services["broker"]):
        test = create_test(
            owner, new, baseline, RuleSet.objects.get(slug="classic-single"), max_games=6, batch_pairs=3
        )
        ids = list(TestMatch.objects.filter(test=test).order_by("index").values_list("match_id", flat=True))
        assert len(set(Match.objects.filter(pk__in=ids).values_list("series", flat=True))) == 1
        doomed = celery_worker(UNO_ARENA_LADDER="0")
        # Killed in pair 1's second rotation, after the first was recorded.
        kill_after_first_recorded(doomed, ids, 120, "the first pair of the series to be recorded")
        rescuer = rescue(celery_worker, ids, 180, "the rest of the series to be played")
        wait_for(
            lambda: not VersionTest.objects.get(pk=test.pk).is_running,
            30,
            "the version test to count its pairs and decide",
        )
        # Timings are noted just after each result's commit, which may already have decided the test.
        wait_for(lambda: all(m.timings for m in Match.objects.filter(pk__in=ids)), 30, "the last timings")
    played = {m.pk: m for m in Match.objects.filter(pk__in=ids)}
    assert played[ids[0]].attempts == 1
    assert played[ids[0]].worker.startswith(doomed.name)
    for pk in ids[1:]:
        assert played[pk].attempts == 2
        assert played[pk].worker.startswith(rescuer.name)
    assert [played[pk].timings["series"] for pk in ids[1:]] == [[0, 2], [1, 2]]  # the two left, as a series
    assert Replay.objects.filter(match_id__in=ids).count() == 3
    test.refresh_from_db()
    assert test.pairs == 3  # each pair counted once
    assert test.status == Verdict.LIMIT
