"""The ``python -m arena`` command line: ``simulate``, ``rules``, and the commands other modules register."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from arena.engine.rules import OPTIONS, PRESETS, parse_rules
from arena.errors import ArenaError
from arena.play.bot_text import clean

# Modules that add their own subcommands with ``add_parser(subparsers)``; optional until they exist.
_PLUGINS = ("arena.play.match_cli", "arena.play.ask_cli", "arena.engine.replay_log")


def _simulate(args: argparse.Namespace) -> int:
    from arena.play.progress import progress_bar
    from arena.play.simulate import format_report, simulate

    rules = parse_rules(args.rules)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    with progress_bar(args.games, "game", args.quiet) as bar:
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
    prog = "uno-arena" if sys.argv[0].endswith("uno-arena") else "python -m arena"  # the wheel's command
    parser = argparse.ArgumentParser(prog=prog, description="UNO Arena engine tools.")
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


class SafeOutput:
    """A text stream that writes everything through :func:`arena.play.bot_text.clean`: no control
    character but newline and tab ever reaches the terminal, whatever a bot or a replay file held
    (escape sequences are shown as ``\\x1b[...``); characters the terminal cannot encode are written
    as backslash escapes instead of failing."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(Exception):
                reconfigure(errors="backslashreplace")

    def write(self, text: str) -> int:
        """Write ``text`` cleaned; returns ``len(text)`` like a text stream."""
        self._stream.write(clean(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def safe_stdout() -> Iterator[None]:
    """Route ``sys.stdout`` through :class:`SafeOutput` for the duration (the progress bars on stderr
    are the command's own and stay as they are)."""
    saved = sys.stdout
    sys.stdout = SafeOutput(saved)
    try:
        yield
    finally:
        sys.stdout = saved


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; errors in the input print one clear line and exit with status 2. Nothing
    printed carries a control character (:func:`safe_stdout`)."""
    args = build_parser().parse_args(argv)
    with safe_stdout():
        try:
            return int(args.func(args))
        except ArenaError as exc:
            print(f"error: {clean(str(exc), one_line=True)}", file=sys.stderr)
            return 2
