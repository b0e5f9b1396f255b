"""Platform throughput: the real pipeline (Celery workers, PostgreSQL, Redis, a sandbox runner) playing the
ladder on a seeded population for a fixed time, with a breakdown of where each game's time goes.

    python bench/throughput.py [--seconds 120] [--runner process|bwrap|docker] [--bots 40] [--rulesets 4]
        [--workers 2] [--configs before,after] [--versiontest 0]

1. Creates a fresh PostgreSQL database (``BENCH_POSTGRES_URL``, default
   ``postgres://postgres@127.0.0.1:5432/postgres``: ``uno_arena_bench_throughput_<pid>`` is created there
   and dropped at the end), migrates it and seeds ``--bots`` bots (a first-legal-action bot that plays
   series: ``ready.series``) with passed versions on ``--rulesets`` active rule sets.
2. Measures, in the same run, the two parts of the **lower bound** of a game: the parallel start-up of a
   table's bots in the runner (all started at once, until each has answered a line) and the round trip
   of one line through a raw pipe to a plain child process (``bench/runners.py``'s baseline).
3. For each configuration (``before``: one game a job, the ladder planning only at its beat;
   ``fill``: one game a job, the ladder topping up free slots at once; ``after``: that and
   ``UNO_ARENA_LADDER_SERIES`` games a job, one job handed out per worker process; ``held``: ``after`` with
   four jobs handed to each worker process, as before the dispatcher counted processes) starts
   ``--workers`` ``celery worker`` processes (concurrency 1 each, the broker and cache on ``REDIS_URL``),
   plays beat itself (dispatch every ``UNO_ARENA_DISPATCH_EVERY`` s, matchmaking every
   ``UNO_ARENA_LADDER_EVERY`` s), and after ``--seconds`` prints: games and jobs a minute, the workers'
   busy fraction (the worker's time on the games finished in the window over the workers' time), and per game the
   split recorded by the match task (``Match.timings``): waiting in the queue (dispatched to started),
   preparing (loading the job), sandbox start-up and shutdown, the bots' think time, the referee's and
   engine's own time, recording (replay, viewer data, ratings, the transaction, and the commit's hooks:
   the next dispatch, version-test and league bookkeeping), the rest, against the
   lower bound (start-up per job shared by its games + decisions x raw round trip).
4. ``--versiontest N`` also runs a version test of ``N`` pairs (batches of 20, each played as series of
   ``UNO_ARENA_VERSIONTEST_SERIES`` duplicate pairs, rotation-major) in each configuration and prints its
   games a minute (``--no-ladder``: the version test alone).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path[:0] = [str(REPO), str(REPO / "platform"), str(HERE)]

from benchdb import postgres_database  # noqa: E402  (bench/ on the path above)

#: A raw protocol bot: the first legal action (declaring UNO when it may), in series (``new_game`` answered
#: like ``hello``).
SERIES_BOT = """\
import json
import sys
write, flush = sys.stdout.write, sys.stdout.flush
for line in sys.stdin:
    if line.startswith('{"type":"request"'):
        message = json.loads(line)
        legal = message["legal"]
        action = next((a for a in legal if a.endswith("!") or a == "say_uno"), legal[0])
        write('{"type":"action","id":%d,"action":"%s"}\\n' % (message["id"], action))
        flush()
    elif line.startswith('{"type":"hello"') or line.startswith('{"type":"new_game"'):
        write('{"type":"ready","name":"first-legal","series":true}\\n')
        flush()
