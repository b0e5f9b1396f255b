"""UNO Show 'em No Mercy (003, with 000): its deck, its new cards, its restricted wilds and its stacking."""

from collections import Counter

import pytest
from scenario import cards, deal, events_of, hand, play, playable

from arena.engine.cards import CARDS, DECK_SIZES, deck_cards, parse_card

PILE = [f"B{i}" for i in range(1, 10)] + [f"Y{i}" for i in range(1, 10)]
OTHERS = [["G1", "G2", "G3"], ["G4", "G5", "G6"]]


def test_the_no_mercy_deck_has_the_documented_148_cards():
    deck = Counter(CARDS[c].code for c in deck_cards("no-mercy"))
    assert sum(deck.values()) == DECK_SIZES["no-mercy"] == 148
    for colour in "RYGB":
        for rank in [*"0123456789", "S", "R", "D2", "D4"]:
            assert deck[colour + rank] == 2
        for rank in ("D6", "D10", "SE", "RE"):
            assert deck[colour + rank] == 1
    assert {k: deck[k] for k in ("W", "W4", "W2", "W6", "WSK", "WR")} == {
        "W": 4,
        "W4": 4,
        "W2": 4,
        "W6": 4,
        "WSK": 2,
        "WR": 2,
    }
    assert deck["WS"] == deck["WC"] == deck["X"] == 0


@pytest.mark.parametrize(("card", "drawn"), [("RD4", 4), ("RD6", 6), ("RD10", 10)])
def test_a_coloured_draw_card_makes_the_next_player_draw_and_lose_the_turn(card, drawn):
    game = deal("no-mercy", [[card, "R1", "R2"], *OTHERS], "R9", PILE)
    game.apply(card)
    assert len(hand(game, 1)) == 3 + drawn  # nothing to stack: the penalty is taken at once
    assert game.to_move == (2,)


@pytest.mark.parametrize("card", ["RD4", "RD6", "RD10", "RSE", "RRE"])
def test_the_new_coloured_cards_match_by_colour_and_by_symbol(card):
    other = "G" + card[1:]
    game = deal("no-mercy", [[card, other, "B2"], ["Y1", "Y2", "Y3"], [other, "G5", "Y6"]], "R9", PILE)
    assert playable(game) == {card}  # by colour; the green one matches nothing yet
    game.apply(card)
    # Skip/Reverse Everyone: seat 0 plays again; a draw card: seat 1 draws, seat 2 plays.
    seat = 0 if card in ("RSE", "RRE") else 2
    assert game.to_move == (seat,)
    assert other in playable(game)  # by symbol


def test_skip_everyone_lets_the_player_play_again():
    game = deal("no-mercy", [["RSE", "R1", "R2"], *OTHERS], "R9", PILE)
    events = game.apply("RSE")
    assert {"type": "skip", "seat": -1} in events
    assert game.to_move == (0,)
    assert game.omniscient()["direction"] == 1


def test_reverse_everyone_reverses_and_lets_the_player_play_again():
    game = deal("no-mercy", [["RRE", "R1", "R2"], *OTHERS], "R9", PILE)
    events = game.apply("RRE")
    assert {"type": "reverse", "direction": -1} in events
    assert game.to_move == (0,)
    game.apply("R1")
    assert game.to_move == (2,)  # counter-clockwise now


@pytest.mark.parametrize(("card", "drawn"), [("W2", 2), ("W4", 4), ("W6", 6)])
def test_a_wild_draw_card_names_the_colour_and_makes_the_next_player_draw(card, drawn):
    game = deal("no-mercy", [[card, "B1", "B2"], *OTHERS], "R9", PILE)
    game.apply(f"{card}:Y")
    assert game.omniscient()["color"] == "Y"
    if "take" in game.legal_actions():  # W4 and W6 may be challenged: accept
        game.apply("take")
    assert len(hand(game, 1)) == 3 + drawn
    assert game.to_move == (2,)


def test_wild_two_is_not_restricted_or_challengeable():
    game = deal("no-mercy", [["W2", "R1", "B2"], *OTHERS], "R9", PILE, challenge=False)
    assert "W2" in playable(game)  # held red 1 does not forbid it
    game = deal("no-mercy", [["W2", "R1", "B2"], *OTHERS], "R9", PILE)
    game.apply("W2:B")
    assert "challenge" not in game.legal_actions(1)


def test_wild_skip_names_the_colour_and_skips_the_next_player():
    game = deal("no-mercy", [["WSK", "R1", "R2"], *OTHERS], "R9", PILE)
    events = game.apply("WSK:G")
    assert {"type": "skip", "seat": 1} in events
    assert game.omniscient()["color"] == "G"
    assert game.to_move == (2,)


def test_wild_reverse_names_the_colour_and_reverses():
    game = deal("no-mercy", [["WR", "R1", "R2"], *OTHERS], "R9", PILE)
    game.apply("WR:G")
    assert game.omniscient()["color"] == "G"
    assert game.omniscient()["direction"] == -1
    assert game.to_move == (2,)


