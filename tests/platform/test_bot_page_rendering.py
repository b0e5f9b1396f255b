"""Bot pages are rendered when they change, not when a visitor asks (``web.page_cache``): a finished
match schedules its bots' pages once per delay, a task renders the ones nobody has, a deploy renders every
missing one (``manage.py render_bot_pages``), and the page holds no relative time that could go stale."""

from __future__ import annotations

from datetime import UTC, datetime
from io import StringIO
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client

from matches.models import Match
from matches.services import claim, create_match, record_result
from rulesets.models import RuleSet
from tests.platform.factories import FakeResult, make_bot
from web import page_cache, tasks
from web.templatetags.pages import ago

pytestmark = pytest.mark.django_db(transaction=True)  # on_commit hooks (generations, scheduling) run


class Queued:
    """Records the render tasks queued instead of sending them to a broker."""

    def __init__(self, monkeypatch: Any, fail: bool = False) -> None:
        self.calls: list[tuple[list[int], float]] = []
        self.fail = fail
        monkeypatch.setattr(tasks.render_bot_pages, "apply_async", self.apply_async)

    def apply_async(self, args: tuple[list[int]], countdown: float) -> None:
        if self.fail:
            raise ConnectionError("broker down")
        self.calls.append((list(args[0]), countdown))

    def bots(self) -> list[int]:
        return sorted(pk for ids, _ in self.calls for pk in ids)


def _finish(match: Match) -> None:
    claimed = claim(match.pk)
    assert claimed is not None
    assert record_result(match.pk, claimed.attempts, FakeResult(places=[[0], [1]], scores=[0, 0]))


def test_a_finished_match_renders_its_bots_pages_before_anyone_asks(
    monkeypatch: Any, classic: RuleSet, owner: Any, other: Any, django_assert_num_queries: Any
) -> None:
    mine, theirs = make_bot(owner, "alpha"), make_bot(other, "beta")
    queued = Queued(monkeypatch)
    match = create_match(classic, [mine, theirs], rated=True, seed=1)
    cache.delete_many([page_cache._queued_key(pk) for pk in (mine.pk, theirs.pk)])  # the bots' creation
    queued.calls.clear()
    _finish(match)
    assert len(queued.calls) == 1  # one task for the match's bots, in the delay
    assert queued.bots() == sorted([mine.pk, theirs.pk])
    assert queued.calls[0][1] == page_cache.RENDER_DELAY
    assert tasks.render_bot_pages(queued.calls[0][0]) == 2  # what the worker runs
    client = Client()
    with django_assert_num_queries(0):  # the first visitor already gets a rendered page
        served = client.get(f"/bots/{mine.pk}/")
    assert f"/matches/{match.pk}/" in served.content.decode()
    cache.clear()
    assert client.get(f"/bots/{mine.pk}/").content == served.content  # what the visitor would have rendered
    assert tasks.render_bot_pages([mine.pk]) == 0  # a page a visitor rendered is not rendered again


def test_changes_within_the_delay_share_one_render(
    monkeypatch: Any, classic: RuleSet, owner: Any, other: Any
) -> None:
    mine, theirs = make_bot(owner, "alpha"), make_bot(other, "beta")
    queued = Queued(monkeypatch)
    assert page_cache.schedule_render([mine.pk]) == []  # queued when the bot was created
    page_cache.render_queued([mine.pk, theirs.pk])
    assert page_cache.schedule_render([mine.pk, theirs.pk, mine.pk]) == [mine.pk, theirs.pk]
    _finish(create_match(classic, [mine, theirs], rated=True, seed=2))
    assert page_cache.schedule_render([mine.pk]) == []
    assert queued.bots() == sorted([mine.pk, theirs.pk])
    page_cache.render_queued([mine.pk])  # the task ran: the next change queues a new render
    assert page_cache.schedule_render([mine.pk, theirs.pk]) == [mine.pk]


def test_a_broker_that_refuses_the_task_loses_nothing(
    monkeypatch: Any, classic: RuleSet, owner: Any, other: Any
) -> None:
    mine, theirs = make_bot(owner, "alpha"), make_bot(other, "beta")
    cache.clear()  # the bots' creation queued their pages (a broker that took it)
    Queued(monkeypatch, fail=True)
    match = create_match(classic, [mine, theirs], rated=True, seed=3)
    _finish(match)
    assert Match.objects.get(pk=match.pk).status == "finished"
    assert f"/matches/{match.pk}/" in Client().get(f"/bots/{mine.pk}/").content.decode()  # rendered when read
    assert cache.get(page_cache._queued_key(mine.pk)) is None  # the next change tries again


def test_a_change_during_the_render_leaves_the_page_unread(
    monkeypatch: Any, classic: RuleSet, owner: Any
) -> None:
    bot = make_bot(owner, "alpha")
    from web import pages

    original = pages.render_bot_body

    def changed_meanwhile(request: Any, pk: int) -> Any:
        body = original(request, pk)
        page_cache.bump_bots([pk])  # e.g. a match finished while this page was being rendered
        return body

    monkeypatch.setattr(pages, "render_bot_body", changed_meanwhile)
    assert page_cache.render(bot.pk)
    key = page_cache.bot_key(bot.pk)
    assert cache.get(key) is None  # stored under the old generation only
    assert cache.get(f"{key}:body") is None  # the body too


