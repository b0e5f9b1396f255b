"""``python -m arena match BOT BOT ...`` (``uno-arena match``): play games between bot programs through a
sandbox runner.

    uno-arena match mybot.py random greedy --rules classic --games 100 --replays out/

Each BOT is a program file (``.py`` runs with ``python3``, ``.js`` with ``node``) started in its own
folder, or the short name of an example bot (``random``, ``greedy``, ``strategist``, ``template``:
:mod:`arena.play.examples`). Game ``g`` (from 0) uses seed ``--seed + g`` and rotates the seats by ``g``
(bot ``k`` sits at seat ``(k - g) mod n``), so no bot keeps a seat. The games are one series
(``run_series``): a bot that plays series (the helper's ``run(MyBot)``) is started once for all of them.
``--duplicate`` makes each game a duplicate match (every bot plays the deal from every seat), the bots
seated in the order given; the matches are played rotation-major (``run_duplicate_series``: one set of
sandboxes plays the first rotation of every deal, a fresh set the next, so no sandbox sees a deal twice). Prints the runner, the standings by the bots' ``ready`` names (win rate with a 95%
Wilson interval, mean place, faults), every fault, and where the replays went (one JSON file per game,
readable with ``python -m arena replay FILE``).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.engine.rules import parse_rules
from arena.play import bot_text
from arena.play.bundle import runnable
from arena.play.examples import EXAMPLES_DIR, resolve_bot
from arena.play.progress import progress_bar
from arena.play.referee import (
    BotEntry,
    Fault,
    MatchResult,
    MatchSettings,
    SeriesGame,
    run_duplicate_series,
    run_series,
)
from arena.ratings.stats import wilson_interval

LANGUAGES = {".py": ("python", "python3"), ".js": ("node", "node")}


@dataclass
class Standing:
    """One bot's results over the games: ``name`` is its file (``random_bot``, ``random_bot#2``),
    ``ready_name`` the name it gave in ``ready``."""

    name: str
    games: int = 0
    wins: float = 0.0
    place_sum: float = 0.0
    faults: list[tuple[int, Fault]] = field(default_factory=list)
    ready_name: str | None = None

    @property
    def label(self) -> str:
        """How the bot is shown: its ``ready`` name, with its file when that differs."""
        if not self.ready_name or self.ready_name == self.name:
            return self.name
        return f"{self.ready_name} ({self.name})"

    def row(self, width: int = 24) -> str:
        """A line of the standings table."""
        low, high = wilson_interval(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0
        mean = self.place_sum / self.games if self.games else 0.0
        return (
            f"{self.label:<{width}} {self.games:>6} {100 * rate:>6.1f}%  [{100 * low:5.1f}%, {100 * high:5.1f}%]"
            f"  {mean:>10.2f} {len(self.faults):>7}"
        )


def bot_entries(paths: list[str], runner: Any, limits: Any = None) -> list[BotEntry]:
    """A referee entry per bot file (or example name), started by ``runner`` with its folder as working
    directory."""
    from sandbox import BotSpec, Limits

    entries = []
    seen: dict[str, int] = {}
    for raw in paths:
        try:
            path = resolve_bot(raw)
        except ValueError as exc:
            raise SystemExit(f"error: {exc}") from None
        if path.suffix not in LANGUAGES:
            raise SystemExit(f"error: {raw}: unknown language (use {', '.join(LANGUAGES)} files)")
        language, interpreter = LANGUAGES[path.suffix]
        if path.parent == EXAMPLES_DIR and path.suffix == ".py":
            path = runnable(path)  # the search bots: their folder with the engine packed in
        spec = BotSpec(path.parent, (interpreter, path.name), language)
        seen[path.stem] = seen.get(path.stem, 0) + 1
        name = path.stem if seen[path.stem] == 1 else f"{path.stem}#{seen[path.stem]}"

        def connect(spec: Any = spec) -> Any:
            return runner.start(spec, limits or Limits())

        entries.append(BotEntry(name, connect))
    return entries


def record(standings: list[Standing], result: MatchResult, order: list[int], game: int) -> None:
    """Add one game's result; ``order[s]`` is the bot at seat ``s``."""
    place = 1
    for group in result.places:
        for seat in group:
            standing = standings[order[seat]]
            standing.games += 1
            standing.place_sum += place + (len(group) - 1) / 2
            if place == 1:
                standing.wins += 1 / len(group)
        place += len(group)
    for seat, fault in enumerate(result.faults):
        if fault is not None:
            standings[order[seat]].faults.append((game, fault))
    for seat, name in enumerate(result.names):
        if name:
            standings[order[seat]].ready_name = bot_text.clean(name, one_line=True)


#: Said whenever the process runner plays: it is for trying your own bot on your machine.
PROCESS_WARNING = (
    "note: the process runner is not a sandbox: the bots run as you, with your files and network; "
    "play only bots you trust (the site runs every bot in a sandbox)"
)


