"""Strategist's strength: its win rate against random and greedy bots, in-process.

    python bench/winrates.py [--games 10000] [--rules classic-single] [--jobs 2]

Each cell plays ``--games`` games of strategist against copies of one opponent (2 or 4 players);
strategist's seat rotates with the game number and the seed is the game number, so every cell sees the
same deals. The bots are the real files of ``bots_examples/``, driven through
:func:`arena.play.inprocess.play_local` (the referee's messages as dicts, no processes). A win is first place;
a shared first place counts as a fraction. Intervals are 95% Wilson intervals. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.rules import parse_rules
from arena.play.inprocess import play_local
from arena.ratings.stats import wilson_interval
from bench.lineup import EXAMPLES, make

OPPONENTS = {"random": "random_bot.py", "greedy": "greedy_bot.py"}


def chunk(rules_spec: str, players: int, opponent: str, first: int, count: int) -> float:
    """Strategist's wins over games ``first .. first+count-1``."""
    rules = parse_rules(rules_spec)
    wins = 0.0
    for g in range(first, first + count):
        seat = g % players
        bots = [make(opponent, g * 10 + s) for s in range(players)]
        bots[seat] = make("strategist")
        game = play_local(rules, bots, seed=g)
        assert game.outcome is not None
        top = game.outcome.places[0]
        if seat in top:
            wins += 1.0 / len(top)
    return wins


def referee_sample(rules_spec: str, players: int, opponent: str, games: int) -> tuple[float, int]:
    """Strategist's wins over the first ``games`` games played through the real referee and the process
    runner, and how many of them made exactly the decisions the in-process game made."""
    from arena.play.referee import BotEntry, run_match
    from sandbox import BotSpec, Limits
    from sandbox.process import ProcessRunner

    runner = ProcessRunner(production=False)
    rules = parse_rules(rules_spec)
    path = OPPONENTS[opponent]

    def entry(file: str) -> BotEntry:
        spec = BotSpec(EXAMPLES, ("python3", file))
        return BotEntry(file, lambda: runner.start(spec, Limits()))

    wins = 0.0
    same = 0
    for g in range(games):
        seat = g % players
        files = [path] * players
        files[seat] = "strategist.py"
        result = run_match(rules, [entry(f) for f in files], g)
        if seat in result.places[0]:
            wins += 1.0 / len(result.places[0])
        if opponent != "random":  # random bots draw their own random numbers
            bots = [make(opponent) for _ in range(players)]
            bots[seat] = make("strategist")
            local = play_local(rules, bots, g)
            same += [d[1] for d in result.replay["decisions"]] == [a for _, a in local.history]
    return wins, same


def main() -> None:
    """Measure every cell and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rules", default="classic-single")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--players", default="2,4")
    parser.add_argument(
        "--referee-sample",
        type=int,
        default=0,
        help="also play this many games per cell through the real referee and process runner",
    )
    args = parser.parse_args()
    cells = [(p, o) for p in (int(x) for x in args.players.split(",")) for o in OPPONENTS]
    size = max(1, args.games // (args.jobs * 8))
    print(f"rules {args.rules}, {args.games} games per cell, strategist's seat rotating\n")
    print("| players | opponents | games | strategist wins | 95% interval | fair share | seconds |")
    print("|---|---|---|---|---|---|---|")
    with ProcessPoolExecutor(args.jobs) as pool:
        for players, opponent in cells:
            started = time.perf_counter()
            starts = range(0, args.games, size)
            futures = [
                pool.submit(chunk, args.rules, players, opponent, s, min(size, args.games - s))
                for s in starts
            ]
            wins = sum(f.result() for f in futures)
            low, high = wilson_interval(wins, args.games)
            print(
                f"| {players} | {opponent} | {args.games} | {100 * wins / args.games:.1f}% "
                f"| {100 * low:.1f}–{100 * high:.1f}% | {100 / players:.0f}% "
                f"| {time.perf_counter() - started:.0f} |",
                flush=True,
            )
    if args.referee_sample:
        print(f"\nThrough the referee and the process runner ({args.referee_sample} games per cell):\n")
        print(
            "| players | opponents | games | strategist wins | 95% interval | same decisions as in-process |"
        )
        print("|---|---|---|---|---|---|")
        for players, opponent in cells:
            wins, same = referee_sample(args.rules, players, opponent, args.referee_sample)
            low, high = wilson_interval(wins, args.referee_sample)
            identical = "n/a (random)" if opponent == "random" else f"{same}/{args.referee_sample}"
            print(
                f"| {players} | {opponent} | {args.referee_sample} | {100 * wins / args.referee_sample:.1f}% "
                f"| {100 * low:.1f}–{100 * high:.1f}% | {identical} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
