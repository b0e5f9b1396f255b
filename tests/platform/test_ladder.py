"""The continuous ladder: the matchmaking task, throughput control, beat schedules, rating fits,
head-to-head pages."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.core.cache import cache
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from bots.models import Bot
from ladder import fits, matchmaker, tasks, workers
from ladder.models import FittedRating, LadderMatch, RatingFit
from ladder.schedule import PERIODIC_TASKS, install_periodic_tasks
from matches.models import Match, MatchStatus
from matches.services import create_match
from ratings.models import Rating
from rulesets.models import RuleSet
from tests.platform.ladder_support import bulk_bots, finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def pool(classic: RuleSet, owner: Any) -> list[Bot]:
    """Twelve bots with passed versions (and the rule sets)."""
    return bulk_bots(owner, 12)


@pytest.fixture
def two_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "live_match_processes", lambda: 2)


def ladder_queue(slug: str) -> int:
    return Match.objects.filter(status=MatchStatus.QUEUED, ladder__isnull=False, ruleset__slug=slug).count()


def test_nothing_is_planned_when_no_worker_runs_matches(
    pool: list[Bot], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "live_match_processes", lambda: 0)
    assert tasks.matchmake() == {"processes": 0}
    assert not Match.objects.exists()


def test_the_queue_is_kept_steady_per_rule_set(pool: list[Bot], two_processes: None, settings: Any) -> None:
    settings.UNO_ARENA_LADDER_QUEUED = 2
    settings.UNO_ARENA_LADDER_EPSILON = 0  # no exploration tables (their size is random)
    first = tasks.matchmake(rulesets=["classic", "classic-single"])
    assert first["processes"] == 2
    assert first["tables"] == {"classic": 2, "classic-single": 2}
    assert ladder_queue("classic") == ladder_queue("classic-single") == 2
    assert tasks.matchmake(rulesets=["classic", "classic-single"])["tables"] == {}  # already full
    done = Match.objects.filter(ruleset__slug="classic").first()
    assert done is not None
    finish(done, [1, 2, 3, 4])
    again = tasks.matchmake(rulesets=["classic", "classic-single"])
    assert again["tables"] == {"classic": 1}
    for match in Match.objects.filter(ladder__isnull=False):
        assert match.rated
        assert match.participants.count() == 4  # the preferred size, inside classic's 2..10


def test_exploration_tables_stay_in_the_player_range(classic: RuleSet, owner: Any, settings: Any) -> None:
    settings.UNO_ARENA_LADDER_EPSILON = 1
    bulk_bots(owner, 60)
    RuleSet.objects.filter(slug="classic").update(min_players=3, max_players=5)
    matchmaker.plan_round(capacity=100, rulesets=["classic"], queued=12, rng=random.Random(4))
    assert LadderMatch.objects.filter(explore=True).count() == 12
    sizes = {m.participants.count() for m in Match.objects.all()}
    assert sizes <= {3, 4, 5}
    assert len(sizes) > 1


def test_the_queue_never_exceeds_capacity(pool: list[Bot], classic: RuleSet, settings: Any) -> None:
    create_match(classic, pool[:2], rated=False)  # challenges wait in their own queue (the scheduler's)
    create_match(classic, pool[2:4], rated=False)
    result = matchmaker.plan_round(capacity=5, queued=10)
    assert result["room"] == 5  # a flood of challenges does not stop the ladder
    assert sum(result["tables"].values()) == 5
    assert Match.objects.filter(origin="ladder").count() == 5
    assert matchmaker.plan_round(capacity=5, queued=10) == {"room": 0, "tables": {}}


def test_capacity_follows_the_live_workers(
    pool: list[Bot], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.UNO_ARENA_LADDER_PER_PROCESS = 3
    settings.UNO_ARENA_LADDER_CAPACITY = 100
    monkeypatch.setattr(workers, "live_match_processes", lambda: 1)
    result = tasks.matchmake(queued=50)
    assert sum(result["tables"].values()) == 3
    assert Match.objects.count() == 3


@pytest.mark.parametrize("epsilon", [0.0, 1.0])
def test_a_bot_is_never_queued_twice_on_a_rule_set(pool: list[Bot], settings: Any, epsilon: float) -> None:
    settings.UNO_ARENA_LADDER_EPSILON = epsilon  # 1.0: every table is an exploration table of random size
    matchmaker.plan_round(capacity=100, rulesets=["classic"], queued=100)
    seats = list(Match.objects.filter(ruleset__slug="classic").values_list("participants__bot_id", flat=True))
    assert len(seats) == len(set(seats))  # nobody twice
    # Tables of the planned size seat everyone; random sizes may leave fewer than a table's minimum over.
    assert len(seats) == 12 if epsilon == 0 else len(seats) >= 12 - 1


def test_ineligible_bots_are_left_out(classic: RuleSet, owner: Any, settings: Any) -> None:
    settings.UNO_ARENA_LADDER_EPSILON = 0  # no exploration table of random size leaving a good bot over
    good = bulk_bots(owner, 4, prefix="good")
    pending = bulk_bots(owner, 4, prefix="pending", passed=False)
    retired = bulk_bots(owner, 4, prefix="retired")
    Bot.objects.filter(pk__in=[b.pk for b in retired]).update(is_active=False)
    matchmaker.plan_round(capacity=100, rulesets=["classic"], queued=10)
    seated = set(Match.objects.values_list("participants__bot_id", flat=True))
    assert seated == {b.pk for b in good}
    assert not seated & {b.pk for b in pending + retired}


def test_one_run_at_a_time(pool: list[Bot], two_processes: None) -> None:
    cache.add(tasks.LOCK, 1)
    assert tasks.matchmake() == {"locked": True}
    cache.delete(tasks.LOCK)
    assert "tables" in tasks.matchmake()


def test_the_ladder_can_be_switched_off(pool: list[Bot], two_processes: None, settings: Any) -> None:
    settings.UNO_ARENA_LADDER = False
    assert tasks.matchmake() == {"disabled": True}


def test_planning_costs_a_constant_number_of_queries(classic: RuleSet, owner: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    bulk_bots(owner, 300)
    with CaptureQueriesContext(connection) as queries:
        result = matchmaker.plan_round(capacity=1000, queued=3, rng=random.Random(1))
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    inserts = [sql for sql in statements if sql.startswith("INSERT")]
    assert len(statements) - len(inserts) == 6  # rule sets, in flight, queues, bots, busy bots, ratings
    assert len(inserts) <= 4  # matches, seats (SQLite splits them in two batches here), ladder links
    assert sum(result["tables"].values()) == 3 * RuleSet.objects.filter(is_active=True).count()
    assert LadderMatch.objects.count() == sum(result["tables"].values())


def test_share_room_is_round_robin() -> None:
    assert matchmaker.share_room({1: 3, 2: 3, 3: 0}, 4) == {1: 2, 2: 2, 3: 0}
    assert matchmaker.share_room({1: 1, 2: 5}, 10) == {1: 1, 2: 5}
    assert matchmaker.share_room({}, 5) == {}


def test_one_lost_reply_does_not_pause_the_ladder(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter([2, 0])
    monkeypatch.setattr(workers, "live_match_processes", lambda: next(answers))
    assert workers.match_processes(grace=60) == 2
    assert workers.match_processes(grace=60) == 2  # remembered
    cache.delete(workers.SEEN)  # the grace period is over
    monkeypatch.setattr(workers, "live_match_processes", lambda: 0)
    assert workers.match_processes(grace=60) == 0


def test_live_match_processes_counts_the_pools_of_the_match_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []

    class Inspect:
        def __init__(self, queues: Any, stats: Any, destination: Any) -> None:
            self.queues, self.stats_, self.destination = queues, stats, destination

        def active_queues(self) -> Any:
            if isinstance(self.queues, Exception):
                raise self.queues
            return self.queues

        def stats(self) -> Any:
            asked.append(self.destination)
            if isinstance(self.stats_, Exception):
                raise self.stats_
            return self.stats_

    def answer(queues: Any, stats: Any = None) -> None:
        monkeypatch.setattr(
            workers.current_app.control,
            "inspect",
            lambda timeout, destination=None: Inspect(queues, stats, destination),
        )

    queues = {
        "w1@h": [{"name": "matches"}, {"name": "site"}],
        "w2@h": [{"name": "site"}],
        "w3@h": [{"name": "matches"}],
    }
    pools = {
        "w1@h": {"pool": {"max-concurrency": 3}},
        "w2@h": {"pool": {"max-concurrency": 8}},
        "w3@h": {"pool": {"max-concurrency": 2}},
    }
    answer(queues, pools)
    assert workers.live_match_processes() == 5  # the site-only worker's 8 do not count
    assert asked == [["w1@h", "w3@h"]]  # only the match workers are asked for their pools
    answer(queues, {"w1@h": {"pool": {"max-concurrency": 3}}})  # w3's stats reply was late
    assert workers.live_match_processes() == 5  # its pool size as last seen
    answer(queues, ConnectionError("a reply read half-written"))
    assert workers.live_match_processes() == 5
    answer(queues, {"w1@h": {"pool": {}}, "w3@h": "garbage"})
    assert workers.live_match_processes() == 2  # answers without a pool size: one process each
    cache.delete_many([workers.POOL + "w1@h", workers.POOL + "w3@h"])  # forgotten: one process each
    answer(queues, {})
    assert workers.live_match_processes() == 2
    answer(None)  # nobody answered
    assert workers.live_match_processes() == 0
    answer(ConnectionError("broker down"))
    assert workers.live_match_processes() == 0
    # A worker of the smoke lane alone counts there; one of both queues is a match worker.
    cache.delete(workers.SEEN_SMOKE)
    assert workers.known_smoke_processes() == 0
    queues |= {"s1@h": [{"name": "smoke"}], "s2@h": [{"name": "smoke"}, {"name": "matches"}]}
    pools |= {"s1@h": {"pool": {"max-concurrency": 1}}, "s2@h": {"pool": {"max-concurrency": 4}}}
    asked.clear()
    answer(queues, pools)
    assert workers.live_match_processes() == 9
    assert asked == [["s1@h", "s2@h", "w1@h", "w3@h"]]
    assert workers.known_smoke_processes() == 1


def test_beat_schedules_are_installed_once_and_stay_edited(db: Any) -> None:
    names = set(PeriodicTask.objects.values_list("name", flat=True))
    assert set(PERIODIC_TASKS) <= names  # created by migrate
    task = PeriodicTask.objects.get(name="ladder-matchmaking")
    assert task.task == "ladder.tasks.matchmake"
    assert task.interval is not None
    edited, _ = IntervalSchedule.objects.get_or_create(every=5, period=IntervalSchedule.MINUTES)
    task.interval = edited
    task.save()
    assert install_periodic_tasks() == 0
    assert PeriodicTask.objects.get(name="ladder-matchmaking").interval == edited
    PeriodicTask.objects.filter(name="ladder-rating-fit").delete()
    assert install_periodic_tasks() == 1


# --- the batch rating fit -------------------------------------------------------------------------


def play_some(classic: RuleSet, bots: list[Bot], matches: int, seed: int = 3) -> None:
    """Rated matches where lower-numbered bots tend to finish ahead."""
    rng = random.Random(seed)
    for _ in range(matches):
        table = rng.sample(bots, 3)
        match = create_match(classic, table, rated=True)
        strength = [-bots.index(b) + rng.gauss(0, 3) for b in table]
        order = sorted(range(3), key=lambda k: -strength[k])
        places = [0, 0, 0]
        for rank, seat in enumerate(order, start=1):
            places[seat] = rank
        finish(match, places)


def test_refit_stores_fitted_elo_with_intervals(classic: RuleSet, pool: list[Bot]) -> None:
    bots = pool[:6]
    play_some(classic, bots, 60)
    record = fits.refit(classic)
    assert record.matches == 60
    assert record.bots == 6
    assert record.method == "sandwich-dense"
    rows = {f.rating.bot_id: f for f in FittedRating.objects.select_related("rating")}
    assert set(rows) == {b.pk for b in bots}
    for fit in rows.values():
        assert fit.low < fit.elo < fit.high
        assert fit.games == Rating.objects.get(pk=fit.rating_id).games
    assert rows[bots[0].pk].elo > rows[bots[-1].pk].elo
    again = fits.refit(classic)  # upsert, not duplicates
    assert again.pk == record.pk
    assert FittedRating.objects.count() == 6


def test_fit_task_covers_rule_sets_with_rated_games(classic: RuleSet, pool: list[Bot]) -> None:
    play_some(classic, pool[:4], 10)
    assert tasks.fit_ratings() == {"classic": 4}
    assert RatingFit.objects.get().ruleset == classic


# --- head to head ---------------------------------------------------------------------------------


@pytest.fixture
def rivals(classic: RuleSet, bot: Bot, rival: Bot, owner: Any) -> tuple[Bot, Bot]:
    """``bot`` beats ``rival`` 3 times, loses once, ties once; one unrated 3-player meeting too."""
    for places in ([1, 2], [1, 2], [1, 2], [2, 1], [1, 1]):
        finish(create_match(classic, [bot, rival], rated=True), places)
    third = bulk_bots(owner, 1, prefix="third")[0]
    finish(create_match(RuleSet.objects.get(slug="stacking"), [rival, third, bot], rated=False), [3, 1, 2])
    create_match(classic, [bot, rival], rated=True)  # queued: does not count
    return bot, rival


@pytest.mark.parametrize("who", ["owner", "other", "anon", "staff"])
def test_head_to_head_page(
    clients: dict[str, Any], staff: Any, rivals: tuple[Bot, Bot], who: str, django_assert_max_num_queries: Any
) -> None:
    from django.test import Client

    client = clients.get(who) or Client()
    if who == "staff":
        client.force_login(staff)
    a, b = rivals
    with django_assert_max_num_queries(7):  # the six of the records, and the rule sets' names
        response = client.get(f"/ladder/h2h/?a={a.name}&b={b.name}")
    assert response.status_code == 200
    rows = dict(response.context["rows"])
    assert (rows["classic"].wins, rows["classic"].ties, rows["classic"].losses) == (3, 1, 1)
    assert rows["classic"].score == pytest.approx(0.7)
    assert (rows["stacking"].wins, rows["stacking"].losses) == (1, 0)
    assert rows["all"].meetings == 6
    assert "Wilson 95% interval" in response.content.decode()
    assert '<a href="/rules/classic/">Classic</a>' in response.content.decode()  # display names
    rated = client.get(f"/ladder/h2h/?a={a.name}&b={b.name}&rated=1")
    assert "stacking" not in dict(rated.context["rows"])


def test_head_to_head_errors(client: Any, bot: Bot) -> None:
    response = client.get("/ladder/h2h/?a=nobody&b=ownbot")
    assert "No bot is called" in response.content.decode()
    response = client.get(f"/ladder/h2h/?a={bot.name}&b={bot.name}")
    assert "Pick two different bots" in response.content.decode()
    assert client.get("/ladder/h2h/").status_code == 200


# --- leaderboards show the fit's interval and rank provisional bots apart ---------------------------


def test_leaderboard_shows_intervals_and_ranks_provisional_bots_apart(
    client: Any,
    classic: RuleSet,
    pool: list[Bot],
    django_capture_on_commit_callbacks: Any,
    django_assert_num_queries: Any,
) -> None:
    bots = pool[:6]
    play_some(classic, bots, 60)  # 30 games each on average: established
    newcomer, _ = pool[6], pool[7]
    finish(create_match(classic, [newcomer, pool[7]], rated=True), [1, 2])  # one game: provisional
    Rating.objects.filter(bot=newcomer).update(elo=2000)  # even a high provisional rating ranks after
    first = client.get("/rules/classic/").content.decode()
    assert "—" in first  # no fit yet
    with django_capture_on_commit_callbacks(execute=True):  # the fit bumps the cached pages
        fits.refit(classic)
    with django_assert_num_queries(3):  # rule set, count, page: the fit is joined in
        page = client.get("/rules/classic/").content.decode()
    fit = FittedRating.objects.get(rating__bot=bots[0])
    assert f"{fit.elo:.0f} ± {(fit.high - fit.low) / 2:.0f}" in page
    section = page.index("Provisional: fewer than 20 rated games")
    assert all(page.index(f">{b.name}<") < section for b in bots if Rating.objects.get(bot=b).games >= 20)
    assert page.index(f">{newcomer.name}<") > section
    data = client.get("/api/leaderboards/classic/").json()
    top = data["results"][0]
    assert top["provisional"] is False
    assert top["fit"]["low"] < top["fit"]["elo"] < top["fit"]["high"]
    assert data["results"][-1]["provisional"] is True


def test_epoch_seconds_in_the_database(classic: RuleSet, pool: list[Bot]) -> None:
    from datetime import UTC, datetime

    from ladder.sql import EpochSeconds

    moment = datetime(2026, 3, 4, 5, 6, 7, 890000, tzinfo=UTC)
    Rating.objects.create(bot=pool[0], ruleset=classic, last_played=moment)
    Rating.objects.create(bot=pool[1], ruleset=classic)
    rows = dict(Rating.objects.annotate(seconds=EpochSeconds("last_played")).values_list("bot_id", "seconds"))
    assert rows[pool[0].pk] == pytest.approx(moment.timestamp(), abs=1e-3)
    assert rows[pool[1].pk] is None
