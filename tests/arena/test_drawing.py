"""Drawing: draw one (or keep drawing), then only the drawn card may be played; reshuffles; empty piles."""

import pytest
from scenario import cards, deal, events_of, hand, play, playable

from arena.errors import IllegalAction

OTHERS = [["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]]


def test_a_player_may_draw_while_holding_a_playable_card():
    game = deal("classic", [["B3", "G8", "G9"], *OTHERS], "B7", ["R1", "R2"])
    assert "B3" in playable(game)
    assert "draw" in game.legal_actions()


def test_after_drawing_only_the_drawn_card_may_be_played():
    # 000's example: on a blue 7 with a blue 3 in hand, the player draws a yellow 7: they may play the
    # yellow 7, but not the blue 3 they already held.
    game = deal("classic", [["B3", "G8", "G9"], *OTHERS], "B7", ["Y7", "R2"])
    events = game.apply("draw")
    assert events == [{"type": "draw", "seat": 0, "cards": ["Y7"], "reason": "draw"}]
    assert game.legal_actions() == ["Y7", "keep"]
    assert game.observation(0)["drawn"] == "Y7"
    assert game.observation(1)["drawn"] is None
    with pytest.raises(IllegalAction, match="B3"):
        game.apply("B3")
    game.apply("Y7")
    assert game.omniscient()["top"] == "Y7"
    assert game.to_move == (1,)


def test_keeping_the_drawn_card_ends_the_turn():
    game = deal("classic", [["B3", "G8", "G9"], *OTHERS], "B7", ["Y7", "R2"])
    play(game, "draw", "keep")
    assert hand(game, 0) == cards("B3", "G8", "G9", "Y7")
    assert game.to_move == (1,)
    assert game.omniscient()["top"] == "B7"


def test_an_unplayable_drawn_card_ends_the_turn_at_once():
    game = deal("classic", [["B3", "G8", "G9"], *OTHERS], "B7", ["R2", "R3"])
    game.apply("draw")
    assert hand(game, 0) == cards("B3", "G8", "G9", "R2")
    assert game.to_move == (1,)
    assert "keep" not in game.legal_actions()


def test_a_drawn_wild_may_be_played_with_a_colour():
    game = deal("classic", [["R3", "G8", "G9"], *OTHERS], "B7", ["W", "R3"])
    game.apply("draw")
    assert game.legal_actions() == ["W:R", "W:Y", "W:G", "W:B", "keep"]


def test_a_player_without_a_playable_card_must_draw():
    game = deal("classic", [["R3", "G8", "G9"], *OTHERS], "B7", ["R1", "R2"])
    assert game.legal_actions() == ["draw"]


def test_keep_drawing_draws_until_a_playable_card_comes():
    game = deal("keep-drawing", [["R3", "G8", "G9"], *OTHERS], "B7", ["R1", "Y2", "B5", "G6"])
    events = game.apply("draw")
    assert events == [{"type": "draw", "seat": 0, "cards": ["R1", "Y2", "B5"], "reason": "draw"}]
    assert game.legal_actions() == ["B5", "keep"]
    game.apply("B5")
    assert hand(game, 0) == cards("R3", "G8", "G9", "R1", "Y2")


def test_keep_drawing_stops_at_a_card_matching_by_number_and_then_offers_only_it():
    game = deal("keep-drawing", [["B3", "G8", "G9"], *OTHERS], "B7", ["R1", "Y7", "B5"])
    game.apply("draw")  # chosen although the blue 3 was playable
    assert game.legal_actions() == ["Y7", "keep"]


def test_keep_drawing_with_nothing_playable_left_draws_everything_and_ends_the_turn():
    game = deal(
        "keep-drawing", [["R3", "G8", "G9"], ["B1", "Y2", "Y3"], ["G1", "G2", "G3"]], "B7", ["R1", "Y2"]
    )
    game.apply("draw")
    assert hand(game, 0) == cards("R3", "G8", "G9", "R1", "Y2")
    assert game.omniscient()["draw_pile"] == 0
    assert game.to_move == (1,)
    assert game.legal_actions() == ["B1"]  # both piles are empty now: no draw


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_except_its_top_card():
    game = deal("classic", [["R1", "R2", "G9"], ["R3", "R4", "G8"]], "R9", [], dealer=1)
    play(game, "R1", "draw")
    events = events_of(game, "reshuffle")
    assert events == [{"type": "reshuffle", "draw_pile": 1}]
    view = game.omniscient()
    assert view["discard"] == ["R1"]  # the top card stays
    assert view["draw_order"] == []
    assert hand(game, 1) == cards("R3", "R4", "G8", "R9")  # drawn: the only card under the top one
    assert game.card_counts() == game.deck_counts()


def test_a_reshuffle_shuffles_several_cards_and_keeps_every_card():
    pile = ["B1"]
    game = deal("classic", [["R1", "R2", "R5", "G9"], ["R3", "R4", "R6", "G8"]], "R9", pile, dealer=1)
    play(game, "R1", "R3", "R2", "R4", "draw")  # draws B1: unplayable, turn ends
    play(game, "draw")  # pile empty: R9 R1 R3 R2 are reshuffled (R4 stays on top)
    assert events_of(game, "reshuffle") == [{"type": "reshuffle", "draw_pile": 4}]
    view = game.omniscient()
    assert view["discard"] == ["R4"]
    assert len(view["draw_order"]) == 3
    assert game.card_counts() == game.deck_counts()


def test_with_both_piles_empty_no_draw_is_offered():
    # Every card is dealt or on the discard pile, which holds one card.
    game = deal("classic", [["R1", "G5"], ["G1", "B5"]], "R9", [], dealer=1)
    assert game.legal_actions() == ["R1", "R1!"]


def test_with_both_piles_empty_a_seat_with_nothing_to_play_passes():
    game = deal("classic", [["B1", "B2"], ["R1", "G5"]], "R9", [], dealer=1)
    assert events_of(game, "pass") == [{"type": "pass", "seat": 0, "window": "turn"}]
    assert game.to_move == (1,)
    assert game.legal_actions() == ["R1", "R1!"]


def test_when_every_seat_is_stuck_the_hand_ends_blocked():
    game = deal("classic-single", [["B1", "B2"], ["G1", "G2"]], "R9", [], dealer=1)
    assert game.is_over
    end = events_of(game, "hand_end")[0]
    assert end["reason"] == "blocked"
    assert end["winner"] == -1
    assert end["gained"] == [0, 0]
    assert end["points"] == [3, 3]
    assert game.outcome.places == ((0, 1),)  # nobody went out; equal points left are an explicit tie
