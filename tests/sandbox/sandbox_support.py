"""Reusable helpers for tests that run bots through the sandbox (runner set-up, process checks).

Import from tests as ``from sandbox_support import ...`` (pytest puts this folder on ``sys.path``), or
as ``tests.sandbox.sandbox_support`` from elsewhere.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from sandbox import BotSpec, Runner, runner_class
from sandbox.cgroups import cgroup_dir_of
from sandbox.process import ProcessRunner

HERE = Path(__file__).resolve().parent
HOSTILE_DIR = HERE / "hostile"
BOTS_DIR = HERE / "bots"
RUNNERS = ("process", "bwrap", "docker", "gvisor")
CONFINING_RUNNERS = ("bwrap", "docker", "gvisor")


def on_ci() -> bool:
    """Whether this is a CI run (``CI=true``), where a missing runner is a failure, not a skip."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def require(name: str, language: str = "python") -> None:
    """Skip the test (fail it on CI) unless runner ``name`` can run ``language`` bots here."""
    status = runner_class(name).available(language)
    if not status:
        message = f"the {name} runner is unavailable: {status.reason} (run scripts/setup-system)"
        if on_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


def ready_runner(name: str, language: str = "python") -> Runner:
    """A runner called ``name`` ready to start bots (skipping/failing the test as :func:`require`)."""
    require(name, language)
    if name == "process":
        return ProcessRunner(production=False)
    return runner_class(name)()


def hostile_spec(script: str, *args: str) -> BotSpec:
    """The hostile bot ``tests/sandbox/hostile/<script>`` with its arguments."""
    return BotSpec(HOSTILE_DIR, ("python3", script, *args))


def echo_spec() -> BotSpec:
    """The echo bot of ``tests/sandbox/bots``."""
    return BotSpec(BOTS_DIR, ("python3", "echo.py"))


def start_time(pid: int) -> int | None:
    """The kernel start time of ``pid`` (to tell a process from a later one with the same pid)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[19])


def snapshot(pids: set[int]) -> dict[int, int]:
    """``{pid: start time}`` for the pids that exist now."""
    return {pid: t for pid in pids if (t := start_time(pid)) is not None}


SIGKILL_BIT = 1 << (9 - 1)
"""SIGKILL in the pending-signal masks of ``/proc/<pid>/status``."""
PF_EXITING = 0x4
"""The kernel's flag of a process that is exiting (field 9 of ``/proc/<pid>/stat``)."""


def remaining(snap: dict[int, int]) -> set[int]:
    """The processes of ``snap`` that still exist (same pid *and* start time) and are not zombies."""
    alive = set()
    for pid, t in snap.items():
        if start_time(pid) == t:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                alive.add(pid)
    return alive


def killed(pid: int) -> bool:
    """Whether ``pid`` can run no more of its code: SIGKILL is pending, or it is exiting (or gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    if int(stat[6]) & PF_EXITING:
        return True
    masks = dict(line.split(":\t", 1) for line in status.splitlines() if line[:6] in ("SigPnd", "ShdPnd"))
    return any(int(masks.get(key, "0"), 16) & SIGKILL_BIT for key in ("SigPnd", "ShdPnd"))


def survivors(snap: dict[int, int]) -> set[int]:
    """The processes of ``snap`` that can still run: alive (:func:`remaining`) and not :func:`killed`.
    Docker's ``close`` sends SIGKILL to every process of the bot and leaves the kernel's tearing down of
    them to its background remover (:mod:`sandbox.docker_remover`; :func:`remaining` is empty once it is
    flushed)."""
    return {pid for pid in remaining(snap) if not killed(pid)}


def descendants(pid: int) -> set[int]:
    """``pid`` and every process below it, from ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        if p not in found:
            found.add(p)
            todo.extend(children.get(p, []))
    return found


def container_processes(conn: object) -> set[int]:
    """Host pids in a running container's pids cgroup (``docker top`` lists the pids of gVisor's own
    kernel under ``runsc``, not host pids); none once it has stopped (its pid may then be reused)."""
    import docker.errors

    try:
        state = conn.client.api.inspect_container(conn.container_id)["State"]  # type: ignore[attr-defined]
    except docker.errors.NotFound:
        return set()
    if not state.get("Running") or not state.get("Pid"):
        return set()
    folder = cgroup_dir_of(state["Pid"], "pids")
    if folder is None or conn.container_id not in str(folder):  # type: ignore[attr-defined]
        return set()
    try:
        return {int(p) for p in (folder / "cgroup.procs").read_text().split()} if folder else set()
    except OSError:
        return set()


def bot_processes(conn: object) -> set[int]:
    """Host pids of everything a connection's bot runs now (container cgroup, cgroup, process tree)."""
    pids: set[int] = set()
    if getattr(conn, "container_id", None) is not None:
        pids.update(container_processes(conn))
    cgroup = getattr(conn, "cgroup", None)
    if cgroup is not None:
        pids.update(cgroup.pids())
    pid = getattr(conn, "pid", None)
    if pid:
        pids.update(descendants(pid))
    return pids


def join_new_session_keyring() -> int:
    """Give this process (its calling thread) a new anonymous session keyring; its serial number."""
    return _keyctl(1, 0)  # KEYCTL_JOIN_SESSION_KEYRING, no name


def add_session_key(description: str, payload: bytes) -> int:
    """Add a ``user`` key to this process's session keyring; its serial number."""
    nr = {"x86_64": 248, "aarch64": 217}[os.uname().machine]
    return _syscall(nr, b"user", description.encode(), payload, len(payload), -3)


def revoke_key(key: int) -> None:
    """Revoke a key (nobody can use it any more; the kernel then collects it)."""
    _keyctl(3, key)  # KEYCTL_REVOKE


def _keyctl(*args: int) -> int:
    return _syscall({"x86_64": 250, "aarch64": 219}[os.uname().machine], *args)


def _syscall(nr: int, *args: int | bytes) -> int:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    res = libc.syscall(ctypes.c_long(nr), *[a if isinstance(a, bytes) else ctypes.c_long(a) for a in args])
    if res == -1:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return int(res)


def host_address() -> str:
    """This machine's own non-loopback IPv4 address (a UDP connect sends no packet)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()
