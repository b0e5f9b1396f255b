"""The game's outcome value and the default action a faulted seat takes."""

import pytest
from scenario import deal, play

from arena.engine.game import Outcome

PILE = ["B1", "B2", "B3", "B4", "B5", "B6"]


def test_place_of_gives_tied_seats_the_better_place():
    outcome = Outcome(((2,), (0, 3), (1,)), (10, 0, 30, 10), "target", 3)
    assert [outcome.place_of(s) for s in range(4)] == [2, 4, 1, 2]
    with pytest.raises(ValueError, match="seat 5"):
        outcome.place_of(5)


def test_outcome_to_dict_is_json_ready():
    outcome = Outcome(((2,), (0, 3), (1,)), (10, 0, 30, 10), "target", 3)
    assert outcome.to_dict() == {
        "places": [[2], [0, 3], [1]],
        "scores": [10, 0, 30, 10],
        "termination": "target",
        "hands": 3,
    }


def test_the_game_end_event_repeats_the_outcome():
    game = deal("classic-single", [["R1"], ["Y1"]], "R9", PILE)
    game.apply("R1")
    assert game.events[-1] == {"type": "game_end", **game.outcome.to_dict()}


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ((), "draw"),  # a turn: draw
        (("R1",), "pass"),  # the catch window: pass
        (("W4:B!",), "take"),  # a Wild Draw Four: accept
        (("draw",), "keep"),  # a playable drawn card: keep
    ],
)
def test_a_faulted_seat_takes_the_default_action(setup, expected):
    dealt = [["R1", "W4"], ["Y1", "Y2"], ["G1", "G2"]]
    game = deal("classic", dealt, "R9", ["R5", *PILE])
    play(game, *setup)
    assert game.default_action() == expected


def test_the_default_in_a_slap_is_slap_and_for_a_colour_the_first_colour():
    game = deal("smackdown-6", [["R6", "R2"], ["Y1", "Y2"], ["G1", "G2"]], "R9", PILE)
    game.apply("R6!")
    assert game.default_action(2) == "slap"
    game = deal("classic", [["R6", "R2"], ["Y1", "Y2"], ["G1", "G2"]], "W", PILE)
    assert game.default_action() == "color:R"
