"""The search bot's strength: win rates against the house bots and RLCard's rule agent, and the levels' Elo.

    python bench/strength.py [--games 2000] [--presets "classic;stacking;seven-o"] [--players 2,4]
                             [--opponents strategist,rlcard,greedy,random] [--budget 100] [--jobs 2]
                             [--hero search] [--first-deal 0] [--elo-games 200] [--elo-budgets 10,30,100]

**Win rates.** Each cell (rule set, players, opponent) plays the search bot (``--budget`` playouts per
decision: deterministic and machine-independent) against copies of one opponent, on *duplicate deals*:
every deal (seed ``d``) is played once with the search bot in each seat, so every seat sees the same cards
and the luck of the deal cancels. ``--games`` is per cell (rounded up to whole deals), on the deals from
seed ``--first-deal`` (0) on: a run with ``--first-deal 500`` measures the deals after those of a run of
1,000 heads-up games, so that the two pool into one measurement of 2,000. A win is first place;
a shared first place counts as a fraction. Intervals are 95% Wilson intervals. All cells print in one
Markdown table. ``hello`` announces the ladder's limits (:func:`ladder_limits`), so ``--hero search-1s``
(a level by time) budgets its time as in a ladder game. ``--hero strategist`` (or any name of
``bench/lineup.py``, such as ``search:30,confidence=2``, a variant of the search bot) measures another
bot the same way; ``--hero oracle:30`` measures the search bot given the true hands
(``bench/bots/oracle_search.py``: the ceiling of better inference, not a bot of the platform).

**Elo.** ``--elo-games`` > 0 also plays a heads-up round robin on ``--elo-rules`` among the search bot at
``--elo-budgets`` playouts per decision (or the levels by time, named: ``search-10ms,search-100ms,search-1s``;
``hello`` announces the platform's limits, ``--elo-game-time`` 270 s a game as at two players, so each
level budgets its time as on the ladder), the strategist, greedy and random (every pair on the same
duplicate deals), fits Elo ratings with :func:`arena.ratings.fit.fit_ratings` and prints them with their
95% intervals, and each search level's average time per searched decision (to compare with the time
levels ``search-10ms``... of ``bots_examples/``).

Everything runs in-process (:func:`arena.play.inprocess.play_local`: the referee's messages as dicts,
forced moves played without asking), the bots being the real files (``bench/lineup.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from functools import partial
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.rules import parse_rules
from arena.play.inprocess import play_local
from arena.play.referee import MatchSettings
from arena.ratings.fit import fit_ratings
from arena.ratings.stats import paired_difference, wilson_interval
from bench.lineup import ORACLES, make, watch_all


def first_share(places: tuple[tuple[int, ...], ...], seat: int) -> float:
    """1 for a sole win, 1/k for a first place shared by k seats, else 0."""
    top = places[0]
    return 1.0 / len(top) if seat in top else 0.0


MATCH_THINKING = 540.0
"""Seconds of bots' thinking in one ladder match (the platform's 600 s match limit less its 60 s
overhead, ``platform/matches/play.game_time``), shared equally between the seats."""


def ladder_limits(players: int) -> dict[str, Any]:
    """What ``hello`` announces in a ladder game of ``players`` (the default ``decision_timeout`` and time
    bank, and each bot's share of the match's thinking time): the levels by time budget by it."""
    return MatchSettings(game_time=MATCH_THINKING / players).limits()


def cell_shares(spec: str, players: int, hero: str, opponent: str, deals: range) -> list[float]:
    """The hero's wins on each of ``deals`` (:func:`duplicate_shares`), with the ladder's limits announced
    (:func:`ladder_limits`)."""
    return duplicate_shares(spec, players, partial(make, hero), opponent, deals, ladder_limits(players))


def cell_chunk(spec: str, players: int, hero: str, opponent: str, deals: range) -> tuple[float, int]:
    """The hero's wins and games over ``deals`` (:func:`cell_shares`); ``bench/search_decisions.py`` calls
    it in older checkouts too, which have no :func:`cell_shares`."""
    shares = cell_shares(spec, players, hero, opponent, deals)
    return sum(shares), len(shares) * players


def duplicate_shares(
    spec: str,
    players: int,
    hero: Callable[[], Any],
    opponent: str,
    deals: range,
    limits: dict[str, Any] | None = None,
) -> list[float]:
    """Per deal, the wins of the bots ``hero()`` makes (0 to ``players``), the deal played once with one in
    every seat against copies of ``opponent``, with ``limits`` announced in ``hello``."""
    rules = parse_rules(spec)
    shares = []
    for deal in deals:
        wins = 0.0
        for seat in range(players):
            bots = [make(opponent, deal * 10 + s) for s in range(players)]
            bots[seat] = hero()
            game = play_local(rules, bots, seed=deal, limits=limits, on_deal=watch_all(bots))
            assert game.outcome is not None
            wins += first_share(game.outcome.places, seat)
        shares.append(wins)
    return shares


class Timed:
    """Wraps a bot to time its decisions."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.decisions = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.bot, name)

    def decide(self, request: dict[str, object]) -> str:
        """The bot's decision, timed."""
        start = time.perf_counter()
        action: str = self.bot.decide(request)  # type: ignore[attr-defined]
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def pair_chunk(
    spec: str, a: str, b: str, deals: range, limits: dict[str, Any] | None = None
) -> tuple[list[tuple[int, int]], dict[str, list[float]]]:
    """Heads-up games of ``a`` and ``b`` on ``deals`` (both seatings), with ``limits`` announced in
    ``hello``: each game's places as (0 for a / 1 for b, place), and per bot [seconds deciding,
    decisions]."""
    rules = parse_rules(spec)
    results: list[tuple[int, int]] = []
    clock = {a: [0.0, 0.0], b: [0.0, 0.0]}
    for deal in deals:
        for a_seat in (0, 1):
            bots = [Timed(make(a, deal * 10)), Timed(make(b, deal * 10 + 1))]
            if a_seat:
                bots.reverse()
            game = play_local(rules, bots, seed=deal, limits=limits)  # type: ignore[arg-type]
            assert game.outcome is not None
            a_place = game.outcome.place_of(a_seat)
            b_place = game.outcome.place_of(1 - a_seat)
            results += [(0, a_place), (1, b_place)]
            for name, bot in ((a, bots[a_seat]), (b, bots[1 - a_seat])):
                clock[name][0] += bot.seconds
                clock[name][1] += bot.decisions
    return results, clock


