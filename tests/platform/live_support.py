"""Real services for the platform's integration tests: Redis, PostgreSQL, a sandbox runner, and a real
``celery -A config worker`` process working on the test database.

Every ``require_*`` helper skips the test with a clear reason when the service is missing, or fails it
on CI (``CI=true``), where ``scripts/test`` has set everything up and a skip would hide a broken machine.

The worker runs the production settings (``config.settings``) with the test database's URL, the Redis
broker and a private ``UNO_ARENA_VAR``; the test process publishes to the same broker through
:func:`redis_broker`. The worker reads only committed rows, so tests that use it are transactional
(``transactional_db`` or ``live_server``).
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

REPO = Path(__file__).resolve().parents[2]
PLATFORM = REPO / "platform"
EXAMPLES = REPO / "bots_examples"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"

#: A bot written against docs/protocol.md with nothing but the standard library: it plays the first
#: legal action. ``SLOW_FIRST`` seconds of sleep before its first answer (0: none) keep a match running
#: long enough to kill its worker in the middle.
TINY_BOT = """\
import json
import sys
import time

SLOW_FIRST = {slow_first}
first = True
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({{"type": "ready", "name": "tiny"}}), flush=True)
    elif kind == "request":
        if first and SLOW_FIRST:
            time.sleep(SLOW_FIRST)
        first = False
        print(json.dumps({{"type": "action", "id": message["id"], "action": message["legal"][0]}}), flush=True)
    elif kind == "match_end":
        break
"""


def tiny_bot(slow_first: float = 0.0) -> bytes:
    """The source of :data:`TINY_BOT`, optionally sleeping ``slow_first`` seconds on its first decision."""
    return TINY_BOT.format(slow_first=slow_first).encode()


def on_ci() -> bool:
    """Whether this is a CI run (``CI=true``): missing services fail tests instead of skipping them."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def need(ok: object, reason: str) -> None:
    """Skip the test (fail it on CI) with ``reason`` unless ``ok``."""
    if ok:
        return
    if on_ci():
        pytest.fail(f"{reason} (required on CI)", pytrace=False)
    pytest.skip(reason)


def redis_url() -> str:
    """The Redis database the integration tests own (``REDIS_URL``, default db 15: it is flushed)."""
    return os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def require_redis() -> str:
    """Skip/fail unless Redis answers at :func:`redis_url`; empty that database; return the URL."""
    import redis

    url = redis_url()
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=5)
        client.ping()
        client.flushdb()
        client.close()
    except Exception as exc:
        need(False, f"Redis does not answer at {url} ({exc}); run scripts/setup-system or set REDIS_URL")
    return url


def require_postgres() -> None:
    """Skip/fail unless the tests run on PostgreSQL: a worker process cannot share SQLite's in-memory
    test database."""
    from django.db import connection

    need(
        connection.vendor == "postgresql",
        f"needs PostgreSQL (the database is {connection.vendor}); "
        "set DATABASE_URL=postgres://postgres@127.0.0.1:5432/uno_arena",
    )


def require_referee() -> None:
    """Skip until the referee (issue 3) is in the tree: that is code still being written, not a missing
    service, so this skips on CI too."""
    import importlib.util

    if importlib.util.find_spec("arena.play.referee") is None:
        pytest.skip("arena.play.referee is not written yet")


def require_examples() -> list[Path]:
    """The example bots ``load_example_bots`` loads; skip until there are two."""
    from bots.management.commands.load_example_bots import example_files

    files = example_files(EXAMPLES)
    if len(files) < 2:
        pytest.skip("fewer than two example bots in bots_examples/")
    return files


def strongest_runner() -> str:
    """``bwrap`` if it works here, else ``process`` (on CI, bwrap is required)."""
    from sandbox import runner_class

    status = runner_class("bwrap").available("python")
    if status:
        return "bwrap"
    need(False, f"the bwrap runner is unavailable: {status.reason} (run scripts/setup-system)")
    return "process"


def database_url() -> str:
    """A ``DATABASE_URL`` for the database the test process is connected to (the test database)."""
    from django.db import connection

    conf = connection.settings_dict
    if connection.vendor != "postgresql":
        raise RuntimeError("a worker process can share only a PostgreSQL test database")
    user = quote(conf.get("USER") or "", safe="")
    password = quote(conf.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = conf.get("HOST") or "127.0.0.1"
    port = f":{conf['PORT']}" if conf.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(conf['NAME'], safe='')}"


