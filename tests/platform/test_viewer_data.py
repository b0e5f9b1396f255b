"""The viewer's endpoints and page: viewer data (cached, gzip), per-decision stderr (owner-only), the
match page's viewer element and its reproduce command."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from django.test import Client

from arena.engine.replay_view import VIEW_FORMAT, VIEW_VERSION
from bots.models import Bot
from matches.models import Match, Replay
from rulesets.models import RuleSet
from tests.platform.viewer_support import finished_match, stderr_rows
from tests.viewer.engine_games import case_replay
from viewer.models import DecisionLog, ReplayView
from viewer.services import reproduce_command

pytestmark = pytest.mark.django_db


@pytest.fixture
def replay() -> dict[str, Any]:
    return case_replay("classic-500")


@pytest.fixture
def played(classic: RuleSet, bot: Bot, rival: Bot, owner: Any, other: Any, replay: dict[str, Any]) -> Match:
    """A finished 4-seat match: the owner's bot at seats 0 and 2, the rival at 1 and 3, with stderr rows."""
    rows = [stderr_rows(replay, 0), stderr_rows(replay, 1), stderr_rows(replay, 2), []]
    return finished_match(classic, [bot, rival, bot, rival], replay, decision_stderr=rows)


def test_view_data_is_built_once_then_served_from_the_cache(
    client: Client, played: Match, replay: dict[str, Any], django_assert_max_num_queries: Any
) -> None:
    url = f"/matches/{played.pk}/view.json"
    zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert zipped.status_code == 200
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    view = json.loads(gzip.decompress(zipped.content))
    assert view["format"] == VIEW_FORMAT
    assert len(view["decisions"]) == len(replay["decisions"])
    assert ReplayView.objects.filter(match=played, game=0, version=VIEW_VERSION).count() == 1
    with django_assert_max_num_queries(1):  # the cached bytes, nothing else
        plain = client.get(url)
    assert not plain.has_header("Content-Encoding")
    assert json.loads(plain.content) == view


def test_an_old_format_is_rebuilt(client: Client, played: Match) -> None:
    client.get(f"/matches/{played.pk}/view.json")
    ReplayView.objects.update(version=VIEW_VERSION - 1, data=gzip.compress(b'{"stale": true}'))
    view = client.get(f"/matches/{played.pk}/view.json").json()
    assert view["format"] == VIEW_FORMAT
    assert ReplayView.objects.get().version == VIEW_VERSION


def test_missing_games_and_unfinished_matches_are_404(client: Client, played: Match, match: Match) -> None:
    assert client.get(f"/matches/{played.pk}/view.json?game=1").status_code == 404
    assert client.get(f"/matches/{played.pk}/view.json?game=x").status_code == 404
    response = client.get(f"/matches/{match.pk}/view.json")
    assert response.status_code == 404
    assert "not finished" in response.json()["error"]


def test_a_replay_that_no_longer_resimulates_is_explained(client: Client, played: Match) -> None:
    replay = Replay.objects.get(match=played)
    data = json.loads(replay.json_bytes())
    data["decisions"][3][1] = "W4:R!"
    replay.data, replay.size = Replay.pack(data)
    replay.save()
    response = client.get(f"/matches/{played.pk}/view.json")
    assert response.status_code == 409
    assert "cannot be re-simulated" in response.json()["error"]
    assert not ReplayView.objects.exists()


def test_duplicate_matches_have_a_view_per_game(
    client: Client, classic: RuleSet, bot: Bot, rival: Bot, replay: dict[str, Any]
) -> None:
    other = case_replay("stacking-mixed")
    container = {"format": "uno-arena-duplicate", "version": 1, "seed": 1, "games": [replay, other]}
    match = finished_match(classic, [bot, rival, bot, rival], replay)
    Match.objects.filter(pk=match.pk).update(duplicate=True)
    stored = Replay.objects.get(match=match)
    stored.data, stored.size = Replay.pack(container)
    stored.save()
    first = client.get(f"/matches/{match.pk}/view.json?game=0").json()
    second = client.get(f"/matches/{match.pk}/view.json?game=1").json()
    assert first["players"] == 4
    assert second["players"] == other["players"]
    assert client.get(f"/matches/{match.pk}/view.json?game=2").status_code == 404


