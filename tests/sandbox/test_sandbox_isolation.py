"""What a bot must not reach beyond its resources: kernel keys (of the worker, of other matches' bots),
the system calls of the seccomp policy, other copies of its own pipes, the host's paths, its fifos.

Under every confining runner (bwrap with and without cgroups, docker, gvisor); the keyring launcher also
under the process runner, which has no seccomp filter (so the fresh session keyring shows on its own).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_support import (
    HOSTILE_DIR,
    add_session_key,
    hostile_spec,
    join_new_session_keyring,
    ready_runner,
    revoke_key,
)

from sandbox import BotExited, Runner
from sandbox.docker import BOT_USER, DockerConnection


def report(conn: object, timeout: float = 30.0) -> dict:
    return json.loads(conn.readline(timeout))  # type: ignore[attr-defined]


@pytest.fixture
def referee_key() -> Iterator[tuple[int, str]]:
    """A secret key in the session keyring of this (the referee's) process: ``(serial, description)``."""
    join_new_session_keyring()  # our own, so the key lands in no keyring shared with anyone else
    description = f"uno-arena-referee-{uuid.uuid4().hex[:8]}"
    key = add_session_key(description, b"REFEREE-SECRET")
    yield key, description
    revoke_key(key)


def test_forbidden_system_calls_fail(confining_runner: Runner, connections: list) -> None:
    conn = confining_runner.start(hostile_spec("syscalls.py", str(os.getpid())))
    connections.append(conn)
    found = report(conn)
    # Each of these works for an unprivileged process without a filter (or fails only for privilege):
    # the filter answers EPERM, and ENOSYS for clone3 (so that the C library falls back to clone).
    expected = dict.fromkeys(found, "EPERM") | {"clone3": "ENOSYS"}
    assert found == expected
    assert len(found) >= 20


def test_what_an_ordinary_bot_does_still_works(runner: Runner, connections: list) -> None:
    conn = runner.start(hostile_spec("ordinary.py"))
    connections.append(conn)
    assert report(conn) == {"failed": {}}


def test_the_workers_session_keys_are_out_of_reach(
    confining_runner: Runner, connections: list, referee_key: tuple[int, str]
) -> None:
    key, description = referee_key
    conn = confining_runner.start(hostile_spec("keys.py", "find", description, str(key)))
    connections.append(conn)
    found = report(conn)
    assert found["worked"] == []
    assert "REFEREE-SECRET" not in json.dumps(found)
    assert found["session"] == "Operation not permitted"  # keyctl itself is denied


def test_no_key_passes_from_one_match_to_the_next(confining_runner: Runner, connections: list) -> None:
    description = f"uno-arena-channel-{uuid.uuid4().hex[:8]}"
    first = confining_runner.start(hostile_spec("keys.py", "add", description))
    connections.append(first)
    assert report(first)["worked"] == []
    first.close()
    second = confining_runner.start(hostile_spec("keys.py", "find", description))
    connections.append(second)
    found = report(second)
    assert found["worked"] == []
    assert "hello from bot 1" not in json.dumps(found)


def test_every_bot_starts_in_a_new_empty_session_keyring(
    connections: list, referee_key: tuple[int, str]
) -> None:
    # The process runner has no seccomp filter: the bot may use keyctl, and sees only its own keyring.
    key, description = referee_key
    own = subprocess.run(["keyctl", "show", "@s"], capture_output=True, text=True, check=True).stdout
    conn = ready_runner("process").start(hostile_spec("keys.py", "find", description, str(key)))
    connections.append(conn)
    found = report(conn)
    assert isinstance(found["session"], int)
    assert str(found["session"]) not in own
    assert found["session_describe"].endswith(";_ses")  # a new anonymous session keyring...
    assert found["session_keys"] == 0  # ...and empty
    assert found["worked"] == []
    assert found["referee_key"] == "Permission denied"  # not possessed any more: not readable


def test_a_bot_that_closes_stdout_has_exited_at_once(runner: Runner, connections: list) -> None:
    conn = runner.start(hostile_spec("close_stdout.py"))
    connections.append(conn)
    conn.send(b'{"type": "request"}\n')
    started = time.monotonic()
    with pytest.raises(BotExited):
        conn.readline(30.0)
    assert time.monotonic() - started < 2.0


def test_nothing_about_the_host_in_the_mount_table_or_pid_1(
    confining_runner: Runner, connections: list
) -> None:
    conn = confining_runner.start(hostile_spec("leaks.py"))
    connections.append(conn)
    found = report(conn)
    assert str(HOSTILE_DIR) not in found["mountinfo"]
    assert str(HOSTILE_DIR.parent) not in found["mountinfo"]
    assert "/var/lib/docker/containers" not in found["mountinfo"]
    assert found["pid1_cmdline"] == "python3 leaks.py"  # the bot is pid 1: no wrapper's command line
    assert "bwrap" not in found["pid1_cmdline"]


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("docker", marks=pytest.mark.docker),
        pytest.param("gvisor", marks=[pytest.mark.docker, pytest.mark.gvisor]),
    ],
)
def test_docker_fifos_are_private_to_the_referee_and_the_bot(name: str, connections: list) -> None:
    conn = ready_runner(name).start(hostile_spec("whoami.py"))
    connections.append(conn)
    assert report(conn)["uid"] == BOT_USER[0]
    assert isinstance(conn, DockerConnection)
    folder = conn._temp_dirs[0]
    info = folder.stat()
    assert stat.S_IMODE(info.st_mode) == 0o700
    assert info.st_uid == os.geteuid()
    for fifo in ("in", "out"):
        info = (folder / fifo).stat()
        assert stat.S_ISFIFO(info.st_mode)
        assert stat.S_IMODE(info.st_mode) == 0o600
        assert (info.st_uid, info.st_gid) == BOT_USER
    # The bot's own uid, on the host, cannot reach them (the folder is the referee's).
    probe = subprocess.run(
        [
            "setpriv",
            f"--reuid={BOT_USER[0]}",
            f"--regid={BOT_USER[1]}",
            "--clear-groups",
            "--",
            "/bin/sh",
            "-c",
            'exec 3<>"$0"',
            str(folder / "out"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert probe.returncode != 0
    assert "Permission denied" in probe.stderr
    assert not Path(folder / "bot").is_symlink()
