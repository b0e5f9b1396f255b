"""The 2018 deck's Wild Shuffle Hands and Wild Customizable (001), and the 112-card box's blanks (002)."""

from collections import Counter

import pytest
from scenario import cards, deal, events_of, hand, hands, play, playable

from arena.engine.cards import CARDS, deck_counter, parse_card

PILE = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"]


def test_wild_shuffle_hands_collects_shuffles_and_deals_from_the_players_left_then_names_a_colour():
    dealt = [["WS", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]]
    game = deal("classic-2018", dealt, "R9", PILE)
    assert "WS" in game.legal_actions()  # it carries no colour: the colour is named after the shuffle
    before = Counter(c for h in hands(game) for c in h) - Counter(["WS"])
    game.apply("WS")
    after = hands(game)
    assert Counter(c for h in after for c in h) == before
    # 8 cards dealt one at a time from seat 1: seats 1 and 2 get 3, the player gets 2.
    assert [len(h) for h in after] == [2, 3, 3]
    shuffle = events_of(game, "shuffle")[0]
    assert shuffle["seat"] == 0
    assert [sorted(h) for h in shuffle["hands"]] == after
    assert game.to_move == (0,)
    assert game.legal_actions() == ["color:R", "color:Y", "color:G", "color:B"]
    game.apply("color:B")
    assert game.omniscient()["color"] == "B"
    assert game.to_move == (1,)


def test_wild_shuffle_hands_is_always_playable():
    game = deal("classic-2018", [["WS", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]], "R9", PILE)
    assert {"R1", "R2", "WS"} == playable(game)


def test_wild_shuffle_hands_shows_each_player_only_their_new_hand():
    game = deal("classic-2018", [["WS", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]], "R9", PILE)
    game.apply("WS")
    for seat in range(3):
        shuffle = next(e for e in game.observation(seat, history=True)["history"] if e["type"] == "shuffle")
        assert "hands" not in shuffle
        assert sorted(shuffle["hand"]) == hand(game, seat)
        assert shuffle["hand_sizes"] == [2, 3, 3]


def test_wild_shuffle_hands_as_the_last_card_wins_the_hand():
    game = deal("classic-2018", [["WS"], ["Y1"], ["G1"]], "R9", PILE, scoring="single-hand")
    game.apply("WS")
    assert game.is_over
    assert events_of(game, "hand_end")[0]["winner"] == 0
    assert events_of(game, "shuffle") == []


def test_wild_customizable_plain_is_a_wild():
    game = deal("classic-2018", [["WC", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]], "R9", PILE)
    assert {"WC:R", "WC:Y", "WC:G", "WC:B"} <= set(game.legal_actions())
    game.apply("WC:Y")
    assert game.omniscient()["color"] == "Y"
    assert game.to_move == (1,)
    assert [len(h) for h in hands(game)] == [2, 3, 3]


def test_wild_customizable_swap_names_a_colour_then_swaps_with_a_chosen_player():
    game = deal(
        "classic-2018",
        [["WC", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]],
        "R9",
        PILE,
        custom_wild="swap",
    )
    game.apply("WC:G")
    assert game.to_move == (0,)
    assert game.legal_actions() == ["swap:1", "swap:2"]
    game.apply("swap:2")
    assert hand(game, 0) == cards("G1", "G2", "G3")
    assert hand(game, 2) == cards("R1", "R2")
    assert game.omniscient()["color"] == "G"
    assert game.to_move == (1,)


def test_wild_customizable_all_draw_one_makes_every_other_player_draw_one():
    game = deal(
        "classic-2018",
        [["WC", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]],
        "R9",
        PILE,
        custom_wild="all-draw-one",
    )
    game.apply("WC:G")
    assert hand(game, 1) == cards("Y1", "Y2", "Y3", "B1")
    assert hand(game, 2) == cards("G1", "G2", "G3", "B2")
    assert hand(game, 0) == cards("R1", "R2")
    assert game.to_move == (1,)  # the next player draws but is not skipped


def test_the_2018_wilds_score_forty():
    assert CARDS[parse_card("WS")].points == 40
    assert CARDS[parse_card("WC")].points == 40


def test_a_blank_card_plays_as_a_plain_wild_and_scores_fifty():
    game = deal("classic-blank", [["X", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]], "R9", PILE)
    assert {"X:R", "X:Y", "X:G", "X:B"} <= set(game.legal_actions())
    game.apply("X:B")
    assert game.omniscient()["color"] == "B"
    assert game.omniscient()["top"] == "X"
    assert game.to_move == (1,)
    assert CARDS[parse_card("X")].points == 50


@pytest.mark.parametrize("code", ["WS", "WC"])
def test_the_2018_wilds_are_not_in_the_classic_deck(code):
    assert deck_counter("classic")[parse_card(code)] == 0
    assert deck_counter("2018")[parse_card(code)] == {"WS": 1, "WC": 3}[code]


def test_after_a_reverse_wild_shuffle_hands_still_deals_from_the_players_left_three_players():
    # Seat 0's Reverse turns play counter-clockwise, so seat 2 plays next; its left is still seat 0.
    # 7 cards dealt one at a time from seat 0: seats 0, 1, 2, 0, 1, 2, 0.
    game = deal("classic-2018", [["RR", "R2", "B5"], ["G1", "G2", "G3"], ["WS", "B3", "B4"]], "R9", PILE)
    game.apply("RR")
    assert game.to_move == (2,)
    game.apply("WS")
    assert [len(h) for h in hands(game)] == [3, 2, 2]
    assert events_of(game, "shuffle")[0]["seat"] == 2
    game.apply("color:G")
    assert game.to_move == (1,)  # play goes on counter-clockwise from the player


def test_after_a_reverse_wild_shuffle_hands_still_deals_from_the_players_left_four_players():
    dealt = [
        ["RR", "R2", "B5", "B6"],
        ["G1", "G2", "G3", "G4"],
        ["Y1", "Y2", "Y3", "Y4"],
        ["WS", "B3", "B4", "B7"],
    ]
    game = deal("classic-2018", dealt, "R9", PILE)
    game.apply("RR")
    assert game.to_move == (3,)
    game.apply("WS")  # 14 cards from seat 0: 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1
    assert [len(h) for h in hands(game)] == [4, 4, 3, 3]


def test_wild_shuffle_hands_deals_from_the_next_seat_clockwise_of_any_player():
    dealt = [["R2", "B5", "B6"], ["WS", "G2", "G3"], ["Y1", "Y2", "Y3"], ["B1", "B3", "B4"]]
    game = deal("classic-2018", dealt, "R9", PILE)
    play(game, "R2", "WS")  # seat 1's left is seat 2: 10 cards to seats 2, 3, 0, 1, 2, 3, 0, 1, 2, 3
    assert [len(h) for h in hands(game)] == [2, 2, 3, 3]
