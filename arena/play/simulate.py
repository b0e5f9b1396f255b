"""In-process simulations with the built-in policies: win rates with confidence intervals."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from arena.engine.game import Game
from arena.engine.policies import POLICIES
from arena.engine.rules import RuleSet
from arena.errors import ArenaError
from arena.ratings.stats import wilson_interval


@dataclass
class BotTally:
    """Results of one policy over the seats it played."""

    name: str
    seats_played: int = 0
    wins: float = 0.0
    place_sum: int = 0

    @property
    def win_rate(self) -> float:
        """Share of its seat-games it won (ties for first split the win)."""
        return self.wins / self.seats_played if self.seats_played else 0.0

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.seats_played)


@dataclass
class SimulationReport:
    """What a simulation measured."""

    rules: RuleSet
    players: int
    games: int = 0
    decisions: int = 0
    seconds: float = 0.0
    tallies: dict[str, BotTally] = field(default_factory=dict)
    terminations: dict[str, int] = field(default_factory=dict)
    hand_ends: dict[str, int] = field(default_factory=dict)
    """How the hands ended: ``out`` (a winner), ``mercy``, ``turn-cap``, ``blocked``."""


def simulate(
    rules: RuleSet,
    players: int,
    games: int,
    bots: list[str],
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> SimulationReport:
    """Play ``games`` games; seats take the bots in turn and rotate every game so no bot keeps a seat."""
    unknown = [b for b in bots if b not in POLICIES]
    if unknown or not bots:
        raise ArenaError(f"unknown bot(s) {unknown or bots} (built-in: {', '.join(POLICIES)})")
    report = SimulationReport(rules, players, tallies={b: BotTally(b) for b in bots})
    rng = random.Random(seed)
    start = time.perf_counter()
    for g in range(games):
        names = [bots[(s + g) % len(bots)] for s in range(players)]
        policies = [POLICIES[name] for name in names]
        game = Game(rules, players, seed=rng.randrange(2**63))
        while not game.is_over:
            to_move = game.to_move
            seat = to_move[0] if len(to_move) == 1 else to_move[rng.randrange(len(to_move))]
            game.apply(policies[seat](game, seat, game.legal_actions(seat), rng), seat)
        report.decisions += len(game.history)
        outcome = game.outcome
        assert outcome is not None
        report.terminations[outcome.termination] = report.terminations.get(outcome.termination, 0) + 1
        for event in game.events:
            if event["type"] == "hand_end":
                report.hand_ends[event["reason"]] = report.hand_ends.get(event["reason"], 0) + 1
        for seat, name in enumerate(names):
            tally = report.tallies[name]
            tally.seats_played += 1
            tally.place_sum += outcome.place_of(seat)
        first = outcome.places[0]
        for seat in first:
            report.tallies[names[seat]].wins += 1 / len(first)
        report.games += 1
        if progress:
            progress(1)
    report.seconds = time.perf_counter() - start
    return report


def format_report(report: SimulationReport) -> str:
    """A readable table of a simulation's results."""
    lines = [
        f"{report.games} games of {report.rules.name} with {report.players} players in {report.seconds:.1f} s "
        f"({report.games / max(report.seconds, 1e-9):.0f} games/s); "
        f"{report.decisions / max(report.games, 1):.1f} decisions per game",
        f"{'bot':<14}{'seat-games':>11}{'win rate':>10}{'95% interval':>18}{'mean place':>12}",
    ]
    for tally in report.tallies.values():
        low, high = tally.interval()
        mean_place = tally.place_sum / max(tally.seats_played, 1)
        lines.append(
            f"{tally.name:<14}{tally.seats_played:>11}{tally.win_rate:>10.1%}"
            f"{f'{low:.1%} - {high:.1%}':>18}{mean_place:>12.2f}"
        )
    ends = ", ".join(f"{k}: {v}" for k, v in sorted(report.terminations.items()))
    lines.append(f"game ends: {ends}")
    hands = sum(report.hand_ends.values())
    ways = ", ".join(f"{k}: {v} ({v / hands:.1%})" for k, v in sorted(report.hand_ends.items()))
    lines.append(f"hand ends: {hands} hands; {ways}")
    return "\n".join(lines)
