"""The first card turned up (001's table, with 002's variants and the No Mercy and 2018 decisions)."""

import pytest
from scenario import cards, deal, events_of, hand, play

from arena.engine.game import Game
from arena.engine.rules import preset

# Three players, dealer seat 2: seat 0 is the dealer's left, seat 1 the dealer's right.
HANDS3 = [["R1", "G2", "B3"], ["Y1", "G4", "B5"], ["Y6", "G6", "B6"]]
PILE = ["B1", "B2", "B4", "B7", "B8", "B9", "G1", "G3", "G5", "G7"]


def assert_returned(game, card, replacement="R5"):
    """``card`` was turned up, returned (perhaps turned up again and returned again, as the shuffle of a
    two-card pile decides), and ``replacement`` now starts the discard pile."""
    returns = events_of(game, "return")
    assert returns
    assert all(e == {"type": "return", "card": card} for e in returns)
    assert events_of(game, "flip") == [{"type": "flip", "card": replacement}]
    view = game.omniscient()
    assert view["discard"] == [replacement]
    assert view["draw_order"] == [card]


def test_a_number_card_lets_the_dealers_left_start_clockwise():
    game = deal("classic", HANDS3, "R5", PILE)
    assert game.to_move == (0,)
    assert game.omniscient()["direction"] == 1
    assert game.omniscient()["color"] == "R"


def test_a_skip_makes_the_dealers_left_lose_the_turn():
    game = deal("classic", HANDS3, "RS", PILE)
    assert events_of(game, "skip") == [{"type": "skip", "seat": 0}]
    assert game.to_move == (1,)


def test_a_reverse_lets_the_dealer_play_first_counter_clockwise():
    game = deal("classic", HANDS3, "RR", PILE)
    assert game.to_move == (2,)
    assert game.omniscient()["direction"] == -1
    game.apply("draw")  # B1 is not playable on a red Reverse
    assert game.to_move == (1,)  # counter-clockwise: the dealer's right


def test_a_reverse_under_first_reverse_right_lets_the_dealers_right_start():
    game = deal("classic", HANDS3, "RR", PILE, first_reverse="right")
    assert game.to_move == (1,)
    assert game.omniscient()["direction"] == -1
    game.apply("draw")
    assert game.to_move == (0,)


@pytest.mark.parametrize(("first_reverse", "starter"), [("dealer", 1), ("right", 0)])
def test_in_a_two_player_game_a_first_reverse_acts_on_the_non_dealer(first_reverse, starter):
    # Two players, dealer seat 1: "dealer's left" and "dealer's right" are both seat 0. Under the
    # official reading the dealer starts (the Reverse skips seat 0); under 002's, seat 0 starts.
    game = deal("classic", [["R1", "G2"], ["Y1", "G4"]], "RR", PILE, first_reverse=first_reverse)
    assert game.to_move == (starter,)


def test_a_draw_two_makes_the_dealers_left_draw_two_and_lose_the_turn():
    game = deal("classic", HANDS3, "RD2", PILE)
    assert hand(game, 0) == cards("R1", "G2", "B3", "B1", "B2")
    assert events_of(game, "skip") == [{"type": "skip", "seat": 0}]
    assert game.to_move == (1,)


def test_a_draw_two_turned_first_is_not_stackable():
    game = deal("stacking", [["RD2", "G2", "B3"], ["Y1", "G4", "B5"], ["Y6", "G6", "B6"]], "YD2", PILE)
    assert hand(game, 0) == cards("RD2", "G2", "B3", "B1", "B2")
    assert game.to_move == (1,)


def test_a_wild_lets_the_dealers_left_name_the_colour_and_play_first():
    game = deal("classic", HANDS3, "W", PILE)
    assert game.to_move == (0,)
    assert game.legal_actions() == ["color:R", "color:Y", "color:G", "color:B"]
    assert game.omniscient()["color"] is None
    game.apply("color:G")
    assert game.omniscient()["color"] == "G"
    assert game.to_move == (0,)
    assert set(game.legal_actions()) == {"G2", "draw"}


def test_a_wild_is_returned_and_replaced_when_first_wild_is_replace():
    game = deal("classic", HANDS3, "W", ["R5"], first_wild="replace")
    assert_returned(game, "W")
    assert game.to_move == (0,)


