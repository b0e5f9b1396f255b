"""Leagues: schedules, rounds (idempotent), failed matches and faults, standings, pages and permissions."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.test import Client
from django_celery_beat.models import PeriodicTask

from bots.models import Bot
from leagues import services, tasks
from leagues.models import (
    Entrant,
    Entry,
    League,
    LeagueFormat,
    LeagueMatch,
    LeagueRound,
    LeagueStatus,
    Standing,
)
from leagues.standings import current_standings
from matches.models import Match
from ratings.models import Rating
from rulesets.models import RuleSet
from tests.platform.factories import FakeFault
from tests.platform.ladder_support import bulk_bots, fail_for_good, finish

pytestmark = pytest.mark.django_db
WHO = ["owner", "other", "anon", "staff"]


@pytest.fixture
def web(clients: dict[str, Client], staff: Any) -> dict[str, Client]:
    """Web clients: owner, other, anonymous and staff."""
    staff_client = Client()
    staff_client.force_login(staff)
    return {**clients, "staff": staff_client}


def make_league(ruleset: RuleSet, **fields: Any) -> League:
    defaults: dict[str, Any] = {"name": "Test league", "slug": "test-league", "rounds": 3, "table_size": 3}
    return services.save_league(League(ruleset=ruleset, **{**defaults, **fields}))


@pytest.fixture
def entrants(classic: RuleSet, owner: Any) -> list[Bot]:
    return bulk_bots(owner, 6, prefix="entrant")


@pytest.fixture
def league(classic: RuleSet, entrants: list[Bot]) -> League:
    """An opt-in round-robin league of six entrants at tables of three, three rounds."""
    created = make_league(classic)
    Entrant.objects.bulk_create(Entrant(league=created, bot=b) for b in entrants)
    return created


def round_matches(league: League, number: int) -> list[Match]:
    return list(
        Match.objects.filter(league_match__round__league=league, league_match__round__number=number).order_by(
            "league_match__table"
        )
    )


def play_round(league: League, number: int, capture: Any) -> None:
    """Finish every queued match of the round, seat 0 first; league updates run as after a commit."""
    for match in round_matches(league, number):
        with capture(execute=True):
            finish(match, list(range(1, match.participants.count() + 1)))


# --- schedule -------------------------------------------------------------------------------------


def test_a_league_schedules_itself_with_celery_beat(classic: RuleSet) -> None:
    league = make_league(classic, interval_minutes=15)
    task = PeriodicTask.objects.get(name=f"league-{league.pk}")
    assert task.task == "leagues.tasks.league_tick"
    assert json.loads(task.kwargs) == {"league_id": league.pk}
    assert task.interval is not None
    assert (task.interval.every, task.interval.period) == (15, "minutes")
    assert task.enabled
    league.refresh_from_db()
    assert league.periodic_task == task
    league.schedule_kind = "cron"
    league.cron = "30 18 * * 1-5"
    services.save_league(league)
    task.refresh_from_db()
    assert task.interval is None
    assert task.crontab is not None
    assert (task.crontab.minute, task.crontab.hour, task.crontab.day_of_week) == ("30", "18", "1-5")
    assert PeriodicTask.objects.filter(name=f"league-{league.pk}").count() == 1


def test_a_deleted_league_takes_its_schedule_along(classic: RuleSet) -> None:
    league = make_league(classic)
    pk = league.pk
    league.delete()
    assert not PeriodicTask.objects.filter(name=f"league-{pk}").exists()
    assert tasks.league_tick(pk) == "gone"  # a message already sent finds nothing to do


def test_bad_cron_is_refused(web: dict[str, Client], classic: RuleSet) -> None:
    response = web["staff"].post("/leagues/new/", form_data(schedule_kind="cron", cron="61 * * *"))
    assert response.status_code == 200
    assert "five fields" in response.content.decode()
    assert not League.objects.exists()


# --- rounds ---------------------------------------------------------------------------------------


def test_rounds_are_created_once_whoever_triggers_them(
    league: League, django_capture_on_commit_callbacks: Any
) -> None:
    assert tasks.league_tick(league.pk) == "round 1"
    first = round_matches(league, 1)
    assert len(first) == 2
    assert all(m.duplicate and m.rated and m.participants.count() == 3 for m in first)
    # Beat fires again, a staff member clicks, a message is redelivered: nothing new while it plays.
    assert tasks.league_tick(league.pk) == "waiting"
    assert services.advance(league.pk) == "waiting"
    assert Match.objects.count() == 2
    assert LeagueRound.objects.filter(league=league).count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():  # and the database refuses duplicates
        LeagueRound.objects.create(league=league, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        LeagueMatch.objects.create(round=LeagueRound.objects.get(league=league), table=1, match=first[1])
    play_round(league, 1, django_capture_on_commit_callbacks)
    assert LeagueRound.objects.get(league=league, number=1).finished_at is not None
    assert tasks.league_tick(league.pk) == "round 2"
    assert tasks.league_tick(league.pk) == "waiting"
    assert len(round_matches(league, 2)) == 2


def test_a_league_runs_to_the_end_and_stops_its_schedule(
    league: League, django_capture_on_commit_callbacks: Any
) -> None:
    for number in (1, 2, 3):
        assert services.advance(league.pk) == f"round {number}"
        play_round(league, number, django_capture_on_commit_callbacks)
    league.refresh_from_db()
    assert league.status == LeagueStatus.FINISHED
    assert league.finished_at is not None
    assert services.advance(league.pk) == "finished"
    assert not PeriodicTask.objects.get(name=f"league-{league.pk}").enabled
    rows = list(Standing.objects.filter(league=league).order_by("rank"))
    assert len(rows) == 6
    assert sum(r.points for r in rows) == 3 * 2 * 3  # 3 rounds x 2 tables x 3 points per 3-player table
    assert all(r.games == 3 for r in rows)
    # Rated league: the Elo change is the ladder's change over the league's matches.
    for row in rows:
        rating = Rating.objects.get(bot=row.bot, ruleset=league.ruleset)
        assert row.elo_change == pytest.approx(rating.elo - 1500)


def test_round_robin_pairs_meet_evenly(
    classic: RuleSet, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from arena.tournaments.league_formats import meetings

    bots = bulk_bots(owner, 7, prefix="rr")
    league = make_league(classic, slug="rr", table_size=2, rounds=7, duplicate=False)
    RuleSet.objects.filter(pk=classic.pk).update(max_players=2)
    Entrant.objects.bulk_create(Entrant(league=league, bot=b) for b in bots)
    for number in range(1, 8):
        services.advance(league.pk)
        play_round(league, number, django_capture_on_commit_callbacks)
    tables = [list(m.participants.values_list("bot_id", flat=True)) for m in Match.objects.all()]
    met = meetings(tables)
    assert len(met) == 21  # every pair of 7 once
    assert set(met.values()) == {1}
    assert sorted(Standing.objects.filter(league=league).values_list("byes", flat=True)) == [1] * 7


def test_a_failed_match_is_recorded_and_never_blocks(
    league: League, django_capture_on_commit_callbacks: Any
) -> None:
    services.advance(league.pk)
    broken, good = round_matches(league, 1)
    with django_capture_on_commit_callbacks(execute=True):
        fail_for_good(broken)
    assert LeagueRound.objects.get(league=league, number=1).finished_at is None
    with django_capture_on_commit_callbacks(execute=True):
        finish(good, [1, 2, 3])
    assert LeagueRound.objects.get(league=league, number=1).finished_at is not None
    assert services.advance(league.pk) == "round 2"
    broken_bots = set(broken.participants.values_list("bot_id", flat=True))
    standings = {s.bot_id: s for s in Standing.objects.filter(league=league)}
    assert all(standings[b].games == 0 and standings[b].points == 0 for b in broken_bots)
    page = Client().get(f"/leagues/{league.slug}/rounds/1/").content.decode()
    assert "Failed" in page


def test_a_faulting_or_retired_bot_does_not_stop_the_league(
    league: League, entrants: list[Bot], django_capture_on_commit_callbacks: Any
) -> None:
    services.advance(league.pk)
    first, second = round_matches(league, 1)
    with django_capture_on_commit_callbacks(execute=True):
        # Seat 0 timed out: the referee placed it last; the match finished normally.
        finish(first, [3, 1, 2], faults=[FakeFault(), None, None])
        finish(second, [1, 2, 3])
    faulty = first.participants.get(seat=0).bot
    assert Standing.objects.get(league=league, bot=faulty).points == 0
    Bot.objects.filter(pk=faulty.pk).update(is_active=False)  # its owner retires it
    assert services.advance(league.pk) == "round 2"
    league_round = LeagueRound.objects.get(league=league, number=2)
    assert league_round.absent == [faulty.pk]
    seated = set(
        Match.objects.filter(league_match__round=league_round).values_list("participants__bot_id", flat=True)
    )
    assert faulty.pk not in seated
    assert len(seated) == 5


def test_swiss_pairs_by_standing(
    classic: RuleSet, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    bots = bulk_bots(owner, 8, prefix="swiss")
    league = make_league(classic, slug="swiss", format=LeagueFormat.SWISS, table_size=4, rounds=2)
    Entrant.objects.bulk_create(Entrant(league=league, bot=b) for b in bots)
    services.advance(league.pk)
    play_round(league, 1, django_capture_on_commit_callbacks)
    winners = {m.participants.get(seat=0).bot_id for m in round_matches(league, 1)}
    services.advance(league.pk)
    top_table = round_matches(league, 2)[0]
    top = set(top_table.participants.values_list("bot_id", flat=True))
    assert winners <= top  # the round-1 winners meet at the top table


def test_season_runs_the_ladder_among_every_active_bot(classic: RuleSet, owner: Any) -> None:
    bots = bulk_bots(owner, 9, prefix="season")
    league = make_league(classic, slug="season", format=LeagueFormat.SEASON, entry=Entry.ALL, table_size=3)
    assert services.advance(league.pk) == "round 1"
    assert set(Entrant.objects.filter(league=league).values_list("bot_id", flat=True)) == {b.pk for b in bots}
    matches = round_matches(league, 1)
    assert len(matches) == 3
    assert all(m.rated for m in matches)


def test_nothing_happens_before_the_start(classic: RuleSet, entrants: list[Bot]) -> None:
    from datetime import timedelta

    from django.utils import timezone

    league = make_league(classic, starts_at=timezone.now() + timedelta(hours=1))
    assert services.advance(league.pk) == "not-started"
    assert not Match.objects.exists()


def test_sweep_closes_rounds_whose_notification_was_lost(league: League) -> None:
    services.advance(league.pk)
    for match in round_matches(league, 1):
        finish(match, [1, 2, 3])  # no on_commit callbacks: as if the worker died right after the commit
    assert LeagueRound.objects.get(league=league, number=1).finished_at is None
    assert services.sweep_leagues() == 1
    assert LeagueRound.objects.get(league=league, number=1).finished_at is not None
    assert Standing.objects.filter(league=league, points__gt=0).count() == 4


# --- pages and permissions ------------------------------------------------------------------------

FORM = {
    "name": "Autumn cup",
    "slug": "autumn-cup",
    "description": "",
    "ruleset": "",  # filled with classic's id by form_data()
    "format": "round-robin",
    "entry": "opt-in",
    "rounds": "4",
    "table_size": "4",
    "duplicate": "on",
    "rated": "on",
    "schedule_kind": "interval",
    "interval_minutes": "30",
    "cron": "",
    "starts_at": "",
}


def form_data(**changes: str) -> dict[str, str]:
    """The league form, filled in, with ``changes``."""
    return {**FORM, "ruleset": str(RuleSet.objects.get(slug="classic").pk), **changes}


@pytest.fixture
def running(league: League, django_capture_on_commit_callbacks: Any) -> League:
    services.advance(league.pk)
    play_round(league, 1, django_capture_on_commit_callbacks)
    services.advance(league.pk)
    league.refresh_from_db()
    return league


@pytest.mark.parametrize("who", WHO)
def test_public_league_pages(web: dict[str, Client], running: League, who: str) -> None:
    client = web[who]
    listing = client.get("/leagues/")
    assert listing.status_code == 200
    assert running.name in listing.content.decode()
    page = client.get(f"/leagues/{running.slug}/")
    assert page.status_code == 200
    assert "Standings" in page.content.decode()
    round_page = client.get(f"/leagues/{running.slug}/rounds/1/")
    assert round_page.status_code == 200
    match = round_matches(running, 1)[0]
    assert f"/matches/{match.pk}/replay.json" in round_page.content.decode()
    assert client.get(f"/leagues/{running.slug}/rounds/9/").status_code == 404
    assert ("Start the next round now" in page.content.decode()) is (who == "staff")


@pytest.mark.parametrize("who", WHO)
def test_only_staff_create_edit_and_trigger(web: dict[str, Client], league: League, who: str) -> None:
    client = web[who]
    denied = {"owner": 403, "other": 403, "anon": 302, "staff": None}[who]
    new = client.get("/leagues/new/")
    assert new.status_code == (denied or 200)
    created = client.post("/leagues/new/", form_data())
    assert created.status_code == (denied or 302)
    assert League.objects.filter(slug="autumn-cup").exists() is (who == "staff")
    if who == "staff":
        fresh = League.objects.get(slug="autumn-cup")
        assert fresh.created_by is not None
        assert PeriodicTask.objects.get(name=f"league-{fresh.pk}").interval.every == 30
    edit = client.post(f"/leagues/{league.slug}/edit/", form_data(name="Renamed", slug=league.slug))
    assert edit.status_code == (denied or 302)
    league.refresh_from_db()
    assert (league.name == "Renamed") is (who == "staff")
    run = client.post(f"/leagues/{league.slug}/run/")
    assert run.status_code == (denied or 302)
    assert LeagueRound.objects.filter(league=league).exists() is (who == "staff")
    if denied == 302:
        assert "/accounts/login/" in run["Location"]


@pytest.mark.parametrize("who", WHO)
def test_owners_enter_and_withdraw_their_bots(
    web: dict[str, Client], classic: RuleSet, bot: Bot, who: str
) -> None:
    league = make_league(classic, slug="open")
    client = web[who]
    allowed = who in ("owner", "staff")  # staff may act for any bot
    response = client.post(f"/leagues/{league.slug}/enter/", {"bot": bot.pk})
    assert response.status_code == (302 if allowed or who == "anon" else 403)
    assert Entrant.objects.filter(league=league, bot=bot).exists() is allowed
    if who == "owner":
        assert f"Withdraw {bot.name}" in client.get(f"/leagues/{league.slug}/").content.decode()
    response = client.post(f"/leagues/{league.slug}/withdraw/", {"bot": bot.pk})
    assert response.status_code == (302 if allowed or who == "anon" else 403)
    assert not Entrant.objects.filter(league=league, bot=bot).exists()
    assert client.get(f"/leagues/{league.slug}/enter/").status_code == (302 if who == "anon" else 405)


def test_entries_close_when_the_league_starts(web: dict[str, Client], league: League, bot: Bot) -> None:
    services.advance(league.pk)
    web["owner"].post(f"/leagues/{league.slug}/enter/", {"bot": bot.pk})
    assert not Entrant.objects.filter(league=league, bot=bot).exists()


def test_standings_page_queries_do_not_grow_with_entrants(
    classic: RuleSet, owner: Any, django_assert_max_num_queries: Any, django_capture_on_commit_callbacks: Any
) -> None:
    def league_with(n: int, slug: str) -> League:
        made = make_league(classic, slug=slug, table_size=4, duplicate=False)
        Entrant.objects.bulk_create(Entrant(league=made, bot=b) for b in bulk_bots(owner, n, prefix=slug))
        services.advance(made.pk)
        play_round(made, 1, django_capture_on_commit_callbacks)
        return made

    small, big = league_with(8, "small"), league_with(48, "big")
    client = Client()
    with django_assert_max_num_queries(8) as few:
        assert client.get(f"/leagues/{small.slug}/").status_code == 200
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get(f"/leagues/{big.slug}/")
    assert response.content.decode().count("/bots/") >= 48
    assert len(current_standings(big)) == 48


def test_running_leagues_include(running: League, other: Any) -> None:
    html = render_to_string("web/_running_leagues.html")
    assert running.name in html
    assert "round 2 of 3" in html
    home = Client().get("/").content.decode()
    assert f"/leagues/{running.slug}/" in home  # the home page includes it
    League.objects.update(status=LeagueStatus.FINISHED)
    assert "Running leagues" not in render_to_string("web/_running_leagues.html")
