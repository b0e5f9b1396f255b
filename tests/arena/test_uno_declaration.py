"""Declaring UNO: `!` on the next-to-last card, the catch window, the 2- or 4-card penalty (000, 001, 002)."""

import pytest
from scenario import cards, deal, events_of, hand, play

from arena.errors import IllegalAction

PILE = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"]
DEALT = [["R1", "R2"], ["Y1", "Y2"], ["G1", "G2"], ["B7", "B8"]]


def test_uno_may_be_declared_only_when_the_play_leaves_one_card():
    game = deal("classic", [["R1", "R2", "R3"], ["Y1", "Y2", "Y3"]], "R9", PILE)
    assert game.legal_actions() == ["R1", "R2", "R3", "draw"]
    with pytest.raises(IllegalAction):
        game.apply("R1!")
    game = deal("classic", DEALT, "R9", PILE)
    assert game.legal_actions() == ["R1", "R1!", "R2", "R2!", "draw"]


def test_a_wild_played_as_the_next_to_last_card_can_declare_uno():
    game = deal("classic", [["W", "R2"], ["Y1", "Y2"]], "R9", PILE)
    assert {"W:R!", "W:B!"} <= set(game.legal_actions())
    events = game.apply("W:B!")
    assert events[0] == {"type": "play", "seat": 0, "card": "W", "color": "B", "uno": True}


def test_a_player_who_declared_is_safe():
    game = deal("classic", DEALT, "R9", PILE)
    game.apply("R1!")
    assert game.observation(1)["uno"] == [True, False, False, False]
    assert game.observation(1)["phase"] == "turn"
    assert game.to_move == (1,)


def test_a_missed_uno_opens_a_catch_window_offered_to_the_others_in_order():
    game = deal("classic", DEALT, "R9", PILE)
    game.apply("R1")
    assert game.observation(2)["phase"] == "catch"
    assert game.observation(2)["catch_target"] == 0
    for seat in (1, 2, 3):
        assert game.to_move == (seat,)
        assert game.legal_actions() == ["catch", "pass"]
        game.apply("pass")
    assert game.to_move == (1,)
    assert game.observation(1)["phase"] == "turn"
    assert hand(game, 0) == ["R2"]


def test_a_catch_makes_the_offender_draw_two():
    game = deal("classic", DEALT, "R9", PILE)
    play(game, "R1", "pass", "catch")
    assert events_of(game, "catch") == [{"type": "catch", "seat": 2, "target": 0}]
    assert hand(game, 0) == cards("R2", "B1", "B2")
    assert game.to_move == (1,)  # the catch does not change whose turn is next
    assert game.observation(1)["phase"] == "turn"


def test_the_family_penalty_is_four_cards():
    game = deal("family", DEALT, "R9", PILE)
    play(game, "R1", "catch")
    assert hand(game, 0) == cards("R2", "B1", "B2", "B3", "B4")


def test_after_the_next_player_begins_nobody_can_be_caught():
    game = deal("classic", DEALT, "R9", PILE)
    play(game, "R1", "pass", "pass", "pass", "Y1!")
    assert game.to_move == (2,)
    assert "catch" not in game.legal_actions()
    with pytest.raises(IllegalAction):
        game.apply("catch", 3)


def test_the_catch_window_comes_before_the_next_players_penalty():
    game = deal("classic", [["RD2", "R2"], ["Y1", "Y2"], ["G1", "G2"]], "R9", PILE)
    game.apply("RD2")  # seat 1 draws 2 at once, then the others may catch seat 0
    assert len(hand(game, 1)) == 4
    assert game.to_move == (1,)
    assert game.legal_actions() == ["catch", "pass"]


def test_drawing_after_declaring_clears_the_uno_flag():
    game = deal("classic", [["R1", "G2"], ["Y3", "Y2"]], "R9", ["G5", "G6"])
    play(game, "R1!", "draw")  # seat 1 draws the green 5: not playable on the red 1
    assert game.observation(0)["uno"] == [True, False]
    game.apply("draw")  # seat 0 draws the green 6: not playable either
    assert hand(game, 0) == cards("G2", "G6")
    assert game.observation(0)["uno"] == [False, False]


def test_a_played_last_card_is_never_caught():
    game = deal("classic", [["R1"], ["Y1"]], "R9", PILE, scoring="single-hand")
    game.apply("R1")
    assert game.is_over
    assert events_of(game, "catch") == []


def test_the_uno_flag_and_catch_are_public_in_the_observation():
    game = deal("classic", DEALT, "R9", PILE)
    game.apply("R1")
    for seat in range(4):
        assert game.observation(seat)["catch_target"] == 0
        assert game.observation(seat)["uno"] == [False] * 4


# --- Saying UNO on its own (uno_call=window, 001: "...or he remembers before being caught") ---------------


