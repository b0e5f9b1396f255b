"""The match life cycle: create, claim, record the result (one transaction), fail, reap."""

from __future__ import annotations

import copy
import dataclasses
import logging
import secrets
import traceback
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from bots.models import Bot, BotVersion, SmokeStatus
from matches.models import Match, MatchStatus, Origin, Participant, Replay
from ratings.services import apply_match
from rulesets.models import RuleSet
from viewer.services import store_decision_logs

log = logging.getLogger(__name__)
MAX_TEXT = 64 * 1024
#: A table has at most 10 seats (the engine's limit): a challenger's bot and 9 opponents.
MAX_OPPONENTS = 9


def create_match(
    ruleset: RuleSet,
    bots: Sequence[Bot],
    rated: bool,
    created_by: Any = None,
    seed: int | None = None,
    duplicate: bool = False,
    origin: str = Origin.CHALLENGE,
) -> Match:
    """Queue a match between the bots' active versions, seated in the given order; the scheduler hands
    it to the workers (``scheduling.dispatcher``).

    Raises ``ValidationError`` if the table is not allowed: player count outside the rule set's
    range, an inactive bot or one without a version, a version that failed its smoke test, or
    (rated) a version that has not passed it yet or a bot taking two seats; and
    ``scheduling.quotas.QuotaExceeded`` when ``created_by`` has used up their challenge quota.
    """
    from scheduling.dispatcher import dispatch_after_commit
    from scheduling.quotas import CHALLENGES, enforce

    if not ruleset.is_active:
        raise ValidationError(f"The rule set {ruleset.slug} is not active.")
    if not ruleset.min_players <= len(bots) <= ruleset.max_players:
        raise ValidationError(
            f"{ruleset.slug} is played by {ruleset.min_players} to {ruleset.max_players} players, "
            f"not {len(bots)}."
        )
    if rated and len({bot.pk for bot in bots}) != len(bots):
        raise ValidationError("A bot may take only one seat in a rated match.")
    versions: list[BotVersion] = []
    for bot in bots:
        version = bot.active_version
        if not bot.is_active or version is None:
            raise ValidationError(f"{bot.name} is not active or has no version.")
        if version.smoke_status == SmokeStatus.FAILED:
            raise ValidationError(f"{bot.name} v{version.number} failed its smoke test.")
        if rated and version.smoke_status != SmokeStatus.PASSED:
            raise ValidationError(
                f"{bot.name} v{version.number} has not passed its smoke test yet (rated match)."
            )
        versions.append(version)
    with transaction.atomic():
        if origin == Origin.CHALLENGE:
            enforce(created_by, CHALLENGES)
        match = Match.objects.create(
            ruleset=ruleset,
            rated=rated,
            duplicate=duplicate,
            created_by=created_by,
            origin=origin,
            seed=seed if seed is not None else secrets.randbelow(2**31),
        )
        Participant.objects.bulk_create(
            Participant(match=match, seat=seat, bot=bot, bot_version=version)
            for seat, (bot, version) in enumerate(zip(bots, versions, strict=True))
        )
        dispatch_after_commit()
    return match


def enqueue_match(match_id: int) -> None:
    """Send a dispatched match to the ``matches`` queue (a lost message is re-sent by the reaper)."""
    from matches.tasks import run_match_task

    try:
        games = series_games(match_id)
        if games > 1:  # one job plays every game: its time limits grow with them
            limit = settings.UNO_ARENA_MATCH_TIME_LIMIT * games
            run_match_task.apply_async(args=[match_id], soft_time_limit=limit - 30, time_limit=limit)
        else:
            run_match_task.delay(match_id)
    except Exception:
        log.exception("could not queue match %s", match_id)


