"""Creating bots and versions (one transaction, nothing half stored) and managing a bot's active version.

A version becomes the active one only once its smoke test has passed: an upload (or "make active") of a
version still being tested makes it the bot's ``pending_version``, which :func:`record_smoke_result`
activates when the test passes and drops when it fails.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from bots.models import Bot, BotVersion, SmokeStatus
from bots.validation import validate_upload

log = logging.getLogger(__name__)


def create_bot(owner: Any, save: Any) -> Any:
    """Create a bot for ``owner`` with ``save()`` (a form's or serializer's), within the owner's bot
    quota (``scheduling.quotas.QuotaExceeded`` otherwise). Returns what ``save`` returns."""
    from scheduling.quotas import BOTS, enforce

    with transaction.atomic():
        enforce(owner, BOTS)
        return save()


def create_version(
    bot: Bot, filename: str, data: bytes, entry_point: str = "", activate: bool = True
) -> BotVersion:
    """Validate an upload and store it as the bot's next version; its smoke test is scheduled.

    Raises ``django.core.exceptions.ValidationError`` before anything is written, and
    ``scheduling.quotas.QuotaExceeded`` when the owner already has their quota of versions waiting for
    a smoke test. With ``activate`` (and for a bot's first version) the version becomes the active one
    once its smoke test passes. The scheduler hands the smoke test to the workers after the commit,
    ahead of matches.
    """
    from scheduling.dispatcher import dispatch_after_commit
    from scheduling.quotas import SMOKE_TESTS, enforce

    checked = validate_upload(filename, data, entry_point, bot.language)
    with transaction.atomic():
        enforce(bot.owner, SMOKE_TESTS)
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        number = (locked.versions.aggregate(n=Max("number"))["n"] or 0) + 1
        version = BotVersion.objects.create(
            bot=locked,
            number=number,
            filename=filename[-200:],
            entry_point=checked.entry_point,
            archive=checked.archive,
            sha256=checked.sha256,
            size=checked.size,
            file_count=len(checked.files),
        )
        if activate or (locked.active_version_id is None and locked.pending_version_id is None):
            locked.pending_version = version
            locked.save(update_fields=["pending_version"])
        dispatch_after_commit()
    bot.active_version = locked.active_version
    bot.pending_version = locked.pending_version
    return version


def enqueue_smoke_test(version_id: int, queue: str | None = None) -> None:
    """Send a dispatched smoke test to the workers, to ``queue`` (by default the smoke lane if a worker of
    it was seen lately, else the match processes' queue: ``scheduling.dispatcher``). Never raises: a lost
    message is re-sent by the reaper."""
    from bots.tasks import smoke_test_version
    from ladder.workers import MATCH_QUEUE, SMOKE_QUEUE, known_smoke_processes

    if queue is None:
        queue = SMOKE_QUEUE if known_smoke_processes() else MATCH_QUEUE
    try:
        smoke_test_version.apply_async((version_id,), queue=queue)
    except Exception:  # the broker may be down; the reaper re-queues pending smoke tests
        log.exception("could not queue the smoke test of version %s", version_id)


def set_active_version(bot: Bot, version: BotVersion) -> bool:
    """Make ``version`` (of this bot) the one that plays: at once if it passed its smoke test, once it
    passes if it is still being tested. Returns whether it is active now. Raises ``ValidationError`` for
    a version that failed its smoke test and ``ValueError`` for another bot's version."""
    if version.bot_id != bot.pk:
        raise ValueError("that version belongs to another bot")
    if version.smoke_status == SmokeStatus.FAILED:
        raise ValidationError(
            f"v{version.number} failed its smoke test and cannot become the active version."
        )
    with transaction.atomic():
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        if version.smoke_status == SmokeStatus.PASSED:
            locked.active_version, locked.pending_version = version, None
        else:
            locked.pending_version = version
        locked.save(update_fields=["active_version", "pending_version"])
    bot.active_version, bot.pending_version = locked.active_version, locked.pending_version
    return bot.active_version_id == version.pk


def record_smoke_result(version_id: int, passed: bool, text: str) -> bool:
    """Store a finished smoke test (only if it is still running) and, if it passed and the version is its
    bot's pending one, make it the active version; a failed pending version is dropped. Returns whether
    the result was stored."""
    with transaction.atomic():
        stored = BotVersion.objects.filter(pk=version_id, smoke_status=SmokeStatus.RUNNING).update(
            smoke_status=SmokeStatus.PASSED if passed else SmokeStatus.FAILED,
            smoke_log=text[-64 * 1024 :],
            smoke_checked_at=timezone.now(),
        )
        if stored:
            bot = Bot.objects.select_for_update().filter(pending_version_id=version_id).first()
            if bot is not None:
                if passed:
                    bot.active_version_id = version_id
                bot.pending_version = None
                bot.save(update_fields=["active_version", "pending_version"])
    return bool(stored)


def reset_smoke(version: BotVersion) -> None:
    """Mark a version's smoke test as pending again, with fresh attempts, to be scheduled anew (used before
    a re-run)."""
    BotVersion.objects.filter(pk=version.pk).update(
        smoke_status=SmokeStatus.PENDING, smoke_attempts=0, smoke_dispatched_at=None
    )
