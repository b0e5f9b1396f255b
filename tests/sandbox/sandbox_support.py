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
from sandbox.process import ProcessRunner

HERE = Path(__file__).resolve().parent
HOSTILE_DIR = HERE / "hostile"
BOTS_DIR = HERE / "bots"
RUNNERS = ("process", "bwrap", "docker")
CONFINING_RUNNERS = ("bwrap", "docker")


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


def survivors(snap: dict[int, int]) -> set[int]:
    """The processes of ``snap`` still alive (same pid *and* start time, and not a zombie)."""
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


def bot_processes(conn: object) -> set[int]:
    """Host pids of everything a connection's bot runs now (container top, cgroup, process tree)."""
    pids: set[int] = set()
    container_id = getattr(conn, "container_id", None)
    if container_id is not None:
        import docker.errors

        client = conn.client  # type: ignore[attr-defined]
        try:
            top = client.api.top(container_id, ps_args="-eo pid")
        except docker.errors.APIError:  # not running (any more): no processes
            top = {}
        pids.update(int(row[0]) for row in top.get("Processes") or [])
    cgroup = getattr(conn, "cgroup", None)
    if cgroup is not None:
        pids.update(cgroup.pids())
    pid = getattr(conn, "pid", None)
    if pid:
        pids.update(descendants(pid))
    return pids


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
