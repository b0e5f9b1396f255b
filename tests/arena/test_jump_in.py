"""Jump-In (001): a player holding a card identical to the top discard may play it out of turn."""

from scenario import cards, deal, events_of, hand, play

PILE = ["B1", "B2", "B3", "B4", "B5", "B6"]


def game_with(dealt, first="R9", **options):
    return deal("jump-in", dealt, first, PILE, **options)


def test_holders_of_the_identical_card_are_offered_in_order_after_the_player():
    game = game_with([["R5", "R1", "R2"], ["Y1", "Y2", "Y3"], ["R5", "G2", "G3"], ["R5", "B7", "B8"]])
    game.apply("R5")
    assert game.to_move == (2,)
    assert game.observation(2)["phase"] == "jump"
    assert game.legal_actions() == ["R5", "pass"]
    game.apply("pass")
    assert game.to_move == (3,)
    game.apply("pass")
    assert game.to_move == (1,)  # nobody jumped: seat 1's normal turn
    assert game.observation(1)["phase"] == "turn"


def test_the_first_to_accept_jumps_in_and_play_continues_from_the_jumper():
    game = game_with([["R5", "R1", "R2"], ["Y1", "Y2", "Y3"], ["R5", "G2", "G3"], ["R5", "B7", "B8"]])
    play(game, "R5", "R5")
    assert hand(game, 2) == cards("G2", "G3")
    assert events_of(game, "jump") == [{"type": "jump", "seat": 2}]
    # Seat 3 still holds an identical red 5 and may jump on the jumper.
    assert game.to_move == (3,)
    game.apply("pass")
    assert game.to_move == (3,)  # seat 3's normal turn: it follows the jumper
    assert game.observation(3)["phase"] == "turn"


def test_a_jumped_action_card_takes_effect_from_the_jumper():
    game = game_with([["RS", "R1", "R2"], ["Y1", "Y2", "Y3"], ["RS", "G2", "G3"], ["B7", "B8", "B9"]])
    play(game, "RS")  # skips seat 1; seat 2 may jump in
    play(game, "RS")  # seat 2's Skip skips seat 3
    assert game.to_move == (0,)


def test_only_an_identical_card_is_offered_not_the_same_number_in_another_colour():
    game = game_with([["R5", "R1", "R2"], ["Y5", "Y2", "Y3"], ["G5", "R6", "G3"]])
    game.apply("R5")
    assert game.to_move == (1,)
    assert game.observation(1)["phase"] == "turn"


def test_wild_cards_cannot_be_jumped_on():
    game = game_with([["W", "R1", "R2"], ["Y5", "Y2", "Y3"], ["W", "R6", "G3"]])
    game.apply("W:G")
    assert game.observation(1)["phase"] == "turn"


def test_jumping_in_with_the_next_to_last_card_offers_uno():
    game = game_with([["R5", "R1"], ["Y1", "Y2"], ["R5", "G3"]])
    game.apply("R5!")
    assert game.legal_actions() == ["R5", "R5!", "pass"]


def test_jumping_in_with_the_last_card_wins_the_hand():
    game = game_with([["R1", "R5"], ["Y1", "Y2"], ["R2", "R5"]], scoring="single-hand")
    play(game, "draw", "draw", "R2!")  # seats 0 and 1 draw unplayable cards; seat 2 is down to its red 5
    game.apply("R5")  # seat 0 plays its red 5 ...
    assert game.to_move == (2,)
    assert game.legal_actions() == ["R5", "pass"]
    game.apply("R5")  # ... and seat 2 jumps in with its last card
    assert game.is_over
    assert events_of(game, "hand_end")[0]["winner"] == 2


def test_jump_in_is_not_offered_without_the_house_rule():
    game = deal("classic", [["R5", "R1", "R2"], ["Y1", "Y2", "Y3"], ["R5", "G2", "G3"]], "R9", PILE)
    game.apply("R5")
    assert game.to_move == (1,)
    assert game.observation(1)["phase"] == "turn"


def test_no_jump_on_a_draw_card_while_a_stack_is_pending():
    game = game_with([["RD2", "R1", "R2"], ["Y1", "Y2", "Y3"], ["RD2", "G2", "G3"]], stacking="same")
    game.apply("RD2")
    # Seat 1 has nothing to answer the stack with and takes it; seat 2 was not offered a jump on the way.
    assert len(hand(game, 1)) == 5
    assert events_of(game, "pass") == []
    assert game.to_move == (2,)
    assert game.observation(2)["phase"] == "turn"


def test_jumping_on_a_draw_two_without_stacking_makes_the_jumpers_next_draw():
    game = game_with([["RD2", "R1", "R2"], ["Y1", "Y2", "Y3"], ["RD2", "G2", "G3"], ["B7", "B8", "B9"]])
    game.apply("RD2")
    assert len(hand(game, 1)) == 5  # seat 1 drew at once
    assert game.to_move == (2,)
    game.apply("RD2")
    assert len(hand(game, 3)) == 5
    assert game.to_move == (0,)
