"""End to end with a real Celery worker process, Redis and PostgreSQL, bots in the strongest sandbox.

The test process publishes to Redis (``REDIS_URL``, default db 15) and a ``celery -A config worker``
subprocess with the production settings works on the same PostgreSQL test database: example bots are
smoke-tested, a user's uploaded bot challenges them through the API, the worker plays the match through
the referee and the sandbox (bwrap when available), and the replay, places, scores and ratings are
checked. A worker SIGKILLed in the middle of a match leaves it to the reaper (beat, in a second worker):
re-queued and finished when attempts are left, failed otherwise, never stuck in ``running``.

Missing Redis, PostgreSQL or bwrap skip these tests with the reason, and fail them on CI.
"""

from __future__ import annotations

import gzip
import json
import re
import time
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django_celery_beat.models import PeriodicTask
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bots.models import Bot, BotVersion, SmokeStatus
from bots.services import create_version
from matches.models import Match, MatchStatus, Participant, Replay
from matches.services import create_match
from matches.tasks import run_match_task
from ratings.models import Rating, RatingHistory
from rulesets.models import RuleSet
from tests.platform.factories import make_bot
from tests.platform.live_support import (
    CeleryWorker,
    alive,
    redis_broker,
    require_examples,
    smoke_tested,
    tiny_bot,
    wait_for,
)

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

StartWorker = Callable[..., CeleryWorker]


def _final(match_id: int, timeout: float) -> Match:
    """Wait until the match is finished or failed."""
    return wait_for(
        lambda: Match.objects.filter(
            pk=match_id, status__in=[MatchStatus.FINISHED, MatchStatus.FAILED]
        ).first(),
        timeout,
        f"match {match_id} to end",
    )


def test_worker_plays_a_challenge_end_to_end(
    celery_worker: StartWorker, live_services: dict[str, str], rulesets: None, owner: Any
) -> None:
    examples = require_examples()
    worker = celery_worker()
    with redis_broker(live_services["broker"]):
        # The example bots: loading them queues their smoke tests on Redis; the worker runs them.
        call_command("load_example_bots", stdout=StringIO())
        example_bots = list(Bot.objects.filter(owner__username="examples").order_by("name"))
        assert len(example_bots) == len(examples)
        statuses = smoke_tested([b.pending_version_id for b in example_bots if b.pending_version_id])
        assert set(statuses.values()) == {SmokeStatus.PASSED}, {
            v.bot.name: v.smoke_log for v in BotVersion.objects.filter(pk__in=statuses).select_related("bot")
        }

        # A user creates a bot and uploads a version through the API with a token.
        client = APIClient()
        token, _ = Token.objects.get_or_create(user=owner)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        created = client.post("/api/bots/", {"name": "tiny", "description": "first legal action"})
        assert created.status_code == 201, created.content
        upload = client.post(
            f"/api/bots/{created.data['id']}/versions/",
            {"file": SimpleUploadedFile("tiny.py", tiny_bot())},
            format="multipart",
        )
        assert upload.status_code == 201, upload.content
        assert smoke_tested([upload.data["id"]]) == {upload.data["id"]: SmokeStatus.PASSED}

        # The challenge: tiny against two example bots, rated, on a one-hand rule set.
        opponents = [b.name for b in example_bots[:2]]
        response = client.post(
            "/api/challenges/",
            {"ruleset": "classic-single", "bot": "tiny", "opponents": opponents, "rated": True},
            format="json",
        )
        assert response.status_code == 201, response.content
        match_id = response.data["id"]
        match = _final(match_id, 120)
        assert match.status == MatchStatus.FINISHED, match.error
        assert match.attempts == 1
        assert match.worker.startswith(worker.name), "the match ran in the worker process"
        assert match.decisions
        assert match.decisions > 0

        # Results: every seat placed and scored, no faults, the places a ranking of the seats.
        seats = list(Participant.objects.filter(match=match).select_related("bot").order_by("seat"))
        assert [s.bot.name for s in seats] == ["tiny", *opponents]
        assert all(s.place is not None and s.score is not None for s in seats)
        assert [s.fault_kind for s in seats] == ["", "", ""], [s.fault_detail for s in seats]
        assert min(s.place for s in seats if s.place) == 1

        # The replay is stored compactly, served as JSON (gzip when accepted) and re-simulates.
        from arena.engine.replay import verify_replay

        replay = Replay.objects.get(match=match)
        assert replay.size > len(bytes(replay.data))
        web = client.get(f"/matches/{match_id}/replay.json", HTTP_ACCEPT_ENCODING="gzip")
        assert web.status_code == 200
        assert web["Content-Encoding"] == "gzip"
        data = json.loads(gzip.decompress(web.content))
        api = client.get(f"/api/matches/{match_id}/replay/")
        assert json.loads(api.content) == data
        assert len(data["decisions"]) == match.decisions
        game = verify_replay(data)
        assert game.is_over

        # Ratings: one immutable history row per seat, Elo moved from the start value, zero sum.
        history = list(RatingHistory.objects.filter(match=match).select_related("rating__bot"))
        assert len(history) == 3
        assert sum(h.elo_after - h.elo_before for h in history) == pytest.approx(0, abs=1e-6)
        for seat in seats:
            rating = Rating.objects.get(bot=seat.bot, ruleset__slug="classic-single")
            assert rating.games == 1
            assert rating.elo == pytest.approx(seat.rating_after)
            assert rating.wins == (1 if seat.place == 1 else 0)
        board = client.get("/api/leaderboards/classic-single/").json()
        assert {row["bot"] for row in board["results"]} == {"tiny", *opponents}

        # The worker renders the bots' pages for visitors after the match (web.page_cache), in its cache.
        rendered = r"web\.tasks\.render_bot_pages\[[^\]]+\] succeeded in [\d.e-]+s: [1-9]"
        wait_for(lambda: re.search(rendered, worker.log()), 120, "the bots' pages to be rendered")

        # A redelivered message (or a duplicate) never counts the match twice.
        run_match_task.delay(match_id)
        wait_for(lambda: worker.log().count("'skipped'") >= 1, 60, "the duplicate to be skipped")
        assert RatingHistory.objects.filter(match=match).count() == 3
        assert Rating.objects.get(bot__name="tiny", ruleset__slug="classic-single").games == 1


