"""What a replay viewer needs, derived from a stored replay by re-simulating it (``uno-arena-view`` v2).

A replay stores only the rule set, the seed and the decisions (``docs/replay-format.md``). A viewer needs
more: the omniscient event list, for every decision the legal actions that were offered and the range of
events it caused, who was to move in which phase at every point, where the hands begin, and the order of
the draw pile whenever a shuffle changed it. :func:`expand` re-simulates the replay with the engine
(:func:`arena.engine.replay.steps`) and returns all of that as one JSON-ready dict; the browser module
``platform/static/viewer/table.js`` rebuilds the table at any point from it (``docs/viewer.md``).

>>> from arena.engine.game import Game
>>> from arena.engine.replay import make_replay
>>> from arena.engine.rules import preset
>>> game = Game(preset("classic-single"), players=2, seed=3)
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[0])
>>> view = expand(make_replay(game))
>>> len(view["bounds"]) == len(view["decisions"]) + 1 and view["bounds"][-1] == len(view["events"])
True

Positions: ``bounds[i]`` is the index of the first event of decision ``i`` (so the table *before* decision
``i`` is the state after ``events[:bounds[i]]``); ``bounds[-1]`` is the number of events. The events before
``bounds[0]`` are the first deal. ``points[i]`` is the engine's ``[phase, current, turn, to_move, control]``
at ``bounds[i]``, where ``control`` is the middle of the complete position there (docs/position.md: the
fields from ``move`` to ``places``, :func:`arena.engine.position.control`); table.js adds the rest from the
table it rebuilt, so the viewer can copy the position at every decision without a position per decision
in the data.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from arena.engine.cards import CARDS, DECK_SIZES
from arena.engine.game import PHASES, Game
from arena.engine.position import control
from arena.engine.replay import events_digest, new_game, steps
from arena.engine.rules import rules_spec
from arena.errors import ReplayError

VIEW_FORMAT: Final = "uno-arena-view"
VIEW_VERSION: Final = 2
"""Bumped whenever the shape of :func:`expand`'s result changes (cached expansions are then rebuilt)."""

DUPLICATE_FORMAT: Final = "uno-arena-duplicate"
"""The referee's container of one replay per seat rotation (``arena.play.referee.DUPLICATE_FORMAT``)."""

_PILE_CHANGES: Final = frozenset({"flip", "reshuffle", "mercy"})


def game_replays(replay: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The game replays in a stored replay: itself, or each game of a duplicate-deal container."""
    if replay.get("format") == DUPLICATE_FORMAT:
        games = replay.get("games")
        if not isinstance(games, list) or not games:
            raise ReplayError("a duplicate-deal replay without games")
        return [dict(g) for g in games]
    return [dict(replay)]


def _point(game: Game) -> list[Any]:
    """``[phase, current, turn, to_move, control]`` of the game now."""
    return [PHASES[game.phase], game.cur, game.turns, list(game.to_move), " ".join(control(game))]


def _pile(game: Game) -> list[str]:
    """The draw pile, top card last (as ``Game.omniscient()["draw_order"]``)."""
    return [CARDS[c].code for c in game.draw_pile]


def _hand_rows(events: list[dict[str, Any]], bounds: list[int]) -> Iterator[list[int]]:
    """``[hand_no, dealer, index of its "hand" event, first decision of the hand]`` per hand."""
    decision = 0
    for index, event in enumerate(events):
        if event["type"] == "hand":
            while decision < len(bounds) - 1 and bounds[decision] <= index:
                decision += 1
            yield [event["hand_no"], event["dealer"], index, decision]


def expand(replay: Mapping[str, Any], *, verify: bool = True) -> dict[str, Any]:
    """Re-simulate one game's replay and return the viewer's data (the module docstring has the shape).

    ``verify`` checks the re-simulated events against the replay's digest and outcome, so a viewer never
    shows a game that differs from the stored one. Raises :class:`~arena.errors.ReplayError` on an illegal
    decision, a mismatch, or a duplicate-deal container (pass one of :func:`game_replays`).
    """
    if replay.get("format") == DUPLICATE_FORMAT:
        raise ReplayError("expand one game of a duplicate-deal replay (see game_replays)")
    replay = dict(replay)
    if "position" in replay:
        raise ReplayError(
            "the viewer shows dealt games; this one was set up at a position (python -m arena replay)"
        )
    game = new_game(replay)
    decisions_in = replay["decisions"]
    bounds = [len(game.events)]
    points = [_point(game)]
    piles: dict[str, list[str]] = {"0": _pile(game)}
    decisions: list[list[Any]] = []
    legal = list(game.legal_actions(decisions_in[0][0])) if decisions_in else []
    for _same, index, events in steps(replay, game):
        seat, action, think_ms, fault = decisions_in[index]
        decisions.append([seat, action, think_ms, fault, legal])
        bounds.append(len(game.events))
        points.append(_point(game))
        if any(e["type"] in _PILE_CHANGES for e in events):
            piles[str(index + 1)] = _pile(game)
        if index + 1 < len(decisions_in):
            legal = list(game.legal_actions(decisions_in[index + 1][0]))
    if verify:
        stored = replay.get("outcome")
        actual = game.outcome.to_dict() if game.outcome else None
        if stored != actual:
            raise ReplayError(
                f"replay outcome does not match its decisions: stored {stored}, re-simulated {actual}"
            )
        if replay.get("events_sha256") not in (None, events_digest(game.events)):
            raise ReplayError("replay event digest does not match its re-simulation (the replay was altered)")
    rules = game.rules
    deck = replay.get("deck")
    referee = (replay.get("extra") or {}).get("referee") or {}
    return {
        "format": VIEW_FORMAT,
        "version": VIEW_VERSION,
        "players": game.n,
        "names": list(replay.get("names") or [f"seat {s}" for s in range(game.n)]),
        "seed": game.seed,
        "rules": rules.to_dict(),
        "rules_spec": rules_spec(rules),
        "deck_size": len(deck) if deck else DECK_SIZES[rules.deck],
        "cards": [[c.code, c.colour, c.rank, c.draw, c.points] for c in CARDS],
        "restricted": sorted(rules.restricted),
        "events": game.events,
        "bounds": bounds,
        "decisions": decisions,
        "points": points,
        "piles": piles,
        "hands": list(_hand_rows(game.events, bounds)),
        "outcome": game.outcome.to_dict() if game.outcome else None,
        "seating": referee.get("seating"),
        "faults": referee.get("faults"),
    }
