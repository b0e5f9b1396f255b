"""Settings of the ladder, leagues and version tests, read from Django settings or the environment.

| setting (or environment variable) | default | meaning |
|---|---|---|
| ``UNO_ARENA_LADDER`` | on | the matchmaking task plans matches (off: it does nothing) |
| ``UNO_ARENA_LADDER_QUEUED`` | 3 | rated ladder matches kept queued per rule set |
| ``UNO_ARENA_LADDER_CAPACITY`` | 50 | at most this many ladder matches queued or running (the scheduler shares the workers) |
| ``UNO_ARENA_LADDER_PER_PROCESS`` | 2 | ... and at most this many per live worker process on the ``matches`` queue |
| ``UNO_ARENA_LADDER_EVERY`` | 30 | seconds between two matchmaking runs (initial beat schedule) |
| ``UNO_ARENA_LADDER_TABLE_SIZE`` | 4 | preferred table size (clamped to each rule set's player range) |
| ``UNO_ARENA_LADDER_EPSILON`` | 0.1 | share of exploration tables |
| ``UNO_ARENA_LADDER_DUPLICATE`` | off | ladder matches use duplicate deals |
| ``UNO_ARENA_LADDER_FILL`` | on | a slot that opens lets the ladder plan at once (``scheduling.dispatcher.top_up_ladder``; off: only at its beat) |
| ``UNO_ARENA_LADDER_SERIES`` | 4 | games per ladder table, played as one series in the same sandboxes (1: one game a job; duplicate: always 1) |
| ``UNO_ARENA_FIT_EVERY`` | 600 | seconds between two batch rating fits (initial beat schedule) |
| ``UNO_ARENA_SWEEP_EVERY`` | 60 | seconds between two sweeps of leagues and version tests (initial beat schedule) |

The beat schedules are created once (``ladder.schedule``); afterwards staff edit them in the admin.
"""

from __future__ import annotations

from dataclasses import dataclass

from config.knobs import flag as _bool
from config.knobs import raw as _raw


@dataclass(frozen=True)
class LadderSettings:
    """The ladder's knobs (see the module docstring)."""

    enabled: bool
    queued: int
    capacity: int
    per_process: int
    every: float
    table_size: int
    epsilon: float
    duplicate: bool
    series: int
    fill: bool
    fit_every: float
    sweep_every: float


def ladder_settings() -> LadderSettings:
    """The current settings (read each time, so tests can override them)."""
    return LadderSettings(
        enabled=_bool("UNO_ARENA_LADDER", True),
        queued=int(_raw("UNO_ARENA_LADDER_QUEUED", "3")),
        capacity=int(_raw("UNO_ARENA_LADDER_CAPACITY", "50")),
        per_process=int(_raw("UNO_ARENA_LADDER_PER_PROCESS", "2")),
        every=float(_raw("UNO_ARENA_LADDER_EVERY", "30")),
        table_size=int(_raw("UNO_ARENA_LADDER_TABLE_SIZE", "4")),
        epsilon=float(_raw("UNO_ARENA_LADDER_EPSILON", "0.1")),
        duplicate=_bool("UNO_ARENA_LADDER_DUPLICATE", False),
        series=max(1, int(_raw("UNO_ARENA_LADDER_SERIES", "4"))),
        fill=_bool("UNO_ARENA_LADDER_FILL", True),
        fit_every=float(_raw("UNO_ARENA_FIT_EVERY", "600")),
        sweep_every=float(_raw("UNO_ARENA_SWEEP_EVERY", "60")),
    )
