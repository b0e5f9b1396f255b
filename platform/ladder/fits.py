"""Batch rating fits per rule set (``arena.ratings.fit``), stored next to the ladder's ratings."""

from __future__ import annotations

import logging
import time
from itertools import groupby

from django.db import transaction
from django.utils import timezone

from arena.ratings.fit import fit_ratings
from ladder.models import FittedRating, RatingFit
from matches.models import MatchStatus, Participant
from ratings.models import Rating
from rulesets.models import RuleSet

log = logging.getLogger(__name__)


def rated_results(ruleset: RuleSet) -> list[list[tuple[int, int]]]:
    """Every finished rated match of ``ruleset`` as ``[(bot id, place), ...]`` (one query)."""
    rows = (
        Participant.objects.filter(
            match__ruleset=ruleset, match__rated=True, match__status=MatchStatus.FINISHED, place__isnull=False
        )
        .order_by("match_id", "seat")
        .values_list("match_id", "bot_id", "place")
    )
    return [[(bot, place or 0) for _, bot, place in seats] for _, seats in groupby(rows, key=lambda r: r[0])]


def refit(ruleset: RuleSet) -> RatingFit:
    """Fit all rated results of ``ruleset`` and store each bot's fitted Elo and 95% interval."""
    started = time.perf_counter()
    matches = rated_results(ruleset)
    fit = fit_ratings(matches)
    now = timezone.now()
    rating_ids = dict(Rating.objects.filter(ruleset=ruleset).values_list("bot_id", "id"))
    rows = [
        FittedRating(
            rating_id=rating_ids[bot],
            elo=float(elo),
            low=float(low),
            high=float(high),
            stderr=float(se),
            games=int(games),
            computed_at=now,
        )
        for bot, elo, low, high, se, games in zip(
            fit.ids, fit.ratings, fit.low, fit.high, fit.stderr, fit.games, strict=True
        )
        if bot in rating_ids
    ]
    with transaction.atomic():
        FittedRating.objects.filter(rating__ruleset=ruleset).exclude(
            rating_id__in=[r.rating_id for r in rows]
        ).delete()
        FittedRating.objects.bulk_create(
            rows,
            batch_size=500,
            update_conflicts=True,
            unique_fields=["rating"],
            update_fields=["elo", "low", "high", "stderr", "games", "computed_at"],
        )
        record, _ = RatingFit.objects.update_or_create(
            ruleset=ruleset,
            defaults={
                "computed_at": now,
                "matches": len(matches),
                "bots": len(rows),
                "method": fit.method,
                "iterations": fit.iterations,
                "seconds": time.perf_counter() - started,
            },
        )
        transaction.on_commit(lambda: _leaderboards_changed(ruleset.slug))
    log.info(
        "rating fit %s: %s matches, %s bots, %.2f s", ruleset.slug, len(matches), len(rows), record.seconds
    )
    return record


def _leaderboards_changed(slug: str) -> None:
    """Cached leaderboard pages of the rule set show the old fits: start a new generation."""
    from ratings.cache import bump

    bump(slug)
