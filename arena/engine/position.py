"""The position notation: one line of text for a complete UNO position, what FEN is to chess.

    uno1 rules:classic hand:1 dealer:3 turn:1 scores:0,0,0,0 dir:cw color:R move:turn:0 hands:R1,R2,B5/...

A position is ``uno1`` and then ``key:value`` fields separated by single spaces, in a fixed order (the
one :data:`FIELDS` lists; fields that hold nothing are left out). :meth:`Game.position` writes it,
:meth:`Game.from_position` reads it back; ``docs/position.md`` explains every field with an example per
phase. Written by hand for the same reason FEN codecs are: the format is the specification.

Two kinds of position:

* **complete** (``game.position()``): every hand, the discard pile and the draw pile's order. Loading it
  gives a game that continues exactly like the original, given the same random generator (a position does
  not carry the generator's state: ``from_position(text, seed)`` seeds a fresh one).
* **one seat's view** (``game.position(seat)``): what that seat may see, so other hands and the draw pile
  are card counts (``#7``), and so are the facts only others know (a drawn card, a bluff, the cards a seat
  lost to the Mercy rule, who else holds a card to jump in with). Loading a view fills the hidden places
  with the cards not shown anywhere (the rule set's deck minus every card shown), shuffled by a generator
  seeded from ``seed`` and dealt in order: hands by seat, the hidden part of the discard pile, the draw
  pile; so the same view and seed always give the same game, and another seed another consistent one.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from arena.engine.cards import CARDS, COLOURS, deck_cards, parse_card
from arena.engine.rules import RuleSet, parse_rules, rules_spec
from arena.errors import ArenaError, PositionError

if TYPE_CHECKING:
    from arena.engine.game import Game

VERSION: Final = "uno1"
"""The first word of every position: the notation and its version."""

FIELDS: Final = (
    "rules", "hand", "dealer", "turn", "scores", "dir", "color", "move", "current", "after", "next",
    "drawn", "pending", "challenge", "uno", "lost", "passes", "out", "mercy", "end", "places",
    "hands", "discard", "pile",
)  # fmt: skip
"""Every field, in the order a position writes them."""

REQUIRED: Final = (
    "rules",
    "hand",
    "dealer",
    "turn",
    "scores",
    "dir",
    "color",
    "move",
    "hands",
    "discard",
    "pile",
)

PHASE_NAMES: Final = ("turn", "drawn", "color", "swap", "uno", "catch", "slap", "jump", "over")
_ONE_SEAT: Final = frozenset({"turn", "drawn", "color", "swap", "uno"})
_CURRENT: Final = frozenset({"uno", "catch", "slap", "jump", "over"})
"""Phases where the seat whose turn it is differs from the seat(s) to move: ``current`` says it."""
_CONTINUED: Final = frozenset({"color", "swap", "uno", "catch", "slap", "jump"})
"""Phases that finish a play: ``after`` (whose play) and ``next`` (whose turn comes after it)."""
TERMINATIONS: Final = ("target", "last-standing", "single-hand", "hand-limit")
_INT: Final = re.compile(r"0|[1-9][0-9]{0,8}")
_CODE: Final = tuple(c.code for c in CARDS)


def _hidden_seed(seed: int) -> str:
    return f"uno1 hidden cards {seed}"


# --- Writing --------------------------------------------------------------------------------------------


def encode(game: Game, seat: int | None = None) -> str:
    """The position of ``game``: complete, or (``seat``) that seat's view."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.n):
        raise ArenaError(f"seat {seat!r} is not a seat of a {game.n}-player game")
    head = [
        VERSION,
        f"rules:{rules_spec(game.rules)}",
        f"hand:{game.hand_no}",
        f"dealer:{game.dealer}",
        f"turn:{game.turns}",
        f"scores:{_ints(game.scores)}",
        f"dir:{'cw' if game.direction > 0 else 'ccw'}",
        f"color:{COLOURS[game.colour] if game.colour >= 0 else '-'}",
    ]
    return " ".join([*head, *control(game, seat), *tables(game, seat)])


