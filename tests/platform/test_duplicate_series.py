"""A version-test batch as one series (issue 13): its duplicate pairs are one dispatcher job costing their
games, played rotation-major by the real referee and the real ``process`` runner in this process (one set
of sandboxes per rotation), each pair recorded as its own match; a fault counts in its pair only; a worker
lost mid-series keeps what was recorded and the reaper re-queues the rest."""

from __future__ import annotations

import gzip
import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from bots.models import Bot, BotVersion, SmokeStatus
from bots.services import create_version
from matches import services
from matches.models import Match, MatchStatus
from matches.tasks import run_now
from rulesets.models import RuleSet
from scheduling.dispatcher import busy, dispatch, waiting
from tests.platform.factories import make_bot
from tests.platform.test_series import bot_source
from versiontests import services as versiontests
from versiontests.models import TestMatch, VersionTest
from versiontests.models import TestStatus as Verdict
from viewer.models import DecisionLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def heads_up(rulesets: None) -> RuleSet:
    """A short two-player rule set (one hand)."""
    return RuleSet.objects.get(slug="classic-single")


def versions(owner: Any, new_source: bytes, base_source: bytes) -> tuple[BotVersion, BotVersion]:
    """A bot with a baseline version 1 and a new version 2 (both smoke-tested)."""
    bot: Bot = make_bot(owner, "tested", source=base_source)
    baseline = BotVersion.objects.get(bot=bot, number=1)
    new = create_version(bot, "bot.py", new_source + b"\n# v2\n")
    BotVersion.objects.filter(pk=new.pk).update(smoke_status=SmokeStatus.PASSED)
    new.refresh_from_db()
    return new, baseline


def start(owner: Any, heads_up: RuleSet, new: BotVersion, baseline: BotVersion, pairs: int) -> VersionTest:
    return versiontests.create_test(owner, new, baseline, heads_up, max_games=2 * pairs, batch_pairs=pairs)


def batch(test: VersionTest) -> list[Match]:
    return list(Match.objects.filter(version_test__test=test).order_by("pk"))


def game_pids(participant: Any) -> list[str]:
    """The pid the bot wrote in each game of its duplicate match, in game order."""
    return re.findall(r"--- game \d+, seat \d ---\npid (\d+)", participant.stderr)


