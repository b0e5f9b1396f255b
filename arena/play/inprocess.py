"""Playing protocol bots in-process, for fast measurements (no processes, no JSON).

A *local bot* is any object with the uno_bot helper's hooks (``on_hello``, ``on_event``, ``decide``,
``on_hand_end``, ``on_match_end``), e.g. the classes of ``bots_examples/``. :func:`play_local` sends them
the same messages the referee would (built by :mod:`arena.play.protocol`, as dicts instead of JSON lines), so
a bot's policy is measured exactly as it plays through the referee, thousands of times faster (forced
moves are played without asking, as the referee does). There is no clock and no fault handling: an
illegal action raises. Simultaneous slaps are taken in seat order rotated by the game's seed.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from arena.engine.game import Game, redact
from arena.engine.rules import RuleSet
from arena.play import protocol

_LIMITS = {"decision_timeout": None, "time_bank": None, "startup_timeout": None, "max_line_bytes": None}


class LocalBot(Protocol):
    """The hooks of ``bots_examples/uno_bot.py``'s ``Bot``."""

    def on_hello(self, hello: dict[str, Any]) -> None:
        """The greeting."""

    def on_event(self, event: dict[str, Any]) -> None:
        """One public event."""

    def decide(self, request: dict[str, Any]) -> str:
        """An action for a request."""
        ...

    def on_hand_end(self, message: dict[str, Any]) -> None:
        """The end of a hand."""

    def on_match_end(self, message: dict[str, Any]) -> None:
        """The end of the match."""


def load_bot_module(path: str | Path) -> ModuleType:
    """Import a single-file bot (e.g. ``bots_examples/strategist.py``) as a module, without running it."""
    path = Path(path).resolve()
    name = f"uno_arena_bot_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.append(folder)  # bots import helpers that sit next to them (e.g. uno_bot.py)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import a bot from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]  # never leave a half-imported bot for the next caller to find
        raise
    return module


def play_local(
    rules: RuleSet,
    bots: list[LocalBot],
    seed: int,
    limits: dict[str, Any] | None = None,
    on_deal: Callable[[Game], None] | None = None,
) -> Game:
    """Play one game between local bots (seat order) and return the finished game. ``limits`` are what
    ``hello`` announces (``MatchSettings.limits()``; by default none): a bot that budgets its time by them
    (the search bot's levels) plays as under the referee, though nothing here enforces them. ``on_deal``
    is called with the live game before the first message (a benchmark's omniscient diagnostic watches
    it: ``bench/strength.py``'s oracle; no bot under the referee can)."""
    n = len(bots)
    game = Game(rules, n, seed)
    if on_deal is not None:
        on_deal(game)
    names = [type(b).__name__ for b in bots]
    rules_dict = rules.to_dict()
    announced = _LIMITS if limits is None else limits
    for seat, bot in enumerate(bots):
        bot.on_hello(protocol.hello(seat, n, names, rules_dict, announced, protocol.seat_seed(seed, 0, seat)))
    cursors = [0] * n
    events = game.events

    def pending(seat: int, upto: int | None = None) -> list[dict[str, Any]]:
        end = len(events) if upto is None else upto
        out = [redact(e, seat) for e in events[cursors[seat] : end]]
        cursors[seat] = end
        return out

    def apply(action: str, seat: int) -> None:
        start = len(events)
        game.apply(action, seat)
        for index in range(start, len(events)):
            event = events[index]
            if event["type"] == "hand_end":
                for s, bot in enumerate(bots):
                    message = protocol.hand_end(event, pending(s, index + 1))
                    for e in message["events"]:
                        bot.on_event(e)
                    bot.on_hand_end(message)

    while not game.is_over:
        to_move = game.to_move
        if len(to_move) > 1:
            shift = (seed + len(game.history)) % len(to_move)
            order = list(to_move[shift:] + to_move[:shift])
        else:
            order = [to_move[0]]
        for seat in order:
            legal = game.legal_actions(seat)
            if len(legal) == 1 and len(order) == 1:  # forced: the referee plays it without asking
                apply(legal[0], seat)
                continue
            request = protocol.request(len(game.history), legal, game.observation(seat), pending(seat), 0.0)
            for event in request["events"]:
                bots[seat].on_event(event)
            apply(bots[seat].decide(request), seat)
            if game.is_over:
                break
    assert game.outcome is not None
    for seat, bot in enumerate(bots):
        message = protocol.match_end(
            game.outcome.places, game.scores, game.outcome.termination, [None] * n, pending(seat)
        )
        for e in message["events"]:
            bot.on_event(e)
        bot.on_match_end(message)
    return game