def control(game: Game, seat: int | None = None) -> list[str]:
    """The fields between ``color`` and ``hands``: whose decision, the windows, penalties and flags
    (the replay viewer gets these per decision and builds the rest itself)."""
    from arena.engine.game import PHASES

    snap = game._snapshot()
    phase = PHASES[game.phase]
    view = seat is not None
    out: list[str] = []
    if phase in _ONE_SEAT:
        out.append(f"move:{phase}:{game.to_move[0]}")
    elif phase == "over":
        out.append("move:over")
    else:
        seats = snap["slappers"] if phase == "slap" else snap["offers"]
        if phase == "jump" and view:
            seats = seats[:1]  # who else holds the card is theirs to know
        out.append(f"move:{phase}:{_ints(seats)}")
    if phase in _CURRENT:
        out.append(f"current:{game.cur}")
    if phase in _CONTINUED:
        out += [f"after:{snap['after']}", f"next:{snap['next']}"]
    if phase == "drawn" and (not view or seat == game.cur):
        out.append(f"drawn:{_CODE[game.drawn]}")
    if game.pending:
        out.append(f"pending:{game.pending}")
    if game.challenge_from >= 0:
        offender = game.challenge_from
        guilt = "guilty" if game.challenge_guilty else "innocent"
        out.append(f"challenge:{offender}:{'?' if view and seat != offender else guilt}")
    if any(game.uno):
        out.append(f"uno:{_ints([s for s in range(game.n) if game.uno[s]])}")
    if any(game.lost_turns):
        out.append("lost:" + ",".join(f"{s}={k}" for s, k in enumerate(game.lost_turns) if k))
    if snap["passes"]:
        out.append(f"passes:{snap['passes']}")
    if snap["eliminated"]:
        out.append("out:" + "/".join(_ints(group) for group in snap["eliminated"]))
    if any(game.mercy_out):
        shown = [
            f"{s}={'?' if view and seat != s else game.mercy_points[s]}"
            for s in range(game.n)
            if game.mercy_out[s]
        ]
        out.append("mercy:" + ",".join(shown))
    if phase == "over":
        assert game.outcome is not None
        out.append(f"end:{game.outcome.termination}")
        out.append("places:" + "/".join(_ints(group) for group in game.outcome.places))
    return out


def tables(game: Game, seat: int | None = None) -> list[str]:
    """The ``hands``, ``discard`` and ``pile`` fields."""
    hands = []
    for s, hand in enumerate(game.hands):
        if not hand:
            hands.append("-")
        elif seat is None or s == seat:
            hands.append(",".join(_CODE[c] for c in hand))
        else:
            hands.append(f"#{len(hand)}")
    pile = game.draw_pile
    if not pile:
        shown = "-"
    elif seat is None:
        shown = ",".join(_CODE[c] for c in reversed(pile))  # the next card to be drawn first
    else:
        shown = f"#{len(pile)}"
    return [
        "hands:" + "/".join(hands),
        "discard:" + ",".join(_CODE[c] for c in game.discard),
        f"pile:{shown}",
    ]


def _ints(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values)


# --- Reading --------------------------------------------------------------------------------------------


def decode(text: str, seed: int = 0) -> Game:
    """The game at a position; the hidden cards of a view are filled from ``seed`` (see the module)."""
    if type(text) is str and type(seed) is not int:
        raise PositionError(f"a seed is an integer, not {seed!r}")
    game = read(text).game(seed)
    game.start_position = encode(game)
    return game


