"""Running a match through the referee and the sandbox (no database writes here)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings

from bots.models import BotVersion
from bots.storage import version_dir

if TYPE_CHECKING:
    from arena.engine.rules import RuleSet as EngineRuleSet
    from arena.play.referee import MatchResult


#: Seconds of a match task's time limit kept for starting, recording and closing, not given to the bots.
MATCH_OVERHEAD = 60.0


def game_time(players: int, games: int = 1) -> float:
    """Each bot's thinking time for one game (``MatchSettings.game_time``): an equal share of the match
    task's time limit less :data:`MATCH_OVERHEAD`, between the ``players`` bots and the ``games`` that
    share that limit (a duplicate match plays one game per rotation), so that however slowly the bots
    answer, the games end (a bot out of time is faulted) and are recorded before the task's time limit
    stops them unrecorded. (A series' time limit is the match limit times its matches.)"""
    share = (settings.UNO_ARENA_MATCH_TIME_LIMIT - MATCH_OVERHEAD) / (max(1, players) * max(1, games))
    return max(1.0, share)


def match_options(players: int, games: int = 1, **match_settings: Any) -> Any:
    """The ``MatchSettings`` of a match of ``players`` bots playing ``games`` games: the defaults, the
    game time, then ``match_settings``."""
    from arena.play.referee import MatchSettings

    return MatchSettings(**{"game_time": game_time(players, games), **match_settings})


def sandbox_runner() -> Any:
    """The sandbox runner configured by ``UNO_ARENA_RUNNER`` (``auto`` picks the strongest available)."""
    from sandbox import get_runner

    name = settings.UNO_ARENA_RUNNER
    return get_runner(None if name == "auto" else name, production=settings.PRODUCTION)


def bot_entries(
    versions: Sequence[BotVersion],
    runner: Any,
    recorders: list[list[Any]] | None = None,
    game: Callable[[], int] | None = None,
) -> list[Any]:
    """One referee ``BotEntry`` per seat; each connects by starting the version in the sandbox.

    With ``recorders`` (one list per seat), each connection is wrapped in an
    ``arena.play.decision_stderr.DecisionStderr`` appended to that seat's list (one per game it plays,
    or per sandbox in a series); ``game()`` says which game a connection starts in (default: the number
    of connections that bot made before)."""
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
            number = len(recorders[index]) if game is None else game()
            recorder = DecisionStderr(conn, game=number)

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
    from arena.play.referee import run_match

    runner = sandbox_runner()
    rotations = len(versions) if duplicate else 1  # a duplicate match: a game per rotation
    options = match_options(len(versions), rotations, **match_settings)
    recorders: list[list[Any]] = [[] for _ in versions]
    result = run_match(rules, bot_entries(versions, runner, recorders), seed, options, duplicate=duplicate)
    # Each bot's stderr per decision, [game, seat, decision, text] rows, for its owner in the replay viewer
    # (stored by viewer.services.store_decision_logs).
    result.decision_stderr = [[row for r in rs for row in r.rows] for rs in recorders]
    return result


def play_series(
    rules: EngineRuleSet,
    games: Sequence[tuple[Sequence[BotVersion], int]],
    on_game: Callable[[int, MatchResult], None],
    **match_settings: Any,
) -> None:
    """Play the games of a series, each ``(versions in seat order, seed)``, through the referee's
    ``run_series``: a bot that supports series keeps one sandbox for all its games. Every game must seat
    the same versions (in any order) and have its own seed. ``on_game(k, result)`` gets each game's
    result as it ends, with that game's per-decision stderr as ``decision_stderr`` (game 0 of its own
    replay, as :func:`play` gives it)."""
    from arena.play.referee import SeriesGame, run_series

    first = list(games[0][0])
    index = {version.pk: k for k, version in enumerate(first)}
    plan = []
    for versions, seed in games:
        if sorted(v.pk for v in versions) != sorted(index):
            raise ValueError("every game of a series seats the same versions")
        plan.append(SeriesGame(seed, tuple(index[v.pk] for v in versions)))
    runner = sandbox_runner()
    options = match_options(len(first), **match_settings)
    recorders: list[list[Any]] = [[] for _ in first]
    current = [0]
    entries = bot_entries(first, runner, recorders, game=lambda: current[0])

    def ended(k: int, result: MatchResult) -> None:
        seats = plan[k].seats or ()
        result.decision_stderr = [
            [[0, *row[1:]] for r in recorders[bot] for row in r.rows if row[0] == k] for bot in seats
        ]
        current[0] = k + 1
        on_game(k, result)

    run_series(rules, entries, plan, options, on_game=ended)


def play_duplicate_series(
    rules: EngineRuleSet,
    versions: Sequence[BotVersion],
    seeds: Sequence[int],
    on_match: Callable[[int, MatchResult], None],
    on_game: Callable[[int, int], None] | None = None,
    **match_settings: Any,
) -> None:
    """Play one duplicate match per seed between ``versions`` (seat order) through the referee's
    ``run_duplicate_series``: rotation-major, one set of sandboxes per rotation (a bot that supports
    series keeps its sandbox for every deal of a rotation, never for two rotations of one deal).
    ``on_match(k, result)`` gets each match's result as its last rotation ends, with its per-decision
    stderr as ``decision_stderr`` (games numbered by rotation, as :func:`play` gives them);
    ``on_game(k, rotation)`` is called after every game."""
    from arena.play.referee import run_duplicate_series

    runner = sandbox_runner()
    options = match_options(len(versions), len(versions), **match_settings)  # a game per rotation
    recorders: list[list[Any]] = [[] for _ in versions]
    deals = len(seeds)
    current = [0]  # the game being played, counted in play order (rotation * deals + deal)
    entries = bot_entries(versions, runner, recorders, game=lambda: current[0])

    def game_ended(k: int, rotation: int) -> None:
        current[0] = rotation * deals + k + 1
        if on_game is not None:
            on_game(k, rotation)

    def match_ended(k: int, result: MatchResult) -> None:
        order = {rotation * deals + k: rotation for rotation in range(len(versions))}
        result.decision_stderr = [
            [[order[row[0]], *row[1:]] for r in recorders[bot] for row in r.rows if row[0] in order]
            for bot in range(len(versions))
        ]
        on_match(k, result)

    run_duplicate_series(rules, entries, seeds, options, on_match=match_ended, on_game=game_ended)
