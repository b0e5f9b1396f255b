"""League formats: how a round's tables are drawn (pure, no Django). See ``docs/leagues.md``.

- **Round robin** (:func:`round_robin_round`): two-player tables follow the circle method, so ``n - 1``
  rounds (``n`` even) are a perfect round robin; bigger tables are drawn greedily so that pairs who have
  met least sit together, then improved by swaps, so every pair meets about equally often.
- **Swiss** (:func:`swiss_round`): entrants in standing order fill tables top down, each table taking
  from the next few entrants those it met least, so rematches are avoided while scores stay close.
- **Season**: a scheduled run of the ladder; its rounds are planned by :mod:`arena.tournaments.matchmaking`.

A round is a list of tables (entrant ids) plus the byes: entrants left out because the table sizes the
rule set allows cannot seat everyone. Byes go to those with the fewest byes so far (Swiss: the lowest
ranked of those).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

Pair = tuple[int, int]


@dataclass(frozen=True)
class Round:
    """The tables of one round (entrant ids per table) and the entrants who sit out (byes)."""

    tables: list[tuple[int, ...]]
    byes: list[int] = field(default_factory=list)


def pair(a: int, b: int) -> Pair:
    """The unordered pair key of two entrants."""
    return (a, b) if a < b else (b, a)


def meetings(tables: Iterable[Sequence[int]]) -> dict[Pair, int]:
    """How often each pair of entrants sat at the same table."""
    counts: dict[Pair, int] = {}
    for table in tables:
        for a, b in combinations(table, 2):
            key = pair(a, b)
            counts[key] = counts.get(key, 0) + 1
    return counts


def table_sizes(n: int, preferred: int, min_players: int, max_players: int) -> list[int]:
    """Sizes of the tables that seat as many of ``n`` entrants as possible, as close to ``preferred``
    as possible, each within ``[min_players, max_players]``; sizes differ by at most one.

    ``n - sum(result)`` entrants get a bye (only when no split seats everyone).
    """
    if not 2 <= min_players <= max_players:
        raise ValueError(f"bad player range {min_players}..{max_players}")
    preferred = max(min_players, min(max_players, preferred))
    if n < min_players:
        return []
    best: tuple[float, float, int, int] | None = None
    for tables in range(1, n // min_players + 1):
        seated = min(n, tables * max_players)
        byes = n - seated
        key = (byes, abs(seated / tables - preferred), tables, seated)
        if best is None or key < best:
            best = key
    assert best is not None
    tables, seated = best[2], best[3]
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _pick_byes(
    entrants: Sequence[int], count: int, byes_so_far: Mapping[int, int], rng: random.Random
) -> list[int]:
    """``count`` entrants with the fewest byes so far (random among equals)."""
    if count <= 0:
        return []
    keyed = sorted(entrants, key=lambda e: (byes_so_far.get(e, 0), rng.random()))
    return keyed[:count]


def circle_pairs(entrants: Sequence[int], round_index: int) -> Round:
    """Round ``round_index`` (0-based) of the circle method: over ``n - 1`` rounds (``n`` even, else
    ``n`` rounds with one bye each) every pair meets exactly once."""
    players: list[int | None] = list(entrants)
    if len(players) % 2:
        players.append(None)
    m = len(players)
    if m < 2:
        return Round([], list(entrants))
    r = round_index % (m - 1)
    rest = players[1:]
    rest = rest[-r:] + rest[:-r] if r else rest
    ring = [players[0], *rest]
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    for k in range(m // 2):
        a, b = ring[k], ring[m - 1 - k]
        if a is None or b is None:
            byes.extend(x for x in (a, b) if x is not None)
            continue
        # Who sits first alternates: the fixed player by round, the others by their place on the ring.
        top_first = r % 2 == 0 if k == 0 else k % 2 == 1
        tables.append((a, b) if top_first else (b, a))
    return Round(tables, byes)


def _table_cost(table: Sequence[int], met: Mapping[Pair, int]) -> int:
    return sum(met.get(pair(a, b), 0) ** 2 for a, b in combinations(table, 2))


def _improve(
    tables: list[list[int]],
    met: Mapping[Pair, int],
    rng: random.Random,
    attempts: int,
) -> None:
    """Local search: swap two players of two tables when it lowers the sum of squared meeting counts
    (sideways moves of equal cost are taken too: they help the search)."""
    if len(tables) < 2:
        return
    for _ in range(attempts):
        t1 = rng.randrange(len(tables))
        t2 = rng.randrange(len(tables) - 1)
        t2 += t2 >= t1
        a, b = tables[t1], tables[t2]
        i, j = rng.randrange(len(a)), rng.randrange(len(b))
        before = _table_cost(a, met) + _table_cost(b, met)
        a[i], b[j] = b[j], a[i]
        after = _table_cost(a, met) + _table_cost(b, met)
        if after > before:
            a[i], b[j] = b[j], a[i]


def round_robin_round(
    entrants: Sequence[int],
    round_index: int,
    preferred: int,
    min_players: int,
    max_players: int,
    history: Iterable[Sequence[int]] = (),
    byes_so_far: Mapping[int, int] | None = None,
    seed: int = 0,
) -> Round:
    """The next round-robin round: tables balanced so that every pair meets about equally often.

    ``history`` holds the tables of the earlier rounds. Two-player tables use :func:`circle_pairs`
    (exact); bigger ones a greedy draw that seats together those who met least, then swaps.
    Deterministic for the same arguments.
    """
    rng = random.Random(f"{seed}:{round_index}")
    byes_so_far = byes_so_far or {}
    sizes = table_sizes(len(entrants), preferred, min_players, max_players)
    if sizes and max(sizes) == 2 and min(sizes) == 2:
        return circle_pairs(sorted(entrants), round_index)
    byes = _pick_byes(entrants, len(entrants) - sum(sizes), byes_so_far, rng)
    out = set(byes)
    players = [e for e in entrants if e not in out]
    rng.shuffle(players)
    met = meetings(history)
    unseated = set(players)
    tables: list[list[int]] = []
    for size in sizes:
        first = next(p for p in players if p in unseated)
        unseated.discard(first)
        table = [first]
        while len(table) < size:
            pool = list(unseated)
            if len(pool) > 64:
                pool = rng.sample(pool, 64)
            best = min(pool, key=lambda q: (sum(met.get(pair(m, q), 0) for m in table), rng.random()))
            unseated.discard(best)
            table.append(best)
        tables.append(table)
    _improve(tables, met, rng, attempts=40 * len(players))
    for table in tables:
        rng.shuffle(table)
    return Round([tuple(t) for t in tables], sorted(byes))


def swiss_round(
    standing: Sequence[int],
    preferred: int,
    min_players: int,
    max_players: int,
    history: Iterable[Sequence[int]] = (),
    byes_so_far: Mapping[int, int] | None = None,
) -> Round:
    """A Swiss round: ``standing`` is best first. Tables are filled top down: the best entrant left
    opens a table and takes, from the next ``2 * size`` entrants, those it (and the table) met least,
    higher-ranked first. Byes go to the lowest-ranked of those with the fewest byes.
    """
    byes_so_far = byes_so_far or {}
    sizes = table_sizes(len(standing), preferred, min_players, max_players)
    n_byes = len(standing) - sum(sizes)
    byes: list[int] = []
    if n_byes:
        lowest_first = sorted(range(len(standing)), key=lambda k: (byes_so_far.get(standing[k], 0), -k))
        byes = [standing[k] for k in lowest_first[:n_byes]]
    out = set(byes)
    remaining = [e for e in standing if e not in out]
    met = meetings(history)
    tables: list[tuple[int, ...]] = []
    for size in sorted(sizes, reverse=True):
        table = [remaining.pop(0)]
        while len(table) < size:
            window = remaining[: 2 * size]
            best = min(
                range(len(window)), key=lambda k: (sum(met.get(pair(m, window[k]), 0) for m in table), k)
            )
            table.append(remaining.pop(best))
        tables.append(tuple(table))
    return Round(tables, byes)
