"""Running untrusted bot programs: one :class:`~sandbox.base.Runner` interface, one module per backend
(:mod:`sandbox.docker`, :mod:`sandbox.bwrap`, :mod:`sandbox.process`), and :func:`get_runner` to pick one.

Pure Python: imports neither Django nor the engine. See docs/sandbox.md for the guarantees.
"""

from sandbox.base import BOT_ENV, Availability, BotConnection, BotSpec, Limits, Runner
from sandbox.errors import (
    BotExited,
    BotFolderTooLarge,
    BotOutputTooLong,
    BotTimeout,
    RunnerRefused,
    SandboxError,
    SandboxUnavailable,
)
from sandbox.registry import RUNNER_NAMES, get_runner, runner_class

__all__ = [
    "BOT_ENV",
    "RUNNER_NAMES",
    "Availability",
    "BotConnection",
    "BotExited",
    "BotFolderTooLarge",
    "BotOutputTooLong",
    "BotSpec",
    "BotTimeout",
    "Limits",
    "Runner",
    "RunnerRefused",
    "SandboxError",
    "SandboxUnavailable",
    "get_runner",
    "runner_class",
]
