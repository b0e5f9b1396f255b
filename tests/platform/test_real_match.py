"""Fake-free path in-process: smoke tests and a rated match through the real referee, the example bots
and the ``process`` runner (the same path under a real worker, Redis and bwrap is
``test_worker_integration.py``)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from bots.models import Bot, SmokeStatus
from bots.tasks import smoke_test_version
from matches.models import MatchStatus, Replay
from matches.services import create_match
from matches.tasks import run_match_task
from ratings.models import RatingHistory
from rulesets.models import RuleSet

EXAMPLES = Path(__file__).resolve().parents[2] / "bots_examples"

pytestmark = pytest.mark.django_db


def test_examples_pass_smoke_tests_and_play_a_rated_match(rulesets: None, settings: Any) -> None:
    settings.UNO_ARENA_RUNNER = "process"
    call_command("load_example_bots", dir=str(EXAMPLES), stdout=StringIO())
    bots = list(Bot.objects.filter(owner__username=settings.UNO_ARENA_SYSTEM_USER).order_by("name"))
    names = [b.name for b in bots]  # not the helper, the template or the search bot's module
    assert names == ["greedy-bot", "random-bot", "search-100ms", "search-10ms", "search-1s", "strategist"]
    for bot in bots:
        assert bot.active_version is None
        assert bot.pending_version is not None
        assert smoke_test_version.apply(args=[bot.pending_version.pk]).get() == "passed", bot.name
    for bot in bots:
        bot.refresh_from_db()
        assert bot.active_version is not None
        assert bot.active_version.smoke_status == SmokeStatus.PASSED
        assert "PASSED" in bot.active_version.smoke_log
    match = create_match(RuleSet.objects.get(slug="classic-single"), bots, rated=True, seed=11)
    assert run_match_task.apply(args=[match.pk]).get() == "finished"
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED, match.error
    assert match.decisions
    assert Replay.objects.filter(match=match).exists()
    assert RatingHistory.objects.filter(match=match).count() == len(bots)
    assert not any(p.fault_kind for p in match.participants.all())
    assert run_match_task.apply(args=[match.pk]).get() == "skipped"


def test_broken_bot_fails_its_smoke_test(rulesets: None, owner: Any, settings: Any) -> None:
    from tests.platform.factories import make_bot

    settings.UNO_ARENA_RUNNER = "process"
    bot = make_bot(owner, "crasher", passed=False, source=b"import sys\nsys.exit(3)\n")
    version = bot.pending_version
    assert version is not None
    assert smoke_test_version.apply(args=[version.pk]).get() == "failed"
    version.refresh_from_db()
    assert version.smoke_status == SmokeStatus.FAILED
    assert "FAULT" in version.smoke_log or "could not run" in version.smoke_log
    bot.refresh_from_db()
    assert bot.active_version is None
    assert bot.pending_version is None


def test_the_factory_bot_passes_its_smoke_test(rulesets: None, owner: Any, settings: Any) -> None:
    """``factories.BOT_SOURCE`` speaks the real protocol (the fakes elsewhere rely on that)."""
    from tests.platform.factories import make_bot

    settings.UNO_ARENA_RUNNER = "process"
    bot = make_bot(owner, "plain", passed=False)
    assert bot.pending_version is not None
    assert smoke_test_version.apply(args=[bot.pending_version.pk]).get() == "passed"
    bot.refresh_from_db()
    assert bot.active_version is not None
