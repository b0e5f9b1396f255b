"""The game engine: cards, rule sets, actions, the game state machine, replays and built-in policies.

Pure Python, the single source of truth for the rules. ``scripts/build-engine`` can compile the hot
modules with mypyc; see :mod:`arena.engine._accel`.
"""

from arena.engine import _accel

COMPILED = _accel.enable(__path__)
"""True when the mypyc-compiled engine modules are in use."""
