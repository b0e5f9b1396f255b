"""Cards, their compact codes, their values, and the decks the rule sets use.

A card is a small integer (an index into :data:`CARDS`); copies of a card are the same integer.
Codes follow ``docs/rules.md``: colour letter ``R Y G B`` then rank (``R7``, ``GS``, ``BR``, ``YD2``,
``RD4``, ``GD6``, ``BD10``, ``YSE``, ``RRE``); wild cards start with ``W`` (``W``, ``W4``, ``WS``, ``WC``,
``W2``, ``W6``, ``WSK``, ``WR``); ``X`` is a blank card.

>>> card_code(parse_card("YD2"))
'YD2'
>>> CARDS[parse_card("R7")].points, CARDS[parse_card("W4")].points
(7, 50)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Final

from arena.errors import CardCodeError

COLOURS: Final = "RYGB"
"""Colour letters in their fixed order: red, yellow, green, blue. A colour is its index here."""

COLOUR_NAMES: Final = ("red", "yellow", "green", "blue")

NUMBER_RANKS: Final = tuple(str(i) for i in range(10))
ACTION_RANKS: Final = ("S", "R", "D2", "D4", "D6", "D10", "SE", "RE")
WILD_RANKS: Final = ("W", "W4", "WS", "WC", "W2", "W6", "WSK", "WR", "X")

RANK_NAMES: Final = {
    "S": "Skip",
    "R": "Reverse",
    "D2": "Draw Two",
    "D4": "Draw Four",
    "D6": "Draw Six",
    "D10": "Draw Ten",
    "SE": "Skip Everyone",
    "RE": "Reverse Everyone",
    "W": "Wild",
    "W4": "Wild Draw Four",
    "WS": "Wild Shuffle Hands",
    "WC": "Wild Customizable",
    "W2": "Wild Draw Two",
    "W6": "Wild Draw Six",
    "WSK": "Wild Skip",
    "WR": "Wild Reverse",
    "X": "Blank",
}

_DRAW_VALUE: Final = {"D2": 2, "D4": 4, "D6": 6, "D10": 10, "W4": 4, "W2": 2, "W6": 6}


def _points(rank: str) -> int:
    """Card values (000, 001, 002, 003, 004): numbers face value, Skip/Reverse/Draw Two 20,
    Shuffle Hands and Customizable 40, every other wild and every No Mercy card 50,
    a blank card 50 (it plays as a plain Wild: docs/rules.md)."""
    if rank in NUMBER_RANKS:
        return int(rank)
    if rank in ("S", "R", "D2"):
        return 20
    if rank in ("WS", "WC"):
        return 40
    return 50


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of card: its code, colour index (-1 for wilds), rank, value and draw penalty."""

    id: int
    code: str
    colour: int
    rank: str
    points: int
    draw: int

    @property
    def is_wild(self) -> bool:
        """True for cards without a colour of their own (wilds and blanks)."""
        return self.colour < 0

    @property
    def name(self) -> str:
        """A readable English name, e.g. ``"red 7"`` or ``"Wild Draw Four"``."""
        rank = RANK_NAMES.get(self.rank, self.rank)
        return rank if self.colour < 0 else f"{COLOUR_NAMES[self.colour]} {rank}"


def _build_cards() -> tuple[Card, ...]:
    cards: list[Card] = []
    for colour, letter in enumerate(COLOURS):
        for rank in NUMBER_RANKS + ACTION_RANKS:
            cards.append(
                Card(len(cards), letter + rank, colour, rank, _points(rank), _DRAW_VALUE.get(rank, 0))
            )
    for rank in WILD_RANKS:
        cards.append(Card(len(cards), rank, -1, rank, _points(rank), _DRAW_VALUE.get(rank, 0)))
    return tuple(cards)


CARDS: Final = _build_cards()
"""Every kind of card, indexed by card id. Ids are ordered by colour then rank, wilds last."""

_BY_CODE: Final = {card.code: card.id for card in CARDS}


def parse_card(code: object) -> int:
    """The card id of a compact code; raises :class:`CardCodeError` naming the bad code."""
    card = _BY_CODE.get(code) if type(code) is str else None
    if card is None:
        raise CardCodeError(f"unknown card code {code!r} (expected e.g. 'R7', 'GS', 'YD2', 'W4')")
    return card


def card_code(card: int) -> str:
    """The compact code of a card id."""
    return CARDS[card].code


def parse_cards(codes: list[str] | tuple[str, ...]) -> list[int]:
    """Card ids of a list of codes."""
    return [parse_card(code) for code in codes]


# --- Decks -------------------------------------------------------------------------------------------

_CLASSIC: Final = (
    [(c + "0", 1) for c in COLOURS]
    + [(c + r, 2) for c in COLOURS for r in (*NUMBER_RANKS[1:], "S", "R", "D2")]
    + [("W", 4), ("W4", 4)]
)

# No Mercy: the sources give the card kinds but not the counts (003: "usually over 100"). Our fixed
# composition, 148 cards: per colour two of each number 0-9, two Skip, two Reverse, two Draw Two,
# two Draw Four, one each of Draw Six, Draw Ten, Skip Everyone, Reverse Everyone (32 x 4 = 128);
# then 4 Wild, 4 Wild Draw Four, 4 Wild +2, 4 Wild +6, 2 Wild Skip, 2 Wild Reverse (20).
_NO_MERCY: Final = (
    [(c + r, 2) for c in COLOURS for r in (*NUMBER_RANKS, "S", "R", "D2", "D4")]
    + [(c + r, 1) for c in COLOURS for r in ("D6", "D10", "SE", "RE")]
    + [("W", 4), ("W4", 4), ("W2", 4), ("W6", 4), ("WSK", 2), ("WR", 2)]
)

DECKS: Final[dict[str, tuple[tuple[str, int], ...]]] = {
    "classic": tuple(_CLASSIC),
    "2018": (*_CLASSIC, ("WS", 1), ("WC", 3)),
    "blank": (*_CLASSIC, ("X", 4)),
    "no-mercy": tuple(_NO_MERCY),
}
"""Deck compositions as (code, count) pairs: classic 108, 2018 112, blank 112, No Mercy 148."""

DECK_SIZES: Final = {"classic": 108, "2018": 112, "blank": 112, "no-mercy": 148}


def deck_cards(deck: str) -> list[int]:
    """The card ids of a deck in a fixed, unshuffled order."""
    return [parse_card(code) for code, count in DECKS[deck] for _ in range(count)]


def deck_counter(deck: str) -> Counter[int]:
    """How many copies of each card id the deck holds."""
    return Counter(deck_cards(deck))
