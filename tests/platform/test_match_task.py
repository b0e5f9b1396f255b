"""The match task: one transaction, idempotent, time limits, reaper (referee faked here)."""

from __future__ import annotations

import gzip
import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from matches import services, tasks
from matches.models import Match, MatchStatus, Replay
from ratings.models import Rating, RatingHistory
from tests.platform.factories import FakeFault, FakeResult

pytestmark = pytest.mark.django_db


@pytest.fixture
def fake_play(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Replace the referee with a fake that seat 1 wins; returns the list of calls."""
    calls: list[Any] = []

    def play(rules: Any, versions: Any, seed: int, duplicate: bool = False) -> FakeResult:
        calls.append((rules.name, [v.pk for v in versions], seed))
        return FakeResult(places=[[1], [0]], scores=[0, 120], faults=[FakeFault(), None], stderr=["err0", ""])

    monkeypatch.setattr(tasks, "play", play)
    return calls


def test_task_stores_results_replay_and_ratings(match: Match, fake_play: list[Any]) -> None:
    assert tasks.run_match_task.apply(args=[match.pk]).get() == "finished"
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.attempts == 1
    assert match.decisions == 42
    assert fake_play == [("classic", [p.bot_version_id for p in match.participants.order_by("seat")], 7)]
    seats = list(match.participants.order_by("seat"))
    assert [s.place for s in seats] == [2, 1]
    assert [s.score for s in seats] == [0, 120]
    assert seats[0].fault_kind == "timeout"
    assert "Traceback: secret" in seats[0].fault_detail
    assert seats[0].stderr == "err0"
    assert seats[0].rating_before == 1500
    assert seats[0].rating_after == pytest.approx(1484)
    assert seats[1].rating_after == pytest.approx(1516)
    replay = Replay.objects.get(match=match)
    assert json.loads(gzip.decompress(bytes(replay.data)))["format"] == 1
    assert RatingHistory.objects.filter(match=match).count() == 2


def test_task_run_twice_counts_once(match: Match, fake_play: list[Any]) -> None:
    tasks.run_match_task.apply(args=[match.pk])
    assert tasks.run_match_task.apply(args=[match.pk]).get() == "skipped"
    assert len(fake_play) == 1
    assert RatingHistory.objects.count() == 2
    assert set(Rating.objects.values_list("games", flat=True)) == {1}


def test_stale_attempt_cannot_record(match: Match) -> None:
    claimed = services.claim(match.pk)
    assert claimed is not None
    # The reaper gives the match to another worker (attempt 2) while the first is still playing.
    assert services.fail(match.pk, claimed.attempts, "reaped", retry=True) == MatchStatus.QUEUED
    second = services.claim(match.pk)
    assert second is not None
    assert second.attempts == 2
    result = FakeResult(places=[[0], [1]], scores=[50, 0])
    assert services.record_result(match.pk, 1, result) is False  # the zombie's result is dropped
    assert services.record_result(match.pk, 2, result) is True
    assert services.record_result(match.pk, 2, result) is False  # and never twice
    assert RatingHistory.objects.count() == 2


def test_unrated_match_leaves_ratings_alone(classic: Any, bot: Any, rival: Any, fake_play: list[Any]) -> None:
    match = services.create_match(classic, [bot, rival], rated=False)
    tasks.run_match_task.apply(args=[match.pk])
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert not Rating.objects.exists()
    assert match.participants.filter(rating_after__isnull=False).count() == 0


def test_referee_error_retries_then_fails(match: Match, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("sandbox exploded")

    monkeypatch.setattr(tasks, "play", broken)
    sent: list[int] = []
    monkeypatch.setattr(services, "enqueue_match", sent.append)
    for attempt in range(1, 4):
        tasks.run_match_task.apply(args=[match.pk])
        match.refresh_from_db()
        assert match.attempts == attempt
    assert match.status == MatchStatus.FAILED
    assert "sandbox exploded" in match.error
    assert not RatingHistory.objects.exists()


def test_soft_time_limit_marks_failed(match: Match, monkeypatch: pytest.MonkeyPatch) -> None:
    from celery.exceptions import SoftTimeLimitExceeded

    def slow(*args: Any, **kwargs: Any) -> None:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(tasks, "play", slow)
    tasks.run_match_task.apply(args=[match.pk])
    match.refresh_from_db()
    assert match.status == MatchStatus.FAILED
    assert "time limit" in match.error


def test_task_has_time_limits() -> None:
    assert tasks.run_match_task.time_limit is not None
    assert tasks.run_match_task.soft_time_limit is not None
    assert tasks.run_match_task.soft_time_limit < tasks.run_match_task.time_limit
    assert tasks.run_match_task.acks_late


def test_reaper_requeues_then_fails_dead_matches(
    match: Match, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(services, "enqueue_match", sent.append)
    long_ago = timezone.now() - timedelta(seconds=settings.UNO_ARENA_REAP_AFTER + 60)
    for expected in ("requeued", "requeued", "failed"):
        assert services.claim(match.pk) is not None
        Match.objects.filter(pk=match.pk).update(started_at=long_ago)  # its worker died
        counts = services.reap_stale()
        assert counts[expected] == 1
    match.refresh_from_db()
    assert match.status == MatchStatus.FAILED
    assert match.attempts == 3


def test_reaper_leaves_fresh_running_matches(match: Match) -> None:
    services.claim(match.pk)
    assert services.reap_stale() == {"requeued": 0, "failed": 0, "resent": 0}
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING


def test_ratings_apply_in_finish_order(classic: Any, bot: Any, rival: Any, fake_play: list[Any]) -> None:
    first = services.create_match(classic, [bot, rival], rated=True)
    second = services.create_match(classic, [rival, bot], rated=True)
    tasks.run_match_task.apply(args=[second.pk])  # finishes first
    tasks.run_match_task.apply(args=[first.pk])
    history = list(RatingHistory.objects.filter(rating__bot=bot).order_by("id"))
    assert [h.match_id for h in history] == [second.pk, first.pk]
    assert history[1].elo_before == pytest.approx(history[0].elo_after)
    rating = Rating.objects.get(bot=bot, ruleset=classic)
    assert rating.games == 2
    assert rating.elo == pytest.approx(history[1].elo_after)


def test_rating_history_is_immutable(match: Match, fake_play: list[Any]) -> None:
    from ratings.models import ImmutableError

    tasks.run_match_task.apply(args=[match.pk])
    row = RatingHistory.objects.first()
    assert row is not None
    row.elo_after = 9999
    with pytest.raises(ImmutableError):
        row.save()
    with pytest.raises(ImmutableError):
        row.delete()


def test_match_creation_rules(classic: Any, bot: Any, rival: Any, owner: Any) -> None:
    from django.core.exceptions import ValidationError

    from bots.models import Bot, BotVersion, SmokeStatus
    from tests.platform.factories import make_bot

    with pytest.raises(ValidationError, match="one seat"):
        services.create_match(classic, [bot, bot], rated=True)
    with pytest.raises(ValidationError, match="players"):
        services.create_match(classic, [bot], rated=True)
    pending = make_bot(owner, "pendingbot", passed=False)
    with pytest.raises(ValidationError, match="not active or has no version"):  # active once it passes
        services.create_match(classic, [bot, pending], rated=False)
    # An active version still being tested (its smoke test re-run, or from before that rule) plays unrated.
    Bot.objects.filter(pk=pending.pk).update(active_version=pending.pending_version)
    pending.refresh_from_db()
    with pytest.raises(ValidationError, match="smoke test"):
        services.create_match(classic, [bot, pending], rated=True)
    assert services.create_match(classic, [bot, pending], rated=False).status == MatchStatus.QUEUED
    BotVersion.objects.filter(pk=pending.active_version_id).update(smoke_status=SmokeStatus.FAILED)
    pending.refresh_from_db()
    with pytest.raises(ValidationError, match="failed"):
        services.create_match(classic, [bot, pending], rated=False)
    rival.is_active = False
    rival.save()
    with pytest.raises(ValidationError, match="not active"):
        services.create_match(classic, [bot, rival], rated=False)
