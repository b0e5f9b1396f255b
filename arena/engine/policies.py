"""Built-in in-process policies for simulations: ``random``, ``greedy``, ``heuristic`` and ``rlcard-like``.

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


def _routine(game: Game, seat: int, legal: list[str]) -> str:
    """The choices greedy and heuristic make alike ("" for a choice of cards): a forced move; say UNO,
    catch and slap whenever possible; name the colour held most; swap with the smallest hand."""
    if len(legal) == 1:
        return legal[0]
    for always in ("slap", "catch", "say_uno"):
        if always in legal:
            return always
    if legal[0].startswith("color:"):
        return legal[_best_colour(game, seat)]
    if legal[0].startswith("swap:"):
        return min(legal, key=lambda a: len(game.hands[int(a[5:])]))
    return ""


def _no_play(legal: list[str]) -> str:
    """What to do when no card is chosen: take the penalty, draw, keep the drawn card or pass."""
    for fallback in ("take", "draw", "keep", "pass"):
        if fallback in legal:
            return fallback
    return legal[0]


def greedy_policy(game: Game, seat: int, legal: list[str], rng: random.Random) -> str:
    """Play the highest-value playable card (declaring UNO when it leaves one card, naming the colour it
    holds most of); say UNO, catch, slap and jump in whenever it can; never challenge; swap with the
    smallest hand."""
    routine = _routine(game, seat, legal)
    if routine:
        return routine
    last_but_one = len(game.hands[seat]) == 2
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
    return best or _no_play(legal)


def _next_in_hand(game: Game, seat: int) -> int:
    """The next seat in the direction of play that still holds cards (``seat`` if none does)."""
    n = game.n
    nxt = (seat + game.direction) % n
    while nxt != seat and not game.hands[nxt]:
        nxt = (nxt + game.direction) % n
    return nxt


def colour_counts(hand: list[int]) -> list[int]:
    """How many cards of each colour (0..3) a hand of card ids holds; wilds count for none."""
    counts = [0, 0, 0, 0]
    for card in hand:
        colour = CARDS[card].colour
        if colour >= 0:
            counts[colour] += 1
    return counts


def play_value(card: int, counts: list[int], last_but_one: bool, threat: bool, players: int) -> float:
    """How :func:`heuristic_policy` values playing ``card`` from a hand of these colour ``counts``: a wild
    -20 (40 for one of the last two cards, +45 for a draw card against a ``threat``: the next seat holds two
    cards or fewer), a coloured card twice its colour's count plus a tenth of its points (+15 for a draw,
    skip or heads-up reverse against a threat). The search bot's opponent model judges plays by it too."""
    kind = CARDS[card]
    if kind.colour < 0:
        value = 40.0 if last_but_one else -20.0
        if threat and kind.draw:
            value += 45.0
        return value
    value = 2.0 * counts[kind.colour] + kind.points / 10.0
    if threat and (kind.draw or kind.rank == "S" or (kind.rank == "R" and players == 2)):
        value += 15.0
    return value


def heuristic_policy(game: Game, seat: int, legal: list[str], rng: random.Random) -> str:
    """A fast stand-in for the strategist (``bots_examples/strategist.py``), for playouts: keep wilds for
    when nothing else plays (or the last two cards), follow the colour the hand holds most of, hit the next
    seat with draws, skips and reverses when it holds two cards or fewer, dump points otherwise; name the
    colour held most; play a playable drawn card; say UNO, catch, slap and jump in whenever it can; never
    challenge; swap with the smallest hand."""
    routine = _routine(game, seat, legal)
    if routine:
        return routine
    hand = game.hands[seat]
    last_but_one = len(hand) == 2
    counts = colour_counts(hand)
    named = max(range(4), key=counts.__getitem__)
    threat = len(game.hands[_next_in_hand(game, seat)]) <= 2
    best = ""
    best_value = -1000.0
    for action in legal:
        parsed = ACTIONS[action]
        if parsed.kind != PLAY:
            continue
        if parsed.uno and not last_but_one:
            continue  # a false UNO call (false_uno) costs cards
        if CARDS[parsed.card].colour < 0 and parsed.colour >= 0 and parsed.colour != named:
            continue
        value = play_value(parsed.card, counts, last_but_one, threat, game.n) + parsed.uno
        if value > best_value:
            best, best_value = action, value
    return best or _no_play(legal)


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
    "heuristic": heuristic_policy,
    "rlcard-like": rlcard_like_policy,
}
"""Built-in policies by name."""


def play_hand_out(game: Game, hand_no: int, rng: random.Random, moves: int) -> bool:
    """Play hand ``hand_no`` of ``game`` on with :func:`heuristic_policy` for every seat until it ends
    (or the game does); ``False`` when it is still going after ``moves`` moves. A search's playout:
    here, so that the compiled engine runs the whole loop."""
    for _ in range(moves):
        if game.is_over or game.hand_no != hand_no:
            return True
        mover = game.to_move[0]
        game.apply(heuristic_policy(game, mover, game.legal_actions(mover), rng), mover)
    return game.is_over or game.hand_no != hand_no
