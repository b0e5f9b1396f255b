"""Fixtures for the platform tests: users (owner, other, anonymous), rule sets, bots, matches.

Like healthchecks' owner/member/outsider set: every permission test runs each view as the bot's
``owner``, ``other`` (a logged-in stranger) and ``anon`` (not logged in).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from bots.models import Bot
from matches.models import Match
from rulesets.engine import sync_presets
from rulesets.models import RuleSet
from tests.platform.factories import make_bot
from tests.platform.live_support import celery_worker, live_services  # noqa: F401  (fixtures)


@pytest.fixture(autouse=True)
def _clear_cache() -> None:
    cache.clear()


@pytest.fixture
def rulesets(db: Any) -> None:
    """Every engine preset as a rule set row."""
    sync_presets()


@pytest.fixture
def classic(rulesets: None) -> RuleSet:
    """The classic rule set."""
    return RuleSet.objects.get(slug="classic")


@pytest.fixture
def owner(django_user_model: Any) -> Any:
    """The owner of ``bot``."""
    return django_user_model.objects.create_user("owner", password="pw-owner-123")


@pytest.fixture
def other(django_user_model: Any) -> Any:
    """A logged-in user who owns nothing of interest."""
    return django_user_model.objects.create_user("other", password="pw-other-123")


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    """A staff user."""
    return django_user_model.objects.create_user("staff", password="pw-staff-123", is_staff=True)


@pytest.fixture
def bot(owner: Any) -> Bot:
    """The owner's bot."""
    return make_bot(owner, "ownbot")


@pytest.fixture
def rival(other: Any) -> Bot:
    """The other user's bot."""
    return make_bot(other, "rivalbot")


@pytest.fixture
def match(classic: RuleSet, bot: Bot, rival: Bot, owner: Any) -> Match:
    """A queued rated match between ``bot`` and ``rival``."""
    from matches.services import create_match

    return create_match(classic, [bot, rival], rated=True, created_by=owner, seed=7)


@pytest.fixture
def clients(owner: Any, other: Any) -> dict[str, Client]:
    """Web clients logged in as the owner, the other user, and anonymous."""
    result = {"owner": Client(), "other": Client(), "anon": Client()}
    result["owner"].force_login(owner)
    result["other"].force_login(other)
    return result


@pytest.fixture
def api(owner: Any, other: Any) -> dict[str, APIClient]:
    """API clients with token auth as the owner, the other user, and anonymous."""
    result = {"owner": APIClient(), "other": APIClient(), "anon": APIClient()}
    for name, user in (("owner", owner), ("other", other)):
        token, _ = Token.objects.get_or_create(user=user)
        result[name].credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return result
