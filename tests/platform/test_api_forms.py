"""The API accepts form-encoded (and multipart) writes as well as JSON, with the same defaults."""

from __future__ import annotations

from typing import Any

import pytest

from bots.models import Bot

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("fmt", ["json", "multipart"])
def test_a_new_bot_is_active_whatever_the_encoding(api: dict[str, Any], fmt: str) -> None:
    response = api["owner"].post("/api/bots/", {"name": f"new-{fmt}", "description": "d"}, format=fmt)
    assert response.status_code == 201, response.content
    assert response.data["is_active"] is True
    assert Bot.objects.get(name=f"new-{fmt}").is_active


def test_a_partial_update_leaves_is_active_alone(api: dict[str, Any], bot: Bot) -> None:
    response = api["owner"].patch(f"/api/bots/{bot.pk}/", {"description": "changed"}, format="multipart")
    assert response.status_code == 200, response.content
    bot.refresh_from_db()
    assert bot.is_active
    assert bot.description == "changed"
