"""The oracle: the search bot given the true hands, for measuring the ceiling of its kind of search.

A diagnostic for ``bench/strength.py`` (``--hero oracle:N``), never a bot of the platform: it sees the live
game (``play_local``'s ``on_deal``), which no bot under the referee can. Every world it searches is the real
position (every hand as it is) with the draw pile reshuffled by the world's seed (``oracle-pile:N``: the
pile's true order too), and it searches every decision with ``N`` playouts (``oracle-end:N``: only where the
search bot does, once some seat holds ``ENDGAME`` cards or fewer). So it is the search bot with perfect
inference: what it wins bounds what better inference about the hidden hands
could add to the search bot (docs/bots.md, "Where the edge is").
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.engine.game import Game
from arena.play.inprocess import load_bot_module

_search = load_bot_module(Path(__file__).resolve().parents[2] / "bots_examples" / "search_bot.py")
ENDGAME: int = _search.ENDGAME
"""The search bot's own threshold (``oracle-end``): it searches once some seat holds this many cards."""


class OracleSearch(_search.SearchBot):  # type: ignore[name-defined]
    """The search bot whose worlds are the true game (:meth:`watch` gives it the game)."""

    name = "oracle"
    endgame = 10**6  # searches every decision
    opponent_model = False  # the hands are known: nothing to infer

    def __init__(self, sims: int, pile_known: bool = False, endgame: int | None = None) -> None:
        super().__init__(sims=sims)
        self.pile_known = pile_known
        if endgame is not None:
            self.endgame = endgame
        self.game: Game | None = None

    def watch(self, game: Game) -> None:
        """The live game this bot plays in (``play_local(on_deal=...)``)."""
        self.game = game

    def view(self, obs: dict[str, Any]) -> str | None:
        """The whole position, every hand and the draw pile (not only what this seat sees)."""
        return None if self.game is None else self.game.position()

    def sample(self, view: str, seed: int, voids: object) -> Game:
        """The true position, the draw pile reshuffled by ``seed`` unless the oracle knows its order."""
        world = Game.from_position(view, seed)
        if not self.pile_known:
            random.Random(seed).shuffle(world.draw_pile)
        return world