@contextmanager
def redis_broker(url: str) -> Iterator[Any]:
    """Make this process's Celery app publish to ``url`` (the tests' settings use ``memory://``)."""
    from config.celery_app import app

    def reset_pools() -> None:
        app._pool = None
        app.amqp._producer_pool = None

    saved = (app.conf.broker_url, app.conf.broker_transport_options)
    app.conf.broker_url = url
    app.conf.broker_transport_options = {}
    reset_pools()
    try:
        yield app
    finally:
        app.conf.broker_url, app.conf.broker_transport_options = saved
        reset_pools()


@functools.cache
def collected_static() -> str:
    """A folder of the site's static files as ``collectstatic`` lays them out under the production
    settings (hashed names and their manifest), made once per test process: a worker renders pages too
    (``web.page_cache``), and a deployed worker has them (the image collects them)."""
    folder = tempfile.mkdtemp(prefix="uno-arena-test-static-")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "collectstatic-only",
        "UNO_ARENA_VAR": tempfile.mkdtemp(prefix="uno-arena-test-static-var-"),
        "UNO_ARENA_STATIC_ROOT": folder,
    }
    subprocess.run(
        [sys.executable, str(REPO / "manage.py"), "collectstatic", "--noinput", "-v0"],
        env=env,
        check=True,
        cwd=REPO,
    )
    return folder


class CeleryWorker:
    """A ``celery -A config worker`` process (in its own process group) on the test database.

    ``beat=True`` embeds beat (``-B``) for the periodic reaper; ``concurrency`` is its pool's size (one
    process unless told); ``queues`` what it consumes (``smoke``: the smoke lane). ``env`` adds environment
    variables (e.g. ``UNO_ARENA_REAP_AFTER``).
    """

    def __init__(
        self,
        log_dir: Path,
        runner: str,
        broker: str,
        beat: bool = False,
        concurrency: int = 1,
        queues: str = "site,matches",
        **env: str,
    ) -> None:
        self.name = f"itest-{uuid.uuid4().hex[:8]}"
        self.log_path = log_dir / f"{self.name}.log"
        var = log_dir / f"{self.name}-var"
        var.mkdir(parents=True)
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": broker,
            "UNO_ARENA_RUNNER": runner,
            "UNO_ARENA_VAR": str(var),
            "CACHE_URL": "",
            "UNO_ARENA_STATIC_ROOT": collected_static(),
            "PYTHONPATH": os.pathsep.join([str(REPO), str(PLATFORM)]),
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        self.argv = [
            sys.executable,
            "-m",
            "celery",
            "--workdir",
            str(PLATFORM),
            "-A",
            "config",
            "worker",
            "-n",
            f"{self.name}@%h",
            "-Q",
            queues,
            "--concurrency",
            str(concurrency),
            "--without-mingle",
            "--without-gossip",
            "-l",
            "INFO",
            *(["-B"] if beat else []),
        ]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> CeleryWorker:
        """Start the worker and wait until it says it is ready."""
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                self.argv,
                cwd=REPO,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if " ready." in self.log():
                return self
            if self.process.poll() is not None:
                break
            time.sleep(0.2)
        raise AssertionError(f"the Celery worker did not start:\n{self.log()[-4000:]}")

    def log(self) -> str:
        """Everything the worker has logged so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def group_pids(self) -> set[int]:
        """Live processes of the worker's process group (main process and pool children)."""
        if self.process is None:
            return set()
        return {pid for pid, (_ppid, pgid) in _processes().items() if pgid == self.process.pid}

    def descendants(self) -> set[int]:
        """Every live process started by the worker, however deep (sandboxes and bots included: they
        run in sessions of their own)."""
        if self.process is None:
            return set()
        table = _processes()
        found = {self.process.pid} if self.process.pid in table else set()
        grew = True
        while grew:
            more = {pid for pid, (ppid, _pgid) in table.items() if ppid in found} - found
            found |= more
            grew = bool(more)
        return found - {self.process.pid}

    def kill(self) -> None:
        """SIGKILL the whole worker at once (main process and pool), as a crash or an OOM kill would."""
        assert self.process is not None
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        wait_for(lambda: not self.group_pids(), 30, "the killed worker's processes to go")

    def stop(self) -> None:
        """Warm shutdown (SIGTERM to the main process), then SIGKILL whatever is left of the group."""
        if self.process is None or self.process.poll() is not None:
            return
        try:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        finally:
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)


def _processes() -> dict[int, tuple[int, int]]:
    """``{pid: (parent pid, process group)}`` of every live (not zombie) process."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            table[int(entry.name)] = (int(fields[1]), int(fields[2]))
    return table


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` that are still live processes (pid reuse aside)."""
    return pids & set(_processes())


