"""The home, bot and player pages: content, privacy of faults, and query counts that do not grow."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from bots.models import Bot
from matches.models import Match, Participant
from rulesets.models import RuleSet
from tests.platform.factories import make_bot
from tests.platform.viewer_support import finished_match
from tests.viewer.engine_games import play, replay_of
from web import insights

pytestmark = pytest.mark.django_db


def _rated(ruleset: RuleSet, bots: list[Bot], seed: int) -> Match:
    policies = tuple("greedy" if i == 0 else "random" for i in range(len(bots)))
    game = play("classic-single", len(bots), seed, policies)
    return finished_match(ruleset, bots, replay_of(game, policies), rated=True)


@pytest.fixture
def field(classic: RuleSet, owner: Any, other: Any, bot: Bot, rival: Bot) -> list[Bot]:
    """Four bots (two each) and some rated matches at 2, 3 and 4 seats on classic and classic-single."""
    third = make_bot(other, "thirdbot")
    fourth = make_bot(owner, "fourthbot")
    single = RuleSet.objects.get(slug="classic-single")
    for i in range(3):
        _rated(classic, [bot, rival], 10 + i)
        _rated(single, [rival, bot, third], 20 + i)
        _rated(single, [bot, third, rival, fourth], 30 + i)
    return [bot, rival, third, fourth]


def _chart(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="elo-data" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the page carries the chart data"
    return dict(json.loads(found.group(1)))


def test_bot_page_shows_ratings_chart_table_sizes_and_replays(client: Client, field: list[Bot]) -> None:
    bot = field[0]
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    chart = _chart(page)
    assert {s["slug"] for s in chart["series"]} == {"classic", "classic-single"}
    classic = next(s for s in chart["series"] if s["slug"] == "classic")
    assert [p[3] for p in classic["points"]] == [1, 2, 3]  # games after each rated match, oldest first
    assert all(p[2] for p in classic["points"])  # every point links to its match
    assert chart["marks"][0]["label"] == "v1"
    assert chart["start"] == 1500
    assert "charts/elo.js" in page
    rows = {row.players: row for row in insights.table_sizes(bot)}
    assert sorted(rows) == [2, 3, 4]
    assert all(row.games == 3 for row in rows.values())
    assert f"{rows[2].percent}% of 3 matches won" in page
    assert page.count("▶ Watch") == 9
    assert "#replay-viewer" in page
    assert "Faults" not in page  # owner only
    assert f'href="/players/{bot.owner.username}/"' in page


def test_faults_are_for_the_owner_with_a_link_to_the_moment(
    clients: dict[str, Client], field: list[Bot]
) -> None:
    bot = field[0]
    seat = Participant.objects.filter(bot=bot, match__participants__seat=3).first()
    assert seat is not None
    Participant.objects.filter(pk=seat.pk).update(
        fault_kind="timeout", fault_decision=7, fault_detail="secret traceback"
    )
    mine = clients["owner"].get(f"/bots/{bot.pk}/").content.decode()
    assert "secret traceback" in mine
    assert f"/matches/{seat.match_id}/#d=7&amp;pov={seat.seat}" in mine
    theirs = clients["other"].get(f"/bots/{bot.pk}/").content.decode()
    assert "secret traceback" not in theirs
    assert "timeout" in theirs  # the fault kind is public (docs/platform.md)


def test_bot_page_queries_do_not_grow(
    client: Client, classic: RuleSet, field: list[Bot], django_assert_num_queries: Any
) -> None:
    bot = field[0]
    # bot, ratings, rule sets, versions, Elo history, table sizes, recent seats + their matches' seats
    with django_assert_num_queries(8):
        client.get(f"/bots/{bot.pk}/")
    for i in range(5):
        _rated(classic, [field[1], bot, field[3]], 40 + i)
    newcomers = [make_bot(field[2].owner, f"newcomer{i}") for i in range(3)]
    _rated(classic, [bot, *newcomers], 50)  # opponents never seen before on the page
    with django_assert_num_queries(8):
        page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert all(f'href="/bots/{b.pk}/">{b.name}</a>' in page for b in newcomers)
    assert page.count("▶ Watch") == 15


def test_player_page(client: Client, field: list[Bot], owner: Any, django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(5):  # player, bots, their ratings, recent seats, their matches' seats
        page = client.get(f"/players/{owner.username}/").content.decode()
    assert "ownbot" in page
    assert "fourthbot" in page
    assert "rivalbot" in page  # as an opponent
    assert "best Elo" in page
    assert client.get("/players/nobody/").status_code == 404
    _rated(RuleSet.objects.get(slug="classic"), [field[0], field[1]], 99)
    with django_assert_num_queries(5):
        client.get(f"/players/{owner.username}/")


def test_home_page_shows_what_is_happening(
    client: Client,
    field: list[Bot],
    match: Match,
    django_assert_num_queries: Any,
    django_assert_max_num_queries: Any,
) -> None:
    # Counts, latest matches, their seats, rule sets, ladder tops; plus what the leagues app's
    # web/_running_leagues.html asks, when that app is installed.
    with django_assert_max_num_queries(7) as first:
        page = client.get("/").content.decode()
    _rated(RuleSet.objects.get(slug="classic-single"), [field[3], field[2]], 77)
    with django_assert_num_queries(len(first.captured_queries)):
        client.get("/")
    assert "1</b> queued" in page  # the fixture's queued match
    assert "finished in the last 24 hours" in page
    assert 'id="running-leagues"' in page
    tops = {ladder.ruleset.slug: ladder.top for ladder in insights.ladder_tops(3)}
    assert len(tops["classic-single"]) == 3
    assert [r.elo for r in tops["classic-single"]] == sorted(
        (r.elo for r in tops["classic-single"]), reverse=True
    )
    assert tops["classic"][0].bot.name in page
    assert "▶ Watch" in page


def test_include_if_exists(rf: Any) -> None:
    from django.template import Context, Template

    template = Template('{% load pages %}[{% include_if_exists "no/such/template.html" %}]')
    assert template.render(Context({})) == "[]"
    template = Template('{% load pages %}{% include_if_exists "pagination.html" as html %}{{ html|length }}')
    assert template.render(Context({})) != ""


#: The rows as the template loop wrote them before ``{% recent_rows %}`` (the same markup, on the fields of
#: ``insights.RecentSeat``): the Python rows must be the same bytes, escaping and number formats included.
_TEMPLATE_ROWS = (
    "{% load pages %}{% for p in recent %}\n  <tr>\n"
    '    <td class="cell-match"><a href="{% path \'match-detail\' p.match_id %}">#{{ p.match_id }}</a>'
    '{% if not p.rated %} <span class="tag">unrated</span>{% endif %}{% if p.duplicate %} <span class="tag" '
    'title="duplicate deals: every seat plays the same cards">dup</span>{% endif %}</td>\n'
    '    {% if show_bot %}<td class="cell-bot"><a href="{% path \'bot-detail\' p.bot_id %}">{{ p.bot_name }}</a>'
    ' <small class="muted">v{{ p.version_number }}</small></td>{% endif %}\n'
    '    <td class="cell-rules">{{ p.ruleset_name }}</td>\n'
    '    <td class="opponents" data-label="vs">{% for id, name, place in p.opponents %}<a href="{% path '
    '\'bot-detail\' id %}">{{ name }}</a>{% if place %} <small class="muted">({{ place }})</small>{% endif %}'
    "{% if not forloop.last %}, {% endif %}{% empty %}—{% endfor %}</td>\n"
    '    <td class="num" data-label="place">{% if p.place == 1 %}<span class="win" title="won">1 ★</span>'
    '{% else %}{{ p.place|default:"—" }}{% endif %}</td>\n'
    '    <td class="num" data-label="score">{{ p.score|default_if_none:"—" }}</td>\n'
    '    <td class="num" data-label="Elo">{% if p.rating_change is not None %}<span class="{% if '
    'p.rating_change >= 0 %}up{% else %}down{% endif %}">{{ p.rating_change|floatformat:"+1" }}</span>'
    "{% else %}—{% endif %}</td>\n"
    '    <td class="cell-watch">{% if p.status == "finished" %}<a class="watch" href="{% path \'match-detail\' '
    'p.match_id %}#replay-viewer">▶ Watch</a>{% if p.fault_kind %} <span class="tag fault">{{ p.fault_kind }}'
    '</span>{% endif %}{% else %}<span class="status {{ p.status }}">{{ p.status }}</span>{% endif %}</td>\n'
    '  </tr>\n  {% empty %}<tr><td colspan="{% if show_bot %}8{% else %}7{% endif %}">No matches yet.</td>'
    "</tr>{% endfor %}"
)


def test_recent_rows_are_what_the_template_wrote() -> None:
    from django.template import engines

    from web.templatetags.pages import recent_rows

    seat = insights.RecentSeat
    recent = [
        seat(
            12,
            True,
            False,
            "finished",
            "Classic",
            3,
            "a<b>&c",
            2,
            0,
            1,
            120,
            1500.0,
            1512.25,
            "",
            [(4, 'x"y', 2), (5, "zed", 3)],
        ),
        seat(
            11,
            False,
            True,
            "finished",
            "Tom & Jerry",
            3,
            "mine",
            1,
            1,
            2,
            0,
            None,
            None,
            "timeout",
            [(4, "other", 1)],
        ),
        seat(10, True, False, "running", "Classic", 3, "mine", 1, 1, None, None, 1500.0, 1499.95, "", []),
        seat(
            9, True, False, "queued", "<i>", 3, "mine", 1, 0, None, None, 1510.0, 1490.0, "", [(6, "q", None)]
        ),
        seat(
            8,
            True,
            True,
            "failed",
            "Classic",
            3,
            "mine",
            3,
            2,
            3,
            -5,
            1500.0,
            1500.0,
            "crash",
            [(7, "a", 3), (8, "b", 1)],
        ),
    ]
    reference = engines["django"].from_string(_TEMPLATE_ROWS)
    for show_bot in (False, True):
        for rows in (recent, []):
            assert recent_rows(rows, show_bot) == reference.render({"recent": rows, "show_bot": show_bot})
    assert "a&lt;b&gt;&amp;c" in recent_rows(recent, True)


#: A bot page's rating rows as the template loop wrote them before ``{% rating_rows %}``.
_TEMPLATE_RATING_ROWS = """{% load humanize pages %}{% for rs, r in rows %}
  <tr{% if not r %} class="quiet"{% endif %}>
    <td><a href="{% path 'leaderboard' rs.slug %}">{{ rs.name }}</a></td>
    {% if r %}
    <td class="num"><b>{{ r.elo|floatformat:0 }}</b>{% if r.provisional %} <span class="tag" title="fewer than 20 rated games">prov.</span>{% endif %}</td>
    <td class="num">{{ r.games }}</td>
    <td class="num">{% if r.win_rate is not None %}{% widthratio r.wins r.games 100 %}%{% else %}—{% endif %}</td>
    <td>{{ r.last_played|ago|default:"—" }}</td>
    {% else %}<td class="num muted">—</td><td class="num">0</td><td class="num">—</td><td>—</td>{% endif %}
  </tr>
  {% endfor %}"""


def test_rating_rows_are_what_the_template_wrote() -> None:
    from datetime import timedelta

    from django.template import engines
    from django.utils import timezone

    from ratings.models import Rating
    from web.templatetags.pages import rating_rows

    now = timezone.now()
    rows = [
        (RuleSet(slug="classic", name="Classic"), Rating(elo=1612.5, games=40, wins=13, last_played=now)),
        (
            RuleSet(slug="tom-jerry", name="Tom & <Jerry>"),
            Rating(elo=1499.49, games=3, wins=2, last_played=None),
        ),
        (RuleSet(slug="a_b-9", name="Fresh"), Rating(elo=1500.0, games=0, wins=0, last_played=None)),
        (
            RuleSet(slug="old", name="Old"),
            Rating(elo=1380.0, games=25, wins=1, last_played=now - timedelta(days=9)),
        ),
        (RuleSet(slug="none", name="None yet"), None),
    ]
    reference = engines["django"].from_string(_TEMPLATE_RATING_ROWS)
    assert rating_rows(rows) == reference.render({"rows": rows})
    assert rating_rows([]) == ""
    assert "Tom &amp; &lt;Jerry&gt;" in rating_rows(rows)
