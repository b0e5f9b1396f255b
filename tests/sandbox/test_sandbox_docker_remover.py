"""Closing a docker bot (:mod:`sandbox.docker_remover`): its processes die at once, its container is
removed in the background soon after; the remover is bounded, keeps up with quick matches, leaves what it
cannot remove to the sweep, and is flushed at exit."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sandbox_support import HOSTILE_DIR, bot_processes, echo_spec, remaining, snapshot, survivors

from sandbox import docker_remover

# -- the remover itself, with a stand-in client ----------------------------------------------------------


class FakeApi:
    """Records removals; blocks each one until released (``gate``), or refuses them (``refuse``)."""

    def __init__(self) -> None:
        self.removed: list[str] = []
        self.gate = threading.Event()
        self.gate.set()
        self.refuse = False

    def remove_container(self, container: str, **kwargs: Any) -> None:
        import docker.errors

        self.gate.wait(10.0)
        if self.refuse:
            raise docker.errors.APIError("cannot remove - container is zombie and can not be killed")
        self.removed.append(container)


class FakeClient:
    def __init__(self) -> None:
        self.api = FakeApi()


def test_the_remover_removes_in_order_and_flush_waits_for_it() -> None:
    client = FakeClient()
    remover = docker_remover.Remover()
    client.api.gate.clear()
    assert all(remover.submit(client, f"c{i}") for i in range(5))
    assert remover.pending() == 5
    assert not remover.flush(0.1)  # still blocked
    client.api.gate.set()
    assert remover.flush(10.0)
    assert client.api.removed == [f"c{i}" for i in range(5)]
    assert remover.pending() == 0
    assert remover.removed == 5


def test_the_remover_waits_for_a_killed_process_before_removing_and_closes_its_pidfd() -> None:
    client = FakeClient()
    remover = docker_remover.Remover()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        pidfd = os.pidfd_open(child.pid)
        assert remover.submit(client, "killed", pidfd=pidfd)
        time.sleep(0.3)
        assert client.api.removed == []  # its process still runs: not removed yet
        assert remover.pending() == 1
        child.kill()
        child.wait()
        assert remover.flush(10.0)
        assert client.api.removed == ["killed"]
        with pytest.raises(OSError, match="Bad file descriptor"):
            os.fstat(pidfd)  # closed by the remover
    finally:
        child.kill()
        child.wait()


def test_a_full_remover_refuses_so_that_the_caller_removes() -> None:
    client = FakeClient()
    remover = docker_remover.Remover(max_pending=2)
    client.api.gate.clear()
    assert remover.submit(client, "a")
    assert remover.submit(client, "b")
    assert not remover.submit(client, "c")  # bounded: the caller removes it itself
    client.api.gate.set()
    assert remover.flush(10.0)
    assert remover.submit(client, "c")  # room again
    assert remover.flush(10.0)
    assert client.api.removed == ["a", "b", "c"]


def test_a_container_the_remover_gives_up_on_is_remembered(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(docker_remover, "RETRY_PAUSE", 0.01)
    client = FakeClient()
    client.api.refuse = True
    remover = docker_remover.Remover()
    folder = tmp_path / "staged"
    (folder / "bot").mkdir(parents=True)
    (folder / "bot" / "bot.py").write_text("x")
    assert remover.submit(client, "stuck", [folder])
    assert remover.flush(10.0)  # the queue empties; the container stays
    assert not folder.exists()  # its folder is deleted all the same (nothing of the bot runs)
    assert remover.failed() == {"stuck": client}
    assert client.api.removed == []
    client.api.refuse = False
    assert remover.flush(10.0)  # a flush tries it once more
    assert remover.failed() == {}
    assert client.api.removed == ["stuck"]


# -- under docker ----------------------------------------------------------------------------------------


def our_containers(runner: Any) -> dict[str, str]:
    """This process's bot containers: id -> bot label."""
    from sandbox.botdir import owner_identity
    from sandbox.docker import LABEL, OWNER_LABEL

    rows = runner.client.api.containers(all=True, filters={"label": f"{OWNER_LABEL}={owner_identity()}"})
    return {row["Id"]: (row.get("Labels") or {}).get(LABEL, "") for row in rows}


def wait_gone(api: Any, container_id: str, seconds: float) -> None:
    import docker.errors

    deadline = time.monotonic() + seconds
    while True:
        try:
            api.inspect_container(container_id)
        except docker.errors.NotFound:
            return
        assert time.monotonic() < deadline, f"container {container_id[:12]} still there"
        time.sleep(0.05)