def wait_for(check: Callable[[], object], timeout: float, what: str, every: float = 0.25) -> Any:
    """Poll ``check`` until it returns something true, and return that; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(every)


def smoke_tested(version_ids: list[int], timeout: float = 120) -> dict[int, str]:
    """Wait until none of the versions' smoke tests is pending or running; their statuses by version id."""
    from bots.models import BotVersion, SmokeStatus

    def done() -> dict[int, str] | None:
        rows = dict(BotVersion.objects.filter(pk__in=version_ids).values_list("pk", "smoke_status"))
        if any(s in (SmokeStatus.PENDING, SmokeStatus.RUNNING) for s in rows.values()):
            return None
        return rows

    return wait_for(done, timeout, "the smoke tests")


@contextmanager
def exclusive(name: str, timeout: float = 1800) -> Iterator[None]:
    """Hold a machine-wide lock called ``name`` (a ``flock`` in the temporary folder).

    Tests that own the Redis database (flushed, and consumed by their worker) take it, so pytest-xdist
    processes, or two test runs on one machine, never share queues and steal each other's tasks.
    """
    import fcntl
    import hashlib
    import tempfile

    path = Path(tempfile.gettempdir()) / f"uno-arena-{hashlib.sha256(name.encode()).hexdigest()[:16]}.lock"
    with open(path, "w") as handle:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"{path} stayed locked for {timeout:.0f} s") from None
                time.sleep(0.2)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture
def live_services(transactional_db: None) -> Iterator[dict[str, str]]:
    """Redis (db flushed), PostgreSQL and the strongest sandbox runner, each required (skip, or fail on
    CI); plus the referee. Holds the Redis database exclusively for the test. Yields
    ``{"broker": url, "runner": name}``."""
    require_postgres()
    require_referee()
    runner = strongest_runner()
    with exclusive(redis_url()):
        broker = require_redis()
        yield {"broker": broker, "runner": runner}


@pytest.fixture
def celery_worker(live_services: dict[str, str], tmp_path: Path) -> Iterator[Callable[..., CeleryWorker]]:
    """A factory of started :class:`CeleryWorker` processes; all are stopped after the test (before
    the database is flushed), and their logs are printed if the test failed."""
    workers: list[CeleryWorker] = []

    def start(
        beat: bool = False, concurrency: int = 1, queues: str = "site,matches", **env: str
    ) -> CeleryWorker:
        worker = CeleryWorker(
            tmp_path, live_services["runner"], live_services["broker"], beat, concurrency, queues, **env
        )
        workers.append(worker)
        return worker.start()

    yield start
    for worker in workers:
        worker.stop()
        sys.stdout.write(f"\n--- {worker.name} log (last 3000 characters) ---\n{worker.log()[-3000:]}\n")


def kill_after_first_recorded(doomed: Any, ids: list[int], timeout: float, what: str) -> None:
    """Wait until the first of a series' matches ``ids`` is recorded, let the next one get under way (its
    bots thinking), SIGKILL the ``doomed`` worker, wait for its bots to go, and check that the first stays
    finished while the others are left running (for the reaper)."""
    from matches.models import Match, MatchStatus

    wait_for(lambda: Match.objects.filter(pk=ids[0], status=MatchStatus.FINISHED).exists(), timeout, what)
    time.sleep(1.5)
    sandboxes = doomed.descendants() - doomed.group_pids()
    assert sandboxes, "the bots of the series are running"
    doomed.kill()
    wait_for(lambda: not alive(sandboxes), 30, "the killed worker's bots to go")
    states = dict(Match.objects.filter(pk__in=ids).values_list("pk", "status"))
    assert states == {pk: MatchStatus.FINISHED if pk == ids[0] else MatchStatus.RUNNING for pk in ids}


def rescue(celery_worker: Callable[..., Any], ids: list[int], timeout: float, what: str) -> Any:
    """Start a worker whose beat runs only the reaper (every second, after 20 s) and wait until every one of
    ``ids`` is finished; the rescuing worker."""
    from django_celery_beat.models import PeriodicTask

    from matches.models import Match, MatchStatus

    PeriodicTask.objects.exclude(task="matches.tasks.reap_stale_matches").update(enabled=False)
    rescuer = celery_worker(
        beat=True, UNO_ARENA_REAP_EVERY="1", UNO_ARENA_REAP_AFTER="20", UNO_ARENA_LADDER="0"
    )
    done = len(ids)
    wait_for(
        lambda: Match.objects.filter(pk__in=ids, status=MatchStatus.FINISHED).count() == done, timeout, what
    )
    return rescuer
