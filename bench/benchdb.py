"""A throw-away PostgreSQL database for a benchmark run (bench/throughput.py, bench/leagues.py)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"
"""Where the benchmarks create their databases unless ``BENCH_POSTGRES_URL`` says otherwise."""


def admin_url() -> str:
    """The URL of the database the benchmarks connect to in order to create and drop their own."""
    return os.environ.get("BENCH_POSTGRES_URL", DEFAULT_POSTGRES)


@contextlib.contextmanager
def postgres_database(label: str) -> Iterator[str]:
    """The ``DATABASE_URL`` of a new, empty database ``uno_arena_bench_<label>_<pid>``, dropped afterwards
    (with the connections Django still holds to it)."""
    import psycopg

    admin = admin_url()
    libpq = admin.replace("postgres://", "postgresql://", 1)
    name = f"uno_arena_bench_{label}_{os.getpid()}"
    with psycopg.connect(libpq, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield admin.rsplit("/", 1)[0] + "/" + name
    finally:
        from django.conf import settings
        from django.db import connections

        if settings.configured:
            connections.close_all()
        with psycopg.connect(libpq, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
