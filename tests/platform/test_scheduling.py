"""The dispatcher and the quotas: matches wait in the database until a slot is free, smoke tests go first,
one user's flood leaves everybody else served, each user's queued work is bounded (staff adjust it)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from bots.models import Bot, BotVersion
from bots.services import create_version
from ladder import workers
from ladder.tables import Seat, create_matches
from matches import services as match_services
from matches.models import Match, MatchStatus, Origin
from matches.services import create_match, reap_stale
from rulesets.models import RuleSet
from scheduling import dispatcher
from scheduling.models import Quota
from scheduling.quotas import QuotaExceeded
from tests.platform.factories import BOT_SOURCE, make_bot
from tests.platform.ladder_support import bulk_bots, finish

pytestmark = pytest.mark.django_db


class Sent(list[tuple[str, int]]):
    """What is handed to Celery, in order; ``queues``: the queue each smoke test was sent to."""

    def __init__(self) -> None:
        super().__init__()
        self.queues: dict[int, str | None] = {}

    def smoke(self, pk: int, queue: str | None = None) -> None:
        self.append(("smoke", pk))
        self.queues[pk] = queue


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Sent:
    """What is handed to Celery, in order (instead of sending it)."""
    out = Sent()
    monkeypatch.setattr(match_services, "enqueue_match", lambda pk: out.append(("match", pk)))
    import bots.services

    monkeypatch.setattr(bots.services, "enqueue_smoke_test", out.smoke)
    return out


@pytest.fixture
def slots(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Set the capacity: ``slots(n)`` gives ``n`` slots (one process, ``n`` per process)."""
    monkeypatch.setattr(workers, "live_match_processes", lambda timeout=1.0: 1)

    def set_slots(n: int) -> None:
        settings.UNO_ARENA_CAPACITY = 100
        settings.UNO_ARENA_PER_PROCESS = n

    return set_slots


def versiontest_matches(user: Any, bots: list[Bot], classic: RuleSet, count: int) -> list[Match]:
    seats = [Seat(bots[0].pk, bots[0].active_version_id), Seat(bots[1].pk, bots[1].active_version_id)]
    return create_matches(classic, [seats] * count, rated=False, created_by=user, origin=Origin.VERSIONTEST)