def test_the_smoke_lane_tests_an_upload_while_the_match_process_is_busy(
    celery_worker: StartWorker, live_services: dict[str, str], rulesets: None, owner: Any, other: Any
) -> None:
    from scheduling import dispatcher

    # Bots that think 5 s each on their first decision: the one match process is busy for 10 s or more.
    slow_a = make_bot(owner, "slow-a", source=tiny_bot(slow_first=5))
    slow_b = make_bot(other, "slow-b", source=tiny_bot(slow_first=5))
    plays = celery_worker()
    lane = celery_worker(queues="smoke")
    with redis_broker(live_services["broker"]):
        match = create_match(RuleSet.objects.get(slug="classic-single"), [slow_a, slow_b], rated=True, seed=6)
        wait_for(
            lambda: Match.objects.filter(pk=match.pk, status=MatchStatus.RUNNING).exists(),
            60,
            "the match process to claim the match",
        )
        counted = dispatcher.dispatch(ask_workers=True)  # as beat does: it counts the lane's process too
        assert counted["slots"] == 1
        assert counted["free"] == 0
        assert counted["smoke_lane"] == {"slots": 1, "free": 1}
        version = create_version(slow_a, "bot.py", tiny_bot() + b"# v2\n")  # dispatched after its commit
        assert smoke_tested([version.pk], 60) == {version.pk: SmokeStatus.PASSED}
        assert Match.objects.get(pk=match.pk).status == MatchStatus.RUNNING  # tested beside the match
        ran = "Task bots.tasks.smoke_test_version["
        assert ran in lane.log()
        assert ran not in plays.log()
        assert _final(match.pk, 120).status == MatchStatus.FINISHED


@pytest.mark.parametrize(
    ("attempts_before", "expected"),
    [
        pytest.param(0, MatchStatus.FINISHED, id="retried"),
        pytest.param(2, MatchStatus.FAILED, id="out-of-attempts"),
    ],
)
def test_worker_killed_mid_match_is_reaped(
    celery_worker: StartWorker,
    live_services: dict[str, str],
    rulesets: None,
    owner: Any,
    other: Any,
    attempts_before: int,
    expected: str,
) -> None:
    # Bots that think for 4 s (from their time bank) on their first decision: the match is surely
    # still running when its worker is killed.
    slow_a = make_bot(owner, "slow-a", source=tiny_bot(slow_first=4))
    slow_b = make_bot(other, "slow-b", source=tiny_bot(slow_first=4))
    with redis_broker(live_services["broker"]):
        match = create_match(RuleSet.objects.get(slug="classic-single"), [slow_a, slow_b], rated=True, seed=5)
        Match.objects.filter(pk=match.pk).update(attempts=attempts_before)

        doomed = celery_worker()
        wait_for(
            lambda: Match.objects.filter(pk=match.pk, status=MatchStatus.RUNNING).exists(),
            60,
            "the first worker to claim the match",
        )
        time.sleep(1.5)  # the bots are started and thinking
        sandboxes = doomed.descendants() - doomed.group_pids()
        assert sandboxes, "the bots of the match are running"
        doomed.kill()
        wait_for(lambda: not alive(sandboxes), 30, "the killed worker's bots to go")
        match.refresh_from_db()
        assert match.status == MatchStatus.RUNNING, "the killed worker could not have finished it"
        assert match.attempts == attempts_before + 1

        # Beat is to run the reaper alone (no ladder matchmaking between the slow bots, say).
        PeriodicTask.objects.exclude(task="matches.tasks.reap_stale_matches").update(enabled=False)
        # A fresh worker with beat: the reaper runs every second and reaps after 20 s (longer than one
        # run of this match, so it does not reap the retry).
        rescuer = celery_worker(beat=True, UNO_ARENA_REAP_EVERY="1", UNO_ARENA_REAP_AFTER="20")
        match = _final(match.pk, 120)
        assert match.status == expected, (match.status, match.error)
        assert "reaped" in match.error or match.status == MatchStatus.FINISHED
        if expected == MatchStatus.FINISHED:
            assert match.attempts == 2
            assert match.worker.startswith(rescuer.name)
            assert RatingHistory.objects.filter(match=match).count() == 2
            assert Replay.objects.filter(match=match).exists()
        else:
            assert match.attempts == 3
            assert "reaped" in match.error
            assert not RatingHistory.objects.filter(match=match).exists()
            assert not Replay.objects.filter(match=match).exists()
