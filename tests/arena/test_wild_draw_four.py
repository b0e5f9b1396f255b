"""Wild Draw Four: the restriction, the unrestricted house rule, the bluff and the challenge (000, 001, 002)."""

import pytest
from scenario import cards, deal, events_of, hand, play, playable

from arena.engine.rules import preset
from arena.errors import IllegalAction, RulesError

RESTRICTED = {"challenge": False}  # the restriction enforced at play time, no challenge
UNRESTRICTED = {"challenge": False, "wild_draw_four": "unrestricted"}
PILE = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9"]
OTHERS = [["Y1", "Y2", "Y3"], ["G1", "G2", "G3"]]


def test_without_a_card_of_the_current_colour_it_may_be_played():
    game = deal("classic", [["W4", "B5", "G7"], *OTHERS], "R7", PILE, **RESTRICTED)
    assert "W4" in playable(game)


def test_holding_a_card_of_the_current_colour_forbids_it():
    # 000's example: on a red 7, a player holding a red 2 may not play Wild Draw Four.
    game = deal("classic", [["W4", "R2", "G7"], *OTHERS], "R7", PILE, **RESTRICTED)
    assert "W4" not in playable(game)
    with pytest.raises(IllegalAction, match="W4:B"):
        game.apply("W4:B")


@pytest.mark.parametrize(
    "other_card",
    [
        pytest.param("B7", id="same-number-other-colour"),
        pytest.param("GS", id="action-card-other-colour"),
        pytest.param("W", id="another-wild"),
        pytest.param("W4", id="another-wild-draw-four"),
    ],
)
def test_a_matching_number_or_symbol_in_another_colour_or_another_wild_does_not_prevent_it(other_card):
    # 000: "the condition is having no card of the same colour, not no card of the same number";
    # 001: a card of another colour matching the number/symbol, or a Wild, still allows it.
    game = deal("classic", [["W4", other_card, "G1"], *OTHERS], "R7", PILE, **RESTRICTED)
    assert "W4" in playable(game)


def test_after_a_wild_the_named_colour_is_the_one_that_restricts_it():
    game = deal(
        "classic", [["W", "B1", "B2"], ["W4", "G5", "R5"], ["Y1", "Y2", "Y3"]], "R7", PILE, **RESTRICTED
    )
    game.apply("W:G")
    assert "W4" not in playable(game)  # seat 1 holds a green card
    game = deal(
        "classic", [["W", "B1", "B2"], ["W4", "G5", "R5"], ["Y1", "Y2", "Y3"]], "R7", PILE, **RESTRICTED
    )
    game.apply("W:Y")
    assert "W4" in playable(game)  # red 5 no longer matters: yellow is current


def test_the_unrestricted_house_rule_allows_it_while_holding_the_colour():
    game = deal("classic", [["W4", "R2", "G7"], *OTHERS], "R7", PILE, **UNRESTRICTED)
    assert "W4" in playable(game)
    game.apply("W4:G")
    assert hand(game, 1) == cards("Y1", "Y2", "Y3", "B1", "B2", "B3", "B4")
    assert game.to_move == (2,)
    assert "challenge" not in game.legal_actions()


def test_without_the_challenge_the_next_player_draws_four_and_is_skipped():
    game = deal("classic", [["W4", "B5", "G7"], *OTHERS], "R7", PILE, **RESTRICTED)
    game.apply("W4:B")
    assert hand(game, 1) == cards("Y1", "Y2", "Y3", "B1", "B2", "B3", "B4")
    assert game.to_move == (2,)
    assert game.omniscient()["color"] == "B"


def test_with_the_challenge_on_a_bluff_is_always_offered():
    game = deal("classic", [["W4", "R2", "G7"], *OTHERS], "R7", PILE)
    assert {"W4:R", "W4:Y", "W4:G", "W4:B"} <= set(game.legal_actions())


def test_the_next_player_chooses_to_challenge_or_accept():
    game = deal("classic", [["W4", "R2", "G7"], *OTHERS], "R7", PILE)
    game.apply("W4:B")
    assert game.to_move == (1,)
    assert game.legal_actions() == ["challenge", "take"]
    assert game.observation(1)["challengeable"] is True
    assert game.observation(1)["pending_draw"] == 4
    assert game.observation(2)["challengeable"] is False