@pytest.mark.docker
def test_close_kills_the_bot_at_once_and_the_container_goes_soon_after(docker_runner: Any) -> None:
    from sandbox.base import BotSpec

    conn = docker_runner.start(BotSpec(HOSTILE_DIR, ("python3", "outlive.py")))
    assert conn.readline(10.0) == b'{"escaped": true}'
    procs = snapshot(bot_processes(conn))
    assert len(procs) >= 2
    api = conn.client.api
    folders = list(conn._temp_dirs)
    assert folders
    pipes = {fd: file_id(fd) for fd in (conn._wfd, conn._rfd)}
    assert all(pipes.values())
    started = time.monotonic()
    conn.close()
    closed_in = time.monotonic() - started
    assert survivors(procs) == set()  # every process of the bot is killed when close() returns
    assert all(file_id(fd) != was for fd, was in pipes.items())  # and its pipes are closed
    wait_gone(api, conn.container_id, 10.0)
    assert docker_remover.flush(10.0)
    assert remaining(procs) == set()  # the remover waited for them to be gone
    assert not any(folder.exists() for folder in folders)
    assert closed_in < 3.0


def file_id(fd: int) -> tuple[int, int] | None:
    """(device, inode) of what ``fd`` is open on, or None if it is closed (another thread may have
    reused the number meanwhile: then it names another file)."""
    import os

    try:
        info = os.fstat(fd)
    except OSError:
        return None
    return (info.st_dev, info.st_ino)


@pytest.mark.docker
def test_many_quick_matches_leave_no_container_beyond_the_pool(docker_runner: Any) -> None:
    from sandbox.docker import POOL_NAME

    pool = docker_runner._pool()
    size = pool.size if pool is not None else 0
    most = 0
    for _ in range(6):  # six four-seat "matches" back to back
        conns = [docker_runner.start(echo_spec()) for _ in range(4)]
        for conn in conns:
            conn.send(b"hi\n")
            assert conn.readline(10.0) == b"hi"
        threads = [threading.Thread(target=conn.close) for conn in conns]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        most = max(most, len(our_containers(docker_runner)))
    assert most <= size + docker_remover.MAX_PENDING  # bounded while playing
    assert docker_remover.flush(60.0)
    left = our_containers(docker_runner)
    assert all(label == POOL_NAME for label in left.values()), left  # only waiting ones
    assert len(left) <= size


@pytest.mark.docker
def test_a_remover_error_leaves_the_container_for_the_sweep(
    docker_runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import docker.errors

    from sandbox.botdir import owner_identity
    from sandbox.docker import LABEL, OWNER_LABEL

    monkeypatch.setattr(docker_remover, "RETRY_PAUSE", 0.01)
    conn = docker_runner.start(echo_spec())
    api = conn.client.api
    real_remove = api.remove_container

    def refuse(container: str, **kwargs: Any) -> None:
        if container == conn.container_id:
            raise docker.errors.APIError("cannot remove - container is zombie and can not be killed")
        real_remove(container, **kwargs)

    monkeypatch.setattr(api, "remove_container", refuse)
    try:
        conn.close()
        assert docker_remover.flush(30.0)
        info = api.inspect_container(conn.container_id)  # still there, stopped, ours by its labels
        assert not info["State"]["Running"]
        assert info["Config"]["Labels"][OWNER_LABEL] == owner_identity()
        assert info["Config"]["Labels"][LABEL] == "bots"
        assert conn.container_id in docker_remover.remover().failed()
        monkeypatch.setattr(api, "remove_container", real_remove)
        assert conn.container_id in docker_runner.sweep()
        with pytest.raises(docker.errors.NotFound):
            api.inspect_container(conn.container_id)
        assert conn.container_id not in docker_remover.remover().failed()
    finally:
        monkeypatch.setattr(api, "remove_container", real_remove)
        with contextlib.suppress(docker.errors.NotFound):
            api.remove_container(conn.container_id, force=True)


@pytest.mark.docker
def test_a_short_run_leaves_no_container_at_exit(docker_runner: Any) -> None:
    code = (
        "import sys; sys.path.insert(0, 'tests/sandbox')\n"
        "from sandbox_support import echo_spec\n"
        "from sandbox.botdir import owner_identity\n"
        "from sandbox.docker import DockerRunner\n"
        "runner = DockerRunner()\n"
        "conns = [runner.start(echo_spec()) for _ in range(3)]\n"
        "for conn in conns:\n"
        "    conn.send(b'hi\\n'); assert conn.readline(10.0) == b'hi'\n"
        "    conn.close()\n"
        "print(owner_identity(), *(c.container_id for c in conns))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=HOSTILE_DIR.parents[2]
    ).stdout.split()
    from sandbox.docker import OWNER_LABEL

    owner = " ".join(out[:-3])
    rows = docker_runner.client.api.containers(all=True, filters={"label": f"{OWNER_LABEL}={owner}"})
    assert rows == []  # neither the bots' containers nor the pool's waiting ones
