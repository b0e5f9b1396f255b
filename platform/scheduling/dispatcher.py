"""The dispatcher: hands waiting jobs (matches and smoke tests) to the workers, as many as there are free
slots, in the order :func:`scheduling.planner.plan` gives.

Matches are created ``queued`` and wait in the database (``Match.dispatched_at`` null), smoke tests wait
``pending`` (``BotVersion.smoke_dispatched_at`` null). Only dispatched jobs are sent to Celery, so the
broker never holds more than the capacity, and whoever floods the site waits in the database in their own
queue while everybody else's work goes by.

:func:`dispatch` runs after every commit that creates jobs, after every job that ends (a finished match
makes room for the next one at once, in the worker that finished it), and every
``UNO_ARENA_DISPATCH_EVERY`` seconds from beat (which also asks how many workers are alive). Dispatches
never overlap: each one locks the single ``DispatchLock`` row.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from bots.models import BotVersion, SmokeStatus
from ladder.workers import (
    MATCH_QUEUE,
    SMOKE_QUEUE,
    known_match_processes,
    known_smoke_processes,
    match_processes,
)
from matches.models import Match, MatchStatus, Origin
from scheduling.conf import scheduler_settings
from scheduling.models import DispatchLock, FairShare
from scheduling.planner import SMOKE, Job, clock_key, origin_key, owner_key, plan

log = logging.getLogger(__name__)
MATCH, SMOKE_TEST = "match", "smoke"
IN_FLIGHT = (MatchStatus.QUEUED, MatchStatus.RUNNING)
SMOKE_IN_FLIGHT = (SmokeStatus.PENDING, SmokeStatus.RUNNING)


def slots(ask_workers: bool = False) -> int:
    """How many jobs the workers may hold at once: ``min(capacity, processes x per_process)``, counting
    the processes of the workers that consume the ``matches`` queue.

    ``ask_workers`` broadcasts to the workers (two seconds at most); otherwise the last answer is used.
    An unknown number counts as one process, so the site never stops because a reply was lost."""
    conf = scheduler_settings()
    processes = match_processes(grace=max(60.0, 6 * conf.every)) if ask_workers else known_match_processes()
    return max(0, min(conf.capacity, max(1, processes) * conf.per_process))


def job_count(matches: QuerySet[Match]) -> int:
    """How many jobs ``matches`` make: a match of its own is one, the games of a series one together
    (one query)."""
    counts = matches.aggregate(
        alone=Count("id", filter=Q(series__isnull=True)), series=Count("series", distinct=True)
    )
    return int(counts["alone"] or 0) + int(counts["series"] or 0)


def smoke_slots() -> int:
    """How many smoke tests the smoke lane may hold at once: the processes of the workers that consume
    only the ``smoke`` queue (``ladder.workers.known_smoke_processes``, as the last broadcast saw them)
    times ``per_process``, within the capacity; 0 without such a worker (smoke tests then take match
    slots, first in the planner's order)."""
    conf = scheduler_settings()
    return max(0, min(conf.capacity, known_smoke_processes() * conf.per_process))


def busy(matches: bool = True, smoke: bool = True) -> int:
    """Jobs handed to the workers and not done yet (a series counts once; two counts): the matches', the
    smoke tests', or both."""
    count = 0
    if matches:
        count += job_count(Match.objects.filter(dispatched_at__isnull=False, status__in=IN_FLIGHT))
    if smoke:
        count += BotVersion.objects.filter(
            smoke_dispatched_at__isnull=False, smoke_status__in=SMOKE_IN_FLIGHT
        ).count()
    return count


def waiting(per_group: int, matches: bool = True, smoke: bool = True) -> list[Job]:
    """The oldest ``per_group`` waiting jobs of every (origin, owner), matches or smoke tests or both: all
    the planner may need to fill ``per_group`` slots (two queries, however long the queues are; a third
    counts the games of the series among them). A series is one job, keyed by its first waiting game,
    costing its number of games (a series of duplicate matches: their rotations)."""
    rank = Window(
        RowNumber(), partition_by=[F("origin"), F("created_by")], order_by=[F("created_at"), F("id")]
    )
    earlier = Match.objects.filter(
        series=OuterRef("series"),
        status=MatchStatus.QUEUED,
        dispatched_at__isnull=True,
        id__lt=OuterRef("id"),
    )
    match_rows = (
        Match.objects.filter(status=MatchStatus.QUEUED, dispatched_at__isnull=True)
        .exclude(Exists(earlier))  # a series waits as one job: its first game stands for it
        .annotate(rank=rank)
        .filter(rank__lte=per_group)
        .values_list("pk", "origin", "created_by_id", "created_at", "series")
    )
    smoke_rank = Window(RowNumber(), partition_by=[F("bot__owner")], order_by=[F("created_at"), F("id")])
    smoke_rows = (
        BotVersion.objects.filter(smoke_status=SmokeStatus.PENDING, smoke_dispatched_at__isnull=True)
        .annotate(rank=smoke_rank)
        .filter(rank__lte=per_group)
        .values_list("pk", "bot__owner_id", "created_at")
    )
    rows = list(match_rows) if matches else []
    series = [key for *_, key in rows if key is not None]
    # A series' games: one per plain match, one per seat rotation of a duplicate match (a version-test
    # batch of k heads-up pairs is 2k games).
    games = dict(
        Match.objects.filter(series__in=series, status=MatchStatus.QUEUED, dispatched_at__isnull=True)
        .values_list("series")
        .annotate(
            n=Count("id", distinct=True, filter=Q(duplicate=False))
            + Count("participants", filter=Q(duplicate=True))
        )
        .values_list("series", "n")
        if series
        else []
    )
    jobs = [
        Job(at.timestamp(), (MATCH, pk), origin, owner, float(games.get(key, 1)))
        for pk, origin, owner, at, key in rows
    ]
    if smoke:
        jobs += [Job(at.timestamp(), (SMOKE_TEST, pk), SMOKE, owner) for pk, owner, at in smoke_rows]
    return jobs


def _state_keys(jobs: Iterable[Job]) -> set[str]:
    keys = {clock_key("origins")}
    for job in jobs:
        keys |= {origin_key(job.origin), clock_key(job.origin), owner_key(job.origin, job.owner)}
    return keys


def _lock() -> DispatchLock:
    lock = DispatchLock.objects.select_for_update().filter(pk=1).first()
    if lock is None:
        DispatchLock.objects.get_or_create(pk=1)
        lock = DispatchLock.objects.select_for_update().get(pk=1)
    return lock


def dispatch(ask_workers: bool = False) -> dict[str, Any]:
    """Fill the free slots with waiting jobs, fairly; send them to Celery after the commit.

    With a smoke lane (:func:`smoke_slots`), smoke tests fill its slots and matches the match slots;
    without one, both share the match slots. Returns ``{"slots", "free", "dispatched", "origins":
    {origin: count}}`` (the match slots), plus ``"smoke_lane": {"slots", "free"}`` with a lane."""
    conf = scheduler_settings()
    total = slots(ask_workers)
    lane = smoke_slots()
    with transaction.atomic():
        lock = _lock()
        free = max(0, total - busy(smoke=not lane))
        result: dict[str, Any] = {"slots": total, "free": free, "dispatched": 0, "origins": {}}
        rounds: list[tuple[list[Job], int, str]] = []  # jobs, free slots, the queue of their smoke tests
        if lane:
            lane_free = max(0, lane - busy(matches=False))
            result["smoke_lane"] = {"slots": lane, "free": lane_free}
            if lane_free:
                rounds.append((waiting(lane_free, matches=False), lane_free, SMOKE_QUEUE))
        if free:
            result["ladder"] = top_up_ladder(free)
            rounds.append((waiting(free, smoke=not lane), free, MATCH_QUEUE))
        candidates = [job for jobs, _, _ in rounds for job in jobs]
        if not candidates:
            return result
        state = dict(FairShare.objects.filter(key__in=_state_keys(candidates)).values_list("key", "value"))
        order: list[tuple[Job, str]] = []
        changed: dict[str, float] = {}
        for jobs, room, queue in rounds:
            if jobs:
                chosen, moved = plan(jobs, room, conf.policy, state)
                state |= moved
                changed |= moved
                order += [(job, queue) for job in chosen]
        if not order:
            return result
        now = timezone.now()
        match_ids = [job.key[1] for job, _ in order if job.key[0] == MATCH]  # type: ignore[index]
        version_ids = [job.key[1] for job, _ in order if job.key[0] == SMOKE_TEST]  # type: ignore[index]
        series = [
            pk for (pk,) in Match.objects.filter(pk__in=match_ids, series__isnull=False).values_list("series")
        ]
        Match.objects.filter(
            Q(pk__in=match_ids) | Q(series__in=series, status=MatchStatus.QUEUED, dispatched_at__isnull=True)
        ).update(dispatched_at=now)
        BotVersion.objects.filter(pk__in=version_ids).update(smoke_dispatched_at=now)
        FairShare.objects.bulk_create(
            [FairShare(key=key, value=value) for key, value in changed.items()],
            update_conflicts=True,
            unique_fields=["key"],
            update_fields=["value"],
        )
        lock.dispatched_at = now
        lock.dispatched += len(order)
        lock.save(update_fields=["dispatched_at", "dispatched"])
        sends = [(job.key, queue) for job, queue in order]
        transaction.on_commit(lambda: _send(sends))
        for job, _ in order:
            result["origins"][job.origin] = result["origins"].get(job.origin, 0) + 1
        result["dispatched"] = len(order)
    log.info("dispatch: %s", result)
    return result


def matchmaking_schedule() -> dict[str, Any] | None:
    """What the ladder's periodic matchmaking tasks ask for, as ``plan_round`` arguments (``rulesets``,
    ``queued``), so that the dispatcher's top-up plans within the limits staff set in the admin; ``None``
    when staff disabled every such task: then the dispatcher plans no ladder tables either (one query).

    Several enabled tasks plan on the union of their rule sets (all of them if one names none) and keep
    the longest queue; arguments that are not valid JSON count as none."""
    from django_celery_beat.models import PeriodicTask

    rows = list(PeriodicTask.objects.filter(task="ladder.tasks.matchmake").values_list("enabled", "kwargs"))
    tasks = [_kwargs(text) for on, text in rows if on]
    if rows and not tasks:
        return None
    named = [kwargs["rulesets"] for kwargs in tasks if isinstance(kwargs.get("rulesets"), list)]
    queues = [kwargs["queued"] for kwargs in tasks if isinstance(kwargs.get("queued"), int)]
    schedule: dict[str, Any] = {}
    if tasks and len(named) == len(tasks) and all(named):  # else one of them plans on every rule set
        schedule["rulesets"] = sorted({str(name) for names in named for name in names})
    if queues:
        schedule["queued"] = max(0, *queues)
    return schedule


def _kwargs(text: str | None) -> dict[str, Any]:
    """A periodic task's keyword arguments (its JSON text), or none when they are not a JSON object."""
    try:
        kwargs = json.loads(text or "{}")
    except ValueError:
        return {}
    return kwargs if isinstance(kwargs, dict) else {}


def top_up_ladder(free: int) -> int:
    """Let the ladder plan tables now when it has fewer waiting jobs than there are ``free`` slots, so a
    slot that opens is filled at once (the planner still shares the slots between the origins by weight);
    its beat is only the safety net. Nothing when the ladder is off (``UNO_ARENA_LADDER``,
    ``UNO_ARENA_LADDER_FILL``, or its periodic task disabled in the admin), when no worker was seen, or
    while a matchmaking round runs elsewhere (the ladder's cache lock). Returns the tables planned."""
    from django.core.cache import cache

    from ladder.conf import ladder_settings
    from ladder.matchmaker import plan_round
    from ladder.tasks import LOCK

    conf = ladder_settings()
    processes = known_match_processes()
    if not (conf.enabled and conf.fill) or processes == 0:
        return 0
    ladder_waiting = job_count(
        Match.objects.filter(origin=Origin.LADDER, status=MatchStatus.QUEUED, dispatched_at__isnull=True)
    )
    if ladder_waiting >= free:
        return 0
    schedule = matchmaking_schedule()
    if schedule is None or not cache.add(LOCK, 1, timeout=300):
        return 0
    try:
        with transaction.atomic():  # a savepoint: a failed round must not spoil the dispatch
            planned = plan_round(min(conf.capacity, processes * conf.per_process), **schedule)
    except Exception:
        log.exception("ladder top-up failed; its beat plans again")
        return 0
    finally:
        cache.delete(LOCK)
    return sum(planned.get("tables", {}).values())


def _send(jobs: list[tuple[Any, str]]) -> None:
    """Send the dispatched jobs in the planner's order: matches to the ``matches`` queue, smoke tests to
    the queue the dispatcher chose (the smoke lane's, or the match processes')."""
    from bots.services import enqueue_smoke_test
    from matches.services import enqueue_match

    for (kind, pk), queue in jobs:
        if kind == SMOKE_TEST:
            enqueue_smoke_test(pk, queue=queue)
        else:
            enqueue_match(pk)


def request_dispatch() -> None:
    """Dispatch now, never raising (called after commits: a failure here must not break a request or a
    match; beat dispatches again within ``UNO_ARENA_DISPATCH_EVERY`` seconds)."""
    try:
        dispatch()
    except Exception:
        log.exception("dispatch failed; beat will retry")


def dispatch_after_commit() -> None:
    """Dispatch once the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(request_dispatch, robust=True)
