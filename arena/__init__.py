"""UNO Arena without Django or Docker, in four layers, each a subpackage:

- :mod:`arena.engine`: cards, rule sets, the game state machine, replays (the rules' one source of truth);
- :mod:`arena.play`: the bot protocol, the referee and the command line that run matches;
- :mod:`arena.ratings`: Elo, the batch rating fit, rank statistics;
- :mod:`arena.tournaments`: ladder matchmaking, league formats, standings, version tests.

The names below are the engine's public face: ``from arena import Game, preset``.
"""

from arena.engine import COMPILED
from arena.engine.game import Game, Outcome
from arena.engine.rules import PRESETS, RuleSet, parse_rules, preset
from arena.errors import (
    ArenaError,
    CardCodeError,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    ReplayError,
    RulesError,
)

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
