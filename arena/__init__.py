"""UNO Arena's game engine: cards, rule sets, the game state machine, replays, the protocol and referee.

Pure Python, no Django and no Docker: the single source of truth for the rules.
"""

from arena.errors import (
    ArenaError,
    CardCodeError,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    ReplayError,
    RulesError,
)
from arena.game import Game, Outcome
from arena.rules import PRESETS, RuleSet, parse_rules, preset

__all__ = [
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