class Reading:
    """A position read and checked once, its hidden cards not yet dealt: :meth:`game` deals them from a
    seed (:meth:`deal`, then :meth:`build`). A search that loads one view under many seeds reads it once
    (``determinize.deal_world``), which is most of the cost of a world: the text, the rules and the card
    counts are not read again."""

    __slots__ = ("_n", "_rules", "_state", "_unknown")

    def __init__(self, rules: RuleSet, n: int, state: dict[str, Any], unknown: list[int]) -> None:
        self._rules = rules
        self._n = n
        self._state = state
        self._unknown = unknown

    @property
    def hands(self) -> list[list[int]]:
        """Every seat's hand as the position shows it (card ids, -1 for each hidden card; not to be
        changed)."""
        hands: list[list[int]] = self._state["hands"]
        return hands

    def game(self, seed: int = 0) -> Game:
        """A new game at this position, the hidden places filled from ``seed`` as :func:`decode` fills
        them (its ``start_position`` is not written: :func:`decode` writes it)."""
        return self.build(self.deal(seed), seed)

    def deal(self, seed: int = 0) -> dict[str, Any]:
        """The position's state with its hidden places filled from ``seed`` (hands unsorted, the draw
        pile in the game's order, the next card to draw last), not yet checked or made a game: a search
        may look at the dealt hands, change them, or drop the deal before paying for :meth:`build`."""
        from arena.engine.game import shuffle

        if type(seed) is not int:
            raise PositionError(f"a seed is an integer, not {seed!r}")
        st = dict(self._state)
        hands = [list(h) for h in st["hands"]]
        discard = list(st["discard"])
        pile = list(st["pile"])
        if self._unknown:
            unknown = list(self._unknown)
            shuffle(unknown, random.Random(_hidden_seed(seed)))
            dealt = 0  # the hidden places take the shuffled cards in order
            for where in (*hands, discard, pile):
                hidden = where.count(-1)
                if hidden == len(where):  # a wholly hidden place (most are) takes a slice
                    where[:] = unknown[dealt : dealt + hidden]
                elif hidden:
                    for i, card in enumerate(where):
                        if card < 0:
                            where[i] = unknown[dealt]
                            dealt += 1
                    continue
                dealt += hidden
        st.update(hands=hands, discard=discard, pile=pile[::-1])
        return st

    def build(self, st: dict[str, Any], seed: int = 0) -> Game:
        """The game of a state :meth:`deal` gave (its cards moved between hidden places at most), with
        ``seed`` for the game's own random numbers."""
        from arena.engine.game import Game

        _check_tables(st, self._rules, self._n)
        try:
            game = Game(self._rules, self._n, seed, _state=st)
        except ArenaError as exc:
            raise PositionError(str(exc)) from None
        if st["hidden"]:
            _complete_view(game, st)
        _check_moves(game)
        return game


def read(text: str) -> Reading:
    """Read and check a position up to the dealing of its hidden cards (:class:`Reading`); raises
    :class:`~arena.errors.PositionError` naming what is wrong."""
    if type(text) is not str:
        raise PositionError(f"a position is a string, not {type(text).__name__}")
    fields = _split(text)
    try:
        rules = parse_rules(fields["rules"])
    except ArenaError as exc:
        raise PositionError(f"rules: {exc}") from None
    hands = [_cards(h, "hands") for h in fields["hands"].split("/")]
    n = len(hands)
    if not rules.min_players <= n <= rules.max_players:
        raise PositionError(
            f"hands: {n} seats, but {rules_spec(rules)} is for {rules.min_players} to {rules.max_players}"
        )
    st = _control(fields, n)
    discard = _cards(fields["discard"], "discard")
    if not discard or discard[-1] < 0:
        raise PositionError("discard: the pile needs a known top card (its last card)")
    pile = [] if fields["pile"] == "-" else _cards(fields["pile"], "pile")
    cards, unknown = _tally(rules, hands, discard, pile, st)
    st.update(hands=hands, discard=discard, pile=pile, cards=cards)
    return Reading(rules, n, st, unknown)


def _split(text: str) -> dict[str, str]:
    words = text.strip().split(" ")
    if not words or words[0] != VERSION:
        first = words[0] if words else ""
        if first.startswith("uno") and first[3:].isdigit():
            raise PositionError(
                f"position version {first!r} is not supported (this engine reads {VERSION!r})"
            )
        raise PositionError(f"a position starts with {VERSION!r}, not {first[:20]!r}")
    fields: dict[str, str] = {}
    for word in words[1:]:
        key, sep, value = word.partition(":")
        if not sep or not value:
            raise PositionError(f"{word[:40]!r} is not a key:value field (single spaces between fields)")
        if key not in FIELDS:
            raise PositionError(f"unknown field {key!r} (fields: {', '.join(FIELDS)})")
        if key in fields:
            raise PositionError(f"field {key!r} is given twice")
        fields[key] = value
    missing = [key for key in REQUIRED if key not in fields]
    if missing:
        raise PositionError(f"missing field(s): {', '.join(missing)}")
    return fields


