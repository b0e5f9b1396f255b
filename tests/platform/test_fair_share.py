"""The fair-share planner (``scheduling.planner``, pure): invariants by hypothesis, and a simulation of the
workers under a large backlog (one user floods version tests, challenges and uploads)."""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scheduling.planner import (
    CHALLENGE,
    DEFAULT_WEIGHTS,
    LADDER,
    LEAGUE,
    ORIGINS,
    SMOKE,
    VERSIONTEST,
    Job,
    Policy,
    plan,
)

jobs_strategy = st.lists(
    st.tuples(
        st.sampled_from(ORIGINS), st.sampled_from([None, 1, 2, 3]), st.floats(0, 1000, allow_nan=False)
    ),
    max_size=60,
)


def make_jobs(rows: list[tuple[str, int | None, float]]) -> list[Job]:
    return [Job(at, ("job", k), origin, owner) for k, (origin, owner, at) in enumerate(rows)]


@settings(max_examples=200, deadline=None)
@given(rows=jobs_strategy, free=st.integers(0, 70))
def test_a_plan_takes_what_fits_each_job_once_and_each_queue_in_order(rows: Any, free: int) -> None:
    jobs = make_jobs(rows)
    picked, state = plan(jobs, free)
    assert len(picked) == min(free, len(jobs))  # work-conserving: no slot left empty while jobs wait
    assert len({job.key for job in picked}) == len(picked)
    assert set(picked) <= set(jobs)
    by_queue: dict[tuple[str, int | None], list[Job]] = defaultdict(list)
    for job in picked:
        by_queue[(job.origin, job.owner)].append(job)
    for (origin, owner), taken in by_queue.items():  # each (origin, owner) queue is served oldest first
        queue = sorted(
            (j for j in jobs if j.origin == origin and j.owner == owner), key=lambda j: j.queued_at
        )
        assert [j.queued_at for j in taken] == [j.queued_at for j in queue[: len(taken)]]
    smoke = [j for j in jobs if j.origin == SMOKE]
    assert picked[: min(len(smoke), free)] == [j for j in picked if j.origin == SMOKE]  # smoke tests first
    assert all(math.isfinite(v) for v in state.values())


@settings(max_examples=100, deadline=None)
@given(rows=jobs_strategy, free=st.integers(1, 20))
def test_planning_in_steps_is_planning_at_once(rows: Any, free: int) -> None:
    """The state carries everything: two plans of ``k`` slots pick what one plan of ``2k`` picks."""
    jobs = make_jobs(rows)
    once, _ = plan(jobs, 2 * free)
    first, state = plan(jobs, free)
    rest = [j for j in jobs if j not in first]
    second, _ = plan(rest, free, state=state)
    assert first + second == once


def test_backlogged_origins_share_by_weight() -> None:
    """Thousands of jobs waiting in every origin: 1,100 dispatches split 4:4:2:1."""
    jobs = [
        Job(float(k), ("j", o, k), o, 7)
        for o in (LADDER, LEAGUE, CHALLENGE, VERSIONTEST)
        for k in range(5000)
    ]
    picked, _ = plan(jobs, 1100)
    shares = Counter(job.origin for job in picked)
    total = sum(DEFAULT_WEIGHTS.values())
    for origin, weight in DEFAULT_WEIGHTS.items():
        assert abs(shares[origin] - 1100 * weight / total) <= 1


def test_series_share_games_not_dispatches() -> None:
    """Ladder jobs of 4 games each against challenges of one: the weights (4:2) split the games, so the
    ladder gets half as many dispatches as challenges, and a challenge still waits at most
    ``ceil(W / 2)`` dispatches."""
    ladder = [Job(float(k), ("l", k), LADDER, None, cost=4.0) for k in range(3000)]
    challenges = [Job(float(k), ("c", k), CHALLENGE, 1) for k in range(3000)]
    picked, _ = plan(ladder + challenges, 900)
    games = Counter()
    for job in picked:
        games[job.origin] += int(job.cost)
    assert abs(games[LADDER] / games[CHALLENGE] - 2.0) < 0.02
    gaps = [i for i, job in enumerate(picked) if job.origin == CHALLENGE]
    assert max(b - a for a, b in zip([-1, *gaps], gaps, strict=False)) <= math.ceil(6 / 2)


