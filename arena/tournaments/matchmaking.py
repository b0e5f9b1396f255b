"""The ladder's matchmaking planner: which bots sit together at the next tables (pure, no Django).

Algorithm (``docs/leagues.md`` has the full text and the proof of the waiting bound):

1. **Priority.** Every candidate waits since its last finished game (or since it became eligible):
   ``priority = now - waiting_since + boost``; the boost is ``new_boost`` for a bot without games,
   ``provisional_boost`` for a provisional one, 0 otherwise. Boosts are bounded (``B``), waiting grows
   without bound, so priority is "new and provisional first, then whoever waited longest".
2. **Anchors.** Candidates are taken in decreasing priority; each one not yet seated becomes the anchor
   of a new table.
3. **Opponents.** With probability ``1 - epsilon`` the anchor's opponents are the highest-priority bots
   among the ``window`` unseated bots nearest to it in rating (close games that still favour those who
   waited); with probability ``epsilon`` they are drawn uniformly from all unseated bots (exploration:
   every part of the ladder keeps meeting every other, which keeps the ratings comparable).
4. **Table size.** The preferred size clamped to the rule set's ``[min_players, max_players]``; an
   exploration table draws its size uniformly from that range (unless ``explore_sizes`` is off, as in
   league seasons, where every table has the preferred size). When fewer bots are left than the size,
   the table shrinks to what is left (never below ``min_players``).
5. **Seats.** The seat order of a table is a uniformly random permutation, so each bot is equally likely
   to sit in every position (the deal and the turn order favour no one in expectation; duplicate
   matches rotate every seat anyway).

Bounded wait: a bot seated more than ``B`` seconds after bot ``x`` started waiting has a lower priority
than ``x`` from then on (both priorities grow at the same rate), so after ``B`` seconds the set of bots
ahead of ``x`` only shrinks, by at least ``t`` per round when ``t`` tables are planned per round. With
``N`` candidates and a round every ``P`` seconds, ``x`` is seated within ``B + P * ceil((N - 1) / t)``
seconds, as long as rounds keep being planned (workers up).

Cost: two sorts and ``O(window)`` work per table, so ``O(N log N)``: 10,000 candidates are planned in a
few tens of milliseconds.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple


class Candidate(NamedTuple):
    """A bot that may be seated: its id, rating, rated games, provisional flag and waiting start.

    ``waiting_since`` is a time in seconds (any epoch, the same as ``now``): the end of its last game,
    or when it became eligible if it never played. (A named tuple: the platform builds 100,000 of them
    per matchmaking round.)
    """

    id: int
    rating: float
    games: int
    provisional: bool
    waiting_since: float


@dataclass(frozen=True, slots=True)
class PlannerSettings:
    """Knobs of :func:`plan_tables`; the defaults are the platform's."""

    min_players: int = 2
    max_players: int = 10
    table_size: int = 4
    epsilon: float = 0.1
    window: int = 8
    provisional_boost: float = 3600.0
    new_boost: float = 6 * 3600.0
    explore_sizes: bool = True

    def __post_init__(self) -> None:
        if not 2 <= self.min_players <= self.max_players:
            raise ValueError(f"bad player range {self.min_players}..{self.max_players}")
        if not 0.0 <= self.epsilon <= 1.0:
            raise ValueError("epsilon must be between 0 and 1")
        if self.window < 1 or self.provisional_boost < 0 or self.new_boost < 0:
            raise ValueError("window must be positive and boosts non-negative")

    @property
    def size(self) -> int:
        """The preferred table size clamped to the rule set's player range."""
        return max(self.min_players, min(self.max_players, self.table_size))


@dataclass(frozen=True, slots=True)
class Table:
    """One planned table: candidate ids in seat order, and whether it is an exploration table."""

    seats: tuple[int, ...]
    explore: bool = False


def priority(candidate: Candidate, now: float, settings: PlannerSettings) -> float:
    """How urgently ``candidate`` should play: seconds waited plus its new/provisional boost."""
    boost = 0.0
    if candidate.games == 0:
        boost = settings.new_boost
    elif candidate.provisional:
        boost = settings.provisional_boost
    return max(0.0, now - candidate.waiting_since) + boost


