"""The oracle: the search bot given the true hands, for measuring the ceiling of its kind of search.

A diagnostic for ``bench/strength.py`` (``--hero oracle:N``), never a bot of the platform: it sees the live
game (``play_local``'s ``on_deal``), which no bot under the referee can. Every world it searches is the real
position (every hand as it is) with the draw pile reshuffled by the world's seed (``oracle-pile:N``: the
pile's true order too), and it searches every decision with ``N`` playouts (``oracle-end:N``: only where the
search bot does, once some seat holds ``ENDGAME`` cards or fewer). So it is the search bot with perfect
inference: what it wins bounds what better inference about the hidden hands could add to the search bot
(docs/strength.md, "Where the edge is"). ``oracle-threat:N`` is the search bot as it is but for one hand
known: the other seat with the fewest cards. ``oracle-colours:N`` and ``oracle-ranks:N`` are the endgame
oracle knowing only the colours (or only the ranks) of the other hands' cards.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.engine.cards import CARDS
from arena.engine.determinize import Deal, deal_world
from arena.engine.game import Game
from arena.play.inprocess import load_bot_module

_search = load_bot_module(Path(__file__).resolve().parents[2] / "bots_examples" / "search_bot.py")
ENDGAME: int = _search.ENDGAME
"""The search bot's own threshold (``oracle-end``): it searches once some seat holds this many cards."""


class Watching:
    """A bench bot that is handed the live game (``play_local(on_deal=...)``, :func:`bench.lineup.watch_all`)
    and makes each world of its search as a whole game (:meth:`sample`)."""

    game: Game | None = None

    def watch(self, game: Game) -> None:
        """The live game this bot plays in."""
        self.game = game

    def sample(self, view: str, seed: int, voids: object) -> Game:
        """One world of the search, made whole."""
        raise NotImplementedError

    def deal(self, view: str, seed: int, voids: object) -> Deal:
        """The search bot's hook: :meth:`sample`'s world, as a deal (the opponent model weighs its hands)."""
        return Deal.of(self.sample(view, seed, voids))


class OracleSearch(Watching, _search.SearchBot):  # type: ignore[name-defined]
    """The search bot whose worlds are the true game (:meth:`watch` gives it the game)."""

    name = "oracle"
    endgame = 10**6  # searches every decision
    opponent_model = False  # the hands are known: nothing to infer

    def __init__(self, sims: int, pile_known: bool = False, endgame: int | None = None) -> None:
        super().__init__(sims=sims)
        self.pile_known = pile_known
        if endgame is not None:
            self.endgame = endgame

    def view(self, obs: dict[str, Any]) -> str | None:
        """The whole position, every hand and the draw pile (not only what this seat sees)."""
        return None if self.game is None else self.game.position()

    def sample(self, view: str, seed: int, voids: object) -> Game:
        """The true position, the draw pile reshuffled by ``seed`` unless the oracle knows its order."""
        world = Game.from_position(view, seed)
        if not self.pile_known:
            random.Random(seed).shuffle(world.draw_pile)
        return world


class ThreatOracle(Watching, _search.SearchBot):  # type: ignore[name-defined]
    """The search bot as it is (sampled worlds, the opponent model, the endgame), except that in every
    world the other seat holding the fewest cards holds its true hand (``oracle-threat:N``): how much of
    the oracle's gain comes from knowing that one hand."""

    name = "oracle-threat"

    def sample(self, view: str, seed: int, voids: object) -> Game:
        """A sampled world with the threat's true hand: its true cards are exchanged with the ones the
        sample dealt it, wherever the sample put them (another hand or the draw pile)."""
        world = deal_world(view, seed, voids).game()  # type: ignore[arg-type]
        live = self.game
        if live is None:
            return world
        me = live.to_move[0]
        others = [s for s in range(live.n) if s != me and live.hands[s]]
        if not others:
            return world
        threat = min(others, key=lambda s: len(live.hands[s]))
        seats = [s for s in range(world.n) if s not in (me, threat)]
        places = [list(world.hands[s]) for s in seats] + [list(world.draw_pile)]  # changed only if all found
        dealt = list(world.hands[threat])
        for card in live.hands[threat]:
            if card in dealt:
                dealt.remove(card)
                continue
            place = next((p for p in places if card in p), None)
            if place is None:
                return world  # the card is in an unseen part of the discard pile: leave this world as dealt
            place[place.index(card)] = dealt.pop()
        for s, hand in zip(seats, places, strict=False):
            world.hands[s] = sorted(hand)
        world.draw_pile = places[-1]
        world.hands[threat] = sorted(live.hands[threat])
        return world


class BlurredOracle(OracleSearch):
    """The endgame oracle (``oracle-end``) with half of each other hand blurred: every card of another
    seat is exchanged with a random draw-pile card that shares its colour (``oracle-colours:N``: the
    hands' colours known, their ranks not) or its rank (``oracle-ranks:N``: the ranks known, the colours
    not). What each half of knowing the hands is worth, so which kind of inference could pay."""

    def __init__(self, sims: int, keep: str) -> None:
        super().__init__(sims=sims, endgame=ENDGAME)
        self.keep = keep

    def sample(self, view: str, seed: int, voids: object) -> Game:
        """The true position, each other hand's cards exchanged with pile cards of the same colour (or
        rank), then the pile reshuffled."""
        world = super().sample(view, seed, voids)
        live = self.game
        if live is None:
            return world
        me = live.to_move[0]
        rng = random.Random(seed ^ 0x5EED)
        pile = world.draw_pile
        for s in range(world.n):
            if s == me:
                continue
            hand = world.hands[s]
            for h, card in enumerate(hand):
                kind = self._kind(card)
                same = [p for p, other in enumerate(pile) if self._kind(other) == kind]
                if same:
                    p = rng.choice(same)
                    hand[h], pile[p] = pile[p], card
            hand.sort()
        rng.shuffle(pile)
        return world

    def _kind(self, card: int) -> object:
        """What this oracle keeps of a card: its colour (a wild: its rank) or its rank."""
        info = CARDS[card]
        if self.keep == "colours":
            return info.colour if info.colour >= 0 else info.rank
        return info.rank
