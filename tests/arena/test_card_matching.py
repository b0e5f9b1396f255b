"""Matching the top discard by colour, number or symbol; Wild is always playable (000, 001)."""

import pytest
from scenario import deal, playable

from arena.errors import IllegalAction

OTHERS = [["Y1", "Y2", "Y3", "Y4"], ["G1", "G2", "G3", "G4"]]


def test_a_card_of_the_same_colour_or_number_matches():
    # 000's example: on a red 5, the red 2 and red 9 match by colour and the blue 5 by number; green 7 does not.
    game = deal("classic", [["R2", "R9", "B5", "G7"], *OTHERS], "R5", ["B1"])
    assert playable(game) == {"R2", "R9", "B5"}


def test_the_seed_documents_complete_turn_example():
    # 000: on a yellow 8, with red 8, yellow 2, blue 5, green Skip and a Wild: red 8, yellow 2 and the Wild play.
    game = deal("classic", [["R8", "Y2", "B5", "GS", "W"], ["G1"] * 5, ["B1"] * 5], "Y8", ["B2"])
    assert playable(game) == {"R8", "Y2", "W"}
    assert set(game.legal_actions()) == {"R8", "Y2", "W:R", "W:Y", "W:G", "W:B", "draw"}


@pytest.mark.parametrize(("action", "same_symbol"), [("RS", "GS"), ("RR", "BR"), ("RD2", "YD2")])
def test_an_action_card_matches_the_same_symbol_in_another_colour(action, same_symbol):
    # Seat 0 plays a red action card; whichever way it sends play, seat 2 moves next.
    game = deal(
        "classic",
        [[action, "R1", "R2"], ["Y1", "Y2", "Y3"], [same_symbol, "G7", "B3"]],
        "R9",
        ["B1", "B2", "B4"],
    )
    game.apply(action)
    assert game.to_move == (2,)
    assert playable(game) == {same_symbol}


def test_a_skip_may_be_played_on_a_skip_of_another_colour():
    game = deal("classic", [["R1", "GS", "B3"], ["Y1", "RS", "Y3"], ["G1", "G2", "G3"]], "R9", ["B1"])
    game.apply("R1")
    game.apply("RS")  # seat 1 skips seat 2
    assert game.to_move == (0,)
    assert playable(game) == {"GS"}


def test_a_draw_two_may_be_played_on_a_draw_two_and_a_reverse_on_a_reverse():
    game = deal("classic", [["R1", "GD2", "BR"], ["RR", "Y2", "Y3"], ["RD2", "G2", "G3"]], "R9", ["B1"] * 6)
    game.apply("R1")
    game.apply("RR")  # direction reversed: seat 0 plays next
    assert game.to_move == (0,)
    assert playable(game) == {"BR"}


def test_a_wild_is_playable_even_when_a_matching_card_is_held():
    game = deal("classic", [["R1", "R2", "W"], ["Y1"] * 3, ["G1"] * 3], "R9", ["B1"])
    assert {"W:R", "W:Y", "W:G", "W:B"} <= set(game.legal_actions())


def test_a_wild_names_any_colour_including_the_current_one():
    game = deal("classic", [["R1", "B2", "W"], ["Y1"] * 3, ["G1"] * 3], "R9", ["B1"])
    game.apply("W:R")
    assert game.omniscient()["color"] == "R"
    assert game.omniscient()["top"] == "W"


def test_after_a_wild_only_the_named_colour_or_another_wild_matches():
    game = deal("classic", [["W", "B2", "B3"], ["G9", "Y9", "W"], ["G1"] * 3], "R9", ["B1"])
    game.apply("W:G")
    assert game.to_move == (1,)
    assert playable(game) == {"G9", "W"}


def test_a_card_that_does_not_match_is_rejected():
    game = deal("classic", [["R1", "G7", "B3"], ["Y1"] * 3, ["G1"] * 3], "R9", ["B1"])
    with pytest.raises(IllegalAction, match="G7"):
        game.apply("G7")


def test_playing_a_card_puts_it_on_the_discard_pile_and_passes_the_turn_to_the_left():
    game = deal("classic", [["R1", "G7", "B3"], ["Y1"] * 3, ["G1"] * 3], "R9", ["B1"])
    events = game.apply("R1")
    assert events[0] == {"type": "play", "seat": 0, "card": "R1"}
    view = game.omniscient()
    assert view["discard"] == ["R9", "R1"]
    assert view["hands"][0] == ["G7", "B3"]
    assert game.to_move == (1,)
