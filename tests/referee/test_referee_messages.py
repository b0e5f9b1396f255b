"""Fault messages that teach: each common mistake of a new bot author, made by a real bot through the
process runner, gets a message that says what the bot did and what to do instead; the ``error`` message
reaches the bot (its helper logs it) under every runner; and a line written when no request is open is
blamed on the message it answered, not on the next request."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from referee_support import EXAMPLES, bad, entry, example

from arena.engine.rules import parse_rules, preset
from arena.play.referee import MatchResult, MatchSettings, run_match

SETTINGS = MatchSettings(decision_timeout=1.0, time_bank=0.5, startup_timeout=3.0)


def play(runner, mode: str, at: int = 1, rules: str = "classic-single", log=None) -> MatchResult:
    bots = [bad(runner, mode, at, log=log), example(runner, "greedy_bot.py")]
    return run_match(parse_rules(rules), bots, seed=3, settings=SETTINGS)


@pytest.mark.parametrize(
    ("mode", "kind", "words"),
    [
        # debugging output on stdout
        ("stdout_debug", "invalid_json", ["my hand is", "stdout is for the protocol: log to stderr"]),
        ("debug_ready", "handshake", ["starting up", "stdout is for the protocol: log to stderr"]),
        # a second line after the answer: its own fault, at the next request, not a bad answer
        (
            "extra_line",
            "invalid_message",
            [
                "answered; now thinking",
                "while no request was open",
                "after its answer to request",
                "stdout is for the protocol",
            ],
        ),
        # a wild without its colour: the suffix and the legal actions
        ("wild_no_colour", "invalid_message", ["'W' is not an action string", "W:R", "W:R!", "legal now: "]),
        # a missing flush looks like a slow bot no more
        ("no_flush", "timeout", ["nothing received: did it flush stdout?", "print(..., flush=True)"]),
        (
            "no_flush_ready",
            "handshake",
            ["no ready in answer to hello", "nothing received: did it flush stdout?"],
        ),
        # a line without its newline
        (
            "no_newline",
            "timeout",
            ["bytes without a newline", '\'{"type": "action"', "end every message with a newline"],
        ),
    ],
)
def test_a_common_mistake_gets_a_message_that_teaches(
    process_runner, mode: str, kind: str, words: list
) -> None:
    result = play(process_runner, mode)
    fault = result.faults[0]
    assert fault is not None
    assert fault.kind == kind, fault
    for word in words:
        assert word in fault.message, fault.message
    assert fault.message.isprintable()
    assert result.faults[1] is None


def test_a_slow_bot_that_answered_before_is_not_told_to_flush(process_runner) -> None:
    result = play(process_runner, "timeout", 3)
    fault = result.faults[0]
    assert fault is not None
    assert fault.kind == "timeout"
    assert "nothing received (its 2 earlier answers came in time" in fault.message
    assert "flush" not in fault.message


def test_an_answer_to_hand_end_is_blamed_on_hand_end(process_runner, log) -> None:
    result = play(process_runner, "answer_hand_end", rules="classic,max_hands=3", log=log)
    fault = result.faults[0]
    assert fault is not None, "the bot was never asked after a hand_end"
    assert fault.kind == "invalid_message"
    assert "hand_end takes no answer" in fault.message, fault.message
    assert '{"type": "action", "id": null, "action": "draw"}' in fault.message
    assert result.replay["decisions"][fault.decision][3]["kind"] == "invalid_message"
    if "while no request was open" in fault.message:
        # Seen before the next request: that request was never sent.
        sent = b"".join(line for line in log[0].sent if b'"type":"request"' in line)
        assert f'"id":{fault.decision},'.encode() not in sent


def _helper_bot(tmp: Path) -> Path:
    """A bot on the real uno_bot helper that answers an illegal action."""
    folder = tmp / "helper_bot"
    folder.mkdir()
    shutil.copy(EXAMPLES / "uno_bot.py", folder)
    (folder / "bot.py").write_text(
        "from uno_bot import Bot, run\n\n\nclass Wrong(Bot):\n    name = 'wrong'\n\n"
        "    def decide(self, request):\n        return 'swap:9'\n\n\nrun(Wrong)\n"
    )
    return folder


def test_the_error_message_reaches_the_bot_under_every_runner(any_runner, tmp_path: Path) -> None:
    """The helper logs the referee's ``error`` to stderr before the bot is stopped: the bot gets time to
    read it (it used to be killed at once under the process and bwrap runners, before it had run)."""
    bots = [
        entry(any_runner, _helper_bot(tmp_path), "python3", "bot.py"),
        example(any_runner, "greedy_bot.py"),
    ]
    result = run_match(preset("classic-single"), bots, seed=3, settings=SETTINGS)
    fault = result.faults[0]
    assert fault is not None
    assert fault.kind == "illegal_action"
    assert "referee: illegal_action: 'swap:9' is not legal" in result.stderr[0]
    assert "referee: illegal_action" in fault.stderr_tail
