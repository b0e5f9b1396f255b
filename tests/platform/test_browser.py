"""A visitor in headless Chromium (Debian's ``/usr/bin/chromium``, driven by Playwright; no browser is
ever downloaded): signs up, creates a bot, uploads a version, waits for its smoke test, challenges the
example bots and watches the match finish, then opens its replay and the leaderboard.

The site is pytest-django's ``live_server``; the matches and smoke tests are played by a real
``celery -A config worker`` process through Redis and the sandbox (``live_support``), on the same
PostgreSQL test database. Missing Chromium, Redis, PostgreSQL or bwrap skip the test, or fail it on CI.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from bots.models import Bot, BotVersion, SmokeStatus
from tests.browser import CHROMIUM, launch
from tests.platform.live_support import CeleryWorker, need, redis_broker, require_examples, tiny_bot, wait_for

pytestmark = [
    pytest.mark.browser,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def require_chromium() -> None:
    """Skip (or fail on CI) without Debian Chromium, chromedriver or Playwright."""
    need(CHROMIUM.exists(), f"{CHROMIUM} is missing (apt-get install chromium chromium-driver)")
    need(shutil.which("chromedriver"), "chromedriver is missing (apt-get install chromium-driver)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        need(False, "Playwright for Python is not installed (requirements-dev.txt)")


def _reload_until(page: Any, selector: str, text: str, timeout: float) -> str:
    """Reload ``page`` until the element ``selector`` reads ``text``; return the last reading."""
    deadline = time.monotonic() + timeout
    while True:
        seen = page.locator(selector).first.inner_text().strip()
        if seen == text or time.monotonic() > deadline:
            return seen
        time.sleep(0.5)
        page.reload()


def test_sign_up_upload_challenge_and_watch(
    celery_worker: Callable[..., CeleryWorker],
    live_services: dict[str, str],
    live_server: Any,
    rulesets: None,
    tmp_path: Path,
) -> None:
    require_chromium()
    require_examples()
    # No ORM call inside the Playwright block: its sync API runs an event loop in this thread, and Django
    # would open (and never close) a connection of its own for such a call, which then keeps the test
    # database from being dropped. The page's URLs give the bot's id.
    from playwright.sync_api import sync_playwright

    celery_worker()
    source = tmp_path / "mybot.py"
    source.write_bytes(tiny_bot())
    with redis_broker(live_services["broker"]):
        call_command("load_example_bots", stdout=StringIO())
        examples = list(
            Bot.objects.filter(owner__username="examples").values_list("pending_version", flat=True)
        )
        wait_for(
            lambda: (
                set(BotVersion.objects.filter(pk__in=examples).values_list("smoke_status", flat=True))
                == {SmokeStatus.PASSED}
            ),
            120,
            "the example bots' smoke tests",
        )

        with sync_playwright() as p:
            browser = launch(p)
            try:
                page = browser.new_page()
                page.set_default_timeout(30_000)
                base = live_server.url
                submit = "form.form button[type=submit]"

                # Sign up: the new account is logged in and lands on its account page.
                page.goto(f"{base}/accounts/signup/")
                page.fill("#id_username", "carol")
                page.fill("#id_password1", "a long pass phrase 42")
                page.fill("#id_password2", "a long pass phrase 42")
                page.click(submit)
                page.wait_for_url(f"{base}/accounts/")
                assert "carol" in page.content()

                # A bot and its first version; the worker smoke-tests it.
                page.goto(f"{base}/bots/new/")
                page.fill("#id_name", "carols-bot")
                page.fill("#id_description", "Plays the first legal action.")
                page.click(submit)
                page.wait_for_url(re.compile(r".*/bots/\d+/upload/$"))
                bot_url = page.url.removesuffix("upload/")
                page.set_input_files("#id_file", str(source))
                page.click(submit)
                page.wait_for_url(re.compile(r".*/bots/\d+/v/1/$"))
                assert _reload_until(page, "dd .status", "Passed", 120) == "Passed"
                assert "PASSED" in page.locator("pre.log").inner_text()

                # The challenge: against random and strategist, rated, one hand.
                page.goto(f"{base}/challenge/")
                page.select_option("#id_bot", label="carols-bot")
                page.select_option("#id_ruleset", value="classic-single")
                page.get_by_label("random-bot", exact=True).check()
                page.get_by_label("strategist", exact=True).check()
                page.get_by_label("Rated").check()
                page.click(submit)
                page.wait_for_url(re.compile(r".*/matches/\d+/$"))
                match_url = page.url
                assert _reload_until(page, "h1 .status", "Finished", 120) == "Finished"

                # The finished match: three seats with places, scores and Elo; the replay JSON.
                rows = page.locator("table.table tbody tr")
                assert rows.count() == 3
                table = page.locator("table.table").inner_text()
                for name in ("carols-bot", "random-bot", "strategist"):
                    assert name in table
                places = [rows.nth(i).locator("td").nth(2).inner_text() for i in range(3)]
                assert "1" in places, places
                replay_url = page.get_attribute("#replay-viewer", "data-replay-url")
                assert replay_url
                assert page.locator(f'a[href="{replay_url}"]').count() >= 1, "a link to the replay JSON"
                replay = page.request.get(base + replay_url).json()
                assert replay["format"] == "uno-arena-replay"
                assert replay["names"]
                assert replay["outcome"]["places"]

                # The leaderboard of the rule set lists the new bot with one rated game.
                page.goto(f"{base}/rules/classic-single/")
                board = page.locator("table.table").inner_text()
                assert "carols-bot" in board
                page.goto(match_url)
                assert page.locator("h1 .status").inner_text().strip() == "Finished"

                # The bot's page says when, relative to now (static/web/ago.js), the date in the tooltip.
                page.goto(bot_url)
                times = page.locator("time.ago")
                assert times.count() >= 3  # last played, smoke test, uploaded
                for i in range(times.count()):
                    said = times.nth(i).inner_text()
                    assert re.fullmatch(r"now|an? \w+ ago|\d+ \w+s ago", said), said
                    assert (times.nth(i).get_attribute("title") or "").endswith(" UTC")
            finally:
                browser.close()
