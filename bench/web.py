"""Platform speed: a seeded database served by gunicorn on loopback, measured with wrk.

    python bench/web.py [--bots 10000] [--rulesets 10] [--matches 200000] [--seconds 5] [--rounds 3]
                             [--connections 8] [--threads 2] [--workers N] [--sqlite] [--keep] [--cold]

1. Creates a dedicated database: on PostgreSQL when it answers (``BENCH_POSTGRES_URL``, default
   ``postgres://postgres@127.0.0.1:5432/postgres``: a fresh ``uno_arena_bench_web_<pid>`` is created there and
   dropped at the end), else a SQLite file in a temporary folder. Migrates it.
2. Seeds it with COPY (PostgreSQL) or executemany (SQLite): ``--bots`` bots of ``--bots // 5`` users, each
   with a version; ``--rulesets`` engine presets; ``--matches`` matches of 2-4 seats (98 % finished, each
   with a replay of a real game of its rule set and table size, gzip JSON as the match task stores it), and
   the ratings and the rating history those matches produce (every bot on every rule set it played).
3. Serves the site with gunicorn (production settings: ``DEBUG`` off, collected static files) on
   ``127.0.0.1`` only, and drives it with wrk (``--connections`` concurrent keep-alive connections): a
   trivial view (``/healthz``, the baseline), the leaderboard page (anonymous, and logged in), bot pages
   and replays' JSON, each request picking a random rule set, bot or match, in ``--rounds`` interleaved
   rounds (so that other load on the machine hits every page alike). A Lua script prints wrk's latency
   percentiles; a page's figure is the median over the rounds.
4. Prints p50/p95/p99 per page and three ratios with their targets: the leaderboard's p95 to the trivial
   view's (<= 3) and the bot page's p50 to the leaderboard's (<= 3), for visitors and logged in; the exit
   status is 1 when one is missed.

Before it serves, it renders every bot's page for visitors (``manage.py render_bot_pages`` in one process a
CPU, as a deploy does after emptying the cache; the site's finished matches keep them rendered, see
``web/page_cache.py``); ``--cold`` leaves them out, so that every bot page's first visit renders it. The
bot pages are also fetched logged in (as a stranger, not the owner): the cached body in that visitor's
own chrome (an owner's page is rendered afresh, and not measured here).

Needs wrk (``apt-get install wrk``; ``scripts/setup-system`` installs it).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import itertools
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PLATFORM = REPO / "platform"
sys.path[:0] = [str(REPO), str(PLATFORM), str(HERE)]

from benchdb import bench_database  # noqa: E402  (bench/ on the path above)

TARGET_RATIO = 3.0
BOT_TARGET_RATIO = 3.0

LUA = r"""
-- Each request picks one of the paths at random; done() prints the latency percentiles (microseconds).
local paths = {PATHS}
local headers = {HEADERS}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end
function init(args)
  math.randomseed(1000 + id)