def test_the_cache_off_renders_nothing(monkeypatch: Any, settings: Any, owner: Any) -> None:
    settings.UNO_ARENA_BOT_PAGE_CACHE = 0
    bot = make_bot(owner, "alpha")
    queued = Queued(monkeypatch)
    assert page_cache.schedule_render([bot.pk]) == []
    assert not page_cache.render(bot.pk)
    assert queued.calls == []
    Client().get(f"/bots/{bot.pk}/")
    assert cache.get(page_cache.bot_key(bot.pk)) is None


def test_render_bot_pages_command_renders_what_is_missing(owner: Any, other: Any) -> None:
    bots = [make_bot(owner, "alpha"), make_bot(other, "beta"), make_bot(other, "gamma")]
    Client().get(f"/bots/{bots[0].pk}/")  # a visitor rendered this one
    out = StringIO()
    call_command("render_bot_pages", stdout=out)
    assert out.getvalue().startswith("rendered 2 of 3 bot pages in ")
    assert all(cache.get(page_cache.bot_key(b.pk)) is not None for b in bots)
    out = StringIO()
    call_command("render_bot_pages", "--shard", "1/2", stdout=out)
    assert out.getvalue().startswith(f"rendered 0 of {sum(b.pk % 2 == 1 for b in bots)} bot pages")
    assert page_cache.render(max(b.pk for b in bots) + 1) is False  # no such bot: nothing, no error
    for shard in ("x/y", "2/2", "1", "-1/2"):
        with pytest.raises(CommandError, match="--shard is i/n"):
            call_command("render_bot_pages", f"--shard={shard}", stdout=StringIO())


def test_times_on_a_cached_page_are_absolute() -> None:
    moment = datetime(2026, 12, 2, 1, 22, 56, tzinfo=UTC)
    assert ago(moment) == '<time class="ago" datetime="2026-12-02T01:22:56Z">2 Dec 2026, 01:22 UTC</time>'
    assert ago(None) == ""


def test_the_visitors_page_says_when_in_time_elements(classic: RuleSet, owner: Any, other: Any) -> None:
    mine, theirs = make_bot(owner, "alpha"), make_bot(other, "beta")
    _finish(create_match(classic, [mine, theirs], rated=True, seed=4))
    page = Client().get(f"/bots/{mine.pk}/").content.decode()
    assert " ago<" not in page  # naturaltime's words would go stale in the cache
    assert page.count('<time class="ago" datetime="') >= 3  # last played, smoke test, uploaded
    assert "/static/web/ago.js" in page


def test_logged_in_visitors_get_the_cached_body_and_the_owner_a_fresh_page(
    classic: RuleSet, owner: Any, other: Any, django_assert_num_queries: Any
) -> None:
    mine, theirs = make_bot(owner, "alpha"), make_bot(other, "beta")
    _finish(create_match(classic, [mine, theirs], rated=True, seed=5))
    seat = mine.participations.get()
    type(seat).objects.filter(pk=seat.pk).update(fault_kind="timeout", fault_detail="secret traceback")
    page_cache.bump_bots([mine.pk])
    owners, strangers = Client(), Client()
    owners.force_login(owner)
    strangers.force_login(other)
    for _ in range(2):  # the owner's page is never cached: only the others' body is
        page = owners.get(f"/bots/{mine.pk}/").content.decode()
        assert "secret traceback" in page
        assert "Upload a version" in page
        kept = cache.get(f"{page_cache.bot_key(mine.pk)}:body")
        assert kept is not None
        assert "secret traceback" not in kept[2]
        assert "Upload a version" not in kept[2]
    cache.clear()
    stranger = strangers.get(f"/bots/{mine.pk}/").content.decode()  # renders the body and keeps it
    assert "secret traceback" not in stranger
    assert "Upload a version" not in stranger
    assert "timeout" in stranger  # the fault's kind is public
    assert f"/matches/{seat.match_id}/" in stranger
    with django_assert_num_queries(2):  # the session and the user: the body comes from the cache
        again = strangers.get(f"/bots/{mine.pk}/").content.decode()
    account = f'href="/accounts/">{other.username}</a>'
    assert account in stranger  # their own chrome around it (its CSRF token changes each time)
    visitor = Client().get(f"/bots/{mine.pk}/").content.decode()
    body = page_cache.cached_body(mine.pk).html
    assert body in visitor
    assert body in stranger
    assert body in again
    assert account not in visitor
    assert 'href="/accounts/"' not in body
    page = owners.get(f"/bots/{mine.pk}/").content.decode()  # a body in the cache changes nothing for them
    assert "secret traceback" in page
    mine.description = "new words"
    mine.save()
    assert "new words" in strangers.get(f"/bots/{mine.pk}/").content.decode()  # a new generation
    assert strangers.get(f"/bots/{theirs.pk + mine.pk + 1}/").status_code == 404
