"""Applying a finished rated match to the ratings, race-free across workers."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from arena.ratings.elo import rating_changes
from matches.models import Match, Participant
from ratings.cache import bump
from ratings.models import Rating, RatingHistory


def places_from_participants(seats: Sequence[Participant]) -> list[list[int]]:
    """Group seat indices (positions in ``seats``) by finishing place, best first."""
    by_place: dict[int, list[int]] = {}
    for index, seat in enumerate(seats):
        if seat.place is None:
            raise ValueError(f"seat {seat.seat} has no finishing place")
        by_place.setdefault(seat.place, []).append(index)
    return [by_place[place] for place in sorted(by_place)]


def apply_match(match: Match, seats: Sequence[Participant]) -> None:
    """Update the Elo of every bot in a finished rated match and write one history row each.

    Call inside ``transaction.atomic()`` (the match task's result transaction). Missing rating rows
    are created in bot-id order, then all rows are locked with ``SELECT ... FOR UPDATE`` ordered by
    id, so concurrent workers finishing matches that share bots serialise instead of deadlocking;
    each match is applied against the ratings as they stand when its transaction takes the locks,
    i.e. in the order matches finish. The participants are updated in memory (caller saves them).
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("apply_match must run inside a transaction")
    bot_ids = [seat.bot_id for seat in seats]
    if len(set(bot_ids)) != len(bot_ids):
        raise ValueError("a bot cannot hold two seats in a rated match")
    for bot_id in sorted(bot_ids):
        Rating.objects.get_or_create(bot_id=bot_id, ruleset_id=match.ruleset_id)
    locked = (
        Rating.objects.select_for_update()
        .filter(ruleset_id=match.ruleset_id, bot_id__in=bot_ids)
        .order_by("id")
    )
    rows = {row.bot_id: row for row in locked}
    before = [rows[bot_id].elo for bot_id in bot_ids]
    changes = rating_changes(before, places_from_participants(seats))
    history = []
    for seat, change in zip(seats, changes, strict=True):
        row = rows[seat.bot_id]
        seat.rating_before = row.elo
        row.elo = row.elo + change
        seat.rating_after = row.elo
        row.games += 1
        if seat.place == 1:
            row.wins += 1
        row.last_played = match.finished_at
        row.save(update_fields=["elo", "games", "wins", "last_played"])
        history.append(
            RatingHistory(
                rating=row, match=match, elo_before=seat.rating_before, elo_after=row.elo, games=row.games
            )
        )
    RatingHistory.objects.bulk_create(history)
    slug = match.ruleset.slug
    transaction.on_commit(lambda: bump(slug))  # the rule set's cached leaderboard pages are stale
