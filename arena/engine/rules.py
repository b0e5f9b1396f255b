"""Rule sets: one validated, immutable value made of named options, and the named presets.

A :class:`RuleSet` is a set of orthogonal options (OpenSpiel-style parameters) plus a name, a
description and the source documents it follows. Presets are found through one registry::

    >>> preset("classic").stacking
    'none'
    >>> preset("classic").replace(stacking="same", seven_o=True).seven_o
    True
    >>> RuleSet.from_dict({"deck": "classic", "stackin": "same"})
    Traceback (most recent call last):
    ...
    arena.errors.RulesError: unknown rule option 'stackin' (known: ...)

The meaning of every option, and every decision taken where the sources are silent, is in
``docs/rules.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from arena.engine.cards import DECK_SIZES
from arena.errors import RulesError


@dataclass(frozen=True, slots=True)
class Option:
    """The declaration of one rule option: its default, allowed values (or bounds) and meaning."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    bounds: tuple[int, int] | None = None


OPTIONS: Final[dict[str, Option]] = {
    o.name: o
    for o in (
        Option(
            "deck",
            "classic",
            "deck composition: classic 108, 2018 112, blank 112, no-mercy 148",
            ("classic", "2018", "blank", "no-mercy"),
        ),
        Option("hand_size", 7, "cards dealt to each player", bounds=(1, 10)),
        Option("min_players", 2, "fewest players at a table", bounds=(2, 10)),
        Option("max_players", 10, "most players at a table", bounds=(2, 10)),
        Option(
            "draw",
            "single",
            "no playable card or choosing to draw: draw one (single) or until playable (keep)",
            ("single", "keep"),
        ),
        Option(
            "wild_draw_four",
            "restricted",
            "Wild Draw Four (and No Mercy's Wild +6) only without a card of the current colour, or any time",
            ("restricted", "unrestricted"),
        ),
        Option("challenge", True, "the next player may challenge a restricted wild draw card", (True, False)),
        Option(
            "first_wild",
            "choose",
            "a Wild turned first: the first player names the colour, or it is replaced",
            ("choose", "replace"),
        ),
        Option(
            "first_reverse",
            "dealer",
            "a Reverse turned first: the dealer plays first (001) or the player to the dealer's right (002, 004)",
            ("dealer", "right"),
        ),
        Option(
            "stacking",
            "none",
            "answering a draw penalty with a draw card: none; same symbol; mixed +2/+4; any draw card of equal or "
            "higher value (No Mercy)",
            ("none", "same", "mixed", "any"),
        ),
        Option(
            "seven_o", False, "a 7 swaps hands with a chosen player; a 0 passes every hand on", (True, False)
        ),
        Option(
            "jump_in", False, "a player holding the identical card may play it out of turn", (True, False)
        ),
        Option(
            "smackdown",
            False,
            "6 Smackdown: everyone slaps a played 6, the last to slap draws 2",
            (True, False),
        ),
        Option("uno_penalty", 2, "cards drawn by a player caught without declaring UNO", (2, 4)),
        Option(
            "uno_call",
            "card",
            "declaring UNO: only with the next-to-last card (R7!), or also on its own (say_uno) after the "
            "play, until caught (window)",
            ("card", "window"),
        ),
        Option(
            "false_uno",
            0,
            "cards drawn for declaring UNO on a play that leaves more than one card (0: such a call is not offered)",
            (0, 2, 4),
        ),
        Option(
            "challenge_last",
            False,
            "a restricted wild draw card played as the last card may be challenged (a bluff keeps the hand going)",
            (True, False),
        ),
        Option(
            "challenge_guilty",
            "draw",
            "a guilty Wild Draw Four: the offender draws (001), or draws and loses their next turn (004)",
            ("draw", "draw-skip"),
        ),
        Option(
            "stack_colour",
            "match",
            "stacking mixed/any: a coloured draw card answers by colour (the named one after a wild) or symbol, "
            "or whatever the colours (any)",
            ("match", "any"),
        ),
        Option(
            "smackdown_last",
            "slap",
            "6 Smackdown, a 6 played as the last card: the others still slap it before the hand ends, or not (out)",
            ("slap", "out"),
        ),
        Option(
            "mercy",
            0,
            "Mercy rule (No Mercy): a player holding this many cards is out of the hand (0: off)",
            bounds=(0, 200),
        ),
        Option(
            "scoring",
            "winner-takes",
            "how hands are scored and when the game ends",
            ("winner-takes", "lowest-wins", "elimination", "single-hand"),
        ),
        Option(
            "target", 500, "score that ends the game (or eliminates, under elimination)", bounds=(1, 100_000)
        ),
        Option(
            "custom_wild",
            "plain",
            "what a Wild Customizable does (2018 deck)",
            ("plain", "swap", "all-draw-one"),
        ),
        Option(
            "max_turns",
            1000,
            "turn cap per hand; the hand then ends without a winner",
            bounds=(10, 1_000_000),
        ),
        Option(
            "max_hands",
            100,
            "hand cap per game; the game then ends on the current scores",
            bounds=(1, 10_000),
        ),
    )
}
"""Every rule option, by name, with its default."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """An immutable, validated set of rule options. Build one with :meth:`from_dict` or :func:`preset`."""

    deck: str = "classic"
    hand_size: int = 7
    min_players: int = 2
    max_players: int = 10
    draw: str = "single"
    wild_draw_four: str = "restricted"
    challenge: bool = True
    first_wild: str = "choose"
    first_reverse: str = "dealer"
    stacking: str = "none"
    seven_o: bool = False
    jump_in: bool = False
    smackdown: bool = False
    uno_penalty: int = 2
    uno_call: str = "card"
    false_uno: int = 0
    challenge_last: bool = False
    challenge_guilty: str = "draw"
    stack_colour: str = "match"
    smackdown_last: str = "slap"
    mercy: int = 0
    scoring: str = "winner-takes"
    target: int = 500
    custom_wild: str = "plain"
    max_turns: int = 1000
    max_hands: int = 100
    name: str = field(default="custom", compare=False)
    description: str = field(default="", compare=False)
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        _validate(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a rule set from option names and values; unknown options and bad values raise RulesError.

        A ``"preset"`` key starts from that preset; the other keys override its options.
        """
        if not isinstance(data, Mapping):
            raise RulesError(f"a rule set must be a mapping of options, not {type(data).__name__}")
        data = dict(data)
        base = preset(str(data.pop("preset"))) if "preset" in data else RuleSet()
        return base.replace(**data)

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some options changed (validated). Changing options renames it 'custom'
        unless a name is given."""
        meta = {"name", "description", "source"}
        for key in changes:
            if key not in OPTIONS and key not in meta:
                raise RulesError(f"unknown rule option {key!r} (known: {', '.join(OPTIONS)})")
        if set(changes) - meta and "name" not in changes:
            changed = {k: v for k, v in changes.items() if k not in meta and getattr(self, k) != v}
            if changed:
                changes["name"] = "custom"
        return dataclasses.replace(self, **changes)

    def options(self) -> dict[str, Any]:
        """The option values only (no name or description), JSON-ready."""
        return {name: getattr(self, name) for name in OPTIONS}

    def to_dict(self) -> dict[str, Any]:
        """Options plus name, description and source, JSON-ready; :meth:`from_dict` reads it back."""
        return {"name": self.name, "description": self.description, "source": self.source, **self.options()}

    @property
    def restricted(self) -> frozenset[str]:
        """Codes of the wild draw cards that follow the Wild Draw Four restriction and may be challenged."""
        return frozenset({"W4", "W6"} if self.deck == "no-mercy" else {"W4"})


def _validate(rules: RuleSet) -> None:
    for name, option in OPTIONS.items():
        value = getattr(rules, name)
        if option.choices:
            if value not in option.choices or type(value) is not type(option.default):
                allowed = ", ".join(repr(c) for c in option.choices)
                raise RulesError(f"rule option {name!r} cannot be {value!r} (allowed: {allowed})")
        elif option.bounds:
            low, high = option.bounds
            if type(value) is not int or not low <= value <= high:
                raise RulesError(
                    f"rule option {name!r} must be an integer from {low} to {high}, not {value!r}"
                )
    if rules.min_players > rules.max_players:
        raise RulesError(f"min_players ({rules.min_players}) is more than max_players ({rules.max_players})")
    if rules.challenge and rules.wild_draw_four == "unrestricted":
        raise RulesError(
            "challenge=True needs wild_draw_four='restricted': an unrestricted card cannot be challenged"
        )
    if rules.custom_wild != "plain" and rules.deck != "2018":
        raise RulesError(
            f"custom_wild={rules.custom_wild!r} needs deck='2018' (only it has Wild Customizable cards)"
        )
    for name, needs, ok in (
        ("challenge_last", "challenge=True", rules.challenge),
        ("challenge_guilty", "challenge=True", rules.challenge),
        ("stack_colour", "stacking 'mixed' or 'any'", rules.stacking in ("mixed", "any")),
        ("smackdown_last", "smackdown=True", rules.smackdown),
    ):
        if getattr(rules, name) != OPTIONS[name].default and not ok:
            raise RulesError(f"{name}={getattr(rules, name)!r} needs {needs} (otherwise it never applies)")
    if rules.mercy and rules.mercy <= rules.hand_size:
        raise RulesError(
            f"mercy={rules.mercy} must be more than hand_size={rules.hand_size} (or 0 for no Mercy rule)"
        )
    dealt = rules.hand_size * rules.max_players
    if dealt >= DECK_SIZES[rules.deck]:
        raise RulesError(
            f"hand_size={rules.hand_size} for max_players={rules.max_players} deals {dealt} cards; "
            f"the {rules.deck} deck has {DECK_SIZES[rules.deck]}"
        )


# --- Presets ------------------------------------------------------------------------------------------


def _preset(name: str, description: str, source: str, **options: Any) -> RuleSet:
    return RuleSet(name=name, description=description, source=source, **options)


PRESETS: Final[dict[str, RuleSet]] = {
    p.name: p
    for p in (
        _preset(
            "classic",
            "The official rules: draw one, Wild Draw Four restricted and challengeable, first to 500 points.",
            "000, 001",
        ),
        _preset(
            "classic-single",
            "The official rules, one hand decides the game.",
            "000 ('each hand has a winner')",
            scoring="single-hand",
        ),
        _preset(
            "classic-2018",
            "Official rules with the 2018 112-card deck (Wild Shuffle Hands, "
            "3 Wild Customizable played as plain wilds).",
            "001",
            deck="2018",
        ),
        _preset(
            "classic-blank",
            "Official rules with the 112-card box: 4 blank cards played as plain wilds.",
            "002",
            deck="blank",
        ),
        _preset(
            "stacking",
            "Progressive UNO: a draw penalty may be passed on with a card of the same symbol.",
            "001 (house rule), 000",
            stacking="same",
        ),
        _preset(
            "stacking-mixed",
            "Progressive UNO with +2 on +4 and +4 on +2.",
            "000 (house table)",
            stacking="mixed",
        ),
        _preset(
            "seven-o",
            "Seven-O: a 7 swaps hands with a chosen player, a 0 passes every hand on.",
            "001 (official house rule)",
            seven_o=True,
        ),
        _preset(
            "jump-in",
            "Jump-In: an identical card may be played out of turn.",
            "001 (official house rule)",
            jump_in=True,
        ),
        _preset(
            "smackdown-6",
            "6 Smackdown: everyone slaps a 6, the last to slap draws 2.",
            "001 (official house rule)",
            smackdown=True,
        ),
        _preset(
            "keep-drawing",
            "Keep Drawing: draw until a playable card comes.",
            "001 (house rule), 002, 004",
            draw="keep",
        ),
        _preset(
            "family",
            "The family reading: keep drawing, 4-card UNO penalty, a Wild turned first is replaced, "
            "a Reverse turned first lets the dealer's right start, lowest total wins when someone reaches 500.",
            "002, 004",
            draw="keep",
            uno_penalty=4,
            first_wild="replace",
            first_reverse="right",
            scoring="lowest-wins",
        ),
        _preset(
            "elimination",
            "Elimination: a player whose total reaches 500 is out; the last one left wins.",
            "002 (house rule)",
            scoring="elimination",
        ),
        _preset(
            "no-mercy",
            "UNO Show 'em No Mercy: the 148-card No Mercy deck, every draw card stacks on one of "
            "equal or higher value, Wild Draw Four and Wild +6 restricted and challengeable.",
            "003, 000",
            deck="no-mercy",
            stacking="any",
            mercy=25,
        ),
    )
}
"""Every named preset, by name. Each cites the source documents (seeds/) it follows."""


def preset(name: str) -> RuleSet:
    """The preset of that name; raises RulesError naming the unknown preset."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown rule set {name!r} (presets: {', '.join(PRESETS)})") from None