def claim(match_id: int, worker: str = "", task_id: str = "") -> Match | None:
    """Move a queued match to running and count the attempt; ``None`` if it is not queued (one match
    alone; the match task uses :func:`claim_job`, which also brings the rest of a series).

    This is the idempotency gate: a redelivered task finds the match running, finished or failed
    and does nothing.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != MatchStatus.QUEUED:
            return None
        _mark_running(match, timezone.now(), worker, task_id)
    return match


def _mark_running(match: Match, now: Any, worker: str, task_id: str) -> None:
    """Move a claimed, locked match to running and count the attempt (one save: its post_save hooks,
    e.g. the bot page cache, see the claim)."""
    match.status = MatchStatus.RUNNING
    match.started_at = now
    match.attempts += 1
    match.worker = worker[:200]
    match.task_id = task_id[:100]
    match.error = ""
    match.save(update_fields=["status", "started_at", "attempts", "worker", "task_id", "error"])


def series_games(match_id: int) -> int:
    """How many games of the match's series are still queued (1 for a match of its own)."""
    series = Match.objects.filter(pk=match_id).values_list("series", flat=True).first()
    if series is None:
        return 1
    return max(1, Match.objects.filter(series=series, status=MatchStatus.QUEUED).count())


def claim_job(match_id: int, worker: str = "", task_id: str = "") -> list[Match]:
    """Claim a job: the match, and if it is a game of a series, every other game of that series handed
    to the workers and still queued (in id order, the order they are played). Each claimed match moves to
    running and counts an attempt; an empty list if ``match_id`` is not queued (a redelivered message)."""
    with transaction.atomic():
        head = Match.objects.select_for_update().filter(pk=match_id).first()
        if head is None or head.status != MatchStatus.QUEUED:
            return []
        members = [head]
        if head.series is not None:
            members = list(
                Match.objects.select_for_update()
                .filter(series=head.series, status=MatchStatus.QUEUED)
                .filter(Q(pk=match_id) | Q(dispatched_at__isnull=False))
                .order_by("id")
            )
        now = timezone.now()
        for match in members:  # one save each (a series has a handful)
            _mark_running(match, now, worker, task_id)
    return members


def still_running(match_ids: Sequence[int]) -> None:
    """Mark the games of a series still to be played as started now, so that the reaper (which re-queues
    matches running longer than ``UNO_ARENA_REAP_AFTER``) leaves a long, live series alone."""
    if match_ids:
        Match.objects.filter(pk__in=list(match_ids), status=MatchStatus.RUNNING).update(
            started_at=timezone.now()
        )


def note_timings(match_id: int, timings: dict[str, Any]) -> None:
    """Keep where a match's time went (``Match.timings``, seconds; ``docs/throughput.md``)."""
    Match.objects.filter(pk=match_id).update(timings=timings)


def store_result(match_id: int, attempt: int, result: Any) -> str:
    """Record a played match whatever its result holds; returns ``finished``, ``stale`` or ``failed``.

    A result is always recorded and counts: if storing it raises, it is stored again without the text
    the bots produced (stderr, fault messages, per-decision stderr; the places, scores, fault kinds,
    ratings and replay are kept) and the error goes into ``Match.error`` for staff; if that fails too,
    the match ends ``failed`` with the error, never re-queued (playing it again would fail the same
    way). Only an error of the database itself (it is down: ``fail`` cannot write either) leaves the
    match ``running``, for the reaper and its bounded attempts.
    """
    try:
        return "finished" if record_result(match_id, attempt, result) else "stale"
    except Exception as exc:
        log.exception("match %s: the result could not be stored; storing it without the bots' text", match_id)
        first = f"{type(exc).__name__}: {exc}"
    try:
        note = f"Stored without the bots' text (stderr, fault messages): storing it whole failed with {first}"
        stored = record_result(match_id, attempt, without_bot_text(result), error=note)
    except Exception:
        log.exception("match %s: the result could not be stored at all", match_id)
        fail(
            match_id,
            attempt,
            f"The result could not be stored: {first}\n\nNor without the bots' text:\n{traceback.format_exc()}",
        )
        return "failed"
    return "finished" if stored else "stale"


def without_bot_text(result: Any) -> Any:
    """A copy of a referee result with every text a bot produced left out (see :func:`store_result`)."""
    bare = copy.copy(result)
    bare.stderr = ["" for _ in result.stderr]
    bare.faults = [
        None
        if fault is None
        else dataclasses.replace(fault, message="(not stored: see the match's error)", stderr_tail="")
        for fault in result.faults
    ]
    bare.decision_stderr = []
    return bare


