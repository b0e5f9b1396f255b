"""The upload CLI (scripts/upload_bot.py) against a live server, with a real API token."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from bots.models import Bot
from tests.platform.factories import BOT_SOURCE

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "upload_bot.py"


def load_cli() -> Any:
    """Import the script as a module."""
    spec = importlib.util.spec_from_file_location("upload_bot", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.django_db(transaction=True)
def test_cli_creates_bot_and_uploads(
    live_server: Any, django_user_model: Any, tmp_path: Path, capsys: Any
) -> None:
    user = django_user_model.objects.create_user("cli", password="pw-cli-123")
    token = Token.objects.create(user=user).key
    source = tmp_path / "bot.py"
    source.write_bytes(BOT_SOURCE)
    cli = load_cli()
    args = ["--url", live_server.url, "--token", token, "--bot", "clibot", str(source)]
    assert cli.main(args) == 2  # no such bot without --create
    assert cli.main([*args, "--create", "--description", "from the CLI"]) == 0
    assert cli.main(args) == 0
    bot = Bot.objects.get(name="clibot")
    assert bot.owner == user
    assert bot.versions.count() == 2
    bad = tmp_path / "bad.py"
    bad.write_text("def (:\n")
    assert cli.main([*args[:-1], str(bad)]) == 1
    assert "syntax error" in capsys.readouterr().err
    assert cli.main(["--url", live_server.url, "--token", "wrong", "--bot", "clibot", str(source)]) == 1
