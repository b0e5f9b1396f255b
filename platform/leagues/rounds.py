"""Creating a league's rounds (idempotent) and closing them when every match is final.

Every function here runs with the league row locked (``SELECT ... FOR UPDATE``; SQLite's IMMEDIATE
transactions lock the whole database), so a round triggered twice at once — by beat and by a staff
click, or by a redelivered task — is created once: the second caller finds it. The unique constraints on
(league, round number), (round, table) and the one-to-one match link back this up.
"""

from __future__ import annotations

import logging
import random
from collections import Counter, defaultdict
from datetime import datetime
from itertools import groupby

from django.db import transaction
from django.utils import timezone

from arena.ratings.elo import START_RATING, is_provisional
from arena.tournaments.league_formats import Round, round_robin_round, swiss_round
from arena.tournaments.matchmaking import Candidate, PlannerSettings, plan_tables
from bots.models import Bot, SmokeStatus
from ladder.conf import ladder_settings
from ladder.tables import Seat, create_tables
from leagues.models import Entrant, Entry, League, LeagueFormat, LeagueMatch, LeagueRound, LeagueStatus
from leagues.standings import current_standings, update_standings
from matches.models import MatchStatus, Origin, Participant
from ratings.models import Rating

log = logging.getLogger(__name__)
FINAL = (MatchStatus.FINISHED, MatchStatus.FAILED)


def lock(league_id: int) -> League:
    """The league row, locked until the surrounding transaction ends."""
    return League.objects.select_for_update().select_related("ruleset").get(pk=league_id)


def snapshot_entrants(league: League) -> None:
    """An "every active bot" league takes its entrants when its first round starts."""
    if league.entry != Entry.ALL or Entrant.objects.filter(league=league).exists():
        return
    bots = Bot.objects.filter(is_active=True, active_version__smoke_status=SmokeStatus.PASSED)
    Entrant.objects.bulk_create(
        [Entrant(league=league, bot_id=pk) for pk in bots.values_list("pk", flat=True)], ignore_conflicts=True
    )


def playable(league: League) -> tuple[dict[int, int], list[int]]:
    """Entrants that can play now (``{bot id: active version id}``) and the absent ones."""
    present: dict[int, int] = {}
    absent: list[int] = []
    for bot_id, active, version_id, smoke in Entrant.objects.filter(league=league).values_list(
        "bot_id", "bot__is_active", "bot__active_version_id", "bot__active_version__smoke_status"
    ):
        if active and version_id is not None and smoke == SmokeStatus.PASSED:
            present[bot_id] = version_id
        else:
            absent.append(bot_id)
    return present, sorted(absent)


def past_tables(league: League) -> tuple[list[list[int]], Counter[int]]:
    """Tables of the earlier rounds (bot ids) and each bot's byes so far."""
    rows = (
        Participant.objects.filter(match__league_match__round__league=league)
        .order_by("match_id", "seat")
        .values_list("match_id", "bot_id")
    )
    tables = [[bot for _, bot in seats] for _, seats in groupby(rows, key=lambda r: r[0])]
    byes: Counter[int] = Counter()
    for round_byes in LeagueRound.objects.filter(league=league).values_list("byes", flat=True):
        byes.update(round_byes or [])
    return tables, byes


def draw(league: League, number: int, players: list[int]) -> Round:
    """The tables of round ``number`` for ``players`` under the league's format."""
    rs = league.ruleset
    low, high, size = rs.min_players, rs.max_players, league.size
    ratings = dict(Rating.objects.filter(ruleset=rs, bot_id__in=players).values_list("bot_id", "elo"))
    if league.format == LeagueFormat.SEASON:
        games = dict(Rating.objects.filter(ruleset=rs, bot_id__in=players).values_list("bot_id", "games"))
        now = timezone.now().timestamp()
        candidates = [
            Candidate(p, ratings.get(p, START_RATING), games.get(p, 0), is_provisional(games.get(p, 0)), now)
            for p in players
        ]
        settings = PlannerSettings(low, high, size, epsilon=ladder_settings().epsilon, explore_sizes=False)
        tables = plan_tables(candidates, now, settings, rng=random.Random(f"{league.seed}:{number}"))
        seated = {b for t in tables for b in t.seats}
        return Round([t.seats for t in tables], sorted(set(players) - seated))
    history, byes = past_tables(league)
    if league.format == LeagueFormat.SWISS:
        if number == 1:
            order = sorted(players, key=lambda p: (-ratings.get(p, START_RATING), p))
        else:
            rank = {row.entrant: row.rank for row in current_standings(league)}
            order = sorted(players, key=lambda p: (rank.get(p, len(rank) + 1), p))
        return swiss_round(order, size, low, high, history, byes)
    return round_robin_round(sorted(players), number - 1, size, low, high, history, byes, seed=league.seed)


