"""Real engine games for the viewer's tests and benchmark: replays played by the built-in policies.

Imported as ``tests.viewer.engine_games`` (tests, ``bench/viewer.py``).
"""

from __future__ import annotations

import random
from typing import Any

from arena.engine.game import Game
from arena.engine.policies import POLICIES
from arena.engine.replay import make_replay
from arena.engine.rules import parse_rules

LAST_CARDS = "smackdown-6,challenge_last=true,stacking=mixed,stack_colour=any"

#: (label, rules spec, players, seed, policies by seat): a spread of rule sets for the engine-vs-viewer
#: check. Several hands to 500 points, Seven-O swaps and rotations, No Mercy stacks and challenges, Shuffle
#: Hands, 6 Smackdown slaps (several seats to move), jump-ins, eliminations, keep-drawing; the Mercy rule, UNO
#: said on its own and false calls, 004's lost turns, a last 6 slapped and a last Wild Draw Four challenged.
CASES: list[tuple[str, str, int, int, tuple[str, ...]]] = [
    ("classic-500", "classic", 4, 24, ("greedy", "random", "greedy", "random")),
    ("seven-o", "seven-o,target=300", 4, 2, ("greedy", "random", "random", "greedy")),
    ("no-mercy", "no-mercy,scoring=single-hand", 3, 4, ("random", "greedy", "random")),
    ("no-mercy-2p", "no-mercy,target=200", 2, 14, ("greedy", "random")),
    ("2018", "classic-2018,custom_wild=swap,target=200", 5, 2, ("random",) * 5),
    ("smackdown", "smackdown-6,target=200", 4, 8, ("greedy", "random", "random", "random")),
    ("jump-in", "jump-in,scoring=single-hand", 6, 1, ("greedy", "random") * 3),
    ("elimination", "seven-o,scoring=elimination,target=150", 4, 6, ("random", "greedy", "random", "random")),
    ("family", "family,target=200", 3, 12, ("random", "greedy", "random")),
    ("stacking-mixed", "stacking-mixed,target=200", 3, 7, ("greedy", "random", "greedy")),
    ("no-mercy-mercy", "no-mercy,target=200", 3, 1, ("random", "greedy", "random")),
    (
        "uno-window",
        "classic,uno_call=window,false_uno=2,challenge_guilty=draw-skip,target=60,hand_size=4",
        3,
        46,
        ("random", "greedy", "random"),
    ),
    ("last-six", f"{LAST_CARDS},target=150,hand_size=3", 4, 15, ("greedy", "random", "greedy", "random")),
    ("last-w4", f"{LAST_CARDS},target=150,hand_size=3", 4, 209, ("greedy", "random", "greedy", "random")),
]


def play(rules_spec: str, players: int, seed: int, policies: tuple[str, ...], rng_seed: int = 0) -> Game:
    """Play one game to its end with the built-in policies (seat ``s`` plays ``policies[s]``)."""
    game = Game(parse_rules(rules_spec), players, seed)
    rng = random.Random(rng_seed or seed)
    chosen = [POLICIES[p] for p in policies]
    while not game.is_over:
        seat = game.current_player
        game.apply(chosen[seat](game, seat, game.legal_actions(seat), rng), seat)
    return game


def replay_of(game: Game, policies: tuple[str, ...], with_metadata: bool = True) -> dict[str, Any]:
    """The game's replay, with made-up think times and one fault so the viewer has them to show."""
    n = len(game.history)
    think = [round(0.2 + (i * 7919 % 97) / 10, 3) for i in range(n)] if with_metadata else None
    faults: list[dict[str, Any] | None] | None = None
    if with_metadata and n > 12:
        faults = [None] * n
        faults[12] = {"kind": "timeout", "message": "no answer within 1.0 s", "decision": 12}
    names = [f"{p}-{s}" for s, p in enumerate(policies)]
    return make_replay(game, names=names, think_ms=think, faults=faults)


def case_replay(label: str) -> dict[str, Any]:
    """The replay of one of :data:`CASES`."""
    for name, spec, players, seed, policies in CASES:
        if name == label:
            return replay_of(play(spec, players, seed, policies), policies)
    raise KeyError(label)


def long_replay(min_decisions: int = 2000, max_decisions: int = 2600) -> dict[str, Any]:
    """A classic 4-player game to 500 points (several hands) with ``min_decisions`` to ``max_decisions``
    decisions, for the speed benchmark; the first such seed, so always the same game."""
    policies = ("random", "random", "random", "random")
    for seed in range(1, 500):
        game = play("classic", 4, seed, policies)
        if min_decisions <= len(game.history) <= max_decisions:
            return replay_of(game, policies)
    raise RuntimeError(f"no classic game of {min_decisions}-{max_decisions} decisions in 500 seeds")
