"""Series on the platform and the ladder filling free slots at once (issue 13): real referee, real
``process`` runner, real dispatcher and planner, in this process (the Celery queue is the tests' memory
broker; ``run_now`` plays a job as the worker would)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone

from bots.models import Bot
from ladder.matchmaker import plan_round
from ladder.tables import Seat, create_tables
from ladder.workers import SEEN
from matches import services
from matches.models import Match, MatchStatus, Origin
from matches.tasks import run_now
from ratings.models import Rating
from rulesets.models import RuleSet
from scheduling.dispatcher import busy, dispatch
from tests.platform.factories import make_bot

pytestmark = pytest.mark.django_db

#: Plays the first legal action (declaring UNO when it may); writes its pid to stderr on every game, and
#: says ``series`` when SERIES. CRASH_IN: the game (counted from 0 in this process) in which it exits at
#: its first request (-1: never).
SOURCE = """\
import json, os, sys
SERIES, CRASH_IN = {series}, {crash_in}
game = -1
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind in ("hello", "new_game"):
        game += 1
        sys.stderr.write("pid %d\\n" % os.getpid())
        sys.stderr.flush()
        ready = {{"type": "ready", "name": "s"}}
        if SERIES:
            ready["series"] = True
        print(json.dumps(ready), flush=True)
    elif kind == "request":
        if game == CRASH_IN:
            sys.exit(3)
        legal = message["legal"]
        action = next((a for a in legal if a.endswith("!") or a == "say_uno"), legal[0])
        print(json.dumps({{"type": "action", "id": message["id"], "action": action}}), flush=True)
    elif kind == "match_end" and not SERIES:
        break
"""


def bot_source(series: bool = True, crash_in: int = -1) -> bytes:
    """The source of :data:`SOURCE`."""
    return SOURCE.format(series=series, crash_in=crash_in).encode()


@pytest.fixture
def heads_up(rulesets: None) -> RuleSet:
    """A short two-player rule set (one hand)."""
    return RuleSet.objects.get(slug="classic-single")


def seat(bot: Bot) -> Seat:
    assert bot.active_version_id is not None
    return Seat(bot.pk, bot.active_version_id)


def pids(match: Match) -> dict[int, set[str]]:
    """Each bot's pids, as its stderr in that game says."""
    return {
        p.bot_id: {line for line in p.stderr.splitlines() if line.startswith("pid ")}
        for p in match.participants.all()
    }


def dispatched_series(ruleset: RuleSet, bots: list[Bot], games: int) -> list[Match]:
    """A rated ladder table of ``games`` games, handed to the workers by the dispatcher."""
    matches = create_tables(
        [(ruleset, [seat(b) for b in bots])], rated=True, origin=Origin.LADDER, series=games
    )
    dispatch()
    return sorted(matches, key=lambda m: m.pk)


def test_a_series_is_one_job_played_in_one_sandbox_per_bot(heads_up: RuleSet, owner: Any, other: Any) -> None:
    keeps = make_bot(owner, "keeps", source=bot_source(series=True))
    fresh = make_bot(other, "fresh", source=bot_source(series=False))
    games = dispatched_series(heads_up, [keeps, fresh], 3)
    assert len({m.series for m in games}) == 1
    assert games[0].series is not None
    assert len({m.seed for m in games}) == 3  # a series never replays a deal
    assert all(m.dispatched_at is not None for m in Match.objects.filter(pk__in=[m.pk for m in games]))
    assert busy() == 1  # the three games hold one slot

    run_now(games[0].pk)
    played = list(Match.objects.filter(pk__in=[m.pk for m in games]).order_by("pk"))
    assert [m.status for m in played] == [MatchStatus.FINISHED] * 3, [m.error for m in played]
    for k, match in enumerate(played):
        assert match.decisions
        assert match.replay.size > 0
        assert match.timings["series"] == [k, 3]
        assert {"start", "think", "engine", "record", "wall"} <= set(match.timings)
        assert not any(p.fault_kind for p in match.participants.all())
        # seats rotate from game to game
        assert [p.bot_id for p in match.participants.order_by("seat")] == (
            [keeps.pk, fresh.pk] if k % 2 == 0 else [fresh.pk, keeps.pk]
        )
    by_game = [pids(m) for m in played]
    assert len(set().union(*(g[keeps.pk] for g in by_game))) == 1  # started once for the series
    assert len(set().union(*(g[fresh.pk] for g in by_game))) == 3  # no series: started every game
    assert {r.games for r in Rating.objects.filter(ruleset=heads_up)} == {3}  # each game rated
    assert busy() == 0
    assert run_now(games[1].pk).status == MatchStatus.FINISHED  # a redelivered message does nothing


def test_a_fault_costs_its_game_only_and_the_sandbox_restarts(
    heads_up: RuleSet, owner: Any, other: Any
) -> None:
    crashes = make_bot(owner, "crashes", source=bot_source(series=True, crash_in=1))
    steady = make_bot(other, "steady", source=bot_source(series=True))
    games = dispatched_series(heads_up, [crashes, steady], 3)
    run_now(games[0].pk)
    played = list(Match.objects.filter(pk__in=[m.pk for m in games]).order_by("pk"))
    assert [m.status for m in played] == [MatchStatus.FINISHED] * 3
    faults = [{p.bot_id: p.fault_kind for p in m.participants.all()} for m in played]
    assert faults[0] == {crashes.pk: "", steady.pk: ""}
    assert faults[1][crashes.pk] == "crash"
    assert faults[1][steady.pk] == ""
    assert faults[2] == {crashes.pk: "", steady.pk: ""}  # a fresh sandbox: game 0 of its new process
    assert pids(played[2])[crashes.pk] != pids(played[0])[crashes.pk]
    assert pids(played[2])[steady.pk] == pids(played[0])[steady.pk]