end
function request()
  return wrk.format("GET", paths[math.random(#paths)], headers)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"seconds":%.3f,"errors":%d,"non_2xx_3xx":%d,' ..
    '"p50":%d,"p90":%d,"p95":%d,"p99":%d,"max":%d,"bytes":%d}\n',
    summary.requests, summary.duration / 1e6, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(95), latency:percentile(99),
    latency.max, summary.bytes))
end
"""


def say(message: str) -> None:
    """Progress on stderr (the results go to stdout)."""
    sys.stderr.write(f"bench: {message}\n")
    sys.stderr.flush()


# --- the database (benchdb.bench_database) ------------------------------------------------------------


def configure_django(database_url: str, var: Path) -> dict[str, str]:
    """Set the environment for the production settings on the bench database; set Django up here.
    Returns the environment for the gunicorn process."""
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "UNO_ARENA_VAR": str(var),
        "UNO_ARENA_HTTPS": "0",  # plain HTTP on loopback, as scripts/run serves it (no TLS proxy here)
        "SECRET_KEY": hashlib.sha256(os.urandom(32)).hexdigest(),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CELERY_BROKER_URL": "memory://",
        "CACHE_URL": "",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": os.pathsep.join([str(REPO), str(PLATFORM)]),
    }
    os.environ.update(env)
    import django

    django.setup()
    return {**os.environ, **env}


# --- seeding ----------------------------------------------------------------------------------------


def copy_rows(model: Any, rows: Iterable[dict[str, Any]]) -> int:
    """Insert ``rows`` (dicts of column values, the same columns in each) into ``model``'s table: COPY on
    PostgreSQL, executemany in batches elsewhere; columns left out take the model's defaults (so a new
    field with a default needs no change here). Returns the row count."""
    from django.db import connection

    defaults = {
        field.attname: field.get_default()
        if connection.vendor == "postgresql"  # binary COPY takes Python values (a dict for jsonb)
        else field.get_db_prep_save(field.get_default(), connection)
        for field in model._meta.concrete_fields
        if field.has_default() and not field.primary_key
    }
    iterator = ({**defaults, **row} for row in rows)
    first = next(iterator, None)
    if first is None:
        return 0
    columns = list(first)
    table = connection.ops.quote_name(model._meta.db_table)
    cols = ", ".join(connection.ops.quote_name(c) for c in columns)
    count = 0
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Binary COPY: bytea (replays, archives) travels as it is, not hex-encoded.
            types = [model._meta.get_field(c).db_type(connection).split("(")[0] for c in columns]
            with cursor.cursor.copy(f"COPY {table} ({cols}) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(types)
                for row in itertools.chain([first], iterator):
                    copy.write_row([row[c] for c in columns])
                    count += 1
            return count
        sql = f"INSERT INTO {table} ({cols}) VALUES ({', '.join(['%s'] * len(columns))})"
        pending = itertools.chain([first], iterator)
        while batch := [[row[c] for c in columns] for row in itertools.islice(pending, 5000)]:
            cursor.executemany(sql, batch)
            count += len(batch)
    return count


def bot_archive() -> tuple[bytes, str]:
    """A small valid version archive (the tiny bot) and its SHA-256."""
    from bots.validation import validate_upload

    source = (REPO / "bots_examples" / "random_bot.py").read_bytes()
    checked = validate_upload("random_bot.py", source)
    return checked.archive, checked.sha256


def real_replays(slugs: Sequence[str], per_table: int = 2) -> dict[tuple[str, int], list[tuple[bytes, int]]]:
    """Replays of real games (greedy policy, think times filled in) per (rule set, players), packed as
    the match task stores them."""
    from arena.engine.game import Game
    from arena.engine.policies import greedy_policy
    from arena.engine.replay import make_replay
    from arena.engine.rules import preset
    from matches.models import Replay

    replays: dict[tuple[str, int], list[tuple[bytes, int]]] = {}
    rng = random.Random(7)
    for slug in slugs:
        rules = preset(slug)
        for players in (2, 3, 4):
            packed = []
            for i in range(per_table):
                game = Game(rules, players, seed=1000 * players + i)
                while not game.is_over:
                    seat = game.current_player
                    game.apply(greedy_policy(game, seat, game.legal_actions(seat), rng), seat)
                think = [rng.uniform(0.05, 40.0) for _ in game.history]
                replay = make_replay(game, names=[f"bot-{s}" for s in range(players)], think_ms=think)
                packed.append(Replay.pack(replay))
            replays[(slug, players)] = packed
    return replays


def user_row(pk: int, joined: datetime) -> dict[str, Any]:
    """An ``auth_user`` row for a benchmark user (no usable password)."""
    return {
        "id": pk,
        "password": "!unusable",
        "is_superuser": False,
        "username": f"user{pk:05d}",
        "first_name": "",
        "last_name": "",
        "email": "",
        "is_staff": False,
        "is_active": True,
        "date_joined": joined,
    }


def seed(n_bots: int, n_rulesets: int, n_matches: int) -> dict[str, Any]:
    """Fill the migrated database; returns what the load needs (rule set slugs, bot ids, match ids)."""
    from django.contrib.auth.models import User
    from django.core.management.color import no_style
    from django.db import connection, transaction

    from arena.engine.rules import PRESETS
    from bots.models import Bot, BotVersion
    from matches.models import Match, Participant, Replay
    from ratings.models import Rating, RatingHistory
    from rulesets.engine import sync_presets
    from rulesets.models import RuleSet

    rng = random.Random(2024)
    now = datetime.now(UTC)
    started = time.perf_counter()
    sync_presets()
    slugs = list(PRESETS)[:n_rulesets]
    RuleSet.objects.exclude(slug__in=slugs).delete()
    rulesets = dict(RuleSet.objects.values_list("slug", "pk"))
    say(f"generating {len(slugs) * 3 * 2} real replays")
    replays = real_replays(slugs)
    archive, sha = bot_archive()
    n_users = max(1, n_bots // 5)
    with transaction.atomic():
        long_ago = now - timedelta(days=300)
        copy_rows(User, (user_row(i, long_ago) for i in range(1, n_users + 1)))
        copy_rows(
            BotVersion,
            (
                {
                    "id": i,
                    "bot_id": i,
                    "number": 1,
                    "filename": "random_bot.py",
                    "entry_point": "random_bot.py",
                    "archive": archive,
                    "sha256": sha,
                    "size": len(archive),
                    "file_count": 1,
                    "smoke_status": "passed",
                    "smoke_log": "PASSED",
                    "smoke_checked_at": long_ago,
                    "created_at": long_ago,
                }
                for i in range(1, n_bots + 1)
            ),
        )
        copy_rows(
            Bot,
            (
                {
                    "id": i,
                    "owner_id": (i - 1) % n_users + 1,
                    "name": f"bot-{i:05d}",
                    "description": f"Benchmark bot {i}.",
                    "language": "python",
                    "is_active": i % 50 != 0,  # a few inactive bots, left out of leaderboards
                    "active_version_id": i,
                    "created_at": long_ago,
                }
                for i in range(1, n_bots + 1)
            ),
        )
        say(f"users, bots and versions in {time.perf_counter() - started:.1f} s")

        ratings: dict[tuple[int, int], dict[str, Any]] = {}
        matches: list[dict[str, Any]] = []
        seats: list[dict[str, Any]] = []
        replay_rows: list[dict[str, Any]] = []
        history: list[dict[str, Any]] = []
        span = timedelta(days=180)
        for match_id in range(1, n_matches + 1):
            slug = slugs[match_id % len(slugs)]
            ruleset_id = rulesets[slug]
            players = rng.choice((2, 2, 3, 4))
            created = now - span + span * (match_id / n_matches)
            status = "finished" if rng.random() < 0.98 else rng.choice(("queued", "running", "failed"))
            finished = status == "finished"
            rated = rng.random() < 0.9
            begun = created if status != "queued" else None
            ended = created + timedelta(seconds=40) if status in ("finished", "failed") else None
            matches.append(
                {
                    "id": match_id,
                    "ruleset_id": ruleset_id,
                    "status": status,
                    "seed": rng.randrange(2**31),
                    "rated": rated,
                    "duplicate": False,
                    "created_by_id": None,
                    "created_at": created,
                    "started_at": begun,
                    "finished_at": ended,
                    "attempts": int(begun is not None),
                    "worker": "worker@bench" if begun else "",
                    "task_id": "",
                    "error": "reaped" if status == "failed" else "",
                    "decisions": rng.randrange(60, 2000) if finished else None,
                }
            )
            places = list(range(1, players + 1))
            rng.shuffle(places)
            for seat, bot_id in enumerate(rng.sample(range(1, n_bots + 1), players)):
                place = places[seat]
                row = {
                    "id": len(seats) + 1,
                    "match_id": match_id,
                    "seat": seat,
                    "bot_id": bot_id,
                    "bot_version_id": bot_id,
                    "place": place if finished else None,
                    "score": rng.randrange(0, 400) if finished else None,
                    "rating_before": None,
                    "rating_after": None,
                    "fault_kind": "",
                    "fault_decision": None,
                    "fault_detail": "",
                    "stderr": "",
                }
                if finished and rated:
                    rating = ratings.get((bot_id, ruleset_id))
                    if rating is None:
                        rating = ratings[(bot_id, ruleset_id)] = {
                            "id": len(ratings) + 1,
                            "elo": rng.gauss(1500, 60),
                            "games": 0,
                            "wins": 0,
                            "last_played": None,
                        }
                    row["rating_before"] = rating["elo"]
                    rating["elo"] += (players + 1 - 2 * place) * rng.uniform(2, 12)
                    row["rating_after"] = rating["elo"]
                    rating["games"] += 1
                    rating["wins"] += place == 1
                    rating["last_played"] = ended
                    history.append(
                        {
                            "id": len(history) + 1,
                            "rating_id": rating["id"],
                            "match_id": match_id,
                            "elo_before": row["rating_before"],
                            "elo_after": row["rating_after"],
                            "games": rating["games"],
                            "created_at": ended,
                        }
                    )
                seats.append(row)
            if finished:
                data, size = rng.choice(replays[(slug, players)])
                replay_rows.append({"match_id": match_id, "data": data, "size": size})
        say(f"rows generated at {time.perf_counter() - started:.1f} s")
        copy_rows(Match, matches)
        say(f"matches copied at {time.perf_counter() - started:.1f} s")
        copy_rows(Participant, seats)
        say(f"seats copied at {time.perf_counter() - started:.1f} s")
        copy_rows(Replay, replay_rows)
        say(f"replays copied at {time.perf_counter() - started:.1f} s")
        copy_rows(
            Rating,
            (
                {"bot_id": bot_id, "ruleset_id": ruleset_id, **values}
                for (bot_id, ruleset_id), values in ratings.items()
            ),
        )
        copy_rows(RatingHistory, history)
        say(f"ratings and their history copied at {time.perf_counter() - started:.1f} s")
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(
                no_style(), [User, Bot, BotVersion, Match, Participant, Rating, RatingHistory]
            ):
                cursor.execute(sql)
    with connection.cursor() as cursor:
        say(f"committed at {time.perf_counter() - started:.1f} s")
        cursor.execute("ANALYZE")
    say(
        f"seeded {n_bots} bots, {len(slugs)} rule sets, {n_matches} matches, {len(seats)} seats, "
        f"{len(replay_rows)} replays, {len(ratings)} ratings, {len(history)} rating changes "
        f"in {time.perf_counter() - started:.1f} s"
    )
    finished_ids = [row["match_id"] for row in replay_rows]
    return {"slugs": slugs, "bots": list(range(1, n_bots + 1)), "finished": finished_ids}


def session_cookie() -> str:
    """A ``Cookie`` header for a logged-in visitor (a session stored as ``login()`` would store it)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore

    user = User.objects.create_user("bench-visitor", password=None)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


