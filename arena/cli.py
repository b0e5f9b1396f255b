"""The ``python -m arena`` command line: ``simulate``, ``rules``, and the commands other modules register."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from arena.engine.rules import OPTIONS, PRESETS, parse_rules
from arena.errors import ArenaError

# Modules that add their own subcommands with ``add_parser(subparsers)``; optional until they exist.
_PLUGINS = ("arena.play.match_cli", "arena.play.ask_cli", "arena.engine.replay_log")


def _simulate(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from arena.play.simulate import format_report, simulate

    rules = parse_rules(args.rules)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    with tqdm(total=args.games, unit="game", disable=args.quiet, file=sys.stderr) as bar:
        report = simulate(rules, args.players, args.games, bots, seed=args.seed, progress=bar.update)
    print(format_report(report))
    return 0


def _rules(args: argparse.Namespace) -> int:
    if args.name:
        rules = parse_rules(args.name)
        print(f"{rules.name}: {rules.description} [sources: {rules.source}]")
        for key, value in rules.options().items():
            print(f"  {key:<15} {value!r:<16} {OPTIONS[key].doc}")
        return 0
    print("Presets:")
    for name, rules in PRESETS.items():
        print(f"  {name:<15} {rules.description} [sources: {rules.source}]")
    print("\nOptions (combine with 'preset,option=value,...'):")
    for option in OPTIONS.values():
        allowed = " | ".join(repr(c) for c in option.choices) if option.choices else f"{option.bounds}"
        print(f"  {option.name:<15} default {option.default!r:<14} {allowed}\n  {'':<15} {option.doc}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="python -m arena", description="UNO Arena engine tools.")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play games between built-in policies and print win rates")
    sim.add_argument("--rules", default="classic", help="preset[,option=value...] (see 'rules')")
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument(
        "--bots", default="random,greedy", help="comma-separated built-in policies, given to seats in turn"
    )
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=_simulate)
    rules = sub.add_parser("rules", help="list presets and options, or show one rule set")
    rules.add_argument("name", nargs="?", help="preset[,option=value...]")
    rules.set_defaults(func=_rules)
    for module_name in _PLUGINS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; errors in the input print one clear line and exit with status 2."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except ArenaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
