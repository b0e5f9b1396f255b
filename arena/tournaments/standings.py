"""League standings: points per finishing place, tie-breaks and Elo change (pure, no Django).

Points: at a table of ``n`` players an entrant scores one point per opponent placed behind it and half a
point per opponent tied with it, i.e. ``n - place`` points for a clear place (1 = first; winner ``n - 1``,
last 0) — the same pairwise score the Elo ladder uses. A bye is worth half the points of a table of the
league's preferred size, ``(size - 1) / 2`` (an average result). A void table (failed match) and an
absence score nothing.

Order (best first): points; then **Buchholz** (the sum of the final points of every opponent met, once
per table shared); then **wins** (first places, ties included); then **Elo change**; then the entrant id
(stable, so equal rows never swap between two computations).

Elo change: for a rated league the sum of the ladder changes of the entrant's league matches; for an
unrated one a league-only Elo computed with :mod:`arena.ratings.elo` from 1500 in finishing order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from arena.ratings.elo import START_RATING, rating_changes


@dataclass(frozen=True)
class TableResult:
    """A finished table: entrant ids, each one's place (1 = first, tied share), optional Elo deltas."""

    entrants: Sequence[int]
    places: Sequence[int]
    rating_changes: Sequence[float] | None = None


@dataclass
class StandingRow:
    """One line of the standings."""

    entrant: int
    rank: int = 0
    points: float = 0.0
    buchholz: float = 0.0
    wins: int = 0
    games: int = 0
    byes: int = 0
    elo_change: float = 0.0


def table_points(places: Sequence[int]) -> list[float]:
    """Points of each seat: one per opponent placed behind, half per opponent tied."""
    return [
        sum(1.0 if p < q else 0.5 if p == q else 0.0 for j, q in enumerate(places) if j != i)
        for i, p in enumerate(places)
    ]


def bye_points(table_size: int) -> float:
    """Points of a bye: an average result at a table of the league's preferred size."""
    return (table_size - 1) / 2


def places_to_order(places: Sequence[int]) -> list[list[int]]:
    """Turn each seat's place (1 = first) into the grouped finishing order ``arena.ratings.elo`` takes."""
    groups: dict[int, list[int]] = {}
    for seat, place in enumerate(places):
        groups.setdefault(place, []).append(seat)
    return [groups[p] for p in sorted(groups)]


def compute_standings(
    entrants: Iterable[int],
    results: Sequence[TableResult],
    byes: Mapping[int, int] | None = None,
    table_size: int = 4,
    rated: bool | None = None,
) -> list[StandingRow]:
    """Standings of a league from its finished tables in finishing order (see the module docstring).

    ``byes`` counts each entrant's byes. ``rated``: use the tables' ``rating_changes`` for the Elo
    change (``None``: when every table has them).
    """
    rows = {e: StandingRow(e) for e in entrants}
    byes = byes or {}
    if rated is None:
        rated = bool(results) and all(r.rating_changes is not None for r in results)
    league_elo = dict.fromkeys(rows, START_RATING)
    opponents: dict[int, list[int]] = {e: [] for e in rows}
    for result in results:
        for e in result.entrants:
            if e not in rows:
                rows[e] = StandingRow(e)
                league_elo[e] = START_RATING
                opponents[e] = []
        points = table_points(result.places)
        best = min(result.places)
        for seat, e in enumerate(result.entrants):
            row = rows[e]
            row.points += points[seat]
            row.games += 1
            row.wins += result.places[seat] == best
            opponents[e].extend(o for o in result.entrants if o != e)
        if rated and result.rating_changes is not None:
            for e, delta in zip(result.entrants, result.rating_changes, strict=True):
                rows[e].elo_change += delta
        elif len(result.entrants) >= 2:
            before = [league_elo[e] for e in result.entrants]
            for e, delta in zip(
                result.entrants, rating_changes(before, places_to_order(result.places)), strict=True
            ):
                league_elo[e] += delta
    for e, count in byes.items():
        if e in rows:
            rows[e].byes = count
            rows[e].points += count * bye_points(table_size)
    for e, row in rows.items():
        row.buchholz = sum(rows[o].points for o in opponents[e])
        if not rated:
            row.elo_change = league_elo[e] - START_RATING
    ordered = sorted(rows.values(), key=lambda r: (-r.points, -r.buchholz, -r.wins, -r.elo_change, r.entrant))
    for rank, row in enumerate(ordered, start=1):
        row.rank = rank
    return ordered