# --- serving and loading ----------------------------------------------------------------------------


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def render_bot_pages(env: dict[str, str], processes: int) -> float:
    """Render every bot's page for visitors into the site's cache, as a deploy does after emptying it
    (``manage.py render_bot_pages``, in ``processes`` shards at once); from then on the site's finished
    matches keep them rendered. Returns the seconds it took."""
    began = time.perf_counter()
    argv = [sys.executable, str(REPO / "manage.py"), "render_bot_pages", "--shard"]
    shards = [
        subprocess.Popen([*argv, f"{i}/{processes}"], env=env, cwd=REPO, stdout=subprocess.PIPE, text=True)
        for i in range(processes)
    ]
    for shard in shards:
        out, _ = shard.communicate()
        if shard.returncode:
            raise RuntimeError(f"render_bot_pages failed ({shard.returncode})")
        say(out.strip())
    return time.perf_counter() - began


@contextlib.contextmanager
def gunicorn(env: dict[str, str], workers: int, log: Path) -> Iterator[str]:
    """Serve the site on a free loopback port; yield its base URL; stop it (and only it) afterwards."""
    port = free_port()
    argv = [sys.executable, "-m", "gunicorn", "--chdir", str(PLATFORM), "config.wsgi"]
    argv += ["-b", f"127.0.0.1:{port}", "-w", str(workers), "--error-logfile", str(log), "--backlog", "2048"]
    argv += ["--no-control-socket"]  # not the shared ~/.gunicorn/gunicorn.ctl of other gunicorns
    process = subprocess.Popen(argv, env=env, cwd=REPO, stdin=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"gunicorn did not start (log: {log})") from None
                time.sleep(0.2)
        say(f"gunicorn serves {base} with {workers} workers")
        yield base
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def lua_table(items: Sequence[str]) -> str:
    """A Lua list literal of strings."""
    return "{" + ",".join(json.dumps(item) for item in items) + "}"


