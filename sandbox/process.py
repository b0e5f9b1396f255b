"""The ``process`` runner: the bot as a plain child process, for development only.

It gets rlimits (address space or data, CPU time, file size, open files, no core dumps), a new session,
a new empty session keyring (where ``keyctl`` is installed), a clean minimal environment and a private
temporary folder as ``HOME``/``TMPDIR``, and, where this
machine lets us write cgroups, its own cgroup (so ``close()`` kills even children that left the session,
and memory/pids/CPU are capped there too). It is *not* a sandbox: the bot runs as the calling user, sees
the whole file system and the network. Refused in production (``UNO_ARENA_PRODUCTION=1``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import ClassVar

from sandbox.base import BOT_ENV, Availability, BotSpec, Limits, Runner, production_from_env
from sandbox.cgroups import BotCgroup
from sandbox.connection import ProcessConnection
from sandbox.errors import RunnerRefused, SandboxUnavailable
from sandbox.spawn import rlimit_command, spawn, system_tool


class ProcessRunner(Runner):
    """Runs bots as unconfined child processes with rlimits; never in production."""

    name: ClassVar[str] = "process"

    def __init__(self, production: bool | None = None, use_cgroups: bool = True) -> None:
        if production is None:
            production = production_from_env()
        if production:
            raise RunnerRefused(
                "the process runner does not sandbox bots and is refused in production "
                "(UNO_ARENA_PRODUCTION is set): use the docker or bwrap runner"
            )
        self.use_cgroups = use_cgroups

    @classmethod
    def available(cls, language: str = "python") -> Availability:
        """Available wherever ``prlimit`` is, except in production."""
        if production_from_env():
            return Availability(False, "refused in production (UNO_ARENA_PRODUCTION is set)")
        try:
            system_tool("prlimit")
        except SandboxUnavailable as exc:
            return Availability(False, str(exc))
        return Availability(True)

    def start(self, spec: BotSpec, limits: Limits | None = None) -> ProcessConnection:
        """Start the bot with its folder as working directory."""
        limits = limits or Limits()
        home = Path(tempfile.mkdtemp(prefix="uno-arena-process-"))
        env = {**BOT_ENV, "HOME": str(home), "TMPDIR": str(home)}
        cgroup = BotCgroup.create(limits) if self.use_cgroups else None
        # RLIMIT_NPROC counts all the user's processes (a developer's desktop has hundreds; root ignores
        # it), so the pids cap is the cgroup's, where there is one.
        argv = [*rlimit_command(limits, spec.language), *spec.command]
        try:
            keyctl: str | None = system_tool("keyctl")
        except SandboxUnavailable:
            keyctl = None
        return spawn(
            argv,
            cwd=spec.bot_dir,
            env=env,
            limits=limits,
            label=f"process:{spec.bot_dir.name}",
            cgroup=cgroup,
            temp_dirs=(home,),
            keyctl=keyctl,
        )


__all__ = ["ProcessRunner"]
