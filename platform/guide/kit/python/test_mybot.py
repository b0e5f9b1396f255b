"""Unit tests of mybot.py: ``python -m unittest`` in this folder (needs the uno-arena wheel installed).

Each test starts ``mybot.py`` as the referee does and talks the protocol to it, so what passes here passes
on the site. Add your own: build a request for the situation you care about, and check the answer.
"""

import json
import subprocess
import sys
import unittest
from pathlib import Path

BOT = Path(__file__).resolve().parent / "mybot.py"

HELLO = {
    "type": "hello",
    "protocol": 1,
    "seat": 0,
    "players": 2,
    "names": ["mybot", "opponent"],
    "rules": {"name": "classic"},
    "limits": {"decision_timeout": 1.0, "time_bank": 30.0},
}


def request(legal, hand, top, phase="turn", **observation):
    """A request as the referee sends it (only the fields these tests need)."""
    obs = {
        "seat": 0,
        "players": 2,
        "phase": phase,
        "hand": hand,
        "top": top,
        "color": top[0],
        "hand_sizes": [len(hand), 5],
        "pending_draw": 0,
        **observation,
    }
    return {"type": "request", "id": 0, "legal": legal, "observation": obs, "events": []}


def answers(*requests):
    """Start the bot, greet it, send ``requests`` and the end of the match; return its actions."""
    lines = [HELLO, *requests, {"type": "match_end", "places": [[0], [1]], "scores": [0, 0]}]
    given = "".join(json.dumps(m) + "\n" for m in lines)
    done = subprocess.run(
        [sys.executable, str(BOT)],
        input=given,
        capture_output=True,
        text=True,
        timeout=30,
        cwd=BOT.parent,
        check=True,
    )
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert out[0]["type"] == "ready", out[0]
    return [message["action"] for message in out[1:]]


class MyBotTest(unittest.TestCase):
    def test_declares_uno_with_its_second_last_card(self):
        legal = ["R7", "R7!", "draw"]
        (action,) = answers(request(legal, ["R7", "Y2"], "R3"))
        assert action == "R7!"

    def test_every_answer_is_legal(self):
        cases = [
            (["color:R", "color:Y", "color:G", "color:B"], ["R1", "Y2"], "W", "color"),
            (["G5", "keep"], ["G5", "B9", "R1"], "G2", "drawn"),
            (["catch", "pass"], ["B1", "B2", "B3"], "Y4", "catch"),
        ]
        replies = answers(*(request(legal, hand, top, phase) for legal, hand, top, phase in cases))
        for (legal, *_), action in zip(cases, replies, strict=False):
            assert action in legal

    def test_plays_a_whole_match_without_a_fault(self):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "arena",
                "match",
                str(BOT),
                "random",
                "--games",
                "3",
                "--rules",
                "classic-single",
                "--runner",
                "process",
                "--quiet",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        assert "Faults:" not in done.stdout, done.stdout


if __name__ == "__main__":
    unittest.main()