@pytest.mark.parametrize("first_wild", ["choose", "replace"])
def test_a_wild_draw_four_is_returned_and_a_new_card_turned(first_wild):
    game = deal("classic", HANDS3, "W4", ["R5"], first_wild=first_wild)
    assert_returned(game, "W4")
    assert [len(h) for h in game.omniscient()["hands"]] == [3, 3, 3]
    assert game.to_move == (0,)


def test_a_returned_card_is_shuffled_back_into_a_larger_pile():
    game = deal("classic", HANDS3, "W4", PILE)
    view = game.omniscient()
    assert view["top"] != "W4"
    assert sorted(view["draw_order"] + view["discard"]) == sorted([*PILE, "W4"])
    assert game.card_counts() == game.deck_counts()


@pytest.mark.parametrize("card", ["WS", "WC"])
def test_the_2018_wilds_first(card):
    # Wild Shuffle Hands is returned (decision); a plain Wild Customizable is a Wild: name the colour.
    game = deal("classic-2018", HANDS3, card, ["R5"])
    if card == "WS":
        assert_returned(game, "WS")
    else:
        assert events_of(game, "return") == []
        assert game.legal_actions() == ["color:R", "color:Y", "color:G", "color:B"]


@pytest.mark.parametrize("custom_wild", ["swap", "all-draw-one"])
def test_a_wild_customizable_with_an_effect_is_returned_when_first(custom_wild):
    game = deal("classic-2018", HANDS3, "WC", ["R5"], custom_wild=custom_wild)
    assert_returned(game, "WC")


@pytest.mark.parametrize("first_wild", ["choose", "replace"])
def test_a_blank_card_first_is_a_wild_under_both_readings(first_wild):
    game = deal("classic-blank", HANDS3, "X", ["R5"], first_wild=first_wild)
    if first_wild == "choose":
        assert game.legal_actions() == ["color:R", "color:Y", "color:G", "color:B"]
    else:
        assert_returned(game, "X")


@pytest.mark.parametrize(("card", "drawn"), [("GD4", 4), ("GD6", 6), ("GD10", 10)])
def test_a_no_mercy_draw_card_first_takes_its_effect(card, drawn):
    pile = [f"B{i}" for i in range(1, 10)] + [f"Y{i}" for i in range(1, 10)]
    game = deal("no-mercy", HANDS3, card, pile)
    assert len(hand(game, 0)) == 3 + drawn
    assert game.to_move == (1,)


def test_a_no_mercy_skip_everyone_first_lets_the_dealer_play():
    game = deal("no-mercy", HANDS3, "GSE", PILE)
    assert game.to_move == (2,)
    assert game.omniscient()["direction"] == 1


def test_a_no_mercy_reverse_everyone_first_reverses_and_lets_the_dealer_play():
    game = deal("no-mercy", HANDS3, "GRE", PILE)
    assert game.to_move == (2,)
    assert game.omniscient()["direction"] == -1


@pytest.mark.parametrize("card", ["W2", "W6", "WSK", "WR", "W4"])
def test_a_no_mercy_wild_with_an_effect_first_is_returned(card):
    game = deal("no-mercy", HANDS3, card, ["R5"])
    assert_returned(game, card)
    assert game.to_move == (0,)


@pytest.mark.parametrize("first", ["R6", "R7", "R0"])
def test_a_first_card_is_not_jumped_on_slapped_swapped_or_rotated(first):
    # Decision: jump-in, 6 Smackdown and Seven-O follow a *play*; the card turned up is not one.
    rules = preset("classic").replace(jump_in=True, smackdown=True, seven_o=True)
    dealt = [["R6", "R7", "R0"], ["Y1", "G4", "B5"], ["Y6", "G6", "B6"]]
    game = deal(rules, dealt, first, PILE)
    assert game.omniscient()["phase"] == "turn"
    assert game.to_move == (0,)
    assert [hand(game, s) for s in range(3)] == [sorted(h) for h in dealt]


def test_the_dealer_of_the_first_hand_comes_from_the_seed():
    dealers = {Game(preset("classic"), 4, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert Game(preset("classic"), 4, 7).dealer == Game(preset("classic"), 4, 7).dealer


def test_the_first_player_after_a_wild_first_card_names_the_colour_in_the_observation():
    game = deal("classic", HANDS3, "W", PILE)
    assert game.observation(0)["phase"] == "color"
    assert game.observation(1)["to_move"] == [0]
    play(game, "color:R")
    assert game.observation(1)["color"] == "R"
