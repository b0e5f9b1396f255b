"""Creating versions (one transaction, nothing half stored) and managing a bot's active version."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Max

from bots.models import Bot, BotVersion, SmokeStatus
from bots.validation import validate_upload

log = logging.getLogger(__name__)


def create_version(
    bot: Bot, filename: str, data: bytes, entry_point: str = "", activate: bool = True
) -> BotVersion:
    """Validate an upload and store it as the bot's next version; enqueue its smoke test.

    Raises ``django.core.exceptions.ValidationError`` before anything is written. The version row
    and the bot's new active version are written in one transaction; the smoke test is queued
    only after that transaction commits.
    """
    checked = validate_upload(filename, data, entry_point, bot.language)
    with transaction.atomic():
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
        if activate or locked.active_version_id is None:
            locked.active_version = version
            locked.save(update_fields=["active_version"])
        transaction.on_commit(lambda: enqueue_smoke_test(version.pk))
    bot.active_version = locked.active_version
    return version


def enqueue_smoke_test(version_id: int) -> None:
    """Queue the sandbox smoke test of a version (never raises: a lost message is re-sent by the reaper)."""
    from bots.tasks import smoke_test_version

    try:
        smoke_test_version.delay(version_id)
    except Exception:  # the broker may be down; the reaper re-queues pending smoke tests
        log.exception("could not queue the smoke test of version %s", version_id)


def set_active_version(bot: Bot, version: BotVersion) -> None:
    """Make ``version`` (of this bot) the one that plays."""
    if version.bot_id != bot.pk:
        raise ValueError("that version belongs to another bot")
    bot.active_version = version
    bot.save(update_fields=["active_version"])


def reset_smoke(version: BotVersion) -> None:
    """Mark a version's smoke test as pending again (used before a re-run), with fresh attempts."""
    BotVersion.objects.filter(pk=version.pk).update(smoke_status=SmokeStatus.PENDING, smoke_attempts=0)