def test_decision_stderr_goes_to_the_owner_only(
    clients: dict[str, Client], played: Match, staff: Any, replay: dict[str, Any]
) -> None:
    assert DecisionLog.objects.filter(participant__match=played).count() == 3
    url = f"/matches/{played.pk}/stderr.json?game=0"
    mine = clients["owner"].get(url)
    assert mine["Cache-Control"] == "private, no-store"
    seats = mine.json()["seats"]
    assert set(seats) == {"0", "2"}  # the owner's bot sits at 0 and 2; seat 1's lines are the rival's
    first = next(iter(seats["0"]))
    assert seats["0"][first].startswith(f"thinking about decision {first}")
    assert replay["decisions"][int(first)][0] == 0
    assert set(clients["other"].get(url).json()["seats"]) == {"1"}
    assert clients["anon"].get(url).json()["seats"] == {}
    clients["anon"].force_login(staff)
    assert set(clients["anon"].get(url).json()["seats"]) == {"0", "1", "2"}
    assert clients["owner"].get(f"/matches/{played.pk}/stderr.json?game=1").json()["seats"] == {}


def test_the_match_page_embeds_the_viewer(clients: dict[str, Client], played: Match, match: Match) -> None:
    page = clients["owner"].get(f"/matches/{played.pk}/").content.decode()
    assert 'class="uno-viewer"' in page
    assert f'data-view-url="/matches/{played.pk}/view.json?v={VIEW_VERSION}"' in page
    assert f'data-stderr-url="/matches/{played.pk}/stderr.json"' in page
    assert "viewer/viewer.js" in page
    assert "Keyboard shortcuts" in page
    assert f"--seed {played.seed}" in page
    assert "data-stderr-url" not in clients["anon"].get(f"/matches/{played.pk}/").content.decode()
    queued = clients["anon"].get(f"/matches/{match.pk}/").content.decode()
    assert "uno-viewer" not in queued
    assert "when the match has finished" in queued


def test_reproduce_command(played: Match, owner: Any) -> None:
    from tests.platform.factories import make_bot

    seats = list(played.participants.select_related("bot__owner", "bot_version", "match__ruleset"))
    command = reproduce_command(played, seats)
    assert command.startswith("uno-arena match ownbot-v1/bot.py rivalbot-v1/bot.py ownbot-v1/bot.py ")
    assert command.endswith(
        f"--rules classic --seed {played.seed} --games 1 --replays replays/match-{played.pk}"
    )
    from django.conf import settings
    from django.contrib.auth import get_user_model

    examples = get_user_model().objects.create_user(settings.UNO_ARENA_SYSTEM_USER)
    example = make_bot(examples, "random-bot")
    seats[1].bot = example
    seats[1].bot_version = example.active_version
    assert " random " in reproduce_command(played, seats)  # an example bot by its short name


def test_store_decision_logs_caps_each_bot(played: Match) -> None:
    from viewer.services import MAX_LOG_BYTES, store_decision_logs

    class Result:
        def __init__(self) -> None:
            self.decision_stderr = [[[0, 0, i, "x" * 1000] for i in range(MAX_LOG_BYTES // 1000 + 50)]]

    DecisionLog.objects.all().delete()
    seat = played.participants.get(seat=0)
    store_decision_logs([seat], Result())
    log = DecisionLog.objects.get(participant=seat)
    assert log.entries == MAX_LOG_BYTES // 1000
    store_decision_logs([seat], object())  # a result without the field stores nothing, raises nothing


def test_the_viewer_tag_embeds_anywhere(
    played: Match, owner: Any, rf: Any, django_assert_num_queries: Any
) -> None:
    from django.template import Context, Template

    request = rf.get("/leagues/x/")
    request.user = owner
    template = Template(
        "{% load replay_viewer %}<section>{% replay_viewer match url_state=False %}</section>"
    )
    match = Match.objects.select_related("ruleset").get(pk=played.pk)  # as the pages load it
    with django_assert_num_queries(1):  # the seats, with their bots, versions and owners
        html = template.render(Context({"match": match, "request": request}))
    assert 'data-url-state="0"' in html
    assert f'data-stderr-url="/matches/{played.pk}/stderr.json"' in html
    seats = json.loads(html.split('<script type="application/json">')[1].split("</script>")[0])
    assert [s["name"] for s in seats] == ["ownbot", "rivalbot", "ownbot", "rivalbot"]
