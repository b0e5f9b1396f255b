"""Action strings: the vocabulary every decision is made in, parsed once into a lookup table.

Actions are short strings (see ``docs/rules.md``): a card code plays it (``R7``), a wild carries the
named colour (``W4:B``), a trailing ``!`` declares UNO (``R7!``); ``draw``, ``keep``, ``take``,
``challenge``, ``pass``, ``catch``, ``slap``, ``say_uno`` (declaring UNO on its own, under
``uno_call=window``); ``color:R``; ``swap:3``.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from arena.engine.cards import CARDS, COLOURS
from arena.errors import MalformedAction

# Action kinds.
PLAY: Final = 0
DRAW: Final = 1
KEEP: Final = 2
TAKE: Final = 3
CHALLENGE: Final = 4
PASS: Final = 5
CATCH: Final = 6
SLAP: Final = 7
COLOR: Final = 8
SWAP: Final = 9
SAY_UNO: Final = 10

MAX_SEATS: Final = 10

# Wilds whose colour is named after their effect (Wild Shuffle Hands), so the play carries no colour.
COLOUR_LATER: Final = frozenset({"WS"})


class ParsedAction(NamedTuple):
    """An action string taken apart: kind, card id (or -1), colour index (or -1), UNO flag, target seat."""

    kind: int
    card: int
    colour: int
    uno: bool
    target: int


def _build() -> tuple[dict[str, ParsedAction], tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    table: dict[str, ParsedAction] = {}
    plain: list[tuple[str, ...]] = []
    with_uno: list[tuple[str, ...]] = []
    for card in CARDS:
        if card.colour >= 0 or card.rank in COLOUR_LATER:
            names = [card.code]
            colours = [card.colour]
        else:
            names = [f"{card.code}:{c}" for c in COLOURS]
            colours = list(range(4))
        for name, colour in zip(names, colours, strict=True):
            table[name] = ParsedAction(PLAY, card.id, colour, False, -1)
            if card.rank not in COLOUR_LATER:
                table[name + "!"] = ParsedAction(PLAY, card.id, colour, True, -1)
        plain.append(tuple(names))
        if card.rank in COLOUR_LATER:  # the hand is re-dealt before UNO could matter
            with_uno.append(tuple(names))
        else:
            with_uno.append(tuple(n for name in names for n in (name, name + "!")))
    for word, kind in (
        ("draw", DRAW),
        ("keep", KEEP),
        ("take", TAKE),
        ("challenge", CHALLENGE),
        ("pass", PASS),
        ("catch", CATCH),
        ("slap", SLAP),
        ("say_uno", SAY_UNO),
    ):
        table[word] = ParsedAction(kind, -1, -1, False, -1)
    for colour, letter in enumerate(COLOURS):
        table[f"color:{letter}"] = ParsedAction(COLOR, -1, colour, False, -1)
    for seat in range(MAX_SEATS):
        table[f"swap:{seat}"] = ParsedAction(SWAP, -1, -1, False, seat)
    return table, tuple(plain), tuple(with_uno)


ACTIONS, PLAY_ACTIONS, PLAY_ACTIONS_UNO = _build()
"""``ACTIONS`` maps every action string to its :class:`ParsedAction`. ``PLAY_ACTIONS[card]`` are the
ways to play a card; ``PLAY_ACTIONS_UNO[card]`` the same, each also with ``!``."""

COLOR_ACTIONS: Final = tuple(f"color:{c}" for c in COLOURS)
SWAP_ACTIONS: Final = tuple(f"swap:{s}" for s in range(MAX_SEATS))


def malformed(action: object) -> MalformedAction:
    """The error for something that is not an action string at all."""
    return MalformedAction(
        f"{action!r} is not an action (expected e.g. 'R7', 'W4:B', 'R7!', 'draw', 'keep', 'take', "
        "'challenge', 'pass', 'catch', 'slap', 'say_uno', 'color:R', 'swap:2')"
    )


def parse_action(action: object) -> ParsedAction:
    """Parse an action string; raises :class:`MalformedAction` naming it if it is not an action."""
    parsed = ACTIONS.get(action) if type(action) is str else None
    if parsed is None:
        raise malformed(action)
    return parsed
