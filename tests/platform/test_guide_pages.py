"""The guide and the pages a newcomer stumbled on (issue 12): docs rendered from docs/ with working links,
a page per rule set made from the engine and docs/rules.md, limits and faults, downloads, JavaScript bots,
the live smoke-test status, the source download, match filters, name suggestions, explanations."""

from __future__ import annotations

import io
import re
import zipfile
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.engine.cards import CARDS, DECKS, RANK_NAMES, parse_card
from arena.engine.rules import PRESETS
from bots.models import Bot, BotVersion, Language, SmokeStatus
from guide import docs, rulebook
from matches.models import Match, Origin
from matches.services import create_match
from rulesets.models import RuleSet
from tests.platform.factories import make_bot

HREF = re.compile(r'href="([^"]+)"')


def _links(html: str) -> set[str]:
    return {h.replace("&amp;", "&") for h in HREF.findall(html)}


# --- the guide and the docs ---------------------------------------------------------------------------


def test_the_guide_is_linked_from_the_home_page_the_navigation_and_the_bot_pages(
    clients: dict[str, Client], bot: Bot, rulesets: None
) -> None:
    home = clients["anon"].get("/").content.decode()
    assert 'href="/guide/"' in home
    assert "Write a bot" in home
    for url in ("/bots/new/", f"/bots/{bot.pk}/upload/", "/accounts/"):
        page = clients["owner"].get(url).content.decode()
        assert 'href="/guide/"' in page, url
        assert "scripts/upload_bot.py" not in page, url
        assert "bots_examples/" not in page, url
    upload = clients["owner"].get(f"/bots/{bot.pk}/upload/").content.decode()
    assert "/guide/download/uno-arena-python-kit.zip" in upload
    account = clients["owner"].get("/accounts/").content.decode()
    assert "python upload_bot.py --url http://testserver" in account


def test_the_guide_lists_the_house_bots_with_their_ratings_on_the_official_rules(
    client: Client, classic: RuleSet, owner: Any, django_user_model: Any, settings: Any
) -> None:
    from ratings.models import Rating

    house = django_user_model.objects.create_user(settings.UNO_ARENA_SYSTEM_USER)
    strong, weak, new = (make_bot(house, n) for n in ("search-1s", "greedy-bot", "search-10ms"))
    Bot.objects.filter(pk=strong.pk).update(description="search-1s: the search bot with 1s per decision.")
    make_bot(owner, "someone-elses")  # not a house bot
    Rating.objects.create(bot=strong, ruleset=classic, elo=1712.4, games=40)
    Rating.objects.create(bot=weak, ruleset=classic, elo=1301.0, games=12)
    other_rules = RuleSet.objects.exclude(pk=classic.pk).first()
    assert other_rules is not None
    Rating.objects.create(bot=new, ruleset=other_rules, elo=1900.0, games=5)  # not on the official rules

    page = client.get("/guide/").content.decode()
    section = page[page.index('id="house-bots"') :]
    section = section[: section.index("</section>")]
    rows = re.findall(
        r"<tr><td><a href=\"/bots/(\d+)/\">([\w-]+)</a></td><td>(.*?)</td><td>(.*?)</td>", section
    )
    assert [(int(pk), name) for pk, name, _, _ in rows] == [
        (strong.pk, "search-1s"),
        (weak.pk, "greedy-bot"),
        (new.pk, "search-10ms"),
    ]
    assert rows[0][2] == "search-1s: the search bot with 1s per decision."
    assert [r[3] for r in rows[:2]] == ["1712", "1301"]
    assert "not rated yet" in rows[2][3]
    assert "someone-elses" not in section
    assert f'href="/rules/{classic.slug}/"' in section
    assert "uno-arena match mybot.py search-10ms strategist --rules classic" in section
    for anchor in ("#the-search-bot", "#strength"):
        assert f'href="/guide/docs/bots/{anchor}"' in section
        assert f'id="{anchor[1:]}"' in client.get("/guide/docs/bots/").content.decode()


def test_the_guide_gives_the_commands_with_this_sites_addresses(client: Client, rulesets: None) -> None:
    page = client.get("/guide/").content.decode()
    assert "pip install http://testserver/guide/download/uno_arena-0.1.0-py3-none-any.whl" in page
    assert "uno-arena match mybot.py random greedy --rules classic --games 100" in page
    assert "not a sandbox" in page
    for url in ("/guide/download/uno-arena-python-kit.zip", "/guide/download/uno-arena-javascript-kit.zip"):
        assert url in page
    assert "/guide/protocol.schema.json" in page


