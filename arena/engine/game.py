"""The UNO engine: one game (a match of one or more hands) as a state machine of explicit decisions.

>>> from arena.engine.rules import preset
>>> game = Game(preset("classic-single"), players=3, seed=1)
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[-1])
>>> sorted(s for group in game.outcome.places for s in group)
[0, 1, 2]

Everything random (dealer, shuffles, reshuffles, Wild Shuffle Hands) comes from one generator seeded
by ``seed``, so a game is fully determined by its rule set, seed (or explicit deck) and the actions.
Each decision point is an explicit action for one seat (see ``docs/rules.md`` for the order of
out-of-turn chances); :meth:`Game.legal_actions` lists exactly the legal ones, in a fixed order.
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from arena.engine import actions as A
from arena.engine.cards import CARDS, COLOURS, deck_cards, parse_cards
from arena.engine.rules import RuleSet
from arena.errors import ArenaError, IllegalAction, NotYourTurn

# Phases: what kind of decision is pending.
TURN: Final = 0
DRAWN: Final = 1
COLOR: Final = 2
SWAP: Final = 3
CATCH: Final = 4
SLAP: Final = 5
JUMP: Final = 6
OVER: Final = 7
UNO: Final = 8
PHASES: Final = ("turn", "drawn", "color", "swap", "catch", "slap", "jump", "over", "uno")

# What happens after a card is played, before the next turn (the fixed order of out-of-turn chances).
_ST_UNO, _ST_CATCH, _ST_SLAP, _ST_JUMP, _ST_TURN = range(5)

# Card effects.
_NUM, _SKIP, _REV, _DRAWCARD, _SKIPALL, _REVALL, _WILD, _SHUFFLE, _CUSTOM = range(9)
_EFFECT_OF_RANK: Final = {
    "S": _SKIP,
    "WSK": _SKIP,
    "R": _REV,
    "WR": _REV,
    "SE": _SKIPALL,
    "RE": _REVALL,
    "W": _WILD,
    "X": _WILD,
    "WS": _SHUFFLE,
    "WC": _CUSTOM,
}

_COL: Final = tuple(c.colour for c in CARDS)
_RANK: Final = tuple(c.rank for c in CARDS)
_DRAWV: Final = tuple(c.draw for c in CARDS)
_PTS: Final = tuple(c.points for c in CARDS)
_CODE: Final = tuple(c.code for c in CARDS)
_EFFECT: Final = tuple(_DRAWCARD if c.draw else _EFFECT_OF_RANK.get(c.rank, _NUM) for c in CARDS)
_SEVEN: Final = frozenset(c.id for c in CARDS if c.rank == "7")
_ZERO: Final = frozenset(c.id for c in CARDS if c.rank == "0")
_SIX: Final = frozenset(c.id for c in CARDS if c.rank == "6")
_PLAY: Final = A.PLAY_ACTIONS
_PLAY_UNO: Final = A.PLAY_ACTIONS_UNO
_RETURNED_FIRST: Final = frozenset({"W4", "WS", "W2", "W6", "WSK", "WR"})
_ACTIONS: Final = A.ACTIONS


def shuffle(items: list[int], rng: random.Random) -> None:
    """Fisher-Yates shuffle in place driven by ``rng.random()``: the same permutation for the same seed on
    every platform, several times faster than ``random.shuffle`` (written by hand for that speed)."""
    draw = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(draw() * (i + 1))
        items[i], items[j] = items[j], items[i]


@lru_cache(maxsize=256)
def _rule_tables(rules: RuleSet) -> tuple[tuple[bool, ...], tuple[int, ...]]:
    """Per rule set: which card ids are restricted wild draw cards, and the deck's card ids."""
    restricted = rules.restricted
    return tuple(c.code in restricted for c in CARDS), tuple(deck_cards(rules.deck))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: finishing places (seats grouped when tied, best first), final scores,
    why it ended (``target``, ``last-standing``, ``single-hand`` or ``hand-limit``), hands played."""

    places: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    termination: str
    hands: int

    def place_of(self, seat: int) -> int:
        """The 1-based place of a seat (tied seats share the better place)."""
        place = 1
        for group in self.places:
            if seat in group:
                return place
            place += len(group)
        raise ValueError(f"seat {seat} is not in this outcome")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "places": [list(g) for g in self.places],
            "scores": list(self.scores),
            "termination": self.termination,
            "hands": self.hands,
        }


class Game:
    """One game under a rule set: hands are dealt and scored until the scoring mode ends the game.

    ``deck`` (card codes, top of the draw pile first) fixes the first hand's deal for scenarios; the
    cards are dealt one at a time from the player left of the dealer, then the next card is turned up.
    Later hands shuffle the same cards with the seeded generator.
    """

    def __init__(
        self,
        rules: RuleSet,
        players: object,
        seed: object = None,
        *,
        deck: list[str] | None = None,
        dealer: int | None = None,
        _state: dict[str, Any] | None = None,
        _copy_of: Game | None = None,
    ) -> None:
        if not isinstance(players, int) or not rules.min_players <= players <= rules.max_players:
            raise ArenaError(
                f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players!r}"
            )
        if seed is not None and not isinstance(seed, int):
            raise ArenaError(f"a seed is an integer, not {seed!r}")
        self.rules: Final = rules
        self.n: Final = players
        self.seed: Final = random.SystemRandom().randrange(2**63) if seed is None else seed
        self._rng: random.Random | None = None  # made from the seed when first used (:attr:`rng`)
        if _copy_of is not None:
            if _copy_of._rng is not None:
                self.rng.setstate(_copy_of._rng.getstate())
            deck = _copy_of.explicit_deck
            dealer = _copy_of.explicit_dealer
        self.explicit_deck: Final[list[str] | None] = list(deck) if deck is not None else None
        restricted, standard_deck = _rule_tables(rules)
        cards: list[int] | tuple[int, ...]
        if _copy_of is not None:
            cards = _copy_of._cards  # never changed: shared
        elif _state is not None:
            cards = list(_state["cards"])
        else:
            cards = parse_cards(deck) if deck is not None else standard_deck
        self._cards: list[int] | tuple[int, ...] = cards
        if len(self._cards) <= rules.hand_size * players:
            raise ArenaError(
                f"a deck of {len(self._cards)} cards cannot deal {rules.hand_size} to {players} players"
            )
        self.scores = [0] * players
        self.out = [False] * players
        self.hand_no = 0
        self.explicit_dealer: Final[int | None] = dealer
        if dealer is not None and not 0 <= dealer < players:
            raise ArenaError(f"dealer {dealer} is not a seat of a {players}-player game")
        if _state is not None:
            dealer = _state["dealer"]
        elif _copy_of is not None:
            dealer = _copy_of.dealer
        self.dealer: int = self.rng.randrange(players) if dealer is None else dealer
        self.history: list[tuple[int, str]] = []
        self.events: list[dict[str, Any]] = []
        self.outcome: Outcome | None = None
        self._eliminated: list[list[int]] = []
        self._restricted = restricted
        self._seven_o = rules.seven_o
        self._jump_in = rules.jump_in
        self._smackdown = rules.smackdown
        self._windows = rules.jump_in or rules.smackdown
        self._max_turns = rules.max_turns
        self._all_in = True  # no seat eliminated
        self._restrict_play = rules.wild_draw_four == "restricted" and not rules.challenge
        self._stacking = rules.stacking
        self._keep_drawing = rules.draw == "keep"
        self._uno_window = rules.uno_call == "window"
        self._false_uno = rules.false_uno
        self._mercy = rules.mercy
        self._owed_skip = rules.challenge_guilty == "draw-skip"
        self._stack_free = rules.stack_colour == "any"
        self._challenge_last = rules.challenge_last
        self._slap_last = rules.smackdown and rules.smackdown_last == "slap"
        self._away = [False] * players  # out of the game, or out of this hand (Mercy rule): _next skips them
        # Per-hand state; set by _start_hand.
        self.hands: list[list[int]] = []
        self.draw_pile: list[int] = []
        self.discard: list[int] = []
        self.colour = -1
        self.top_rank = ""
        self.direction = 1
        self.phase = TURN
        self.cur = 0
        self.turns = 0
        self.pending = 0
        self.pending_top = -1
        self.challenge_from = -1
        self.challenge_guilty = False
        self.challenge_value = 0
        self.drawn = -1
        self.uno = [False] * players
        self.mercy_out = [False] * players
        self.mercy_points = [0] * players
        self.lost_turns = [0] * players
        self._passes = 0
        self._stage = _ST_TURN
        self._cont_seat = -1
        self._cont_next = -1
        self._catch = -1
        self._offers: list[int] = []
        self._slappers: list[int] = []
        self._legal: list[str] | None = None
        self._legal_seat = -1
        self._hand_event_start = 0
        self.start_position: str | None = None
        """The position the game was set up from (:meth:`from_position`), or None for a dealt game."""
        if _copy_of is not None:
            self._copy_state(_copy_of)
        elif _state is None:
            self._start_hand()
        else:
            self._load(_state)

    # --- Public API ----------------------------------------------------------------------------------

    @property
    def rng(self) -> random.Random:
        """The game's random generator, seeded by ``seed`` when it is first used: a game set up at a
        position (a search's world) and its copies pay for seeding one only if they reshuffle."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self.seed)
        return rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng

    @property
    def is_over(self) -> bool:
        """True once the game has ended (``outcome`` is then set)."""
        return self.phase == OVER

    @property
    def to_move(self) -> tuple[int, ...]:
        """The seats that may act now: one seat, every seat yet to slap a 6, or none when over."""
        phase = self.phase
        if phase in (TURN, DRAWN, COLOR, SWAP):
            return (self.cur,)
        if phase in (CATCH, JUMP):
            return (self._offers[0],)
        if phase == SLAP:
            return tuple(self._slappers)
        if phase == UNO:
            return (self._catch,)
        return ()

    @property
    def current_player(self) -> int:
        """The seat to act now (the first of ``to_move``), or -1 when the game is over."""
        phase = self.phase
        if phase <= SWAP:
            return self.cur
        if phase in (CATCH, JUMP):
            return self._offers[0]
        if phase == SLAP:
            return self._slappers[0]
        if phase == UNO:
            return self._catch
        return -1

    def legal_actions(self, seat: int | None = None) -> list[str]:
        """Exactly the legal actions of ``seat`` (default: the current player), in a fixed order;
        empty for a seat that is not to move. Do not mutate the returned list."""
        if seat is None:
            seat = self.current_player
        if self._legal is not None and self._legal_seat == seat:
            return self._legal
        legal = self._compute_legal(seat)
        self._legal = legal
        self._legal_seat = seat
        return legal

    def apply(self, action: object, seat: int | None = None) -> list[dict[str, Any]]:
        """Apply one action for ``seat`` (default: the current player) and return the events it caused.

        Raises :class:`NotYourTurn`, :class:`MalformedAction` or :class:`IllegalAction`, naming what
        was wrong; the game is then unchanged.
        """
        if seat is None:
            seat = self.current_player
        legal = (
            self._legal
            if (self._legal is not None and self._legal_seat == seat)
            else self.legal_actions(seat)
        )
        if type(action) is not str or action not in legal:
            raise self._rejection(action, seat)
        parsed = _ACTIONS[action]
        self.history.append((seat, action))
        start = len(self.events)
        self._legal = None
        self._dispatch(seat, parsed)
        return self.events[start:]

    def copy(self) -> Game:
        """An independent copy of this game in the same state, its random generator included: it plays on
        exactly as this game would. A search plays each option in a copy of one sampled world, several
        times cheaper than sampling the world again."""
        return Game(self.rules, self.n, self.seed, _copy_of=self)

    def default_action(self, seat: int | None = None) -> str:
        """The fixed action a faulted seat takes: pass, keep, take, slap or draw when legal, else the
        first legal action."""
        legal = self.legal_actions(seat)
        for preferred in ("pass", "keep", "take", "slap", "draw"):
            if preferred in legal:
                return preferred
        return legal[0]

    def observation(self, seat: int, *, history: bool = False) -> dict[str, Any]:
        """What ``seat`` may see now: its own hand and everything public, never another hand or the
        order of the draw pile. ``history=True`` adds the public events of the current hand."""
        obs: dict[str, Any] = {
            "seat": seat,
            "players": self.n,
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "phase": PHASES[self.phase],
            "to_move": list(self.to_move),
            "current": self.cur,
            "hand": [_CODE[c] for c in self.hands[seat]],
            "top": _CODE[self.discard[-1]] if self.discard else None,
            "color": COLOURS[self.colour] if self.colour >= 0 else None,
            "direction": self.direction,
            "hand_sizes": [len(h) for h in self.hands],
            "draw_pile": len(self.draw_pile),
            "discard_pile": len(self.discard),
            "pending_draw": self.pending,
            "uno": list(self.uno),
            "scores": list(self.scores),
            "out": list(self.out),
            "turn": self.turns,
            "drawn": _CODE[self.drawn] if self.phase == DRAWN and seat == self.cur else None,
            "catch_target": self._catch if self.phase == CATCH or self.phase == UNO else None,
            "challengeable": self.challenge_from >= 0 and seat == self.cur and self.phase == TURN,
            "mercy": list(self.mercy_out),
            "lost_turns": list(self.lost_turns),
        }
        if history:
            obs["history"] = [redact(e, seat) for e in self.events[self._hand_event_start :]]
        return obs

    def observation_json(self, seat: int) -> str:
        """``observation(seat)`` as compact JSON (keys in the same order, no spaces), written straight from
        the game's state: the referee's per-decision hot path, about five times faster than building the
        dict and encoding it (the compiled engine; the text is the same, tested against :mod:`json`)."""
        phase = self.phase
        top = f'"{_CODE[self.discard[-1]]}"' if self.discard else "null"
        colour = f'"{COLOURS[self.colour]}"' if self.colour >= 0 else "null"
        drawn = f'"{_CODE[self.drawn]}"' if phase == DRAWN and seat == self.cur else "null"
        catch = str(self._catch) if phase in (CATCH, UNO) else "null"
        challengeable = self.challenge_from >= 0 and seat == self.cur and phase == TURN
        return (
            f'{{"seat":{seat},"players":{self.n},"hand_no":{self.hand_no},"dealer":{self.dealer},'
            f'"phase":"{PHASES[phase]}","to_move":{_json_ints(self.to_move)},"current":{self.cur},'
            f'"hand":{_json_cards(self.hands[seat])},"top":{top},"color":{colour},"direction":{self.direction},'
            f'"hand_sizes":{_json_ints([len(h) for h in self.hands])},"draw_pile":{len(self.draw_pile)},'
            f'"discard_pile":{len(self.discard)},"pending_draw":{self.pending},"uno":{_json_bools(self.uno)},'
            f'"scores":{_json_ints(self.scores)},"out":{_json_bools(self.out)},"turn":{self.turns},'
            f'"drawn":{drawn},"catch_target":{catch},'
            f'"challengeable":{"true" if challengeable else "false"},"mercy":{_json_bools(self.mercy_out)},'
            f'"lost_turns":{_json_ints(self.lost_turns)}}}'
        )

    def omniscient(self) -> dict[str, Any]:
        """Everything, for replays and tests: every hand and the draw pile (top last)."""
        view = self.observation(0)
        del view["seat"], view["drawn"], view["challengeable"]
        view["hands"] = [[_CODE[c] for c in h] for h in self.hands]
        view["draw_order"] = [_CODE[c] for c in self.draw_pile]
        view["discard"] = [_CODE[c] for c in self.discard]
        view["drawn"] = _CODE[self.drawn] if self.phase == DRAWN else None
        view["pending_top"] = _CODE[self.pending_top] if self.pending else None
        del view["hand"]
        return view

    def card_counts(self) -> Counter[int]:
        """Every card in play, wherever it is (for the conservation invariant)."""
        counts: Counter[int] = Counter(self.draw_pile)
        counts.update(self.discard)
        for hand in self.hands:
            counts.update(hand)
        return counts

    def deck_counts(self) -> Counter[int]:
        """The cards this game is played with."""
        return Counter(self._cards)

    def position(self, seat: int | None = None) -> str:
        """This position in one line of the position notation (``docs/position.md``): everything, or
        (``seat``) only what that seat may see (other hands and the draw pile as card counts)."""
        from arena.engine.position import encode

        return encode(self, seat)

    @classmethod
    def from_position(cls, text: str, seed: int = 0) -> Game:
        """A game set up at a position (``docs/position.md``); ``seed`` seeds its random generator (and
        the cards a one-seat view hides). Raises :class:`~arena.errors.PositionError` naming what is
        wrong."""
        from arena.engine.position import decode

        return decode(text, seed)

    def _copy_state(self, other: Game) -> None:
        """Take ``other``'s game state (:meth:`copy`), every list copied: the rules' flags are already
        set from the same rules, and the generator's state (if it has one yet) by the constructor."""
        self.scores = list(other.scores)
        self.out = list(other.out)
        self.hand_no = other.hand_no
        self.history = list(other.history)
        self.events = list(other.events)  # events are not changed once emitted
        self.outcome = other.outcome
        self._eliminated = [list(group) for group in other._eliminated]
        self._all_in = other._all_in
        self._away = list(other._away)
        self.hands = [list(hand) for hand in other.hands]
        self.draw_pile = list(other.draw_pile)
        self.discard = list(other.discard)
        self.colour = other.colour
        self.top_rank = other.top_rank
        self.direction = other.direction
        self.phase = other.phase
        self.cur = other.cur
        self.turns = other.turns
        self.pending = other.pending
        self.pending_top = other.pending_top
        self.challenge_from = other.challenge_from
        self.challenge_guilty = other.challenge_guilty
        self.challenge_value = other.challenge_value
        self.drawn = other.drawn
        self.uno = list(other.uno)
        self.mercy_out = list(other.mercy_out)
        self.mercy_points = list(other.mercy_points)
        self.lost_turns = list(other.lost_turns)
        self._passes = other._passes
        self._stage = other._stage
        self._cont_seat = other._cont_seat
        self._cont_next = other._cont_next
        self._catch = other._catch
        self._offers = list(other._offers)
        self._slappers = list(other._slappers)
        self._legal = other._legal  # never changed (legal_actions' contract): shared
        self._legal_seat = other._legal_seat
        self._hand_event_start = other._hand_event_start
        self.start_position = other.start_position

    # --- Positions: what arena.engine.position reads and writes -----------------------------------------

    def _snapshot(self) -> dict[str, Any]:
        """The control state a position holds beyond the public attributes."""
        return {
            "offers": list(self._offers),
            "slappers": list(self._slappers),
            "after": self._cont_seat,
            "next": self._cont_next,
            "passes": self._passes,
            "eliminated": [list(group) for group in self._eliminated],
        }

    def _load(self, st: dict[str, Any]) -> None:
        """Set the game to a decoded position (card ids; piles top last), checked by the decoder."""
        n = self.n
        self.hand_no = st["hand_no"]
        self.turns = st["turn"]
        self.scores = list(st["scores"])
        self.direction = st["direction"]
        self.colour = st["colour"]
        self.hands = [sorted(h) for h in st["hands"]]
        self.discard = list(st["discard"])
        self.draw_pile = list(st["pile"])
        self.top_rank = _RANK[self.discard[-1]]
        self.out = list(st["out"])
        self._eliminated = [list(g) for g in st["eliminated"]]
        self.mercy_out = list(st["mercy_out"])
        self.mercy_points = list(st["mercy_points"])
        self.lost_turns = list(st["lost_turns"])
        self.uno = list(st["uno"])
        self._away = [self.out[s] or self.mercy_out[s] for s in range(n)]
        self._all_in = not any(self._away)
        self.pending = st["pending"]
        self.pending_top = self.discard[-1] if self.pending else -1
        self.challenge_from = st["challenge"]
        self.challenge_guilty = st["guilty"]
        self.challenge_value = self.pending
        self.drawn = st["drawn"]
        self._passes = st["passes"]
        phase = PHASES.index(st["phase"])
        self.phase = phase
        self.cur = st["current"]
        self._cont_seat = st["after"]
        self._cont_next = st["next"]
        self._catch = self._cont_seat if phase in (CATCH, UNO) else -1
        self._offers = list(st["offers"])
        self._slappers = list(st["slappers"])
        # The out-of-turn chance that comes after the pending decision (see _continue).
        if phase == SWAP:
            self._stage = _ST_UNO
        elif phase == UNO:
            self._stage = _ST_CATCH
        elif phase == CATCH:
            self._stage = _ST_SLAP
        elif phase == SLAP:
            self._stage = _ST_JUMP
        else:
            self._stage = _ST_TURN
        if phase == OVER:
            places = tuple(tuple(g) for g in st["places"])
            self.outcome = Outcome(places, tuple(self.scores), st["termination"], self.hand_no)

    # --- Legal actions ---------------------------------------------------------------------------------

    def _compute_legal(self, seat: int) -> list[str]:
        phase = self.phase
        if phase == TURN:
            if seat != self.cur:
                return []
            return self._pending_actions(seat) if self.pending else self._turn_actions(seat)
        if phase == DRAWN:
            if seat != self.cur:
                return []
            return [*self._table(len(self.hands[seat]))[self.drawn], "keep"]
        if phase == COLOR:
            return list(A.COLOR_ACTIONS) if seat == self.cur else []
        if phase == SWAP:
            if seat != self.cur:
                return []
            return [A.SWAP_ACTIONS[s] for s in range(self.n) if s != seat and not self._away[s]]
        if phase == CATCH:
            return ["catch", "pass"] if seat == self._offers[0] else []
        if phase == JUMP:
            if seat != self._offers[0]:
                return []
            return [*self._table(len(self.hands[seat]))[self.discard[-1]], "pass"]
        if phase == SLAP:
            return ["slap"] if seat in self._slappers else []
        if phase == UNO:
            return ["say_uno", "pass"] if seat == self._catch else []
        return []

    def _table(self, held: int) -> tuple[tuple[str, ...], ...]:
        """The ways to play each card for a seat holding ``held`` cards: with and without ``!`` when the
        play leaves one card (or, with a false-UNO penalty, any number of cards), else without."""
        if held == 2 or (self._false_uno and held > 2):
            return _PLAY_UNO
        return _PLAY

    def _can_draw(self) -> bool:
        return bool(self.draw_pile) or len(self.discard) > 1

    def _turn_actions(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        held = len(hand)
        table = _PLAY_UNO if held == 2 or (self._false_uno and held > 2) else _PLAY  # _table, inlined: hot
        colour = self.colour
        rank = self.top_rank
        col = _COL
        acts: list[str] = []
        prev = -1
        holds_colour = -1
        for card in hand:
            if card == prev:
                continue
            prev = card
            c = col[card]
            if c >= 0:
                if c == colour or _RANK[card] == rank:
                    acts += table[card]
            else:
                if self._restrict_play and self._restricted[card]:
                    if holds_colour < 0:
                        holds_colour = 1 if any(col[x] == colour for x in hand) else 0
                    if holds_colour:
                        continue
                acts += table[card]
        if self.draw_pile or len(self.discard) > 1:
            acts.append("draw")
        return acts

    def _stackable(self, card: int) -> bool:
        top = self.pending_top
        mode = self._stacking
        if mode == "same":
            return _RANK[card] == _RANK[top]
        matches = self._stack_free or _COL[card] < 0 or _RANK[card] == _RANK[top] or _COL[card] == self.colour
        if mode == "mixed":
            return matches
        return matches and _DRAWV[card] >= _DRAWV[top]  # "any" (No Mercy): equal or higher value

    def _pending_actions(self, seat: int) -> list[str]:
        offender = self.challenge_from
        if offender >= 0 and not self.hands[offender]:
            return [
                "challenge",
                "take",
            ]  # a last card challenged (challenge_last): no stacking, the hand ends
        acts: list[str] = []
        if self._stacking != "none":
            hand = self.hands[seat]
            table = self._table(len(hand))
            prev = -1
            for card in hand:
                # A restricted wild draw card keeps its restriction when it answers a stack.
                if (
                    card != prev
                    and _DRAWV[card]
                    and self._stackable(card)
                    and (not (self._restrict_play and self._restricted[card]) or self._playable(card, hand))
                ):
                    acts += table[card]
                prev = card
        if offender >= 0:
            acts.append("challenge")
        acts.append("take")
        return acts

    def _playable(self, card: int, hand: list[int]) -> bool:
        c = _COL[card]
        if c >= 0:
            return c == self.colour or _RANK[card] == self.top_rank
        if self._restrict_play and self._restricted[card]:
            return not any(_COL[x] == self.colour for x in hand)
        return True

    def _rejection(self, action: object, seat: int) -> IllegalAction:
        if not isinstance(action, str) or action not in A.ACTIONS:
            return A.malformed(action)
        if self.phase == OVER:
            return IllegalAction(f"the game is over; {action!r} cannot be played")
        if seat not in self.to_move:
            return NotYourTurn(
                f"seat {seat} is not to move (to move: {list(self.to_move)}); {action!r} rejected"
            )
        legal = self.legal_actions(seat)
        return IllegalAction(
            f"{action!r} is not legal for seat {seat} in phase {PHASES[self.phase]!r} "
            f"(top {_CODE[self.discard[-1]]}, colour {COLOURS[self.colour] if self.colour >= 0 else '-'}); "
            f"legal: {', '.join(legal)}"
        )

    # --- Applying actions ----------------------------------------------------------------------------

    def _dispatch(self, seat: int, p: A.ParsedAction) -> None:
        kind = p.kind
        phase = self.phase
        if kind == A.PLAY:
            if phase == JUMP:
                self._emit({"type": "jump", "seat": seat})
            self._play(seat, p.card, p.colour, p.uno)
        elif kind == A.DRAW:
            self._draw_turn(seat)
        elif kind == A.KEEP:
            self._emit({"type": "keep", "seat": seat})
            self._begin_turn(self._next(seat))
        elif kind == A.TAKE:
            self._take(seat)
        elif kind == A.CHALLENGE:
            self._challenge(seat)
        elif kind == A.PASS:
            self._emit({"type": "pass", "seat": seat, "window": PHASES[phase]})
            if phase == UNO:
                self._continue()
                return
            self._offers.pop(0)
            if not self._offers:
                self._continue()
        elif kind == A.SAY_UNO:
            self.uno[seat] = True
            self._emit({"type": "say_uno", "seat": seat})
            self._continue()
        elif kind == A.CATCH:
            offender = self._catch
            self._catch = -1
            self._emit({"type": "catch", "seat": seat, "target": offender})
            self._draw(offender, self.rules.uno_penalty, "uno")
            self._continue()
        elif kind == A.SLAP:
            self._slappers.remove(seat)
            self._emit({"type": "slap", "seat": seat})
            if not self._slappers:
                self._draw(seat, 2, "slap")
                player = self._cont_seat
                if not self.hands[player] and not self.mercy_out[player]:  # a last 6 (smackdown_last=slap)
                    self._end_hand(player, "out")
                else:
                    self._continue()
        elif kind == A.COLOR:
            self.colour = p.colour
            self._emit({"type": "color", "seat": seat, "color": COLOURS[p.colour]})
            self._continue()
        elif kind == A.SWAP:
            self._swap(seat, p.target)
            self._continue()

    def _emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def _next(self, seat: int, steps: int = 1) -> int:
        if self._all_in:
            return (seat + self.direction * steps) % self.n
        n = self.n
        d = self.direction
        away = self._away
        for _ in range(steps):
            seat = (seat + d) % n
            while away[seat]:
                seat = (seat + d) % n
        return seat

    def _active(self) -> int:
        """Seats still in the game (not eliminated)."""
        return self.n - sum(self.out)

    def _in_hand(self) -> int:
        """Seats still playing this hand (neither eliminated nor out of it under the Mercy rule)."""
        return self.n - sum(self._away)

    def _seats_after(self, seat: int) -> list[int]:
        """Seats playing this hand in the direction of play, starting after ``seat``, ``seat`` excluded
        (``seat`` itself may be out of the hand)."""
        n, d = self.n, self.direction
        if self._all_in:
            return [(seat + d * i) % n for i in range(1, n)]
        away = self._away
        return [s for s in [(seat + d * i) % n for i in range(1, n)] if not away[s]]

    def _draw(
        self, seat: int, count: int, reason: str, until_playable: bool = False, mercy_now: bool = True
    ) -> list[int]:
        """Move cards from the draw pile to a hand, reshuffling the discard pile when it runs out.
        With both piles empty, fewer (or no) cards are drawn. A seat that reaches the Mercy limit stops
        drawing and is out of the hand (``mercy_now=False``: once the play in progress is over)."""
        hand = self.hands[seat]
        pile = self.draw_pile
        mercy = self._mercy if mercy_now else 0
        got: list[int] = []
        while until_playable or len(got) < count:
            if not pile:
                if len(self.discard) <= 1:
                    break
                top = self.discard.pop()
                pile.extend(self.discard)
                self.discard[:] = [top]
                shuffle(pile, self.rng)
                self._emit({"type": "reshuffle", "draw_pile": len(pile)})
            card = pile.pop()
            got.append(card)
            insort(hand, card)
            if mercy and len(hand) >= mercy:
                break
            if until_playable and self._playable(card, hand):
                break
        if got:
            self._passes = 0
            if len(hand) > 1:
                self.uno[seat] = False
            self._emit({"type": "draw", "seat": seat, "cards": [_CODE[c] for c in got], "reason": reason})
            if mercy and len(hand) >= mercy:
                self._mercy_out(seat)
        return got

    def _mercy_out(self, seat: int) -> None:
        """The Mercy rule: the seat's cards are shuffled into the draw pile and it is out of the hand; it
        scores as holding them. Only a draw can reach the limit: a hand exchange (Seven-O, Shuffle Hands)
        never makes the largest hand larger."""
        if self._in_hand() <= 1:
            return  # the last seat in the hand wins it (at the next turn) rather than going out too
        hand = self.hands[seat]
        self.mercy_points[seat] = sum(_PTS[c] for c in hand)
        self.draw_pile.extend(hand)
        shuffle(self.draw_pile, self.rng)
        self.hands[seat] = []
        self.mercy_out[seat] = True
        self.uno[seat] = False
        self.lost_turns[seat] = 0
        self._away[seat] = True
        self._all_in = False
        self._emit({"type": "mercy", "seat": seat, "cards": [_CODE[c] for c in hand]})

    def _mercy_sweep(self) -> None:
        """Once a play is over (its swap or colour chosen): a seat that drew up to the Mercy limit during
        its own play (a false UNO call) is out of the hand now."""
        limit = self._mercy
        for s in range(self.n):
            if not self._away[s] and len(self.hands[s]) >= limit:
                self._mercy_out(s)

    def _draw_turn(self, seat: int) -> None:
        got = self._draw(seat, 1, "draw", until_playable=self._keep_drawing)
        if got and not self.mercy_out[seat] and self._playable(got[-1], self.hands[seat]):
            self.drawn = got[-1]
            self.phase = DRAWN
            return
        self._begin_turn(self._next(seat))

    def _take(self, seat: int) -> None:
        count = self.pending
        offender = self.challenge_from
        self.pending = 0
        self.pending_top = -1
        self.challenge_from = -1
        self._emit({"type": "take", "seat": seat, "count": count})
        self._draw(seat, count, "penalty")
        if offender >= 0 and not self.hands[offender]:  # an unchallenged last card: the hand is won
            self._end_hand(offender, "out")
            return
        self._begin_turn(self._next(seat))

    def _challenge(self, seat: int) -> None:
        offender = self.challenge_from
        guilty = self.challenge_guilty
        value = self.challenge_value
        self.challenge_from = -1
        self.pending = 0
        self.pending_top = -1
        self._emit({"type": "challenge", "seat": seat, "target": offender, "guilty": guilty})
        if guilty:
            if not self.mercy_out[offender]:  # (an offender out under the Mercy rule has nothing to draw)
                self._draw(offender, value, "challenge")
            if self._owed_skip and not self.mercy_out[offender]:
                self.lost_turns[offender] += 1  # 004: the offender also loses their next turn
            self._begin_turn(seat, new_turn=False)
        else:
            self._draw(seat, value + 2, "challenge")
            if not self.hands[offender]:  # an honest last card: the hand is won
                self._end_hand(offender, "out")
                return
            self._begin_turn(self._next(seat))

    def _swap(self, seat: int, target: int) -> None:
        hands = self.hands
        hands[seat], hands[target] = hands[target], hands[seat]
        self.uno[seat] = self.uno[target] = False
        self._catch = -1  # a hand exchange closes the catch window
        self._emit({"type": "swap", "seat": seat, "target": target})

    def _play(self, seat: int, card: int, colour: int, uno: bool) -> None:
        hand = self.hands[seat]
        guilty = self._restricted[card] and any(_COL[x] == self.colour for x in hand)
        hand.remove(card)
        self.discard.append(card)
        self._passes = 0
        self.drawn = -1
        c = _COL[card]
        self.colour = c if c >= 0 else colour
        self.top_rank = _RANK[card]
        left = len(hand)
        self.uno[seat] = uno and left == 1
        event: dict[str, Any] = {"type": "play", "seat": seat, "card": _CODE[card]}
        if c < 0 and colour >= 0:
            event["color"] = COLOURS[colour]
        if uno:
            event["uno"] = True
        self._emit(event)
        if not left:
            self._last_card(seat, card, guilty)
            return
        if uno and left > 1:  # a false UNO call (false_uno); the Mercy rule waits for the end of the play
            self._draw(seat, self._false_uno, "false_uno", mercy_now=False)
        self._cont_seat = seat
        self._catch = seat if left == 1 and not uno else -1
        self._stage = _ST_UNO
        effect = _EFFECT[card]
        if effect == _NUM:
            if self._seven_o:
                if card in _SEVEN:
                    self._cont_next = self._next(seat)
                    self.cur = seat
                    self.phase = SWAP
                    return
                if card in _ZERO:
                    self._rotate_hands()
            self._cont_next = self._next(seat)
        elif effect == _SKIP:
            self._emit({"type": "skip", "seat": self._next(seat)})
            self._cont_next = self._next(seat, 2)
        elif effect == _REV:
            if self._in_hand() == 2:
                self._emit({"type": "skip", "seat": self._next(seat)})
                self._cont_next = seat
            else:
                self.direction = -self.direction
                self._emit({"type": "reverse", "direction": self.direction})
                self._cont_next = self._next(seat)
        elif effect == _DRAWCARD:
            self._cont_next = self._draw_card_effect(seat, card, guilty)
        elif effect == _SKIPALL:
            self._emit({"type": "skip", "seat": -1})
            self._cont_next = seat
        elif effect == _REVALL:
            self.direction = -self.direction
            self._emit({"type": "reverse", "direction": self.direction})
            self._cont_next = seat
        elif effect == _SHUFFLE:
            self._shuffle_hands(seat)
            self._cont_next = self._next(seat)
            self.cur = seat
            self.phase = COLOR
            return
        elif effect == _CUSTOM:
            mode = self.rules.custom_wild
            self._cont_next = self._next(seat)
            if mode == "swap":
                self.cur = seat
                self.phase = SWAP
                return
            if mode == "all-draw-one":
                for other in self._seats_after(seat):
                    self._draw(other, 1, "custom")
        else:  # plain wild
            self._cont_next = self._next(seat)
        if self._catch < 0 and not self._windows:
            self._begin_turn(self._cont_next)
        else:
            self._continue()

    def _draw_card_effect(self, seat: int, card: int, guilty: bool) -> int:
        """Apply a draw card's penalty; return who plays next."""
        value = _DRAWV[card]
        victim = self._next(seat)
        challengeable = self.rules.challenge and self._restricted[card] and not self.pending
        if self._stacking != "none" or challengeable:
            if challengeable:
                self.challenge_from = seat
                self.challenge_guilty = guilty
                self.challenge_value = value
            else:
                self.challenge_from = -1
            self.pending += value
            self.pending_top = card
            return victim
        self._draw(victim, value, "penalty")
        self._emit({"type": "skip", "seat": victim})
        return self._next(victim)

    def _last_card(self, seat: int, card: int, guilty: bool) -> None:
        """The seat played its last card. Its draw penalty (and any stack under it) still lands, then the
        hand ends; a restricted wild draw card may first be challenged (``challenge_last``), and a 6 is
        first slapped by the others (6 Smackdown, ``smackdown_last=slap``)."""
        if self._challenge_last and self._restricted[card] and not self.pending and self.rules.challenge:
            self._draw_card_effect(seat, card, guilty)
            self.cur = self._next(seat)
            self.phase = TURN
            self.turns += 1  # the victim's turn: only challenge or take (the turn cap cannot end a won hand)
            return
        if self._slap_last and card in _SIX:
            self._cont_seat = seat
            self._catch = -1
            self._stage = _ST_SLAP
            self._continue()
            return
        if _DRAWV[card]:
            self._draw(self._next(seat), self.pending + _DRAWV[card], "penalty")
        self.pending = 0
        self.pending_top = -1
        self.challenge_from = -1
        self._end_hand(seat, "out")

    def _rotate_hands(self) -> None:
        hands = self.hands
        moved = [list(h) for h in hands]
        for s in range(self.n):
            if not self._away[s]:
                moved[self._next(s)] = hands[s]
        self.hands = moved
        self.uno = [False] * self.n
        self._catch = -1
        self._emit({"type": "rotate", "direction": self.direction})

    def _shuffle_hands(self, seat: int) -> None:
        """Wild Shuffle Hands: collect, shuffle, deal one at a time starting with the player on the left of
        the player (the next seat clockwise, whatever the direction of play), the player last. Every seat
        in the hand still holds a card before it (the player has not gone out), so every seat gets one
        back."""
        pool = [c for s in range(self.n) for c in self.hands[s]]
        shuffle(pool, self.rng)
        n = self.n
        order = [s for s in ((seat + i) % n for i in range(1, n)) if not self._away[s]] + [seat]
        new_hands: list[list[int]] = [[] for _ in range(n)]
        for i, card in enumerate(pool):
            new_hands[order[i % len(order)]].append(card)
        for h in new_hands:
            h.sort()
        self.hands = new_hands
        self.uno = [False] * n
        self._catch = -1
        self._emit({"type": "shuffle", "seat": seat, "hands": [[_CODE[c] for c in h] for h in new_hands]})

    def _continue(self) -> None:
        """Run the out-of-turn chances after a play, in their fixed order, then start the next turn."""
        if self._mercy:
            self._mercy_sweep()
        while True:
            if not self._all_in and self._in_hand() <= 1:  # the Mercy rule left one seat: it wins the hand
                self._stage = _ST_TURN
            stage = self._stage
            if stage == _ST_UNO:
                self._stage = _ST_CATCH
                offender = self._catch
                if self._uno_window and self._catchable(offender):
                    self.phase = UNO
                    return
            elif stage == _ST_CATCH:
                self._stage = _ST_SLAP
                offender = self._catch
                if self._catchable(offender):
                    self._offers = self._seats_after(offender)
                    self.phase = CATCH
                    return
                self._catch = -1
            elif stage == _ST_SLAP:
                self._stage = _ST_JUMP
                if self._smackdown and self.discard[-1] in _SIX:
                    seat = self._cont_seat
                    self._slappers = self._seats_after(seat)
                    if self.hands[seat]:  # the player slaps too, unless it has just gone out
                        self._slappers.append(seat)
                    self.phase = SLAP
                    return
            elif stage == _ST_JUMP:
                self._stage = _ST_TURN
                top = self.discard[-1]
                if self._jump_in and not self.pending and _COL[top] >= 0:
                    offers = [s for s in self._seats_after(self._cont_seat) if top in self.hands[s]]
                    if offers:
                        self._offers = offers
                        self.phase = JUMP
                        return
            else:
                self._begin_turn(self._cont_next)
                return

    def _catchable(self, offender: int) -> bool:
        return offender >= 0 and len(self.hands[offender]) == 1 and not self.uno[offender]

    def _begin_turn(self, seat: int, new_turn: bool = True) -> None:
        """Start ``seat``'s turn; penalties without a choice, lost turns and turns without any action
        resolve at once."""
        if self._mercy:
            self._mercy_sweep()
        while True:
            if not self._all_in:
                if self._in_hand() <= 1:  # everyone else is out of the hand under the Mercy rule
                    self._end_hand(next(s for s in range(self.n) if not self._away[s]), "mercy")
                    return
                if self._away[seat]:
                    seat = self._next(seat)
            if self._owed_skip and new_turn and self.lost_turns[seat] and not self.pending:
                self.lost_turns[seat] -= 1
                self._emit({"type": "skip", "seat": seat, "owed": True})
                seat = self._next(seat)
                continue
            if new_turn:
                self.turns += 1
                if self.turns > self._max_turns:
                    self._end_hand(-1, "turn-cap")
                    return
            new_turn = True
            self.cur = seat
            self.phase = TURN
            if self.pending:
                legal = self._pending_actions(seat)
                if len(legal) > 1:
                    self._legal, self._legal_seat = legal, seat
                    return
                self._take_forced(seat)
                seat = self._next(seat)
                continue
            legal = self._turn_actions(seat)
            if legal:
                self._legal, self._legal_seat = legal, seat
                return
            self._emit({"type": "pass", "seat": seat, "window": "turn"})
            self._passes += 1
            if self._passes >= self._in_hand():
                self._end_hand(-1, "blocked")
                return
            seat = self._next(seat)

    def _take_forced(self, seat: int) -> None:
        count = self.pending
        self.pending = 0
        self.pending_top = -1
        self._draw(seat, count, "penalty")
        self._emit({"type": "skip", "seat": seat})

    # --- Hands and scoring ---------------------------------------------------------------------------

    def _start_hand(self) -> None:
        rules = self.rules
        self.hand_no += 1
        self._hand_event_start = len(self.events)
        if self.explicit_deck is not None and self.hand_no == 1:
            cards = list(self._cards)
        else:
            cards = list(self._cards)
            shuffle(cards, self.rng)
        pile = cards[::-1]
        n = self.n
        self.direction = 1
        self.hands = [[] for _ in range(n)]
        self.uno = [False] * n
        self.mercy_out = [False] * n
        self.mercy_points = [0] * n
        self.lost_turns = [0] * n
        self._away = list(self.out)
        self._all_in = not any(self.out)
        self.pending = 0
        self.pending_top = -1
        self.challenge_from = -1
        self.drawn = -1
        self.turns = 0
        self._passes = 0
        first = self._next(self.dealer)
        self._emit(
            {
                "type": "hand",
                "hand_no": self.hand_no,
                "dealer": self.dealer,
                "seats": [s for s in range(n) if not self.out[s]],
            }
        )
        for _ in range(rules.hand_size):
            s = first
            while True:
                self.hands[s].append(pile.pop())
                s = self._next(s)
                if s == first:
                    break
        for s in range(n):
            self.hands[s].sort()
            if not self.out[s]:
                self._emit({"type": "deal", "seat": s, "cards": [_CODE[c] for c in self.hands[s]]})
        self.draw_pile = pile
        top = pile.pop()
        for _ in range(len(cards)):
            if not self._returned_first(top):
                break
            self._emit({"type": "return", "card": _CODE[top]})
            pile.append(top)
            shuffle(pile, self.rng)
            top = pile.pop()
        self.discard = [top]
        self.colour = _COL[top]
        self.top_rank = _RANK[top]
        self._emit({"type": "flip", "card": _CODE[top]})
        self._first_card_effect(top)

    def _returned_first(self, card: int) -> bool:
        rank = _RANK[card]
        if rank in _RETURNED_FIRST:
            return True
        if rank == "WC" and self.rules.custom_wild != "plain":
            return True
        return rank in ("W", "X", "WC") and self.rules.first_wild == "replace"

    def _first_card_effect(self, top: int) -> None:
        dealer = self.dealer
        left = self._next(dealer)
        effect = _EFFECT[top]
        self._stage = _ST_TURN
        self._cont_seat = dealer
        if effect == _SKIP:
            self._emit({"type": "skip", "seat": left})
            self._begin_turn(self._next(left))
        elif effect == _REV:
            self.direction = -1
            self._emit({"type": "reverse", "direction": -1})
            self._begin_turn(dealer if self.rules.first_reverse == "dealer" else self._next(dealer))
        elif effect == _DRAWCARD:
            self._draw(left, _DRAWV[top], "penalty")
            self._emit({"type": "skip", "seat": left})
            self._begin_turn(self._next(left))
        elif effect == _SKIPALL:
            self._emit({"type": "skip", "seat": -1})
            self._begin_turn(dealer)
        elif effect == _REVALL:
            self.direction = -1
            self._emit({"type": "reverse", "direction": -1})
            self._begin_turn(dealer)
        elif _COL[top] < 0:  # a plain wild: the first player names the colour, then plays
            self.colour = -1
            self.cur = left
            self._cont_next = left
            self.phase = COLOR
        else:
            self._begin_turn(left)

    def _end_hand(self, winner: int, reason: str) -> None:
        rules = self.rules
        points = [sum(_PTS[c] for c in h) + m for h, m in zip(self.hands, self.mercy_points, strict=True)]
        active = [s for s in range(self.n) if not self.out[s]]
        gained = [0] * self.n
        if rules.scoring in ("winner-takes", "single-hand"):
            if winner >= 0:
                gained[winner] = sum(points[s] for s in active if s != winner)
        else:
            for s in active:
                gained[s] = points[s]
        for s in active:
            self.scores[s] += gained[s]
        self.phase = OVER
        self._emit(
            {
                "type": "hand_end",
                "hand_no": self.hand_no,
                "winner": winner,
                "reason": reason,
                "points": points,
                "gained": gained,
                "scores": list(self.scores),
            }
        )
        termination = self._termination(points, winner)
        if termination:
            self._finish(termination, points, winner)
            return
        self.direction = 1  # the deal passes to the left, whatever the direction of play was
        self._away = list(self.out)  # seats out of the last hand under the Mercy rule deal and play again
        self._all_in = not any(self.out)
        self.dealer = self._next(self.dealer)
        self._start_hand()

    def _termination(self, points: list[int], winner: int) -> str:
        rules = self.rules
        if rules.scoring == "single-hand":
            return "single-hand"
        if rules.scoring == "elimination":
            fallen = [s for s in range(self.n) if not self.out[s] and self.scores[s] >= rules.target]
            if fallen:
                for s in fallen:
                    self.out[s] = True
                self._eliminated.append(fallen)
                self._emit({"type": "eliminated", "seats": fallen})
            if self._active() <= 1:
                return "last-standing"
        elif max(self.scores) >= rules.target:
            return "target"
        if self.hand_no >= rules.max_hands:
            return "hand-limit"
        return ""

    def _finish(self, termination: str, points: list[int], winner: int) -> None:
        scores = self.scores
        if termination == "single-hand":
            rest = sorted((s for s in range(self.n) if s != winner), key=lambda s: points[s])
            places = ([(winner,)] if winner >= 0 else []) + _group(rest, points)
        elif self.rules.scoring == "winner-takes":
            places = _group(sorted(range(self.n), key=lambda s: -scores[s]), [-x for x in scores])
        elif self.rules.scoring == "lowest-wins":
            places = _group(sorted(range(self.n), key=lambda s: scores[s]), scores)
        else:
            standing = sorted((s for s in range(self.n) if not self.out[s]), key=lambda s: scores[s])
            places = _group(standing, scores)
            for fallen in reversed(self._eliminated):
                places += _group(sorted(fallen, key=lambda s: scores[s]), scores)
        self.outcome = Outcome(tuple(places), tuple(scores), termination, self.hand_no)
        self.phase = OVER
        self._legal = None
        self._emit({"type": "game_end", **self.outcome.to_dict()})


def _group(order: list[int], key: list[int]) -> list[tuple[int, ...]]:
    """Group seats already sorted by ``key`` into tied places."""
    groups: list[list[int]] = []
    for s in order:
        if groups and key[groups[-1][0]] == key[s]:
            groups[-1].append(s)
        else:
            groups.append([s])
    return [tuple(g) for g in groups]


PRIVATE_CARDS: Final = frozenset({"deal", "draw", "mercy"})
"""Event types whose ``cards`` only their own seat sees (the others get a ``count``)."""


def _json_ints(items: list[int] | tuple[int, ...]) -> str:
    """Integers as a compact JSON array."""
    return "[" + ",".join([str(i) for i in items]) + "]"


def _json_bools(items: list[bool]) -> str:
    """Booleans as a compact JSON array."""
    return "[" + ",".join(["true" if b else "false" for b in items]) + "]"


def _json_cards(cards: list[int]) -> str:
    """Card codes as a compact JSON array of strings."""
    return '["' + '","'.join([_CODE[c] for c in cards]) + '"]' if cards else "[]"


def redact(event: dict[str, Any], seat: int) -> dict[str, Any]:
    """The part of an event that ``seat`` may see: other players' card faces become counts."""
    etype = event["type"]
    if etype in PRIVATE_CARDS and event["seat"] != seat:
        public = dict(event)
        public["count"] = len(public.pop("cards"))
        return public
    if etype == "shuffle":
        public = dict(event)
        hands = public.pop("hands")
        public["hand_sizes"] = [len(h) for h in hands]
        public["hand"] = hands[seat]
        return public
    return event
