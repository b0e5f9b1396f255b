"""A result is always recorded, and a bot's misbehaviour only ever counts against that bot (issue 9).

The real referee and the ``process`` runner in-process, on PostgreSQL (which refuses NUL in text: the
bug this guards against), plus the fallbacks of ``matches.services.store_result`` and the smoke test
for a result that still cannot be stored, and the reaper's bounded attempts.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from bots.models import BotVersion, SmokeStatus
from bots.tasks import SMOKE_MAX_ATTEMPTS, reap_smoke_tests, smoke_test_version
from matches import services, tasks
from matches.models import Match, MatchStatus
from matches.services import create_match
from ratings.models import Rating, RatingHistory
from rulesets.models import RuleSet
from tests.fuzz_bot import FIXED_PLANS, fuzz_bot_source
from tests.platform.factories import FakeFault, FakeResult, make_bot
from tests.platform.live_support import require_postgres
from viewer.models import DecisionLog

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

#: Plays the first legal action, and writes a NUL byte to stderr at every message (issue 9, item 1).
NUL_BOT = b"""import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    sys.stderr.write("nul:\\x00 esc:\\x1b[2J\\n")
    sys.stderr.flush()
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "nul"}), flush=True)
    elif msg["type"] == "request":
        print(json.dumps({"type": "action", "id": msg["id"], "action": msg["legal"][0]}), flush=True)
    elif msg["type"] == "match_end":
        break
"""


@pytest.fixture
def process_runner(settings: Any) -> None:
    settings.UNO_ARENA_RUNNER = "process"


def test_a_bot_writing_nul_on_stderr_is_recorded_finished(
    rulesets: None, owner: Any, other: Any, process_runner: None
) -> None:
    require_postgres()
    nul = make_bot(owner, "nul-bot", passed=False, source=NUL_BOT)
    rival = make_bot(other, "rival")
    assert nul.pending_version is not None
    assert smoke_test_version.apply(args=[nul.pending_version.pk]).get() == "passed"
    version = BotVersion.objects.get(pk=nul.pending_version.pk)
    assert version.smoke_status == SmokeStatus.PASSED
    assert "nul:\\x00 esc:\\x1b[2J" in version.smoke_log

    nul.refresh_from_db()
    match = create_match(RuleSet.objects.get(slug="classic-single"), [nul, rival], rated=True, seed=3)
    assert tasks.run_match_task.apply(args=[match.pk]).get() == "finished"
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.error == ""
    seat = match.participants.get(bot=nul)
    assert seat.fault_kind == ""  # stderr is the bot's own business: no fault, and the result counts
    assert "nul:\\x00 esc:\\x1b[2J" in seat.stderr
    assert "\x00" not in seat.stderr
    assert RatingHistory.objects.filter(match=match).count() == 2
    rows = DecisionLog.objects.get(participant=seat).rows()
    assert rows
    assert all("\x00" not in text and "\x1b" not in text for *_, text in rows)


def test_a_faulted_bot_writing_nul_everywhere_loses_and_the_match_counts(
    rulesets: None, owner: Any, other: Any, process_runner: None
) -> None:
    require_postgres()
    fuzz = make_bot(owner, "fuzz", source=fuzz_bot_source(FIXED_PLANS["nul-on-stderr"]))
    rival = make_bot(other, "rival")
    match = create_match(RuleSet.objects.get(slug="classic-single"), [fuzz, rival], rated=True, seed=4)
    assert tasks.run_match_task.apply(args=[match.pk]).get() == "finished"
    seats = {p.bot_id: p for p in Match.objects.get(pk=match.pk).participants.all()}
    assert seats[fuzz.pk].fault_kind == "invalid_json"
    assert (seats[fuzz.pk].place, seats[rival.pk].place) == (2, 1)
    assert "\\x00" in seats[fuzz.pk].fault_detail
    assert seats[fuzz.pk].rating_after < seats[fuzz.pk].rating_before


#: Plays the first legal action after 0.3 s of "thought" at every request: always within the 1 s allowance.
SLOW_BOT = b"""import json, sys, time
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "slow"}), flush=True)
    elif msg["type"] == "request":
        time.sleep(0.3)
        print(json.dumps({"type": "action", "id": msg["id"], "action": msg["legal"][0]}), flush=True)
    elif msg["type"] == "match_end":
        break
"""


def test_a_bot_that_thinks_out_its_game_time_loses_and_the_match_counts(
    rulesets: None, owner: Any, other: Any, process_runner: None, settings: Any
) -> None:
    """It never uses its bank, but at 0.3 s a decision its share of the match's time limit, here
    (62 s - 60 s) / 2 = 1 s, is gone after a few decisions: it is faulted, not the match."""
    require_postgres()
    settings.UNO_ARENA_MATCH_TIME_LIMIT = 62
    slow = make_bot(owner, "slow", source=SLOW_BOT)
    rival = make_bot(other, "rival")
    match = create_match(RuleSet.objects.get(slug="classic-single"), [slow, rival], rated=True, seed=4)
    assert tasks.run_match_task.apply(args=[match.pk]).get() == "finished"
    seats = {p.bot_id: p for p in Match.objects.get(pk=match.pk).participants.all()}
    assert seats[slow.pk].fault_kind == "timeout"
    assert "thinking time for the game (1.0 s) ran out" in seats[slow.pk].fault_detail
    assert (seats[slow.pk].place, seats[rival.pk].place) == (2, 1)
    assert seats[rival.pk].fault_kind == ""
    assert seats[slow.pk].rating_after < seats[slow.pk].rating_before


def _raw_result(text: str) -> FakeResult:
    """A result holding raw text, as if a path had bypassed the referee's boundary (a bug)."""
    return FakeResult(
        places=[[1], [0]],
        scores=[0, 50],
        faults=[FakeFault(kind="crash", message=f"quoted {text}", stderr_tail=text), None],
        stderr=[text, "fine"],
    )