def test_accepting_draws_four_and_loses_the_turn():
    game = deal("classic", [["W4", "R2", "G7"], *OTHERS], "R7", PILE)
    play(game, "W4:B", "take")
    assert hand(game, 1) == cards("Y1", "Y2", "Y3", "B1", "B2", "B3", "B4")
    assert hand(game, 0) == cards("R2", "G7")
    assert game.to_move == (2,)
    assert game.omniscient()["color"] == "B"
    assert game.omniscient()["pending_draw"] == 0


def test_challenged_bluff_makes_the_offender_draw_four():
    game = deal("classic", [["W4", "R2", "G7"], ["Y1", "B9", "Y3"], ["G1", "G2", "G3"]], "R7", PILE)
    play(game, "W4:B", "challenge")
    assert hand(game, 0) == cards("R2", "G7", "B1", "B2", "B3", "B4")
    assert hand(game, 1) == cards("Y1", "B9", "Y3")
    assert events_of(game, "challenge") == [{"type": "challenge", "seat": 1, "target": 0, "guilty": True}]
    # The challenger then takes their turn normally, in the colour the offender named.
    assert game.to_move == (1,)
    assert game.omniscient()["color"] == "B"
    assert playable(game) == {"B9"}
    assert "draw" in game.legal_actions()


def test_challenged_honest_play_makes_the_challenger_draw_six_and_lose_the_turn():
    game = deal("classic", [["W4", "B2", "G7"], *OTHERS], "R7", PILE)
    play(game, "W4:Y", "challenge")
    assert hand(game, 1) == cards("Y1", "Y2", "Y3", "B1", "B2", "B3", "B4", "B5", "B6")
    assert hand(game, 0) == cards("B2", "G7")
    assert events_of(game, "challenge") == [{"type": "challenge", "seat": 1, "target": 0, "guilty": False}]
    assert game.to_move == (2,)
    assert game.omniscient()["color"] == "Y"


def test_guilt_is_holding_the_previous_colour_not_a_matching_number():
    # On a red 7, holding a blue 7 and a Wild is not a bluff.
    game = deal("classic", [["W4", "B7", "W"], *OTHERS], "R7", PILE)
    play(game, "W4:B", "challenge")
    assert len(hand(game, 1)) == 3 + 6
    assert len(hand(game, 0)) == 2


def test_a_wild_draw_four_drawn_and_played_at_once_can_be_a_bluff():
    game = deal("classic", [["R2", "G7", "G8"], *OTHERS], "R9", ["W4", *PILE])
    play(game, "draw")
    assert game.legal_actions() == ["W4:R", "W4:Y", "W4:G", "W4:B", "keep"]
    play(game, "W4:G", "challenge")
    assert hand(game, 0) == cards("R2", "G7", "G8", "B1", "B2", "B3", "B4")


def test_without_the_challenge_a_drawn_wild_draw_four_is_playable_only_without_the_colour():
    game = deal("classic", [["R2", "G7", "G8"], *OTHERS], "R9", ["W4", *PILE], **RESTRICTED)
    play(game, "draw")
    assert game.to_move == (1,)  # the drawn card was not playable: the turn ended
    assert hand(game, 0) == cards("R2", "G7", "G8", "W4")


def test_the_victim_cannot_tell_a_bluff_from_an_honest_play():
    bluff = deal("classic", [["W4", "R2", "G7"], *OTHERS], "R7", PILE)
    honest = deal("classic", [["W4", "B2", "G7"], *OTHERS], "R7", PILE)
    for game in (bluff, honest):
        game.apply("W4:B")
    assert bluff.observation(1, history=True) == honest.observation(1, history=True)
    assert bluff.observation(2, history=True) == honest.observation(2, history=True)


def test_in_a_two_player_game_an_innocent_challenge_gives_the_turn_back_to_the_offender():
    game = deal("classic", [["W4", "B2", "G7"], ["Y1", "Y2", "Y3"]], "R7", PILE)
    play(game, "W4:Y", "challenge")
    assert len(hand(game, 1)) == 3 + 6
    assert game.to_move == (0,)


def test_in_a_two_player_game_a_guilty_offender_draws_and_the_challenger_plays():
    game = deal("classic", [["W4", "R2", "G7"], ["Y1", "Y2", "Y3"]], "R7", PILE)
    play(game, "W4:Y", "challenge")
    assert len(hand(game, 0)) == 2 + 4
    assert game.to_move == (1,)
    assert playable(game) == {"Y1", "Y2", "Y3"}


# --- A Wild Draw Four as the last card: unchallengeable (default) or challengeable (challenge_last) ------
# A last card can never be a bluff (the player held nothing else), so such a challenge always fails.

