"""The strategist's weights (``bots_examples/strategist.WEIGHTS``): each one that a variant sets moves the
choice it says it moves, and the weights the strategist plays by are its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena.play.inprocess import load_bot_module

EXAMPLES = Path(__file__).resolve().parents[2] / "bots_examples"
strategist = load_bot_module(EXAMPLES / "strategist.py")
search_bot = load_bot_module(EXAMPLES / "search_bot.py")


def request(hand: list[str], legal: list[str], sizes: list[int], seat: int = 0, **obs: Any) -> dict[str, Any]:
    """A turn request for ``seat`` holding ``hand``, with these hand sizes (the red 5 on top)."""
    players = len(sizes)
    observation = {
        "seat": seat,
        "players": players,
        "phase": "turn",
        "hand": hand,
        "top": "R5",
        "color": "R",
        "direction": 1,
        "hand_sizes": sizes,
        "pending_draw": 0,
        "out": [False] * players,
        "mercy": [False] * players,
        **obs,
    }
    return {"type": "request", "id": 1, "legal": legal, "observation": observation}


def memory(players: int) -> Any:
    """A fresh memory of seat 0."""
    return strategist.Memory(0, players, {})


def variant(**changes: Any) -> dict[str, Any]:
    """The strategist's weights with ``changes``."""
    assert set(changes) <= set(strategist.WEIGHTS)
    return {**strategist.WEIGHTS, **changes}


def test_a_colour_the_next_seat_drew_on_is_played_into_with_lacks_calm() -> None:
    # Red 5 on top; the next seat (4 cards: no threat) drew on blue. B5 turns the colour to blue, R2 keeps
    # red, which the hand holds more of.
    mem = memory(2)
    mem.lacks[1].add("B")
    req = request(["R2", "B5", "R7", "Y9"], ["R2", "B5", "draw"], [4, 4])
    assert strategist.choose(req, mem) == "R2"
    assert strategist.choose(req, mem, variant(lacks_calm=4.0)) == "B5"


def test_a_skip_that_hands_the_turn_to_a_threat_is_avoided_with_hands_on() -> None:
    # Four seats: the seat after next holds one card, so a skip hands it the turn.
    req = request(["RS", "R3", "G1", "Y9", "B2"], ["RS", "R3", "draw"], [5, 6, 1, 6])
    assert strategist.choose(req, memory(4)) == "RS"  # points: a skip is worth 20, a 3 three
    assert strategist.choose(req, memory(4), variant(hands_on=6.0)) == "R3"


def test_a_reverse_that_hands_the_turn_back_to_a_threat_is_avoided_with_hands_on() -> None:
    # The seat before ours holds one card: a reverse makes it next.
    req = request(["RR", "R3", "G1", "Y9", "B2"], ["RR", "R3", "draw"], [5, 6, 6, 1])
    assert strategist.choose(req, memory(4)) == "RR"
    assert strategist.choose(req, memory(4), variant(hands_on=6.0)) == "R3"
    calm = request(["RR", "R3", "G1", "Y9", "B2"], ["RR", "R3", "draw"], [5, 6, 6, 6])
    assert strategist.choose(calm, memory(4), variant(hands_on=6.0)) == "RR"


def test_heads_up_a_draw_two_is_another_turn_and_more_so_with_a_follow_up() -> None:
    # Heads-up a Draw Two is another turn. The blue 5 keeps three blues in hand and wins by default.
    alone = request(["RD2", "B5", "B1", "B7"], ["RD2", "B5", "draw"], [4, 5])
    followed = request(["RD2", "B5", "B1", "BD2"], ["RD2", "B5", "draw"], [4, 5])  # BD2 follows by rank
    assert strategist.choose(alone, memory(2)) == "B5"
    assert strategist.choose(followed, memory(2)) == "B5"
    assert strategist.choose(alone, memory(2), variant(again_draw=6.0)) == "RD2"
    assert strategist.choose(alone, memory(2), variant(again_follow=6.0)) == "B5"
    assert strategist.choose(followed, memory(2), variant(again_follow=6.0)) == "RD2"


def test_a_threshold_weight_moves_when_a_wild_is_held_back() -> None:
    req = request(["W", "G1", "Y9", "B2"], ["W:R", "W:Y", "W:G", "W:B", "draw"], [4, 4])
    assert strategist.choose(req, memory(2)) != "draw"  # 4 cards: below keep_wild (5), it plays the wild
    assert strategist.choose(req, memory(2), variant(keep_wild=4)) == "draw"


