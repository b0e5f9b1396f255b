"""Sampling the unknown for a search bot: one seat's view as a position, and worlds consistent with it.

A bot sees its observation and the public events (docs/protocol.md), never a :class:`Game`.
:class:`ViewTracker` follows one seat's events and, with the current observation, writes that seat's view
in the position notation (docs/position.md): exactly the line ``game.position(seat)`` would give in the
phases a bot searches (``turn`` and ``drawn``). :func:`deal_world` loads that view as
:meth:`Game.from_position` does (the one code path that sets up a game at a position), so every sampled world
holds the seat's own hand and every public card where the seat saw them, and the hidden places (the other
hands, the draw pile, a discard pile emptied by a reshuffle) hold exactly the cards the seat has not seen.

On top of the view, the tracker keeps *voids*: after a seat drew on its turn (and then kept or passed,
or drew on a penalty it could not stack), the colour in force, the rank on top and every wild are marked
as probably absent from that seat's hand (a wild always plays); after a seat played a wild, the colour in
force and the rank on top before it are (players keep wilds for when nothing else plays).
:func:`deal_world` moves such cards, when the sample dealt them to that seat, into random places of the
draw pile in exchange for cards of other kinds (the seat may have drawn although it could play, or played a wild
although it held the colour, so this is a likelihood hint, not a hard fact; a void is forgotten when the
seat takes new cards or hands are exchanged). A :class:`Deal` is the sample before it is made a game: a
search weighs its hands (an opponent model) and builds only the worlds it keeps (:func:`sample_world` is
both steps).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from arena.engine.cards import CARDS, COLOURS, parse_card
from arena.engine.game import Game
from arena.engine.position import Reading, read
from arena.engine.rules import RuleSet, rules_spec

SEARCHED_PHASES = frozenset({"turn", "drawn"})
"""The phases whose view :meth:`ViewTracker.view` writes."""
WILDS = (-1, "*")
"""The void of every wild card."""


class ViewTracker:
    """The public facts of one game that one seat's events show and its observation does not."""

    def __init__(self, rules: RuleSet, seat: int, players: int) -> None:
        self.rules = rules
        self.spec = rules_spec(rules)
        self.seat = seat
        self.players = players
        self.played: list[str] = []
        """The cards put on the discard pile this hand, in order (its top is the last)."""
        self.passes = 0
        self.eliminated: list[list[int]] = []
        self.last_player = -1
        self.voids: list[set[tuple[int, str]]] = [set() for _ in range(players)]
        """Per seat, (colour, rank) facts it probably lacks: ``(c, "")`` a colour, ``(-1, r)`` a rank,
        :data:`WILDS` every wild."""
        self._colour = -1
        self._top_rank = ""

    def on_event(self, event: dict[str, Any]) -> None:
        """Follow one public event (redacted for this seat), in game order."""
        kind = event["type"]
        if kind == "hand":
            self.played = []
            self.passes = 0
            self.voids = [set() for _ in range(self.players)]
        elif kind == "flip":
            self._put(event["card"], None)
        elif kind == "play":
            self.passes = 0
            seat = event["seat"]
            self.last_player = seat
            if CARDS[parse_card(event["card"])].colour < 0 and self._colour >= 0:
                self.voids[seat] |= self._unmatched()
            self._put(event["card"], event.get("color"))
        elif kind == "color":
            self._colour = COLOURS.index(event["color"])
        elif kind == "draw":
            seat = event["seat"]
            got = event.get("count", len(event.get("cards", ())))
            if got:
                self.passes = 0
            if event.get("reason") == "draw" and self._colour >= 0:
                self.voids[seat] = self._unmatched() | {WILDS}
            elif got:
                self.voids[seat] = set()
        elif kind == "pass" and event.get("window") == "turn":
            self.passes += 1
        elif kind in ("swap", "shuffle", "rotate"):
            self.voids = [set() for _ in range(self.players)]
        elif kind == "eliminated":
            self.eliminated.append(list(event["seats"]))

    @property
    def colour(self) -> int:
        """The colour in force (0..3; -1 before the first card)."""
        return self._colour

    @property
    def top_rank(self) -> str:
        """The rank of the card on top ("" when it is a wild: it matches by colour only)."""
        return self._top_rank

    def _unmatched(self) -> set[tuple[int, str]]:
        """The voids of a seat that could not match the pile: the colour in force, the rank on top."""
        voids = {(self._colour, "")}
        if self._top_rank:
            voids.add((-1, self._top_rank))
        return voids

    def _put(self, code: str, colour: str | None) -> None:
        self.played.append(code)
        card = CARDS[parse_card(code)]
        self._top_rank = card.rank if card.colour >= 0 else ""  # a wild on top matches by colour only
        if colour is not None:
            self._colour = COLOURS.index(colour)
        elif card.colour >= 0:
            self._colour = card.colour

    def view(self, obs: dict[str, Any]) -> str | None:
        """This seat's view (``game.position(seat)``) at an observation of phase ``turn`` or ``drawn``
        for this seat, or ``None`` in other phases."""
        phase = obs["phase"]
        seat = self.seat
        if phase not in SEARCHED_PHASES or obs["to_move"] != [seat]:
            return None
        n = self.players
        fields = [
            "uno1",
            f"rules:{self.spec}",
            f"hand:{obs['hand_no']}",
            f"dealer:{obs['dealer']}",
            f"turn:{obs['turn']}",
            "scores:" + ",".join(map(str, obs["scores"])),
            f"dir:{'cw' if obs['direction'] > 0 else 'ccw'}",
            f"color:{obs['color'] or '-'}",
            f"move:{phase}:{seat}",
        ]
        if phase == "drawn":
            fields.append(f"drawn:{obs['drawn']}")
        if obs["pending_draw"]:
            fields.append(f"pending:{obs['pending_draw']}")
        if obs["challengeable"]:
            fields.append(f"challenge:{self.last_player}:?")
        if any(obs["uno"]):
            fields.append("uno:" + ",".join(str(s) for s in range(n) if obs["uno"][s]))
        if any(obs["lost_turns"]):
            fields.append("lost:" + ",".join(f"{s}={k}" for s, k in enumerate(obs["lost_turns"]) if k))
        if self.passes:
            fields.append(f"passes:{self.passes}")
        if self.eliminated:
            fields.append("out:" + "/".join(",".join(map(str, g)) for g in self.eliminated))
        if any(obs["mercy"]):
            fields.append("mercy:" + ",".join(f"{s}=?" for s in range(n) if obs["mercy"][s]))
        hands = []
        for s, size in enumerate(obs["hand_sizes"]):
            if not size:
                hands.append("-")
            elif s == seat:
                hands.append(",".join(obs["hand"]))
            else:
                hands.append(f"#{size}")
        known = self.played[-obs["discard_pile"] :] if obs["discard_pile"] else []
        missing = obs["discard_pile"] - len(known)
        discard = ([f"#{missing}"] if missing else []) + known
        fields += [
            "hands:" + "/".join(hands),
            "discard:" + ",".join(discard),
            f"pile:#{obs['draw_pile']}" if obs["draw_pile"] else "pile:-",
        ]
        return " ".join(fields)


