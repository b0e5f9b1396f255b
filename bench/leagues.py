"""Ladder and league speed: the matchmaking task on 10,000 bots x 10 rule sets, and league standings of
1,000 entrants next to the leaderboard, in the same run.

    python bench/leagues.py [--bots 10000] [--rulesets 10] [--entrants 1000] [--requests 30]

1. Creates a fresh database: on PostgreSQL when it answers (``BENCH_POSTGRES_URL``, default
   ``postgres://postgres@127.0.0.1:5432/postgres``: a new ``uno_arena_bench_leagues_<pid>`` is created
   there and dropped at the end; ``--sqlite`` skips it), else a SQLite file in a temporary folder. Migrates
   it and seeds ``--bots`` active bots with passed versions and a rating (with a batch fit) on each of
   ``--rulesets`` active rule sets, played a while ago.
2. Times one matchmaking round as the periodic task runs it (``ladder.matchmaker.plan_round``: the
   steady state, 3 matches queued per rule set) and a round that seats every bot, and prints the time
   and the number of queries of each (each round is rolled back, so every run starts the same).
3. Runs three rounds of a round-robin league of ``--entrants`` bots at tables of 4 through the league
   services (results stored in bulk: no sandbox), recomputes its standings, then renders the league
   page (standings, 50 a page) and the leaderboard page ``--requests`` times each with Django's test
   client and prints the median and p95 latencies side by side (leaderboard both uncached and cached).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(REPO), str(REPO / "platform"), str(HERE)]


def say(message: str) -> None:
    """Progress on stderr (the results go to stdout)."""
    sys.stderr.write(f"bench: {message}\n")
    sys.stderr.flush()


from benchdb import bench_database  # noqa: E402  (bench/ on the path above)


def database(work: Path, use_postgres: bool) -> contextlib.AbstractContextManager[str]:
    """The ``DATABASE_URL`` of a new, empty database (dropped afterwards on PostgreSQL)."""
    return bench_database(work, "leagues", use_postgres)


def setup_django(work: Path, url: str) -> None:
    """Settings for a private database and data folder; the site in debug mode (plain static files)."""
    os.environ["UNO_ARENA_VAR"] = str(work)
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["UNO_ARENA_DEBUG"] = "1"  # no collected static files here
    os.environ["UNO_ARENA_HTTPS"] = "0"  # the test client speaks plain HTTP (no TLS proxy here)
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["UNO_ARENA_RUNNER"] = "process"
    os.environ["CELERY_BROKER_URL"] = "memory://"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("sync_rulesets", verbosity=0)


def seed(bots: int, rulesets: int) -> list[Any]:
    """Bots with passed versions, ratings and fits on ``rulesets`` active rule sets; returns them."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from bots.models import Bot, BotVersion, SmokeStatus
    from ladder.models import FittedRating
    from ratings.models import Rating
    from rulesets.models import RuleSet

    rng = random.Random(1)
    active = list(RuleSet.objects.order_by("slug")[:rulesets])
    RuleSet.objects.exclude(pk__in=[r.pk for r in active]).update(is_active=False)
    users = User.objects.bulk_create(User(username=f"user{i:05d}") for i in range(max(1, bots // 5)))
    made = Bot.objects.bulk_create(
        (Bot(owner=users[i % len(users)], name=f"bot{i:05d}") for i in range(bots)), batch_size=2000
    )
    versions = BotVersion.objects.bulk_create(
        (
            BotVersion(
                bot=bot,
                number=1,
                filename="bot.py",
                entry_point="bot.py",
                archive=b"",
                sha256=hashlib.sha256(bot.name.encode()).hexdigest(),
                size=1,
                smoke_status=SmokeStatus.PASSED,
            )
            for bot in made
        ),
        batch_size=2000,
    )
    for bot, version in zip(made, versions, strict=True):
        bot.active_version = version
    Bot.objects.bulk_update(made, ["active_version"], batch_size=2000)
    now = timezone.now()
    for ruleset in active:
        ratings = Rating.objects.bulk_create(
            (
                Rating(
                    bot=bot,
                    ruleset=ruleset,
                    elo=rng.gauss(1500, 200),
                    games=rng.randint(0, 300),
                    wins=0,
                    last_played=now - timedelta(seconds=rng.uniform(60, 86_400)),
                )
                for bot in made
            ),
            batch_size=2000,
        )
        FittedRating.objects.bulk_create(
            (
                FittedRating(
                    rating=r,
                    elo=r.elo,
                    low=r.elo - 40,
                    high=r.elo + 40,
                    stderr=20,
                    games=r.games,
                    computed_at=now,
                )
                for r in ratings
            ),
            batch_size=2000,
        )
    return made


def timed_round(plan: Callable[[], dict[str, Any]]) -> tuple[float, int, int]:
    """Run ``plan`` in a transaction that is rolled back: (seconds, queries, tables)."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        result = plan()
        seconds = time.perf_counter() - started
        transaction.set_rollback(True)
    statements = [q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    return seconds, len(statements), sum(result["tables"].values())


def bench_matchmaking(bots: int, rulesets: int) -> None:
    """Print the steady-state round, the planning of a round seating every bot, and that whole round."""
    from django.utils import timezone

    from arena.tournaments.matchmaking import PlannerSettings, plan_tables
    from ladder.matchmaker import candidates_by_ruleset, plan_round
    from rulesets.models import RuleSet

    say("matchmaking rounds")
    steady = [
        timed_round(functools.partial(plan_round, 10**9, queued=3, rng=random.Random(k))) for k in range(5)
    ]
    seconds, queries, tables = min(steady)
    median = statistics.median(s for s, _, _ in steady)
    print(
        f"matchmaking, {bots} active bots x {rulesets} rule sets, 3 queued per rule set (the periodic task):"
    )
    print(
        f"  planned {tables} matches in {seconds * 1000:.0f} ms (best of 5; median {median * 1000:.0f} ms), {queries} queries"
    )
    active = list(RuleSet.objects.filter(is_active=True))
    started = time.perf_counter()
    pools, _ = candidates_by_ruleset([r.pk for r in active], timezone.now())
    loaded = time.perf_counter()
    seated = 0
    for ruleset in active:
        settings = PlannerSettings(min_players=ruleset.min_players, max_players=ruleset.max_players)
        seated += len(plan_tables(pools[ruleset.pk], time.time(), settings, rng=random.Random(5)))
    planned = time.perf_counter()
    print(
        f"  a round seating every bot: {seated} tables planned in {(planned - started) * 1000:.0f} ms "
        f"(loading {(loaded - started) * 1000:.0f} ms, seating {(planned - loaded) * 1000:.0f} ms)"
    )
    full_seconds, full_queries, full_tables = timed_round(
        lambda: plan_round(capacity=10**9, queued=bots, rng=random.Random(9))
    )
    print(
        f"  ... and queued through plan_round: {full_tables} matches in {full_seconds * 1000:.0f} ms, {full_queries} queries"
    )


def bench_league(entrants: int, requests: int) -> None:
    """Three rounds of a league, its standings, and the two pages' latencies."""
    from django.conf import settings
    from django.test import Client
    from django.utils import timezone

    from bots.models import Bot
    from leagues.models import Entrant, League
    from leagues.services import advance, save_league
    from leagues.standings import update_standings
    from matches.models import Match, MatchStatus, Participant
    from rulesets.models import RuleSet

    say(f"a league of {entrants} entrants")
    ruleset = RuleSet.objects.filter(is_active=True, min_players__lte=4, max_players__gte=4).order_by("slug")[
        0
    ]
    league = save_league(
        League(name="Bench league", slug="bench", ruleset=ruleset, rounds=3, table_size=4, rated=False)
    )
    chosen = list(Bot.objects.order_by("pk").values_list("pk", flat=True)[:entrants])
    Entrant.objects.bulk_create(Entrant(league=league, bot_id=pk) for pk in chosen)
    rng = random.Random(3)
    for _ in range(3):
        advance(league.pk)
        seats = list(
            Participant.objects.filter(
                match__league_match__round__league=league, match__status=MatchStatus.QUEUED
            )
        )
        by_match: dict[int, list[Participant]] = {}
        for seat in seats:
            by_match.setdefault(seat.match_id, []).append(seat)
        for table in by_match.values():
            for place, seat in enumerate(rng.sample(table, len(table)), start=1):
                seat.place = place
        Participant.objects.bulk_update(seats, ["place"], batch_size=2000)
        Match.objects.filter(pk__in=list(by_match)).update(
            status=MatchStatus.FINISHED, finished_at=timezone.now()
        )
    started = time.perf_counter()
    update_standings(league)
    standings_seconds = time.perf_counter() - started
    advance(league.pk)  # closes the last round
    client = Client()

    def latencies(path: str) -> list[float]:
        out = []
        for _ in range(requests):
            started = time.perf_counter()
            response = client.get(path)
            out.append(time.perf_counter() - started)
            assert response.status_code == 200, (path, response.status_code)
        return out

    def show(label: str, values: list[float]) -> None:
        p95 = sorted(values)[max(0, int(len(values) * 0.95) - 1)]
        print(f"  {label:<38} median {statistics.median(values) * 1000:6.1f} ms   p95 {p95 * 1000:6.1f} ms")

    print(
        f"league of {entrants} entrants, 3 rounds at tables of 4 ({Match.objects.filter(league_match__isnull=False).count()} matches):"
    )
    print(f"  standings recomputed in {standings_seconds * 1000:.0f} ms")
    league_page = latencies(f"/leagues/{league.slug}/")
    settings.UNO_ARENA_LEADERBOARD_CACHE = 0
    board_uncached = latencies(f"/rules/{ruleset.slug}/")
    settings.UNO_ARENA_LEADERBOARD_CACHE = 30
    board_cached = latencies(f"/rules/{ruleset.slug}/")
    show("league page (standings, 50 a page)", league_page)
    show("leaderboard page, not cached", board_uncached)
    show("leaderboard page, cached", board_cached)
    ratio = statistics.median(league_page) / statistics.median(board_uncached)
    print(f"  league page / uncached leaderboard (median): {ratio:.2f}")


def main() -> None:
    """Parse the arguments, seed, measure, print."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bots", type=int, default=10_000)
    parser.add_argument("--rulesets", type=int, default=10)
    parser.add_argument("--entrants", type=int, default=1_000)
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--sqlite", action="store_true", help="do not use PostgreSQL even if it answers")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory(prefix="uno-arena-bench-leagues-") as work,
        database(Path(work), not args.sqlite) as url,
    ):
        setup_django(Path(work), url)
        from django.db import connection

        say(f"seeding {args.bots} bots on {args.rulesets} rule sets ({connection.vendor})")
        print(f"database: {connection.vendor}")
        seed(args.bots, args.rulesets)
        bench_matchmaking(args.bots, args.rulesets)
        bench_league(min(args.entrants, args.bots), args.requests)


if __name__ == "__main__":
    main()