def test_owners_share_an_origin_equally_whatever_their_queue() -> None:
    flood = [Job(float(k), ("a", k), CHALLENGE, 1) for k in range(3000)]
    light = [Job(5000.0 + k, ("b", k), CHALLENGE, 2) for k in range(3)]
    picked, _ = plan(flood + light, 6)
    assert [job.owner for job in picked].count(2) == 3  # every other turn, although queued last


def test_an_idle_origin_keeps_no_credit() -> None:
    """An origin idle for a while comes back with the others' virtual time, not a burst of turns."""
    state: dict[str, float] = {}
    flood = [Job(float(k), ("v", k), VERSIONTEST, 1) for k in range(500)]
    _, changed = plan(flood, 300, state=state)
    state.update(changed)
    ladder = [Job(1000.0 + k, ("l", k), LADDER, None) for k in range(100)]
    picked, _ = plan(flood[300:] + ladder, 50, state=state)
    assert Counter(job.origin for job in picked)[LADDER] == 40  # its 4:1 share, not all 50


def simulate(
    slots: int, rounds: int, seed: int = 1, policy: Policy | None = None
) -> tuple[dict[str, list[float]], Counter[str]]:
    """Workers with ``slots`` slots, jobs of random length (1 to 3 time units), a dispatch whenever a slot
    frees. One flooder keeps 500 version tests and 100 challenges waiting and uploads as fast as the upload
    throttle lets them; the ladder keeps 3 matches waiting; another user sends a challenge now and then. Returns each origin's
    waits (dispatch time - queue time) of the others' jobs, and the dispatches per origin."""
    rng = random.Random(seed)
    waiting: list[Job] = []
    state: dict[str, float] = {}
    running: list[float] = []
    waits: dict[str, list[float]] = defaultdict(list)
    served: Counter[str] = Counter()
    serial = 0

    def add(origin: str, owner: int | None, at: float) -> None:
        nonlocal serial
        serial += 1
        waiting.append(Job(at, (origin, serial), origin, owner))

    for now in range(rounds):
        t = float(now)
        count = Counter((j.origin, j.owner) for j in waiting)
        for _ in range(500 - count[(VERSIONTEST, 1)]):
            add(VERSIONTEST, 1, t)
        for _ in range(100 - count[(CHALLENGE, 1)]):
            add(CHALLENGE, 1, t)
        if now % 12 == 0:  # uploads at the throttle's rate (30/hour, a time unit being ~10 s of a match)
            add(SMOKE, 1, t)
        for _ in range(3 - count[(LADDER, None)]):
            add(LADDER, None, t)
        if now % 7 == 0:
            add(CHALLENGE, 2, t)
        running = [end for end in running if end > t]
        picked, changed = plan(waiting, slots - len(running), policy, state)
        state.update(changed)
        for job in picked:
            waiting.remove(job)
            running.append(t + rng.uniform(1, 3))
            served[job.origin] += 1
            waits[f"{job.origin}:{job.owner}"].append(t - job.queued_at)
    return waits, served


def test_a_flood_leaves_the_ladder_and_another_users_challenge_served() -> None:
    """The documented bound (docs/scheduling.md): with smoke tests first, a backlogged origin of weight w
    gets a turn within ceil(W / w) weighted dispatches, an owner within two of its origin's turns. With 8
    slots and jobs of 1 to 3 units, about 4 dispatches happen per unit: the ladder waits at most a few
    units, the other user's challenge too, while the flooder's version tests wait hundreds."""
    waits, served = simulate(slots=8, rounds=2000)
    assert max(waits[f"{LADDER}:None"]) <= 3
    assert max(waits[f"{CHALLENGE}:2"]) <= 3
    assert max(waits[f"{SMOKE}:1"]) <= 1  # smoke tests go first
    assert sum(waits[f"{VERSIONTEST}:1"]) / len(waits[f"{VERSIONTEST}:1"]) > 100
    weighted = {o: served[o] for o in (LADDER, CHALLENGE, VERSIONTEST)}
    # The ladder asks for less than its share (3 waiting at a time); what it leaves goes to the others.
    assert weighted[CHALLENGE] >= weighted[VERSIONTEST]
