"""What the benchmark (bench/web.py) relies on: a trivial baseline view, leaderboard pages served
from the cache yet always current, and query counts that do not grow with the data (no N+1)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from bots.models import Bot
from matches.models import Match
from matches.services import claim, create_match, record_result
from ratings.models import Rating
from rulesets.models import RuleSet
from tests.platform.factories import FakeResult, make_bot

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit hooks (cache generations) run


def _finish(match: Match, places: list[list[int]]) -> None:
    claimed = claim(match.pk)
    assert claimed is not None
    assert record_result(match.pk, claimed.attempts, FakeResult(places=places, scores=[0] * 4))


def test_healthz_is_trivial(client: Any, django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert "no-cache" in response["Cache-Control"]


def test_leaderboard_is_cached_and_current(
    client: Any, classic: RuleSet, owner: Any, other: Any, django_assert_num_queries: Any
) -> None:
    bots = [make_bot(owner, "alpha"), make_bot(other, "beta"), make_bot(other, "gamma")]
    _finish(create_match(classic, bots[:2], rated=True, seed=1), [[0], [1]])

    with django_assert_num_queries(3):  # rule set, count, page
        first = client.get("/rules/classic/").content.decode()
    with django_assert_num_queries(0):  # all from the cache
        again = client.get("/rules/classic/").content.decode()
    assert again == first
    assert first.index("alpha") < first.index("beta")
    assert "gamma" not in first

    # Logged-in visitors get the cached body in their own page (their session: two queries).
    logged_in = Client()
    logged_in.force_login(owner)
    with django_assert_num_queries(2):
        mine = logged_in.get("/rules/classic/").content.decode()
    assert "owner" in mine  # the account link in the menu
    assert mine.count("alpha") == first.count("alpha")
    assert "Cookie" in logged_in.get("/rules/classic/")["Vary"]

    # A new rated result on the rule set shows at once (a new generation, after the commit).
    _finish(create_match(classic, [bots[2], bots[0]], rated=True, seed=2), [[0], [1]])
    with django_assert_num_queries(3):
        fresh = client.get("/rules/classic/").content.decode()
    assert "gamma" in fresh
    assert Rating.objects.get(bot=bots[0], ruleset=classic).games == 2

    # So does a deactivated bot (it leaves the ladder).
    beta = Bot.objects.get(pk=bots[1].pk)
    beta.is_active = False
    beta.save(update_fields=["is_active"])
    assert "beta" not in client.get("/rules/classic/").content.decode()

    # And a renamed rule set; an unknown one is a 404, never cached.
    classic.name = "Classic UNO (renamed)"
    classic.save()
    assert "Classic UNO (renamed)" in client.get("/rules/classic/").content.decode()
    assert client.get("/rules/no-such-rules/").status_code == 404


def test_leaderboard_cache_is_per_page_and_ignores_junk(
    client: Any, classic: RuleSet, owner: Any, django_assert_num_queries: Any
) -> None:
    bots = [Bot.objects.create(owner=owner, name=f"b{i:02d}") for i in range(60)]
    Rating.objects.bulk_create(Rating(bot=b, ruleset=classic, elo=1400 + i) for i, b in enumerate(bots))
    page1 = client.get("/rules/classic/").content.decode()
    page2 = client.get("/rules/classic/?page=2").content.decode()
    assert "b59" in page1
    assert "b59" not in page2
    assert "b00" in page2
    with django_assert_num_queries(0):
        assert client.get("/rules/classic/?page=abc").content.decode() == page1
    with django_assert_num_queries(3):  # out of range: the last page, rendered for that number once
        assert "b00" in client.get("/rules/classic/?page=99").content.decode()


def test_api_leaderboard_is_cached_and_current(
    client: Any, classic: RuleSet, owner: Any, other: Any, django_assert_num_queries: Any
) -> None:
    bots = [make_bot(owner, "alpha"), make_bot(other, "beta"), make_bot(other, "gamma")]
    _finish(create_match(classic, bots[:2], rated=True, seed=1), [[0], [1]])
    first = client.get("/api/leaderboards/classic/").json()
    with django_assert_num_queries(0):  # all from the cache
        again = client.get("/api/leaderboards/classic/").json()
    assert again == first
    assert [row["bot"] for row in first["results"]][:2] == ["alpha", "beta"]

    # A new rated result shows at once; pages and bad pages keep their own answers, errors are not cached.
    _finish(create_match(classic, [bots[2], bots[0]], rated=True, seed=2), [[0], [1]])
    fresh = client.get("/api/leaderboards/classic/").json()
    assert "gamma" in {row["bot"] for row in fresh["results"]}
    assert client.get("/api/leaderboards/classic/?page=2").status_code == 404
    assert client.get("/api/leaderboards/classic/?page=x").status_code == 400
    assert client.get("/api/leaderboards/no-such-rules/").status_code == 404
    assert client.get("/api/leaderboards/classic/?page=1").json() == fresh


def test_bot_page_is_cached_for_visitors_and_always_current(
    client: Any, classic: RuleSet, owner: Any, other: Any, django_assert_num_queries: Any
) -> None:
    mine, theirs = make_bot(owner, "alpha"), make_bot(other, "beta")
    _finish(create_match(classic, [mine, theirs], rated=True, seed=1), [[0], [1]])
    first = client.get(f"/bots/{mine.pk}/")
    with django_assert_num_queries(0):  # a visitor's second look: from the cache
        again = client.get(f"/bots/{mine.pk}/")
    assert again.content == first.content
    assert "Cookie" in again["Vary"]

    # A new match of the bot shows at once, queued and then finished; so does an edit of the bot.
    queued = create_match(classic, [theirs, mine], rated=True, seed=2)
    assert f"/matches/{queued.pk}/" in client.get(f"/bots/{mine.pk}/").content.decode()
    _finish(queued, [[0], [1]])
    games = Rating.objects.get(bot=mine, ruleset=classic).games
    assert games == 2
    page = client.get(f"/bots/{mine.pk}/").content.decode()
    assert page != first.content.decode()
    bot = Bot.objects.get(pk=mine.pk)
    bot.description = "Plays its wild cards last."
    bot.save(update_fields=["description"])
    assert "Plays its wild cards last." in client.get(f"/bots/{mine.pk}/").content.decode()

    # The owner always gets a page of their own (their controls), never the visitors' copy.
    owned = Client()
    owned.force_login(owner)
    assert owned.get(f"/bots/{mine.pk}/").content != client.get(f"/bots/{mine.pk}/").content


def test_leaderboard_cache_can_be_turned_off(
    client: Any, classic: RuleSet, owner: Any, settings: Any, django_assert_num_queries: Any
) -> None:
    settings.UNO_ARENA_LEADERBOARD_CACHE = 0
    Rating.objects.create(bot=make_bot(owner, "solo"), ruleset=classic)
    client.get("/rules/classic/")
    with django_assert_num_queries(3):
        client.get("/rules/classic/")


def test_replay_json_takes_one_query_whatever_its_size(
    client: Any, classic: RuleSet, owner: Any, other: Any, django_assert_num_queries: Any
) -> None:
    bots = [make_bot(owner, f"r{i}") for i in range(4)]
    match = create_match(classic, bots, rated=True, seed=3)
    claimed = claim(match.pk)
    assert claimed is not None
    big = FakeResult(
        places=[[0], [1], [2], [3]],
        scores=[0, 1, 2, 3],
        replay={"format": 1, "decisions": [[i % 4, "draw", 1.0, None] for i in range(5000)]},
    )
    assert record_result(match.pk, claimed.attempts, big)
    for headers in ({"HTTP_ACCEPT_ENCODING": "gzip"}, {}):
        with django_assert_num_queries(1):
            response = client.get(f"/matches/{match.pk}/replay.json", **headers)
        assert response.status_code == 200
    with django_assert_num_queries(1):
        assert client.get(f"/api/matches/{match.pk}/replay/").status_code == 200
    assert client.get("/api/matches/x1/replay/").status_code == 404
    assert client.get(f"/api/matches/{match.pk + 99}/replay/").status_code == 404