def test_wild_reverse_with_two_players_is_a_skip():
    game = deal("no-mercy", [["WR", "R1", "R2"], ["G1", "G2", "G3"]], "R9", PILE)
    game.apply("WR:G")
    assert game.to_move == (0,)


@pytest.mark.parametrize("card", ["W4", "W6"])
def test_wild_draw_four_and_wild_six_are_restricted_without_the_challenge(card):
    game = deal("no-mercy", [[card, "R1", "B2"], *OTHERS], "R9", PILE, challenge=False)
    assert card not in playable(game)
    game = deal("no-mercy", [[card, "B1", "B2"], *OTHERS], "R9", PILE, challenge=False)
    assert card in playable(game)


@pytest.mark.parametrize(("card", "value"), [("W4", 4), ("W6", 6)])
def test_a_guilty_restricted_wild_makes_the_offender_draw_its_value(card, value):
    game = deal("no-mercy", [[card, "R1", "B2"], *OTHERS], "R9", PILE)
    assert card in playable(game)  # a bluff is possible with the challenge on
    play(game, f"{card}:B", "challenge")
    assert len(hand(game, 0)) == 2 + value
    assert hand(game, 1) == cards(*OTHERS[0])
    assert game.to_move == (1,)
    assert events_of(game, "challenge")[0]["guilty"] is True


@pytest.mark.parametrize(("card", "drawn"), [("W4", 6), ("W6", 8)])
def test_an_innocent_restricted_wild_makes_the_challenger_draw_its_value_plus_two(card, drawn):
    game = deal("no-mercy", [[card, "B1", "B2"], *OTHERS], "R9", PILE)
    play(game, f"{card}:B", "challenge")
    assert len(hand(game, 1)) == 3 + drawn
    assert game.to_move == (2,)
    assert game.omniscient()["color"] == "B"


def test_every_no_mercy_card_scores_fifty_and_the_old_action_cards_twenty():
    for code in ("RD4", "RD6", "RD10", "RSE", "RRE", "W2", "W4", "W6", "WSK", "WR", "W"):
        assert CARDS[parse_card(code)].points == 50, code
    for code in ("RS", "RR", "RD2"):
        assert CARDS[parse_card(code)].points == 20, code


def test_draw_cards_stack_on_equal_or_higher_value():
    game = deal("no-mercy", [["RD4", "R1", "R2"], ["RD2", "RD6", "W4"], ["G4", "G5", "G6"]], "R9", PILE)
    game.apply("RD4")
    # A +2 is lower than the +4: it may not answer it; +6 (same colour) and a Wild +4 (equal) may.
    assert playable(game) == {"RD6", "W4"}
    assert "take" in game.legal_actions()
    assert "challenge" not in game.legal_actions()
    game.apply("RD6")
    assert len(hand(game, 2)) == 3 + 10  # seat 2 has no draw card: it takes the whole stack
    assert game.to_move == (0,)


def test_a_lower_draw_card_cannot_answer_a_stack_and_the_stack_may_be_taken():
    game = deal("no-mercy", [["RD6", "R1", "R2"], ["RD4", "W4", "RD2"], ["G4", "G5", "G6"]], "R9", PILE)
    game.apply("RD6")  # +4, Wild +4 and +2 are all lower than +6: seat 1 has no choice and takes 6
    assert len(hand(game, 1)) == 3 + 6
    assert game.to_move == (2,)


def test_a_stack_may_be_taken_even_when_it_could_be_answered():
    game = deal("no-mercy", [["RD4", "R1", "R2"], ["RD6", "G1", "G2"], ["G4", "G5", "G6"]], "R9", PILE)
    game.apply("RD4")
    assert game.legal_actions() == ["RD6", "take"]
    events = game.apply("take")
    assert events[0] == {"type": "take", "seat": 1, "count": 4}
    assert len(hand(game, 1)) == 3 + 4
    assert game.to_move == (2,)


def test_a_stack_with_nothing_to_answer_it_is_taken_at_once():
    game = deal("no-mercy", [["RD4", "R1", "R2"], ["RD6", "G1", "G2"], ["G4", "G5", "G6"]], "R9", PILE)
    play(game, "RD4", "RD6")
    assert len(hand(game, 2)) == 3 + 10
    assert game.to_move == (0,)
    assert events_of(game, "skip")[-1] == {"type": "skip", "seat": 2}


def test_a_plus_ten_ends_a_stack_of_plus_two_four_six():
    game = deal(
        "no-mercy",
        [["RD2", "R1", "R2"], ["RD4", "G1", "G2"], ["RD6", "G5", "G6"], ["RD10", "Y1", "Y2"]],
        "R9",
        PILE + ["G7"] * 10,
    )
    play(game, "RD2", "RD4", "RD6", "RD10")
    assert len(hand(game, 0)) == 2 + (2 + 4 + 6 + 10)  # R1, R2 and the whole stack
    assert game.to_move == (1,)
