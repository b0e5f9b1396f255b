"""A throw-away database for a benchmark run (bench/web.py, bench/leagues.py, bench/throughput.py):
PostgreSQL when it answers, else (where the benchmark allows it) a SQLite file."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
"""Where the benchmarks create their databases unless ``BENCH_POSTGRES_URL`` says otherwise."""


def say(message: str) -> None:
    """Progress on stderr."""
    sys.stderr.write(f"bench: {message}\n")


def admin_url() -> str:
    """The URL of the database the benchmarks connect to in order to create and drop their own."""
    return os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES)


def _libpq(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


def postgres_answers() -> bool:
    """Whether PostgreSQL answers at :func:`admin_url` (said on stderr when not)."""
    try:
        import psycopg

        psycopg.connect(_libpq(admin_url()), connect_timeout=3).close()
    except Exception as exc:
        say(f"PostgreSQL does not answer at {admin_url()} ({exc}); using SQLite")
        return False
    return True


@contextlib.contextmanager
def postgres_database(label: str, keep: bool = False) -> Iterator[str]:
    """The ``DATABASE_URL`` of a new, empty database ``uno_arena_bench_<label>_<pid>``, dropped afterwards
    (with the connections Django still holds to it) unless ``keep``."""
    import psycopg

    admin = admin_url()
    name = f"uno_arena_bench_{label}_{os.getpid()}"
    with psycopg.connect(_libpq(admin), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    say(f"created PostgreSQL database {name}")
    try:
        yield admin.rsplit("/", 1)[0] + "/" + name
    finally:
        from django.conf import settings
        from django.db import connections

        if settings.configured:
            connections.close_all()
        if keep:
            say(f"kept database {name} (--keep)")
        else:
            with psycopg.connect(_libpq(admin), autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def bench_database(work: Path, label: str, use_postgres: bool = True, keep: bool = False) -> Iterator[str]:
    """:func:`postgres_database` when ``use_postgres`` and PostgreSQL answers, else a SQLite file in ``work``."""
    if use_postgres and postgres_answers():
        with postgres_database(label, keep) as url:
            yield url
    else:
        yield f"sqlite:///{work / 'bench.sqlite3'}"
