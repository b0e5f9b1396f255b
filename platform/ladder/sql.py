"""A database expression the matchmaker needs: a timestamp as seconds since the Unix epoch.

Turning 100,000 timestamps into aware ``datetime`` objects costs more than the whole planning round on
SQLite; the database returns plain numbers instead.
"""

from __future__ import annotations

from typing import Any

from django.db.models import FloatField, Func


class EpochSeconds(Func):
    """``timestamp`` as float seconds since 1970-01-01 UTC (``NULL`` stays ``NULL``).

    PostgreSQL: ``EXTRACT(EPOCH FROM ...)``. SQLite (timestamps stored as UTC text):
    ``julianday`` arithmetic, exact to the millisecond.
    """

    output_field = FloatField()
    arity = 1

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        """PostgreSQL spelling."""
        return self.as_sql(
            compiler, connection, template="EXTRACT(EPOCH FROM %(expressions)s)::float", **extra
        )

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        """SQLite spelling."""
        return self.as_sql(
            compiler, connection, template="((julianday(%(expressions)s) - 2440587.5) * 86400.0)", **extra
        )