def test_the_strategist_plays_by_its_weights_and_the_search_bot_by_its_own() -> None:
    assert strategist.Strategist.weights is strategist.WEIGHTS
    assert set(search_bot.POLICY) == set(strategist.WEIGHTS)
    assert search_bot.SearchBot.weights is search_bot.POLICY


@pytest.mark.parametrize("weights", ["WEIGHTS", "POLICY", "POLICY_TABLE"])
def test_weights_are_plain_numbers_for_every_key_the_strategist_reads(weights: str) -> None:
    table = getattr(strategist if weights == "WEIGHTS" else search_bot, weights)
    assert set(table) == set(strategist.WEIGHTS)
    assert all(isinstance(value, (int, float)) for value in table.values())


@pytest.mark.parametrize("kind", ["SearchBot", "TunedPolicy"])
def test_the_search_bot_and_its_policy_play_the_table_weights_at_three_seats_or_more(kind: str) -> None:
    assert search_bot.POLICY_TABLE != search_bot.POLICY
    bot = getattr(search_bot, kind)()
    rules = {"name": "classic"}
    for players, expected in (
        (2, search_bot.POLICY),
        (4, search_bot.POLICY_TABLE),
        (3, search_bot.POLICY_TABLE),
    ):
        bot.on_hello({"seat": 0, "players": players, "rules": rules, "seed": 1})
        assert bot.weights is expected
    # The table's weights choose otherwise somewhere: here the colour a wild draw four names.
    req = request(["B9", "W4", "Y9", "GD2"], ["W4:R", "W4:Y", "W4:G", "W4:B", "draw"], [4, 1, 7, 7])
    assert strategist.choose(req, memory(4), search_bot.POLICY) == "W4:G"
    assert strategist.choose(req, memory(4), bot.weights) == "W4:Y"


def seven_o_memory(players: int) -> Any:
    """A fresh memory of seat 0 under Seven-O."""
    return strategist.Memory(0, players, {"seven_o": True})


def test_under_seven_o_a_seven_is_played_to_take_a_small_hand_with_swap() -> None:
    # Heads-up, the opponent holds one card: the red 7 swaps our three other cards for its one.
    req = request(["R7", "R9", "G1", "Y9", "B2"], ["R7", "R9", "draw"], [5, 1])
    assert strategist.choose(req, seven_o_memory(2)) == "R9"  # points: a 9 is worth more than a 7
    assert strategist.choose(req, seven_o_memory(2), variant(swap=2.0)) == "R7"
    # Without Seven-O in the rules the weight changes nothing.
    assert strategist.choose(req, memory(2), variant(swap=2.0)) == "R9"


def test_under_seven_o_a_seven_that_would_take_a_bigger_hand_is_avoided_with_swap() -> None:
    # We would hand over one card and take back the smallest other hand, of six cards.
    req = request(["R7", "R9"], ["R7", "R9", "draw"], [2, 6, 8, 7])
    gain = strategist.swap_gain("7", 1, req["observation"])
    assert gain == 1 - 6
    swap_req = request(["R7", "R3", "G1"], ["R7", "R3", "draw"], [3, 6, 8, 7])
    assert strategist.choose(swap_req, seven_o_memory(4)) == "R7"
    assert strategist.choose(swap_req, seven_o_memory(4), variant(swap=2.0)) == "R3"


def test_under_seven_o_a_zero_takes_the_hand_of_the_seat_before() -> None:
    # Hands pass on in the direction of play: ours comes from the seat before (seat 3, or seat 1 when the
    # direction is reversed).
    forward = request(["R0", "R3", "G1"], ["R0", "R3"], [3, 6, 8, 1])
    assert strategist.swap_gain("0", 2, forward["observation"]) == 2 - 1
    backward = request(["R0", "R3", "G1"], ["R0", "R3"], [3, 6, 8, 1], direction=-1)
    assert strategist.swap_gain("0", 2, backward["observation"]) == 2 - 6
    assert strategist.swap_gain("0", 0, forward["observation"]) is None  # a last card swaps nothing
    assert strategist.swap_gain("5", 2, forward["observation"]) is None