def test_a_batch_is_one_job_played_rotation_major(
    heads_up: RuleSet, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    new, baseline = versions(owner, bot_source(series=True), bot_source(series=True))
    test = start(owner, heads_up, new, baseline, 3)
    pairs = batch(test)
    assert len(pairs) == 3
    assert len({m.series for m in pairs}) == 1
    assert pairs[0].series is not None
    assert len({m.seed for m in pairs}) == 3  # one job never plays a deal twice
    assert all(m.duplicate and not m.rated for m in pairs)
    (job,) = [j for j in waiting(10) if j.origin == "versiontest"]
    assert job.cost == 6.0  # three pairs: six games
    dispatch()
    assert all(m.dispatched_at is not None for m in batch(test))
    assert busy() == 1  # the batch holds one slot

    with django_capture_on_commit_callbacks(execute=True):
        run_now(pairs[0].pk)
    played = batch(test)
    assert [m.status for m in played] == [MatchStatus.FINISHED] * 3, [m.error for m in played]
    rotation_pids: list[set[str]] = [set(), set()]
    for p, match in enumerate(played):
        assert match.timings["series"] == [p, 3]
        container = json.loads(match.replay.json_bytes())
        assert container["format"] == "uno-arena-duplicate"
        assert container["seed"] == match.seed
        assert container["seating"] == [[0, 1], [1, 0]]
        assert sorted(container["place_sums"]) in ([2, 4], [3, 3])
        assert [g["extra"]["referee"]["series"] for g in container["games"]] == [
            {"game": p, "games": 3, "kept": [p > 0, p > 0]}
        ] * 2
        seats = list(match.participants.order_by("seat"))
        assert [s.bot_version_id for s in seats] == [new.pk, baseline.pk]
        assert not any(s.fault_kind for s in seats)
        for seat in seats:
            pids = game_pids(seat)
            assert len(pids) == 2, seat.stderr
            for g, pid in enumerate(pids):
                rotation_pids[g].add(f"{seat.bot_version_id}:{pid}")
            rows = json.loads(gzip.decompress(bytes(DecisionLog.objects.get(participant=seat).data)))
            assert {row[0] for row in rows} == {0, 1}  # filed under the pair's own two games
            assert [row[3] for row in rows if row[3].startswith("pid ")] == [f"pid {pid}\n" for pid in pids]
    # One sandbox per version per rotation for the whole batch (6 games, 4 starts, not 12); the second
    # rotation's sandboxes are not the first's.
    assert len(rotation_pids[0]) == len(rotation_pids[1]) == 2
    assert not {p.split(":")[1] for p in rotation_pids[0]} & {p.split(":")[1] for p in rotation_pids[1]}
    test.refresh_from_db()
    assert test.pairs == 3
    assert test.status == Verdict.LIMIT  # counted and decided
    assert TestMatch.objects.filter(test=test, counted=True).count() == 3
    assert busy() == 0


def test_a_fault_counts_in_its_pair_only(heads_up: RuleSet, owner: Any) -> None:
    # The new version crashes in its process's second game: pair 1's first rotation.
    new, baseline = versions(owner, bot_source(series=True, crash_in=1), bot_source(series=True))
    test = start(owner, heads_up, new, baseline, 3)
    pairs = batch(test)
    dispatch()
    run_now(pairs[0].pk)
    played = batch(test)
    assert [m.status for m in played] == [MatchStatus.FINISHED] * 3, [m.error for m in played]
    faults = [list(m.participants.order_by("seat").values_list("fault_kind", "place")) for m in played]
    assert faults[1] == [("crash", 2), ("", 1)]
    assert [kind for kind, _ in faults[0]] == ["", ""]
    assert [kind for kind, _ in faults[2]] == ["", ""]
    second = json.loads(played[1].replay.json_bytes())["games"][1]
    assert second["extra"]["referee"]["faults"][1]["kind"] == "crash"  # not restarted in its own pair


def test_a_worker_lost_mid_batch_keeps_what_was_recorded(
    heads_up: RuleSet, owner: Any, settings: Any
) -> None:
    new, baseline = versions(owner, bot_source(series=True), bot_source(series=True))
    test = start(owner, heads_up, new, baseline, 3)
    pairs = batch(test)
    dispatch()
    claimed = services.claim_job(pairs[0].pk, worker="lost")
    assert [m.pk for m in claimed] == [m.pk for m in pairs]
    # The worker recorded pair 0 (in the last rotation), then died: the others stay running till reaped.
    Match.objects.filter(pk=pairs[0].pk).update(status=MatchStatus.FINISHED, finished_at=timezone.now())
    later = timezone.now() + timedelta(seconds=settings.UNO_ARENA_REAP_AFTER + 1)
    assert services.reap_stale(now=later)["requeued"] == 2
    run_now(pairs[1].pk)  # the re-sent message brings the rest of the batch
    rest = list(Match.objects.filter(pk__in=[pairs[1].pk, pairs[2].pk]).order_by("pk"))
    assert [m.status for m in rest] == [MatchStatus.FINISHED] * 2, [m.error for m in rest]
    assert [m.attempts for m in rest] == [2, 2]
    assert [m.timings["series"] for m in rest] == [[0, 2], [1, 2]]
    assert all(json.loads(m.replay.json_bytes())["format"] == "uno-arena-duplicate" for m in rest)


def test_a_batch_of_one_pair_is_a_job_of_its_own(heads_up: RuleSet, owner: Any) -> None:
    new, baseline = versions(owner, bot_source(series=True), bot_source(series=True))
    test = start(owner, heads_up, new, baseline, 1)
    (pair,) = batch(test)
    assert pair.series is None
    dispatch()
    assert run_now(pair.pk).status == MatchStatus.FINISHED


def test_a_batch_is_cut_into_series_of_the_configured_size(
    heads_up: RuleSet, owner: Any, settings: Any
) -> None:
    assert versiontests.series_sizes(10, 5) == [5, 5]
    assert versiontests.series_sizes(11, 5) == [4, 4, 3]
    assert versiontests.series_sizes(3, 5) == [3]
    assert versiontests.series_sizes(7, 0) == [7]
    assert versiontests.series_sizes(0, 5) == []
    settings.UNO_ARENA_VERSIONTEST_SERIES = 2
    new, baseline = versions(owner, bot_source(series=True), bot_source(series=True))
    test = start(owner, heads_up, new, baseline, 5)
    pairs = batch(test)
    keys = [m.series for m in pairs]
    assert keys[0] == keys[1] != keys[2] == keys[3]
    assert None not in keys[:4]
    assert keys[4] is None  # a series of one pair is a match of its own
    jobs = [j for j in waiting(10) if j.origin == "versiontest"]
    assert sorted(j.cost for j in jobs) == [1.0, 4.0, 4.0]
    settings.UNO_ARENA_PER_PROCESS = 3  # one process seen (none answered), three slots
    dispatch()
    assert busy() == 3
    for job in jobs:
        run_now(job.key[1])  # type: ignore[index]
    assert [m.status for m in batch(test)] == [MatchStatus.FINISHED] * 5
    assert [m.timings.get("series") for m in batch(test)] == [[0, 2], [1, 2], [0, 2], [1, 2], None]
