"""The ``bwrap`` runner: bubblewrap namespaces and a seccomp filter, for machines without a Docker engine.

Each bot gets new user, pid, network (loopback only), IPC, UTS and cgroup namespaces
(``--unshare-all --unshare-user``, and ``--disable-userns`` so it cannot nest more), a new session, a
read-only root holding only ``/usr`` (with the merged-/usr symlinks) and the loader cache, a copy of its
folder read-only at ``/bot``, a size-capped tmpfs at ``/tmp`` and ``/dev/shm``, a fresh ``/proc`` of its
own pid namespace, a minimal ``/dev``, an empty environment (``--clearenv`` plus
:data:`~sandbox.base.BOT_ENV`), uid/gid 65534 inside, a fresh empty session keyring, and the system-call
filter of :mod:`sandbox.seccomp` (``--seccomp``, installed just before the bot's program runs).
``--die-with-parent`` ties it to the referee's process.

The bot is the pid namespace's init (``--as-pid-1``): no bwrap process is inside with it (its
``/proc/1/cmdline`` is its own command), and when it exits the kernel kills everything it left. Its stdin
and stdout reach bwrap as fds 3 and 4 (see :func:`~sandbox.spawn.launch_command`), which bwrap's monitor
process outside closes and a one-line shell inside moves to 0 and 1 before it execs the bot: only the
bot holds its end of its pipes, so a bot that closes stdout is seen at once.

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

from sandbox import seccomp
from sandbox.base import BOT_ENV, Availability, BotSpec, Limits, Runner
from sandbox.botdir import stage
from sandbox.cgroups import BotCgroup
from sandbox.connection import ProcessConnection, remove_tree
from sandbox.errors import SandboxUnavailable
from sandbox.spawn import MIB, STDIN_FD, STDOUT_FD, launch_command, rlimit_command, spawn, system_tool

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


#: Run inside the sandbox as its pid 1: takes stdin/stdout from fds 3/4, closes those, execs the bot.
INNER_COMMAND = ["/bin/sh", "-c", f'exec "$@" <&{STDIN_FD} >&{STDOUT_FD} {STDIN_FD}<&- {STDOUT_FD}>&-', "sh"]


def bwrap_args(bot_dir: Path, limits: Limits, seccomp_fd: int) -> list[str]:
    """The bubblewrap options for one bot (without the command); ``seccomp_fd`` holds the BPF program."""
    return [
        system_tool("bwrap"),
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
        "--seccomp", str(seccomp_fd),
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


def sandbox_command(
    bot_dir: Path, limits: Limits, seccomp_fd: int, command: tuple[str, ...], *, nproc: bool = False
) -> list[str]:
    """Everything from the privilege drop to the bot's own command (after the launcher and prlimit).

    With ``nproc``, ``RLIMIT_NPROC`` is set *inside* the sandbox, by ``prlimit`` from its ``/usr``: the
    kernel (5.14 on) counts it per user namespace, so it counts the bot's own processes only. Set
    outside, it would count every process of host uid 65534 (other bots, gVisor's kernel).
    """
    inner = [system_tool("prlimit"), f"--nproc={limits.pids}", "--"] if nproc else []
    return [
        *drop_privileges(),
        *bwrap_args(bot_dir, limits, seccomp_fd),
        "--",
        *inner,
        *INNER_COMMAND,
        *command,
    ]


@functools.cache
def _probe() -> Availability:
    """Try a real sandbox once per process (the whole launch chain, seccomp filter included): this is
    the only reliable test of user namespaces, of the filter and of the keyring."""
    seccomp_fd = None
    try:
        keyctl = system_tool("keyctl")
        seccomp_fd = seccomp.program_fd()
        inner = sandbox_command(Path("/usr"), Limits(), seccomp_fd, ("true",))
        argv = launch_command(inner, keyctl=keyctl, stdio_fds=True)
        done = subprocess.run(
            argv, capture_output=True, env=BOT_ENV, timeout=30, cwd="/", check=False, pass_fds=(seccomp_fd,)
        )
    except SandboxUnavailable as exc:
        return Availability(False, str(exc))
    except (OSError, ImportError, subprocess.TimeoutExpired) as exc:
        return Availability(False, f"bwrap did not run: {exc}")
    finally:
        if seccomp_fd is not None:
            os.close(seccomp_fd)
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
        """Available when ``bwrap`` (with ``setpriv``, ``prlimit``, ``keyctl`` and libseccomp) runs a
        sandbox here; any language whose interpreter lives under ``/usr`` works."""
        try:
            system_tool("prlimit")
        except SandboxUnavailable as exc:
            return Availability(False, str(exc))
        return _probe()

    def start(self, spec: BotSpec, limits: Limits | None = None) -> ProcessConnection:
        """Start the bot in a fresh sandbox, with a world-readable copy of its folder."""
        limits = limits or Limits()
        staged = stage(spec.bot_dir, traversable=True)
        cgroup = None
        seccomp_fd = None
        try:
            keyctl = system_tool("keyctl")
            seccomp_fd = seccomp.program_fd()
            cgroup = BotCgroup.create(limits) if self.use_cgroups else None
            # Without a pids cgroup, fall back to RLIMIT_NPROC, set inside the bot's user namespace.
            nproc = cgroup is None or "pids" not in cgroup.limited
            argv = [
                *rlimit_command(limits, spec.language),
                *sandbox_command(staged.bot, limits, seccomp_fd, spec.command, nproc=nproc),
            ]
        except BaseException:
            if seccomp_fd is not None:
                os.close(seccomp_fd)
            if cgroup is not None:
                cgroup.remove()
            remove_tree(staged.root)
            raise
        try:  # spawn removes the cgroup and the copy itself if it fails
            return spawn(
                argv,
                cwd=Path("/"),
                env=dict(BOT_ENV),
                limits=limits,
                label=f"bwrap:{spec.bot_dir.name}",
                cgroup=cgroup,
                temp_dirs=(staged.root,),
                keyctl=keyctl,
                stdio_fds=True,
                pass_fds=(seccomp_fd,),
            )
        finally:
            os.close(seccomp_fd)
