"""Celery tasks: run a match (or the games of a series, or a series of version-test duplicate pairs, as
one job), and the periodic reaper of matches whose worker died."""

from __future__ import annotations

import logging
import time
import traceback
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from matches import services
from matches.models import Match
from matches.play import play, play_duplicate_series, play_series

log = logging.getLogger(__name__)


def _timings(result: Any, recorded: float, **extra: Any) -> dict[str, Any]:
    """Where one game's time went (seconds): sandbox start-up and shutdown, the bots' think time, the
    referee and engine's own time in the decision loops, and recording (``docs/throughput.md``)."""
    think = float(sum(getattr(result, "think_seconds", None) or []))
    play_seconds = float(getattr(result, "play_seconds", 0.0) or 0.0)
    seconds = float(getattr(result, "seconds", 0.0) or 0.0)
    return {
        **extra,
        "start": round(max(0.0, seconds - play_seconds), 4),
        "think": round(think, 4),
        "engine": round(max(0.0, play_seconds - think), 4),
        "record": round(recorded, 4),
        "decisions": getattr(result, "decisions", None),
    }


@shared_task(
    bind=True,
    name="matches.tasks.run_match_task",
    acks_late=True,
    soft_time_limit=settings.UNO_ARENA_MATCH_TIME_LIMIT - 30,
    time_limit=settings.UNO_ARENA_MATCH_TIME_LIMIT,
)
def run_match_task(self: Any, match_id: int) -> str:
    """Run a queued match through the referee and store everything in one transaction; a match that is
    a game of a series brings the whole series (every game of it handed to the workers and still queued),
    played by the referee's ``run_series`` and recorded game by game as each ends; a series of duplicate
    matches (version-test pairs) is played rotation-major by ``run_duplicate_series`` and each match
    recorded as its last rotation ends (none before the last rotation starts).

    Idempotent: ``services.claim_job`` lets only queued matches through, and ``services.record_result``
    writes only while this attempt is current, so a redelivered message never counts a match twice.
    A played game is always recorded (``services.store_result``: finished, or failed with the error;
    never left running by a result that cannot be stored). A worker killed by the hard time limit (or
    a crash) leaves the games not yet recorded running: the reaper re-queues them or marks them failed.
    """
    hostname = getattr(self.request, "hostname", None) or ""
    task_id = getattr(self.request, "id", None) or ""
    claimed = time.perf_counter()
    members = services.claim_job(match_id, worker=hostname, task_id=task_id)
    if not members:
        return "skipped"
    head = members[0]
    queued = (
        (head.started_at - head.dispatched_at).total_seconds()
        if head.dispatched_at and head.started_at
        else None
    )
    done: dict[int, str] = {}
    mark = [claimed]

    def record(k: int, result: Any) -> None:
        match = members[k]
        began = time.perf_counter()
        done[match.pk] = services.store_result(match.pk, match.attempts, result)
        ended = time.perf_counter()
        recorded = ended - began
        extra: dict[str, Any] = {"queued": round(queued, 4) if k == 0 and queued is not None else 0.0}
        extra["wall"] = round(ended - mark[0], 4)  # the worker's time on this game, claim to recorded
        mark[0] = ended
        if k == 0:
            extra["prepare"] = round(prepared - claimed, 4)
        if len(members) > 1:
            extra["series"] = [k, len(members)]
        try:
            services.note_timings(match.pk, _timings(result, recorded, **extra))
        except Exception:  # only a measurement: never what decides the game's fate
            log.exception("match %s: could not note its timings", match.pk)
        services.still_running([m.pk for m in members[k + 1 :]])

    try:
        games = [
            (
                [p.bot_version for p in m.participants.select_related("bot_version__bot").order_by("seat")],
                m.seed,
            )
            for m in members
        ]
        rules = head.ruleset.to_engine()
        prepared = time.perf_counter()
        if len(members) == 1:
            record(0, play(rules, games[0][0], head.seed, duplicate=head.duplicate))
        elif head.duplicate:  # version-test pairs: duplicate matches played rotation-major
            versions = games[0][0]
            if any(
                not m.duplicate or [v.pk for v in seated] != [v.pk for v in versions]
                for m, (seated, _) in zip(members, games, strict=True)
            ):
                raise ValueError(
                    "every match of a duplicate series is duplicate and seats the same versions in order"
                )

            def progress(k: int, rotation: int) -> None:
                services.still_running([m.pk for m in members if m.pk not in done])

            play_duplicate_series(rules, versions, [seed for _, seed in games], record, on_game=progress)
        else:
            play_series(rules, games, record)
    except SoftTimeLimitExceeded:
        _fail_rest(members, done, "the match went over its time limit", retry=False)
        return "failed"
    except Exception:
        log.exception("match %s failed", match_id)
        _fail_rest(members, done, traceback.format_exc(), retry=True)
        return "error"
    return done.get(head.pk, "failed") if len(members) == 1 else f"series: {sorted(done.values())}"


def _fail_rest(members: list[Match], done: dict[int, str], error: str, retry: bool) -> None:
    """End the attempts of the claimed games not recorded yet (re-queued if ``retry`` and attempts are
    left); the games already recorded keep their results."""
    for match in members:
        if match.pk not in done:
            try:
                services.fail(match.pk, match.attempts, error, retry=retry)
            except Exception:  # the database is down: the reaper re-queues them later
                log.exception("match %s: could not record the failure", match.pk)


@shared_task(name="matches.tasks.reap_stale_matches")
def reap_stale_matches() -> dict[str, int]:
    """Periodic (beat): re-queue or fail matches stuck in running; re-send forgotten queued ones;
    re-queue smoke tests left pending or running."""
    from bots.tasks import reap_smoke_tests

    counts = services.reap_stale()
    counts["smoke_tests"] = reap_smoke_tests()
    if any(counts.values()):
        log.info("reaper: %s", counts)
    return counts


def run_now(match_id: int) -> Match:
    """Run a match (or the series it starts) synchronously in this process (tests, management commands)."""
    run_match_task.apply(args=[match_id])
    return Match.objects.get(pk=match_id)
