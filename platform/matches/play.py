"""Running a match through the referee and the sandbox (no database writes here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings

from bots.models import BotVersion
from bots.storage import version_dir

if TYPE_CHECKING:
    from arena.referee import MatchResult

    from arena.rules import RuleSet as EngineRuleSet


def sandbox_runner() -> Any:
    """The sandbox runner configured by ``UNO_ARENA_RUNNER`` (``auto`` picks the strongest available)."""
    from sandbox import get_runner

    name = settings.UNO_ARENA_RUNNER
    return get_runner(None if name == "auto" else name, production=settings.PRODUCTION)


def bot_entries(versions: Sequence[BotVersion], runner: Any) -> list[Any]:
    """One referee ``BotEntry`` per seat; each connects by starting the version in the sandbox."""
    from arena.referee import BotEntry

    from sandbox import BotSpec, Limits

    entries = []
    for version in versions:
        spec = BotSpec(bot_dir=version_dir(version), command=version.command, language=version.bot.language)

        def connect(spec: Any = spec) -> Any:
            return runner.start(spec, Limits())

        entries.append(BotEntry(name=version.bot.name, connect=connect))
    return entries


def play(
    rules: EngineRuleSet,
    versions: Sequence[BotVersion],
    seed: int,
    duplicate: bool = False,
    **match_settings: Any,
) -> MatchResult:
    """Play one match between ``versions`` (seat order) and return the referee's result."""
    from arena.referee import MatchSettings, run_match

    runner = sandbox_runner()
    options = MatchSettings(**match_settings) if match_settings else MatchSettings()
    return run_match(rules, bot_entries(versions, runner), seed, options, duplicate=duplicate)
