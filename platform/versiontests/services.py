"""Running a version test: schedule batches of duplicate pairs, count each finished pair, decide.

The games are unrated (``Match.rated = False``: the match task never touches the ladder for them) and
duplicate (the same deal from both seats); a batch is played as series of up to
``UNO_ARENA_VERSIONTEST_SERIES`` (5) pairs, each one job for the workers, played rotation-major. A
pair's score for the new version comes from the duplicate replay's place sums: with two players,
``place_sum[baseline] - place_sum[new]`` is in ``-2..2``, i.e. the pentanomial class 0..4
(``arena.tournaments.sprt``). A match that failed counts as a failure, not a result.
"""

from __future__ import annotations

import json
import logging
import secrets
import uuid
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from bots.models import BotVersion, SmokeStatus
from config.knobs import raw
from ladder.tables import Seat, create_matches
from matches.models import Match, MatchStatus, Origin, Participant, Replay
from matches.services import fail
from rulesets.models import RuleSet
from scheduling.quotas import VERSION_TESTS, enforce, exempt, limits_for
from versiontests.models import TestMatch, TestStatus, VersionTest

log = logging.getLogger(__name__)
FINAL = (MatchStatus.FINISHED, MatchStatus.FAILED)
#: A test stops with an error when this many matches failed and they are a fifth of the results.
MIN_FAILURES = 5
#: Pairs of a batch played as one job (``UNO_ARENA_VERSIONTEST_SERIES``): four sandbox starts for all of
#: them instead of four a pair, while a batch of 10 still keeps two workers busy.
SERIES_PAIRS = 5


def previous_version(version: BotVersion) -> BotVersion | None:
    """The newest earlier version of the same bot that did not fail its smoke test."""
    return (
        BotVersion.objects.defer("archive")
        .filter(bot_id=version.bot_id, number__lt=version.number)
        .exclude(smoke_status=SmokeStatus.FAILED)
        .order_by("-number")
        .first()
    )


def create_test(
    user: Any,
    new_version: BotVersion,
    baseline: BotVersion,
    ruleset: RuleSet,
    elo0: float = 0.0,
    elo1: float = 30.0,
    max_games: int = 2000,
    batch_pairs: int = 10,
) -> VersionTest:
    """Start a test of ``new_version`` against ``baseline`` and queue its first batch.

    Raises ``PermissionDenied`` unless ``user`` owns the new version's bot (or is staff),
    ``ValidationError`` for a rule set without two-player tables, the same version twice, a version
    that failed its smoke test, bounds with ``elo1 <= elo0`` or a batch above the user's quota, and
    ``scheduling.quotas.QuotaExceeded`` when the user already runs their quota of tests.
    """
    if not new_version.bot.is_owned_by(user):
        raise PermissionDenied("Only the bot's owner can test its versions.")
    if not ruleset.is_active or not ruleset.min_players <= 2 <= ruleset.max_players:
        raise ValidationError(f"{ruleset.slug} has no two-player tables; version tests play heads-up.")
    if new_version.pk == baseline.pk:
        raise ValidationError("Pick a different version to test against.")
    for version in (new_version, baseline):
        if version.smoke_status == SmokeStatus.FAILED:
            raise ValidationError(f"{version} failed its smoke test.")
    if not elo1 > elo0:
        raise ValidationError("elo1 must be greater than elo0.")
    batch_limit = limits_for(user).test_batch
    if batch_pairs > batch_limit and not exempt(user):
        raise ValidationError(f"A version test queues at most {batch_limit} pairs at a time (batch_pairs).")
    with transaction.atomic():
        enforce(user, VERSION_TESTS)
        test = VersionTest.objects.create(
            bot=new_version.bot,
            new_version=new_version,
            baseline_version=baseline,
            ruleset=ruleset,
            created_by=user if getattr(user, "is_authenticated", False) else None,
            elo0=elo0,
            elo1=elo1,
            max_games=max(2, max_games),
            batch_pairs=max(1, batch_pairs),
        )
        schedule_batch(test)
    return test


def _pending(test: VersionTest) -> int:
    return TestMatch.objects.filter(test=test, counted=False).count()


