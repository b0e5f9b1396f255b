"""Fake-free path: smoke tests and a rated match through the real referee and the `process` runner.

Skipped until ``arena.referee``, ``sandbox.get_runner`` and the example bots are all in the tree.
"""

from __future__ import annotations

import importlib.util
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


def _ready() -> str:
    if importlib.util.find_spec("arena.referee") is None:
        return "arena.referee is not written yet"
    import sandbox

    if not hasattr(sandbox, "get_runner"):
        return "sandbox.get_runner is not written yet"
    if len(list(EXAMPLES.glob("*.py"))) < 2:
        return "fewer than two example bots in bots_examples/"
    return ""


pytestmark = [pytest.mark.django_db, pytest.mark.skipif(bool(_ready()), reason=_ready() or "ready")]


def test_examples_pass_smoke_tests_and_play_a_rated_match(rulesets: None, settings: Any) -> None:
    settings.UNO_ARENA_RUNNER = "process"
    call_command("load_example_bots", dir=str(EXAMPLES), stdout=StringIO())
    bots = list(Bot.objects.filter(owner__username=settings.UNO_ARENA_SYSTEM_USER).order_by("name"))
    for bot in bots:
        assert bot.active_version is not None
        assert smoke_test_version.apply(args=[bot.active_version.pk]).get() == "passed", bot.name
    for bot in bots:
        bot.refresh_from_db()
        assert bot.active_version is not None
        assert bot.active_version.smoke_status == SmokeStatus.PASSED
        assert "PASSED" in bot.active_version.smoke_log
    match = create_match(RuleSet.objects.get(slug="classic-single"), bots[:2], rated=True, seed=11)
    assert run_match_task.apply(args=[match.pk]).get() == "finished"
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED, match.error
    assert match.decisions
    assert Replay.objects.filter(match=match).exists()
    assert RatingHistory.objects.filter(match=match).count() == 2
    assert run_match_task.apply(args=[match.pk]).get() == "skipped"


def test_broken_bot_fails_its_smoke_test(rulesets: None, owner: Any, settings: Any) -> None:
    from tests.platform.factories import make_bot

    settings.UNO_ARENA_RUNNER = "process"
    bot = make_bot(owner, "crasher", passed=False, source=b"import sys\nsys.exit(3)\n")
    assert bot.active_version is not None
    assert smoke_test_version.apply(args=[bot.active_version.pk]).get() == "failed"
    bot.active_version.refresh_from_db()
    assert bot.active_version.smoke_status == SmokeStatus.FAILED
    assert "FAULT" in bot.active_version.smoke_log or "could not run" in bot.active_version.smoke_log
