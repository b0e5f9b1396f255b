"""Replays: rule set + seed (or explicit deck) + the decisions, with per-decision metadata slots.

A replay re-simulates to exactly the same events and outcome; :func:`verify_replay` re-simulates and
raises :class:`ReplayError` when a decision is illegal or when the stored outcome or event digest differs
(a tampered replay). The format is specified in ``docs/replay-format.md``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from typing import Any, Final

from arena.engine.game import Game
from arena.engine.rules import RuleSet
from arena.errors import ArenaError, ReplayError

FORMAT: Final = "uno-arena-replay"
VERSION: Final = 1


def _sha256(value: Any) -> str:
    """SHA-256 of the canonical JSON of a value (sorted keys, no spaces, ASCII)."""
    payload = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(payload.encode()).hexdigest()


def events_digest(events: Sequence[dict[str, Any]]) -> str:
    """SHA-256 of the canonical JSON of an event list."""
    return _sha256(list(events))


def content_digest(replay: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of every field of a replay but ``sha256`` itself."""
    return _sha256({key: value for key, value in replay.items() if key != "sha256"})


def make_replay(
    game: Game,
    *,
    names: Sequence[str] | None = None,
    think_ms: Sequence[float | None] | None = None,
    faults: Sequence[dict[str, Any] | None] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The replay of a game (finished or not). ``think_ms`` and ``faults`` are per decision, in order."""
    decisions: list[list[Any]] = []
    for i, (seat, action) in enumerate(game.history):
        ms = think_ms[i] if think_ms is not None and i < len(think_ms) else None
        fault = faults[i] if faults is not None and i < len(faults) else None
        decisions.append([seat, action, None if ms is None else round(ms, 3), fault])
    replay: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "players": game.n,
        "seed": game.seed,
        "deck": game.explicit_deck,
        "dealer": game.explicit_dealer,
        "names": list(names) if names is not None else [f"seat {s}" for s in range(game.n)],
        "decisions": decisions,
        "outcome": game.outcome.to_dict() if game.outcome else None,
        "events_sha256": events_digest(game.events),
    }
    if game.start_position is not None:  # set up from a position (docs/position.md), not dealt
        replay["position"] = game.start_position
    if extra:
        replay["extra"] = extra
    replay["sha256"] = content_digest(replay)
    return replay


def _check_shape(replay: Any) -> None:
    if not isinstance(replay, dict):
        raise ReplayError(f"a replay is a JSON object, not {type(replay).__name__}")
    if replay.get("format") != FORMAT:
        raise ReplayError(
            f"not an UNO Arena replay (format is {replay.get('format')!r}, expected {FORMAT!r})"
        )
    if replay.get("version") != VERSION:
        raise ReplayError(
            f"replay version {replay.get('version')!r} is not supported (this engine reads {VERSION})"
        )
    for key, kind in (("rules", dict), ("players", int), ("seed", int), ("decisions", list)):
        if not isinstance(replay.get(key), kind):
            raise ReplayError(f"replay field {key!r} is missing or not a {kind.__name__}")
    deck, dealer = replay.get("deck"), replay.get("dealer")
    if deck is not None and not (isinstance(deck, list) and all(isinstance(code, str) for code in deck)):
        raise ReplayError(f"replay field 'deck' is not null or a list of card codes: {deck!r}")
    if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool)):
        raise ReplayError(f"replay field 'dealer' is not null or a seat number: {dealer!r}")
    if "position" in replay and not isinstance(replay["position"], str):
        raise ReplayError("replay field 'position' is not a position string (docs/position.md)")
    for i, decision in enumerate(replay["decisions"]):
        if not (
            isinstance(decision, list)
            and len(decision) == 4
            and isinstance(decision[0], int)
            and isinstance(decision[1], str)
        ):
            raise ReplayError(f"replay decision {i} is not [seat, action, think_ms, fault]: {decision!r}")


def new_game(replay: dict[str, Any]) -> Game:
    """A fresh game with the replay's rules, players, seed, deck and dealer, or set up at its starting
    position (no decisions applied)."""
    _check_shape(replay)
    try:
        if "position" in replay:
            game = Game.from_position(replay["position"], replay["seed"])
            if game.n != replay["players"] or game.rules != RuleSet.from_dict(replay["rules"]):
                raise ReplayError("replay position does not match its rules and players")
            return game
        rules = RuleSet.from_dict(replay["rules"])
        return Game(
            rules, replay["players"], replay["seed"], deck=replay.get("deck"), dealer=replay.get("dealer")
        )
    except ArenaError as exc:
        raise ReplayError(f"replay cannot start a game: {exc}") from exc


def steps(
    replay: dict[str, Any], game: Game | None = None
) -> Iterator[tuple[Game, int, list[dict[str, Any]]]]:
    """Re-simulate decision by decision, yielding (the game after it, decision index, its events)."""
    game = new_game(replay) if game is None else game
    for i, (seat, action, _ms, _fault) in enumerate(replay["decisions"]):
        try:
            events = game.apply(action, seat)
        except ArenaError as exc:
            raise ReplayError(f"replay decision {i} ({action!r} by seat {seat}) is illegal: {exc}") from exc
        yield game, i, events


def resimulate(replay: dict[str, Any]) -> Game:
    """Apply every decision of a replay to a fresh game and return it."""
    game = new_game(replay)
    for _ in steps(replay, game):
        pass
    return game


def verify_replay(replay: dict[str, Any]) -> Game:
    """Re-simulate and check the stored outcome, event digest and content digest (which also covers
    what does not change the play: unused rule options, names, think times, faults); raises ReplayError
    on any mismatch."""
    game = resimulate(replay)
    stored = replay.get("outcome")
    actual = game.outcome.to_dict() if game.outcome else None
    if stored != actual:
        raise ReplayError(
            f"replay outcome does not match its decisions: stored {stored}, re-simulated {actual}"
        )
    digest = events_digest(game.events)
    if replay.get("events_sha256") != digest:
        raise ReplayError("replay event digest does not match its re-simulation (the replay was altered)")
    if replay.get("sha256") != content_digest(replay):
        raise ReplayError("replay content digest does not match (the replay was altered)")
    return game