def test_under_seven_o_drawing_beats_a_bad_swap_with_swap_keep() -> None:
    # Only a 7 plays, and it would take back five cards for the one we would hand over.
    req = request(["R7", "G1"], ["R7", "R7!", "draw"], [2, 6])
    assert strategist.choose(req, seven_o_memory(2), variant(swap=2.0)) == "R7!"
    assert strategist.choose(req, seven_o_memory(2), variant(swap=2.0, swap_keep=3)) == "draw"
    assert strategist.choose(req, seven_o_memory(2), variant(swap=2.0, swap_keep=6)) == "R7!"
    drawn = request(["G1", "R7"], ["R7", "R7!", "keep"], [2, 6], phase="drawn")
    assert strategist.choose(drawn, seven_o_memory(2), variant(swap_keep=3)) == "keep"
    assert strategist.choose(drawn, seven_o_memory(2)) == "R7!"


def test_under_stacking_a_draw_card_is_kept_for_a_penalty_with_stack_keep() -> None:
    # A red Draw Two and a red 3 play; the next seat holds five cards (no threat).
    req = request(["RD2", "R3", "G1", "Y9"], ["RD2", "R3", "draw"], [4, 5])
    stacking = strategist.Memory(0, 2, {"stacking": "same"})
    assert strategist.choose(req, stacking) == "RD2"  # points: a Draw Two is worth 20
    assert strategist.choose(req, stacking, variant(stack_keep=4.0)) == "R3"
    # Not without stacking, nor against a threat, nor when it passes a penalty on.
    assert strategist.choose(req, memory(2), variant(stack_keep=4.0)) == "RD2"
    threat = request(["RD2", "R3", "G1", "Y9"], ["RD2", "R3", "draw"], [4, 1])
    assert strategist.choose(threat, stacking, variant(stack_keep=4.0)) == "RD2"
    pending = request(["RD2", "R3", "G1", "Y9"], ["RD2", "take"], [4, 5], pending_draw=2, top="BD2")
    assert strategist.choose(pending, stacking, variant(stack_keep=4.0)) == "RD2"


def test_holds_odds_is_the_hypergeometric_chance_of_a_colour() -> None:
    mem = memory(2)
    mem.discard = ["B1"] * 20 + ["R5"]
    hand = ["R2", "B5", "R7", "Y9"]
    # Blue: 25 - 20 seen - 1 held = 4 of the 108 - 21 - 4 = 83 unseen cards.
    assert strategist.holds_odds(mem, "B", hand, 1) == pytest.approx(4 / 83)
    assert strategist.holds_odds(mem, "B", hand, 2) == pytest.approx(1 - (79 * 78) / (83 * 82))
    assert strategist.holds_odds(mem, "B", hand, 0) == 0.0
    mem.discard = ["B1"] * 24 + ["R5"]  # every blue seen: nobody can hold one
    assert strategist.holds_odds(mem, "B", hand, 7) == 0.0


def test_a_colour_the_next_seat_is_unlikely_to_hold_is_played_into_with_scarce() -> None:
    # Red 5 on top; twenty blues are on the pile, so few are left for the next seat. R2 keeps red (the
    # colour held most); B5 turns the colour to blue.
    mem = memory(2)
    mem.discard = ["B1"] * 20 + ["R5"]
    req = request(["R2", "B5", "R7", "Y9"], ["R2", "B5", "draw"], [4, 4])
    assert strategist.choose(req, mem) == "R2"
    assert strategist.choose(req, mem, variant(scarce=4.0)) == "B5"
    # scarce_threat counts only against a threat (two cards or fewer).
    assert strategist.choose(req, mem, variant(scarce_threat=6.0)) == "R2"
    threat = request(["R2", "B5", "R7", "Y9"], ["R2", "B5", "draw"], [4, 2])
    assert strategist.choose(threat, mem, variant(scarce_threat=6.0)) == "B5"


def test_a_colour_the_threat_is_unlikely_to_hold_is_named_with_name_scarce() -> None:
    # Naming a colour against a threat: blue is held most (by points), but twenty reds are on the pile.
    mem = memory(2)
    mem.discard = ["R1"] * 20
    colours = ["color:R", "color:Y", "color:G", "color:B"]
    req = request(["R2", "R7", "B5", "B9"], colours, [4, 2], phase="color")
    assert strategist.choose(req, mem) == "color:B"
    assert strategist.choose(req, mem, variant(name_scarce=2.0)) == "color:R"
