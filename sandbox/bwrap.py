"""The ``bwrap`` runner: bubblewrap namespaces, for machines without a Docker engine.

Each bot gets new user, pid, network (loopback only), IPC, UTS and cgroup namespaces
(``--unshare-all --unshare-user``, and ``--disable-userns`` so it cannot nest more), a new session, a
read-only root holding only ``/usr`` (with the merged-/usr symlinks) and the loader cache, its own folder
read-only at ``/bot``, a size-capped tmpfs at ``/tmp`` and ``/dev/shm``, a fresh ``/proc`` of its own pid
namespace, a minimal ``/dev``, an empty environment (``--clearenv`` plus :data:`~sandbox.base.BOT_ENV`),
and uid/gid 65534 inside. ``--die-with-parent`` ties it to the referee's process.

It never runs as root on the host: when we are root, ``setpriv`` drops to uid/gid 65534 (no groups, no
new privileges) before ``bwrap`` starts, so bubblewrap sets up an unprivileged user namespace. Limits
are rlimits (``prlimit``) plus, where writable, a per-bot cgroup (memory, pids, CPU quota, exact kill).
"""

from __future__ import annotations

import functools
import os
import subprocess
from pathlib import Path
from typing import ClassVar

from sandbox.base import BOT_ENV, Availability, BotSpec, Limits, Runner
from sandbox.botdir import stage
from sandbox.cgroups import BotCgroup
from sandbox.connection import ProcessConnection, remove_tree
from sandbox.errors import SandboxUnavailable
from sandbox.spawn import MIB, rlimit_command, spawn, system_tool

SANDBOX_UID = 65534
SANDBOX_GID = 65534


def _root_binds() -> list[str]:
    """Read-only binds of what an interpreter needs: /usr, the merged-/usr links, the loader config."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("bin", "sbin", "lib", "lib64", "lib32", "libx32"):
        path = Path("/", name)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), f"/{name}"]
        elif path.is_dir():
            args += ["--ro-bind", str(path), f"/{name}"]
    for name in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"):
        if os.path.exists(name):
            args += ["--ro-bind", name, name]
    return args


def bwrap_args(bot_dir: Path, limits: Limits) -> list[str]:
    """The bubblewrap options for one bot (without the command)."""
    return [
        system_tool("bwrap"),
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--uid", str(SANDBOX_UID),
        "--gid", str(SANDBOX_GID),
        "--hostname", "bot",
        "--clearenv",
        *[a for k, v in BOT_ENV.items() for a in ("--setenv", k, v)],
        *_root_binds(),
        "--ro-bind", str(bot_dir), "/bot",
        "--size", str(limits.tmpfs_mb * MIB), "--tmpfs", "/tmp",  # noqa: S108 (the sandbox's own)
        "--proc", "/proc",
        "--dev", "/dev",
        "--size", str(MIB), "--tmpfs", "/dev/shm",  # noqa: S108
        "--remount-ro", "/dev",
        "--remount-ro", "/",
        "--chdir", "/bot",
    ]  # fmt: skip


def drop_privileges() -> list[str]:
    """A ``setpriv`` prefix to uid/gid 65534 when we are root (bwrap must never run as host root)."""
    if os.geteuid() != 0:
        return []
    return [
        system_tool("setpriv"),
        f"--reuid={SANDBOX_UID}",
        f"--regid={SANDBOX_GID}",
        "--clear-groups",
        "--no-new-privs",
        "--",
    ]


@functools.cache
def _probe() -> Availability:
    """Try a real sandbox once per process: this is the only reliable test of user namespaces."""
    try:
        argv = [*drop_privileges(), *bwrap_args(Path("/usr"), Limits()), "--", "true"]
    except SandboxUnavailable as exc:
        return Availability(False, str(exc))
    try:
        done = subprocess.run(argv, capture_output=True, env=BOT_ENV, timeout=30, cwd="/", check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Availability(False, f"bwrap did not run: {exc}")
    if done.returncode != 0:
        return Availability(False, f"bwrap fails here: {done.stderr.decode(errors='replace').strip()}")
    return Availability(True)


class BwrapRunner(Runner):
    """Runs each bot in its own bubblewrap sandbox as an unprivileged host user."""

    name: ClassVar[str] = "bwrap"

    def __init__(self, use_cgroups: bool = True) -> None:
        self.use_cgroups = use_cgroups

    @classmethod
    def available(cls, language: str = "python") -> Availability:
        """Available when ``bwrap`` (and ``setpriv``/``prlimit``) run a sandbox here; any language whose
        interpreter lives under ``/usr`` works."""
        try:
            system_tool("prlimit")
        except SandboxUnavailable as exc:
            return Availability(False, str(exc))
        return _probe()

    def start(self, spec: BotSpec, limits: Limits | None = None) -> ProcessConnection:
        """Start the bot in a fresh sandbox; its folder is staged world-readable first if it is not."""
        limits = limits or Limits()
        mount, staged = stage(spec.bot_dir, ancestors=True)
        temp_dirs = (staged,) if staged is not None else ()
        cgroup = None
        try:
            cgroup = BotCgroup.create(limits) if self.use_cgroups else None
            # Without a pids cgroup, fall back to RLIMIT_NPROC; it is counted per host user, so it is
            # then shared by all bots running at once (documented in docs/sandbox.md).
            nproc = cgroup is None or "pids" not in cgroup.limited
            argv = [
                *rlimit_command(limits, spec.language, nproc=nproc),
                *drop_privileges(),
                *bwrap_args(mount, limits),
                "--",
                *spec.command,
            ]
        except BaseException:
            if cgroup is not None:
                cgroup.remove()
            for d in temp_dirs:
                remove_tree(d)
            raise
        return spawn(
            argv,
            cwd=Path("/"),
            env=dict(BOT_ENV),
            limits=limits,
            label=f"bwrap:{spec.bot_dir.name}",
            cgroup=cgroup,
            temp_dirs=temp_dirs,
        )
