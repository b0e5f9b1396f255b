"""Which database the platform tests run on: PostgreSQL on CI, always (as production)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from tests.platform.live_support import need


@pytest.mark.postgres
def test_platform_tests_run_on_postgresql(db: Any) -> None:
    """On CI (``CI=true``) the suite must run on PostgreSQL: ``scripts/test`` points ``DATABASE_URL`` at
    it. Elsewhere SQLite is allowed, and this test says so by skipping."""
    need(
        connection.vendor == "postgresql",
        f"the platform tests run on {connection.vendor}, not PostgreSQL "
        "(scripts/test sets DATABASE_URL when PostgreSQL answers on 127.0.0.1:5432)",
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database(), version()")
        name, version = cursor.fetchone()
    assert name.startswith("test_"), "pytest-django's own test database"
    assert version.startswith("PostgreSQL")
