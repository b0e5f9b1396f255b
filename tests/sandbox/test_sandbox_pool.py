"""The docker runner's pool of started, waiting containers (:mod:`sandbox.docker_pool`): a waiting
container runs nothing of any bot before it is taken, is taken once (one bot, one match) and removed
once its connection is closed; the pool is bounded, drops dead and stale containers, and removes the rest at exit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sandbox_support import BOTS_DIR, echo_spec

from sandbox import botdir, docker_pool
from sandbox.base import Limits
from sandbox.connection import remove_tree

# -- the pool itself, with stand-in connections --------------------------------------------------------


class Fake:
    """A stand-in waiting connection."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.closed = False
        self.dead = False

    def has_unread(self) -> bool:
        return self.dead

    def close(self) -> None:
        self.closed = True


class Maker:
    def __init__(self) -> None:
        self.made: list[tuple[Any, Fake]] = []
        self.lock = threading.Lock()

    def __call__(self, key: Any) -> Fake:
        with self.lock:
            conn = Fake(len(self.made))
            self.made.append((key, conn))
            return conn


def wait_for(predicate: Any, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_the_pool_keeps_at_most_its_size_and_hands_each_container_out_once() -> None:
    maker = Maker()
    pool = docker_pool.ContainerPool(3, maker)
    try:
        assert pool.full()  # nothing asked for yet
        pool.want("a", 10)
        wait_for(lambda: pool.waiting("a") == 3)
        assert pool.full()
        time.sleep(0.05)
        assert len(maker.made) == 3  # bounded
        got = [pool.take("a") for _ in range(3)]
        assert pool.take("a") is None
        assert len({id(c) for c in got}) == 3
        assert pool.take("b") is None  # another key's containers are not handed out
    finally:
        pool.close()


def test_the_pool_refills_only_when_no_bot_is_in_play() -> None:
    maker = Maker()
    pool = docker_pool.ContainerPool(2, maker)
    try:
        first, second = pool.hold(), pool.hold()
        pool.want("a", 2)
        time.sleep(0.1)
        assert maker.made == []  # two bots in play: no container is started beside them
        first()
        first()  # idempotent: still one in play
        time.sleep(0.1)
        assert maker.made == []
        second()
        wait_for(lambda: pool.waiting("a") == 2)
    finally:
        pool.close()


def test_dead_and_stale_containers_are_closed_not_handed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    maker = Maker()
    pool = docker_pool.ContainerPool(2, maker)
    try:
        pool.want("a", 2)
        wait_for(lambda: pool.waiting("a") == 2)
        first, second = (c for _, c in maker.made[:2])
        first.dead = True
        assert pool.take("a") is second
        assert first.closed
        pool.want("a", 2)
        wait_for(lambda: pool.waiting("a") == 2)
        monkeypatch.setattr(docker_pool, "MAX_IDLE", -1.0)
        assert pool.take("a") is None  # both too old
        assert all(c.closed for _, c in maker.made[2:4])
    finally:
        pool.close()


def test_a_newly_wanted_key_takes_the_room_of_the_older_one() -> None:
    maker = Maker()
    pool = docker_pool.ContainerPool(2, maker)
    try:
        pool.want("old", 2)
        wait_for(lambda: pool.waiting("old") == 2)
        pool.want("new", 2)
        wait_for(lambda: pool.waiting("new") == 2)
        assert pool.waiting("old") == 0
        assert all(c.closed for key, c in maker.made if key == "old")
        assert pool.waiting() == 2
    finally:
        pool.close()


def test_close_closes_every_waiting_container_and_stops_filling() -> None:
    maker = Maker()
    pool = docker_pool.ContainerPool(4, maker)
    pool.want("a", 4)
    wait_for(lambda: pool.waiting("a") == 4)
    pool.close()
    assert all(c.closed for _, c in maker.made)
    pool.want("a", 4)
    time.sleep(0.05)
    assert len(maker.made) == 4
    assert pool.take("a") is None


def test_a_forked_child_never_takes_its_parents_containers(monkeypatch: pytest.MonkeyPatch) -> None:
    maker = Maker()
    parent = docker_pool.pool_for(("test", "fork"), 1, maker)
    me = os.getpid()
    monkeypatch.setattr(docker_pool.os, "getpid", lambda: me + 1_000_000)
    child = docker_pool.pool_for(("test", "fork"), 1, maker)
    assert child is not parent
    monkeypatch.undo()
    parent.close()
    child.close()


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.text(st.characters(blacklist_characters="\n\0", blacklist_categories=("Cs",))), max_size=4)
)
def test_the_command_line_gives_the_waiting_shell_the_exact_argv(words: list[str]) -> None:
    code = "import json, sys; print(json.dumps(sys.argv[1:]))"
    command = [sys.executable, "-c", code, *words]
    assert docker_pool.fits_one_line(command)
    shell = docker_pool.WAIT_COMMAND[2].split("&& ", 1)[1]  # the part after the fifo redirections
    out = subprocess.run(
        ["/bin/sh", "-c", shell], input=docker_pool.command_line(command), capture_output=True, check=True
    ).stdout
    assert json.loads(out) == words


