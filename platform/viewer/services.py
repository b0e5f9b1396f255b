"""Viewer data for a match (built once from its replay, then cached), per-decision stderr, and the
command that plays the same game again on a developer's machine."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from arena.engine.replay_view import VIEW_VERSION, expand, game_replays, rules_spec
from arena.errors import ArenaError
from matches.models import Match, Participant, Replay
from viewer.models import DecisionLog, ReplayView, pack

#: At most this much of one bot's per-decision stderr is stored for a match (the rest is dropped).
MAX_LOG_BYTES = 256 * 1024


class ViewUnavailable(Exception):
    """The match has no replay for that game, or its replay no longer re-simulates (see the message)."""

    def __init__(self, message: str, status: int = 404) -> None:
        super().__init__(message)
        self.status = status


def game_count(match: Match, seats: int) -> int:
    """Games in a match's replay: one per seat rotation for duplicate deals, else one."""
    return seats if match.duplicate else 1


def view_data(match_id: int, game: int) -> bytes:
    """The gzip-compressed viewer JSON of one game of a match, built from its replay on first use.

    Raises :class:`ViewUnavailable` when there is no replay (status 404) or when the stored replay no
    longer re-simulates with this engine (409, with the engine's reason).
    """
    cached = (
        ReplayView.objects.filter(match_id=match_id, game=game, version=VIEW_VERSION)
        .values_list("data", flat=True)
        .first()
    )
    if cached is not None:
        return bytes(cached)
    replay = Replay.objects.filter(match_id=match_id).first()
    if replay is None:
        raise ViewUnavailable("This match has no replay (it is not finished).")
    stored = json.loads(replay.json_bytes())
    if not isinstance(stored, dict):
        raise ViewUnavailable("The stored replay is not a replay object.", 409)
    games = game_replays(stored)
    if not 0 <= game < len(games):
        raise ViewUnavailable(f"This match has {len(games)} game(s); there is no game {game}.")
    try:
        view = expand(games[game])
    except ArenaError as exc:
        raise ViewUnavailable(f"The replay cannot be re-simulated by this engine: {exc}", 409) from exc
    data, size = pack(view)
    try:
        with transaction.atomic():
            ReplayView.objects.update_or_create(
                match_id=match_id, game=game, defaults={"version": VIEW_VERSION, "data": data, "size": size}
            )
    except IntegrityError:  # another request stored it at the same moment: same bytes
        pass
    return data


def store_decision_logs(seats: Iterable[Participant], result: Any) -> None:
    """Keep each seat's per-decision stderr from the referee's result (``decision_stderr``: per bot, the
    ``[game, seat, decision, text]`` rows), capped at :data:`MAX_LOG_BYTES` per bot. Call it inside the
    transaction that records the result; a result without the field stores nothing."""
    logs = getattr(result, "decision_stderr", None) or []
    rows = []
    for seat in seats:
        entries = logs[seat.seat] if seat.seat < len(logs) else []
        kept: list[list[Any]] = []
        budget = MAX_LOG_BYTES
        for game, table_seat, decision, text in entries:
            if not text:
                continue
            budget -= len(text)
            if budget < 0:
                break
            kept.append([int(game), int(table_seat), int(decision), str(text)])
        if kept:
            data, _size = pack(kept)
            rows.append(DecisionLog(participant=seat, data=data, entries=len(kept)))
    if rows:
        DecisionLog.objects.bulk_create(rows, ignore_conflicts=True)


def stderr_by_decision(user: Any, match: Match, game: int) -> dict[str, dict[str, str]]:
    """``{seat: {decision: text}}`` of the seats in ``game`` whose bots ``user`` owns (staff: all)."""
    seats = Participant.objects.filter(match=match, decision_log__isnull=False).select_related(
        "bot", "decision_log"
    )
    result: dict[str, dict[str, str]] = {}
    for seat in seats:
        if not seat.bot.is_owned_by(user):
            continue
        for row_game, table_seat, decision, text in seat.decision_log.rows():
            if row_game == game:
                result.setdefault(str(table_seat), {})[str(decision)] = text
    return result


def bot_path(seat: Participant) -> str:
    """How the local command names a seat's bot version: an example bot by its short name (the
    ``uno-arena`` package ships the examples: ``random``, ``greedy``, ...); any other version as
    ``<bot>-v<number>/<entry point>``, the folder of its owner's source download."""
    from arena.play.examples import EXAMPLES

    version = seat.bot_version
    if seat.bot.owner.username == settings.UNO_ARENA_SYSTEM_USER:
        stem = seat.bot.name.replace("-", "_")
        for short, file in EXAMPLES.items():
            if version.entry_point == file or stem in (short, file.removesuffix(".py")):
                return short
        return seat.bot.name
    return f"{seat.bot.name}-v{version.number}/{version.entry_point}"


LOCAL_COMMAND = "uno-arena"
"""The local runner's command (the wheel of the guide; ``python -m arena`` in a clone is the same)."""


def reproduce_command(match: Match, seats: Sequence[Participant]) -> str:
    """A ``uno-arena match`` line that plays this match again from its seed with the same bot versions
    in the same seats (game 0 of ``--games 1`` uses ``--seed`` and keeps the seat order). The seed fixes
    the deal, every shuffle and each seat's seed in ``hello`` (``arena.play.protocol.seat_seed``), so
    bots that draw their randomness from it play exactly this game again."""
    parts = [LOCAL_COMMAND, "match", *(bot_path(s) for s in sorted(seats, key=lambda s: s.seat))]
    parts += ["--rules", rules_spec(match.ruleset.to_engine()), "--seed", str(match.seed), "--games", "1"]
    if match.duplicate:
        parts.append("--duplicate")
    parts += ["--replays", f"replays/match-{match.pk}"]
    return " ".join(shlex.quote(p) for p in parts)


def replay_filename(match: Match) -> str:
    """The name the viewer's replay download is saved under."""
    return f"match-{match.pk}.json"


def replay_command(match: Match) -> str:
    """The ``uno-arena replay`` line that prints the downloaded replay as a game log."""
    return " ".join(shlex.quote(p) for p in (LOCAL_COMMAND, "replay", replay_filename(match)))