def test_a_worker_lost_mid_series_keeps_what_was_recorded(
    heads_up: RuleSet, owner: Any, other: Any, settings: Any
) -> None:
    a = make_bot(owner, "a", source=bot_source())
    b = make_bot(other, "b", source=bot_source())
    games = dispatched_series(heads_up, [a, b], 3)
    claimed = services.claim_job(games[0].pk, worker="lost")
    assert [m.pk for m in claimed] == [m.pk for m in games]
    # The worker recorded game 0, then died: its other games stay running until the reaper comes.
    Match.objects.filter(pk=games[0].pk).update(status=MatchStatus.FINISHED, finished_at=timezone.now())
    later = timezone.now() + timedelta(seconds=settings.UNO_ARENA_REAP_AFTER + 1)
    assert services.reap_stale(now=later)["requeued"] == 2
    assert Match.objects.get(pk=games[0].pk).status == MatchStatus.FINISHED
    run_now(games[1].pk)  # the re-sent message brings the rest of the series
    rest = list(Match.objects.filter(pk__in=[games[1].pk, games[2].pk]).order_by("pk"))
    assert [m.status for m in rest] == [MatchStatus.FINISHED] * 2
    assert [m.attempts for m in rest] == [2, 2]
    assert rest[0].timings["series"] == [0, 2]


def test_duplicate_matches_never_form_a_series(heads_up: RuleSet, owner: Any, other: Any) -> None:
    a, b = make_bot(owner, "a"), make_bot(other, "b")
    matches = create_tables(
        [(heads_up, [seat(a), seat(b)])], rated=False, duplicate=True, origin=Origin.VERSIONTEST, series=4
    )
    assert len(matches) == 1
    assert matches[0].series is None


@pytest.fixture
def one_slot(settings: Any) -> None:
    """One worker seen, one slot, and room for one ladder job."""
    settings.UNO_ARENA_CAPACITY = 1
    settings.UNO_ARENA_PER_PROCESS = 1
    settings.UNO_ARENA_LADDER_PER_PROCESS = 1
    settings.UNO_ARENA_LADDER_EPSILON = 0
    cache.set(SEEN, 1, timeout=600)


@pytest.mark.parametrize("mode", ["fill", "off", "paused", "elsewhere"])
def test_a_finished_match_brings_the_next_ladder_match_at_once(
    heads_up: RuleSet,
    owner: Any,
    other: Any,
    one_slot: None,
    settings: Any,
    mode: str,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from django_celery_beat.models import PeriodicTask

    from ladder.schedule import install_periodic_tasks

    settings.UNO_ARENA_LADDER_FILL = mode != "off"
    install_periodic_tasks()
    if mode == "paused":  # staff paused the ladder in the admin: the dispatcher respects it
        PeriodicTask.objects.filter(task="ladder.tasks.matchmake").update(enabled=False)
    if mode == "elsewhere":  # staff keep the ladder to other rule sets: so does the dispatcher's top-up
        PeriodicTask.objects.filter(task="ladder.tasks.matchmake").update(kwargs='{"rulesets": ["classic"]}')
    make_bot(owner, "a")
    make_bot(other, "b")
    RuleSet.objects.exclude(pk=heads_up.pk).update(is_active=False)
    with django_capture_on_commit_callbacks(execute=True):
        assert plan_round(1)["tables"] == {heads_up.slug: 1}
    first = Match.objects.get()
    assert first.dispatched_at is not None
    services.claim_job(first.pk)
    assert plan_round(1)["room"] == 0  # the ladder is at its cap: nothing else planned
    with django_capture_on_commit_callbacks(execute=True):
        first.refresh_from_db()
        first.status = MatchStatus.FINISHED
        first.finished_at = timezone.now()
        first.save()  # the match ends: its commit dispatches (no beat, no matchmaking task)
    after = Match.objects.exclude(pk=first.pk)
    if mode == "fill":
        assert after.count() == 1
        assert after.get().dispatched_at is not None
        assert after.get().origin == Origin.LADDER
    else:
        assert not after.exists()  # (before issue 13, always:) the slot stays empty until the ladder's beat


def test_the_fill_leaves_other_origins_their_share(
    heads_up: RuleSet, owner: Any, other: Any, one_slot: None, django_capture_on_commit_callbacks: Any
) -> None:
    from matches.services import create_match

    make_bot(owner, "a")
    make_bot(other, "b")
    c, d = make_bot(owner, "c"), make_bot(other, "d")
    RuleSet.objects.exclude(pk=heads_up.pk).update(is_active=False)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):  # a user keeps challenges waiting (their bots are busy for the ladder)
            create_match(heads_up, [c, d], rated=False, created_by=owner)
        plan_round(1)
    order = []
    for _ in range(6):  # each job ends; the next dispatch chooses between the ladder and the challenges
        (running,) = Match.objects.filter(dispatched_at__isnull=False, status=MatchStatus.QUEUED)
        order.append(running.origin)
        services.claim_job(running.pk)
        with django_capture_on_commit_callbacks(execute=True):
            running.refresh_from_db()
            running.status = MatchStatus.FINISHED
            running.finished_at = timezone.now()
            running.save()
    # Ladder weight 4, challenges 2: the ladder fills the slot it is due, the challenges keep their turns.
    assert Origin.CHALLENGE in order[:3], order  # within ceil(W / 2) = 3 dispatches
    assert order.count(Origin.LADDER) >= 3, order
