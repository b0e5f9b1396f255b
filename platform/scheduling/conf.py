"""The scheduler's knobs and the default quotas, read from Django settings or the environment.

| setting (or environment variable) | default | meaning |
|---|---|---|
| ``UNO_ARENA_CAPACITY`` | 50 | jobs (matches and smoke tests) handed to the workers at once, at most |
| ``UNO_ARENA_PER_PROCESS`` | 1 | ... and at most this many per live worker process on the ``matches`` queue (more would wait in the broker, beyond the planner's reach) |
| ``UNO_ARENA_WEIGHTS`` | ``ladder=4,league=4,challenge=2,versiontest=1`` | shares of the origins (smoke tests go first) |
| ``UNO_ARENA_DISPATCH_EVERY`` | 10 | seconds between two dispatches by beat (a finished job dispatches at once) |
| ``UNO_ARENA_QUOTA_CHALLENGES`` | 10 | challenges a user may have queued or running |
| ``UNO_ARENA_QUOTA_VERSION_TESTS`` | 2 | version tests a user may have running |
| ``UNO_ARENA_QUOTA_TEST_BATCH`` | 20 | pairs a version test queues at a time (its ``batch_pairs``), at most |
| ``UNO_ARENA_QUOTA_SMOKE_TESTS`` | 3 | versions of a user's bots waiting for (or in) their smoke test |
| ``UNO_ARENA_QUOTA_BOTS`` | 20 | bots a user may own |

Staff change one user's quotas in the admin (``scheduling.Quota``: an empty field keeps the default).
"""

from __future__ import annotations

from dataclasses import dataclass

from config.knobs import raw
from scheduling.planner import DEFAULT_WEIGHTS, Policy


@dataclass(frozen=True)
class SchedulerSettings:
    """The dispatcher's knobs (see the module docstring)."""

    capacity: int
    per_process: int
    every: float
    policy: Policy


@dataclass(frozen=True)
class Limits:
    """One user's quotas (see the module docstring)."""

    challenges: int
    version_tests: int
    test_batch: int
    smoke_tests: int
    bots: int


#: Limits field -> (knob, default).
QUOTA_KNOBS = {
    "challenges": ("UNO_ARENA_QUOTA_CHALLENGES", 10),
    "version_tests": ("UNO_ARENA_QUOTA_VERSION_TESTS", 2),
    "test_batch": ("UNO_ARENA_QUOTA_TEST_BATCH", 20),
    "smoke_tests": ("UNO_ARENA_QUOTA_SMOKE_TESTS", 3),
    "bots": ("UNO_ARENA_QUOTA_BOTS", 20),
}


def parse_weights(text: str) -> dict[str, float]:
    """``"ladder=4,league=4"`` as ``{"ladder": 4.0, "league": 4.0}`` (the defaults for the rest)."""
    weights = dict(DEFAULT_WEIGHTS)
    for item in text.split(","):
        name, _, value = item.partition("=")
        if name.strip() and value.strip():
            weights[name.strip()] = float(value)
    return weights


def scheduler_settings() -> SchedulerSettings:
    """The current settings (read each time, so tests can override them)."""
    return SchedulerSettings(
        capacity=int(raw("UNO_ARENA_CAPACITY", "50")),
        per_process=int(raw("UNO_ARENA_PER_PROCESS", "1")),
        every=float(raw("UNO_ARENA_DISPATCH_EVERY", "10")),
        policy=Policy(weights=parse_weights(raw("UNO_ARENA_WEIGHTS", ""))),
    )


def default_limits() -> Limits:
    """The site-wide default quotas."""
    return Limits(**{field: int(raw(knob, str(default))) for field, (knob, default) in QUOTA_KNOBS.items()})
