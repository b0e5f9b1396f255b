"""``python -m arena replay FILE``: a replay as a readable game log.

The replay (``docs/replay-format.md``; or a duplicate match's container of replays) is re-simulated with
the engine, so the log shows every event, including every hand's cards, with each decision's seat, think
time and fault.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.engine.replay import new_game, steps, verify_replay
from arena.errors import ArenaError

DUPLICATE_FORMAT = "uno-arena-duplicate"


def load(path: str | Path) -> dict[str, Any]:
    """Read a replay file (JSON, or gzip-compressed JSON)."""
    data = Path(path).read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    replay = json.loads(data)
    if not isinstance(replay, dict):
        raise ArenaError(f"{path} does not hold a replay (a JSON object)")
    return replay


def _one_line(value: object) -> str:
    """Free text of a replay file (a name, a fault message) on one line, so that none can start a line
    of the log; ``python -m arena`` escapes control characters in whatever it prints."""
    return " ".join(str(value).splitlines())


def describe_event(event: dict[str, Any], names: list[str]) -> str:
    """One event in words."""

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    kind = event["type"]
    seat = event.get("seat", -1)
    cards = " ".join(event.get("cards", [])) or f"{event.get('count', 0)} card(s)"
    texts = {
        "hand": lambda: f"=== hand {event['hand_no']} (dealer {who(event['dealer'])}) ===",
        "deal": lambda: f"{who(seat)} is dealt {cards}",
        "return": lambda: f"{event['card']} turned first goes back into the deck",
        "flip": lambda: f"first card: {event['card']}",
        "play": lambda: (
            f"{who(seat)} plays {event['card']}"
            + (f", names {event['color']}" if "color" in event else "")
            + (" and says UNO!" if event.get("uno") else "")
        ),
        "draw": lambda: f"{who(seat)} draws {cards} ({event['reason']})",
        "skip": lambda: "everyone else is skipped" if seat < 0 else f"{who(seat)} is skipped",
        "reverse": lambda: "direction reversed",
        "pass": lambda: f"{who(seat)} passes ({event['window']})",
        "keep": lambda: f"{who(seat)} keeps the drawn card",
        "take": lambda: f"{who(seat)} takes the penalty of {event['count']}",
        "challenge": lambda: (
            f"{who(seat)} challenges {who(event['target'])}: " + ("guilty" if event["guilty"] else "innocent")
        ),
        "catch": lambda: f"{who(seat)} catches {who(event['target'])} without UNO",
        "slap": lambda: f"{who(seat)} slaps",
        "say_uno": lambda: f"{who(seat)} says UNO!",
        "mercy": lambda: f"{who(seat)} holds {cards} and is out of the hand (Mercy rule)",
        "color": lambda: f"{who(seat)} names {event['color']}",
        "swap": lambda: f"{who(seat)} swaps hands with {who(event['target'])}",
        "rotate": lambda: "every hand passes on",
        "shuffle": lambda: (
            f"{who(seat)} shuffles the hands: " + " | ".join(" ".join(h) for h in event["hands"])
        ),
        "reshuffle": lambda: f"the discard pile is reshuffled ({event['draw_pile']} cards)",
        "jump": lambda: f"{who(seat)} jumps in",
        "hand_end": lambda: (
            f"--- hand {event['hand_no']} ends: "
            + (f"{who(event['winner'])} wins" if event["winner"] >= 0 else "no winner")
            + f" ({event['reason']}); scores {event['scores']} ---"
        ),
        "eliminated": lambda: "eliminated: " + ", ".join(who(s) for s in event["seats"]),
        "game_end": lambda: (
            f"=== game over ({event['termination']}): places {event['places']}, scores {event['scores']} ==="
        ),
    }
    text = texts.get(kind)
    return text() if text else json.dumps(event)


def game_log(replay: dict[str, Any], title: str = "") -> Iterator[str]:
    """The lines of one game's log."""
    verify_replay(replay)
    names = [_one_line(n) for n in replay.get("names") or []]
    rules = replay["rules"]
    yield f"{title}{_one_line(rules.get('name', 'custom'))} rules, {replay['players']} players, seed {replay['seed']}"
    for seat, name in enumerate(names):
        yield f"  seat {seat}: {name}"
    game = new_game(replay)
    for event in game.events:
        yield "  " + describe_event(event, names)
    decisions = replay["decisions"]
    for _, index, events in steps(replay, game):
        seat, action, think_ms, fault = decisions[index]
        timing = f" [{think_ms:.1f} ms]" if think_ms is not None else ""
        note = ""
        if fault and fault.get("kind") == "default":
            note = " (stopped bot: default action)"
        elif fault:
            note = f" FAULT {_one_line(fault.get('kind'))}: {_one_line(fault.get('message'))}"
        yield f"#{index} {names[seat] if seat < len(names) else seat}: {action}{timing}{note}"
        for event in events:
            yield "  " + describe_event(event, names)
    referee = (replay.get("extra") or {}).get("referee")
    if referee:
        yield f"referee places (faulted last): {referee['places']}"
        for fault in referee["faults"]:
            if fault:
                yield (
                    f"fault: seat {fault['seat']} {_one_line(fault['kind'])} at decision {fault['decision']}: "
                    f"{_one_line(fault['message'])}"
                )


def replay_log(replay: dict[str, Any]) -> Iterator[str]:
    """The log of a replay or of every game of a duplicate match."""
    if replay.get("format") == DUPLICATE_FORMAT:
        names = ", ".join(_one_line(n) for n in replay.get("names") or [])
        yield f"duplicate match: {len(replay['games'])} games, places {replay['places']} ({names})"
        for g, game in enumerate(replay["games"]):
            yield from game_log(game, title=f"\ngame {g + 1}: ")
    else:
        yield from game_log(replay)


def _run(args: argparse.Namespace) -> int:
    try:
        for line in replay_log(load(args.file)):
            print(line)
    except BrokenPipeError:  # piped into head
        sys.stderr.close()
        return 0
    except (OSError, ValueError) as exc:  # printed by arena.cli.main, escaped
        raise ArenaError(str(exc)) from exc
    return 0


def add_parser(subparsers: Any) -> None:
    """Register the ``replay`` subcommand."""
    parser = subparsers.add_parser("replay", help="print a replay file as a readable game log")
    parser.add_argument("file", help="a replay written by 'match --replays' (JSON or .json.gz)")
    parser.set_defaults(func=_run)
