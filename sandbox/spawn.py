"""Starting a bot as a child process: pipes, the cgroup join, rlimits (``prlimit``), a new session and a
clean environment. Shared by the ``process`` and ``bwrap`` runners.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from pathlib import Path

from sandbox.base import Limits
from sandbox.cgroups import BotCgroup, join_command
from sandbox.connection import ProcessConnection, remove_tree
from sandbox.errors import SandboxUnavailable

MIB = 1024 * 1024
SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"


def system_tool(name: str) -> str:
    """Absolute path of a system tool (looked up in the system folders only, never the caller's PATH)."""
    found = shutil.which(name, path=SYSTEM_PATH)
    if found is None:
        raise SandboxUnavailable(f"{name} is not installed (looked in {SYSTEM_PATH})")
    return found


def rlimit_command(limits: Limits, language: str, *, nproc: bool) -> list[str]:
    """A ``prlimit ... --`` prefix setting the bot's rlimits before it execs.

    Memory is ``RLIMIT_AS`` for Python, ``RLIMIT_DATA`` for other languages (V8 reserves far more address
    space than it uses, so an address-space cap stops node from starting). ``RLIMIT_NPROC`` counts every
    process of the *user*, so it is only used when asked (``nproc``): see the runners.
    """
    mem = limits.memory_mb * MIB
    args = [
        system_tool("prlimit"),
        f"--cpu={limits.cpu_seconds}:{limits.cpu_seconds + 1}",
        f"--fsize={limits.tmpfs_mb * MIB}",
        "--core=0",
        f"--nofile={limits.open_files}",
        f"--as={mem}" if language == "python" else f"--data={mem}",
    ]
    if nproc:
        args.append(f"--nproc={limits.pids}")
    return [*args, "--"]


def spawn(
    argv: list[str],
    *,
    cwd: Path,
    env: dict[str, str],
    limits: Limits,
    label: str,
    cgroup: BotCgroup | None = None,
    temp_dirs: tuple[Path, ...] = (),
) -> ProcessConnection:
    """Start ``argv`` (already wrapped by the runner) in a new session with fresh pipes.

    On failure everything made for it (``cgroup``, ``temp_dirs``) is removed before the error propagates.
    """
    fds: list[int] = []
    try:
        r_in, w_in = os.pipe2(os.O_CLOEXEC)
        r_out, w_out = os.pipe2(os.O_CLOEXEC)
        r_err, w_err = os.pipe2(os.O_CLOEXEC)
        fds = [r_in, w_in, r_out, w_out, r_err, w_err]
        proc = subprocess.Popen(
            join_command(cgroup, argv),
            stdin=r_in,
            stdout=w_out,
            stderr=w_err,
            cwd=cwd,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
    except BaseException:
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        if cgroup is not None:
            cgroup.remove()
        for d in temp_dirs:
            remove_tree(d)
        raise
    for fd in (r_in, w_out, w_err):
        os.close(fd)
    return ProcessConnection(proc, w_in, r_out, r_err, limits, label, cgroup=cgroup, temp_dirs=temp_dirs)
