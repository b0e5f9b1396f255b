"""Left, right and "next": which rules follow the direction of play and which always go clockwise.

Seat ``s + 1`` is the player on the left of seat ``s`` (docs/rules.md). The deal, the dealer's rotation and
Wild Shuffle Hands always go to the left (tests in test_hands_and_players.py and
test_2018_and_blank_cards.py); every "next player" follows the direction of play: turns, Skip
(test_action_cards.py), the 0 of Seven-O (test_seven_o.py), and, here, the order of the catch, slap and
jump-in chances and of Wild Customizable's all-draw-one.
"""

from scenario import cards, deal, hand, play

PILE = [f"B{i}" for i in range(1, 10)]


def test_after_a_reverse_a_missed_uno_is_offered_counter_clockwise_from_the_offender():
    game = deal("classic", [["RR", "R1"], ["Y1", "Y2"], ["G1", "G2"], ["R7", "R8"]], "R9", PILE)
    game.apply("RR")  # one card left, no UNO declared; play now goes counter-clockwise
    order = []
    while game.observation(0)["phase"] == "catch":
        order.append(game.to_move[0])
        game.apply("pass")
    assert order == [3, 2, 1]
    assert game.to_move == (3,)


def test_after_a_reverse_jump_in_chances_go_counter_clockwise_from_the_player():
    dealt = [["RR", "R1", "R2"], ["RR", "Y2", "Y3"], ["G1", "G2", "G3"], ["RR", "B7", "B8"]]
    game = deal("jump-in", dealt, "R9", PILE)
    game.apply("RR")
    assert game.observation(0)["phase"] == "jump"
    assert game.to_move == (3,)
    game.apply("pass")
    assert game.to_move == (1,)


def test_after_a_reverse_the_slappers_are_listed_counter_clockwise_from_the_player():
    dealt = [["RR", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"], ["R6", "B7", "B8"]]
    game = deal("smackdown-6", dealt, "R9", PILE)
    play(game, "RR", "R6")
    assert game.to_move == (2, 1, 0, 3)  # the in-process order when every slap arrives at once


def test_after_a_reverse_all_draw_one_deals_counter_clockwise_from_the_player():
    dealt = [["RR", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"], ["WC", "B7", "B8"]]
    game = deal("classic-2018", dealt, "R9", PILE, custom_wild="all-draw-one")
    play(game, "RR", "WC:G")
    assert hand(game, 2) == cards("G1", "G2", "G3", "B1")
    assert hand(game, 1) == cards("Y1", "Y2", "Y3", "B2")
    assert hand(game, 0) == cards("R1", "R2", "B3")
    assert game.to_move == (2,)