def _create_round(league: League, number: int) -> LeagueRound:
    snapshot_entrants(league)
    present, absent = playable(league)
    drawn = draw(league, number, sorted(present))
    with transaction.atomic():
        league_round = LeagueRound.objects.create(
            league=league, number=number, byes=list(drawn.byes), absent=absent
        )
        tables = [(league.ruleset, [Seat(bot, present[bot]) for bot in table]) for table in drawn.tables]
        matches = create_tables(tables, rated=league.rated, duplicate=league.duplicate, origin=Origin.LEAGUE)
        LeagueMatch.objects.bulk_create(
            LeagueMatch(round=league_round, table=k, match=m) for k, m in enumerate(matches, start=1)
        )
        if league.status == LeagueStatus.UPCOMING:
            league.status = LeagueStatus.RUNNING
            league.started_at = timezone.now()
            league.save(update_fields=["status", "started_at"])
        if not matches:  # too few entrants for a table: the round is over at once
            league_round.finished_at = timezone.now()
            league_round.save(update_fields=["finished_at"])
    log.info("league %s: round %s with %s tables", league.slug, number, len(matches))
    return league_round


def close_round(league: League, league_round: LeagueRound) -> bool:
    """Mark the round finished when all its matches are final (finished or failed); finish the league
    after its last round. Returns whether the round is finished."""
    if league_round.finished_at is None:
        pending = LeagueMatch.objects.filter(round=league_round).exclude(match__status__in=FINAL).exists()
        if pending:
            return False
        league_round.finished_at = timezone.now()
        league_round.save(update_fields=["finished_at"])
    if league_round.number >= league.rounds and league.status != LeagueStatus.FINISHED:
        league.status = LeagueStatus.FINISHED
        league.finished_at = timezone.now()
        league.save(update_fields=["status", "finished_at"])  # its schedule is disabled (leagues.apps)
    return True


def advance(league_id: int, now: datetime | None = None) -> str:
    """The scheduled tick: start the next round if the previous one is complete. Idempotent.

    Returns what happened: ``finished``, ``not-started`` (before ``starts_at``), ``waiting`` (the
    current round still has matches to play) or ``round N``.
    """
    moment = now or timezone.now()
    with transaction.atomic():
        league = lock(league_id)
        if league.status == LeagueStatus.FINISHED:
            return "finished"
        if league.starts_at and league.starts_at > moment:
            return "not-started"
        last = LeagueRound.objects.filter(league=league).order_by("-number").first()
        if last is not None:
            finished = close_round(league, last)
            update_standings(league)
            if not finished:
                return "waiting"
            if league.status == LeagueStatus.FINISHED:
                return "finished"
        number = last.number + 1 if last else 1
        created = _create_round(league, number)
        if created.finished_at is not None:
            close_round(league, created)
            update_standings(league)
        return f"round {number}"


def on_match_final(match_id: int) -> bool:
    """A league match ended (finished or failed): update the standings, close its round if complete.
    Returns False when the match is no league's."""
    link = LeagueMatch.objects.filter(match_id=match_id).values_list("round_id", "round__league_id").first()
    if link is None:
        return False
    round_id, league_id = link
    with transaction.atomic():
        league = lock(league_id)
        league_round = LeagueRound.objects.get(pk=round_id)
        close_round(league, league_round)
        update_standings(league)
    return True


def open_rounds() -> dict[int, list[int]]:
    """League id -> ids of rounds not yet closed (for the sweep)."""
    out: dict[int, list[int]] = defaultdict(list)
    for round_id, league_id in LeagueRound.objects.filter(finished_at__isnull=True).values_list(
        "id", "league_id"
    ):
        out[league_id].append(round_id)
    return out
