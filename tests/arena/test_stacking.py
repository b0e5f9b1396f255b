"""Stacking (progressive UNO): same symbol (001 house rule), mixed +2/+4 (000's table), any (No Mercy)."""

import pytest
from scenario import cards, deal, events_of, hand, play, playable

from arena.errors import RulesError

PILE = [f"B{i}" for i in range(1, 10)] + [f"Y{i}" for i in range(1, 10)]


def three(stacking, seat1, seat2=("G4", "G5", "G6"), seat0=("RD2", "R1", "R2"), **options):
    return deal("classic", [list(seat0), list(seat1), list(seat2)], "R9", PILE, stacking=stacking, **options)


def test_without_stacking_a_draw_two_is_drawn_at_once():
    game = three("none", ["GD2", "G1", "G2"])
    game.apply("RD2")
    assert len(hand(game, 1)) == 5
    assert game.to_move == (2,)


def test_same_symbol_stacking_lets_a_draw_two_answer_a_draw_two_of_any_colour():
    game = three("same", ["GD2", "W4", "G2"])
    game.apply("RD2")
    assert game.to_move == (1,)
    assert game.legal_actions() == ["GD2", "take"]  # not the Wild Draw Four: same symbol only
    assert game.observation(1)["pending_draw"] == 2
    game.apply("GD2")
    assert len(hand(game, 2)) == 3 + 4  # seat 2 has no Draw Two: it takes the stack of 4 at once
    assert game.to_move == (0,)


def test_taking_the_stack_draws_all_of_it_and_loses_the_turn():
    game = three("same", ["GD2", "G1", "G2"], ["YD2", "G5", "G6"])
    play(game, "RD2", "GD2")
    assert game.legal_actions() == ["YD2", "take"]
    events = game.apply("take")
    assert events[0] == {"type": "take", "seat": 2, "count": 4}
    assert hand(game, 2) == cards("YD2", "G5", "G6", "B1", "B2", "B3", "B4")
    assert game.to_move == (0,)
    assert game.omniscient()["pending_draw"] == 0
    assert game.omniscient()["color"] == "G"


def test_three_draw_twos_make_the_fourth_player_draw_six():
    # 000: +2 -> +2 -> +2 and the next player draws 6.
    game = deal(
        "stacking",
        [["RD2", "R1", "R2"], ["GD2", "G1", "G2"], ["YD2", "Y1", "Y2"], ["B7", "B8", "B9"]],
        "R9",
        PILE,
    )
    play(game, "RD2", "GD2", "YD2")
    assert len(hand(game, 3)) == 3 + 6  # nothing to answer with: taken at once
    assert game.to_move == (0,)


def test_same_symbol_stacking_lets_a_wild_draw_four_answer_only_a_wild_draw_four():
    game = three("same", ["W4", "GD2", "G2"], ["W4", "G5", "G6"], seat0=("W4", "R1", "R2"))
    game.apply("W4:G")
    assert game.legal_actions() == ["W4:R", "W4:Y", "W4:G", "W4:B", "challenge", "take"]
    game.apply("W4:Y")
    assert game.omniscient()["pending_draw"] == 8
    # Decision: only the first Wild Draw Four of a stack may be challenged.
    assert game.legal_actions(2) == ["W4:R", "W4:Y", "W4:G", "W4:B", "take"]
    game.apply("take")
    assert len(hand(game, 2)) == 3 + 8


def test_mixed_stacking_allows_a_wild_draw_four_on_a_draw_two():
    game = three("mixed", ["W4", "G1", "G2"])
    game.apply("RD2")
    assert playable(game) == {"W4"}
    game.apply("W4:B")
    assert len(hand(game, 2)) == 3 + 6


def test_mixed_stacking_allows_a_draw_two_of_the_named_colour_on_a_wild_draw_four():
    game = three("mixed", ["GD2", "YD2", "G1"], seat0=("W4", "R1", "R2"))
    game.apply("W4:G")
    # The +2 must still be playable on the Wild Draw Four: green was named.
    assert playable(game) == {"GD2"}
    assert game.legal_actions() == ["GD2", "challenge", "take"]
    game.apply("GD2")
    assert len(hand(game, 2)) == 3 + 6


def test_any_stacking_needs_equal_or_higher_value():
    game = three("any", ["GD2", "W4", "G1"], seat0=("W4", "R1", "R2"))
    game.apply("W4:G")
    assert playable(game) == {"W4"}  # the +2 is lower than +4