def _int(value: str, field: str, low: int = 0, high: int = 10**9) -> int:
    if not _INT.fullmatch(value) or not low <= int(value) <= high:
        raise PositionError(f"{field}: {value!r} is not an integer from {low} to {high}")
    return int(value)


def _seats(value: str, field: str, n: int) -> list[int]:
    return [_int(part, field, 0, n - 1) for part in value.split(",")]


def _pairs(value: str, field: str, n: int, unknown: bool) -> dict[int, int | None]:
    pairs: dict[int, int | None] = {}
    for part in value.split(","):
        seat, sep, amount = part.partition("=")
        if not sep:
            raise PositionError(f"{field}: {part!r} is not seat=number")
        s = _int(seat, field, 0, n - 1)
        if s in pairs:
            raise PositionError(f"{field}: seat {s} is given twice")
        pairs[s] = None if unknown and amount == "?" else _int(amount, field)
    return pairs


def _cards(value: str, field: str) -> list[int]:
    """Card ids, with -1 for each hidden card (``#k``); ``-`` is no card."""
    if value == "-":
        return []
    out: list[int] = []
    for part in value.split(","):
        if part.startswith("#"):
            out += [-1] * _int(part[1:], field, 0, 1000)
        else:
            try:
                out.append(parse_card(part))
            except ArenaError:
                raise PositionError(
                    f"{field}: {part[:20]!r} is not a card code (e.g. R7, W4) or #count"
                ) from None
    return out


def _control(f: dict[str, str], n: int) -> dict[str, Any]:
    """Everything but the cards, checked field by field."""
    st: dict[str, Any] = {
        "hand_no": _int(f["hand"], "hand", 1),
        "dealer": _int(f["dealer"], "dealer", 0, n - 1),
        "turn": _int(f["turn"], "turn"),
    }
    scores = f["scores"].split(",")
    if len(scores) != n:
        raise PositionError(f"scores: {len(scores)} scores for {n} seats")
    st["scores"] = [_int(v, "scores") for v in scores]
    if f["dir"] not in ("cw", "ccw"):
        raise PositionError(f"dir: {f['dir']!r} is not cw or ccw")
    st["direction"] = 1 if f["dir"] == "cw" else -1
    color = f["color"]
    if color != "-" and (len(color) != 1 or color not in COLOURS):
        raise PositionError(f"color: {color!r} is not one of R Y G B or -")
    st["colour"] = COLOURS.index(color) if color != "-" else -1
    phase, _, who = f["move"].partition(":")
    if phase not in PHASE_NAMES:
        raise PositionError(f"move: {phase!r} is not a phase ({', '.join(PHASE_NAMES)})")
    st["phase"] = phase
    if phase == "over":
        if who:
            raise PositionError("move: over takes no seat")
        seats: list[int] = []
    else:
        seats = _seats(who, "move", n) if who else []
        if not seats or (phase in _ONE_SEAT and len(seats) != 1) or len(set(seats)) != len(seats):
            raise PositionError(
                f"move: {f['move']!r} needs {'one seat' if phase in _ONE_SEAT else 'its seats'}"
            )
    for key, allowed, where in (
        ("current", phase in _CURRENT, "uno, catch, slap, jump, over"),
        ("after", phase in _CONTINUED, "color, swap, uno, catch, slap, jump"),
        ("next", phase in _CONTINUED, "color, swap, uno, catch, slap, jump"),
        ("drawn", phase == "drawn", "drawn"),
        ("end", phase == "over", "over"),
        ("places", phase == "over", "over"),
    ):
        if key in f and not allowed:
            raise PositionError(f"{key}: only in the phase(s) {where}")
        if allowed and key not in f and key not in ("drawn",):
            raise PositionError(f"{key}: missing (needed in phase {phase})")
    st["current"] = _int(f["current"], "current", 0, n - 1) if phase in _CURRENT else seats[0]
    st["after"] = _int(f["after"], "after", 0, n - 1) if phase in _CONTINUED else -1
    st["next"] = _int(f["next"], "next", 0, n - 1) if phase in _CONTINUED else -1
    st["offers"] = seats if phase in ("catch", "jump") else []
    st["slappers"] = seats if phase == "slap" else []
    if phase == "uno" and seats[0] != st["after"]:
        raise PositionError("move: the seat that may say UNO is the one whose play it is (after)")
    st["drawn_code"] = f.get("drawn")
    st["pending"] = _int(f["pending"], "pending", 1) if "pending" in f else 0
    st["challenge"], st["guilty"], st["guilt_known"] = -1, False, True
    if "challenge" in f:
        seat, _, guilt = f["challenge"].partition(":")
        if guilt not in ("guilty", "innocent", "?"):
            raise PositionError(f"challenge: {f['challenge']!r} is not seat:guilty, seat:innocent or seat:?")
        st["challenge"] = _int(seat, "challenge", 0, n - 1)
        st["guilty"] = guilt == "guilty"
        st["guilt_known"] = guilt != "?"
        if not st["pending"]:
            raise PositionError("challenge: a challenge needs a pending penalty")
    uno = _seats(f["uno"], "uno", n) if "uno" in f else []
    st["uno"] = [s in uno for s in range(n)]
    lost = _pairs(f["lost"], "lost", n, unknown=False) if "lost" in f else {}
    st["lost_turns"] = [lost.get(s) or 0 for s in range(n)]
    st["passes"] = _int(f["passes"], "passes", 1) if "passes" in f else 0
    groups = [_seats(g, "out", n) for g in f["out"].split("/")] if "out" in f else []
    st["eliminated"] = groups
    flat = [s for g in groups for s in g]
    if len(set(flat)) != len(flat) or (len(flat) >= n and phase != "over"):
        raise PositionError("out: each eliminated seat once, and someone must still play")
    st["out"] = [s in flat for s in range(n)]
    mercy = _pairs(f["mercy"], "mercy", n, unknown=True) if "mercy" in f else {}
    st["mercy_out"] = [s in mercy for s in range(n)]
    st["mercy_points"] = [mercy.get(s) or 0 for s in range(n)]
    if phase == "over":
        if f["end"] not in TERMINATIONS:
            raise PositionError(f"end: {f['end']!r} is not one of {', '.join(TERMINATIONS)}")
        st["termination"] = f["end"]
        places = [_seats(g, "places", n) for g in f["places"].split("/")]
        if sorted(s for g in places for s in g) != list(range(n)):
            raise PositionError("places: every seat exactly once")
        st["places"] = places
    away = [a or b for a, b in zip(st["out"], st["mercy_out"], strict=True)]
    for s in seats:
        if away[s]:
            raise PositionError(f"move: seat {s} is out and cannot be to move")
    return st


