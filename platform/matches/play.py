"""Running a match through the referee and the sandbox (no database writes here)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings

from bots.models import BotVersion
from bots.storage import version_dir

if TYPE_CHECKING:
    from arena.engine.rules import RuleSet as EngineRuleSet
    from arena.play.referee import MatchResult


def sandbox_runner() -> Any:
    """The sandbox runner configured by ``UNO_ARENA_RUNNER`` (``auto`` picks the strongest available)."""
    from sandbox import get_runner

    name = settings.UNO_ARENA_RUNNER
    return get_runner(None if name == "auto" else name, production=settings.PRODUCTION)


def bot_entries(
    versions: Sequence[BotVersion], runner: Any, recorders: list[list[Any]] | None = None
) -> list[Any]:
    """One referee ``BotEntry`` per seat; each connects by starting the version in the sandbox.

    With ``recorders`` (one list per seat), each connection is wrapped in an
    ``arena.play.decision_stderr.DecisionStderr`` appended to that seat's list (one per game it plays)."""
    from arena.play.decision_stderr import DecisionStderr
    from arena.play.referee import BotEntry
    from sandbox import BotSpec, Limits

    entries = []
    for index, version in enumerate(versions):
        spec = BotSpec(bot_dir=version_dir(version), command=version.command, language=version.bot.language)

        def connect(spec: Any = spec, index: int = index) -> Any:
            conn = runner.start(spec, Limits())
            if recorders is None:
                return conn
            recorder = DecisionStderr(conn, game=len(recorders[index]))  # a bot is started once per game
            recorders[index].append(recorder)
            return recorder

        entries.append(BotEntry(name=version.bot.name, connect=connect))
    return entries


def play(
    rules: EngineRuleSet,
    versions: Sequence[BotVersion],
    seed: int,
    duplicate: bool = False,
    **match_settings: Any,
) -> MatchResult:
    """Play one match between ``versions`` (seat order) and return the referee's result, with each bot's
    per-decision stderr as ``decision_stderr``."""
    from arena.play.referee import MatchSettings, run_match

    runner = sandbox_runner()
    options = MatchSettings(**match_settings) if match_settings else MatchSettings()
    recorders: list[list[Any]] = [[] for _ in versions]
    result = run_match(rules, bot_entries(versions, runner, recorders), seed, options, duplicate=duplicate)
    # Each bot's stderr per decision, [game, seat, decision, text] rows, for its owner in the replay viewer
    # (stored by viewer.services.store_decision_logs).
    result.decision_stderr = [[row for r in rs for row in r.rows] for rs in recorders]
    return result
