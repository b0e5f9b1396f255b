"""``python -m arena ask BOT --position '...'``: what does this bot play here? (docs/position.md)

    python -m arena ask bots_examples/template_bot.py --position 'uno1 rules:classic hand:1 ...'

Starts the bot through the referee's link (the ``process`` runner unless ``--runner`` says otherwise),
shows it the position as the seat to move, and prints the legal actions and its answer, or its fault.
Exit status: 0 for a legal answer, 1 for an illegal answer or a fault, 2 for a bad position or seat.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from arena.play.referee import MatchSettings


def _run(args: argparse.Namespace) -> int:
    from arena.play.ask import ask
    from sandbox import SandboxError

    settings = MatchSettings(decision_timeout=args.decision_timeout, time_bank=args.time_bank)
    try:
        answer = ask(
            args.bot, args.position, seat=args.seat, runner=args.runner, seed=args.seed, settings=settings
        )
    except SandboxError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(answer.to_dict()))
        return 0 if answer.ok else 1
    who = answer.name or args.bot
    print(f"seat {answer.seat}, phase {answer.phase}; legal: {', '.join(answer.legal)}")
    if answer.ok:
        print(f"{who} plays: {answer.action}   ({answer.think_ms:.1f} ms)")
        return 0
    fault = answer.fault
    if fault is not None:
        print(f"{who}: {fault.kind}: {fault.message}")
        for line in fault.stderr_tail.strip().splitlines()[-5:]:
            print(f"    stderr: {line[:200]}")
    return 1


def add_parser(subparsers: Any) -> None:
    """Register the ``ask`` subcommand."""
    parser = subparsers.add_parser(
        "ask", help="ask a bot program what it plays at a position (docs/position.md)"
    )
    parser.add_argument("bot", help="the bot program (.py or .js), or an example's short name (template...)")
    parser.add_argument("--position", required=True, help="the position, in quotes: 'uno1 rules:... '")
    parser.add_argument("--seat", type=int, help="the seat to ask, when several are to move (slaps)")
    parser.add_argument("--runner", default="process", choices=["process", "bwrap", "docker", "auto"])
    parser.add_argument("--seed", type=int, default=0, help="fills the cards a one-seat view hides")
    parser.add_argument("--decision-timeout", type=float, default=MatchSettings.decision_timeout)
    parser.add_argument("--time-bank", type=float, default=MatchSettings.time_bank)
    parser.add_argument("--json", action="store_true", help="print the answer as one JSON object")
    parser.set_defaults(func=_run)