"""
CONFIGS = {
    "before": {"UNO_ARENA_LADDER_SERIES": "1", "UNO_ARENA_LADDER_FILL": "0"},
    "fill": {"UNO_ARENA_LADDER_SERIES": "1", "UNO_ARENA_LADDER_FILL": "1"},
    "after": {"UNO_ARENA_LADDER_SERIES": "4", "UNO_ARENA_LADDER_FILL": "1"},
    # "after" as it was before the dispatcher counted worker processes: four jobs handed to each worker
    # (three of them waiting in the broker behind the one running).
    "held": {
        "UNO_ARENA_LADDER_SERIES": "4",
        "UNO_ARENA_LADDER_FILL": "1",
        "UNO_ARENA_PER_PROCESS": "4",
        "UNO_ARENA_LADDER_PER_PROCESS": "4",
    },
}


def say(message: str) -> None:
    """Progress on stderr (the results go to stdout)."""
    sys.stderr.write(f"bench: {message}\n")
    sys.stderr.flush()


def database() -> contextlib.AbstractContextManager[str]:
    """The ``DATABASE_URL`` of a new, empty PostgreSQL database, dropped afterwards."""
    return postgres_database("throughput")


def setup_django(work: Path, url: str, redis: str, runner: str) -> None:
    """Production settings on the private database, the Redis broker and cache."""
    os.environ.update(
        UNO_ARENA_VAR=str(work / "bench-var"),
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="config.settings",
        CELERY_BROKER_URL=redis,
        CACHE_URL=redis,
        UNO_ARENA_RUNNER=runner,
    )
    import django

    django.setup()
    import logging

    from django.core.management import call_command

    logging.disable(logging.INFO)  # the dispatcher's and ladder's lines would drown the figures
    call_command("migrate", verbosity=0)
    call_command("sync_rulesets", verbosity=0)


def seed(bots: int, rulesets: int) -> list[Any]:
    """``bots`` bots with a passed version of :data:`SERIES_BOT` on ``rulesets`` active rule sets."""
    from django.contrib.auth.models import User

    from bots.models import Bot, BotVersion, SmokeStatus
    from bots.services import create_version
    from rulesets.models import RuleSet

    active = list(RuleSet.objects.filter(min_players__lte=4, max_players__gte=2).order_by("slug")[:rulesets])
    RuleSet.objects.exclude(pk__in=[r.pk for r in active]).update(is_active=False)
    user = User.objects.create(username="bench", is_staff=True)
    made = []
    for i in range(bots):
        bot = Bot.objects.create(owner=user, name=f"bench{i:03d}")
        version = create_version(bot, "bot.py", SERIES_BOT.encode())
        BotVersion.objects.filter(pk=version.pk).update(smoke_status=SmokeStatus.PASSED)
        Bot.objects.filter(pk=bot.pk).update(active_version=version)
        made.append(bot)
    return active


def lower_bound_parts(runner_name: str, table: int, trips: int = 2000) -> tuple[float, float]:
    """(seconds to start ``table`` bots at once until each answered a line, median of 5; seconds of one
    raw pipe round trip, median of 5 blocks)."""
    from runners import LINE, RawPipe, block_time

    from sandbox import BotSpec, get_runner

    runner = get_runner(runner_name)
    with tempfile.TemporaryDirectory(prefix="uno-arena-bench-") as tmp:
        folder = Path(tmp)
        folder.chmod(0o755)
        (folder / "echo.py").write_text(
            "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n    sys.stdout.flush()\n"
        )
        spec = BotSpec(bot_dir=folder, command=("python3", "echo.py"), language="python")
        starts = []
        for _ in range(5):
            began = time.perf_counter()

            def one() -> None:
                conn = runner.start(spec)
                try:
                    conn.send(LINE)
                    conn.readline(30.0)
                finally:
                    conn.close()

            threads = [threading.Thread(target=one) for _ in range(table)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            starts.append(time.perf_counter() - began)
        pipe = RawPipe(folder)
        try:
            rtt = statistics.median(block_time(pipe.one, trips) for _ in range(5))
        finally:
            pipe.close()
    return statistics.median(starts), rtt


def flush(url: str) -> None:
    """Empty the Redis database (broker and cache)."""
    import redis as redis_lib

    client = redis_lib.Redis.from_url(url)
    client.flushdb()
    client.close()


def run_config(
    name: str, args: argparse.Namespace, work: Path, broker: str, start_pairs: int
) -> dict[str, Any]:
    """Start the workers with the configuration's knobs, play beat for ``--seconds``, collect the figures."""
    from django.utils import timezone

    from ladder.tasks import matchmake
    from matches.models import Match, MatchStatus
    from scheduling.dispatcher import dispatch
    from tests.platform.live_support import CeleryWorker
    from versiontests.models import VersionTest

    knobs = {**CONFIGS[name], "UNO_ARENA_LADDER": "1" if args.ladder else "0"}
    for knob in {k for config in CONFIGS.values() for k in config}:
        os.environ.pop(knob, None)  # the previous configuration's knobs: this one's defaults instead
    os.environ.update(knobs)
    flush(broker)  # the previous configuration's messages, worker count and locks
    # Its unfinished jobs would hold slots whose messages were just flushed: out of the way.
    Match.objects.filter(status__in=[MatchStatus.QUEUED, MatchStatus.RUNNING]).update(
        status=MatchStatus.FAILED, error="bench: left over from the previous configuration"
    )
    first_id = (Match.objects.order_by("-id").values_list("id", flat=True).first() or 0) + 1
    workers = [
        CeleryWorker(
            work, args.runner, broker, False, 1, CACHE_URL=broker, UNO_ARENA_DISPATCH_EVERY="10", **knobs
        )
        for _ in range(args.workers)
    ]
    for worker in workers:
        worker.start(timeout=120)
    test = None
    try:
        dispatch(ask_workers=True)
        say(f"{name}: {len(workers)} workers ready; playing for {args.seconds} s")
        t0 = timezone.now()
        if start_pairs:
            test = start_version_test(start_pairs)
        say(f"{name}: first matchmaking round: {matchmake()}")
        began = time.monotonic()
        next_dispatch, next_ladder = began + 10, began + 30
        while time.monotonic() - began < args.seconds:
            now = time.monotonic()
            if now >= next_dispatch:
                dispatch(ask_workers=True)
                next_dispatch += 10
            if now >= next_ladder:
                matchmake()
                next_ladder += 30
            time.sleep(0.2)
        t1 = timezone.now()
    finally:
        for worker in workers:
            worker.stop()
    keep = os.environ.get("BENCH_LOGS")  # a folder to keep the workers' logs in
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        for worker in workers:
            (Path(keep) / f"{name}-{worker.name}.log").write_text(worker.log())
    task_seconds = sum(
        float(m.group(1))
        for worker in workers
        for m in re.finditer(r"run_match_task\[[^\]]+\] succeeded in ([0-9.]+)s", worker.log())
    )
    games: list[dict[str, Any]] = [
        dict(row)
        for row in Match.objects.filter(
            id__gte=first_id, status=MatchStatus.FINISHED, finished_at__gte=t0, finished_at__lte=t1
        ).values("id", "origin", "series", "worker", "started_at", "finished_at", "timings", "decisions")
    ]
    window = (t1 - t0).total_seconds()
    failed = Match.objects.filter(id__gte=first_id, status=MatchStatus.FAILED)
    states = Counter(
        (status, series is not None, dispatched is not None)
        for status, series, dispatched in Match.objects.filter(id__gte=first_id).values_list(
            "status", "series", "dispatched_at"
        )
    )
    say(f"{name}: matches by (status, in a series, dispatched): {dict(states)}")
    errors = list(
        Match.objects.filter(id__gte=first_id).exclude(error="").values_list("error", flat=True)[:3]
    )
    for error in errors:
        say(f"{name}: a match error: {error.strip().splitlines()[-1][:300]}")
    figures = summarize(name, games, window, args, test and VersionTest.objects.get(pk=test.pk))
    figures["task_busy"] = task_seconds / (args.workers * window)
    figures["failed"] = failed.count()
    return figures


