"""UNO Arena's game engine: cards, rule sets, the game state machine, replays, the protocol and referee.

Pure Python, no Django and no Docker: the single source of truth for the rules. ``scripts/build-engine``
can compile the hot modules with mypyc; see arena._accel.
"""

from arena import _accel

COMPILED = _accel.enable(__path__)
"""True when the mypyc-compiled engine modules are in use."""

# The imports below must come after the compiled modules are put on the package path.

from arena.errors import (  # noqa: E402
    ArenaError,
    CardCodeError,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    ReplayError,
    RulesError,
)
from arena.game import Game, Outcome  # noqa: E402
from arena.rules import PRESETS, RuleSet, parse_rules, preset  # noqa: E402

__all__ = [
    "COMPILED",
    "PRESETS",
    "ArenaError",
    "CardCodeError",
    "Game",
    "IllegalAction",
    "MalformedAction",
    "NotYourTurn",
    "Outcome",
    "ReplayError",
    "RuleSet",
    "RulesError",
    "parse_rules",
    "preset",
]
