"""Quotas: how much queued work one user may have at once (defaults in ``scheduling.conf``, overrides per
user in the admin). Checked where the work is created, inside its transaction, with the user's row locked,
so two requests at once cannot both take the last place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from rest_framework import status
from rest_framework.exceptions import APIException

from scheduling.conf import QUOTA_KNOBS, Limits, default_limits
from scheduling.models import Quota

#: What each quota counts and how it is named in messages.
CHALLENGES = "challenges"
VERSION_TESTS = "version_tests"
SMOKE_TESTS = "smoke_tests"
BOTS = "bots"


class QuotaExceeded(APIException):
    """A user's quota is used up: HTTP 429 in the API, a form error on the pages."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_detail = "Your quota is used up; wait until some of your work is done."
    default_code = "quota_exceeded"


def limits_for(user: Any) -> Limits:
    """The user's quotas: the defaults, with the fields staff set in the user's ``Quota`` row."""
    limits = default_limits()
    override = Quota.objects.filter(user_id=getattr(user, "pk", 0) or 0).first()
    if override is None:
        return limits
    values = {field: getattr(override, field) for field in QUOTA_KNOBS}
    return Limits(**{field: getattr(limits, field) if v is None else v for field, v in values.items()})


def _in_use(user: Any) -> dict[str, Callable[[], QuerySet[Any]]]:
    from bots.models import Bot, BotVersion, SmokeStatus
    from matches.models import Match, MatchStatus, Origin
    from versiontests.models import TestStatus, VersionTest

    return {
        CHALLENGES: lambda: Match.objects.filter(
            created_by=user, origin=Origin.CHALLENGE, status__in=(MatchStatus.QUEUED, MatchStatus.RUNNING)
        ),
        VERSION_TESTS: lambda: VersionTest.objects.filter(created_by=user, status=TestStatus.RUNNING),
        SMOKE_TESTS: lambda: BotVersion.objects.filter(
            bot__owner=user, smoke_status__in=(SmokeStatus.PENDING, SmokeStatus.RUNNING)
        ),
        BOTS: lambda: Bot.objects.filter(owner=user),
    }


MESSAGES = {
    CHALLENGES: "You have {used} challenges queued or running (your quota is {limit}); "
    "wait until some are played.",
    VERSION_TESTS: "You have {used} version tests running (your quota is {limit}); "
    "wait for one to finish or cancel one.",
    SMOKE_TESTS: "{used} of your versions are waiting for their smoke test (your quota is {limit}); "
    "wait until they are tested.",
    BOTS: "You own {used} bots (your quota is {limit}).",
}


def exempt(user: Any) -> bool:
    """Staff and the site's own user (the example bots' owner) have no quotas."""
    return bool(
        getattr(user, "is_staff", False) or getattr(user, "username", None) == settings.UNO_ARENA_SYSTEM_USER
    )


def enforce(user: Any, quota: str) -> None:
    """Raise :class:`QuotaExceeded` unless ``user`` may add one more unit of ``quota``. Call inside the
    transaction that creates it: the user's row is locked until that transaction ends."""
    if user is None or not getattr(user, "is_authenticated", False) or exempt(user):
        return
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    limit = getattr(limits_for(user), quota)
    used = _in_use(user)[quota]().count()
    if used >= limit:
        raise QuotaExceeded(MESSAGES[quota].format(used=used, limit=limit))
