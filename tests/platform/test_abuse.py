"""A stranger who hammers the doors: log-in lockout (django-axes), sign-up, bad tokens, uploads and bot
creation are throttled; request bodies and lists are bounded before any work is done."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from bots.models import Bot, BotVersion
from matches.models import Match
from tests.platform.factories import BOT_SOURCE

pytestmark = pytest.mark.django_db


@pytest.fixture
def rates(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``rates(scope="n/period", ...)`` sets throttle rates for the test (DRF reads them at import)."""

    def set_rates(**values: str) -> None:
        monkeypatch.setattr(
            SimpleRateThrottle, "THROTTLE_RATES", {**SimpleRateThrottle.THROTTLE_RATES, **values}
        )

    return set_rates


def test_logins_are_locked_out_after_repeated_failures(owner: Any, settings: Any) -> None:
    """The issue: the right password still worked after 200 wrong ones."""
    settings.AXES_FAILURE_LIMIT = 5
    client = Client(REMOTE_ADDR="10.9.8.7")
    for _ in range(5):
        response = client.post("/accounts/login/", {"username": "owner", "password": "wrong"})
        assert response.status_code in (200, 429)
    locked = client.post("/accounts/login/", {"username": "owner", "password": "pw-owner-123"})
    assert locked.status_code == 429
    assert b"Too many failed log-ins" in locked.content
    assert "_auth_user_id" not in client.session
    elsewhere = Client(REMOTE_ADDR="10.1.1.1")  # the owner, from another address, is not locked out
    assert (
        elsewhere.post("/accounts/login/", {"username": "owner", "password": "pw-owner-123"}).status_code
        == 302
    )
    from axes.utils import reset

    reset(username="owner")  # staff unlock (also in the admin, or manage.py axes_reset)
    assert (
        client.post("/accounts/login/", {"username": "owner", "password": "pw-owner-123"}).status_code == 302
    )


def test_sign_ups_are_throttled_per_address(rates: Any, django_user_model: Any) -> None:
    rates(signup="3/hour")
    for k in range(3):
        client = Client(REMOTE_ADDR="10.2.2.2")
        form = {
            "username": f"newcomer{k}",
            "password1": "a-long-pass-phrase-9",
            "password2": "a-long-pass-phrase-9",
        }
        assert client.post("/accounts/signup/", form).status_code == 302
    form = {"username": "newcomer9", "password1": "a-long-pass-phrase-9", "password2": "a-long-pass-phrase-9"}
    refused = Client(REMOTE_ADDR="10.2.2.2").post("/accounts/signup/", form)
    assert refused.status_code == 429
    assert b"Too many requests" in refused.content
    assert not django_user_model.objects.filter(username="newcomer9").exists()
    assert Client(REMOTE_ADDR="10.3.3.3").post("/accounts/signup/", form).status_code == 302


def test_bad_api_tokens_are_throttled_per_address(rates: Any, api: dict[str, Any], owner: Any) -> None:
    rates(bad_token="3/minute")
    guesser = APIClient(REMOTE_ADDR="10.4.4.4")
    for k in range(3):
        guesser.credentials(HTTP_AUTHORIZATION=f"Token {'0' * 39}{k}")
        assert guesser.get("/api/bots/").status_code == 401
    guesser.credentials(HTTP_AUTHORIZATION="Token " + "f" * 40)
    assert guesser.get("/api/bots/").status_code == 429
    from rest_framework.authtoken.models import Token

    guesser.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get(user=owner).key}")
    assert guesser.get("/api/bots/").status_code == 429  # guessing stops, even with a good key
    assert api["owner"].get("/api/bots/").status_code == 200  # from another address