def parse_rules(spec: str) -> RuleSet:
    """A rule set from a command-line spec: a preset, optionally followed by ``,option=value`` overrides.

    >>> parse_rules("classic,seven_o=true,stacking=same").stacking
    'same'
    """
    parts = [part.strip() for part in spec.split(",") if part.strip()]
    if not parts:
        raise RulesError(f"empty rule set spec {spec!r} (expected a preset, e.g. 'classic,stacking=same')")
    name, *overrides = parts
    rules = preset(name)
    changes: dict[str, Any] = {}
    for item in overrides:
        key, sep, raw = item.partition("=")
        if not sep:
            raise RulesError(f"rule override {item!r} is not option=value")
        option = OPTIONS.get(key)
        if option is None:
            raise RulesError(f"unknown rule option {key!r} (known: {', '.join(OPTIONS)})")
        changes[key] = _coerce(option, raw)
    return rules.replace(**changes) if changes else rules


def _coerce(option: Option, raw: str) -> Any:
    if isinstance(option.default, bool):
        if raw.lower() in ("1", "true", "yes", "on"):
            return True
        if raw.lower() in ("0", "false", "no", "off"):
            return False
        raise RulesError(f"rule option {option.name!r} is true or false, not {raw!r}")
    if isinstance(option.default, int):
        try:
            return int(raw)
        except ValueError:
            raise RulesError(f"rule option {option.name!r} must be an integer, not {raw!r}") from None
    return raw


def rules_spec(rules: RuleSet) -> str:
    """The shortest ``preset[,option=value...]`` spec (``python -m arena ... --rules``) for a rule set.

    >>> rules_spec(PRESETS["seven-o"]), rules_spec(PRESETS["classic"].replace(target=200))
    ('seven-o', 'classic,target=200')
    """

    def diff(base: RuleSet) -> list[str]:
        return [
            f"{name}={_spec_value(getattr(rules, name))}"
            for name in OPTIONS
            if getattr(rules, name) != getattr(base, name)
        ]

    candidates = [(name, diff(base)) for name, base in PRESETS.items()]
    if rules.name in PRESETS:  # prefer the preset the rule set says it came from, at equal length
        candidates.sort(key=lambda c: c[0] != rules.name)
    name, changes = min(candidates, key=lambda c: len(c[1]))
    return ",".join([name, *changes])


def _spec_value(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)