def test_a_command_with_a_newline_does_not_fit() -> None:
    assert not docker_pool.fits_one_line(["python3", "a\nb"])


def test_an_empty_stage_filled_later_holds_what_stage_copies() -> None:
    direct = botdir.stage(BOTS_DIR, traversable=False)
    later = botdir.stage_empty(traversable=False)
    try:
        assert list(later.bot.iterdir()) == []
        assert later.bot.stat().st_mode & 0o777 == 0o755
        botdir.fill(later, BOTS_DIR)

        def tree(root: Path) -> list[tuple[str, int]]:
            return sorted((str(p.relative_to(root)), p.stat().st_mode & 0o777) for p in root.rglob("*"))

        assert tree(later.bot) == tree(direct.bot)
    finally:
        for staged in (direct, later):
            remove_tree(staged.root)


# -- under docker ----------------------------------------------------------------------------------------


def waiting_ids(runner: Any) -> set[str]:
    from sandbox.botdir import owner_identity
    from sandbox.docker import LABEL, OWNER_LABEL, POOL_NAME

    rows = runner.client.api.containers(all=True, filters={"label": f"{LABEL}={POOL_NAME}"})
    ours = owner_identity()  # not another process's pool
    return {row["Id"] for row in rows if (row.get("Labels") or {}).get(OWNER_LABEL) == ours}


def fill_pool(runner: Any) -> docker_pool.ContainerPool:
    pool = runner._pool()
    assert pool is not None
    pool.want((runner_image(), Limits()), pool.size)
    wait_for(lambda: pool.waiting() == pool.size, 60.0)
    return pool


def runner_image() -> str:
    from sandbox.docker import image_for

    return image_for("python")


@pytest.mark.docker
def test_a_waiting_container_serves_one_bot_then_is_removed(docker_runner: Any) -> None:
    import docker.errors

    pool = fill_pool(docker_runner)
    waiting = waiting_ids(docker_runner)
    assert len(waiting) == pool.size
    made = pool.made
    seen = set()
    for _ in range(3):
        conn = docker_runner.start(echo_spec())
        try:
            assert conn.container_id in waiting  # taken from the pool
            assert conn.container_id not in seen  # never twice
            seen.add(conn.container_id)
            conn.send(b"hello pool\n")
            assert conn.readline(10.0) == b"hello pool"
            cmdline = Path(f"/proc/{conn.pid}/cmdline").read_bytes().split(b"\0")
            assert cmdline[:2] == [b"python3", b"echo.py"]  # the shell exec'd the bot
        finally:
            conn.close()

        def removed(container_id: str = conn.container_id) -> bool:
            try:
                docker_runner.client.api.inspect_container(container_id)
            except docker.errors.NotFound:
                return True
            return False

        wait_for(removed, 10.0)  # by the background remover, soon after
    wait_for(lambda: pool.made >= made + 3, 60.0)  # refilled
    assert pool.waiting() <= pool.size


@pytest.mark.docker
def test_close_pools_removes_every_waiting_container_and_its_folder(docker_runner: Any) -> None:
    pool = fill_pool(docker_runner)
    folders = [conn._io_dir for ready in pool._ready.values() for _, conn in ready]
    assert waiting_ids(docker_runner)
    docker_pool.close_pools()
    assert waiting_ids(docker_runner) == set()
    assert not any(folder.exists() for folder in folders)


@pytest.mark.docker
def test_a_waiting_container_that_died_is_not_handed_out(docker_runner: Any) -> None:
    pool = fill_pool(docker_runner)
    for ready in pool._ready.values():
        for _, conn in ready:
            docker_runner.client.api.kill(conn.container_id)
    wait_for(lambda: all(c.has_unread() for r in pool._ready.values() for _, c in r), 30.0)
    conn = docker_runner.start(echo_spec())
    try:
        conn.send(b"alive\n")
        assert conn.readline(10.0) == b"alive"
    finally:
        conn.close()
