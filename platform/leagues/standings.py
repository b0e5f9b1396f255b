"""Computing and storing a league's standings from its finished matches (``arena.tournaments.standings``)."""

from __future__ import annotations

from collections import Counter
from itertools import groupby

from django.utils import timezone

from arena.tournaments.standings import StandingRow, TableResult, compute_standings
from leagues.models import Entrant, League, LeagueRound, Standing
from matches.models import MatchStatus, Participant


def league_results(league: League) -> tuple[list[TableResult], Counter[int]]:
    """The league's finished tables in finishing order, and each bot's byes (two queries)."""
    rows = (
        Participant.objects.filter(
            match__league_match__round__league=league, match__status=MatchStatus.FINISHED
        )
        .order_by("match__finished_at", "match_id", "seat")
        .values_list("match_id", "bot_id", "place", "rating_before", "rating_after")
    )
    results = []
    for _, seats in groupby(rows, key=lambda r: r[0]):
        table = list(seats)
        worst = max((place or 0 for _, _, place, _, _ in table), default=0) + 1
        changes = [
            (after - before) if before is not None and after is not None else None
            for _, _, _, before, after in table
        ]
        results.append(
            TableResult(
                entrants=[bot for _, bot, _, _, _ in table],
                places=[place if place is not None else worst for _, _, place, _, _ in table],
                rating_changes=None if None in changes else [c or 0.0 for c in changes],
            )
        )
    byes: Counter[int] = Counter()
    for round_byes in LeagueRound.objects.filter(league=league).values_list("byes", flat=True):
        byes.update(round_byes or [])
    return results, byes


def current_standings(league: League) -> list[StandingRow]:
    """The standings as they are now, computed (not read from the stored rows)."""
    results, byes = league_results(league)
    entrants = Entrant.objects.filter(league=league).values_list("bot_id", flat=True)
    return compute_standings(entrants, results, byes, table_size=league.size, rated=league.rated)


def update_standings(league: League) -> list[StandingRow]:
    """Recompute the standings and store them (one upsert). Call with the league row locked."""
    rows = current_standings(league)
    Standing.objects.filter(league=league).exclude(bot_id__in=[r.entrant for r in rows]).delete()
    Standing.objects.bulk_create(
        [
            Standing(
                league=league,
                bot_id=r.entrant,
                rank=r.rank,
                points=r.points,
                buchholz=r.buchholz,
                wins=r.wins,
                games=r.games,
                byes=r.byes,
                elo_change=r.elo_change,
            )
            for r in rows
        ],
        batch_size=500,
        update_conflicts=True,
        unique_fields=["league", "bot"],
        update_fields=["rank", "points", "buchholz", "wins", "games", "byes", "elo_change"],
    )
    league.standings_updated_at = timezone.now()
    League.objects.filter(pk=league.pk).update(standings_updated_at=league.standings_updated_at)
    return rows