@pytest.mark.parametrize("name", docs.doc_names())
def test_every_doc_renders_and_every_link_in_it_works(client: Client, rulesets: None, name: str) -> None:
    response = client.get(f"/guide/docs/{name}/")
    assert response.status_code == 200
    html = response.content.decode()
    body = html[html.index('<article class="doc">') :]
    ids = set(re.findall(r'id="([^"]+)"', html))
    for href in _links(body):
        parts = urlsplit(href)
        if parts.scheme in ("http", "https", "mailto"):
            continue
        assert not href.endswith(".md"), f"{name}: unrewritten link {href}"
        assert ".md#" not in href, f"{name}: unrewritten link {href}"
        if not parts.path:
            assert parts.fragment in ids, f"{name}: no anchor #{parts.fragment}"
            continue
        target = client.get(parts.path)
        assert target.status_code == 200, f"{name}: {href} answers {target.status_code}"
        if parts.fragment and parts.path.startswith("/guide/docs/"):
            assert f'id="{parts.fragment}"' in target.content.decode(), f"{name}: {href} has no such anchor"


def test_the_protocol_page_is_docs_protocol_md(client: Client) -> None:
    """One source: the page says what the file says, so they cannot drift apart."""
    source = (docs.docs_dir() / "protocol.md").read_text()
    page = client.get("/guide/docs/protocol/").content.decode()
    for heading in re.findall(r"^## (.+)$", source, re.M):
        assert f'id="{docs.slugify(heading)}"' in page, heading
    assert 'href="/guide/protocol.schema.json"' in page


def test_a_doc_cannot_inject_markup(tmp_path: Any, settings: Any) -> None:
    (tmp_path / "evil.md").write_text(
        '# Evil\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror="alert(1)">\n'
    )
    settings.UNO_ARENA_DOCS_DIR = tmp_path
    html = str(docs.load("evil").html)
    assert "<script>" not in html
    assert "<img" not in html
    assert 'href="javascript:' not in html
    assert "&lt;script&gt;" in html


def test_docs_are_served_by_name_only(client: Client) -> None:
    assert client.get("/guide/docs/no-such-doc/").status_code == 404
    assert client.get("/guide/docs/..%2Fsettings/").status_code == 404
    assert client.get("/guide/examples/..%2Fmanage.py").status_code == 404
    assert client.get("/guide/examples/strategist.py").status_code == 200


