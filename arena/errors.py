"""Typed errors raised by the engine. Every message names what was wrong."""

from __future__ import annotations


class ArenaError(Exception):
    """Base class of every error the engine raises on bad input."""


class CardCodeError(ArenaError, ValueError):
    """A card code that is not one of the codes in docs/rules.md (e.g. ``"R77"``)."""


class RulesError(ArenaError, ValueError):
    """An unknown rule option, a bad value, an impossible combination or an unknown preset."""


class IllegalAction(ArenaError, ValueError):
    """An action that is not legal for that seat now. The game state is unchanged."""


class MalformedAction(IllegalAction):
    """An action string that is not an action at all (e.g. ``"R77"`` or ``"play"``)."""


class NotYourTurn(IllegalAction):
    """An action sent by a seat that is not to move."""


class ReplayError(ArenaError, ValueError):
    """A replay that is malformed, of an unknown version, or that does not re-simulate to what it says."""


class PositionError(ArenaError, ValueError):
    """A position (docs/position.md) that is malformed, of an unknown version, or impossible."""
