"""Helpers for the referee tests: bot entries through a runner, a connection wrapper that records every
line and the bot's processes, and the protocol schema validator.

Import as ``from referee_support import ...`` (pytest puts this folder on ``sys.path``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema

from arena.play.referee import BotEntry
from sandbox import BotSpec, Limits, Runner
from tests.sandbox.sandbox_support import bot_processes, snapshot, survivors

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BOTS = HERE / "bots"
EXAMPLES = ROOT / "bots_examples"
HOSTILE = ROOT / "tests" / "sandbox" / "hostile"
SCHEMA = json.loads((ROOT / "docs" / "protocol.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


class Recorder:
    """A BotConnection wrapper keeping every line each way, and the bot's processes when it is closed."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.sent: list[bytes] = []
        self.received: list[bytes] = []
        self.procs: dict[int, int] = {}
        self.closed = 0

    def send(self, line: bytes) -> None:
        """Record, then send."""
        self.sent.append(line)
        self.inner.send(line)

    def readline(self, timeout: float) -> bytes:
        """Read, then record."""
        line = self.inner.readline(timeout)
        self.received.append(line)
        return line

    def stderr_tail(self) -> str:
        """The inner connection's stderr tail."""
        return str(self.inner.stderr_tail())

    def close(self) -> None:
        """Note the bot's processes, then close."""
        self.closed += 1
        if self.closed == 1:
            self.procs = snapshot(bot_processes(self.inner))
        self.inner.close()

    def left_behind(self) -> set[int]:
        """Processes of this bot still alive after close."""
        return survivors(self.procs)

    def __getattr__(self, name: str) -> Any:
        # Everything else (stderr_bytes, stderr_total, has_unread, unread) as the sandbox has it.
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


def entry(
    runner: Runner,
    bot_dir: Path,
    *command: str,
    name: str | None = None,
    log: list[Recorder] | None = None,
    limits: Limits | None = None,
    language: str = "python",
) -> BotEntry:
    """A BotEntry starting ``command`` in ``bot_dir`` through ``runner``; its connections go to ``log``."""

    def connect() -> Recorder:
        conn = Recorder(runner.start(BotSpec(bot_dir, command, language), limits or Limits()))
        if log is not None:
            log.append(conn)
        return conn

    return BotEntry(name or " ".join(command), connect)


def bad(
    runner: Runner, mode: str, at: int = 1, arg: float = 0.0, log: list[Recorder] | None = None
) -> BotEntry:
    """The misbehaving raw bot of ``tests/referee/bots/bad_bot.py``."""
    return entry(runner, BOTS, "python3", "bad_bot.py", mode, str(at), str(arg), name=f"bad-{mode}", log=log)


def example(runner: Runner, file: str, log: list[Recorder] | None = None) -> BotEntry:
    """An example bot of ``bots_examples/``."""
    return entry(runner, EXAMPLES, "python3", file, name=file, log=log)


def attack_dir(tmp: Path) -> Path:
    """A bot folder with attack.py and copies of every hostile script of the sandbox tests."""
    folder = tmp / "attack"
    folder.mkdir()
    shutil.copy(BOTS / "attack.py", folder)
    for script in HOSTILE.glob("*.py"):
        shutil.copy(script, folder)
    return folder


def validate_conversation(log: list[Recorder]) -> int:
    """Validate every line of every recorded conversation against the schema; returns the count."""
    count = 0
    for conn in log:
        for line in [*conn.sent, *conn.received]:
            VALIDATOR.validate(json.loads(line))
            count += 1
    return count
