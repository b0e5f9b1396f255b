"""Illegal, out-of-turn and malformed actions raise typed errors naming what was wrong; nothing changes."""

import pytest
from scenario import deal, play, state

from arena.errors import ArenaError, IllegalAction, MalformedAction, NotYourTurn

PILE = ["B1", "B2", "B3", "B4", "B5", "B6"]
DEALT = [["R1", "G7", "W"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]]


def fresh():
    return deal("classic", DEALT, "R9", PILE)


@pytest.mark.parametrize(
    "action", ["R77", "play", "", "W", "W4:P", "R1!!", "swap:10", "color:X", "draw ", None, 5, ["R1"]]
)
def test_a_malformed_action_raises_malformed_action_naming_it(action):
    game = fresh()
    before = state(game)
    with pytest.raises(MalformedAction) as info:
        game.apply(action)  # type: ignore[arg-type]
    assert repr(action) in str(info.value)
    assert state(game) == before


@pytest.mark.parametrize(
    "action",
    [
        "G7",
        "G7!",
        "R1!",
        "W4:R",
        "keep",
        "take",
        "challenge",
        "catch",
        "slap",
        "pass",
        "color:R",
        "swap:1",
        "B1",
    ],
)
def test_an_illegal_action_raises_illegal_action_naming_it_and_the_legal_ones(action):
    game = fresh()
    before = state(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert not isinstance(info.value, (MalformedAction, NotYourTurn))
    assert repr(action) in str(info.value)
    assert "legal: R1, W:R, W:Y, W:G, W:B, draw" in str(info.value)
    assert state(game) == before


@pytest.mark.parametrize("seat", [1, 2, 3, -1])
def test_an_action_out_of_turn_raises_not_your_turn(seat):
    game = fresh()
    before = state(game)
    with pytest.raises(NotYourTurn, match=f"seat {seat} is not to move"):
        game.apply("draw", seat)
    assert state(game) == before


def test_a_seat_not_to_move_has_no_legal_actions():
    game = fresh()
    assert game.legal_actions(1) == []
    assert game.legal_actions(2) == []
    assert game.legal_actions(0) == ["R1", "W:R", "W:Y", "W:G", "W:B", "draw"]


def test_a_rejected_action_in_an_out_of_turn_window_changes_nothing():
    game = deal("classic", [["R1", "R2"], ["Y1", "Y2"], ["G1", "G2"]], "R9", PILE)
    game.apply("R1")  # no UNO: seat 1 may catch
    before = state(game)
    with pytest.raises(NotYourTurn):
        game.apply("catch", 2)  # seat 2 is offered after seat 1
    with pytest.raises(IllegalAction):
        game.apply("slap", 1)
    assert state(game) == before


def test_after_the_game_is_over_every_action_is_refused():
    game = deal("classic-single", [["R1"], ["Y1"]], "R9", PILE)
    game.apply("R1")
    assert game.is_over
    assert game.to_move == ()
    assert game.current_player == -1
    before = state(game)
    with pytest.raises(IllegalAction, match="over"):
        game.apply("draw", 1)
    assert state(game) == before


def test_every_error_is_an_arena_error():
    for error in (IllegalAction, MalformedAction, NotYourTurn):
        assert issubclass(error, ArenaError)
    assert issubclass(MalformedAction, IllegalAction)
    assert issubclass(NotYourTurn, IllegalAction)


def test_the_game_goes_on_normally_after_a_rejected_action():
    game = fresh()
    with pytest.raises(IllegalAction):
        game.apply("G7")
    play(game, "R1")
    assert game.to_move == (1,)
    assert game.history == [(0, "R1")]
