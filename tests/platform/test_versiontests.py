"""Version tests: starting one, batches of unrated duplicate pairs, counting, SPRT verdicts, the live
JSON endpoint, cancelling; permissions for owner, other, anonymous and staff."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from bots.models import Bot, BotVersion, SmokeStatus
from bots.services import create_version
from matches import tasks as match_tasks
from matches.models import Match, MatchStatus
from ratings.models import Rating, RatingHistory
from rulesets.models import RuleSet
from tests.platform.factories import BOT_SOURCE, FakeResult
from tests.platform.ladder_support import fail_for_good, finish
from versiontests import services
from versiontests.models import TestMatch, VersionTest
from versiontests.models import TestStatus as Verdict

pytestmark = pytest.mark.django_db
WHO = ["owner", "other", "anon", "staff"]


@pytest.fixture
def web(clients: dict[str, Client], staff: Any) -> dict[str, Client]:
    staff_client = Client()
    staff_client.force_login(staff)
    return {**clients, "staff": staff_client}


@pytest.fixture
def v2(bot: Bot) -> BotVersion:
    """A second version of ``bot`` (the owner's), smoke test passed."""
    version = create_version(bot, "bot.py", BOT_SOURCE + b"\n# v2\n")
    BotVersion.objects.filter(pk=version.pk).update(smoke_status=SmokeStatus.PASSED)
    version.refresh_from_db()
    return version


def start(owner: Any, v2: BotVersion, classic: RuleSet, **kwargs: Any) -> VersionTest:
    baseline = services.previous_version(v2)
    assert baseline is not None
    return services.create_test(owner, v2, baseline, classic, **kwargs)


def pair(test: VersionTest, new_sum: int, base_sum: int, capture: Any) -> None:
    """Finish the test's next queued pair: the place sums of the duplicate container decide."""
    link = (
        TestMatch.objects.filter(test=test, match__status=MatchStatus.QUEUED)
        .order_by("batch", "index")
        .first()
    )
    assert link is not None
    container = {"format": "uno-arena-duplicate", "place_sums": [new_sum, base_sum], "games": []}
    places = [1, 2] if new_sum < base_sum else [2, 1] if new_sum > base_sum else [1, 1]
    with capture(execute=True):
        assert finish(link.match, places, replay=container)


def test_a_test_queues_unrated_duplicate_pairs(owner: Any, v2: BotVersion, classic: RuleSet) -> None:
    test = start(owner, v2, classic, batch_pairs=4)
    matches = list(Match.objects.filter(version_test__test=test))
    assert len(matches) == 4
    for match in matches:
        assert not match.rated
        assert match.duplicate
        assert list(match.participants.order_by("seat").values_list("bot_version_id", flat=True)) == [
            v2.pk,
            test.baseline_version_id,
        ]
    assert test.baseline_version.number == 1


def test_the_match_task_honours_unrated(
    owner: Any, v2: BotVersion, classic: RuleSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    def play(rules: Any, versions: Any, seed: int, duplicate: bool = False) -> FakeResult:
        assert duplicate
        return FakeResult(places=[[0], [1]], scores=[50, 0])

    monkeypatch.setattr(match_tasks, "play", play)
    test = start(owner, v2, classic, batch_pairs=2)
    for link in TestMatch.objects.filter(test=test):
        assert match_tasks.run_match_task.apply(args=[link.match_id]).get() == "finished"
    assert not Rating.objects.exists()
    assert not RatingHistory.objects.exists()
    assert not Match.objects.filter(
        version_test__test=test, participants__rating_after__isnull=False
    ).exists()


def test_pairs_are_counted_once_and_batches_follow(
    owner: Any, v2: BotVersion, classic: RuleSet, django_capture_on_commit_callbacks: Any
) -> None:
    test = start(owner, v2, classic, batch_pairs=2)
    pair(test, 2, 4, django_capture_on_commit_callbacks)  # new won both games: class 4
    pair(test, 3, 3, django_capture_on_commit_callbacks)  # split: class 2
    test.refresh_from_db()
    assert test.penta == [0, 0, 1, 0, 1]
    assert test.games == 4
    assert test.batches == 2  # the first batch is done: the second is queued
    assert TestMatch.objects.filter(test=test, counted=False).count() == 2
    counted = TestMatch.objects.filter(test=test, counted=True).first()
    assert counted is not None
    assert services.on_match_final(counted.match_id)  # a repeated notification changes nothing
    test.refresh_from_db()
    assert test.pairs == 2


def test_a_plain_result_counts_as_two_equal_games(owner: Any, v2: BotVersion, classic: RuleSet) -> None:
    test = start(owner, v2, classic, batch_pairs=1)
    link = TestMatch.objects.get(test=test)
    finish(link.match, [2, 1])  # no duplicate container: the baseline won
    services.on_match_final(link.match_id)
    test.refresh_from_db()
    assert test.penta == [1, 0, 0, 0, 0]


def test_a_clearly_better_version_is_accepted(
    owner: Any, v2: BotVersion, classic: RuleSet, django_capture_on_commit_callbacks: Any
) -> None:
    test = start(owner, v2, classic, elo0=0, elo1=50, batch_pairs=10)
    rng = random.Random(1)
    for _ in range(400):
        test.refresh_from_db()
        if not test.is_running:
            break
        r = rng.random()  # new wins a pair 55%, splits 35%, loses 10%
        pair(
            test, *((2, 4) if r < 0.55 else (3, 3) if r < 0.9 else (4, 2)), django_capture_on_commit_callbacks
        )
    test.refresh_from_db()
    assert test.status == Verdict.ACCEPTED
    assert test.llr >= test.result().upper
    assert test.finished_at is not None
    # What was still queued is dropped, not played.
    assert not Match.objects.filter(version_test__test=test, status=MatchStatus.QUEUED).exists()
    progress = test.progress()
    assert progress["elo_low"] > 0


def test_an_equal_version_is_rejected(
    owner: Any, v2: BotVersion, classic: RuleSet, django_capture_on_commit_callbacks: Any
) -> None:
    test = start(owner, v2, classic, elo0=0, elo1=50, batch_pairs=10)
    rng = random.Random(2)
    while True:
        test.refresh_from_db()
        if not test.is_running:
            break
        r = rng.random()
        pair(
            test, *((2, 4) if r < 0.3 else (3, 3) if r < 0.7 else (4, 2)), django_capture_on_commit_callbacks
        )
    assert test.status == Verdict.REJECTED


def test_the_game_limit_stops_a_test(
    owner: Any, v2: BotVersion, classic: RuleSet, django_capture_on_commit_callbacks: Any
) -> None:
    test = start(owner, v2, classic, max_games=20, batch_pairs=4)
    for _ in range(10):
        pair(test, 3, 3, django_capture_on_commit_callbacks)
    test.refresh_from_db()
    assert test.status == Verdict.LIMIT
    assert test.games == 20
    assert TestMatch.objects.filter(test=test).count() == 10  # never scheduled beyond the limit


def test_failing_matches_stop_the_test_with_an_error(
    owner: Any, v2: BotVersion, classic: RuleSet, django_capture_on_commit_callbacks: Any
) -> None:
    test = start(owner, v2, classic, batch_pairs=5)
    for link in TestMatch.objects.filter(test=test):
        with django_capture_on_commit_callbacks(execute=True):
            fail_for_good(link.match)
    test.refresh_from_db()
    assert test.failures == 5
    assert test.status == Verdict.ERROR


def test_sweep_counts_missed_pairs(owner: Any, v2: BotVersion, classic: RuleSet) -> None:
    test = start(owner, v2, classic, batch_pairs=2)
    for link in TestMatch.objects.filter(test=test):
        finish(link.match, [1, 2])  # notifications lost
    assert services.sweep_tests() == 1
    test.refresh_from_db()
    assert test.penta == [0, 0, 0, 0, 2]
    assert test.batches == 2


def test_create_test_rules(
    owner: Any, other: Any, bot: Bot, rival: Bot, v2: BotVersion, rulesets: None
) -> None:
    classic = RuleSet.objects.get(slug="classic")
    with pytest.raises(PermissionDenied):
        start(other, v2, classic)
    with pytest.raises(ValidationError, match="different version"):
        services.create_test(owner, v2, v2, classic)
    four = RuleSet.objects.create(slug="four-only", name="Four", options={}, min_players=4, max_players=4)
    with pytest.raises(ValidationError, match="two-player"):
        start(owner, v2, four)
    with pytest.raises(ValidationError, match="elo1"):
        start(owner, v2, classic, elo0=10, elo1=5)
    assert rival.active_version is not None
    test = services.create_test(owner, v2, rival.active_version, classic)  # against another bot
    assert test.baseline_version.bot == rival


# --- pages and permissions ------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
def test_start_page_permissions(
    web: dict[str, Client], bot: Bot, v2: BotVersion, classic: RuleSet, who: str
) -> None:
    client = web[who]
    form = client.get(f"/versiontests/new/?version={v2.pk}")
    assert form.status_code == (302 if who == "anon" else 200)
    data = {
        "new_version": v2.pk,
        "against": "previous",
        "ruleset": "classic",
        "elo0": "0",
        "elo1": "30",
        "max_games": "200",
        "batch_pairs": "5",
    }
    response = client.post("/versiontests/new/", data)
    started = VersionTest.objects.filter(new_version=v2).exists()
    assert started is (who in ("owner", "staff"))  # other users cannot pick someone else's version
    assert response.status_code == (302 if who in ("owner", "staff", "anon") else 200)


@pytest.mark.parametrize("who", WHO)
def test_live_page_json_and_cancel(
    web: dict[str, Client], owner: Any, v2: BotVersion, classic: RuleSet, who: str
) -> None:
    test = start(owner, v2, classic, batch_pairs=3)
    client = web[who]
    page = client.get(f"/versiontests/{test.pk}/")
    assert page.status_code == 200
    assert "progress.json" in page.content.decode()
    assert ("Cancel the test" in page.content.decode()) is (who in ("owner", "staff"))
    data = client.get(f"/versiontests/{test.pk}/progress.json").json()
    assert data["status"] == "running"
    assert data["games"] == 0
    assert data["lower"] == pytest.approx(-2.944, abs=1e-3)
    assert data["upper"] == pytest.approx(2.944, abs=1e-3)
    assert client.get("/versiontests/").status_code == 200
    response = client.post(f"/versiontests/{test.pk}/cancel/")
    expected = {"owner": 302, "staff": 302, "other": 403, "anon": 302}[who]
    assert response.status_code == expected
    test.refresh_from_db()
    assert (test.status == Verdict.CANCELLED) is (who in ("owner", "staff"))
    if who in ("owner", "staff"):
        assert not Match.objects.filter(version_test__test=test, status=MatchStatus.QUEUED).exists()


def test_progress_json_costs_one_query(
    client: Client, owner: Any, v2: BotVersion, classic: RuleSet, django_assert_num_queries: Any
) -> None:
    test = start(owner, v2, classic)
    with django_assert_num_queries(1):
        assert client.get(f"/versiontests/{test.pk}/progress.json").status_code == 200


def test_upload_then_test_flow(web: dict[str, Client], bot: Bot, classic: RuleSet) -> None:
    """An owner uploads a new version, then starts "new vs previous" from the link on its page."""
    client = web["owner"]
    upload = SimpleUploadedFile("bot.py", BOT_SOURCE + b"\n# better\n")
    assert client.post(f"/bots/{bot.pk}/upload/", {"file": upload, "activate": "on"}).status_code == 302
    new = BotVersion.objects.get(bot=bot, number=2)
    link = f"/versiontests/new/?version={new.pk}"
    assert link in client.get(f"/bots/{bot.pk}/v/2/").content.decode()
    assert link not in web["other"].get(f"/bots/{bot.pk}/v/2/").content.decode()
    form = client.get(link).content.decode()
    assert f'value="{new.pk}" selected' in form
