"""A series through a real Celery worker, Redis and PostgreSQL (the strongest sandbox): the worker is
SIGKILLed in the middle of the series' second game; the first game stays recorded, and the reaper (beat, in
a second worker) re-queues the other two, which the next worker plays as a series of their own. Missing
services skip (and fail on CI), as in ``test_worker_integration.py``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from ladder.tables import Seat, create_tables
from matches.models import Match, Origin, Replay
from ratings.models import Rating
from rulesets.models import RuleSet
from tests.platform.factories import make_bot
from tests.platform.live_support import (
    CeleryWorker,
    kill_after_first_recorded,
    redis_broker,
    rescue,
)

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

#: Plays series; in the second game its process plays (game 1) it thinks 4 s over its first decision.
SLOW_SECOND = b"""\
import json, sys, time
game = -1
slow = False
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind in ("hello", "new_game"):
        game += 1
        slow = game == 1
        print(json.dumps({"type": "ready", "name": "slow-second", "series": True}), flush=True)
    elif kind == "request":
        if slow:
            time.sleep(4)
            slow = False
        legal = message["legal"]
        action = next((a for a in legal if a.endswith("!") or a == "say_uno"), legal[0])
        print(json.dumps({"type": "action", "id": message["id"], "action": action}), flush=True)
"""


def test_a_worker_killed_mid_series_keeps_the_games_recorded(
    celery_worker: Callable[..., CeleryWorker],
    live_services: dict[str, str],
    rulesets: None,
    owner: Any,
    other: Any,
) -> None:
    a = make_bot(owner, "slow-a", source=SLOW_SECOND)
    b = make_bot(other, "slow-b", source=SLOW_SECOND)
    seats = [Seat(bot.pk, bot.active_version_id) for bot in (a, b)]  # type: ignore[arg-type]
    with redis_broker(live_services["broker"]):
        games = create_tables(
            [(RuleSet.objects.get(slug="classic-single"), seats)], rated=True, origin=Origin.LADDER, series=3
        )
        ids = [m.pk for m in sorted(games, key=lambda m: m.pk)]
        doomed = celery_worker(UNO_ARENA_LADDER="0")
        # Killed in the second game, after the first was recorded.
        kill_after_first_recorded(doomed, ids, 90, "the first game of the series to be recorded")
        rescuer = rescue(celery_worker, ids, 150, "the rest of the series to be played")
    played = {m.pk: m for m in Match.objects.filter(pk__in=ids)}
    assert played[ids[0]].attempts == 1
    assert played[ids[0]].worker.startswith(doomed.name)
    for pk in ids[1:]:
        assert played[pk].attempts == 2
        assert played[pk].worker.startswith(rescuer.name)
    assert played[ids[1]].timings["series"] == [0, 2]  # re-played as a series of the two left
    assert Replay.objects.filter(match_id__in=ids).count() == 3
    assert {r.games for r in Rating.objects.filter(bot__in=[a, b])} == {3}  # each game counted once
