"""Quotas and fair shares with a real worker: one user floods version tests, challenges and uploads; the
ladder and another user's challenge are still served within the documented bound (docs/scheduling.md).

One worker with one slot (``UNO_ARENA_CAPACITY=1``; a last test checks that the slots are the processes of the workers), so every dispatch is one job and their order is the
order of ``dispatched_at``. The flood is created first (older), then the other user's challenge and a
ladder match; both are dispatched within ``smoke tests waiting + 2 x ceil(W / w)`` dispatches of being
queued (W the weights of the backlogged origins, w theirs), while most of the flood still waits."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bots.models import BotVersion
from ladder.matchmaker import plan_round
from ladder.tables import Seat, create_matches
from matches.models import Match, MatchStatus, Origin
from rulesets.models import RuleSet
from scheduling.planner import DEFAULT_WEIGHTS
from tests.platform.factories import make_bot
from tests.platform.live_support import CeleryWorker, redis_broker, tiny_bot, wait_for

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def order_of_dispatch() -> list[tuple[str, int]]:
    """Every dispatched job, in the order it was handed to the worker."""
    matches = Match.objects.filter(dispatched_at__isnull=False).values_list("dispatched_at", "pk")
    smoke = BotVersion.objects.filter(smoke_dispatched_at__isnull=False).values_list(
        "smoke_dispatched_at", "pk"
    )
    rows = [(at, ("match", pk)) for at, pk in matches] + [(at, ("smoke", pk)) for at, pk in smoke]
    return [key for _, key in sorted(rows)]


def test_a_flood_leaves_the_ladder_and_another_users_challenge_served(
    celery_worker: Callable[..., CeleryWorker],
    live_services: dict[str, str],
    rulesets: None,
    owner: Any,
    other: Any,
    settings: Any,
) -> None:
    slots = {"UNO_ARENA_CAPACITY": "1", "UNO_ARENA_PER_PROCESS": "1"}
    for name, value in slots.items():
        setattr(settings, name, int(value))
    settings.UNO_ARENA_LADDER_EPSILON = 0
    single = RuleSet.objects.get(slug="classic-single")
    # The bots first, before the worker and the broker: their first versions are marked passed here.
    flooder = [make_bot(owner, f"flood{k}") for k in range(2)]
    victim = make_bot(other, "victim")
    for k in range(2):
        make_bot(other, f"ladder{k}")
    celery_worker(beat=True, UNO_ARENA_DISPATCH_EVERY="2", UNO_ARENA_LADDER="0", **slots)
    with redis_broker(live_services["broker"]):
        # The flood: 30 version-test matches, challenges up to the quota (then 429), 3 uploads (then 429).
        seats = [Seat(b.pk, b.active_version_id) for b in flooder]
        create_matches(single, [seats] * 30, rated=False, created_by=owner, origin=Origin.VERSIONTEST)
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=owner).key}")
        challenge = {"ruleset": "classic-single", "bot": "flood0", "opponents": ["flood1"], "rated": False}
        answers = [api.post("/api/challenges/", challenge, format="json").status_code for _ in range(12)]
        # The quota counts challenges queued or running: one the worker finished during the posts frees
        # a place (on a loaded machine the posts are slow enough for that), so each finished one (counted
        # after the posts: an upper bound) may turn a 429 into a 201, and never more.
        finished = Match.objects.filter(created_by=owner, origin=Origin.CHALLENGE).exclude(
            status__in=(MatchStatus.QUEUED, MatchStatus.RUNNING)
        )
        assert answers[:10] == [201] * 10
        assert set(answers[10:]) <= {201, 429}
        assert answers.count(201) - 10 <= finished.count(), answers
        uploads = [
            api.post(
                f"/api/bots/{flooder[0].pk}/versions/",
                {"file": SimpleUploadedFile("tiny.py", tiny_bot() + f"# {k}\n".encode())},
                format="multipart",
            ).status_code
            for k in range(4)
        ]
        assert uploads == [201] * 3 + [429]

        # Then another user's challenge, and the ladder.
        mine = APIClient()
        mine.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=other).key}")
        response = mine.post(
            "/api/challenges/",
            {"ruleset": "classic-single", "bot": victim.name, "opponents": ["flood0"], "rated": False},
            format="json",
        )
        assert response.status_code == 201, response.content
        their = response.json()["id"]
        plan_round(capacity=5, rulesets=["classic-single"], queued=1)
        ladder = Match.objects.get(origin=Origin.LADDER).pk
        queued_before = len(order_of_dispatch())

        done = [MatchStatus.FINISHED, MatchStatus.FAILED]
        wait_for(
            lambda: Match.objects.filter(pk__in=[their, ladder], status__in=done).count() == 2,
            300,
            "the other user's challenge and the ladder match",
        )
    order = order_of_dispatch()[queued_before:]
    weights = {o: DEFAULT_WEIGHTS[o] for o in (Origin.LADDER, Origin.CHALLENGE, Origin.VERSIONTEST)}
    total = sum(weights.values())
    for key, origin in ((("match", their), Origin.CHALLENGE), (("match", ladder), Origin.LADDER)):
        bound = 3 + 2 * math.ceil(total / weights[origin])  # 3 smoke tests waiting may go first
        position = order.index(key) + 1
        sys.stdout.write(f"\n{origin}: dispatched {position} of {len(order)} (bound {bound})\n")
        assert position <= bound, (origin, position, bound, order)
    waiting = Match.objects.filter(created_by=owner, dispatched_at__isnull=True).count()
    assert waiting >= 20, "the flood still waits in its own queues"
    for match in Match.objects.filter(pk__in=[their, ladder]):
        assert match.status == MatchStatus.FINISHED, match.error


def test_the_slots_are_the_processes_of_the_workers_that_run_matches(
    celery_worker: Callable[..., CeleryWorker], live_services: dict[str, str], settings: Any
) -> None:
    """Two live workers of two and one processes give three slots (one job per process): no job is
    handed to a worker that has no process free for it."""
    from ladder import workers
    from scheduling.dispatcher import slots

    settings.UNO_ARENA_CAPACITY = 50
    settings.UNO_ARENA_PER_PROCESS = 1
    celery_worker(concurrency=2, UNO_ARENA_LADDER="0")
    celery_worker(concurrency=1, UNO_ARENA_LADDER="0")
    with redis_broker(live_services["broker"]):
        assert workers.live_match_processes(timeout=2.0) == 3
        assert slots(ask_workers=True) == 3
        assert slots() == 3  # remembered for the dispatches after each job
