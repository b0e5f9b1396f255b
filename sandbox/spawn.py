"""Starting a bot as a child process: pipes, the cgroup join, a fresh session keyring, rlimits
(``prlimit``), a new session and a clean environment. Shared by the ``process`` and ``bwrap`` runners.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
from pathlib import Path

from sandbox.base import Limits
from sandbox.cgroups import BotCgroup
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


def rlimit_command(limits: Limits, language: str) -> list[str]:
    """A ``prlimit ... --`` prefix setting the bot's rlimits before it execs.

    Memory is ``RLIMIT_AS`` for Python, ``RLIMIT_DATA`` for other languages (V8 reserves far more address
    space than it uses, so an address-space cap stops node from starting). No ``RLIMIT_NPROC`` here: it
    would count every process of the host user (bwrap sets it inside the bot's user namespace).
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
    return [*args, "--"]


#: Where :func:`launch_command` puts the bot's stdin and stdout when asked to (``stdio_fds``).
STDIN_FD, STDOUT_FD = 3, 4


def launch_command(
    argv: list[str],
    *,
    cgroup: BotCgroup | None = None,
    keyctl: str | None = None,
    stdio_fds: bool = False,
) -> list[str]:
    """``argv`` behind a ``/bin/sh`` one-liner that, before anything of the bot runs, writes its own pid
    into every ``cgroup.procs`` of ``cgroup``, gives itself a new empty anonymous session keyring
    (``keyctl new_session``: the keyring of the caller's parent, i.e. this shell, is replaced; it is then
    inherited by everything it execs) and, with ``stdio_fds``, moves stdin/stdout to fds 3 and 4 (leaving
    ``/dev/null`` on 0 and 1: a wrapper that stays alive, like bwrap's monitor, then holds no copy of the
    bot's pipes). A shell rather than ``preexec_fn``, which is unsafe in a threaded referee.
    """
    steps = ['while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift']
    if keyctl is not None:
        steps.append(
            f"{shlex.quote(keyctl)} new_session >/dev/null 2>&1 || "
            "{ echo 'sandbox: cannot give the bot a new session keyring' >&2; exit 125; }"
        )
    if stdio_fds:
        steps.append(f"exec {STDIN_FD}<&0 {STDOUT_FD}>&1 </dev/null >/dev/null")
    steps.append('exec "$@"')
    procs = [str(p) for p in cgroup.procs_files] if cgroup is not None else []
    return ["/bin/sh", "-c", "; ".join(steps), "sh", *procs, "--", *argv]


def spawn(
    argv: list[str],
    *,
    cwd: Path,
    env: dict[str, str],
    limits: Limits,
    label: str,
    cgroup: BotCgroup | None = None,
    temp_dirs: tuple[Path, ...] = (),
    keyctl: str | None = None,
    stdio_fds: bool = False,
    pass_fds: tuple[int, ...] = (),
) -> ProcessConnection:
    """Start ``argv`` (already wrapped by the runner) in a new session with fresh pipes, through
    :func:`launch_command` (``cgroup``, ``keyctl`` and ``stdio_fds`` are its options). ``pass_fds`` are
    inherited too (they must be numbered 10 or more); the caller closes its copies.

    On failure everything made for it (``cgroup``, ``temp_dirs``) is removed before the error propagates.
    """
    fds: list[int] = []
    try:
        r_in, w_in = os.pipe2(os.O_CLOEXEC)
        r_out, w_out = os.pipe2(os.O_CLOEXEC)
        r_err, w_err = os.pipe2(os.O_CLOEXEC)
        fds = [r_in, w_in, r_out, w_out, r_err, w_err]
        proc = subprocess.Popen(
            launch_command(argv, cgroup=cgroup, keyctl=keyctl, stdio_fds=stdio_fds),
            stdin=r_in,
            stdout=w_out,
            stderr=w_err,
            cwd=cwd,
            env=env,
            start_new_session=True,
            close_fds=True,
            pass_fds=pass_fds,
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
