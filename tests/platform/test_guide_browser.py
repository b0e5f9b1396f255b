"""Readable on every screen (issue 12), in headless Chromium: the bot page's Elo chart with all 13 rule
sets (one at a time by default, each in its own colour), and the replay viewer on a phone (the controls
right after the table and on screen with it, every control at least 44 px)."""

from __future__ import annotations

from typing import Any

import pytest

from arena.engine.rules import PRESETS
from matches.services import create_match
from ratings.models import Rating, RatingHistory
from rulesets.models import RuleSet
from tests.platform.factories import make_bot
from tests.platform.test_viewer_browser import _open, _page, _shot, browser, table  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_elo_chart_shows_thirteen_rule_sets_one_at_a_time(
    browser: Any,  # noqa: F811
    live_server: Any,
    rulesets: None,
    owner: Any,
    other: Any,
) -> None:
    bot, rival = make_bot(owner, "busybot"), make_bot(other, "rival")
    slugs = list(PRESETS)
    assert len(slugs) == 13
    for n, slug in enumerate(slugs):
        ruleset = RuleSet.objects.get(slug=slug)
        rating = Rating.objects.create(bot=bot, ruleset=ruleset, elo=1500, games=0)
        for game in range(1 + (n == 4) * 5):  # the fifth rule set is the most played
            match = create_match(ruleset, [bot, rival], rated=False)
            RatingHistory.objects.create(
                rating=rating, match=match, elo_before=1500 + game, elo_after=1501 + game + n, games=game + 1
            )
    page = _page(browser, live_server, width=1280)
    page.goto(f"{live_server.url}/bots/{bot.pk}/")
    page.wait_for_selector("svg.elo-svg")
    keys = page.locator(".elo-key")
    assert keys.count() == 13
    pressed = keys.evaluate_all("ks => ks.map(k => k.getAttribute('aria-pressed'))")
    assert pressed.count("true") == 1
    most = RuleSet.objects.get(slug=slugs[4]).name
    assert most in keys.nth(pressed.index("true")).inner_text()
    assert page.locator("svg.elo-svg path.elo-line").count() == 1
    colours = keys.evaluate_all("ks => ks.map(k => k.querySelector('line').getAttribute('stroke'))")
    assert len(set(colours)) == 13, colours
    # another key shows that rule set instead; "Show all" overlays all of them
    keys.nth(0).click()
    assert page.locator("svg.elo-svg path.elo-line").count() == 1
    assert keys.nth(0).get_attribute("aria-pressed") == "true"
    page.get_by_role("button", name="Show all").click()
    assert page.locator("svg.elo-svg path.elo-line").count() == 13
    page.get_by_role("button", name="One at a time").click()
    assert page.locator("svg.elo-svg path.elo-line").count() == 1
    _shot(page, "bot-page-thirteen-rule-sets", ".elo-chart")
    assert page.errors == []


def test_on_a_phone_the_replay_controls_sit_by_the_table_with_44px_targets(
    browser: Any,  # noqa: F811
    live_server: Any,
    table: dict[str, Any],  # noqa: F811
) -> None:
    page = _page(browser, live_server, width=390, height=844)
    _open(page, f"{live_server.url}/matches/{table['match'].pk}/")
    board = page.locator(".uv-table").bounding_box()
    controls = page.locator(".uv-controls").bounding_box()
    side = page.locator(".uv-side").bounding_box()
    assert controls["y"] < side["y"], "the controls come before the side panel"
    # With the top of the table on screen, the controls are on screen too (right after it, or held at
    # the bottom of the screen while the table is taller than it).
    page.evaluate(f"window.scrollTo(0, {board['y']} + window.scrollY - 10)")
    in_view = page.evaluate(
        "(() => { const r = document.querySelector('.uv-controls').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight + 1; })()"
    )
    assert in_view, "the controls are off screen while the table is shown"
    sizes = page.locator(".uv-buttons button").evaluate_all(
        "bs => bs.map(b => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })"
    )
    assert len(sizes) == 9
    assert all(w >= 44 and h >= 44 for w, h in sizes), sizes
    slider = page.locator(".uv-slider").bounding_box()
    assert slider["height"] >= 44
    page.locator(".uv-buttons button[data-act='next']").click()
    assert page.locator(".uno-viewer").get_attribute("data-decision") == "1"
    assert controls["width"] <= 390
    _shot(page, "replay-phone-controls")
    assert page.errors == []
