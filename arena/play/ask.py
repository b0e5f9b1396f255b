"""Asking a bot program what it plays at a position (docs/position.md), through the referee's own link.

    >>> answer = ask("bots_examples/template_bot.py", "uno1 rules:classic ...")   # doctest: +SKIP
    >>> answer.action, answer.legal, answer.fault                                  # doctest: +SKIP
    ('R1!', ['R1', 'R1!', 'G2', 'draw'], None)

The bot is started by a sandbox runner (``process`` by default: this is for a developer's own bots), greeted
with the same ``hello`` and asked with the same ``request`` the referee sends in a match (the position's
observation and legal actions; no events: a position has no history), under the same clock, and every way it
can fail is reported as the referee's :class:`~arena.play.bot_link.Fault`. Bot authors unit-test their bots
with it (``bots_examples/test_template_bot.py``); ``python -m arena ask`` is the command line
(:mod:`arena.play.ask_cli`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.engine.game import PHASES, Game
from arena.errors import ArenaError
from arena.play import protocol
from arena.play.bot_link import BotLink, Fault
from arena.play.referee import MatchSettings


@dataclass(frozen=True)
class Answer:
    """What the bot did at the position: its ``action`` (None after a fault), whether it was legal, the
    legal actions it was offered, the seat and phase, its think time, its fault, the end of its stderr and
    the name it gave in ``ready``."""

    action: str | None
    legal: list[str]
    seat: int
    phase: str
    think_ms: float
    fault: Fault | None
    stderr: str
    name: str | None

    @property
    def ok(self) -> bool:
        """True when the bot answered a legal action."""
        return self.fault is None and self.action in self.legal

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``python -m arena ask --json``)."""
        return {
            "action": self.action,
            "ok": self.ok,
            "legal": self.legal,
            "seat": self.seat,
            "phase": self.phase,
            "think_ms": round(self.think_ms, 3),
            "fault": self.fault.public() if self.fault else None,
            "name": self.name,
        }


def ask(
    bot: str | Path,
    position: str,
    *,
    seat: int | None = None,
    runner: Any = "process",
    seed: int = 0,
    settings: MatchSettings | None = None,
) -> Answer:
    """Start ``bot`` (a ``.py`` or ``.js`` program, or an example's short name: ``template``...), show it ``position`` as the seat to move (``seat`` for
    one of several, e.g. slappers) and return its :class:`Answer`. ``runner`` is a runner name (``process``,
    ``bwrap``, ``docker``, ``auto``) or a runner object. Raises :class:`~arena.errors.PositionError` for a
    bad position and :class:`~arena.errors.ArenaError` when the seat is not to move there; a bot that
    misbehaves is never an exception, it is the answer's ``fault``."""
    from arena.play.examples import resolve_bot
    from arena.play.match_cli import bot_entries
    from sandbox import get_runner

    try:
        program = resolve_bot(str(bot))
    except ValueError as exc:
        raise ArenaError(str(exc)) from None
    game = Game.from_position(position, seed)
    if game.is_over:
        raise ArenaError("the game is over at this position: there is no decision to ask about")
    if seat is None:
        seat = game.to_move[0]
    elif seat not in game.to_move:
        raise ArenaError(f"seat {seat} is not to move at this position (to move: {list(game.to_move)})")
    if isinstance(runner, str):
        runner = get_runner(None if runner == "auto" else runner)
    settings = settings or MatchSettings()
    entry = bot_entries([str(program)], runner)[0]
    legal = list(game.legal_actions(seat))
    link = BotLink(seat, entry.name, settings.link_limits())
    names = [entry.name if s == seat else f"seat {s}" for s in range(game.n)]
    hello = protocol.hello(
        seat, game.n, names, game.rules.to_dict(), settings.limits(), protocol.seat_seed(seed, 0, seat)
    )
    decision = 0
    action: str | None = None
    think = 0.0
    try:
        link.start(entry.connect, protocol.encode(hello))
        if link.live:
            request = protocol.encode_request(decision, legal, game.observation(seat), [], link.bank)
            action, think = link.ask(request, decision)
        if action is not None and action not in legal:
            message = f"{action!r} is not legal here; legal: {', '.join(legal)}"
            link.stop("illegal_action", decision, message, tell=True)
    finally:
        link.close()
    return Answer(
        action=action,
        legal=legal,
        seat=seat,
        phase=PHASES[game.phase],
        think_ms=think * 1000.0,
        fault=link.fault,
        stderr=link.stderr,
        name=link.bot_name,
    )
