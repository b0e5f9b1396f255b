"""What the pages and tasks call: saving a league with its schedule, entering bots, the sweep."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from bots.models import Bot, SmokeStatus
from leagues.models import Entrant, Entry, League, LeagueStatus
from leagues.rounds import advance, on_match_final, open_rounds

log = logging.getLogger(__name__)

__all__ = ["advance", "enter", "on_match_final", "save_league", "sweep_leagues", "withdraw"]


def save_league(league: League, user: Any = None) -> League:
    """Save a league (new or edited); its beat schedule follows in the same transaction (a ``post_save``
    hook, ``leagues.apps``, so the admin, the shell and fixtures schedule it too)."""
    with transaction.atomic():
        if league.pk is None and user is not None and getattr(user, "is_authenticated", False):
            league.created_by = user
        league.save()
    return league


def _check_entry(league: League, bot: Bot, user: Any) -> None:
    if not bot.is_owned_by(user):
        raise PermissionDenied("Only the bot's owner can enter or withdraw it.")
    if league.entry != Entry.OPT_IN:
        raise ValidationError("Every active bot plays in this league; there is nothing to enter.")
    if league.status != LeagueStatus.UPCOMING:
        raise ValidationError("Entries are closed: the league has started.")


def enter(league: League, bot: Bot, user: Any) -> Entrant:
    """The owner enters ``bot`` in an upcoming opt-in league (idempotent)."""
    _check_entry(league, bot, user)
    version = bot.active_version
    if not bot.is_active or version is None or version.smoke_status == SmokeStatus.FAILED:
        raise ValidationError(f"{bot.name} is not active or its version failed its smoke test.")
    entrant, _ = Entrant.objects.get_or_create(league=league, bot=bot)
    return entrant


def withdraw(league: League, bot: Bot, user: Any) -> bool:
    """The owner withdraws ``bot`` before the league starts. Returns whether it was entered."""
    _check_entry(league, bot, user)
    deleted, _ = Entrant.objects.filter(league=league, bot=bot).delete()
    return bool(deleted)


def sweep_leagues() -> int:
    """Close rounds whose last match notification was missed (e.g. a worker died after the commit).
    Returns the number of leagues looked at."""
    from leagues.rounds import close_round, lock
    from leagues.standings import update_standings

    pending = open_rounds()
    for league_id, round_ids in pending.items():
        with transaction.atomic():
            league = lock(league_id)
            for league_round in league.round_set.filter(pk__in=round_ids):
                close_round(league, league_round)
            update_standings(league)
    return len(pending)
