"""Card codes parse and print both ways; malformed codes raise CardCodeError naming them."""

import pytest

from arena.engine.cards import CARDS, DECK_SIZES, card_code, deck_cards, parse_card, parse_cards
from arena.engine.game import Game
from arena.engine.rules import preset
from arena.errors import ArenaError, CardCodeError


def test_every_card_code_round_trips():
    for card in CARDS:
        assert parse_card(card.code) == card.id
        assert card_code(card.id) == card.code


@pytest.mark.parametrize(
    ("code", "colour", "rank", "draw"),
    [
        ("R7", 0, "7", 0),
        ("GS", 2, "S", 0),
        ("BR", 3, "R", 0),
        ("YD2", 1, "D2", 2),
        ("W4", -1, "W4", 4),
        ("RD10", 0, "D10", 10),
        ("YSE", 1, "SE", 0),
        ("W6", -1, "W6", 6),
        ("X", -1, "X", 0),
    ],
)
def test_codes_carry_colour_rank_and_draw_penalty(code, colour, rank, draw):
    card = CARDS[parse_card(code)]
    assert (card.colour, card.rank, card.draw) == (colour, rank, draw)
    assert card.is_wild is (colour < 0)


def test_cards_have_readable_names():
    assert CARDS[parse_card("R7")].name == "red 7"
    assert CARDS[parse_card("YD2")].name == "yellow Draw Two"
    assert CARDS[parse_card("W4")].name == "Wild Draw Four"


@pytest.mark.parametrize(
    "bad", ["R77", "r7", "P5", "", " R7", "R7 ", "W5", "WD4", "R", "B-1", "XX", None, 7, "R7!"]
)
def test_a_malformed_code_raises_card_code_error_naming_it(bad):
    with pytest.raises(CardCodeError, match=repr(bad).replace("(", r"\(")):
        parse_card(bad)


def test_a_malformed_code_in_a_list_is_named():
    with pytest.raises(CardCodeError, match="'G12'"):
        parse_cards(["R1", "G12"])


def test_card_code_error_is_an_arena_error_and_a_value_error():
    assert issubclass(CardCodeError, ArenaError)
    assert issubclass(CardCodeError, ValueError)


def test_an_explicit_deck_with_a_malformed_code_is_refused():
    with pytest.raises(CardCodeError, match="'Q9'"):
        Game(preset("classic"), 2, seed=1, deck=["R1"] * 20 + ["Q9"])


@pytest.mark.parametrize("deck", ["classic", "2018", "blank", "no-mercy"])
def test_deck_sizes(deck):
    assert len(deck_cards(deck)) == DECK_SIZES[deck]
    assert DECK_SIZES == {"classic": 108, "2018": 112, "blank": 112, "no-mercy": 148}
