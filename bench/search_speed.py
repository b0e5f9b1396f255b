"""The search bot's costs: sampled worlds per second, and playouts per second, in one run.

    python bench/search_speed.py [--views 200] [--worlds 40]

The views are those a seat has where the search bot searches: its turn, some hand at 3 cards or fewer
(``search_bot.ENDGAME``), from games of the engine's ``heuristic`` policy (``classic-single`` and
``classic``, 2 and 4 players). For each view, ``--worlds`` worlds are drawn two ways:

* ``from_position``: the baseline, :meth:`Game.from_position` per world (the view read, checked and
  its start position written again each time: how ``sample_world`` drew worlds before it read a view
  once);
* ``sample_world``: what the search bot calls (``arena.engine.determinize``), the view read once.

Both give the same worlds for the same seeds (checked here). A third line plays each world out with the
``heuristic`` policy (``play_hand_out``, as the search's playouts do), for the cost a world's playout adds to its dealing.

A second table times a search round of ``--options`` options (one playout each from the same world) two
ways: the baseline draws the world again for every option (the search bot before 2026-12-06); the other
draws it once and plays each option in a :meth:`Game.copy` of it, as the search bot does now (the same
worlds: checked here too).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import arena
from arena.engine.determinize import sample_world
from arena.engine.game import Game
from arena.engine.policies import heuristic_policy, play_hand_out
from arena.engine.rules import preset

ENDGAME = 3
"""Views are taken once some hand holds this many cards or fewer (``search_bot.ENDGAME``)."""


def endgame_views(count: int) -> list[tuple[str, int]]:
    """``count`` (view, seat) pairs from heuristic games, at a turn of that seat in the endgame."""
    rng = random.Random(7)
    views: list[tuple[str, int]] = []
    cases = [(spec, players) for spec in ("classic-single", "classic") for players in (2, 4)]
    seed = 0
    while len(views) < count:
        spec, players = cases[seed % len(cases)]
        game = Game(preset(spec), players, seed)
        seed += 1
        taken = False
        while not game.is_over and not taken:
            seat = game.to_move[0]
            legal = game.legal_actions(seat)
            if game.phase == 0 and len(legal) > 1 and min(len(h) for h in game.hands if h) <= ENDGAME:
                views.append((game.position(seat), seat))
                taken = True  # one view a game, so the views are of many games
            game.apply(heuristic_policy(game, seat, legal, rng), seat)
    return views


def timed(views: list[tuple[str, int]], worlds: int, draw) -> tuple[float, list[Game]]:
    """Worlds per second drawn by ``draw(view, seed)``; and the last view's worlds (for the check)."""
    start = time.perf_counter()
    last: list[Game] = []
    for view, _ in views:
        last = [draw(view, seed) for seed in range(worlds)]
    return len(views) * worlds / (time.perf_counter() - start), last


def playouts(views: list[tuple[str, int]], worlds: int) -> float:
    """Worlds per second drawn by ``sample_world`` and played to the end of the hand."""
    rng = random.Random(3)
    start = time.perf_counter()
    for view, _ in views:
        for seed in range(worlds):
            world = sample_world(view, seed)
            play_hand_out(world, world.hand_no, rng, 10_000)
    return len(views) * worlds / (time.perf_counter() - start)


def round_playouts(views: list[tuple[str, int]], worlds: int, options: int, copy: bool) -> float:
    """Playouts per second in search rounds of ``options`` options: each option's world drawn again by
    ``sample_world``, or (``copy``) drawn once and copied."""
    rng = random.Random(3)
    start = time.perf_counter()
    for view, _ in views:
        for seed in range(worlds):
            drawn = sample_world(view, seed) if copy else None
            for _ in range(options):
                world = drawn.copy() if drawn is not None else sample_world(view, seed)
                play_hand_out(world, world.hand_no, rng, 10_000)
    return len(views) * worlds * options / (time.perf_counter() - start)


def main() -> None:
    """Collect the views, time both ways, print."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--views", type=int, default=200, help="endgame views, one a game")
    parser.add_argument("--worlds", type=int, default=40, help="worlds drawn per view")
    parser.add_argument("--options", type=int, default=3, help="options in a search round")
    args = parser.parse_args()
    views = endgame_views(args.views)
    build = "mypyc-compiled" if arena.COMPILED else "pure Python"
    print(f"engine: {build}; {len(views)} endgame views, {args.worlds} worlds each")
    base, base_worlds = timed(views, args.worlds, Game.from_position)
    ours, our_worlds = timed(views, args.worlds, sample_world)
    same = [w.position() for w in base_worlds] == [w.position() for w in our_worlds]
    played = playouts(views, args.worlds)
    print(f"{'worlds drawn by':<42}{'per second':>12}{'ratio':>8}")
    print(f"{'Game.from_position (baseline)':<42}{base:>12.0f}{1.0:>7.2f}x")
    print(f"{'sample_world (the view read once)':<42}{ours:>12.0f}{ours / base:>7.2f}x")
    print(f"{'sample_world + a heuristic playout':<42}{played:>12.0f}{played / base:>7.2f}x")
    print(f"the same worlds both ways: {'yes' if same else 'NO'}")
    drawn = round_playouts(views, args.worlds, args.options, copy=False)
    copied = round_playouts(views, args.worlds, args.options, copy=True)
    copies_same = all(
        sample_world(view, seed).copy().position() == sample_world(view, seed).position()
        for view, _ in views
        for seed in range(3)
    )
    print()
    print(f"{f'search rounds of {args.options} options, playouts by':<42}{'per second':>12}{'ratio':>8}")
    print(f"{'the world drawn again per option (baseline)':<42}{drawn:>12.0f}{1.0:>7.2f}x")
    print(f"{'the world drawn once, copied per option':<42}{copied:>12.0f}{copied / drawn:>7.2f}x")
    print(f"a copy is the world it copies: {'yes' if copies_same else 'NO'}")


if __name__ == "__main__":
    main()
