"""6 Smackdown (001): when a 6 is played every player must slap it; the last to slap draws 2."""

import pytest
from scenario import deal, events_of, hand, play

from arena.errors import NotYourTurn, RulesError

PILE = ["B1", "B2", "B3", "B4", "B5", "B6"]
DEALT = [["R6", "R1", "R2"], ["Y1", "Y2", "Y3"], ["G1", "G2", "G3"], ["B7", "B8", "B9"]]


def test_every_seat_including_the_player_must_slap_a_six():
    game = deal("smackdown-6", DEALT, "R9", PILE)
    game.apply("R6")
    assert game.observation(0)["phase"] == "slap"
    assert set(game.to_move) == {0, 1, 2, 3}
    for seat in range(4):
        assert game.legal_actions(seat) == ["slap"]


@pytest.mark.parametrize("order", [(1, 2, 3, 0), (3, 0, 2, 1), (0, 1, 2, 3)])
def test_the_last_seat_to_slap_draws_two(order):
    game = deal("smackdown-6", DEALT, "R9", PILE)
    game.apply("R6")
    for i, seat in enumerate(order):
        game.apply("slap", seat)
        assert set(game.to_move) == ({0, 1, 2, 3} - set(order[: i + 1]) if i < 3 else {1})
    last = order[-1]
    assert len(hand(game, last)) == (2 if last == 0 else 3) + 2
    assert [e["seat"] for e in events_of(game, "slap")] == list(order)
    assert events_of(game, "draw")[-1] == {
        "type": "draw",
        "seat": last,
        "cards": ["B1", "B2"],
        "reason": "slap",
    }
    assert game.to_move == (1,)  # then seat 1's normal turn


def test_a_seat_that_has_slapped_may_not_slap_again():
    game = deal("smackdown-6", DEALT, "R9", PILE)
    play(game, "R6", (2, "slap"))
    with pytest.raises(NotYourTurn):
        game.apply("slap", 2)


def test_other_cards_are_not_slapped_and_sixes_are_not_slapped_without_the_house_rule():
    game = deal("smackdown-6", DEALT, "R9", PILE)
    game.apply("R1")
    assert game.observation(1)["phase"] == "turn"
    game = deal("classic", DEALT, "R9", PILE)
    game.apply("R6")
    assert game.observation(1)["phase"] == "turn"
    assert game.to_move == (1,)


def test_a_six_of_any_colour_is_slapped():
    game = deal("smackdown-6", [["R6", "R2", "R3"], ["G6", "Y2", "Y3"], ["G1", "G2", "G3"]], "R9", PILE)
    play(game, "R6", (0, "slap"), (1, "slap"), (2, "slap"))
    assert len(hand(game, 2)) == 5
    game.apply("G6")
    assert set(game.to_move) == {0, 1, 2}


# --- A 6 as the last card (smackdown_last): the others still slap it (default), or the hand just ends ---


def test_a_last_six_is_still_slapped_by_the_others_and_the_last_draws_before_scoring():
    game = deal("smackdown-6", [["R6"], ["Y1"], ["G1"]], "R9", PILE, scoring="single-hand")
    game.apply("R6")
    assert not game.is_over
    assert set(game.to_move) == {1, 2}  # the player has gone out: it does not slap
    assert game.legal_actions(0) == []
    play(game, (2, "slap"), (1, "slap"))
    assert hand(game, 1) == ["B1", "B2", "Y1"]
    assert game.is_over
    end = events_of(game, "hand_end")[0]
    assert (end["winner"], end["reason"], end["gained"]) == (0, "out", [1 + 2 + 1 + 1, 0, 0])


def test_with_smackdown_last_out_a_last_six_ends_the_hand_at_once():
    game = deal(
        "smackdown-6", [["R6"], ["Y1"], ["G1"]], "R9", PILE, scoring="single-hand", smackdown_last="out"
    )
    game.apply("R6")
    assert game.is_over
    assert events_of(game, "slap") == []


def test_smackdown_last_needs_6_smackdown():
    with pytest.raises(RulesError, match="smackdown_last"):
        deal("classic", DEALT, "R9", PILE, smackdown_last="out")
