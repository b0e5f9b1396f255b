"""The bots the benchmarks play, by name, as in-process objects (shared by winrates.py and strength.py).

``make("strategist")``, ``make("greedy")``, ``make("random", seed)``, ``make("rlcard")`` (RLCard's rule
agent through ``bench/bots/rlcard_rule.py``), ``make("search:200")`` (the search bot with 200 playouts per
decision), ``make("search-10ms")`` (a level, by time) or ``make("oracle:30")`` (the search bot given the
true hands, a diagnostic: ``bench/bots/oracle_search.py``, with ``oracle-pile``, ``oracle-end``,
``oracle-threat``, ``oracle-colours`` and ``oracle-ranks``; it must be handed the game, :func:`watch_all`).
The example bots are the real files of ``bots_examples/``, loaded with
:func:`arena.play.inprocess.load_bot_module` and played by :func:`arena.play.inprocess.play_local`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from arena.play.inprocess import load_bot_module  # noqa: E402

EXAMPLES = ROOT / "bots_examples"
BENCH_BOTS = ROOT / "bench" / "bots"
CLASSES = {
    "random": (EXAMPLES / "random_bot.py", "RandomBot"),
    "greedy": (EXAMPLES / "greedy_bot.py", "GreedyBot"),
    "strategist": (EXAMPLES / "strategist.py", "Strategist"),
    "rlcard": (BENCH_BOTS / "rlcard_rule.py", "RlcardRuleBot"),
    "search-10ms": (EXAMPLES / "search_10ms.py", "Search10ms"),
    "search-100ms": (EXAMPLES / "search_100ms.py", "Search100ms"),
    "search-1s": (EXAMPLES / "search_1s.py", "Search1s"),
}
"""Bot name -> (file, class)."""
ORACLES = {
    "oracle": "the search bot given the true hands, searching every decision",
    "oracle-pile": "the search bot given the true hands and the draw pile's order, searching every decision",
    "oracle-end": "the search bot given the true hands, searching from the endgame on",
    "oracle-threat": "the search bot as it is but for the smallest other hand, known",
    "oracle-colours": "the endgame oracle knowing only the colours of the other hands' cards",
    "oracle-ranks": "the endgame oracle knowing only the ranks of the other hands' cards",
}
"""The diagnostics of ``bench/bots/oracle_search.py`` (``NAME:playouts``), each with what it is."""


def switch(text: str) -> bool:
    """A setting's on/off value: ``1``, ``true`` or ``on`` is on."""
    return text in ("1", "true", "on")


SEARCH_SETTINGS: dict[str, Callable[[str], Any]] = {
    "endgame": int,
    "confidence": float,
    "opponent_model": switch,
    "halving": switch,
}
"""The search bot's attributes a benchmark may set (``search:30,endgame=5``), each with its parser."""


def make(name: str, seed: int | None = None) -> Any:
    """A fresh bot object called ``name`` (``search:N`` for the search bot at N playouts per decision,
    ``search:N,endgame=5,confidence=2`` a variant of it, :data:`SEARCH_SETTINGS`;
    ``policy`` for the strategist playing by the search bot's weights, ``search_bot.policy_for``, with no
    search); ``seed`` seeds the random bot."""
    if name == "policy":
        return load_bot_module(EXAMPLES / "search_bot.py").TunedPolicy()
    if name.startswith("search:"):
        sims, *settings = name.split(":")[1].split(",")
        bot = load_bot_module(EXAMPLES / "search_bot.py").SearchBot(sims=int(sims))
        for setting in settings:  # a variant, for a benchmark: search:30,endgame=5,confidence=2
            key, _, value = setting.partition("=")
            if key not in SEARCH_SETTINGS:
                raise SystemExit(f"{name}: the search bot's settings are {', '.join(SEARCH_SETTINGS)}")
            setattr(bot, key, SEARCH_SETTINGS[key](value))
        return bot
    kind, _, sims = name.partition(":")
    if kind in ORACLES:
        oracle = load_bot_module(BENCH_BOTS / "oracle_search.py")
        if kind == "oracle-threat":
            return oracle.ThreatOracle(sims=int(sims))
        if kind in ("oracle-colours", "oracle-ranks"):
            return oracle.BlurredOracle(sims=int(sims), keep=kind.split("-")[1])
        return oracle.OracleSearch(
            sims=int(sims),
            pile_known=kind == "oracle-pile",
            endgame=oracle.ENDGAME if kind == "oracle-end" else None,
        )
    path, cls = CLASSES[name]
    kind = getattr(load_bot_module(path), cls)
    return kind(seed) if cls == "RandomBot" else kind()


def strategist_with(weights: dict[str, Any]) -> Any:
    """A strategist playing by ``weights`` (``strategist.WEIGHTS`` changed)."""
    bot = make("strategist")
    bot.weights = weights
    return bot


def watch_all(bots: list[Any]) -> Callable[[Any], None] | None:
    """``play_local``'s ``on_deal`` for a lineup: hands the live game to every bot that watches it (the
    oracle), or ``None`` when none does."""
    watchers = [bot for bot in bots if hasattr(bot, "watch")]
    if not watchers:
        return None

    def on_deal(game: Any) -> None:
        for bot in watchers:
            bot.watch(game)

    return on_deal
