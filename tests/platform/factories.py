"""Test helpers: a fake referee result and bot factories (imported as ``tests.platform.factories``).

``BOT_SOURCE`` is a real bot (protocol v1, docs/protocol.md): it plays the first legal action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bots.models import Bot, BotVersion, SmokeStatus
from bots.services import create_version, record_smoke_result

BOT_SOURCE = b"""import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("type") == "hello":
        print(json.dumps({"type": "ready", "name": "t"}), flush=True)
    elif msg.get("type") == "request":
        print(json.dumps({"type": "action", "id": msg["id"], "action": msg["legal"][0]}), flush=True)
    elif msg.get("type") == "match_end":
        break
"""


@dataclass
class FakeFault:
    """Stands in for ``arena.play.referee.Fault``."""

    kind: str = "timeout"
    decision: int = 3
    message: str = "no answer within 1.0 s"
    stderr_tail: str = "Traceback: secret"


@dataclass
class FakeResult:
    """Stands in for ``arena.play.referee.MatchResult`` (same attributes)."""

    places: list[list[int]]
    scores: list[int]
    faults: list[Any] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    replay: dict[str, Any] = field(default_factory=lambda: {"format": 1, "events": [{"t": "deal"}] * 50})
    decisions: int = 42


def finish_smoke_test(version: BotVersion, passed: bool = True, log: str = "secret log") -> None:
    """End the version's smoke test as the task does (so a pending version becomes active when it passes)."""
    BotVersion.objects.filter(pk=version.pk).update(smoke_status=SmokeStatus.RUNNING)
    assert record_smoke_result(version.pk, passed, log)


def make_bot(user: Any, name: str, passed: bool = True, source: bytes = BOT_SOURCE) -> Bot:
    """A bot with one version: smoke test passed (the active version), or still pending (not active yet)."""
    bot = Bot.objects.create(owner=user, name=name, description=f"{name} test bot")
    version = create_version(bot, "bot.py", source)
    if passed:
        finish_smoke_test(version)
    bot.refresh_from_db()
    return bot
