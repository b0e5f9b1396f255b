"""Fair shares of the workers: which waiting jobs to hand to them next. Pure Python, no Django.

Every job (a match, or the smoke test of a new version) has an **origin** (``smoke``, ``ladder``,
``league``, ``challenge``, ``versiontest``) and an **owner** (the user it counts against; ``None`` for the
site's own work: the ladder and leagues). When ``free`` slots open, :func:`plan` picks that many waiting
jobs in two levels of start-time fair queuing (stride scheduling), the classic scheduler of shared
links and CPUs (Goyal et al. 1996; Waldspurger's stride scheduling):

1. **Origins first.** Origins listed in ``Policy.first`` (smoke tests) go before everything else. The
   others share by weight: each has a *pass*; the backlogged origin with the smallest pass is served and
   its pass grows by ``cost / weight`` (a job's ``cost`` is its number of games: 1, or ``k`` for a series
   of ``k`` games run as one job, so shares are of games, not of dispatches). Over any stretch in which several origins stay backlogged, each gets
   a share of the dispatches proportional to its weight, whatever the length of the others' queues.
2. **Owners within an origin** the same way, weight 1 each: one user's hundred waiting challenges get
   the same turns as another user's single one.

A key that was idle keeps no credit: its pass is raised to the level's *virtual time* (the pass of the
last key served there) when it is considered again, so a returning user or origin cannot claim a burst.
Ties go to the job that has waited longest. The state is a mapping ``key -> pass`` that the caller keeps
between calls (the platform stores it in the database); :func:`plan` returns the entries it changed.

Bound (``docs/scheduling.md``): when origin ``o`` (weight ``w``) is backlogged, it is served within
``ceil(W / w)`` weighted dispatches, ``W`` the sum of the backlogged origins' weights; an owner with a
waiting job in ``o`` is served within two of ``o``'s turns of becoming backlogged (one tie can go to an
older job).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

SMOKE = "smoke"
LADDER = "ladder"
LEAGUE = "league"
CHALLENGE = "challenge"
VERSIONTEST = "versiontest"
ORIGINS = (SMOKE, LADDER, LEAGUE, CHALLENGE, VERSIONTEST)
#: Default weights of the origins that share (smoke tests go first, outside the weights).
DEFAULT_WEIGHTS = {LADDER: 4.0, LEAGUE: 4.0, CHALLENGE: 2.0, VERSIONTEST: 1.0}


@dataclass(frozen=True)
class Job:
    """A job waiting for a worker since ``queued_at`` (seconds): ``key`` says what to dispatch."""

    queued_at: float
    key: Hashable
    origin: str
    owner: int | None = None
    #: What the job costs in games (a series of ``k`` games costs ``k``): passes grow by it, so an origin
    #: whose jobs are series gets its share of the workers' time, not ``k`` times that share.
    cost: float = 1.0


@dataclass(frozen=True)
class Policy:
    """How the slots are shared."""

    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    #: Origins served before the weighted ones, in this order (smoke tests of new uploads).
    first: tuple[str, ...] = (SMOKE,)

    def weight(self, origin: str) -> float:
        """The origin's weight (an origin with no weight, or a non-positive one, gets a tiny share)."""
        return max(1e-6, float(self.weights.get(origin, 1.0)))


def origin_key(origin: str) -> str:
    """The state key of an origin's pass."""
    return f"origin:{origin}"


def owner_key(origin: str, owner: int | None) -> str:
    """The state key of an owner's pass within an origin (``site`` for the site's own jobs)."""
    return f"owner:{origin}:{'site' if owner is None else owner}"


def clock_key(level: str) -> str:
    """The state key of a level's virtual time (``origins``, or an origin's name for its owners)."""
    return f"clock:{level}"


@dataclass
class _State:
    """The passes, read through the mapping given and written to ``changed``."""

    base: Mapping[str, float]
    changed: dict[str, float] = field(default_factory=dict)

    def get(self, key: str) -> float:
        return self.changed.get(key, self.base.get(key, 0.0))

    def set(self, key: str, value: float) -> None:
        self.changed[key] = value

    def start(self, key: str, clock: str) -> float:
        """A key's effective pass: never below its level's virtual time (no credit kept while idle)."""
        return max(self.get(key), self.get(clock))


def plan(
    waiting: Iterable[Job], free: int, policy: Policy | None = None, state: Mapping[str, float] | None = None
) -> tuple[list[Job], dict[str, float]]:
    """Pick up to ``free`` of the ``waiting`` jobs, fairly (see the module docstring).

    Returns the jobs in dispatch order and the state entries that changed (to be stored and passed back
    next time). Runs in ``O(free x (origins + owners of the chosen origin) + n log n)``.
    """
    policy = policy or Policy()
    passes = _State(state or {})
    queues: dict[str, dict[int | None, deque[Job]]] = defaultdict(dict)
    for job in sorted(waiting, key=_age):
        queues[job.origin].setdefault(job.owner, deque()).append(job)
    picked: list[Job] = []
    while len(picked) < free and queues:
        origin = next((o for o in policy.first if o in queues), None)
        weighted = origin is None
        if origin is None:
            origin = min(
                queues,
                key=lambda o: (passes.start(origin_key(o), clock_key("origins")), _head(queues[o]), o),
            )
        owners = queues[origin]
        clock = clock_key(origin)
        owner = min(owners, key=lambda u: (passes.start(owner_key(origin, u), clock), owners[u][0].queued_at))
        job = owners[owner].popleft()
        cost = max(1.0, float(job.cost))
        if weighted:
            start = passes.start(origin_key(origin), clock_key("origins"))
            passes.set(clock_key("origins"), start)
            passes.set(origin_key(origin), start + cost / policy.weight(origin))
        start = passes.start(owner_key(origin, owner), clock)
        passes.set(clock, start)
        passes.set(owner_key(origin, owner), start + cost)
        picked.append(job)
        if not owners[owner]:
            del owners[owner]
            if not owners:
                del queues[origin]
    return picked, passes.changed


def _age(job: Job) -> float:
    """Sort key: the older first (ties keep the given order)."""
    return job.queued_at


def _head(owners: Mapping[int | None, deque[Job]]) -> float:
    """When the oldest job of an origin was queued."""
    return min(queue[0].queued_at for queue in owners.values())