class _Pool:
    """The unseated candidates: a rating-ordered linked list and a swap-remove array for sampling."""

    def __init__(self, ratings: Sequence[float]) -> None:
        n = len(ratings)
        order = sorted(range(n), key=ratings.__getitem__)
        self.order = order
        self.pos = [0] * n
        for p, i in enumerate(order):
            self.pos[i] = p
        self.prev = list(range(-1, n - 1))  # by rank position
        self.next = list(range(1, n + 1))
        self.items = list(range(n))  # unseated indices, any order
        self.where = list(range(n))
        self.seated = [False] * n

    def __len__(self) -> int:
        return len(self.items)

    def remove(self, i: int) -> None:
        """Seat candidate ``i``: unlink it from both structures."""
        self.seated[i] = True
        p = self.pos[i]
        left, right = self.prev[p], self.next[p]
        if left >= 0:
            self.next[left] = right
        if right < len(self.order):
            self.prev[right] = left
        k = self.where[i]
        last = self.items.pop()
        if last != i:
            self.items[k] = last
            self.where[last] = k

    def nearest(self, i: int, count: int, ratings: Sequence[float]) -> list[int]:
        """Up to ``count`` unseated candidates nearest to ``i`` in rating (``i`` excluded)."""
        n = len(self.order)
        p = self.pos[i]
        left, right = self.prev[p], self.next[p]
        rating = ratings[i]
        found: list[int] = []
        while len(found) < count and (left >= 0 or right < n):
            if right >= n or (
                left >= 0 and rating - ratings[self.order[left]] <= ratings[self.order[right]] - rating
            ):
                found.append(self.order[left])
                left = self.prev[left]
            else:
                found.append(self.order[right])
                right = self.next[right]
        return found

    def sample(self, count: int, rng: random.Random) -> list[int]:
        """``count`` unseated candidates drawn uniformly without replacement."""
        return [self.items[k] for k in rng.sample(range(len(self.items)), count)]


CandidateRow = tuple[int, float, int, bool, float]
"""A candidate as a plain tuple, in :class:`Candidate`'s field order."""


def plan_tables(
    candidates: Sequence[Candidate] | Sequence[CandidateRow],
    now: float,
    settings: PlannerSettings | None = None,
    max_tables: int | None = None,
    rng: random.Random | None = None,
) -> list[Table]:
    """Seat ``candidates`` at up to ``max_tables`` tables (all of them when ``None``); see the module.

    Each candidate sits at most once. Returns the tables in the order they were planned (the anchor of
    the first one had the highest priority).
    """
    settings = settings or PlannerSettings()
    rng = rng or random.Random()
    n = len(candidates)
    if max_tables is not None and max_tables <= 0:
        return []
    # Plain tuples in Candidate's field order are accepted too (cheaper to build by the 100,000).
    ids = [c[0] for c in candidates]
    ratings = [c[1] for c in candidates]
    new_boost, provisional_boost = settings.new_boost, settings.provisional_boost
    prio = [
        max(0.0, now - c[4]) + (new_boost if c[2] == 0 else provisional_boost if c[3] else 0.0)
        for c in candidates
    ]  # = priority(c, now, settings), inlined: this runs for every candidate
    pool = _Pool(ratings)
    order_keys = list(zip([-p for p in prio], ids, strict=True))
    low, high = settings.min_players, settings.max_players
    if max_tables is not None and max_tables * (high + 1) < n:
        # Each anchor looked at is either seated already or opens a table: no more are needed.
        anchors = heapq.nsmallest(max_tables * (high + 1), range(n), key=order_keys.__getitem__)
    else:
        anchors = sorted(range(n), key=order_keys.__getitem__)
    tables: list[Table] = []
    for anchor in anchors:
        if pool.seated[anchor]:
            continue
        if len(pool) < low or (max_tables is not None and len(tables) >= max_tables):
            break
        explore = settings.epsilon > 0 and rng.random() < settings.epsilon
        size = rng.randint(low, high) if explore and settings.explore_sizes else settings.size
        size = min(size, len(pool))
        pool.remove(anchor)
        if explore:
            others = pool.sample(size - 1, rng)
        else:
            near = pool.nearest(anchor, max(settings.window, size - 1), ratings)
            near.sort(key=lambda i: (-prio[i], abs(ratings[i] - ratings[anchor])))
            others = near[: size - 1]
        for i in others:
            pool.remove(i)
        seats = [anchor, *others]
        rng.shuffle(seats)
        tables.append(Table(tuple(ids[i] for i in seats), explore))
    return tables
