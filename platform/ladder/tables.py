"""Creating many matches at once with explicit versions per seat (ladder, leagues, version tests).

``matches.services.create_match`` seats each bot's *active* version one match at a time; the planners
here need whole rounds in a handful of queries, and version tests need a bot's *older* version. The
rules are the same: the table fits the rule set, no version that failed its smoke test, and a rated
table has every version passed and no bot twice.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from bots.models import SmokeStatus
from matches.models import Match, Participant
from rulesets.models import RuleSet


class Seat:
    """One seat to fill: the bot id, its version id and that version's smoke status."""

    __slots__ = ("bot_id", "smoke_status", "version_id")

    def __init__(self, bot_id: int, version_id: int, smoke_status: str = SmokeStatus.PASSED) -> None:
        self.bot_id = bot_id
        self.version_id = version_id
        self.smoke_status = smoke_status

    def __repr__(self) -> str:
        return f"Seat(bot={self.bot_id}, version={self.version_id})"


def check_table(ruleset: RuleSet, seats: Sequence[Seat], rated: bool) -> None:
    """Raise ``ValidationError`` unless ``seats`` may play a (rated) match on ``ruleset``."""
    if not ruleset.min_players <= len(seats) <= ruleset.max_players:
        raise ValidationError(
            f"{ruleset.slug} is played by {ruleset.min_players} to {ruleset.max_players} players, "
            f"not {len(seats)}."
        )
    if any(seat.smoke_status == SmokeStatus.FAILED for seat in seats):
        raise ValidationError("A version that failed its smoke test cannot play.")
    if rated:
        if len({seat.bot_id for seat in seats}) != len(seats):
            raise ValidationError("A bot may take only one seat in a rated match.")
        if any(seat.smoke_status != SmokeStatus.PASSED for seat in seats):
            raise ValidationError("Every version of a rated match must have passed its smoke test.")


def create_matches(
    ruleset: RuleSet,
    tables: Sequence[Sequence[Seat]],
    rated: bool,
    duplicate: bool = False,
    created_by: Any = None,
    seeds: Sequence[int] | None = None,
    *,
    origin: str,
) -> list[Match]:
    """Queue one match per table (seats in order) on ``ruleset``; see :func:`create_tables`."""
    return create_tables(
        [(ruleset, seats) for seats in tables], rated, duplicate, created_by, seeds, origin=origin
    )


def create_tables(
    tables: Sequence[tuple[RuleSet, Sequence[Seat]]],
    rated: bool,
    duplicate: bool = False,
    created_by: Any = None,
    seeds: Sequence[int] | None = None,
    *,
    origin: str,
    series: int = 1,
) -> list[Match]:
    """Queue one match per ``(rule set, seats)`` in two inserts, for ``origin`` (``matches.models.Origin``);
    the scheduler hands them to the workers after the surrounding transaction commits. Call inside
    ``transaction.atomic()`` to add rows of your own (ladder, league or test links) in the same
    transaction. Raises ``ValidationError`` (nothing created) if any table may not play.

    ``series`` > 1 makes each table a series of that many games (``Match.series``), one job for the
    workers, played in the same sandboxes: game ``k`` rotates the seats by ``k`` and every game has its own
    seed (a series never replays a deal). The matches come back table by table, game by game. Duplicate
    matches never form a series here (a kept sandbox would remember the deal); a version-test batch of
    duplicate pairs is cut into series by ``versiontests.services.schedule_batch``, which the match task
    plays rotation-major."""
    from scheduling.dispatcher import dispatch_after_commit

    for ruleset, seats in tables:
        check_table(ruleset, seats, rated)
    if not tables:
        return []
    games = 1 if duplicate else max(1, series)
    rows: list[tuple[RuleSet, list[Seat], int, uuid.UUID | None]] = []
    for k, (ruleset, seats) in enumerate(tables):
        key = uuid.uuid4() if games > 1 else None
        used: set[int] = set()
        for g in range(games):
            seed = seeds[k] if seeds is not None and g == 0 else secrets.randbelow(2**31)
            while seed in used:
                seed = secrets.randbelow(2**31)
            used.add(seed)
            shift = g % len(seats)
            rows.append((ruleset, [*seats[shift:], *seats[:shift]], seed, key))
    with transaction.atomic(savepoint=False):
        matches = Match.objects.bulk_create(
            Match(
                ruleset=ruleset,
                rated=rated,
                duplicate=duplicate,
                created_by=created_by,
                origin=origin,
                seed=seed,
                series=key,
            )
            for ruleset, _, seed, key in rows
        )
        Participant.objects.bulk_create(
            Participant(match=match, seat=index, bot_id=seat.bot_id, bot_version_id=seat.version_id)
            for match, (_, seats, _, _) in zip(matches, rows, strict=True)
            for index, seat in enumerate(seats)
        )
        dispatch_after_commit()
    return matches
