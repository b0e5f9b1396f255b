"""Errors raised by the sandbox runners and bot connections.

Every error is a :class:`SandboxError`; the referee catches the connection-level ones (timeout, exit,
output too long) as bot faults, and the runner-level ones (unavailable, refused) as set-up problems.
"""

from __future__ import annotations


class SandboxError(Exception):
    """Base class of everything the sandbox raises on purpose."""


class BotTimeout(SandboxError):
    """The bot did not answer (or did not read its input) within the allowed time."""

    def __init__(self, seconds: float, what: str = "answer a line") -> None:
        super().__init__(f"bot did not {what} within {seconds:.3f} s")
        self.seconds = seconds


class BotExited(SandboxError):
    """The bot closed its output or exited; ``returncode`` is its exit status when known.

    A negative ``returncode`` is the signal that killed it (as in :mod:`subprocess`).
    """

    def __init__(self, returncode: int | None, detail: str = "") -> None:
        if returncode is None:
            text = "bot closed its output"
        elif returncode < 0:
            text = f"bot was killed by signal {-returncode}"
        else:
            text = f"bot exited with status {returncode}"
        super().__init__(f"{text}{': ' + detail if detail else ''}")
        self.returncode = returncode


class BotOutputTooLong(SandboxError):
    """The bot wrote a line longer than the limit (or that much output without a newline)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"bot wrote a line longer than {limit} bytes")
        self.limit = limit


class BotFolderTooLarge(SandboxError):
    """The bot's folder holds far more than a bot (e.g. a bot file kept right in a home folder): it is
    not copied into the sandbox, and the bot is not started."""


class SandboxUnavailable(SandboxError):
    """No runner (or not the requested one) can run bots on this machine; the message says why."""


class RunnerRefused(SandboxError):
    """The runner refuses to run here, e.g. the unconfined ``process`` runner in production."""
