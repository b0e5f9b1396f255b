"""Permissions of every page and endpoint for the owner, another user and an anonymous visitor."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from bots.models import Bot, BotVersion
from matches.models import Match
from matches.services import record_result
from tests.platform.factories import BOT_SOURCE, FakeFault, FakeResult

pytestmark = pytest.mark.django_db
WHO = ["owner", "other", "anon"]


@pytest.fixture
def finished(match: Match) -> Match:
    """The ``match`` fixture, finished with a fault (private details) on the owner's seat."""
    from matches.services import claim

    claimed = claim(match.pk)
    assert claimed is not None
    record_result(
        match.pk,
        claimed.attempts,
        FakeResult(
            places=[[1], [0]], scores=[0, 50], faults=[FakeFault(), None], stderr=["OWNER-STDERR", ""]
        ),
    )
    return match


# --- public pages: everyone sees them, private parts only the owner -------------------------------


@pytest.mark.parametrize("who", WHO)
def test_public_pages(clients: dict[str, Any], finished: Match, bot: Bot, who: str) -> None:
    client = clients[who]
    for url in [
        "/",
        "/bots/",
        f"/bots/{bot.pk}/",
        "/rules/",
        "/rules/classic/",
        "/matches/",
        f"/matches/{finished.pk}/",
    ]:
        assert client.get(url).status_code == 200, url
    version_page = client.get(f"/bots/{bot.pk}/v/1/")
    assert version_page.status_code == 200
    match_page = client.get(f"/matches/{finished.pk}/").content
    private_visible = who == "owner"
    assert (b"OWNER-STDERR" in match_page) is private_visible
    assert (b"Traceback: secret" in match_page) is private_visible
    assert (b"secret log" in version_page.content) is private_visible
    assert (b"for line in sys.stdin" in version_page.content) is private_visible
    replay = client.get(f"/matches/{finished.pk}/replay.json")
    assert replay.status_code == 200
    assert replay["Content-Type"] == "application/json"


@pytest.mark.parametrize("who", WHO)
def test_owner_only_pages(clients: dict[str, Any], bot: Bot, who: str) -> None:
    client = clients[who]
    expected = {"owner": 200, "other": 403, "anon": 302}[who]
    for url in [f"/bots/{bot.pk}/edit/", f"/bots/{bot.pk}/upload/"]:
        assert client.get(url).status_code == expected, url
    response = client.post(f"/bots/{bot.pk}/edit/", {"description": "changed", "is_active": ""})
    assert response.status_code == (302 if who == "owner" else expected)
    bot.refresh_from_db()
    assert bot.is_active is (who != "owner")
    upload = SimpleUploadedFile("bot.py", BOT_SOURCE)
    response = client.post(f"/bots/{bot.pk}/upload/", {"file": upload, "activate": "on"})
    assert response.status_code == (302 if who == "owner" else expected)
    assert BotVersion.objects.filter(bot=bot).count() == (2 if who == "owner" else 1)
    response = client.post(f"/bots/{bot.pk}/v/1/activate/")
    assert response.status_code == (302 if who == "owner" else expected)


@pytest.mark.parametrize("who", WHO)
def test_login_required_pages(clients: dict[str, Any], rulesets: None, who: str) -> None:
    client = clients[who]
    for url in ["/accounts/", "/bots/new/", "/challenge/", "/accounts/password/"]:
        assert client.get(url).status_code == (302 if who == "anon" else 200), url


def test_signup_login_logout_and_token(client: Any, django_user_model: Any) -> None:
    response = client.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": "a-long-pass-42", "password2": "a-long-pass-42"},
    )
    assert response.status_code == 302
    page = client.get("/accounts/")
    user = django_user_model.objects.get(username="newbie")
    assert user.auth_token.key.encode() in page.content
    old = user.auth_token.key
    assert client.post("/accounts/token/").status_code == 302
    user.refresh_from_db()
    assert user.auth_token.key != old
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/accounts/").status_code == 302
    assert (
        client.post("/accounts/login/", {"username": "newbie", "password": "a-long-pass-42"}).status_code
        == 302
    )


def test_other_cannot_switch_version_through_another_bot(
    clients: dict[str, Any], bot: Bot, rival: Bot
) -> None:
    response = clients["other"].post(f"/bots/{bot.pk}/v/1/activate/")
    assert response.status_code == 403


