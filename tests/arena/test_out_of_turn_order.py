"""The fixed order of out-of-turn chances after a play: catch a missed UNO, then slap a 6, then jump in."""

from scenario import deal, events_of, hand, play

from arena.engine.rules import preset

PILE = ["B1", "B2", "B3", "B4", "B5", "B6"]
ALL_HOUSE = preset("classic").replace(jump_in=True, smackdown=True, seven_o=True)


def test_catch_then_slap_then_jump_then_the_next_turn():
    game = deal(ALL_HOUSE, [["R6", "R1"], ["Y1", "Y2"], ["R6", "G2"], ["B7", "B8"]], "R9", PILE)
    game.apply("R6")  # seat 0 leaves one card without declaring UNO
    phases = []
    while game.observation(0)["phase"] != "turn":
        phase = game.observation(0)["phase"]
        phases.append((phase, game.to_move))
        if phase == "slap":
            game.apply("slap", game.to_move[0])
        else:
            game.apply("pass")
    assert phases == [
        ("catch", (1,)),
        ("catch", (2,)),
        ("catch", (3,)),
        ("slap", (1, 2, 3, 0)),
        ("slap", (2, 3, 0)),
        ("slap", (3, 0)),
        ("slap", (0,)),
        ("jump", (2,)),
    ]
    assert len(hand(game, 0)) == 1 + 2  # the last to slap was seat 0
    assert game.to_move == (1,)


def test_a_jumper_who_leaves_one_card_without_uno_can_be_caught():
    game = deal("jump-in", [["R5", "R1"], ["Y1", "Y2"], ["R5", "G3"]], "R9", PILE)
    play(game, "R5!", "R5")  # seat 2 jumps in and keeps one card, silently
    assert game.observation(0)["phase"] == "catch"
    assert game.to_move == (0,)  # offered in order after the jumper
    play(game, "catch")
    assert len(hand(game, 2)) == 3
    assert events_of(game, "catch") == [{"type": "catch", "seat": 0, "target": 2}]
    assert game.to_move == (0,)  # play continues from the jumper


def test_a_seven_swap_comes_before_the_out_of_turn_chances():
    game = deal(ALL_HOUSE, [["R7", "R1", "R2"], ["Y1", "Y2", "Y3"], ["R7", "G3", "G4"]], "R9", PILE)
    game.apply("R7")
    assert game.observation(0)["phase"] == "swap"
    game.apply("swap:1")
    assert game.observation(0)["phase"] == "jump"
    assert game.to_move == (2,)