def _tally(
    rules: RuleSet, hands: list[list[int]], discard: list[int], pile: list[int], st: dict[str, Any]
) -> tuple[list[int], list[int]]:
    """The game's cards in their standard order, and the cards the hidden places hold between them (in
    card order: :meth:`Reading.game` shuffles them); checks that the shown cards fit the deck."""
    places = [*hands, discard, pile]
    st["hidden_hands"] = [any(c < 0 for c in h) for h in hands]
    shown = Counter(c for where in places for c in where if c >= 0)
    hidden = sum(c < 0 for where in places for c in where)
    standard = deck_cards(rules.deck)
    deck = Counter(standard)
    st["hidden"] = bool(hidden)
    st["pile_hidden"] = any(c < 0 for c in pile)
    if not hidden:
        if shown == deck:
            return standard, []
        return sorted(shown.elements()), []  # a scenario's own deck
    for card, count in shown.items():
        if count > deck[card]:
            raise PositionError(
                f"{_CODE[card]} is shown {count} times; the {rules.deck} deck has {deck[card]}"
            )
    unknown = sorted((deck - shown).elements())
    if len(unknown) != hidden:
        raise PositionError(
            f"the position shows {sum(shown.values())} cards and hides {hidden}: the {rules.deck} deck "
            f"has {len(standard)}"
        )
    return standard, unknown