def _run(args: argparse.Namespace) -> int:
    from sandbox import SandboxError, get_runner

    rules = parse_rules(args.rules)
    if len(args.bots) < 2:
        print("error: a match needs at least two bots", file=sys.stderr)
        return 2
    try:
        runner = get_runner(None if args.runner == "auto" else args.runner)
    except SandboxError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    args.runner_used = runner.name
    if not args.quiet:
        print(f"runner: {runner_label(args)}", file=sys.stderr)
    if runner.name == "process":
        print(PROCESS_WARNING, file=sys.stderr)
    settings = MatchSettings(
        decision_timeout=args.decision_timeout, time_bank=args.time_bank, game_time=args.game_time
    )
    entries = bot_entries(args.bots, runner)
    standings = [Standing(e.name) for e in entries]
    out = Path(args.replays) if args.replays else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    n = len(entries)
    # Duplicate matches rotate the seats within each match: every match seats the bots in order.
    orders = [[(s + (0 if args.duplicate else g)) % n for s in range(n)] for g in range(args.games)]
    totals = {"decisions": 0, "seconds": 0.0}
    with progress_bar(args.games, "game", args.quiet) as bar:

        def done(g: int, result: MatchResult) -> None:
            record(standings, result, orders[g], g)
            totals["decisions"] += result.decisions
            totals["seconds"] += result.seconds
            if out:
                (out / f"game-{g + 1:05d}.json").write_text(json.dumps(result.replay, separators=(",", ":")))
            bar.update(1)

        if args.duplicate:  # rotation-major: the rotations of a deal never share a sandbox
            seeds = [args.seed + g for g in range(args.games)]
            run_duplicate_series(rules, entries, seeds, settings, on_match=done)
        else:  # independent deals: one series, bots that play series are started once
            games = [SeriesGame(args.seed + g, tuple(order)) for g, order in enumerate(orders)]
            run_series(rules, entries, games, settings, on_game=done)
    print(report(standings, rules.name, args, int(totals["decisions"]), totals["seconds"], out))
    return 0


def runner_label(args: argparse.Namespace) -> str:
    """The runner that played, and how it was chosen."""
    from sandbox import RUNNER_NAMES

    used = getattr(args, "runner_used", args.runner)
    if args.runner == "auto":
        return f"the {used} runner (--runner auto: the strongest available of {', '.join(RUNNER_NAMES)})"
    return f"the {used} runner"


def report(
    standings: list[Standing],
    rules: str,
    args: argparse.Namespace,
    decisions: int,
    seconds: float,
    out: Path | None,
) -> str:
    """The standings, faults and replay folder as text."""
    kind = "duplicate matches" if args.duplicate else "games"
    width = max(24, *(len(s.label) for s in standings))
    lines = [
        f"{args.games} {kind} of {rules} with {runner_label(args)}: {decisions} decisions in"
        f" {seconds:.1f} s (seeds {args.seed} to {args.seed + args.games - 1}; seats rotate each game)",
        "",
        f"{'bot':<{width}} {'games':>6} {'wins':>7}  {'95% interval':<17}  {'mean place':>10} {'faults':>7}",
    ]
    ranked = sorted(standings, key=lambda s: (-s.wins / max(1, s.games), s.place_sum / max(1, s.games)))
    lines += [s.row(width) for s in ranked]
    faults = [(g, s.label, f) for s in standings for g, f in s.faults]
    if faults:
        lines += ["", "Faults:"]
        for g, name, f in sorted(faults, key=lambda x: x[0]):
            lines.append(f"  game {g + 1}: {name}: {f.kind} at decision {f.decision}: {f.message}")
            lines += _stderr_lines(name, f.stderr_tail)
    if out:
        lines += [
            "",
            f"Replays: {out}/game-*.json (read one with: python -m arena replay {out}/game-00001.json)",
        ]
    return "\n".join(lines)


def _stderr_lines(name: str, stderr: str, count: int = 3, width: int = 200) -> list[str]:
    """The last ``count`` lines of a faulted bot's stderr, indented behind a ``|`` so that none can pass
    for a line of the report (the text is already clean: :mod:`arena.play.bot_text`)."""
    tail = bot_text.clean(stderr).strip().splitlines()[-count:]
    if not tail:
        return []
    return [f"      {name} stderr, last {len(tail)} line(s):"] + [f"      | {t[:width]}" for t in tail]


def add_parser(subparsers: Any) -> None:
    """Register the ``match`` subcommand."""
    from sandbox import RUNNER_NAMES

    parser = subparsers.add_parser("match", help="play games between bot programs in the sandbox")
    parser.add_argument(
        "bots",
        nargs="+",
        help="bot program files (.py, .js) or example names (random, greedy, strategist, template); the"
        " first game seats them in this order, and the seats rotate by one each game (game g: seat s is"
        " bot s+g mod the number of bots)",
    )
    parser.add_argument("--rules", default="classic", help="preset[,option=value...] (see 'rules')")
    parser.add_argument(
        "--runner",
        default="auto",
        choices=["auto", *RUNNER_NAMES],
        help="the sandbox (auto: the strongest available, gvisor, docker, bwrap, then process; the report"
        " says which one played)",
    )
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the first game; game g uses SEED+g (the seed fixes the deal, every shuffle and each"
        " seat's seed in hello: the same command plays the same games again)",
    )
    parser.add_argument(
        "--duplicate", action="store_true", help="each game is a duplicate match (every seat)"
    )
    parser.add_argument("--replays", help="folder for one replay file per game")
    parser.add_argument("--decision-timeout", type=float, default=MatchSettings.decision_timeout)
    parser.add_argument("--time-bank", type=float, default=MatchSettings.time_bank)
    parser.add_argument(
        "--game-time",
        type=float,
        default=MatchSettings.game_time,
        help="each bot's thinking time for a whole game, in seconds (0: none; the platform gives "
        "(its match time limit - 60 s) / players)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=_run)