def test_matches_wait_until_a_slot_is_free(
    classic: RuleSet,
    bot: Bot,
    rival: Bot,
    owner: Any,
    sent: list[Any],
    slots: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    slots(2)
    with django_capture_on_commit_callbacks(execute=True):
        matches = [create_match(classic, [bot, rival], rated=False, created_by=owner) for _ in range(4)]
    # Each creation dispatched after its commit: two slots, two matches handed over, oldest first.
    assert sent == [("match", matches[0].pk), ("match", matches[1].pk)]
    assert Match.objects.filter(dispatched_at__isnull=False).count() == 2
    assert dispatcher.dispatch()["dispatched"] == 0  # full
    with django_capture_on_commit_callbacks(execute=True):
        assert finish(Match.objects.get(pk=matches[0].pk), [1, 2])
    assert sent[-1] == ("match", matches[2].pk)  # a finished match made room for the next one at once
    assert dispatcher.busy() == 2


def test_smoke_tests_of_new_uploads_go_first(
    classic: RuleSet,
    bot: Bot,
    rival: Bot,
    owner: Any,
    sent: list[Any],
    slots: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    slots(1)
    for _ in range(3):
        create_match(classic, [bot, rival], rated=False, created_by=owner)
    version = create_version(rival, "bot.py", BOT_SOURCE + b"# v2\n")
    with django_capture_on_commit_callbacks(execute=True):
        assert dispatcher.dispatch()["origins"] == {"smoke": 1}
    assert sent == [("smoke", version.pk)]
    assert BotVersion.objects.get(pk=version.pk).smoke_dispatched_at is not None


def test_a_smoke_lane_tests_uploads_at_once_while_every_match_process_is_busy(
    classic: RuleSet,
    bot: Bot,
    rival: Bot,
    owner: Any,
    other: Any,
    sent: Sent,
    slots: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    slots(1)
    with django_capture_on_commit_callbacks(execute=True):
        running = create_match(classic, [bot, rival], rated=False, created_by=owner)
        create_match(classic, [bot, rival], rated=False, created_by=owner)
    assert sent == [("match", running.pk)]  # the one match slot is taken, the other match waits
    # Without a smoke lane, a new upload's smoke test waits for that slot (first in the planner's order).
    first = create_version(rival, "bot.py", BOT_SOURCE + b"# v2\n")
    assert dispatcher.dispatch()["dispatched"] == 0
    # A worker of the smoke queue alone is seen: its process tests uploads whatever the matches do.
    cache.set(workers.SEEN_SMOKE, 1, timeout=60)
    assert dispatcher.smoke_slots() == 1
    second = create_version(bot, "bot.py", BOT_SOURCE + b"# v2\n")
    third = create_version(rival, "bot.py", BOT_SOURCE + b"# v3\n")
    with django_capture_on_commit_callbacks(execute=True):
        result = dispatcher.dispatch()
    assert result["smoke_lane"] == {"slots": 1, "free": 1}
    assert result["free"] == 0  # the match slots are counted without the smoke tests
    assert result["origins"] == {"smoke": 1}
    assert sent[1:] == [("smoke", first.pk)]  # the oldest
    assert sent.queues == {first.pk: workers.SMOKE_QUEUE}
    assert dispatcher.dispatch()["dispatched"] == 0  # the lane holds one at a time
    BotVersion.objects.filter(pk=first.pk).update(smoke_status="passed")
    with django_capture_on_commit_callbacks(execute=True):
        assert dispatcher.dispatch()["origins"] == {"smoke": 1}
    assert sent[-1] == ("smoke", second.pk)  # the next owner's before the first owner's second upload
    BotVersion.objects.filter(pk=second.pk).update(smoke_status="passed")
    with django_capture_on_commit_callbacks(execute=True):
        assert finish(Match.objects.get(pk=running.pk), [1, 2])  # frees a match slot: a match takes it
    assert sent[-2:] == [("smoke", third.pk), ("match", running.pk + 1)]  # one dispatch, the lane first
    assert sent.queues[third.pk] == workers.SMOKE_QUEUE
    cache.delete(workers.SEEN_SMOKE)  # the lane's worker is gone: smoke tests take match slots again
    assert dispatcher.smoke_slots() == 0
    assert "smoke_lane" not in dispatcher.dispatch()


def test_enqueue_smoke_test_sends_to_the_lane_only_while_it_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    from bots import services, tasks

    queues: list[str] = []
    monkeypatch.setattr(tasks.smoke_test_version, "apply_async", lambda args, queue: queues.append(queue))
    services.enqueue_smoke_test(1)
    cache.set(workers.SEEN_SMOKE, 2, timeout=60)
    services.enqueue_smoke_test(2)
    services.enqueue_smoke_test(3, queue=workers.MATCH_QUEUE)  # the dispatcher's choice wins
    assert queues == [workers.MATCH_QUEUE, workers.SMOKE_QUEUE, workers.MATCH_QUEUE]


def test_a_flood_of_version_tests_leaves_the_ladder_and_another_user_served(
    classic: RuleSet, owner: Any, other: Any, sent: list[Any], slots: Any, settings: Any
) -> None:
    settings.UNO_ARENA_LADDER_EPSILON = 0
    pool = bulk_bots(owner, 8)
    flood = versiontest_matches(owner, pool, classic, 300)
    their = create_match(classic, [make_bot(other, "theirs"), pool[2]], rated=False, created_by=other)
    from ladder.matchmaker import plan_round

    plan_round(capacity=10, rulesets=["classic"], queued=1)
    ladder = Match.objects.get(origin=Origin.LADDER)
    slots(4)
    result = dispatcher.dispatch()
    assert result["dispatched"] == 4
    dispatched = set(Match.objects.filter(dispatched_at__isnull=False).values_list("pk", flat=True))
    assert their.pk in dispatched
    assert ladder.pk in dispatched
    assert len(dispatched & {m.pk for m in flood}) == 2  # the flood gets its share, not the workers


def test_the_reaper_leaves_waiting_matches_to_the_scheduler(
    classic: RuleSet, bot: Bot, rival: Bot, sent: list[Any], settings: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    waiting = create_match(classic, [bot, rival], rated=False)
    handed = create_match(classic, [bot, rival], rated=False)
    old = timezone.now() - timedelta(seconds=settings.UNO_ARENA_REAP_AFTER + 60)
    Match.objects.filter(pk__in=[waiting.pk, handed.pk]).update(created_at=old)
    Match.objects.filter(pk=handed.pk).update(dispatched_at=old)
    assert reap_stale()["resent"] == 1
    assert sent == [("match", handed.pk)]  # its message may be lost: sent again; the other still waits


def test_beat_asks_the_workers_how_many_they_are(
    classic: RuleSet, bot: Bot, rival: Bot, sent: list[Any], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scheduling.tasks import dispatch_task

    settings.UNO_ARENA_CAPACITY = 5
    settings.UNO_ARENA_PER_PROCESS = 2
    for _ in range(8):
        create_match(classic, [bot, rival], rated=False)
    monkeypatch.setattr(workers, "live_match_processes", lambda timeout=1.0: 2)
    assert dispatch_task()["dispatched"] == 4  # 2 processes x 2
    monkeypatch.setattr(workers, "live_match_processes", lambda timeout=1.0: 9)
    assert dispatch_task()["dispatched"] == 1  # the capacity, 5, caps it


# --- Quotas -----------------------------------------------------------------------------------------


def test_the_challenge_quota(
    api: dict[str, Any], clients: dict[str, Client], bot: Bot, rival: Bot, classic: RuleSet, settings: Any
) -> None:
    settings.UNO_ARENA_QUOTA_CHALLENGES = 2
    payload = {"ruleset": "classic", "bot": bot.name, "opponents": [rival.name], "rated": False}
    for _ in range(2):
        assert api["owner"].post("/api/challenges/", payload, format="json").status_code == 201
    refused = api["owner"].post("/api/challenges/", payload, format="json")
    assert refused.status_code == 429
    assert "quota is 2" in refused.json()["detail"]
    form = {"bot": bot.pk, "ruleset": "classic", "opponents": [rival.pk]}
    page = clients["owner"].post("/challenge/", form)
    assert page.status_code == 429
    assert b"quota is 2" in page.content
    assert Match.objects.count() == 2
    finish(Match.objects.first(), [1, 2])  # a played challenge frees its place
    assert api["owner"].post("/api/challenges/", payload, format="json").status_code == 201


def test_staff_adjust_one_users_quota(
    bot: Bot, rival: Bot, classic: RuleSet, owner: Any, settings: Any
) -> None:
    settings.UNO_ARENA_QUOTA_CHALLENGES = 1
    create_match(classic, [bot, rival], rated=False, created_by=owner)
    with pytest.raises(QuotaExceeded):
        create_match(classic, [bot, rival], rated=False, created_by=owner)
    Quota.objects.create(user=owner, challenges=3, note="runs a tournament")
    create_match(classic, [bot, rival], rated=False, created_by=owner)
    create_match(classic, [bot, rival], rated=False, created_by=owner)
    with pytest.raises(QuotaExceeded):
        create_match(classic, [bot, rival], rated=False, created_by=owner)


def test_the_version_test_quota_and_batch(owner: Any, bot: Bot, classic: RuleSet, settings: Any) -> None:
    from django.core.exceptions import ValidationError

    from tests.platform.factories import finish_smoke_test
    from versiontests.services import create_test

    settings.UNO_ARENA_QUOTA_VERSION_TESTS = 2
    settings.UNO_ARENA_QUOTA_TEST_BATCH = 5
    baseline = bot.active_version
    assert baseline is not None
    new = create_version(bot, "bot.py", BOT_SOURCE + b"# v2\n")
    finish_smoke_test(new)
    with pytest.raises(ValidationError, match="at most 5 pairs"):
        create_test(owner, new, baseline, classic, batch_pairs=100)
    for _ in range(2):
        create_test(owner, new, baseline, classic, batch_pairs=5)
    with pytest.raises(QuotaExceeded, match="2 version tests running"):
        create_test(owner, new, baseline, classic, batch_pairs=5)
    assert Match.objects.filter(origin=Origin.VERSIONTEST).count() == 10  # 2 tests x 5 pairs, no more


def test_the_smoke_test_quota_bounds_uploads(api: dict[str, Any], bot: Bot, settings: Any) -> None:
    settings.UNO_ARENA_QUOTA_SMOKE_TESTS = 2
    url = f"/api/bots/{bot.pk}/versions/"
    for k in range(2):
        upload = SimpleUploadedFile("bot.py", BOT_SOURCE + f"# {k}\n".encode())
        assert api["owner"].post(url, {"file": upload}, format="multipart").status_code == 201
    upload = SimpleUploadedFile("bot.py", BOT_SOURCE + b"# more\n")
    refused = api["owner"].post(url, {"file": upload}, format="multipart")
    assert refused.status_code == 429
    assert "waiting for their smoke test" in refused.json()["detail"]
    assert bot.versions.count() == 3


def test_the_bot_quota(api: dict[str, Any], clients: dict[str, Client], owner: Any, settings: Any) -> None:
    settings.UNO_ARENA_QUOTA_BOTS = 2
    assert api["owner"].post("/api/bots/", {"name": "first"}, format="json").status_code == 201
    assert api["owner"].post("/api/bots/", {"name": "second"}, format="json").status_code == 201
    assert api["owner"].post("/api/bots/", {"name": "third"}, format="json").status_code == 429
    page = clients["owner"].post("/bots/new/", {"name": "fourth", "language": "python", "is_active": "on"})
    assert page.status_code == 429
    assert Bot.objects.filter(owner=owner).count() == 2


def test_staff_and_the_example_bots_have_no_quota(staff: Any, classic: RuleSet, settings: Any) -> None:
    settings.UNO_ARENA_QUOTA_CHALLENGES = 0
    a, b = make_bot(staff, "staff-a"), make_bot(staff, "staff-b")
    assert create_match(classic, [a, b], rated=False, created_by=staff).status == MatchStatus.QUEUED


def test_the_top_up_plans_within_the_ladder_tasks_arguments(db: Any) -> None:
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    every, _ = IntervalSchedule.objects.get_or_create(every=30, period=IntervalSchedule.SECONDS)

    def task(name: str, kwargs: str, enabled: bool = True) -> PeriodicTask:
        return PeriodicTask.objects.create(
            name=name, task="ladder.tasks.matchmake", interval=every, kwargs=kwargs, enabled=enabled
        )

    PeriodicTask.objects.filter(task="ladder.tasks.matchmake").delete()  # the installed schedule
    assert dispatcher.matchmaking_schedule() == {}  # no task: no limits of its own
    one = task("one", '{"rulesets": ["classic-single"], "queued": 1}')
    assert dispatcher.matchmaking_schedule() == {"rulesets": ["classic-single"], "queued": 1}
    task("two", '{"rulesets": ["stacking", "classic-single"], "queued": 3}')
    assert dispatcher.matchmaking_schedule() == {"rulesets": ["classic-single", "stacking"], "queued": 3}
    off = task("off", '{"rulesets": ["seven-o"]}', enabled=False)
    assert dispatcher.matchmaking_schedule()["rulesets"] == ["classic-single", "stacking"]  # off: not counted
    off.enabled, off.kwargs = True, "not json"
    off.save()
    assert dispatcher.matchmaking_schedule() == {"queued": 3}  # one task names no rule set: all of them
    PeriodicTask.objects.update(enabled=False)
    assert dispatcher.matchmaking_schedule() is None  # staff paused the ladder
    one.enabled, one.kwargs = True, '["a list"]'
    one.save()
    assert dispatcher.matchmaking_schedule() == {}
