"""The bugs of issue 10, each kept from coming back: a failed version never becomes active, a league
saved anywhere is scheduled (and says so when it is not), 4xx instead of 500s, the API schema's truths."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django_celery_beat.models import PeriodicTask

from bots.models import Bot, BotVersion
from bots.services import create_version
from leagues.models import League
from matches.services import create_match
from rulesets.models import RuleSet
from tests.platform.factories import BOT_SOURCE, finish_smoke_test

pytestmark = pytest.mark.django_db


def test_a_version_that_fails_its_smoke_test_never_becomes_active(
    api: dict[str, Any], clients: dict[str, Client], bot: Bot, rival: Bot, classic: RuleSet
) -> None:
    v1 = bot.active_version
    assert v1 is not None
    upload = SimpleUploadedFile("bot.py", b"import sys\nsys.exit(1)\n")
    response = api["owner"].post(f"/api/bots/{bot.pk}/versions/", {"file": upload}, format="multipart")
    assert response.status_code == 201
    v2 = BotVersion.objects.get(pk=response.json()["id"])
    bot.refresh_from_db()
    assert bot.active_version == v1  # still playing while v2 is tested
    assert bot.pending_version == v2
    assert api["owner"].get(f"/api/bots/{bot.pk}/").json()["pending_version"] == v2.pk
    finish_smoke_test(v2, passed=False)
    bot.refresh_from_db()
    assert bot.active_version == v1
    assert bot.pending_version is None
    create_match(classic, [bot, rival], rated=True)  # still challengeable and rated
    page = clients["owner"].get(f"/bots/{bot.pk}/")
    assert f"/bots/{bot.pk}/v/2/activate/".encode() not in page.content  # no "Make active" on a failure
    refused = clients["owner"].post(f"/bots/{bot.pk}/v/2/activate/", follow=True)
    assert b"failed its smoke test" in refused.content
    patch = api["owner"].patch(f"/api/bots/{bot.pk}/", {"active_version": v2.pk}, format="json")
    assert patch.status_code == 400
    bot.refresh_from_db()
    assert bot.active_version == v1


def test_a_passing_version_becomes_active_when_it_passes(bot: Bot, clients: dict[str, Client]) -> None:
    v2 = create_version(bot, "bot.py", BOT_SOURCE + b"# v2\n")
    v3 = create_version(bot, "bot.py", BOT_SOURCE + b"# v3\n")
    bot.refresh_from_db()
    assert bot.pending_version == v3  # the latest request wins
    finish_smoke_test(v2)
    bot.refresh_from_db()
    assert bot.active_version is not None
    assert bot.active_version.number == 1  # v2 passed, but v3 was asked for
    response = clients["owner"].post(f"/bots/{bot.pk}/v/2/activate/")
    assert response.status_code == 302
    bot.refresh_from_db()
    assert bot.active_version == v2
    assert bot.pending_version is None
    clients["owner"].post(f"/bots/{bot.pk}/v/3/activate/")  # still pending: active once it passes
    bot.refresh_from_db()
    assert bot.active_version == v2
    assert bot.pending_version == v3
    finish_smoke_test(v3)
    bot.refresh_from_db()
    assert bot.active_version == v3


def league_fields(classic: RuleSet, slug: str) -> dict[str, Any]:
    return {"name": slug.title(), "slug": slug, "ruleset": classic, "interval_minutes": 7}


def test_a_league_saved_anywhere_gets_its_schedule(classic: RuleSet, staff: Any) -> None:
    """The issue: a league made in the Django admin never ran (only the site's form made its beat task)."""
    shell = League.objects.create(**league_fields(classic, "from-the-shell"))
    task = PeriodicTask.objects.get(name=f"league-{shell.pk}")
    assert task.enabled
    assert task.interval is not None
    assert task.interval.every == 7
    shell.interval_minutes = 3
    shell.save()
    assert PeriodicTask.objects.get(name=f"league-{shell.pk}").interval.every == 3  # type: ignore[union-attr]
    admin = Client()
    admin.force_login(staff)
    staff.is_superuser = True
    staff.save()
    form = {
        "name": "From the admin",
        "slug": "from-the-admin",
        "ruleset": classic.pk,
        "format": "round-robin",
        "entry": "opt-in",
        "rounds": 3,
        "table_size": 4,
        "duplicate": "on",
        "rated": "on",
        "status": "upcoming",
        "schedule_kind": "interval",
        "interval_minutes": 5,
        "cron": "",
        "seed": 1,
        "entrants-TOTAL_FORMS": 0,
        "entrants-INITIAL_FORMS": 0,
    }
    response = admin.post("/admin/leagues/league/add/", form)
    assert response.status_code == 302, response.content[:2000]
    made = League.objects.get(slug="from-the-admin")
    assert made.periodic_task is not None
    assert made.periodic_task.task == "leagues.tasks.league_tick"
    bad = {**form, "slug": "bad-cron", "schedule_kind": "cron", "cron": "every day"}
    assert b"five fields" in admin.post("/admin/leagues/league/add/", bad).content  # refused, not a 500


def test_a_league_from_fixtures_is_scheduled(classic: RuleSet, tmp_path: Any) -> None:
    from django.core.management import call_command

    fixture = tmp_path / "league.json"
    fixture.write_text(
        '[{"model": "leagues.league", "pk": 4242, "fields": {"name": "Fixture", "slug": "fixture",'
        f' "ruleset": {classic.pk}, "interval_minutes": 9, "seed": 5, "created_at": "2026-01-01T00:00:00Z"}}}}]'
    )
    call_command("loaddata", str(fixture), verbosity=0)
    assert PeriodicTask.objects.get(name="league-4242").kwargs == '{"league_id": 4242}'


def test_a_league_without_its_schedule_says_so(classic: RuleSet, clients: dict[str, Client]) -> None:
    league = League.objects.create(**league_fields(classic, "lost"))
    page = clients["anon"].get(f"/leagues/{league.slug}/")
    assert b"no beat schedule" not in page.content
    PeriodicTask.objects.filter(name=f"league-{league.pk}").delete()
    page = clients["anon"].get(f"/leagues/{league.slug}/")
    assert b"This league has no beat schedule: no round starts by itself." in page.content


@pytest.mark.parametrize("length", [201, 230, 255])
def test_a_long_file_name_is_a_clear_400(api: dict[str, Any], bot: Bot, length: int) -> None:
    """The issue: a 201-255 character name was a PostgreSQL DataError (500)."""
    upload = SimpleUploadedFile("b" * (length - 3) + ".py", BOT_SOURCE)
    response = api["owner"].post(f"/api/bots/{bot.pk}/versions/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert "at most 200 characters" in str(response.json())


def test_entering_a_league_with_a_bad_bot_id_is_a_400(classic: RuleSet, clients: dict[str, Client]) -> None:
    league = League.objects.create(**league_fields(classic, "open"))
    response = clients["owner"].post(f"/leagues/{league.slug}/enter/", {"bot": "abc"})
    assert response.status_code == 400
    assert clients["owner"].post(f"/leagues/{league.slug}/enter/", {"bot": "9" * 30}).status_code == 400


@pytest.mark.parametrize(
    "path",
    [
        "/matches/99999999999999999999/replay.json",
        "/matches/99999999999999999999/",
        "/matches/99999999999999999999/view.json",
        "/bots/99999999999999999999/",
        "/versiontests/99999999999999999999/",
        "/api/matches/99999999999999999999/replay/",
        "/api/matches/99999999999999999999/",
        "/api/bots/99999999999999999999/versions/",
        "/api/versions/99999999999999999999/",
    ],
)
def test_huge_ids_are_404_not_500(clients: dict[str, Client], path: str) -> None:
    """The issue: ``OverflowError`` on SQLite for a 20-digit id."""
    assert clients["anon"].get(path).status_code == 404


def test_the_api_answers_what_its_schema_says(
    api: dict[str, Any], bot: Bot, rival: Bot, classic: RuleSet
) -> None:
    from ladder.matchmaker import plan_round

    versions = api["anon"].get(f"/api/bots/{bot.pk}/versions/").json()
    assert set(versions) == {"count", "next", "previous", "results"}  # paginated, as documented
    assert versions["results"][0]["number"] == 1
    fresh = api["owner"].post("/api/bots/", {"name": "fresh"}, format="json").json()
    assert fresh["active_version_number"] is None
    assert fresh["smoke_status"] is None
    plan_round(capacity=5, rulesets=["classic"], queued=1)
    ladder = api["anon"].get("/api/matches/").json()["results"][0]
    assert ladder["created_by"] is None
    assert ladder["origin"] == "ladder"
    for page in ("", "false", "0", "-1", "1.5"):
        response = api["anon"].get(f"/api/bots/?page={page}")
        assert response.status_code == 400, page
        assert "page" in response.json()
    assert api["anon"].get("/api/bots/?page=99").status_code == 404
    assert api["anon"].get("/api/bots/?page=1").status_code == 200


def test_every_operation_documents_its_errors() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            assert {"401", "429"} <= codes, (method, path)
            if method in ("post", "patch"):
                assert {"400", "403", "413"} <= codes, (method, path)
            if "{" in path:
                assert "404" in codes, (method, path)
    created_by = schema["components"]["schemas"]["Match"]["properties"]["created_by"]
    assert created_by["nullable"]


def test_a_nul_character_is_a_4xx_never_a_500(
    api: dict[str, Any], clients: dict[str, Client], bot: Bot, rival: Bot, classic: RuleSet
) -> None:
    """Found by schemathesis: a NUL in a looked-up name reached PostgreSQL (a DataError, a 500)."""
    for payload in (
        {"ruleset": "\x00x", "bot": bot.name, "opponents": [rival.name]},
        {"ruleset": "classic", "bot": "own\x00bot", "opponents": [rival.name]},
        {"ruleset": "classic", "bot": bot.name, "opponents": ["rival\x00"]},
    ):
        assert api["owner"].post("/api/challenges/", payload, format="json").status_code == 400
    assert api["anon"].get("/api/matches/?bot=a%00b").json()["count"] == 0
    form = {"bot": bot.pk, "ruleset": "cla\x00ssic", "opponents": [rival.pk]}
    assert clients["owner"].post("/challenge/", form).status_code == 200  # the form's error
    assert clients["anon"].get("/matches/?bot=a%00b").status_code in (200, 400)