def record_result(match_id: int, attempt: int, result: Any, error: str = "") -> bool:
    """Store the replay, places, scores, faults and rating changes of a match in ONE transaction
    (``error``: a note for staff, kept in ``Match.error``).

    Only the claim that is still current may write: if the match is no longer running on this
    attempt (a reaper re-queued it, or the result was already stored), nothing is written and
    ``False`` is returned, so a match is never counted twice.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != MatchStatus.RUNNING or match.attempts != attempt:
            return False
        seats = list(match.participants.order_by("seat"))
        place_of: dict[int, int] = {}
        for index, group in enumerate(result.places, start=1):
            for seat in group:
                place_of[seat] = index
        for seat in seats:
            index = seat.seat
            seat.place = place_of.get(index)
            seat.score = result.scores[index] if index < len(result.scores) else None
            fault = result.faults[index] if index < len(result.faults) else None
            if fault is not None:
                seat.fault_kind = str(fault.kind)[:30]
                seat.fault_decision = fault.decision
                seat.fault_detail = f"{fault.message}\n\n{fault.stderr_tail}".strip()[:MAX_TEXT]
            seat.stderr = (result.stderr[index] if index < len(result.stderr) else "")[-MAX_TEXT:]
        match.status = MatchStatus.FINISHED
        match.finished_at = timezone.now()
        match.decisions = result.decisions
        match.error = error[-MAX_TEXT:]
        data, size = Replay.pack(result.replay)
        Replay.objects.update_or_create(match=match, defaults={"data": data, "size": size})
        if match.rated:
            apply_match(match, seats)
        Participant.objects.bulk_update(
            seats,
            [
                "place",
                "score",
                "fault_kind",
                "fault_decision",
                "fault_detail",
                "stderr",
                "rating_before",
                "rating_after",
            ],
        )
        store_decision_logs(seats, result)  # each bot's stderr per decision, owner-only (viewer app)
        match.save(update_fields=["status", "finished_at", "decisions", "error"])
    return True


def fail(match_id: int, attempt: int | None, error: str, retry: bool = False) -> str | None:
    """End a running attempt with an error: back to ``queued`` if ``retry`` and attempts are left,
    otherwise ``failed``. Returns the new status, or ``None`` if the attempt is no longer current."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status not in (MatchStatus.RUNNING, MatchStatus.QUEUED):
            return None
        if attempt is not None and match.attempts != attempt:
            return None
        match.error = error[-MAX_TEXT:]
        if retry and match.attempts < settings.UNO_ARENA_MATCH_MAX_ATTEMPTS:
            match.status = MatchStatus.QUEUED
            match.started_at = None
            transaction.on_commit(lambda: enqueue_match(match_id))
        else:
            match.status = MatchStatus.FAILED
            match.finished_at = timezone.now()
        match.save(update_fields=["status", "error", "started_at", "finished_at"])
        return match.status


def reap_stale(now: Any = None) -> dict[str, int]:
    """Re-queue (or fail, when out of attempts) running matches whose worker has not finished in
    time, and re-send dispatched matches whose message may have been lost (matches still waiting for the
    scheduler are left to it). Returns counts."""
    now = now or timezone.now()
    stale = now - timedelta(seconds=settings.UNO_ARENA_REAP_AFTER)
    counts = {"requeued": 0, "failed": 0, "resent": 0}
    stuck = Match.objects.filter(status=MatchStatus.RUNNING, started_at__lt=stale).values_list(
        "pk", "attempts"
    )
    for match_id, attempts in list(stuck):
        status = fail(match_id, attempts, "worker lost or over the time limit (reaped)", retry=True)
        if status == MatchStatus.QUEUED:
            counts["requeued"] += 1
        elif status == MatchStatus.FAILED:
            counts["failed"] += 1
    forgotten = Match.objects.filter(
        status=MatchStatus.QUEUED, dispatched_at__lt=stale, started_at__isnull=True
    )
    for match_id in list(forgotten.values_list("pk", flat=True)[:500]):
        enqueue_match(match_id)  # duplicates are harmless: claim_job() lets one through
        counts["resent"] += 1
    return counts