def test_the_challenge_of_a_stacked_wild_draw_four_is_still_offered_to_the_first_victim():
    game = three("mixed", ["GD2", "G1", "G2"], seat0=("W4", "R1", "R2"))
    play(game, "W4:G", "challenge")
    assert len(hand(game, 0)) == 2 + 4  # guilty: red was current and seat 0 held red cards
    assert game.to_move == (1,)
    assert game.omniscient()["pending_draw"] == 0


@pytest.mark.parametrize("stacking", ["same", "mixed", "any"])
def test_a_stacked_last_card_makes_the_next_player_draw_the_whole_stack(stacking):
    game = deal(
        "classic", [["RD2", "RD2"], ["GD2", "GD2"]], "R9", PILE, stacking=stacking, scoring="single-hand"
    )
    play(game, "RD2!", "GD2!", "RD2")  # seat 0 goes out on the stack
    assert game.is_over
    assert hand(game, 1) == cards("GD2", "B1", "B2", "B3", "B4", "B5", "B6")
    end = events_of(game, "hand_end")[0]
    assert end["winner"] == 0
    assert end["gained"] == [20 + 1 + 2 + 3 + 4 + 5 + 6, 0]


@pytest.mark.parametrize("stacking", ["same", "mixed", "any"])
def test_a_restricted_wild_draw_four_cannot_answer_a_stack_while_holding_the_current_colour(stacking):
    # With the challenge off the restriction is enforced when playing, also when answering a stack.
    seat0 = ("W4", "B1", "B2") if stacking == "same" else ("RD2", "R1", "R2")
    game = three(stacking, ["W4", "R5", "G1"], seat0=seat0, challenge=False)
    game.apply("W4:R" if stacking == "same" else "RD2")
    assert game.to_move == (2,)  # seat 1 had no legal answer: it took the penalty
    assert len(hand(game, 1)) == 3 + (4 if stacking == "same" else 2)


@pytest.mark.parametrize("stacking", ["same", "mixed", "any"])
def test_a_restricted_wild_draw_four_answers_a_stack_without_the_current_colour(stacking):
    seat0 = (
        ("W4", "B1", "B2")
        if stacking == "same"
        else ("RD4", "R1", "R2")
        if stacking == "any"
        else ("RD2", "R1", "R2")
    )
    game = three(stacking, ["W4", "B5", "G1"], seat0=seat0, challenge=False)
    game.apply(seat0[0] + (":R" if seat0[0] == "W4" else ""))
    assert game.to_move == (1,)
    assert "W4" in playable(game)


# --- A draw card on any draw card whatever the colours (stack_colour=any, a common house reading) --------


def test_with_stack_colour_any_a_draw_two_answers_a_wild_draw_four_of_any_named_colour():
    game = three("mixed", ["YD2", "G1", "G2"], seat0=("W4", "R1", "R2"), stack_colour="any")
    game.apply("W4:G")  # green named; seat 1's +2 is yellow
    assert game.legal_actions() == ["YD2", "challenge", "take"]
    game.apply("YD2")
    assert len(hand(game, 2)) == 3 + 6


def test_by_default_the_draw_two_must_be_of_the_named_colour():
    game = three("mixed", ["YD2", "G1", "G2"], seat0=("W4", "R1", "R2"))
    game.apply("W4:G")
    assert game.legal_actions() == ["challenge", "take"]


def test_with_stack_colour_any_no_mercy_cards_stack_across_colours_by_value():
    game = three("any", ["BD4", "GD2", "G1"], seat0=("RD4", "R1", "R2"), stack_colour="any")
    game.apply("RD4")
    assert playable(game) == {"BD4"}  # the blue +4 matches by symbol anyway; the +2 is lower
    game = three("any", ["BD6", "G1", "G2"], seat0=("RD4", "R1", "R2"), stack_colour="any")
    game.apply("RD4")
    assert playable(game) == {"BD6"}  # another colour and symbol: allowed only under stack_colour=any
    game = three("any", ["BD6", "G1", "G2"], seat0=("RD4", "R1", "R2"))
    game.apply("RD4")
    assert len(hand(game, 1)) == 3 + 4


@pytest.mark.parametrize("stacking", ["none", "same"])
def test_stack_colour_any_needs_a_mixed_stacking(stacking):
    with pytest.raises(RulesError, match="stack_colour"):
        three(stacking, ["YD2", "G1", "G2"], stack_colour="any")