def _check_tables(st: dict[str, Any], rules: RuleSet, n: int) -> None:
    """What must hold between the cards and the control fields."""
    hands, discard = st["hands"], st["discard"]
    top = CARDS[discard[-1]]
    phase = st["phase"]
    for s in range(n):
        if ((st["out"][s] and phase != "over") or st["mercy_out"][s]) and hands[s]:
            raise PositionError(f"hands: seat {s} is out of the hand and must hold no card")
        if st["uno"][s] and len(hands[s]) != 1:
            raise PositionError(f"uno: seat {s} declared UNO but holds {len(hands[s])} cards")
    if st["colour"] < 0 and phase not in ("color", "over"):
        raise PositionError("color: '-' (no colour yet) only while a colour is to be named (move:color)")
    if top.colour >= 0 and st["colour"] != top.colour:
        raise PositionError(
            f"color: the top card {top.code} is {COLOURS[top.colour]}, not {COLOURS[st['colour']]}"
        )
    if st["pending"] and not top.draw:
        raise PositionError(f"pending: the top card {top.code} is not a draw card")
    if st["challenge"] >= 0 and (top.code not in rules.restricted or st["pending"] != top.draw):
        raise PositionError(
            f"challenge: only a single {'/'.join(sorted(rules.restricted))} can be challenged"
        )
    if phase in ("uno", "catch"):
        target = st["after"]
        if len(hands[target]) != 1 or st["uno"][target]:
            raise PositionError(f"move: seat {target} may be caught only with one card, undeclared")
    st["drawn"] = -1
    if phase == "drawn" and st["drawn_code"] is not None:
        st["drawn"] = _cards(st["drawn_code"], "drawn")[0]
        if st["drawn"] not in hands[st["current"]]:
            raise PositionError(f"drawn: {st['drawn_code']} is not in seat {st['current']}'s hand")
    elif phase == "drawn" and not st["hidden_hands"][st["current"]]:
        raise PositionError("drawn: missing (the card just drawn, in the phase drawn)")
    if phase == "jump":
        for s in st["offers"]:
            if discard[-1] not in hands[s] and not st["hidden_hands"][s]:
                raise PositionError(f"move: seat {s} may jump in only holding {top.code}")


def _complete_view(game: Game, st: dict[str, Any]) -> None:
    """Make a filled view consistent where hidden cards matter to the decision pending: someone else's
    drawn card must be one it can play, a hidden hand offered a jump-in must hold the top card, and a
    hidden hand to play must have something to do when the piles are empty. When the shuffle did not
    put such a card there, one is exchanged with another hidden place (the draw pile, then the other
    hidden hands). The seats offered the jump-in after the first are those of the filled hands."""
    phase = st["phase"]
    seat = game.cur
    if phase == "drawn" and game.drawn < 0:
        hand = game.hands[seat]
        playable = [c for c in hand if game._playable(c, hand)]
        if not playable:
            playable = [_bring(game, st, seat, lambda c: game._playable(c, game.hands[seat]))]
        game.drawn = playable[-1]
    elif phase == "turn" and st["hidden_hands"][seat] and not game._compute_legal(seat):
        _bring(game, st, seat, lambda c: game._playable(c, game.hands[seat]))
    elif phase == "jump":
        first = game._offers[0]
        top = game.discard[-1]
        if top not in game.hands[first]:
            _bring(game, st, first, lambda c: c == top)
        order = game._seats_after(game._cont_seat)
        later = order[order.index(first) + 1 :] if first in order else []
        game._offers = [first, *(s for s in later if top in game.hands[s])]


def _bring(game: Game, st: dict[str, Any], seat: int, wanted: Callable[[int], bool]) -> int:
    """Exchange the seat's last card with a wanted card from another hidden place; return the card."""
    places = [game.draw_pile] if st["pile_hidden"] else []
    places += [game.hands[s] for s in range(game.n) if s != seat and st["hidden_hands"][s]]
    for place in places:
        for i, card in enumerate(place):
            if wanted(card):
                hand = game.hands[seat]
                place[i] = hand.pop()
                hand.append(card)
                hand.sort()
                if place is not game.draw_pile:
                    place.sort()
                return card
    raise PositionError(f"no card hidden in this view lets seat {seat} make the decision pending")


def _check_moves(game: Game) -> None:
    for seat in game.to_move:
        if not game.legal_actions(seat):
            raise PositionError(f"seat {seat} is to move here but has no legal action")