def test_the_schema_downloads(client: Client) -> None:
    response = client.get("/guide/protocol.schema.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    import json

    schema = json.loads(b"".join(response.streaming_content))
    assert schema == json.loads((docs.docs_dir() / "protocol.schema.json").read_text())


def test_limits_and_faults_show_the_values_in_force(client: Client) -> None:
    from arena.play.referee import FAULT_KINDS, MatchSettings
    from sandbox import Limits

    page = client.get("/guide/limits/").content.decode()
    assert f'<td class="num">{MatchSettings().decision_timeout}</td>' in page
    assert "270 s at 2 players, 135 s at 4 players, 54 s at 10 players" in page  # (600 s - 60 s) / players
    assert "a duplicate match&#x27;s games share one match&#x27;s time: 135 s heads-up" in page
    assert f'<td class="num">{Limits().memory_mb}</td>' in page
    assert 'id="faults"' in page
    for kind in FAULT_KINDS:
        assert f"<code>{kind}</code>" in page, kind


# --- rule sets in words --------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", list(PRESETS))
def test_every_rule_set_has_a_page_in_words(client: Client, rulesets: None, slug: str) -> None:
    response = client.get(f"/guide/rules/{slug}/")
    assert response.status_code == 200
    page = response.content.decode()
    rules = PRESETS[slug]
    book = rulebook.explain(rules)
    assert "sources:" not in page
    assert RuleSet.objects.get(slug=slug).name in page
    assert f"--rules {slug}" in page
    # every kind of card of its deck, with its count, and no card of another deck
    ranks = {CARDS[parse_card(code)].rank for code, _ in DECKS[rules.deck]}
    shown = {row.label for row in book.cards}
    for rank in ranks - set("0123456789"):
        assert rank in shown, rank
        assert RANK_NAMES[rank] in page
    assert sum(row.count for row in book.cards) == book.deck_size == sum(n for _, n in DECKS[rules.deck])
    assert all(str(row.effect).strip() for row in book.cards)
    # the differences are exactly the options that differ from classic
    classic = PRESETS["classic"]
    assert {o.name for o in book.changed} == {
        k for k in rules.options() if rules.options()[k] != classic.options()[k]
    }
    # the reference-only parts of docs/rules.md are left out
    assert "## Presets" not in str(book.text)
    assert "Presets (" not in str(book.text)


def test_rule_set_pages_keep_only_what_applies(client: Client, rulesets: None) -> None:
    classic = client.get("/guide/rules/classic/").content.decode()
    seven = client.get("/guide/rules/seven-o/").content.decode()
    stacking = client.get("/guide/rules/stacking/").content.decode()
    family = client.get("/guide/rules/family/").content.decode()
    assert "It does not: these are the official rules." in classic
    assert "Seven-O: after playing a 7" in seven
    assert "Seven-O: after playing a 7" not in classic
    assert "swaps hands with another player" in seven  # the 7's row in the cards table
    assert 'id="stacking-stacking"' in stacking
    assert 'id="stacking-stacking"' not in classic
    assert "(001&#x27;s house rule): the same symbol only" in stacking or "the same symbol only" in stacking
    assert "<code>winner-takes</code> (000, 001, 003)" in classic
    assert "<code>lowest-wins</code> (002, 004)" in family
    assert "<code>winner-takes</code> (000" not in family
    assert "<code>uno_penalty</code> is <code>4</code> (officially <code>2</code>)" in family


def test_a_rule_condition_with_a_typo_fails_loudly() -> None:
    with pytest.raises(ValueError, match="bad rule condition"):
        rulebook.holds(PRESETS["classic"], "seven0=true")
    assert rulebook.holds(PRESETS["seven-o"], "seven_o=true")
    assert not rulebook.holds(PRESETS["classic"], "seven_o=true")
    assert rulebook.holds(PRESETS["stacking"], "stacking!=none,deck=classic")
    assert not rulebook.holds(PRESETS["classic"], "reference")


def test_every_marker_in_rules_md_is_a_valid_condition() -> None:
    text = (docs.docs_dir() / "rules.md").read_text()
    conditions = re.findall(r"<!--\s*when:\s*(.*?)\s*-->", text)
    assert len(conditions) > 10
    for condition in conditions:
        rulebook.holds(PRESETS["classic"], condition)  # raises on a typo


def test_rule_sets_show_display_names(client: Client, bot: Bot, rival: Bot, classic: RuleSet) -> None:
    assert RuleSet.objects.get(slug="seven-o").name == "Seven-O"
    assert RuleSet.objects.get(slug="smackdown-6").name == "6 Smackdown"
    create_match(RuleSet.objects.get(slug="seven-o"), [bot, rival], rated=False)
    listing = client.get("/matches/").content.decode()
    assert "<td>Seven-O</td>" in listing
    board = client.get("/rules/seven-o/").content.decode()
    assert 'href="/guide/rules/seven-o/"' in board
    assert "sources:" not in board
    assert "Ladder Elo" in board
    assert "Fitted rating" in board
    assert "Why they differ" in board


def test_the_spec_of_a_custom_rule_set_is_its_closest_preset_plus_overrides() -> None:
    custom = PRESETS["seven-o"].replace(jump_in=True, name="party")
    assert rulebook.spec(custom) == "seven-o,jump_in=true"
    assert rulebook.spec(PRESETS["no-mercy"]) == "no-mercy"


# --- JavaScript bots -------------------------------------------------------------------------------------


def test_a_javascript_bot_is_created_and_uploaded_through_the_forms(clients: dict[str, Client]) -> None:
    owner = clients["owner"]
    response = owner.post(
        "/bots/new/", {"name": "jsbot", "description": "", "language": "node", "is_active": "on"}
    )
    assert response.status_code == 302
    bot = Bot.objects.get(name="jsbot")
    assert bot.language == Language.NODE
    source = io.BytesIO(b'process.stdin.on("data", () => {});\n')
    source.name = "mybot.js"
    response = owner.post(f"/bots/{bot.pk}/upload/", {"file": source, "activate": "on"})
    assert response.status_code == 302, response.content.decode()[:2000]
    version = BotVersion.objects.get(bot=bot)
    assert version.command == ("node", "mybot.js")
    wrong = io.BytesIO(b"print(1)\n")
    wrong.name = "mybot.py"
    response = owner.post(f"/bots/{bot.pk}/upload/", {"file": wrong, "activate": "on"})
    assert "must be a .js file" in response.content.decode()


# --- the version page ------------------------------------------------------------------------------------


def test_the_version_page_polls_its_status_and_only_the_owner_gets_the_log(
    clients: dict[str, Client], bot: Bot
) -> None:
    version = bot.active_version
    assert version is not None
    page = clients["owner"].get(f"/bots/{bot.pk}/v/1/").content.decode()
    assert f'data-status-url="/bots/{bot.pk}/v/1/status.json"' in page
    assert "web/version_status.js" in page
    assert "<script>" not in page
    BotVersion.objects.filter(pk=version.pk).update(smoke_status=SmokeStatus.RUNNING)
    running = clients["owner"].get(f"/bots/{bot.pk}/v/1/status.json").json()
    assert running["status"] == "running"
    assert running["done"] is False
    BotVersion.objects.filter(pk=version.pk).update(smoke_status=SmokeStatus.PASSED, smoke_log="PASSED here")
    owner = clients["owner"].get(f"/bots/{bot.pk}/v/1/status.json")
    assert owner.json() == {
        **owner.json(),
        "status": "passed",
        "label": "Passed",
        "done": True,
        "log": "PASSED here",
    }
    assert "no-cache" in owner["Cache-Control"] or "max-age=0" in owner["Cache-Control"]
    for who in ("other", "anon"):
        assert "log" not in clients[who].get(f"/bots/{bot.pk}/v/1/status.json").json()
    assert clients["anon"].get(f"/bots/{bot.pk}/v/9/status.json").status_code == 404


def test_owners_download_their_versions_source(clients: dict[str, Client], bot: Bot) -> None:
    page = clients["owner"].get(f"/bots/{bot.pk}/v/1/").content.decode()
    assert f'href="/bots/{bot.pk}/v/1/source.zip"' in page
    response = clients["owner"].get(f"/bots/{bot.pk}/v/1/source.zip")
    assert response.status_code == 200
    assert 'filename="ownbot-v1.zip"' in response["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        assert archive.namelist() == ["ownbot-v1/bot.py"]
    assert clients["other"].get(f"/bots/{bot.pk}/v/1/source.zip").status_code == 403
    assert clients["anon"].get(f"/bots/{bot.pk}/v/1/source.zip").status_code == 403
    other_page = clients["other"].get(f"/bots/{bot.pk}/v/1/").content.decode()
    assert "source.zip" not in other_page


# --- matches: filters, origins, the home page --------------------------------------------------------------


@pytest.fixture
def mixed(classic: RuleSet, bot: Bot, rival: Bot, owner: Any) -> dict[str, Match]:
    """One match of each origin."""
    from ladder.models import LadderMatch
    from leagues.models import League, LeagueMatch, LeagueRound
    from versiontests.models import TestMatch, VersionTest

    seven = RuleSet.objects.get(slug="seven-o")
    ladder = create_match(classic, [bot, rival], rated=True, origin=Origin.LADDER)
    LadderMatch.objects.create(match=ladder)
    challenge = create_match(seven, [bot, rival], rated=False, created_by=owner)
    league_match = create_match(classic, [bot, rival], rated=True, origin=Origin.LEAGUE)
    league = League.objects.create(name="Spring cup", slug="spring", ruleset=classic)
    round_ = LeagueRound.objects.create(league=league, number=1)
    LeagueMatch.objects.create(round=round_, table=0, match=league_match)
    version = bot.active_version
    assert version is not None
    test = VersionTest.objects.create(
        bot=bot, new_version=version, baseline_version=rival.active_version, ruleset=classic, created_by=owner
    )
    vt = create_match(classic, [bot, rival], rated=False, origin=Origin.VERSIONTEST)
    TestMatch.objects.create(test=test, batch=0, index=0, match=vt)
    return {"ladder": ladder, "challenge": challenge, "league": league_match, "versiontest": vt}


def _listed(client: Client, query: str) -> set[int]:
    response = client.get(f"/matches/?{query}")
    assert response.status_code == 200
    return {int(pk) for pk in re.findall(r'href="/matches/(\d+)/"', response.content.decode())}


def test_the_match_list_filters(client: Client, mixed: dict[str, Match], make_other_bot: Bot) -> None:
    every = {m.pk for m in mixed.values()}
    assert _listed(client, "") == every
    for origin, match in mixed.items():
        assert _listed(client, f"origin={origin}") == {match.pk}, origin
    assert _listed(client, "rules=seven-o") == {mixed["challenge"].pk}
    assert _listed(client, "rated=yes") == {mixed["ladder"].pk, mixed["league"].pk}
    assert _listed(client, "rated=no") == {mixed["challenge"].pk, mixed["versiontest"].pk}
    assert _listed(client, "league=spring") == {mixed["league"].pk}
    assert _listed(client, "bot=ownbot") == every
    assert _listed(client, f"bot={make_other_bot.name}") == set()
    page = client.get("/matches/?origin=league").content.decode()
    assert 'class="tag origin league" href="/leagues/spring/">Spring cup</a>' in page


@pytest.fixture
def make_other_bot(other: Any) -> Bot:
    return make_bot(other, "lonely")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    params=st.dictionaries(
        st.sampled_from(["bot", "rules", "rated", "origin", "league", "page", "x"]),
        st.text(st.characters(blacklist_categories=["Cs"]), max_size=30),
        max_size=5,
    )
)
def test_any_filter_query_is_answered(client: Client, rulesets: None, params: dict[str, str]) -> None:
    response = client.get("/matches/", params)
    assert response.status_code == 200


def test_the_home_page_shows_ladder_and_league_games_not_version_tests(
    client: Client, mixed: dict[str, Match]
) -> None:
    page = client.get("/").content.decode()
    shown = {int(pk) for pk in re.findall(r'href="/matches/(\d+)/"', page)}
    assert mixed["versiontest"].pk not in shown
    assert {mixed["ladder"].pk, mixed["league"].pk, mixed["challenge"].pk} <= shown
    assert 'href="/matches/?origin=ladder"' in page


def test_bot_names_are_suggested(client: Client, bot: Bot, rival: Bot) -> None:
    assert client.get("/bots/names.json?q=own").json() == {"names": ["ownbot"]}
    assert client.get("/bots/names.json?q=").json()["names"] == sorted(
        Bot.objects.values_list("name", flat=True)
    )
    h2h = client.get("/ladder/h2h/").content.decode()
    assert 'list="bot-names"' in h2h
    assert 'data-url="/bots/names.json"' in h2h
    assert "web/suggest.js" in h2h


# --- explanations ------------------------------------------------------------------------------------------


def test_the_challenge_form_offers_no_own_bot(
    clients: dict[str, Client], bot: Bot, rival: Bot, owner: Any
) -> None:
    second = make_bot(owner, "ownbot-two")
    form = clients["owner"].get("/challenge/").context["form"]
    opponents = set(form.fields["opponents"].queryset)
    assert rival in opponents
    assert bot not in opponents
    assert second not in opponents
    assert set(form.fields["bot"].queryset) == {bot, second}


def test_a_fault_before_the_first_decision_is_said_in_words(
    clients: dict[str, Client], classic: RuleSet, bot: Bot, rival: Bot
) -> None:
    match = create_match(classic, [bot, rival], rated=False)
    match.participants.filter(bot=bot).update(fault_kind="handshake", fault_decision=-1)
    page = clients["anon"].get(f"/matches/{match.pk}/").content.decode()
    assert "before its first decision" in page
    assert "decision -1" not in page
    assert 'href="/guide/limits/#faults"' in page


def test_a_version_test_without_a_verdict_says_what_its_interval_means() -> None:
    from versiontests.meaning import meaning

    base = {"elo0": 0.0, "elo1": 5.0, "pairs": 400, "upper": 2.94, "lower": -2.94}
    text = meaning({**base, "status": "limit", "elo": 3.1, "elo_low": 0.4, "elo_high": 5.8})
    assert "No verdict" in text
    assert "excludes 0" in text
    assert "very probably better" in text
    text = meaning({**base, "status": "limit", "elo": 1.0, "elo_low": -2.0, "elo_high": 4.0})
    assert "No verdict" in text
    assert "excludes 0" not in text
    assert "LLR" in meaning({**base, "status": "running", "elo": 1.0, "elo_low": -9.0, "elo_high": 11.0})
    assert meaning({**base, "pairs": 0, "status": "running", "elo": None, "elo_low": None, "elo_high": None})


def test_the_favicon(client: Client, db: None) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"].endswith("favicon.svg")
    assert 'rel="icon"' in client.get("/guide/").content.decode()


def test_the_wheel_downloads(client: Client, settings: Any, tmp_path: Any, rulesets: None) -> None:
    settings.UNO_ARENA_KITS_DIR = tmp_path
    from guide import kits

    response = client.get(f"/guide/download/{kits.wheel_name()}")
    assert response.status_code == 200
    data = b"".join(response.streaming_content)
    assert zipfile.ZipFile(io.BytesIO(data)).testzip() is None
    assert kits.wheel_path().read_bytes() == data  # built once, kept
    kit = client.get("/guide/download/uno-arena-python-kit.zip")
    assert kit.status_code == 200
    assert "attachment" in kit["Content-Disposition"]
    assert client.get("/guide/download/other.zip").status_code == 404
