"""Celery task: smoke-test a new version in the sandbox before it may play rated games."""

from __future__ import annotations

import logging
import secrets
import traceback
from datetime import timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.utils import timezone

from bots.models import BotVersion, SmokeStatus

log = logging.getLogger(__name__)
#: The smoke test plays one short hand of this preset, two copies of the bot against each other.
SMOKE_RULESET = "classic-single"
SMOKE_TIME_LIMIT = 120
#: Runs of one version's smoke test the reaper starts at most (each lost with its worker) before failing it.
SMOKE_MAX_ATTEMPTS = 3


def smoke_test(version: BotVersion) -> tuple[bool, str]:
    """Play a one-hand match of the version against itself; pass if neither seat faulted.

    Returns (passed, log). Starting the bot, the handshake and every decision go through the same
    referee and sandbox as real matches.
    """
    from arena.engine.rules import preset
    from matches.play import play

    seed = secrets.randbelow(2**31)
    lines = [f"smoke test: {SMOKE_RULESET}, 2 seats, seed {seed}"]
    result = play(preset(SMOKE_RULESET), [version, version], seed)
    lines.append(f"decisions played: {result.decisions}")
    ok = result.decisions > 0
    for seat, fault in enumerate(result.faults):
        if fault is not None:
            ok = False
            lines.append(f"seat {seat}: FAULT {fault.kind} at decision {fault.decision}: {fault.message}")
            if fault.stderr_tail:
                lines.append(f"stderr:\n{fault.stderr_tail}")
    for seat, stderr in enumerate(result.stderr):
        if stderr.strip():
            lines.append(f"--- seat {seat} stderr (tail) ---\n{stderr[-4000:]}")
    lines.append("PASSED" if ok else "FAILED")
    return ok, "\n".join(lines)


@shared_task(
    bind=True,
    name="bots.tasks.smoke_test_version",
    acks_late=True,
    soft_time_limit=SMOKE_TIME_LIMIT,
    time_limit=SMOKE_TIME_LIMIT + 30,
)
def smoke_test_version(self: object, version_id: int) -> str:
    """Run the smoke test of a pending version and store the status and the log (idempotent).

    The version always ends ``passed`` or ``failed`` (or, if its worker dies, ``running`` until the
    reaper re-queues it, at most :data:`SMOKE_MAX_ATTEMPTS` runs in all): a log that cannot be stored
    fails the version with a short note instead (the bot's text is clean at the referee, so that is a
    bug, not something a bot can use to stay untested).
    """
    with transaction.atomic():
        version = BotVersion.objects.select_for_update().select_related("bot").filter(pk=version_id).first()
        if version is None or version.smoke_status != SmokeStatus.PENDING:
            return "skipped"
        version.smoke_status = SmokeStatus.RUNNING
        version.smoke_checked_at = timezone.now()
        version.smoke_attempts += 1
        version.save(update_fields=["smoke_status", "smoke_checked_at", "smoke_attempts"])
    try:
        ok, text = smoke_test(version)
    except SoftTimeLimitExceeded:
        ok, text = False, f"the smoke test took more than {SMOKE_TIME_LIMIT} s"
    except Exception:
        log.exception("smoke test of version %s crashed", version_id)
        ok, text = False, "the smoke test could not run:\n" + traceback.format_exc()
    from bots.services import record_smoke_result
    from scheduling.dispatcher import request_dispatch

    try:
        record_smoke_result(version_id, ok, text)
    except Exception as exc:  # DataError, an encoding error: whatever it is, the version is not left running
        log.exception("could not store the smoke test log of version %s", version_id)
        ok = False
        record_smoke_result(version_id, False, f"FAILED: the smoke test's log could not be stored ({exc})")
    request_dispatch()  # the slot is free: hand the next job to the workers at once
    return "passed" if ok else "failed"


def reap_smoke_tests() -> int:
    """Smoke tests stuck in running (worker died) go back to the scheduler, or fail once started
    :data:`SMOKE_MAX_ATTEMPTS` times without finishing; dispatched ones still pending long after (message
    lost) are sent again. Returns how many were sent again."""
    from bots.models import Bot
    from bots.services import enqueue_smoke_test

    cutoff = timezone.now() - timedelta(seconds=SMOKE_TIME_LIMIT * 3)
    stuck = BotVersion.objects.filter(smoke_status=SmokeStatus.RUNNING, smoke_checked_at__lt=cutoff)
    lost = stuck.filter(smoke_attempts__gte=SMOKE_MAX_ATTEMPTS)
    Bot.objects.filter(pending_version__in=lost).update(pending_version=None)  # a failed version never plays
    lost.update(
        smoke_status=SmokeStatus.FAILED,
        smoke_log=f"FAILED: the smoke test was started {SMOKE_MAX_ATTEMPTS} times and never finished "
        "(its worker was lost each time).",
        smoke_checked_at=timezone.now(),
    )
    stuck.update(smoke_status=SmokeStatus.PENDING, smoke_dispatched_at=None)
    stale = BotVersion.objects.filter(smoke_status=SmokeStatus.PENDING, smoke_dispatched_at__lt=cutoff)
    ids = list(stale.values_list("pk", flat=True)[:100])
    for version_id in ids:
        enqueue_smoke_test(version_id)
    return len(ids)