def test_uploads_and_bot_creation_are_throttled_per_user(
    rates: Any, api: dict[str, Any], clients: dict[str, Client], bot: Bot
) -> None:
    rates(upload="2/hour", bot="1/hour")
    url = f"/api/bots/{bot.pk}/versions/"
    for k in range(2):
        upload = SimpleUploadedFile("bot.py", BOT_SOURCE + f"# {k}\n".encode())
        assert api["owner"].post(url, {"file": upload}, format="multipart").status_code == 201
    upload = SimpleUploadedFile("bot.py", BOT_SOURCE + b"# 3\n")
    assert api["owner"].post(url, {"file": upload}, format="multipart").status_code == 429
    page = clients["owner"].post(
        f"/bots/{bot.pk}/upload/", {"file": SimpleUploadedFile("bot.py", BOT_SOURCE)}
    )
    assert page.status_code == 429
    assert bot.versions.count() == 3
    assert api["owner"].get(url).status_code == 200  # reading is not an upload
    assert api["owner"].post("/api/bots/", {"name": "one"}, format="json").status_code == 201
    assert api["owner"].post("/api/bots/", {"name": "two"}, format="json").status_code == 429
    assert clients["owner"].post("/bots/new/", {"name": "three", "language": "python"}).status_code == 429


def test_an_oversized_body_is_refused_from_its_content_length(
    api: dict[str, Any], bot: Bot, clients: Any
) -> None:
    """The 413 comes before a byte is read: the test body is 5 bytes, the declared length 300 MB (reading
    past the 5 bytes would raise in the test client's payload)."""
    huge = str(300 * 1024 * 1024)
    response = api["owner"].generic(
        "POST",
        f"/api/bots/{bot.pk}/versions/",
        b"12345",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=huge,
    )
    assert response.status_code == 413
    assert "limit is 1,088 KiB" in response.json()["detail"]
    page = clients["owner"].generic(
        "POST",
        f"/bots/{bot.pk}/upload/",
        b"12345",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=huge,
    )
    assert page.status_code == 413
    assert b"Too large" in page.content
    bad = clients["owner"].generic("POST", "/challenge/", b"", CONTENT_LENGTH="lots")
    assert bad.status_code == 400
    assert BotVersion.objects.filter(bot=bot).count() == 1


def test_a_file_past_the_upload_limit_stops_the_upload(
    api: dict[str, Any], clients: dict[str, Client], bot: Bot, settings: Any
) -> None:
    """With the body limit raised, the upload handler still stops at 1 MiB (and files above 256 KiB are
    streamed to disk, never held in memory)."""
    settings.UNO_ARENA_MAX_REQUEST_BYTES = 16 * 1024 * 1024
    big = SimpleUploadedFile("bot.py", b"#" * (3 * 1024 * 1024))
    response = api["owner"].post(f"/api/bots/{bot.pk}/versions/", {"file": big}, format="multipart")
    assert response.status_code == 400
    assert "larger than 1,024 KiB" in json.dumps(response.json())
    big.seek(0)
    page = clients["owner"].post(f"/bots/{bot.pk}/upload/", {"file": big})
    assert page.status_code == 413
    assert b"larger than 1,024 KiB" in page.content
    assert BotVersion.objects.filter(bot=bot).count() == 1
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE <= 256 * 1024
    assert settings.FILE_UPLOAD_HANDLERS[-1].endswith("TemporaryFileUploadHandler")


def test_challenge_lists_are_bounded_before_any_query(
    api: dict[str, Any], clients: dict[str, Client], bot: Bot, rival: Bot, classic: Any
) -> None:
    """The issue: 100,000 opponent names ran one query each (a 500 after 30 s)."""
    names = [f"bot{k}" for k in range(100_000)]
    with CaptureQueriesContext(connection) as queries:
        response = api["owner"].post(
            "/api/challenges/", {"ruleset": "classic", "bot": bot.name, "opponents": names}, format="json"
        )
    assert response.status_code == 400
    assert "opponents" in response.json()
    assert len(queries) < 10
    unknown = api["owner"].post(
        "/api/challenges/",
        {"ruleset": "classic", "bot": bot.name, "opponents": ["nobody", rival.name]},
        format="json",
    )
    assert unknown.status_code == 400
    assert "No bot named nobody" in json.dumps(unknown.json())
    form = {"bot": bot.pk, "ruleset": "classic", "opponents": [rival.pk] * 10}
    page = clients["owner"].post("/challenge/", form)
    assert page.status_code == 200
    assert b"at most 9 opponents" in page.content
    assert not Match.objects.exists()
