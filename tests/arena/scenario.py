"""Fixed-deal scenarios: a Game built from a readable description of who holds what.

    game = deal("classic", hands=[["R5", "B3"], ["G1", "Y2"], ["W", "R9"]], first="R7", pile=["B1", "G2"])

``hands[s]`` are seat ``s``'s cards (every hand the same size: that size becomes the rule set's
``hand_size``), ``first`` is the card turned up to start the discard pile and ``pile`` the rest of the
draw pile, top first. The dealer defaults to the last seat, so seat 0 (the dealer's left) starts.
The helper turns this into the engine's ``deck=`` order: cards are dealt one at a time starting from
the player left of the dealer, then the next card is turned up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.engine.actions import PLAY, parse_action
from arena.engine.cards import card_code
from arena.engine.game import Game
from arena.engine.rules import RuleSet, preset


def deck_order(hands: Sequence[Sequence[str]], first: str, pile: Sequence[str], dealer: int) -> list[str]:
    """The ``deck=`` list (top of the draw pile first) that deals ``hands``, turns up ``first``
    and leaves ``pile`` as the draw pile."""
    n = len(hands)
    size = len(hands[0])
    if any(len(h) != size for h in hands):
        raise ValueError(f"every hand must have the same size, not {[len(h) for h in hands]}")
    order = [(dealer + 1 + i) % n for i in range(n)]
    deck = [hands[seat][k] for k in range(size) for seat in order]
    return [*deck, first, *pile]


def deal(
    rules: RuleSet | str,
    hands: Sequence[Sequence[str]],
    first: str,
    pile: Sequence[str] = (),
    *,
    dealer: int | None = None,
    seed: int = 0,
    **options: Any,
) -> Game:
    """A game whose first hand is dealt exactly as described. ``options`` override rule options."""
    if isinstance(rules, str):
        rules = preset(rules)
    dealer = len(hands) - 1 if dealer is None else dealer
    changes = dict(options)
    if rules.hand_size != len(hands[0]):
        changes["hand_size"] = len(hands[0])
    if changes:
        rules = rules.replace(**changes)
    return Game(rules, len(hands), seed, deck=deck_order(hands, first, pile, dealer), dealer=dealer)


def cards(*codes: str) -> list[str]:
    """Card codes in a canonical (sorted) order, to compare with :func:`hand`."""
    return sorted(codes)


def hand(game: Game, seat: int) -> list[str]:
    """A seat's hand as sorted card codes."""
    return sorted(game.omniscient()["hands"][seat])


def hands(game: Game) -> list[list[str]]:
    """Every hand as sorted card codes."""
    return [sorted(h) for h in game.omniscient()["hands"]]


def playable(game: Game, seat: int | None = None) -> set[str]:
    """The codes of the cards ``seat`` (default: the current player) may play now."""
    return {card_code(parse_action(a).card) for a in game.legal_actions(seat) if parse_action(a).kind == PLAY}


def state(game: Game) -> dict[str, Any]:
    """Everything that must not change when an action is rejected."""
    return {
        "view": game.omniscient(),
        "history": list(game.history),
        "events": len(game.events),
        "legal": {s: list(game.legal_actions(s)) for s in range(game.n)},
    }


def play(game: Game, *actions: str | tuple[int, str]) -> None:
    """Apply actions in order; a bare string is played by the current player, ``(seat, action)`` by that seat."""
    for action in actions:
        if isinstance(action, tuple):
            game.apply(action[1], action[0])
        else:
            game.apply(action)


def events_of(game: Game, kind: str, start: int = 0) -> list[dict[str, Any]]:
    """The events of one type (from index ``start``)."""
    return [e for e in game.events[start:] if e["type"] == kind]
