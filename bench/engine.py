"""Engine speed: random legal games in one process, against RLCard's raw UnoGame in the same run.

    python bench/engine.py [--seconds 5]

Both engines play the same kind of random game, RLCard's: a uniformly random card play when there is
one, a draw only when there is none, a playable drawn card played at once (RLCard plays it itself).
Our engine still offers every decision point (UNO declaration, play-or-keep, challenge, catch...); the
policy (arena.engine.policies.rlcard_like_policy) answers them. A second line plays uniformly random legal
actions over our full action set (voluntary draws included), which makes far longer games.
Also printed: memory per live game state (tracemalloc, mid-game).
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import os
import subprocess

import arena
from arena.engine.game import Game
from arena.engine.policies import random_policy, rlcard_like_policy
from arena.engine.rules import preset


def run_ours(players: int, seconds: float, policy=rlcard_like_policy) -> tuple[float, float, float]:
    """Games/s, decisions/s and decisions per game for our engine, classic rules, one hand per game."""
    rules = preset("classic-single")
    rng = random.Random(1)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(rules, players, seed=games)
        while not game.is_over:
            seat = game.current_player
            game.apply(policy(game, seat, game.legal_actions(seat), rng), seat)
        decisions += len(game.history)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed, decisions / games


def run_rlcard(players: int, seconds: float) -> tuple[float, float, float] | None:
    """The same figures for RLCard's raw ``rlcard.games.uno.game.UnoGame`` with random legal actions."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    rng = random.Random(1)
    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(0)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game.init_game()
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed, decisions / games


def memory_per_game(players: int, count: int = 200) -> float:
    """Bytes allocated per live game state, measured with tracemalloc after 20 decisions each."""
    rules = preset("classic")
    rng = random.Random(2)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    games = []
    for i in range(count):
        game = Game(rules, players, seed=i)
        for _ in range(20):
            if game.is_over:
                break
            seat = game.current_player
            game.apply(rlcard_like_policy(game, seat, game.legal_actions(seat), rng), seat)
        games.append(game)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / count


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--ours-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.ours_only:
        for players in (2, 4):
            ours = run_ours(players, args.seconds)
            print(
                f"{'uno-arena pure Python (rlcard-like)':<34}{players:>8}{ours[0]:>11.0f}{ours[1]:>14.0f}{ours[2]:>10.1f}"
            )
        return
    build = "mypyc-compiled (scripts/build-engine)" if arena.COMPILED else "pure Python (no compiled build)"
    print(f"engine build: {build}")
    print(f"{'engine':<34}{'players':>8}{'games/s':>11}{'decisions/s':>14}{'dec/game':>10}{'ratio':>8}")
    for players in (2, 4):
        ours = run_ours(players, args.seconds)
        theirs = run_rlcard(players, args.seconds)
        ratio = f"{ours[0] / theirs[0]:.2f}x" if theirs else "-"
        print(
            f"{'uno-arena (rlcard-like random)':<34}{players:>8}{ours[0]:>11.0f}{ours[1]:>14.0f}{ours[2]:>10.1f}{ratio:>8}"
        )
        if theirs:
            print(
                f"{'rlcard UnoGame (random legal)':<34}{players:>8}{theirs[0]:>11.0f}{theirs[1]:>14.0f}{theirs[2]:>10.1f}"
            )
        else:
            print("rlcard is not installed: pip install -r requirements-dev.txt")
        uniform = run_ours(players, args.seconds, random_policy)
        print(
            f"{'uno-arena (uniform random legal)':<34}{players:>8}{uniform[0]:>11.0f}{uniform[1]:>14.0f}{uniform[2]:>10.1f}"
        )
    if arena.COMPILED:
        env = {**os.environ, "UNO_ARENA_PURE": "1"}
        pure = subprocess.run(
            [sys.executable, __file__, "--ours-only", "--seconds", str(args.seconds)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        print(pure.stdout, end="")
    for players in (2, 4, 10):
        print(
            f"memory per live game state, classic, {players} players: {memory_per_game(players) / 1024:.1f} KiB"
        )


if __name__ == "__main__":
    main()
