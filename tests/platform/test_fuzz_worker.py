"""Fuzz bots through the whole platform path: a real Celery worker, Redis, PostgreSQL, bots in the
strongest sandbox (issue 9).

Each fuzz bot (``tests/fuzz_bot.py``) writes hostile bytes on stdout, on stderr and in its ``ready``
name: NUL, invalid UTF-8, lone surrogates, ANSI and OSC escapes, CR, a 1 MB line, binary junk. The plans
are the fixed attacks of the issue plus a bounded batch drawn by hypothesis (``FUZZ_SEED`` replays a
batch; the seed is in every failure message). Every fuzz bot is smoke-tested by the worker (and fails),
then plays one rated match against two plain bots. Every match must end ``finished``, the fuzz bot
faulted and ranked last, everyone's ratings updated; and no page, JSON document or CLI output shows a
control character, nor does the worker's log.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.db.models import QuerySet
from django.test import Client
from hypothesis import Phase, given, settings
from hypothesis import seed as hypothesis_seed

from arena.cli import main
from arena.play.bot_link import FAULT_KINDS
from bots.models import Bot, BotVersion, SmokeStatus
from bots.services import create_version
from matches.models import Match, MatchStatus
from matches.services import create_match
from ratings.models import Rating, RatingHistory
from rulesets.models import RuleSet
from tests.fuzz_bot import FIXED_PLANS, PLANS, Plan, control_characters, fuzz_bot_source, strings
from tests.platform.factories import make_bot
from tests.platform.live_support import CeleryWorker, redis_broker, tiny_bot, wait_for

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

GENERATED = 24
"""Plans drawn by hypothesis per run, on top of the fixed ones (a real worker plays each: keep it small)."""


def _plans(fuzz_seed: int) -> dict[str, Plan]:
    plans = dict(FIXED_PLANS)
    drawn: list[Plan] = []

    @hypothesis_seed(fuzz_seed)
    @settings(max_examples=GENERATED, database=None, phases=[Phase.generate], deadline=None)
    @given(PLANS)
    def draw(plan: Plan) -> None:
        drawn.append(plan)

    draw()
    plans.update({f"drawn-{i}": plan for i, plan in enumerate(drawn[-GENERATED:])})
    return plans


def _settle(rows: QuerySet[Any], busy: dict[str, Any], what: str) -> None:
    """Wait until none of ``rows`` matches ``busy`` (the worker has done them all): 30 s plus 15 s each."""
    wait_for(lambda: not rows.filter(**busy).exists(), 30 + 15 * rows.count(), what)


def _clean_page(client: Client, url: str, why: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    text = response.content.decode("utf-8")
    assert control_characters(text.replace("\r\n", "\n")) == [], f"{why}: {url}"
    return text


def _clean_json(client: Client, url: str, why: str) -> Any:
    data = json.loads(_clean_page(client, url, why))
    bad = [s for s in strings(data) if control_characters(s)]
    assert bad == [], f"{why}: {url}: {bad[:3]!r}"
    return data


def test_fuzz_bots_lose_cleanly_through_a_real_worker(
    celery_worker: Callable[..., CeleryWorker],
    live_services: dict[str, str],
    rulesets: None,
    owner: Any,
    other: Any,
    staff: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    settings: Any,
) -> None:
    settings.UNO_ARENA_QUOTA_SMOKE_TESTS = 1000  # one owner uploads every fuzz bot at once
    fuzz_seed = int(os.environ.get("FUZZ_SEED") or random.randrange(2**32))
    why = f"FUZZ_SEED={fuzz_seed}"
    plans = _plans(fuzz_seed)
    opponents = [make_bot(other, name, source=tiny_bot()) for name in ("plain-a", "plain-b")]
    worker = celery_worker()
    ruleset = RuleSet.objects.get(slug="classic-single")
    with redis_broker(live_services["broker"]):
        # Uploaded like any bot: the worker smoke-tests each one; a fuzz bot fails, with a clean log.
        fuzz: dict[str, Bot] = {}
        for i, name in enumerate(plans):
            bot = Bot.objects.create(owner=owner, name=f"fuzz-{i}", description=name)
            create_version(bot, "fuzz.py", fuzz_bot_source(plans[name]))
            fuzz[name] = bot
        version_ids = list(BotVersion.objects.filter(bot__in=fuzz.values()).values_list("pk", flat=True))
        busy = {"smoke_status__in": [SmokeStatus.PENDING, SmokeStatus.RUNNING]}
        _settle(BotVersion.objects.filter(pk__in=version_ids), busy, f"the smoke tests ({why})")
        statuses = dict(
            BotVersion.objects.filter(pk__in=version_ids).values_list("bot__description", "smoke_status")
        )
        assert set(statuses.values()) == {SmokeStatus.FAILED}, (why, statuses)

        # A bot may behave in its smoke test and misbehave later: let them all play rated matches.
        BotVersion.objects.filter(pk__in=version_ids).update(smoke_status=SmokeStatus.PASSED)
        for version in BotVersion.objects.filter(pk__in=version_ids):  # as if each had passed: active
            Bot.objects.filter(pk=version.bot_id).update(active_version=version)
        matches: dict[str, Match] = {}
        for i, (name, bot) in enumerate(fuzz.items()):
            bot.refresh_from_db()
            seats = [opponents[0], opponents[1]]
            seats.insert(i % 3, bot)  # the fuzz bot takes every seat in turn
            matches[name] = create_match(ruleset, seats, rated=True, seed=1000 + i)
        busy = {"status__in": [MatchStatus.QUEUED, MatchStatus.RUNNING]}
        _settle(Match.objects.filter(pk__in=[m.pk for m in matches.values()]), busy, f"the matches ({why})")

    # Every match finished; the fuzz bot faulted and last; everyone's ratings moved.
    for name, match in matches.items():
        match.refresh_from_db()
        assert match.status == MatchStatus.FINISHED, (why, name, match.status, match.error)
        assert match.worker.startswith(worker.name)
        assert match.error == "", (why, name, match.error)
        seats = {p.bot_id: p for p in match.participants.all()}
        mine = seats[fuzz[name].pk]
        others = [p for p in seats.values() if p is not mine]
        assert mine.fault_kind in FAULT_KINDS, (why, name, mine.fault_kind)
        assert all(p.fault_kind == "" for p in others), (why, name, [p.fault_detail for p in others])
        assert all(p.place is not None and mine.place is not None and p.place < mine.place for p in others), (
            why,
            name,
        )
        assert RatingHistory.objects.filter(match=match).count() == 3
        assert mine.rating_after is not None
        assert mine.rating_before is not None
        assert mine.rating_after < mine.rating_before
    for opponent in opponents:
        assert Rating.objects.get(bot=opponent, ruleset=ruleset).games == len(matches)
    assert Rating.objects.filter(bot__in=fuzz.values(), ruleset=ruleset, games=1).count() == len(fuzz)

    # Nothing raw reaches the worker's log...
    assert control_characters(worker.log()) == [], why
    # ...nor a page or a JSON document: as the fuzz bots' owner (who sees their stderr and
    # fault details) and as staff (who see everything).
    for user in (owner, staff):
        client = Client()
        client.force_login(user)
        for name, match in matches.items():
            bot = fuzz[name]
            context = f"{why}, plan {name}, as {user.username}"
            page = _clean_page(client, match.get_absolute_url(), context)
            assert "Fault details and stderr" in page
            _clean_page(client, f"/bots/{bot.pk}/", context)
            _clean_page(client, f"/bots/{bot.pk}/v/1/", context)
            replay = _clean_json(client, f"/matches/{match.pk}/replay.json", context)
            _clean_json(client, f"/matches/{match.pk}/view.json", context)
            _clean_json(client, f"/matches/{match.pk}/stderr.json", context)
            api = _clean_json(client, f"/api/matches/{match.pk}/", context)
            assert any(seat.get("fault_detail") for seat in api["participants"]), context
            # ...nor the command line's log of the replay.
            path = tmp_path / f"match-{match.pk}.json"
            path.write_text(json.dumps(replay))
            capsys.readouterr()
            assert main(["replay", str(path)]) == 0
            out = capsys.readouterr().out
            assert "FAULT " in out or "fault: seat" in out, context
            assert control_characters(out) == [], context
