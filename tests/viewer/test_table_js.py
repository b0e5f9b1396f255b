"""The viewer's JavaScript table (platform/static/viewer/table.js) against the engine, at every decision.

For whole games under several rule sets (tests/viewer/engine_games.py: several hands to 500 points,
Seven-O, No Mercy, Shuffle Hands, 6 Smackdown, jump-in, elimination, keep-drawing), the engine's
``Game.omniscient()``, every seat's ``Game.observation(seat)`` and the position (``Game.position()`` and
every seat's view, docs/position.md: the viewer's "Copy position") are recorded before each decision and at
the end; node runs table.js on the expanded replay and must produce exactly the same dicts, and the same
redacted events as ``arena.engine.game.redact``. So the viewer can never disagree with the rules.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from arena.engine.game import redact
from arena.engine.replay import new_game, steps
from arena.engine.replay_view import expand
from tests.viewer.engine_games import CASES, case_replay

HERE = Path(__file__).resolve().parent
NODE = shutil.which("node") or "/usr/bin/node"


def _node() -> str:
    if Path(NODE).exists():
        return NODE
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail("node is needed for the viewer's JavaScript checks and is missing (CI)")
    pytest.skip("node is not installed: the viewer's JavaScript table cannot be checked here")


def engine_points(replay: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine's omniscient view and observations before every decision and at the end."""
    game = new_game(replay)

    def snap() -> dict[str, Any]:
        return {
            "omniscient": game.omniscient(),
            "observations": [game.observation(s) for s in range(game.n)],
            "position": game.position(),
            "views": [game.position(s) for s in range(game.n)],
        }

    points = [snap()]
    for _same, _index, _events in steps(replay, game):
        points.append(snap())
    return points


def first_difference(expected: Any, actual: Any, path: str = "") -> str | None:
    """Where two JSON values first differ, as a readable path, or None."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                return f"{path}.{key}: missing in the viewer (engine: {expected[key]!r})"
            if key not in expected:
                return f"{path}.{key}: extra in the viewer ({actual[key]!r})"
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        for i, (want, got) in enumerate(zip(expected, actual, strict=True)):
            found = first_difference(want, got, f"{path}[{i}]")
            if found:
                return found
        return None
    if expected != actual:
        return f"{path}: engine {expected!r}, viewer {actual!r}"
    return None


@pytest.mark.parametrize("label", [case[0] for case in CASES])
def test_viewer_table_equals_engine_at_every_decision(label: str, tmp_path: Path) -> None:
    node = _node()
    replay = case_replay(label)
    view = expand(replay)
    view_path = tmp_path / "view.json"
    out_path = tmp_path / "states.json"
    view_path.write_text(json.dumps(view))
    subprocess.run(
        [node, str(HERE / "dump_states.mjs"), str(view_path), str(out_path)], check=True, timeout=300
    )
    produced = json.loads(out_path.read_text())
    expected = engine_points(replay)
    assert len(produced["points"]) == len(expected) == len(replay["decisions"]) + 1
    for index, (want, got) in enumerate(zip(expected, produced["points"], strict=True)):
        where = "the end" if index == len(expected) - 1 else f"decision {index}"
        difference = first_difference(want, got)
        assert difference is None, f"{label}, before {where}: {difference}"
    assert first_difference(expected[-1]["omniscient"], produced["final"]) is None
    for seat, events in enumerate(produced["redacted"]):
        assert events == [redact(e, seat) for e in view["events"]], (
            f"{label}: redact() differs for seat {seat}"
        )


def test_the_cases_cover_every_event_type() -> None:
    seen: set[str] = set()
    for label, *_ in CASES:
        seen |= {e["type"] for e in expand(case_replay(label))["events"]}
    expected = {
        "hand", "deal", "return", "flip", "play", "jump", "draw", "keep", "take", "challenge", "skip",
        "reverse", "swap", "rotate", "shuffle", "color", "catch", "slap", "pass", "reshuffle", "hand_end",
        "eliminated", "game_end", "say_uno", "mercy",
    }  # fmt: skip
    assert not expected - seen, f"event types no case produces: {sorted(expected - seen)}"