def start_version_test(pairs: int) -> Any:
    """A version test of ``pairs`` pairs between two versions of the first bot (bounds so wide that it
    runs them all)."""
    from bots.models import Bot, BotVersion, SmokeStatus
    from bots.services import create_version
    from rulesets.models import RuleSet
    from versiontests.services import create_test

    bot = Bot.objects.order_by("id").first()
    assert bot is not None
    assert bot.active_version is not None
    baseline = bot.active_version
    new = create_version(bot, "bot.py", SERIES_BOT.encode() + b"\n# v2\n")
    BotVersion.objects.filter(pk=new.pk).update(smoke_status=SmokeStatus.PASSED)
    new.refresh_from_db()
    ruleset = RuleSet.objects.filter(is_active=True, min_players__lte=2, max_players__gte=2).order_by("slug")[
        0
    ]
    return create_test(
        bot.owner, new, baseline, ruleset, elo0=-1000.0, elo1=1000.0, max_games=2 * pairs, batch_pairs=20
    )


def summarize(
    name: str,
    games: list[dict[str, Any]],
    window: float,
    args: argparse.Namespace,
    test: Any,
) -> dict[str, Any]:
    """The figures of one configuration."""
    timings = [g["timings"] or {} for g in games]
    # The workers' time on the games (claim to recorded, measured by the match task), over their time.
    busy = sum(float(t.get("wall") or 0.0) for t in timings) / (args.workers * window)
    jobs = len({g["series"] or f"m{g['id']}" for g in games})

    def mean(key: str) -> float:
        values = [float(t.get(key) or 0.0) for t in timings]
        return statistics.fmean(values) if values else 0.0

    walls = [float(t.get("wall") or 0.0) for t in timings]
    heads = [t for t in timings if t.get("series", [0])[0] == 0]
    queued = statistics.fmean(float(t.get("queued") or 0.0) for t in heads) if heads else 0.0
    vt_games = 0
    if test is not None:
        vt_games = 2 * (test.pairs or 0)
    return {
        "name": name,
        "games": len(games),
        "jobs": jobs,
        "games_min": len(games) * 60 / window,
        "jobs_min": jobs * 60 / window,
        "busy": busy,
        "queued": queued,
        "prepare": mean("prepare"),
        "start": mean("start"),
        "think": mean("think"),
        "engine": mean("engine"),
        "record": mean("record"),
        "wall": statistics.fmean(walls) if walls else 0.0,
        "decisions": statistics.fmean(float(g["decisions"] or 0) for g in games) if games else 0.0,
        "games_per_job": len(games) / jobs if jobs else 0.0,
        "vt_games_min": vt_games * 60 / window if test is not None else None,
        "ladder_games": sum(1 for g in games if g["origin"] == "ladder"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--runner", default="process")
    parser.add_argument("--bots", type=int, default=40)
    parser.add_argument("--rulesets", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--configs", default="before,after")
    parser.add_argument("--versiontest", type=int, default=0, help="pairs of a version test run alongside")
    parser.add_argument("--no-ladder", dest="ladder", action="store_false", help="the version test alone")
    args = parser.parse_args()
    broker = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15")
    with tempfile.TemporaryDirectory(prefix="uno-arena-bench-") as tmp, database() as url:
        work = Path(tmp)
        work.chmod(0o755)
        flush(broker)  # no worker count remembered from an earlier run: nothing is planned while seeding
        os.environ["UNO_ARENA_LADDER"] = "0"
        setup_django(work, url, broker, args.runner)
        rulesets = seed(args.bots, args.rulesets)
        say(f"seeded {args.bots} bots on {[r.slug for r in rulesets]}")
        startup, rtt = lower_bound_parts(args.runner, 4)
        say(f"parallel start-up of 4 bots {startup * 1000:.0f} ms, raw pipe round trip {rtt * 1e6:.1f} us")
        rows = [run_config(name, args, work, broker, args.versiontest) for name in args.configs.split(",")]
    print(
        f"\nrunner {args.runner}, {args.workers} workers (concurrency 1), {args.bots} bots, "
        f"{args.rulesets} rule sets, {args.seconds:.0f} s each; parallel start-up of 4 bots "
        f"{startup * 1000:.0f} ms, raw pipe round trip {rtt * 1e6:.1f} us\n"
    )
    print("| figure | " + " | ".join(r["name"] for r in rows) + " |")
    print("|---|" + "---|" * len(rows))

    def line(label: str, fmt: str, key: str, scale: float = 1.0) -> None:
        cells = []
        for r in rows:
            value = r[key]
            cells.append("–" if value is None else fmt.format(value * scale))
        print(f"| {label} | " + " | ".join(cells) + " |")

    line("matches a minute (a ladder game, or a version-test pair of 2 games)", "{:.1f}", "games_min")
    line("jobs a minute", "{:.1f}", "jobs_min")
    line("matches failed", "{:.0f}", "failed")
    line("matches per job", "{:.2f}", "games_per_job")
    line("worker busy fraction (the games' time)", "{:.0%}", "busy")
    line("worker busy fraction (match tasks' run time, worker logs)", "{:.0%}", "task_busy")
    line("decisions a match", "{:.0f}", "decisions")
    line("per job: waiting in the queue (ms)", "{:.0f}", "queued", 1000)
    line("per match: the worker's time, claim to recorded (ms)", "{:.0f}", "wall", 1000)
    line("— preparing the job (ms)", "{:.1f}", "prepare", 1000)
    line("— sandbox start-up and shutdown (ms)", "{:.0f}", "start", 1000)
    line("— bots' think time (ms)", "{:.0f}", "think", 1000)
    line("— referee and engine (ms)", "{:.0f}", "engine", 1000)
    line("— recording (ms)", "{:.0f}", "record", 1000)
    for r in rows:
        r["rest"] = r["wall"] - r["prepare"] - r["start"] - r["think"] - r["engine"] - r["record"]
        r["bound"] = startup / max(1.0, r["games_per_job"]) + r["decisions"] * rtt
    line("— the rest (ms)", "{:.0f}", "rest", 1000)
    line("lower bound a match (ms)", "{:.0f}", "bound", 1000)
    if args.versiontest:
        line("version-test games a minute", "{:.1f}", "vt_games_min")


if __name__ == "__main__":
    main()