def wrk(
    base: str,
    paths: Sequence[str],
    work: Path,
    seconds: int,
    connections: int,
    threads: int,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run wrk against random ``paths``; return its RESULT figures (latencies in microseconds)."""
    script = work / f"load-{hashlib.sha256(json.dumps(paths).encode()).hexdigest()[:12]}.lua"
    lua_headers = (
        "{" + ",".join(f"[{json.dumps(k)}]={json.dumps(v)}" for k, v in (headers or {}).items()) + "}"
    )
    script.write_text(LUA.replace("{PATHS}", lua_table(paths)).replace("{HEADERS}", lua_headers))
    argv = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency"]
    argv += ["-s", str(script), base]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            return dict(json.loads(line[len("RESULT ") :]))
    raise RuntimeError(f"wrk printed no RESULT line:\n{done.stdout}\n{done.stderr}")


def combine(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One page's figures over several rounds: requests, seconds and errors summed, each percentile the
    median of the rounds' (robust to a round disturbed by something else on the machine)."""
    total = {key: sum(run[key] for run in runs) for key in ("requests", "seconds", "errors", "non_2xx_3xx")}
    for key in ("p50", "p90", "p95", "p99", "max"):
        total[key] = statistics.median(run[key] for run in runs)
    return total


def check_pages(base: str, targets: dict[str, tuple[list[str], dict[str, str]]]) -> None:
    """Fetch one URL of each target and insist on 200 (a benchmark of error pages is worthless)."""
    for name, (paths, headers) in targets.items():
        request = urllib.request.Request(base + paths[0], headers=headers)
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
            if response.status != 200:
                raise RuntimeError(f"{name}: {paths[0]} answered {response.status}")
        say(f"{name}: {paths[0]} -> 200, {len(body)} bytes")


def main(argv: Sequence[str] | None = None) -> int:
    """Seed, serve, load, print the table; exit 1 if the leaderboard target is missed."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bots", type=int, default=10_000)
    parser.add_argument("--rulesets", type=int, default=10)
    parser.add_argument("--matches", type=int, default=200_000)
    parser.add_argument("--seconds", type=int, default=5, help="measured seconds per page and round")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds over the pages")
    parser.add_argument("--warmup", type=int, default=2, help="unmeasured seconds per page first")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=max(2, os.cpu_count() or 2), help="gunicorn workers")
    parser.add_argument("--sqlite", action="store_true", help="use SQLite even if PostgreSQL answers")
    parser.add_argument("--keep", action="store_true", help="keep the database and the folder")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="do not render the bot pages first (every first visit renders one)",
    )
    args = parser.parse_args(argv)
    if shutil.which("wrk") is None:
        say("wrk is missing: apt-get install wrk (scripts/setup-system installs it)")
        return 2
    if not 1 <= args.rulesets <= 13:
        parser.error("--rulesets is between 1 and 13 (the engine's presets)")

    work = Path(tempfile.mkdtemp(prefix="uno-arena-bench-"))
    try:
        with bench_database(work, "web", not args.sqlite, args.keep) as database_url:
            env = configure_django(database_url, work / "var")
            from django.core.management import call_command
            from django.db import connection

            call_command("migrate", verbosity=0)
            call_command("collectstatic", interactive=False, verbosity=0)
            data = seed(args.bots, args.rulesets, args.matches)
            cookie = session_cookie()
            vendor = connection.vendor
            connection.close()

            rng = random.Random(5)
            bots = rng.sample(data["bots"], min(2000, len(data["bots"])))
            replays = rng.sample(data["finished"], min(2000, len(data["finished"])))
            targets: dict[str, tuple[list[str], dict[str, str]]] = {
                "trivial (/healthz)": (["/healthz"], {}),
                "leaderboard page": ([f"/rules/{slug}/" for slug in data["slugs"]], {}),
                "leaderboard, logged in": ([f"/rules/{slug}/" for slug in data["slugs"]], {"Cookie": cookie}),
                "bot page": ([f"/bots/{pk}/" for pk in bots], {}),
                "bot page, logged in": ([f"/bots/{pk}/" for pk in bots], {"Cookie": cookie}),
                "replay JSON (gzip)": (
                    [f"/matches/{pk}/replay.json" for pk in replays],
                    {"Accept-Encoding": "gzip"},
                ),
            }
            rendered = None if args.cold else render_bot_pages(env, os.cpu_count() or 1)
            with gunicorn(env, args.workers, work / "gunicorn.log") as base:
                check_pages(base, targets)
                for paths, headers in targets.values():
                    if args.warmup > 0:
                        wrk(base, paths, work, args.warmup, args.connections, args.threads, headers)
                rounds: dict[str, list[dict[str, Any]]] = {name: [] for name in targets}
                for number in range(1, args.rounds + 1):  # interleaved: load drift hits every page alike
                    for name, (paths, headers) in targets.items():
                        rounds[name].append(
                            wrk(base, paths, work, args.seconds, args.connections, args.threads, headers)
                        )
                    say(f"round {number}/{args.rounds} done")
                results = {name: combine(runs) for name, runs in rounds.items()}
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

    print(
        f"\nUNO Arena platform benchmark: {vendor}, {args.bots} bots, {args.rulesets} rule sets, "
        f"{args.matches} matches; gunicorn {args.workers} sync workers on 127.0.0.1; wrk {args.threads} "
        f"threads, {args.connections} connections, {args.rounds} interleaved rounds of {args.seconds} s per page "
        f"(percentiles: median of the rounds; {os.cpu_count()} CPUs)\n"
    )
    print(f"| {'page':<22} | {'req/s':>8} | {'p50 ms':>7} | {'p95 ms':>7} | {'p99 ms':>7} | {'errors':>6} |")
    print(f"|{'-' * 24}|{'-' * 10}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 8}|")
    for name, r in results.items():
        errors = r["errors"] + r["non_2xx_3xx"]
        print(
            f"| {name:<22} | {r['requests'] / r['seconds']:>8.0f} | {r['p50'] / 1000:>7.2f} | "
            f"{r['p95'] / 1000:>7.2f} | {r['p99'] / 1000:>7.2f} | {errors:>6} |"
        )
    print(
        "\nbot pages: "
        + ("not rendered first (--cold)" if rendered is None else f"rendered first in {rendered:.0f} s")
        + "; logged in, the cached body in the visitor's own chrome"
    )
    base_p95 = results["trivial (/healthz)"]["p95"]
    ratio = results["leaderboard page"]["p95"] / base_p95 if base_p95 else float("inf")
    board_p50 = results["leaderboard page"]["p50"]
    bot_ratio = results["bot page"]["p50"] / board_p50 if board_p50 else float("inf")
    member_p50 = results["leaderboard, logged in"]["p50"]
    member_ratio = results["bot page, logged in"]["p50"] / member_p50 if member_p50 else float("inf")
    clean = all(r["errors"] + r["non_2xx_3xx"] == 0 for r in results.values())
    for label, got, target in (
        ("leaderboard p95 / trivial p95", ratio, TARGET_RATIO),
        ("bot page p50 / leaderboard p50", bot_ratio, BOT_TARGET_RATIO),
        ("the same, logged in", member_ratio, BOT_TARGET_RATIO),
    ):
        print(f"{label} = {got:.2f} (target <= {target:g}): {'met' if got <= target else 'MISSED'}")
    bots_met = max(bot_ratio, member_ratio) <= BOT_TARGET_RATIO
    return 0 if clean and ratio <= TARGET_RATIO and bots_met else 1


if __name__ == "__main__":
    sys.exit(main())