LAST = [["W4"], ["Y1"], ["G1"]]


def test_by_default_a_last_wild_draw_four_cannot_be_challenged():
    game = deal("classic", LAST, "R9", PILE, scoring="single-hand")
    game.apply("W4:Y")
    assert game.is_over
    assert hand(game, 1) == cards("Y1", "B1", "B2", "B3", "B4")


def test_with_challenge_last_the_victim_may_challenge_or_take_a_last_wild_draw_four():
    game = deal("classic", LAST, "R9", PILE, scoring="single-hand", challenge_last=True)
    game.apply("W4:Y")
    assert not game.is_over
    assert game.to_move == (1,)
    assert game.legal_actions() == ["challenge", "take"]
    assert game.observation(1)["challengeable"] is True
    assert game.observation(1)["pending_draw"] == 4
    game.apply("take")
    assert game.is_over
    assert hand(game, 1) == cards("Y1", "B1", "B2", "B3", "B4")
    end = events_of(game, "hand_end")[0]
    assert (end["winner"], end["reason"], end["gained"]) == (0, "out", [1 + 1 + 2 + 3 + 4 + 1, 0, 0])


def test_challenging_a_last_wild_draw_four_always_costs_the_challenger_six():
    game = deal("classic", LAST, "R9", PILE, scoring="single-hand", challenge_last=True)
    play(game, "W4:Y", "challenge")
    assert events_of(game, "challenge") == [{"type": "challenge", "seat": 1, "target": 0, "guilty": False}]
    assert len(hand(game, 1)) == 1 + 6
    assert game.is_over
    assert events_of(game, "hand_end")[0]["winner"] == 0


def test_a_last_wild_draw_four_under_challenge_last_cannot_be_stacked():
    game = deal(
        "classic",
        [["W4"], ["W4"], ["G1"]],
        "R9",
        PILE,
        stacking="same",
        scoring="single-hand",
        challenge_last=True,
    )
    game.apply("W4:Y")
    assert game.legal_actions() == ["challenge", "take"]


def test_challenge_last_needs_the_challenge_rule():
    with pytest.raises(RulesError, match="challenge_last"):
        preset("classic").replace(challenge=False, challenge_last=True)


# --- 004's guilty challenge: the offender draws 4 and loses a turn (challenge_guilty=draw-skip) -----------


def test_under_004_a_guilty_offender_draws_four_and_loses_their_next_turn():
    dealt = [["W4", "R2", "G7"], ["Y1", "B9", "Y3"], ["G1", "G2", "G3"]]
    game = deal("classic", dealt, "R7", PILE, challenge_guilty="draw-skip")
    play(game, "W4:B", "challenge")
    assert hand(game, 0) == cards("R2", "G7", "B1", "B2", "B3", "B4")
    assert game.observation(1)["lost_turns"] == [1, 0, 0]
    assert game.to_move == (1,)  # the challenger plays normally, in the named colour
    play(game, "B9", "draw", "keep")  # seat 2 draws the blue 5 and keeps it
    skip = events_of(game, "skip")[-1]
    assert skip == {"type": "skip", "seat": 0, "owed": True}
    assert game.to_move == (1,)
    assert game.observation(1)["lost_turns"] == [0, 0, 0]


def test_under_004_the_lost_turn_waits_while_a_penalty_is_pending():
    dealt = [["W4", "R2", "R3"], ["Y1", "BD2", "Y3"]]
    game = deal("stacking", dealt, "R9", PILE, challenge_guilty="draw-skip")
    play(game, "W4:B", "challenge", "BD2")  # guilty; then seat 1's Draw Two is waiting for seat 0
    assert hand(game, 0) == cards("R2", "R3", "B1", "B2", "B3", "B4", "B5", "B6")  # taken at once
    assert game.observation(1)["lost_turns"] == [1, 0]
    assert game.to_move == (1,)
    play(game, "draw", "keep")  # seat 1 draws the blue 7
    assert events_of(game, "skip")[-1] == {"type": "skip", "seat": 0, "owed": True}
    assert game.to_move == (1,)


def test_under_004_an_innocent_challenge_is_the_official_one():
    game = deal("classic", [["W4", "B2", "G7"], *OTHERS], "R7", PILE, challenge_guilty="draw-skip")
    play(game, "W4:Y", "challenge")
    assert len(hand(game, 1)) == 3 + 6
    assert game.observation(2)["lost_turns"] == [0, 0, 0]
    assert game.to_move == (2,)
