"""Leaderboard and bot pages: content, pagination, query counts; replays; challenges; commands."""

from __future__ import annotations

import gzip
import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from bots.models import Bot
from matches.models import Match
from ratings.models import Rating
from rulesets.models import RuleSet
from tests.platform.factories import FakeResult, make_bot

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(classic: RuleSet, owner: Any) -> list[Bot]:
    """60 bots with ratings on classic (more than one page)."""
    bots = [Bot.objects.create(owner=owner, name=f"b{i:02d}") for i in range(60)]
    Rating.objects.bulk_create(
        Rating(bot=b, ruleset=classic, elo=1400 + i, games=i, wins=i // 2) for i, b in enumerate(bots)
    )
    return bots


def test_leaderboard_order_pages_and_queries(
    client: Any, ladder: list[Bot], django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(3):  # rule set, count, page (bots and owners joined)
        response = client.get("/rules/classic/")
    assert response.status_code == 200
    text = response.content.decode()
    assert text.index("b59") < text.index("b58")
    assert "Page 1 of 2" in text
    page2 = client.get("/rules/classic/?page=2").content.decode()
    assert "b00" in page2
    assert ">51<" in page2  # ranks continue on the next page


def test_leaderboard_api_ranks(client: Any, ladder: list[Bot], django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(3):
        data = client.get("/api/leaderboards/classic/?page=2").json()
    assert data["count"] == 60
    assert data["results"][0]["rank"] == 51
    assert data["results"][0]["provisional"] is True


def test_bot_page_queries_do_not_grow_with_matches(
    client: Any, classic: RuleSet, bot: Bot, rival: Bot, django_assert_num_queries: Any, settings: Any
) -> None:
    from matches.services import claim, create_match, record_result

    settings.UNO_ARENA_LEADERBOARD_CACHE = 0  # the rendered page's queries (test_speed.py: the cache)

    def play(n: int) -> None:
        for _ in range(n):
            m = create_match(classic, [bot, rival], rated=True)
            claimed = claim(m.pk)
            assert claimed is not None
            record_result(m.pk, claimed.attempts, FakeResult(places=[[0], [1]], scores=[10, 0]))

    play(2)
    with django_assert_num_queries(8) as few:  # see tests/platform/test_insight_pages.py
        assert client.get(f"/bots/{bot.pk}/").status_code == 200
    play(10)
    with django_assert_num_queries(len(few.captured_queries)):
        response = client.get(f"/bots/{bot.pk}/")
    text = response.content.decode()
    assert "classic" in text
    assert "prov." in text


def test_replay_is_gzip_when_accepted(client: Any, match: Match) -> None:
    from matches.services import claim, record_result

    claimed = claim(match.pk)
    assert claimed is not None
    record_result(match.pk, claimed.attempts, FakeResult(places=[[0], [1]], scores=[1, 0]))
    zipped = client.get(f"/matches/{match.pk}/replay.json", HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert zipped["Content-Encoding"] == "gzip"
    assert zipped["Content-Type"] == "application/json"
    assert "Accept-Encoding" in zipped["Vary"]
    assert json.loads(gzip.decompress(zipped.content))["format"] == 1
    plain = client.get(f"/matches/{match.pk}/replay.json")
    assert not plain.has_header("Content-Encoding")
    assert json.loads(plain.content)["format"] == 1
    assert client.get(f"/matches/{match.pk + 1000}/replay.json").status_code == 404


def test_web_challenge_and_rate_limit(
    clients: dict[str, Any], bot: Bot, rival: Bot, classic: RuleSet, settings: Any
) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"challenge": "2/hour"}}
    from scheduling.throttles import ChallengeThrottle

    saved = ChallengeThrottle.THROTTLE_RATES
    ChallengeThrottle.THROTTLE_RATES = {"challenge": "2/hour"}
    try:
        form = {"bot": bot.pk, "ruleset": "classic", "opponents": [rival.pk], "rated": "on"}
        for _ in range(2):
            response = clients["owner"].post("/challenge/", form)
            assert response.status_code == 302
        response = clients["owner"].post("/challenge/", form)
        assert response.status_code == 429
        assert b"Too many requests" in response.content
        assert Match.objects.count() == 2
        api_response = clients["owner"].post(
            "/api/challenges/",
            {"ruleset": "classic", "bot": bot.name, "opponents": [rival.name]},
            content_type="application/json",
        )
        assert api_response.status_code == 429
    finally:  # the rates as they were (api_settings still holds the overridden ones here)
        ChallengeThrottle.THROTTLE_RATES = saved


def test_challenge_form_rejects_bad_tables(
    clients: dict[str, Any], bot: Bot, classic: RuleSet, other: Any
) -> None:
    pending = make_bot(other, "pending", passed=False)
    Bot.objects.filter(pk=pending.pk).update(
        active_version=pending.pending_version
    )  # active, being re-tested
    form = {"bot": bot.pk, "ruleset": "classic", "opponents": [pending.pk], "rated": "on"}
    response = clients["owner"].post("/challenge/", form)
    assert response.status_code == 200
    assert b"has not passed its smoke test" in response.content
    assert not Match.objects.exists()


def test_sync_rulesets_is_idempotent(db: Any) -> None:
    out = StringIO()
    call_command("sync_rulesets", stdout=out)
    call_command("sync_rulesets", stdout=out)
    assert "0 created, 0 updated" in out.getvalue().splitlines()[-1]
    from arena.engine.rules import PRESETS

    assert RuleSet.objects.filter(is_preset=True).count() == len(PRESETS)
    classic = RuleSet.objects.get(slug="classic")
    assert classic.to_engine() == PRESETS["classic"]
    for slug, engine in PRESETS.items():  # every option of every preset, the newest readings included
        assert RuleSet.objects.get(slug=slug).to_engine() == engine
    assert RuleSet.objects.get(slug="no-mercy").options["mercy"] == 25


def test_a_row_synced_before_an_option_existed_is_brought_up_to_date(db: Any) -> None:
    from arena.engine.rules import OPTIONS, PRESETS

    call_command("sync_rulesets", stdout=StringIO())
    row = RuleSet.objects.get(slug="no-mercy")
    row.options = {k: v for k, v in row.options.items() if k not in ("mercy", "uno_call")}
    row.save()
    assert row.to_engine().mercy == 0  # an old row reads with the engine's defaults
    out = StringIO()
    call_command("sync_rulesets", stdout=out)
    assert "0 created, 1 updated" in out.getvalue()
    row.refresh_from_db()
    assert set(row.options) == set(OPTIONS)
    assert row.to_engine() == PRESETS["no-mercy"]


def test_custom_rule_sets_take_the_new_options_and_name_a_bad_one(db: Any) -> None:
    from django.core.exceptions import ValidationError

    from rulesets.engine import validate_options

    options = validate_options({"uno_call": "window", "false_uno": 2, "mercy": 30, "challenge_last": True})
    assert (options["uno_call"], options["false_uno"], options["mercy"]) == ("window", 2, 30)
    with pytest.raises(ValidationError, match="stack_colour"):
        validate_options({"stack_colour": "any"})  # needs mixed stacking


def test_load_example_bots_is_idempotent(db: Any, tmp_path: Any) -> None:
    (tmp_path / "random_bot.py").write_text("print('hi')\n")
    (tmp_path / "greedy_bot.py").write_text("print('hi')\n")
    out = StringIO()
    call_command("load_example_bots", dir=str(tmp_path), stdout=out)
    call_command("load_example_bots", dir=str(tmp_path), stdout=out)
    assert Bot.objects.filter(owner__username="examples").count() == 2
    assert all(b.versions.count() == 1 for b in Bot.objects.all())
    (tmp_path / "greedy_bot.py").write_text("print('better')\n")
    call_command("load_example_bots", dir=str(tmp_path), stdout=out)
    assert Bot.objects.get(name="greedy-bot").versions.count() == 2
    # What a bot is comes from the first paragraph of its docstring, and follows the file.
    assert Bot.objects.get(name="random-bot").description == "Example bot from bots_examples/random_bot.py."
    (tmp_path / "random_bot.py").write_text('"""Random bot: plays any\nlegal action.\n\nMore."""\nprint(1)\n')
    call_command("load_example_bots", dir=str(tmp_path), stdout=out)
    assert Bot.objects.get(name="random-bot").description == "Random bot: plays any legal action."


def test_ensure_admin_prints_password_once(db: Any) -> None:
    first, second = StringIO(), StringIO()
    call_command("ensure_admin", stdout=first)
    call_command("ensure_admin", stdout=second)
    assert "password" in first.getvalue()
    assert "created" in first.getvalue()
    assert "already exists" in second.getvalue()
