"""One matchmaking round of the ladder: keep ``queued`` rated matches waiting per rule set.

A round costs nine queries whatever the number of bots and rule sets (rule sets, in-flight count,
queue per rule set, eligible bots, busy bots, ratings, then three inserts, which the database driver may
split into batches); the seating itself is ``arena.tournaments.matchmaking.plan_tables`` (see ``docs/leagues.md``).
"""

from __future__ import annotations

import logging
import random
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from arena.ratings.elo import PROVISIONAL_GAMES, START_RATING
from arena.tournaments.matchmaking import CandidateRow, PlannerSettings, plan_tables
from bots.models import Bot, SmokeStatus
from ladder.conf import ladder_settings
from ladder.models import LadderMatch
from ladder.sql import EpochSeconds
from ladder.tables import Seat, create_tables
from matches.models import Match, MatchStatus, Origin, Participant
from ratings.models import Rating
from rulesets.models import RuleSet
from scheduling.dispatcher import job_count

log = logging.getLogger(__name__)
IN_FLIGHT = (MatchStatus.QUEUED, MatchStatus.RUNNING)


def share_room(deficits: dict[int, int], room: int, start: int = 0) -> dict[int, int]:
    """Split ``room`` tables between rule sets one at a time, round robin from ``start``, each up to
    its deficit (so no rule set starves the others when the workers cannot keep up)."""
    budget = dict.fromkeys(deficits, 0)
    order = sorted(deficits)
    if not order:
        return budget
    k = start % len(order)
    while room > 0 and any(budget[r] < deficits[r] for r in order):
        ruleset = order[k]
        if budget[ruleset] < deficits[ruleset]:
            budget[ruleset] += 1
            room -= 1
        k = (k + 1) % len(order)
    return budget


def candidates_by_ruleset(
    ruleset_ids: Sequence[int], now: datetime
) -> tuple[dict[int, list[CandidateRow]], dict[int, int]]:
    """Eligible, idle bots per rule set as planner candidates (plain tuples in ``Candidate`` order), and
    each eligible bot's active version
    (three queries; timestamps come back as epoch seconds, see ``ladder.sql``)."""
    eligible = {
        bot_id: (version_id, checked or created or now.timestamp())
        for bot_id, version_id, checked, created in Bot.objects.filter(
            is_active=True, active_version__smoke_status=SmokeStatus.PASSED
        )
        .annotate(
            checked=EpochSeconds("active_version__smoke_checked_at"),
            created=EpochSeconds("active_version__created_at"),
        )
        .values_list("id", "active_version_id", "checked", "created")
    }
    busy: dict[int, set[int]] = defaultdict(set)
    for ruleset_id, bot_id in Participant.objects.filter(
        match__status__in=IN_FLIGHT, match__ruleset_id__in=ruleset_ids
    ).values_list("match__ruleset_id", "bot_id"):
        busy[ruleset_id].add(bot_id)
    rated: dict[int, dict[int, tuple[float, int, float | None]]] = defaultdict(dict)
    query = (
        Rating.objects.filter(ruleset_id__in=ruleset_ids)
        .annotate(played=EpochSeconds("last_played"))
        .values_list("ruleset_id", "bot_id", "elo", "games", "played")
    )
    # 100,000 rows: straight from the cursor (plain numbers, nothing for Django to convert).
    sql, params = query.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for ruleset_id, bot_id, elo, games, seconds in cursor.fetchall():
            rated[ruleset_id][bot_id] = (elo, games, seconds)
    out: dict[int, list[CandidateRow]] = {}
    unrated: tuple[float, int, float | None] = (START_RATING, 0, None)
    idle_since = [(bot_id, since) for bot_id, (_, since) in eligible.items()]
    for ruleset_id in ruleset_ids:  # 100,000 candidates for 10,000 bots and 10 rule sets: kept lean
        lookup = rated.get(ruleset_id, {}).get
        skip = busy.get(ruleset_id, set())
        pool: list[CandidateRow] = []
        add = pool.append
        for bot_id, since in idle_since:
            if bot_id not in skip:
                elo, games, played = lookup(bot_id, unrated)
                add((bot_id, elo, games, games < PROVISIONAL_GAMES, played or since))
        out[ruleset_id] = pool
    return out, {bot_id: version for bot_id, (version, _) in eligible.items()}


def plan_round(
    capacity: int,
    rulesets: Sequence[str] | None = None,
    queued: int | None = None,
    now: datetime | None = None,
    rng: random.Random | None = None,
) -> dict[str, Any]:
    """Queue ladder matches so each rule set has ``queued`` waiting, never more than ``capacity``
    ladder matches queued or running in all. Returns counts: ``room`` and tables created per rule set slug."""
    conf = ladder_settings()
    target = conf.queued if queued is None else queued
    now = now or timezone.now()
    rng = rng or random.Random()
    active = RuleSet.objects.filter(is_active=True).only("id", "slug", "min_players", "max_players")
    if rulesets:
        active = active.filter(slug__in=list(rulesets))
    by_id = {rs.pk: rs for rs in active}
    # Only the ladder's own matches count: other origins wait in their own queues and the scheduler
    # shares the workers (scheduling.dispatcher), so a flood of challenges never stops the ladder.
    # A series (UNO_ARENA_LADDER_SERIES games at one table) is one job.
    in_flight = job_count(Match.objects.filter(status__in=IN_FLIGHT, origin=Origin.LADDER))
    room = max(0, capacity - in_flight)
    result: dict[str, Any] = {"room": room, "tables": {}}
    if room == 0 or not by_id:
        return result
    waiting = dict(
        Match.objects.filter(status=MatchStatus.QUEUED, ladder__isnull=False, ruleset_id__in=list(by_id))
        .values_list("ruleset_id")
        .annotate(n=Count("id", filter=Q(series__isnull=True)) + Count("series", distinct=True))
        .values_list("ruleset_id", "n")
    )
    deficits = {pk: max(0, target - waiting.get(pk, 0)) for pk in by_id}
    budget = share_room(deficits, room, start=int(now.timestamp()))
    wanted = [pk for pk, tables in budget.items() if tables > 0]
    if not wanted:
        return result
    pools, versions = candidates_by_ruleset(wanted, now)
    plans: list[tuple[RuleSet, list[Seat], bool]] = []
    for pk in wanted:
        ruleset = by_id[pk]
        settings = PlannerSettings(
            min_players=ruleset.min_players,
            max_players=ruleset.max_players,
            table_size=conf.table_size,
            epsilon=conf.epsilon,
        )
        for table in plan_tables(pools[pk], now.timestamp(), settings, max_tables=budget[pk], rng=rng):
            plans.append((ruleset, [Seat(bot, versions[bot]) for bot in table.seats], table.explore))
            result["tables"][ruleset.slug] = result["tables"].get(ruleset.slug, 0) + 1
    if not plans:
        return result
    with transaction.atomic(savepoint=False):
        matches = create_tables(
            [(rs, seats) for rs, seats, _ in plans],
            rated=True,
            duplicate=conf.duplicate,
            origin=Origin.LADDER,
            series=conf.series,
        )
        games = len(matches) // len(plans)
        LadderMatch.objects.bulk_create(
            LadderMatch(match=m, explore=plans[k // games][2]) for k, m in enumerate(matches)
        )
    log.info("ladder: %s", result)
    return result
