"""The fixed-deal helper deals exactly what a scenario describes (the other scenario tests rely on it)."""

from scenario import cards, deal, deck_order, hand

from arena.engine.rules import preset


def test_deck_order_deals_one_card_at_a_time_from_the_dealers_left():
    hands = [["R1", "R2"], ["Y1", "Y2"], ["G1", "G2"]]
    assert deck_order(hands, "B9", ["B1", "B2"], dealer=0) == [
        "Y1",
        "G1",
        "R1",
        "Y2",
        "G2",
        "R2",
        "B9",
        "B1",
        "B2",
    ]
    assert deck_order(hands, "B9", [], dealer=2) == ["R1", "Y1", "G1", "R2", "Y2", "G2", "B9"]


def test_each_seat_gets_the_described_hand_and_the_first_card_is_turned_up():
    game = deal("classic", [["R1", "B5", "W"], ["Y1", "Y2", "G3"], ["GS", "BR", "YD2"]], "R9", ["B1", "G2"])
    view = game.omniscient()
    assert [hand(game, s) for s in range(3)] == [
        cards("R1", "B5", "W"),
        cards("Y1", "Y2", "G3"),
        cards("GS", "BR", "YD2"),
    ]
    assert view["discard"] == ["R9"]
    assert view["draw_order"] == ["G2", "B1"]  # top last
    assert view["dealer"] == 2
    assert game.to_move == (0,)
    assert game.rules.hand_size == 3


def test_an_explicit_dealer_moves_the_first_turn_to_their_left():
    game = deal("classic", [["R1"], ["R2"], ["R3"], ["R4"]], "R9", ["B1"], dealer=1)
    assert game.to_move == (2,)
    assert hand(game, 2) == ["R3"]


def test_rule_overrides_are_applied_and_the_preset_is_kept_otherwise():
    game = deal("family", [["R1"], ["R2"]], "R9", ["B1"], uno_penalty=2)
    assert game.rules.uno_penalty == 2
    assert game.rules.draw == "keep"
    assert game.rules == preset("family").replace(uno_penalty=2, hand_size=1)
