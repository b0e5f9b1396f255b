"""Tune the strategist's weights (``bots_examples/strategist.WEIGHTS``) by coordinate search on duplicate deals.

    python bench/tune_policy.py [--deals 3000] [--rounds 2] [--jobs 2] [--presets classic-single]
                                [--opponents strategist,rlcard] [--start search] [--check 4000]
                                [--keys swap,swap_keep]

A candidate is the strategist with some weights changed. It plays every deal once in every seat against
copies of each opponent, heads-up and at four players. Its score is the mean, over those cells, of its win
share divided by the fair share (1.0 is level). Every candidate plays the same deals, so two candidates
differ only where their choices do (common random numbers). The search tries each weight one step up and
one step down, keeps a change that raises the score, and halves a weight's step when neither helps.

A search on fixed deals overfits them. ``--check`` games per cell on *other* deals (seeds from 1,000,000)
then compare the result with the weights it started from and with the strategist, cell by cell with
95% intervals: only that comparison measures anything. ``--start search`` starts from the search bot's
weights for the first ``--players`` (``search_bot.policy_for``: ``POLICY`` heads-up, ``POLICY_TABLE`` at
three seats or more).
``--keys`` searches only the weights named. The weights found print as a dict, to be pasted where
they are used.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.play.inprocess import load_bot_module
from arena.ratings.stats import wilson_interval
from bench.lineup import EXAMPLES, strategist_with
from bench.strength import chunks, duplicate_shares

STEPS = {
    "points": 0.05,
    "colour": 1.0,
    "wild": 4.0,
    "wild_colour": 3.0,
    "wild_hit": 8.0,
    "hit": 6.0,
    "again": 3.0,
    "again_draw": 3.0,
    "again_follow": 3.0,
    "lacks": 3.0,
    "lacks_calm": 2.0,
    "named": 3.0,
    "hands_on": 6.0,
    "name_lacks": 2.0,
    "name_named": 2.0,
    "name_calm": 1,
    "threat": 1,
    "keep_wild": 2,
    "drawn_wild": 2,
    "challenge": 0.15,
    "stack_keep": 4.0,
    "swap": 2.0,
    "swap_keep": 1,
    "scarce": 3.0,
    "scarce_threat": 3.0,
    "name_scarce": 2.0,
}
"""The first step of each weight (integer weights move by whole numbers)."""
LOWEST = {
    "name_calm": 0,
    "threat": 1,
    "keep_wild": 1,
    "drawn_wild": 0,
    "challenge": 0.0,
    "swap": 0.0,
    "swap_keep": 0,
}
HIGHEST = {"name_calm": 1, "threat": 4, "challenge": 1.0}


Cell = tuple[str, int, str]
"""(rule set, players, opponent)."""


def play_cells(
    pool: ProcessPoolExecutor, weights: dict[str, Any], cells: list[Cell], games: int, first: int, jobs: int
) -> dict[Cell, tuple[float, int]]:
    """Each cell's (wins, games) for ``weights`` on about ``games`` games from deal ``first`` on."""
    futures = {}
    for cell in cells:
        spec, players, opponent = cell
        deals = -(-games // players)
        futures[cell] = [
            pool.submit(
                duplicate_shares,
                spec,
                players,
                partial(strategist_with, weights),
                opponent,
                range(first + part.start, first + part.stop),
            )
            for part in chunks(deals, jobs)
        ]
    out = {}
    for cell, parts in futures.items():
        shares = [share for f in parts for share in f.result()]  # per deal, each played in every seat
        players = cell[1]
        out[cell] = (sum(shares), len(shares) * players)
    return out


def score(results: dict[Cell, tuple[float, int]]) -> float:
    """The mean over cells of the win share over the fair share."""
    return sum(wins / games * players for (_, players, _), (wins, games) in results.items()) / len(results)


def moved(weights: dict[str, Any], key: str, step: float) -> dict[str, Any] | None:
    """``weights`` with ``key`` moved by ``step`` (``None`` past its bounds)."""
    value = weights[key] + step
    if isinstance(weights[key], int):
        value = round(value)
    if value < LOWEST.get(key, -1e9) or value > HIGHEST.get(key, 1e9) or value == weights[key]:
        return None
    return {**weights, key: value}


def halved(step: float) -> float:
    """The next, finer step (an integer step stays a whole number, at least 1)."""
    return max(1, step // 2) if isinstance(step, int) else step / 2


def main() -> None:
    """Parse the arguments, search, check on other deals, print."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--deals", type=int, default=3000, help="games per cell while searching (whole deals)"
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--presets", default="classic-single")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--opponents", default="strategist,rlcard")
    parser.add_argument("--start", choices=("strategist", "search"), default="strategist")
    parser.add_argument("--check", type=int, default=4000, help="games per cell on other deals (0: none)")
    parser.add_argument("--keys", default="", help="the weights searched, separated by , (default: all)")
    args = parser.parse_args()
    base = dict(load_bot_module(EXAMPLES / "strategist.py").WEIGHTS)
    players = int(args.players.split(",")[0])
    search_bot = load_bot_module(EXAMPLES / "search_bot.py")
    start = base if args.start == "strategist" else dict(search_bot.policy_for(players))
    cells = [
        (spec, int(players), opponent)
        for spec in args.presets.split(";")
        for players in args.players.split(",")
        for opponent in args.opponents.split(",")
    ]
    began = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        weights = dict(start)
        best = score(play_cells(pool, weights, cells, args.deals, 0, args.jobs))
        print(f"start: {best:.4f}", flush=True)
        steps = {key: STEPS[key] for key in args.keys.split(",")} if args.keys else dict(STEPS)
        for round_ in range(args.rounds):
            for key in steps:
                tried = []
                for sign in (1, -1):
                    candidate = moved(weights, key, sign * steps[key])
                    if candidate is None:
                        continue
                    value = score(play_cells(pool, candidate, cells, args.deals, 0, args.jobs))
                    tried.append((value, candidate))
                top = max(tried, key=lambda t: t[0], default=None)
                if top is not None and top[0] > best:
                    best, weights = top
                    print(f"round {round_ + 1} {key} = {weights[key]}: {best:.4f}", flush=True)
                else:
                    steps[key] = halved(steps[key])
        print(f"searched in {time.perf_counter() - began:.0f} s; weights changed from the start:")
        print({k: v for k, v in weights.items() if v != start[k]})
        print("POLICY =", weights)
        if args.check:
            columns = [("tuned", weights), ("start", start), ("strategist", base)]
            if start == base:
                del columns[1]  # started from the strategist: one column says it
            results = [play_cells(pool, w, cells, args.check, 1_000_000, args.jobs) for _, w in columns]
            print(
                "\n| rules | players | opponents | games | "
                + " | ".join(f"{name} | 95% interval" for name, _ in columns)
                + " |"
            )
            print("|---|---|---|---|" + "---|---|" * len(columns))
            for cell in cells:
                spec, players, opponent = cell
                against = opponent + (f" (×{players - 1})" if players > 2 else "")
                row = [spec, str(players), against, str(results[0][cell][1])]
                for found in results:
                    wins, games = found[cell]
                    low, high = wilson_interval(wins, games)
                    row += [f"{wins / games:.1%}", f"{low:.1%}–{high:.1%}"]
                print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