@pytest.mark.parametrize("raw", ["nul \x00 byte", "lone \ud800 surrogate"], ids=["nul", "surrogate"])
def test_a_result_that_cannot_be_stored_is_stored_without_the_bots_text(
    match: Match, monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    if "\x00" in raw:
        require_postgres()  # SQLite stores NUL
    monkeypatch.setattr(tasks, "play", lambda *a, **k: _raw_result(raw))
    assert tasks.run_match_task.apply(args=[match.pk]).get() == "finished"
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert "Stored without the bots' text" in match.error
    seats = list(match.participants.order_by("seat"))
    assert [s.place for s in seats] == [2, 1]
    assert seats[0].fault_kind == "crash"  # the fault and the loss count
    assert seats[0].stderr == ""
    assert "not stored" in seats[0].fault_detail
    assert RatingHistory.objects.filter(match=match).count() == 2
    assert seats[0].rating_after is not None
    assert seats[0].rating_before is not None
    assert seats[0].rating_after < seats[0].rating_before


def test_a_result_that_cannot_be_stored_at_all_fails_the_match_for_good(
    match: Match, monkeypatch: pytest.MonkeyPatch, staff: Any, owner: Any, settings: Any
) -> None:
    def broken(*args: Any) -> None:
        raise RuntimeError("the ratings table is broken")

    monkeypatch.setattr(tasks, "play", lambda *a, **k: _raw_result("fine"))
    monkeypatch.setattr(services, "apply_match", broken)
    assert tasks.run_match_task.apply(args=[match.pk]).get() == "failed"
    match.refresh_from_db()
    assert match.status == MatchStatus.FAILED  # not running, not re-queued: it would fail again
    assert match.attempts == 1
    assert "the ratings table is broken" in match.error
    assert not RatingHistory.objects.filter(match=match).exists()
    assert not Rating.objects.filter(games__gt=0).exists()  # nothing half-stored
    # The reaper leaves a failed match alone.
    settings.UNO_ARENA_REAP_AFTER = 0
    assert services.reap_stale(now=timezone.now() + timedelta(hours=1)) == {
        "requeued": 0,
        "failed": 0,
        "resent": 0,
    }
    # Staff see the error on the match page; the bot's owner sees only that it failed.
    pages = {}
    for name, user in (("staff", staff), ("owner", owner)):
        client = Client()
        client.force_login(user)
        pages[name] = client.get(match.get_absolute_url()).content.decode()
    assert "the ratings table is broken" in pages["staff"]
    assert "This match failed after 1 attempt" in pages["owner"]
    assert "the ratings table is broken" not in pages["owner"]


def test_a_smoke_log_that_cannot_be_stored_fails_the_version(
    owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bots.tasks

    bot = make_bot(owner, "raw", passed=False)
    assert bot.pending_version is not None
    monkeypatch.setattr(bots.tasks, "smoke_test", lambda version: (True, "PASSED \ud800"))
    assert smoke_test_version.apply(args=[bot.pending_version.pk]).get() == "failed"
    version = BotVersion.objects.get(pk=bot.pending_version.pk)
    assert version.smoke_status == SmokeStatus.FAILED  # not left running for the reaper to loop on
    assert "could not be stored" in version.smoke_log
    assert version.smoke_attempts == 1


def test_the_reaper_gives_up_on_a_smoke_test_lost_too_often(
    owner: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    import bots.services

    sent: list[int] = []
    monkeypatch.setattr(bots.services, "enqueue_smoke_test", lambda pk, queue=None: sent.append(pk))
    long_ago = timezone.now() - timedelta(hours=1)
    versions = {}
    for attempts in (1, SMOKE_MAX_ATTEMPTS):
        bot = make_bot(owner, f"lost-{attempts}", passed=False)
        assert bot.pending_version is not None
        BotVersion.objects.filter(pk=bot.pending_version.pk).update(
            smoke_status=SmokeStatus.RUNNING,
            smoke_checked_at=long_ago,
            smoke_attempts=attempts,
            created_at=long_ago,
        )
        versions[attempts] = bot.pending_version.pk
    assert reap_smoke_tests() == 0  # nothing re-sent blindly: the lost one goes back to the scheduler
    retried = BotVersion.objects.get(pk=versions[1])
    given_up = BotVersion.objects.get(pk=versions[SMOKE_MAX_ATTEMPTS])
    assert retried.smoke_status == SmokeStatus.PENDING
    assert retried.smoke_dispatched_at is None
    from scheduling.dispatcher import dispatch

    with django_capture_on_commit_callbacks(execute=True):
        dispatch()
    assert sent == [versions[1]]  # handed to the workers again, first (a smoke test)
    assert given_up.smoke_status == SmokeStatus.FAILED
    assert "never finished" in given_up.smoke_log
    # A version given up on is not run again.
    assert smoke_test_version.apply(args=[versions[SMOKE_MAX_ATTEMPTS]]).get() == "skipped"
