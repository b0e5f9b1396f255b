"""The runner interface: what a bot is (:class:`BotSpec`), what it may use (:class:`Limits`), how it is
started (:class:`Runner`) and how the referee talks to it (:class:`BotConnection`).

The pipe-based implementation of :class:`BotConnection` shared by the runners is
:class:`sandbox.connection.PipeConnection`.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Protocol, runtime_checkable

#: The whole environment a bot sees, identical under every runner: nothing comes from the host.
#: ``PYTHONHASHSEED=0`` fixes the iteration order of a Python bot's sets of strings, so that a game
#: replayed from its seed is played exactly again (docs/protocol.md, "Randomness and reproduction").
BOT_ENV: dict[str, str] = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "HOME": "/tmp",  # noqa: S108 (inside the sandbox)
    "PYTHONHASHSEED": "0",
}

#: The environment variable that marks a production machine (the ``process`` runner is then refused).
PRODUCTION_ENV = "UNO_ARENA_PRODUCTION"


def production_from_env() -> bool:
    """Whether ``UNO_ARENA_PRODUCTION`` says this is a production machine (``1``, ``true``, ``yes``)."""
    return os.environ.get(PRODUCTION_ENV, "").strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class BotSpec:
    """A bot program: its code folder (mounted read-only) and the command run inside it.

    ``command`` runs with the bot folder as working directory, e.g. ``("python3", "bot.py")``.
    ``language`` picks the runtime image under docker (``python``, ``node``) and the memory rlimit.
    """

    bot_dir: Path
    command: tuple[str, ...]
    language: str = "python"

    def __post_init__(self) -> None:
        object.__setattr__(self, "bot_dir", Path(self.bot_dir).resolve())
        object.__setattr__(self, "command", tuple(self.command))
        if not self.command:
            raise ValueError("BotSpec.command must not be empty")
        if not self.bot_dir.is_dir():
            raise ValueError(f"bot folder {self.bot_dir} is not a directory")


@dataclass(frozen=True)
class Limits:
    """Resource limits for one bot for one match; every runner enforces them as far as it can
    (docs/sandbox.md has the table of which runner enforces what, and how).
    """

    memory_mb: int = 256
    """Memory (docker and cgroups: resident + swap; rlimit: address space, or data for node)."""
    cpus: float = 1.0
    """CPU share in cores (docker ``nano_cpus``; cgroup CPU quota where writable)."""
    pids: int = 64
    """Processes and threads the bot may have at once (fork bombs stop here)."""
    tmpfs_mb: int = 16
    """Size of the bot's only writable place, ``/tmp`` (also the largest file it may write)."""
    max_line_bytes: int = 65536
    """Longest line the bot may write; longer is :class:`~sandbox.errors.BotOutputTooLong`."""
    stderr_cap_bytes: int = 64 * 1024
    """How much of the end of the bot's stderr is kept."""
    startup_timeout: float = 10.0
    """Seconds the referee gives a freshly started bot for its first answer (interpreter start-up
    included). Runners start bots without waiting; Docker API calls have their own 60 s timeout."""
    cpu_seconds: int = 600
    """Total CPU time for the whole match (``RLIMIT_CPU``), a backstop behind the per-decision clock."""
    open_files: int = 256
    """Open file descriptors (``RLIMIT_NOFILE``)."""
    send_timeout: float = 5.0
    """Seconds a :meth:`BotConnection.send` waits for a bot that does not read its input."""


@runtime_checkable
class BotConnection(Protocol):
    """A running bot, as the referee sees it: lines in, lines out (JSON Lines over stdin/stdout)."""

    def send(self, line: bytes) -> None:
        """Write one line (newline included) to the bot's stdin."""

    def readline(self, timeout: float) -> bytes:
        """Read one line without its newline; raises BotTimeout, BotExited or BotOutputTooLong."""
        ...

    def stderr_tail(self) -> str:
        """The last KBs of the bot's stderr (capped by ``Limits.stderr_cap_bytes``), decoded for people."""
        ...

    def stderr_bytes(self) -> bytes:
        """The same, raw: the referee reads this and cleans it itself (``arena.play.bot_text``); the
        sandbox never interprets a bot's bytes."""
        ...

    def close(self) -> None:
        """Kill the bot and everything it started, reap it and remove its temporary files; idempotent."""


@dataclass(frozen=True)
class Availability:
    """Whether a runner can run here, and why not; true in a boolean context when it can."""

    ok: bool
    reason: str = field(default="")

    def __bool__(self) -> bool:
        return self.ok


class Runner(ABC):
    """Starts bot programs, each in its own sandbox, and hands back a :class:`BotConnection`."""

    name: ClassVar[str]
    """Short name used in settings and on the command line (``docker``, ``bwrap``, ``process``)."""

    @classmethod
    @abstractmethod
    def available(cls, language: str = "python") -> Availability:
        """Whether this runner can start bots of ``language`` on this machine, with the reason if not."""

    @abstractmethod
    def start(self, spec: BotSpec, limits: Limits | None = None) -> BotConnection:
        """Start one bot and return its connection; the caller must :meth:`BotConnection.close` it."""