def test_in_the_window_reading_a_player_who_forgot_may_say_uno_before_anyone_can_catch():
    game = deal("classic", DEALT, "R9", PILE, uno_call="window")
    game.apply("R1")
    assert game.observation(1)["phase"] == "uno"
    assert game.to_move == (0,)
    assert game.legal_actions() == ["say_uno", "pass"]
    assert game.observation(2)["catch_target"] == 0
    events = game.apply("say_uno")
    assert events[0] == {"type": "say_uno", "seat": 0}
    assert game.observation(1)["uno"] == [True, False, False, False]
    assert game.to_move == (1,)  # declared: nobody may catch; seat 1's turn
    assert game.observation(1)["phase"] == "turn"


def test_in_the_window_reading_a_player_who_does_not_say_it_can_be_caught():
    game = deal("classic", DEALT, "R9", PILE, uno_call="window")
    play(game, "R1", "pass")
    assert events_of(game, "pass")[-1] == {"type": "pass", "seat": 0, "window": "uno"}
    assert game.observation(1)["phase"] == "catch"
    play(game, "catch")
    assert hand(game, 0) == cards("R2", "B1", "B2")


def test_in_the_window_reading_the_shorthand_still_declares_with_the_card():
    game = deal("classic", DEALT, "R9", PILE, uno_call="window")
    game.apply("R1!")
    assert game.to_move == (1,)
    assert game.observation(1)["phase"] == "turn"
    assert events_of(game, "say_uno") == []


def test_say_uno_is_offered_only_in_the_window():
    game = deal("classic", DEALT, "R9", PILE)
    assert "say_uno" not in game.legal_actions()
    game.apply("R1")
    assert game.observation(1)["phase"] == "catch"  # with the card only (the default): no window
    with pytest.raises(IllegalAction):
        game.apply("say_uno", 0)
    game = deal("classic", [["R1", "R2", "R3"], ["Y1", "Y2", "Y3"]], "R9", PILE, uno_call="window")
    game.apply("R1")  # two cards left: nothing to declare
    assert game.to_move == (1,)
    assert game.observation(1)["phase"] == "turn"


def test_a_faulted_player_in_the_window_passes():
    game = deal("classic", DEALT, "R9", PILE, uno_call="window")
    game.apply("R1")
    assert game.default_action() == "pass"


def test_a_jumper_who_forgets_uno_gets_the_window_too():
    game = deal("jump-in", [["R5", "R1"], ["Y1", "Y2"], ["R5", "G3"]], "R9", PILE, uno_call="window")
    play(game, "R5!", "R5")  # seat 2 jumps in leaving one card, without UNO
    assert game.observation(0)["phase"] == "uno"
    assert game.to_move == (2,)
    play(game, "say_uno")
    assert game.observation(0)["uno"] == [True, False, True]


# --- A false UNO call (false_uno) -----------------------------------------------------------------------


def test_with_the_false_call_penalty_uno_may_be_declared_on_any_play_but_the_last():
    game = deal("classic", [["R1", "R2", "R3"], ["Y1", "Y2", "Y3"]], "R9", PILE, false_uno=2)
    assert game.legal_actions() == ["R1", "R1!", "R2", "R2!", "R3", "R3!", "draw"]
    game = deal("classic", [["R1"], ["Y1"]], "R9", PILE, false_uno=2, scoring="single-hand")
    assert game.legal_actions() == ["R1", "draw"]


def test_a_false_uno_call_draws_the_penalty_at_once():
    game = deal("classic", [["R1", "R2", "R3"], ["Y1", "Y2", "Y3"]], "R9", PILE, false_uno=2)
    events = game.apply("R1!")
    assert events[0] == {"type": "play", "seat": 0, "card": "R1", "uno": True}
    assert events[1] == {"type": "draw", "seat": 0, "cards": ["B1", "B2"], "reason": "false_uno"}
    assert hand(game, 0) == cards("R2", "R3", "B1", "B2")
    assert game.observation(1)["uno"] == [False, False]
    assert game.to_move == (1,)


def test_a_true_uno_call_costs_nothing_and_four_is_the_other_false_call_penalty():
    game = deal("classic", DEALT, "R9", PILE, false_uno=4)
    game.apply("R1!")
    assert hand(game, 0) == ["R2"]
    game = deal("classic", [["R1", "R2", "R3"], ["Y1", "Y2", "Y3"]], "R9", PILE, false_uno=4)
    game.apply("R1!")
    assert len(hand(game, 0)) == 2 + 4


def test_a_false_call_on_a_drawn_card_is_penalised_too():
    game = deal("classic", [["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]], "R9", ["R5", *PILE], false_uno=2)
    game.apply("draw")
    assert game.legal_actions() == ["R5", "R5!", "keep"]
    game.apply("R5!")
    assert hand(game, 0) == cards("G1", "G2", "G3", "B1", "B2")