# --- API ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", WHO)
def test_api_reads_are_public_and_private_fields_hidden(
    api: dict[str, Any], finished: Match, bot: Bot, who: str
) -> None:
    client = api[who]
    for url in [
        "/api/bots/",
        f"/api/bots/{bot.pk}/",
        f"/api/bots/{bot.pk}/versions/",
        f"/api/versions/{bot.active_version_id}/",
        "/api/rulesets/",
        "/api/rulesets/classic/",
        "/api/matches/",
        f"/api/matches/{finished.pk}/",
        "/api/leaderboards/classic/",
        "/api/schema/",
        "/api/docs/",
        "/api/redoc/",
    ]:
        assert client.get(url).status_code == 200, url
    version = client.get(f"/api/versions/{bot.active_version_id}/").json()
    assert (version["smoke_log"] == "secret log") is (who == "owner")
    seats = client.get(f"/api/matches/{finished.pk}/").json()["participants"]
    mine = next(s for s in seats if s["bot"] == bot.name)
    assert (mine["stderr"] == "OWNER-STDERR") is (who == "owner")
    assert (mine["fault_detail"] is not None) is (who == "owner")
    assert mine["fault_kind"] == "timeout"  # the kind of fault is public
    source = client.get(f"/api/versions/{bot.active_version_id}/source/")
    assert source.status_code == {"owner": 200, "other": 403, "anon": 403}[who]
    replay = client.get(f"/api/matches/{finished.pk}/replay/")
    assert replay.status_code == 200
    assert json.loads(replay.content)["format"] == 1


@pytest.mark.parametrize("who", WHO)
def test_api_writes_are_owner_only(api: dict[str, Any], bot: Bot, who: str) -> None:
    client = api[who]
    denied = {"owner": None, "other": 403, "anon": 401}[who]
    response = client.patch(f"/api/bots/{bot.pk}/", {"description": "hacked"}, format="json")
    assert response.status_code == (denied or 200)
    upload = SimpleUploadedFile("bot.py", BOT_SOURCE)
    response = client.post(f"/api/bots/{bot.pk}/versions/", {"file": upload}, format="multipart")
    assert response.status_code == (denied or 201)
    response = client.patch(f"/api/bots/{bot.pk}/", {"active_version": bot.active_version_id}, format="json")
    assert response.status_code == (denied or 200)
    response = client.post("/api/bots/", {"name": f"new-{who}", "description": ""}, format="json")
    assert response.status_code == (401 if who == "anon" else 201)
    if who != "anon":
        assert Bot.objects.get(name=f"new-{who}").owner.username == who


def test_api_cannot_activate_a_version_of_another_bot(api: dict[str, Any], bot: Bot, rival: Bot) -> None:
    response = api["owner"].patch(
        f"/api/bots/{bot.pk}/", {"active_version": rival.active_version_id}, format="json"
    )
    assert response.status_code == 400


@pytest.mark.parametrize("who", [*WHO, "staff"])
def test_api_rulesets_staff_only_writes(api: dict[str, Any], staff: Any, rulesets: None, who: str) -> None:
    client = api.get(who)
    if who == "staff":
        from rest_framework.test import APIClient

        client = APIClient()
        client.force_authenticate(staff)
    assert client is not None
    response = client.post(
        "/api/rulesets/", {"slug": "fast", "name": "Fast", "options": {"hand_size": 5}}, format="json"
    )
    assert response.status_code == {"owner": 403, "other": 403, "anon": 401, "staff": 201}[who]
    if who == "staff":
        bad = client.post(
            "/api/rulesets/", {"slug": "bad", "name": "Bad", "options": {"hand_size": 99}}, format="json"
        )
        assert bad.status_code == 400
        assert "hand_size" in json.dumps(bad.json())
        assert client.patch("/api/rulesets/classic/", {"name": "x"}, format="json").status_code == 400


@pytest.mark.parametrize("who", WHO)
def test_api_challenge(api: dict[str, Any], bot: Bot, rival: Bot, classic: Any, who: str) -> None:
    payload = {"ruleset": "classic", "bot": bot.name, "opponents": [rival.name], "rated": True}
    response = api[who].post("/api/challenges/", payload, format="json")
    assert response.status_code == {"owner": 201, "other": 400, "anon": 401}[who], response.content
    if who == "owner":
        assert response.json()["status"] == "queued"
        assert [p["bot"] for p in response.json()["participants"]] == [bot.name, rival.name]