def chunks(total: int, jobs: int, first: int = 0) -> list[range]:
    """``range(first, first + total)`` in pieces for ``jobs`` workers."""
    size = max(1, total // (jobs * 4))
    end = first + total
    return [range(s, min(end, s + size)) for s in range(first, end, size)]


def win_rates(args: argparse.Namespace, pool: ProcessPoolExecutor) -> None:
    """The win-rate table (with ``--baseline``, the baseline's wins on the same deals beside the hero's
    and the paired difference)."""
    hero = f"search:{args.budget}" if args.hero == "search" else args.hero
    about = f"the search bot at {args.budget} playouts per decision" if args.hero == "search" else args.hero
    oracle = ORACLES.get(args.hero.partition(":")[0])
    if oracle:
        about += f" ({oracle}: a diagnostic, not a bot)"
    print(f"{about}, duplicate deals (its seat rotates over each deal)\n")
    header = (
        f"| rules | players | opponents | games | {args.hero} wins | 95% interval | fair share | seconds |"
    )
    if args.baseline:
        header += f" {args.baseline} | difference | 95% interval (paired by deal) |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for spec in args.presets.split(";"):
        for players in (int(p) for p in args.players.split(",")):
            for opponent in args.opponents.split(","):
                started = time.perf_counter()
                deals = -(-args.games // players)
                parts = chunks(deals, args.jobs, args.first_deal)
                futures = [pool.submit(cell_shares, spec, players, hero, opponent, part) for part in parts]
                if args.baseline:
                    against = [
                        pool.submit(cell_shares, spec, players, args.baseline, opponent, part)
                        for part in parts
                    ]
                shares = [x for f in futures for x in f.result()]
                seconds = time.perf_counter() - started
                wins, games = sum(shares), len(shares) * players
                low, high = wilson_interval(wins, games)
                shown = opponent if players == 2 else f"{opponent} (×{players - 1})"
                row = (
                    f"| {spec} | {players} | {shown} | {games} | {100 * wins / games:.1f}% "
                    f"| {100 * low:.1f}–{100 * high:.1f}% | {100 / players:.0f}% | {seconds:.0f} |"
                )
                if args.baseline:
                    base = [x for f in against for x in f.result()]
                    mean, low, high = (100 * x / players for x in paired_difference(shares, base))
                    row += f" {100 * sum(base) / games:.1f}% | {mean:+.1f} | {low:+.1f} to {high:+.1f} |"
                print(row, flush=True)


def elo(args: argparse.Namespace, pool: ProcessPoolExecutor) -> None:
    """The round robin and its fitted ratings."""
    names = [f"search:{b}" if b.isdigit() else b for b in args.elo_budgets.split(",")]
    names += ["strategist", "greedy", "random"]
    # The platform's limits for a heads-up game (its default decision_timeout and time bank, and the game
    # time of matches.play.game_time at the default 600 s match limit), which the levels by time read.
    limits = MatchSettings(game_time=args.elo_game_time).limits()
    deals = -(-args.elo_games // 2)
    matches: list[list[tuple[int, int]]] = []
    clock = {name: [0.0, 0.0] for name in names}
    pending: list[tuple[int, int, Future[tuple[list[tuple[int, int]], dict[str, list[float]]]]]] = []
    for i, j in combinations(range(len(names)), 2):
        for part in chunks(deals, args.jobs):
            pending.append((i, j, pool.submit(pair_chunk, args.elo_rules, names[i], names[j], part, limits)))
    for i, j, future in pending:
        results, spent = future.result()
        ids = (i, j)
        for k in range(0, len(results), 2):
            matches.append([(ids[results[k][0]], results[k][1]), (ids[results[k + 1][0]], results[k + 1][1])])
        for name, (seconds, decisions) in spent.items():
            clock[name][0] += seconds
            clock[name][1] += decisions
    fit = fit_ratings(matches)
    print(f"\nElo on {args.elo_rules}, heads-up round robin, {2 * deals} games per pair (duplicate deals)\n")
    print("| bot | Elo | 95% interval | games | ms per decision |")
    print("|---|---|---|---|---|")
    order = sorted(range(len(fit.ids)), key=lambda k: -fit.ratings[k])
    for k in order:
        name = names[fit.ids[k]]
        seconds, decisions = clock[name]
        per = f"{1000 * seconds / decisions:.1f}" if decisions else "-"
        print(
            f"| {name} | {fit.ratings[k]:.0f} | {fit.low[k]:.0f}–{fit.high[k]:.0f} | {fit.games[k]} | {per} |"
        )


def main() -> None:
    """Parse the flags, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per cell (0: no win-rate table)")
    parser.add_argument("--presets", default="classic;stacking;seven-o", help="rule sets, separated by ;")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--opponents", default="strategist,rlcard,greedy,random")
    parser.add_argument("--budget", type=int, default=100, help="the search bot's playouts per decision")
    parser.add_argument("--hero", default="search", help="the bot measured (search, or a lineup name)")
    parser.add_argument(
        "--baseline", default="", help="a lineup name played on the same deals, for a paired difference"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--first-deal",
        type=int,
        default=0,
        help="the seed of the first deal (so that a later run measures the deals after an earlier one's)",
    )
    parser.add_argument("--elo-games", type=int, default=0, help="games per pair of the round robin")
    parser.add_argument("--elo-rules", default="classic")
    parser.add_argument(
        "--elo-budgets", default="10,30,100", help="playouts per decision, or levels by name (search-10ms...)"
    )
    parser.add_argument(
        "--elo-game-time",
        type=float,
        default=MATCH_THINKING / 2,
        help="each bot's game time announced in hello (s)",
    )
    args = parser.parse_args()
    with ProcessPoolExecutor(args.jobs) as pool:
        if args.games:
            win_rates(args, pool)
        if args.elo_games:
            elo(args, pool)


if __name__ == "__main__":
    main()