@lru_cache(maxsize=8)
def _reading(view: str) -> Reading:
    """A view read once for all the worlds a search draws from it (the reading is never changed)."""
    return read(view)


@lru_cache(maxsize=256)
def _lacked(voids: frozenset[tuple[int, str]]) -> frozenset[int]:
    """The card ids a seat with these voids probably lacks."""
    return frozenset(
        card
        for card, c in enumerate(CARDS)
        if (c.colour, "") in voids or (-1, c.rank) in voids or (c.colour < 0 and WILDS in voids)
    )


class Deal:
    """One sample of a view's hidden cards (:func:`deal_world`) before it is made a game: a search can
    weigh its :attr:`hands` (an opponent model) and pay for :meth:`game` only for the deals it keeps."""

    __slots__ = ("_built", "_reading", "_seed", "_state", "hands")

    def __init__(self, reading: Reading | None, state: dict[str, Any] | None, seed: int) -> None:
        self._reading = reading
        self._state = state
        self._seed = seed
        self._built: Game | None = None
        self.hands: list[list[int]] = state["hands"] if state is not None else []
        """Every seat's hand (card ids; the dealt ones in dealing order, not sorted)."""

    @classmethod
    def of(cls, game: Game) -> Deal:
        """A world already made, as a deal (its hands are the game's)."""
        deal = cls(None, None, game.seed)
        deal._built = game
        deal.hands = game.hands
        return deal

    def game(self) -> Game:
        """The world: the view's game with these hands (built once)."""
        if self._built is None:
            assert self._reading is not None  # only Deal.of leaves these unset, and it sets _built
            assert self._state is not None
            self._built = self._reading.build(self._state, self._seed)
        return self._built


def deal_world(view: str, seed: int, voids: list[set[tuple[int, str]]] | None = None) -> Deal:
    """The hidden cards of ``view`` (a seat's view, see :meth:`ViewTracker.view`) dealt as
    :meth:`Game.from_position` deals them with ``seed`` (the view read once per view, so a world costs its
    dealing only); then, for each wholly hidden hand with ``voids``, cards the deal gave it that it
    probably lacks are exchanged with draw-pile cards it may hold, drawn at random by the same seed. The
    exchange keeps every hand's size and every card's count."""
    reading = _reading(view)
    st = reading.deal(seed)
    pile = st["pile"]
    if voids and any(voids) and pile and st["phase"] in SEARCHED_PHASES:
        draw = random.Random(seed).random
        shown = reading.hands
        for s, seat_voids in enumerate(voids):
            if not seat_voids or not shown[s] or max(shown[s]) >= 0:
                continue  # no voids, or a hand the view shows (at least in part): not the deal's to change
            lacked = _lacked(frozenset(seat_voids))
            hand = st["hands"][s]
            if lacked.isdisjoint(hand):
                continue
            spare = [i for i, card in enumerate(pile) if card not in lacked]
            for h, card in enumerate(hand):
                if not spare:
                    break
                if card in lacked:
                    # A spare place drawn uniformly without replacement (what shuffling them all and
                    # taking them in turn gives, for the few a hand needs): swapped with the last, popped.
                    j = int(draw() * len(spare))
                    p = spare[j]
                    spare[j] = spare[-1]
                    spare.pop()
                    hand[h], pile[p] = pile[p], card
    return Deal(reading, st, seed)


def sample_world(view: str, seed: int, voids: list[set[tuple[int, str]]] | None = None) -> Game:
    """A complete game consistent with ``view``: the world of :func:`deal_world` (its ``start_position``
    is not written)."""
    return deal_world(view, seed, voids).game()
