"""The ladder finds the true order: 200 bots of known strength, matchmaking by the real planner, results
drawn from the strengths (no sandbox) and stored by the match task's own steps (claim, record_result)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from arena.ratings.ranking import spearman
from ladder import fits, matchmaker
from ladder.models import FittedRating, LadderMatch
from matches.models import Match, MatchStatus, Participant
from ratings.models import Rating
from rulesets.models import RuleSet
from tests.platform.ladder_support import bulk_bots, finish, plackett_luce

pytestmark = pytest.mark.django_db

BOTS = 200
ROUNDS = 40
QUEUED = 40  # tables planned per round (4 players each: 160 of the 200 bots play every round)


def test_ladder_finds_the_true_order(classic: RuleSet, owner: Any, settings: Any) -> None:
    settings.UNO_ARENA_LADDER_TABLE_SIZE = 4
    rng = random.Random(2024)
    bots = bulk_bots(owner, BOTS)
    truth = {bot.pk: rng.gauss(1500, 200) for bot in bots}
    plays: Counter[int] = Counter()
    last_round = {bot.pk: -1 for bot in bots}
    longest_wait = 0
    for round_number in range(ROUNDS):
        planned = matchmaker.plan_round(capacity=10_000, rulesets=["classic"], queued=QUEUED, rng=rng)
        assert planned["tables"].get("classic", 0) == QUEUED
        tables: dict[int, list[int]] = {}
        for match_id, bot_id in (
            Participant.objects.filter(match__status=MatchStatus.QUEUED)
            .values_list("match_id", "bot_id")
            .order_by("match_id", "seat")
        ):
            tables.setdefault(match_id, []).append(bot_id)
        for match_id, seated in tables.items():
            # The match task's own steps (claim, then record_result with ratings), minus the sandbox.
            assert finish(Match(pk=match_id), plackett_luce([truth[b] for b in seated], rng))
            for bot_id in seated:
                plays[bot_id] += 1
                longest_wait = max(longest_wait, round_number - last_round[bot_id] - 1)
                last_round[bot_id] = round_number
    longest_wait = max([longest_wait, *(ROUNDS - 1 - r for r in last_round.values())])
    ladder = dict(Rating.objects.filter(ruleset=classic).values_list("bot_id", "elo"))
    ids = sorted(truth)
    rho = spearman([truth[i] for i in ids], [ladder[i] for i in ids])
    fits.refit(classic)
    fitted = dict(FittedRating.objects.filter(rating__ruleset=classic).values_list("rating__bot_id", "elo"))
    rho_fit = spearman([truth[i] for i in ids], [fitted[i] for i in ids])
    matches = LadderMatch.objects.count()
    print(
        f"\n{BOTS} bots, {matches} ladder matches ({ROUNDS} rounds): Spearman(true, ladder Elo) = {rho:.3f}, "
        f"Spearman(true, batch fit) = {rho_fit:.3f}; games per bot {min(plays.values())}..{max(plays.values())}, "
        f"longest wait {longest_wait} rounds"
    )
    assert matches == ROUNDS * QUEUED
    assert len(plays) == BOTS  # nobody went without games
    assert min(plays.values()) >= 0.7 * sum(plays.values()) / BOTS
    assert longest_wait <= 2  # 160 of 200 seats per round: nobody waits long
    assert rho > 0.9
    assert rho_fit > 0.9
