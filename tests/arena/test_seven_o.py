"""Seven-O (001's official house rule): a 7 swaps hands with a chosen player, a 0 passes every hand on."""

import pytest
from scenario import cards, deal, events_of, hand, hands, play

from arena.errors import IllegalAction

PILE = ["B1", "B2", "B3", "B4", "B5", "B6"]
DEALT = [
    ["R7", "R0", "R1", "R2"],
    ["Y1", "Y2", "Y3", "Y4"],
    ["G1", "G2", "G3", "G4"],
    ["B7", "B8", "B9", "BS"],
]


def test_a_seven_asks_its_player_to_choose_whom_to_swap_with():
    game = deal("seven-o", DEALT, "R9", PILE)
    game.apply("R7")
    assert game.to_move == (0,)
    assert game.observation(0)["phase"] == "swap"
    assert game.legal_actions() == ["swap:1", "swap:2", "swap:3"]
    with pytest.raises(IllegalAction):
        game.apply("swap:0")


def test_the_seven_swaps_hands_with_the_chosen_player_and_play_goes_on_to_the_left():
    game = deal("seven-o", DEALT, "R9", PILE)
    play(game, "R7", "swap:2")
    assert hand(game, 0) == cards("G1", "G2", "G3", "G4")
    assert hand(game, 2) == cards("R0", "R1", "R2")
    assert hand(game, 1) == cards("Y1", "Y2", "Y3", "Y4")
    assert events_of(game, "swap") == [{"type": "swap", "seat": 0, "target": 2}]
    assert game.to_move == (1,)


def test_a_zero_passes_every_hand_to_the_next_player_in_the_direction_of_play():
    game = deal("seven-o", DEALT, "R9", PILE)
    before = hands(game)
    game.apply("R0")
    before[0].remove("R0")
    after = hands(game)
    assert after == [before[3], before[0], before[1], before[2]]
    assert events_of(game, "rotate") == [{"type": "rotate", "direction": 1}]
    assert game.to_move == (1,)


def test_after_a_reverse_a_zero_passes_the_hands_the_other_way():
    dealt = [
        ["RR", "R1", "R2", "R3"],
        ["Y1", "Y2", "Y3", "Y4"],
        ["G1", "G2", "G3", "G4"],
        ["R0", "B8", "B9", "BS"],
    ]
    game = deal("seven-o", dealt, "R9", PILE)
    game.apply("RR")  # seat 3 is next, counter-clockwise
    before = hands(game)
    game.apply("R0")
    before[3].remove("R0")
    assert hands(game) == [before[1], before[2], before[3], before[0]]
    assert game.to_move == (2,)


def test_without_seven_o_sevens_and_zeros_are_plain_numbers():
    game = deal("classic", DEALT, "R9", PILE)
    before = hands(game)
    game.apply("R7")
    assert game.to_move == (1,)
    before[0].remove("R7")
    assert hands(game) == before
    game = deal("classic", DEALT, "R9", PILE)
    before = hands(game)
    game.apply("R0")
    before[0].remove("R0")
    assert hands(game) == before


def test_a_seven_as_the_last_card_wins_before_any_swap():
    game = deal("seven-o", [["R7"], ["Y1"], ["G1"]], "R9", PILE, scoring="single-hand")
    game.apply("R7")
    assert game.is_over
    assert events_of(game, "swap") == []


def test_swapping_away_a_hand_of_one_closes_the_uno_catch():
    # Seat 0 plays its 7 leaving one card, without declaring UNO, then swaps it away.
    game = deal("seven-o", [["R7", "R1"], ["Y1", "Y2"], ["G1", "G2"]], "R9", PILE)
    play(game, "R7", "swap:1")
    assert hand(game, 0) == cards("Y1", "Y2")
    assert hand(game, 1) == cards("R1")
    assert game.observation(0)["phase"] == "turn"  # no catch window
    assert game.to_move == (1,)


def test_with_two_players_a_seven_swaps_with_the_only_other_player_and_a_zero_swaps_too():
    game = deal("seven-o", [["R7", "R0", "R1"], ["Y1", "Y2", "Y3"]], "R9", PILE)
    game.apply("R7")
    assert game.legal_actions() == ["swap:1"]
    game.apply("swap:1")
    assert hand(game, 0) == cards("Y1", "Y2", "Y3")
    game = deal("seven-o", [["R7", "R0", "R1"], ["Y1", "Y2", "Y3"]], "R9", PILE)
    game.apply("R0")
    assert hand(game, 0) == cards("Y1", "Y2", "Y3")
    assert hand(game, 1) == cards("R7", "R1")
