"""The replay viewer and the bot page in headless Chromium (Debian's ``/usr/bin/chromium`` driven by
Playwright; no browser is ever downloaded).

A finished match whose replay is a real engine game (several hands to 500 points) is stored in the test
database and served by pytest-django's ``live_server``. The tests step, jump, play, switch the point of
view (and check that hidden cards are hidden: exactly what the engine's observation shows), follow a URL
with a position, download the replay, see the owner's stderr, and take screenshots into var/screenshots/
that must not be blank. Without Chromium or Playwright the tests skip, or fail on CI (``CI=true``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from arena.engine.cards import CARDS, parse_card
from arena.engine.replay import new_game, steps
from bots.models import Bot
from matches.models import Match, Replay
from rulesets.models import RuleSet
from tests.browser import CHROMIUM, launch
from tests.platform.factories import make_bot
from tests.platform.live_support import need
from tests.platform.viewer_support import finished_match, screenshot_stats, stderr_rows
from tests.viewer.engine_games import case_replay

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module (skip, or fail on CI, when it or Playwright is missing)."""
    need(CHROMIUM.exists(), f"{CHROMIUM} is missing (apt-get install chromium chromium-driver)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "Playwright for Python is not installed (requirements-dev.txt)")
        raise
    # Playwright's sync API runs an event loop in this thread; the tests' own database calls are plain
    # synchronous ones (as in test_browser.py).
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def table(rulesets: None, owner: Any, other: Any) -> dict[str, Any]:
    """A finished 4-seat classic match to 500 points (the owner's bot at seat 0, with per-decision stderr)."""
    replay = case_replay("classic-500")
    bots = [
        make_bot(owner, "ownbot"),
        make_bot(other, "rivalbot"),
        make_bot(other, "thirdbot"),
        make_bot(other, "fourthbot"),
    ]
    match = finished_match(
        RuleSet.objects.get(slug="classic"), bots, replay, decision_stderr=[stderr_rows(replay, 0)]
    )
    return {"match": match, "replay": replay, "bots": bots}


def _page(browser: Any, live_server: Any, user: Any = None, width: int = 1280, height: int = 900) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return page


def _open(page: Any, url: str) -> Any:
    page.goto(url)
    page.wait_for_selector(".uno-viewer[data-ready='1']", timeout=15000)
    return page.locator(".uno-viewer")


def _shot(page: Any, name: str, selector: str | None = None) -> Path:
    """Save a screenshot in var/screenshots/ and check it is not blank."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    if selector:
        page.locator(selector).first.screenshot(path=str(path))
    else:
        page.screenshot(path=str(path))
    variance, colours = screenshot_stats(path)
    assert variance > 100, f"{path} looks blank (grey variance {variance:.1f})"
    assert colours > 20, f"{path} looks blank ({colours} colours)"
    return path


def _engine_states(replay: dict[str, Any]) -> list[Any]:
    """The engine's game after each decision (index 0: before the first)."""
    game = new_game(replay)
    states = [(game.omniscient(), [game.observation(s) for s in range(game.n)])]
    for game_now, _i, _events in steps(replay, game):
        states.append((game_now.omniscient(), [game_now.observation(s) for s in range(game_now.n)]))
    return states


def _names(codes: list[str]) -> list[str]:
    return [CARDS[parse_card(code)].name for code in codes]


def _seat_cards(page: Any, seat: int) -> tuple[list[str], int]:
    """(aria-labels of the face-up cards, number of face-down cards) in a seat's hand."""
    hand = page.locator(f".uv-seat[data-seat='{seat}'] .uv-hand")
    faces = hand.locator(".uv-card:not(.back)").evaluate_all(
        "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    return faces, hand.locator(".uv-card.back").count()


def test_step_jump_play_and_points_of_view(browser: Any, live_server: Any, table: dict[str, Any]) -> None:
    match, replay = table["match"], table["replay"]
    states = _engine_states(replay)
    view = json.loads(Client().get(f"/matches/{match.pk}/view.json").content)
    page = _page(browser, live_server)
    root = _open(page, f"{live_server.url}/matches/{match.pk}/")
    assert root.get_attribute("data-decision") == "0"
    _shot(page, "viewer-start", ".uno-viewer")

    # All hands: every card face up, exactly the engine's hands.
    omniscient = states[0][0]
    for seat in range(4):
        faces, backs = _seat_cards(page, seat)
        assert backs == 0
        assert faces == _names(omniscient["hands"][seat])

    # Step through decisions and events; the URL follows.
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert root.get_attribute("data-decision") == "3"
    assert page.evaluate("location.hash") == "#d=3"
    position = int(root.get_attribute("data-position"))
    page.keyboard.press("Shift+ArrowRight")
    assert int(root.get_attribute("data-position")) == position + 1
    page.keyboard.press("ArrowLeft")
    assert root.get_attribute("data-decision") == "3"
    page.locator("button[data-act='next']").click()
    assert root.get_attribute("data-decision") == "4"
    for key in ["ArrowRight"] * 30 + ["ArrowLeft"] * 12 + ["Shift+ArrowLeft"] * 3 + ["ArrowRight"] * 2:
        page.keyboard.press(key)  # the event log is updated step by step: it must equal a fresh one
    position = int(root.get_attribute("data-position"))
    hand_start = max(row[2] for row in view["hands"] if row[2] < position)
    shown = page.locator(".uv-log li").evaluate_all("items => items.map(i => Number(i.dataset.event))")
    assert shown == list(range(position - 1, max(hand_start, position - 50) - 1, -1))
    decision = int(root.get_attribute("data-decision"))
    last_step = (
        view["bounds"][decision - 1] if position == view["bounds"][decision] else view["bounds"][decision]
    )
    current = page.locator(".uv-log li.is-current").evaluate_all(
        "items => items.map(i => Number(i.dataset.event))"
    )
    assert current == [e for e in shown if e >= last_step]
    assert current, "the last step's events are highlighted"
    page.keyboard.press("Home")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    for seat in range(4):
        assert _seat_cards(page, seat)[0] == _names(states[4][0]["hands"][seat])

    # A fault is shown at its decision (tests/viewer/engine_games.py puts a timeout at decision 12).
    page.fill(".uv-decision-input", "12")
    page.press(".uv-decision-input", "Enter")
    assert "Fault: timeout" in page.locator(".uv-decision .uv-fault").inner_text()

    # Jump to a hand, to a decision, to the end.
    third = view["hands"][2]
    page.select_option(".uv-hand-select", "2")
    assert root.get_attribute("data-decision") == str(third[3])
    assert f"Hand <b>{third[0]}</b>" in page.locator(".uv-where").inner_html()
    page.fill(".uv-decision-input", "250")
    page.press(".uv-decision-input", "Enter")
    assert root.get_attribute("data-decision") == "250"
    _shot(page, "viewer-decision-250")
    page.keyboard.press("End")
    assert root.get_attribute("data-decision") == str(len(replay["decisions"]))
    assert "Game over" in page.locator(".uv-decision").inner_text()
    page.keyboard.press("Home")
    assert root.get_attribute("data-decision") == "0"

    # Play at 10x for a moment, then pause.
    page.keyboard.press("5")
    page.keyboard.press(" ")
    page.wait_for_timeout(800)
    page.keyboard.press(" ")
    played = int(root.get_attribute("data-decision"))
    assert 2 <= played <= 30
    page.wait_for_timeout(300)
    assert int(root.get_attribute("data-decision")) == played, "paused"

    # One seat's point of view: only what the engine's observation shows; other hands face down.
    page.fill(".uv-decision-input", "120")
    page.press(".uv-decision-input", "Enter")
    page.select_option(".uv-pov", "1")
    assert root.get_attribute("data-pov") == "1"
    assert page.evaluate("location.hash") == "#d=120&pov=1"
    seen = states[120][1][1]
    for seat in range(4):
        faces, backs = _seat_cards(page, seat)
        if seat == 1:
            assert faces == _names(seen["hand"])
            assert backs == 0
        else:
            assert faces == []
            assert backs == seen["hand_sizes"][seat]
    for item in page.locator(".uv-log li.ev-draw, .uv-log li.ev-deal").all():
        if (
            "ownbot" in item.inner_text()
            or "thirdbot" in item.inner_text()
            or "fourthbot" in item.inner_text()
        ):
            assert item.locator(".uv-card").count() == 0, "another seat's drawn cards are hidden"
    if replay["decisions"][120][0] != 1:
        assert "hidden from" in page.locator(".uv-decision").inner_text()
    _shot(page, "viewer-pov-seat1")
    page.keyboard.press("a")
    assert root.get_attribute("data-pov") == "-1"
    assert page.errors == []


def test_a_link_opens_at_its_position(browser: Any, live_server: Any, table: dict[str, Any]) -> None:
    match, replay = table["match"], table["replay"]
    states = _engine_states(replay)
    page = _page(browser, live_server, width=390, height=844)  # a phone
    root = _open(page, f"{live_server.url}/matches/{match.pk}/#d=150&pov=2")
    assert root.get_attribute("data-decision") == "150"
    assert root.get_attribute("data-pov") == "2"
    assert page.locator(".uv-pov").input_value() == "2"
    assert _seat_cards(page, 2)[0] == _names(states[150][1][2]["hand"])
    assert _seat_cards(page, 0) == ([], states[150][1][2]["hand_sizes"][0])
    page.locator(
        ".uno-viewer .uv-table"
    ).scroll_into_view_if_needed()  # on a phone .uv-main has no box of its own
    _shot(page, "viewer-phone-d150-pov2")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    page.evaluate("location.hash = '#d=7'")
    page.locator(".uno-viewer[data-decision='7']").wait_for(state="attached")  # no eval: the site's CSP
    assert root.get_attribute("data-pov") == "-1"
    assert page.errors == []


def test_copy_position_gives_the_engines_position_at_the_decision(
    browser: Any, live_server: Any, table: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    match, replay = table["match"], table["replay"]
    game = new_game(replay)
    positions = [(game.position(), game.position(1))]
    for game_now, _i, _events in steps(replay, game):
        positions.append((game_now.position(), game_now.position(1)))
    page = _page(browser, live_server)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    root = _open(page, f"{live_server.url}/matches/{match.pk}/#d=60")
    shown = page.locator(".uv-position")
    assert shown.text_content() == positions[60][0]
    page.locator(".uv-copy-position").click()
    expect(page.locator(".uv-copy-position")).not_to_have_text("Copy position")  # no eval: the CSP
    assert page.evaluate("navigator.clipboard.readText()") == positions[60][0]
    page.select_option(".uv-pov", "1")
    assert shown.text_content() == positions[60][1]  # what seat 1 saw: other hands as counts
    assert "#" in positions[60][1]
    bounds = json.loads(Client().get(f"/matches/{match.pk}/view.json").content)["bounds"]
    inside = next(bounds[d] + 1 for d in range(60, len(bounds) - 1) if bounds[d + 1] - bounds[d] > 1)
    page.evaluate(f"location.hash = '#e={inside}'")  # inside a decision: no position to copy
    page.locator(f".uno-viewer[data-position='{inside}']").wait_for(state="attached")
    assert page.locator(".uv-copy-position").is_disabled()
    assert shown.text_content() == ""
    assert root.get_attribute("data-ready") == "1"
    assert page.errors == []


def test_download_reproduce_and_owner_stderr(
    browser: Any, live_server: Any, table: dict[str, Any], owner: Any, tmp_path: Path
) -> None:
    match, replay = table["match"], table["replay"]
    with_lines = stderr_rows(replay, 0)[1][2]
    page = _page(browser, live_server, user=owner)
    root = _open(page, f"{live_server.url}/matches/{match.pk}/#d={with_lines}")
    assert root.get_attribute("data-decision") == str(with_lines)
    page.wait_for_selector(".uv-stderr pre")
    assert f"thinking about decision {with_lines}" in page.locator(".uv-stderr pre").inner_text()
    _shot(page, "viewer-owner-stderr", ".uv-side")

    with page.expect_download() as download:
        page.locator(".uv-downloads a", has_text="Replay JSON").click()
    saved = tmp_path / "replay.json"
    download.value.save_as(saved)
    downloaded = json.loads(saved.read_text())
    assert downloaded == json.loads(Replay.objects.get(match=match).json_bytes())
    assert downloaded["decisions"] == replay["decisions"]
    assert download.value.suggested_filename == f"match-{match.pk}.json"
    assert page.locator(".uv-replay-command").inner_text() == f"uno-arena replay match-{match.pk}.json"
    command = page.locator(".uv-match-command").inner_text()
    assert command.startswith("uno-arena match ownbot-v1/bot.py rivalbot-v1/bot.py")
    assert f"--seed {match.seed} --games 1" in command

    stranger = _page(browser, live_server)
    _open(stranger, f"{live_server.url}/matches/{match.pk}/#d={with_lines}")
    stranger.wait_for_timeout(300)
    assert stranger.locator(".uv-stderr").count() == 0
    assert page.errors == []
    assert stranger.errors == []


def test_duplicate_games_and_the_bot_page_chart(
    browser: Any, live_server: Any, table: dict[str, Any], owner: Any
) -> None:
    bots: list[Bot] = table["bots"]
    first, second = case_replay("classic-500"), case_replay("elimination")
    match = finished_match(RuleSet.objects.get(slug="classic"), bots, first, rated=True)
    Match.objects.filter(pk=match.pk).update(duplicate=True)
    stored = Replay.objects.get(match=match)
    stored.data, stored.size = Replay.pack(
        {"format": "uno-arena-duplicate", "version": 1, "games": [first, second]}
    )
    stored.save()
    page = _page(browser, live_server, user=owner)
    root = _open(page, f"{live_server.url}/matches/{match.pk}/#d=5&g=1")
    assert root.get_attribute("data-game") == "1"
    assert root.get_attribute("data-decision") == "5"
    page.select_option(".uv-game", "0")
    page.locator(".uno-viewer[data-game='0']").wait_for(state="attached")
    page.wait_for_selector(".uno-viewer[data-ready='1']")
    assert page.evaluate("location.hash") == "#d=0"

    for width, name in ((1280, "bot-page-desktop"), (390, "bot-page-phone")):
        page = _page(browser, live_server, user=owner, width=width)
        page.goto(f"{live_server.url}/bots/{bots[0].pk}/")
        page.wait_for_selector("svg.elo-svg")
        chart = page.locator(".elo-chart")
        assert chart.locator(".elo-key").count() == 1
        box = page.locator("svg.elo-svg").bounding_box()
        assert box["width"] <= width
        _shot(page, name, ".elo-chart")
        page.locator("svg.elo-svg").focus()
        page.keyboard.press("End")
        assert f"match #{match.pk}" in page.locator(".elo-tip").inner_text()
        assert page.errors == []