def series_sizes(pairs: int, per_series: int) -> list[int]:
    """How a batch of ``pairs`` is cut into series of at most ``per_series`` pairs (as even as possible,
    in order); ``per_series`` < 1 keeps the batch whole."""
    if pairs <= 0:
        return []
    jobs = 1 if per_series < 1 else -(-pairs // per_series)
    return [pairs // jobs + (1 if k < pairs % jobs else 0) for k in range(jobs)]


def schedule_batch(test: VersionTest) -> int:
    """Queue the next batch of pairs (fewer near the game limit), each with its own deal, as series of at
    most ``UNO_ARENA_VERSIONTEST_SERIES`` pairs (``Match.series``; a series of one pair is a plain match):
    each series is one job for the workers, played rotation-major (one set of sandboxes plays the first
    rotation of every pair, a fresh set the second; ``docs/protocol.md``), and a batch of several series
    is shared by several workers. Call with the test row locked or just created. Returns the number of
    pairs queued."""
    room = test.max_games // 2 - test.pairs - _pending(test)
    size = min(test.batch_pairs, room)
    if size <= 0:
        return 0
    versions = {
        v.pk: v
        for v in BotVersion.objects.defer("archive").filter(
            pk__in=[test.new_version_id, test.baseline_version_id]
        )
    }
    new, base = versions[test.new_version_id], versions[test.baseline_version_id]
    seats = [Seat(new.bot_id, new.pk, new.smoke_status), Seat(base.bot_id, base.pk, base.smoke_status)]
    batch = test.batches + 1
    seeds: set[int] = set()
    while len(seeds) < size:  # one job plays them all: no deal twice
        seeds.add(secrets.randbelow(2**31))
    with transaction.atomic():
        matches = create_matches(
            test.ruleset,
            [seats] * size,
            rated=False,
            duplicate=True,
            created_by=test.created_by,
            seeds=sorted(seeds),
            origin=Origin.VERSIONTEST,
        )
        first = 0
        for pairs in series_sizes(size, int(raw("UNO_ARENA_VERSIONTEST_SERIES", str(SERIES_PAIRS)))):
            if pairs > 1:  # one job, played rotation-major (matches.tasks)
                members = [m.pk for m in matches[first : first + pairs]]
                Match.objects.filter(pk__in=members).update(series=uuid.uuid4())
            first += pairs
        TestMatch.objects.bulk_create(
            TestMatch(test=test, batch=batch, index=k, match=m) for k, m in enumerate(matches, start=1)
        )
        test.batches = batch
        VersionTest.objects.filter(pk=test.pk).update(batches=batch)
    return size


def pair_class(match: Match) -> int:
    """The new version's pentanomial class (0..4) in a finished pair; the new version is seat 0."""
    seats = list(Participant.objects.filter(match=match).order_by("seat").values_list("place", "fault_kind"))
    try:
        container = json.loads(Replay.objects.get(match=match).json_bytes())
        sums = container.get("place_sums") if isinstance(container, dict) else None
    except (Replay.DoesNotExist, ValueError):
        sums = None
    if isinstance(sums, list) and len(sums) == 2 and all(isinstance(x, int) for x in sums):
        return max(0, min(4, sums[1] - sums[0] + 2))
    # Not a duplicate container: one game's places (win 4, tie 2, loss 0, as two identical games).
    new_place, base_place = (place if place is not None else 99 for place, _ in seats[:2])
    return 4 if new_place < base_place else 2 if new_place == base_place else 0


def _stop(test: VersionTest, status: str) -> None:
    test.status = status
    test.finished_at = timezone.now()
    queued = TestMatch.objects.filter(test=test, counted=False, match__status=MatchStatus.QUEUED)
    for match_id in list(queued.values_list("match_id", flat=True)):
        fail(match_id, None, f"version test {test.pk} is over ({status})", retry=False)


def on_match_final(match_id: int) -> bool:
    """Count a finished (or failed) pair into its test, then decide or queue more. Idempotent (each
    pair is counted once). Returns False when the match belongs to no test."""
    link = TestMatch.objects.filter(match_id=match_id).values_list("test_id", flat=True).first()
    if link is None:
        return False
    with transaction.atomic():
        test = VersionTest.objects.select_for_update().select_related("ruleset").get(pk=link)
        pair = TestMatch.objects.select_for_update().select_related("match").get(match_id=match_id)
        if pair.counted or pair.match.status not in FINAL:
            return True
        pair.counted = True
        pair.save(update_fields=["counted"])
        if not test.is_running:
            return True
        if pair.match.status == MatchStatus.FINISHED:
            test.penta[pair_class(pair.match)] += 1
        else:
            test.failures += 1
        decide(test)
        test.save()
    return True


def decide(test: VersionTest) -> None:
    """Update the LLR and the status; queue the next batch when the current one is done."""
    result = test.result()
    test.llr = result.llr
    if result.verdict == "H1":
        _stop(test, TestStatus.ACCEPTED)
    elif result.verdict == "H0":
        _stop(test, TestStatus.REJECTED)
    elif test.failures >= MIN_FAILURES and test.failures * 5 >= test.pairs:
        _stop(test, TestStatus.ERROR)
    elif test.pairs >= test.max_games // 2:
        _stop(test, TestStatus.LIMIT)
    elif _pending(test) == 0:
        schedule_batch(test)


def cancel(test: VersionTest, user: Any) -> None:
    """The owner (or staff) stops a running test; its queued matches are dropped."""
    if not test.bot.is_owned_by(user):
        raise PermissionDenied("Only the bot's owner can cancel this test.")
    with transaction.atomic():
        locked = VersionTest.objects.select_for_update().get(pk=test.pk)
        if locked.is_running:
            _stop(locked, TestStatus.CANCELLED)
            locked.save()


def sweep_tests() -> int:
    """Count final pairs whose notification was missed and restart stalled tests. Returns the number
    of running tests looked at."""
    running = list(VersionTest.objects.filter(status=TestStatus.RUNNING).values_list("pk", flat=True))
    missed = TestMatch.objects.filter(test_id__in=running, counted=False, match__status__in=FINAL)
    for match_id in list(missed.values_list("match_id", flat=True)):
        on_match_final(match_id)
    for pk in running:
        with transaction.atomic():
            test = VersionTest.objects.select_for_update().select_related("ruleset").get(pk=pk)
            if test.is_running and _pending(test) == 0:
                decide(test)
                test.save()
    return len(running)
