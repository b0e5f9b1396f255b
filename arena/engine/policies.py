"""Built-in in-process policies for simulations: ``random`` and ``greedy``.

A policy is a function ``(game, seat, legal, rng) -> action``. It may look only at what
``game.observation(seat)`` shows (its own hand, the top card, the colour, hand sizes): the built-in ones
read those few fields straight from the game for speed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from arena.engine.actions import ACTIONS, PLAY
from arena.engine.cards import CARDS
from arena.engine.game import Game

Policy = Callable[[Game, int, list[str], random.Random], str]


def random_policy(game: Game, seat: int, legal: list[str], rng: random.Random) -> str:
    """A uniformly random legal action."""
    return legal[rng.randrange(len(legal))]


def _best_colour(game: Game, seat: int) -> int:
    counts = [0, 0, 0, 0]
    for card in game.hands[seat]:
        colour = CARDS[card].colour
        if colour >= 0:
            counts[colour] += CARDS[card].points + 1
    return max(range(4), key=counts.__getitem__)


def greedy_policy(game: Game, seat: int, legal: list[str], rng: random.Random) -> str:
    """Play the highest-value playable card (declaring UNO when it leaves one card, naming the colour it
    holds most of); say UNO, catch, slap and jump in whenever it can; never challenge; swap with the
    smallest hand."""
    if len(legal) == 1:
        return legal[0]
    for always in ("slap", "catch", "say_uno"):
        if always in legal:
            return always
    last_but_one = len(game.hands[seat]) == 2
    if legal[0].startswith("color:"):
        return legal[_best_colour(game, seat)]
    if legal[0].startswith("swap:"):
        return min(legal, key=lambda a: len(game.hands[int(a[5:])]))
    best = ""
    best_value = -1
    colour = "RYGB"[_best_colour(game, seat)]
    for action in legal:
        parsed = ACTIONS[action]
        if parsed.kind != PLAY:
            continue
        if ":" in action and action.split(":")[1][0] != colour:
            continue
        if parsed.uno and not last_but_one:
            continue  # a false UNO call (false_uno) costs cards
        value = CARDS[parsed.card].points * 2 + parsed.uno
        if value > best_value:
            best, best_value = action, value
    if best:
        return best
    for fallback in ("take", "draw", "keep", "pass"):
        if fallback in legal:
            return fallback
    return legal[0]


def rlcard_like_policy(game: Game, seat: int, legal: list[str], rng: random.Random) -> str:
    """Random play under RLCard's UNO semantics, for like-for-like benchmarks: a uniformly random card
    play when there is one; draw only when there is none; always play a playable drawn card; always
    declare UNO (truly); never challenge; take every other out-of-turn chance (catch, jump in, slap)."""
    last = legal[-1]
    if len(legal) > 1 and (last == "draw" or last == "keep" or last == "pass" or last == "take"):
        if len(game.hands[seat]) == 2:
            legal = [a for a in legal if a[-1] == "!"] or legal[:-1]
        elif game.rules.false_uno:
            legal = [a for a in legal[:-1] if a[-1] != "!"]
        else:
            legal = legal[:-1]
        if legal[-1] == "challenge":
            return "take"
    return legal[rng.randrange(len(legal))]


POLICIES: Final[dict[str, Policy]] = {
    "random": random_policy,
    "greedy": greedy_policy,
    "rlcard-like": rlcard_like_policy,
}
"""Built-in policies by name."""
