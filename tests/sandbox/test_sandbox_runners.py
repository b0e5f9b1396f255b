"""The BotConnection contract, for every runner: lines, timeouts, exits, limits, stderr, clean-up."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

import pytest
from sandbox_support import (
    HOSTILE_DIR,
    bot_processes,
    echo_spec,
    hostile_spec,
    ready_runner,
    snapshot,
    survivors,
)

from sandbox import BotExited, BotOutputTooLong, BotSpec, BotTimeout, Limits, Runner
from sandbox.connection import remove_tree


def test_echo_round_trip(runner: Runner, connections: list) -> None:
    conn = runner.start(echo_spec())
    connections.append(conn)
    for i in range(200):
        line = f'{{"n": {i}, "text": "héllo"}}'.encode()
        conn.send(line + b"\n")
        assert conn.readline(5.0) == line
    assert conn.returncode is None
    assert conn.pid


def test_lines_sent_together_come_back_one_by_one(runner: Runner, connections: list) -> None:
    conn = runner.start(echo_spec())
    connections.append(conn)
    conn.send(b"a\nb\nc\n")
    assert [conn.readline(5.0) for _ in range(3)] == [b"a", b"b", b"c"]


def test_timeout_when_the_bot_does_not_answer(runner: Runner, connections: list) -> None:
    conn = runner.start(echo_spec())
    connections.append(conn)
    conn.send(b"warm-up\n")
    assert conn.readline(10.0) == b"warm-up"
    started = time.monotonic()
    with pytest.raises(BotTimeout):
        conn.readline(0.3)
    assert 0.29 <= time.monotonic() - started < 0.8
    conn.send(b"still there\n")  # a timeout does not break the connection
    assert conn.readline(5.0) == b"still there"


def test_waiting_for_a_slow_bot_costs_the_referee_little_cpu(runner: Runner, connections: list) -> None:
    # readline polls briefly before it blocks (sandbox.connection.SPIN_SECONDS); a bot that thinks for a
    # while must find the referee asleep, not spinning through its thinking time.
    conn = runner.start(echo_spec())
    connections.append(conn)
    conn.send(b"warm-up\n")
    assert conn.readline(10.0) == b"warm-up"
    cpu, wall = time.process_time(), time.monotonic()
    for _ in range(8):
        conn.send(b"sleep 0.05\n")
        assert conn.readline(5.0) == b"slept"
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    assert wall >= 0.4
    assert cpu < 0.1 * wall, f"the referee used {cpu:.3f} s of CPU in {wall:.3f} s of waiting"


def test_terminate_kills_everything_the_bot_started(runner: Any) -> None:
    # terminate() only signals (a table's seats are all signalled, then closed together): it must still
    # reach every process, including those that left the bot's process group.
    conn = runner.start(hostile_spec("outlive.py"))
    try:
        assert conn.readline(10.0) == b'{"escaped": true}'
        procs = snapshot(bot_processes(conn))
        assert len(procs) >= 2
        conn.terminate()
        # gVisor's first host process is its own: there close() does it all.
        if not getattr(runner, "is_gvisor", False):
            deadline = time.monotonic() + 5.0
            while survivors(procs) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert survivors(procs) == set()
    finally:
        conn.close()
    assert survivors(procs) == set()


def test_pin_moves_every_process_of_the_bot_and_back(runner: Any, connections: list) -> None:
    # The referee keeps a game of quick bots on its own CPU (arena.play.colocate) through pin().
    conn = runner.start(hostile_spec("outlive.py"))
    connections.append(conn)
    assert conn.readline(10.0) == b'{"escaped": true}'
    procs = bot_processes(conn)
    assert len(procs) >= 2
    everywhere = os.sched_getaffinity(0)
    cpu = min(everywhere)
    pinned = conn.pin({cpu})
    if getattr(runner, "is_gvisor", False):  # gVisor's host processes are its own kernel's
        assert not pinned
        return
    assert pinned
    assert {frozenset(os.sched_getaffinity(pid)) for pid in procs} == {frozenset({cpu})}
    assert conn.pin(everywhere)
    assert {frozenset(os.sched_getaffinity(pid)) for pid in procs} == {frozenset(everywhere)}
    conn.close()
    assert not conn.pin({cpu})  # nothing left to pin


def test_exit_mid_way_reports_the_status(runner: Runner, connections: list) -> None:
    conn = runner.start(echo_spec())
    connections.append(conn)
    conn.send(b"one\n")
    assert conn.readline(5.0) == b"one"
    conn.send(b"exit 3\n")
    with pytest.raises(BotExited) as caught:
        conn.readline(5.0)
    assert caught.value.returncode == 3
    assert conn.returncode == 3
    with pytest.raises(BotExited):  # writing to a dead bot fails fast, never hangs
        conn.send(b"anyone?\n" * 20000)


def test_line_too_long(runner: Runner, connections: list) -> None:
    conn = runner.start(echo_spec(), Limits(max_line_bytes=1000))
    connections.append(conn)
    conn.send(b"big 1000\n")
    assert conn.readline(5.0) == b"x" * 1000  # exactly the limit is fine
    conn.send(b"big 100000\n")
    started = time.monotonic()
    with pytest.raises(BotOutputTooLong):
        conn.readline(5.0)
    assert time.monotonic() - started < 2.0


def test_stderr_is_captured_and_capped(runner: Runner, connections: list) -> None:
    conn = runner.start(echo_spec(), Limits(stderr_cap_bytes=4096))
    connections.append(conn)
    conn.send(b"err 3000000\n")
    assert conn.readline(30.0) == b"done"
    deadline = time.monotonic() + 5
    while not conn.stderr_tail().endswith("END-OF-STDERR") and time.monotonic() < deadline:
        time.sleep(0.01)
    tail = conn.stderr_tail()
    assert tail.endswith("e" * 100 + "END-OF-STDERR")
    assert len(tail.encode()) == 4096
    assert conn.stderr_total >= 3_000_000


def test_bot_that_does_not_read_its_input_times_out_on_send(runner: Runner, connections: list) -> None:
    conn = runner.start(hostile_spec("spin_forever.py"), Limits(send_timeout=0.5))
    connections.append(conn)
    big = b"x" * 65535 + b"\n"

    def flood() -> None:
        for _ in range(1000):
            conn.send(big)

    started = time.monotonic()
    with pytest.raises(BotTimeout):
        flood()
    assert time.monotonic() - started < 2.0


def removed_soon(folders: list[Path], seconds: float = 10.0) -> bool:
    """Whether every one of ``folders`` is gone within ``seconds``."""
    deadline = time.monotonic() + seconds
    while any(Path(d).exists() for d in folders):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_close_leaves_nothing_behind(runner: Runner) -> None:
    conn = runner.start(hostile_spec("outlive.py"))
    assert conn.readline(10.0) == b'{"escaped": true}'
    procs = snapshot(bot_processes(conn))
    assert len(procs) >= 2
    temp_dirs = list(getattr(conn, "_temp_dirs", ()))
    cgroup = getattr(conn, "cgroup", None)
    container_id = getattr(conn, "container_id", None)
    started = time.monotonic()
    conn.close()
    assert time.monotonic() - started < 3.0
    conn.close()  # idempotent
    assert survivors(procs) == set()
    assert removed_soon(temp_dirs)  # at once, or (docker) by the background remover soon after
    if cgroup is not None:
        assert all(not d.exists() for d in cgroup.dirs)
    if container_id is not None:  # dead at once (above); removed soon after, in the background
        import docker.errors

        api = conn.client.api  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10.0
        while True:
            try:
                state = api.inspect_container(container_id)["State"]
            except docker.errors.NotFound:
                break
            assert not state["Running"] or time.monotonic() - started < 2.0
            assert time.monotonic() < deadline, "the closed container was not removed"
            time.sleep(0.05)


def test_private_bot_folder_is_staged_and_removed(runner: Runner, tmp_path: Path) -> None:
    bot_dir = tmp_path / "private-bot"
    bot_dir.mkdir(mode=0o700)
    (bot_dir / "bot.py").write_text("import sys\nprint(open('data.txt').read().strip(), flush=True)\n")
    (bot_dir / "data.txt").write_text("secret-sauce\n")
    os.chmod(bot_dir / "data.txt", 0o600)
    conn = runner.start(BotSpec(bot_dir, ("python3", "bot.py")))
    try:
        assert conn.readline(10.0) == b"secret-sauce"
        staged = list(getattr(conn, "_temp_dirs", ()))
    finally:
        conn.close()
    assert removed_soon(staged)
    assert (bot_dir / "data.txt").stat().st_mode & 0o777 == 0o600  # the original is untouched


def test_a_dropped_connection_is_closed_when_collected(runner: Runner) -> None:
    import gc

    conn = runner.start(echo_spec())
    conn.send(b"hi\n")
    assert conn.readline(5.0) == b"hi"
    procs = snapshot(bot_processes(conn))
    assert procs
    del conn
    gc.collect()
    assert survivors(procs) == set()


def test_staged_folders_of_a_dead_worker_are_swept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    from sandbox import botdir

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(botdir.tempfile, "tempdir", None)  # re-read TMPDIR
    code = "from sandbox.botdir import stage; import sys; print(stage(sys.argv[1], traversable=True).root)"
    dead = Path(
        subprocess.run(
            [sys.executable, "-c", code, str(HOSTILE_DIR)],
            capture_output=True,
            text=True,
            check=True,
            cwd=HOSTILE_DIR.parents[2],
        ).stdout.strip()
    )
    assert dead.parent == tmp_path
    assert (dead / "bot" / "whoami.py").is_file()
    other = tmp_path / "uno-arena-bot-elsewhere"  # made in another pid namespace (another container)
    other.mkdir()
    boot, _ = botdir._boot_and_namespace()
    (other / botdir.OWNER_FILE).write_text(f"{boot} 1 1 1")
    monkeypatch.setattr(botdir, "_last_sweep", -botdir.SWEEP_EVERY)
    alive = botdir.stage(HOSTILE_DIR, traversable=False)  # sweeps first
    try:
        assert not dead.exists()
        assert alive.bot.is_dir()
        assert other.is_dir()
        assert botdir.sweep(tmp_path) == []  # the live one stays
    finally:
        remove_tree(alive.root)


def _orphan_container(runner: Any) -> str:
    """A started container labelled as a bot of a referee process that has exited."""
    import subprocess
    import sys

    from sandbox.docker import LABEL, OWNER_LABEL, image_for

    code = "from sandbox.botdir import owner_identity; print(owner_identity())"
    dead = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=HOSTILE_DIR.parents[2]
    ).stdout.strip()
    api = runner.client.api
    orphan: str = api.create_container(
        image_for("python"),
        command=["python3", "-c", "import time; time.sleep(120)"],
        labels={LABEL: "orphan", OWNER_LABEL: dead},
        host_config=api.create_host_config(network_mode="none"),
    )["Id"]
    api.start(orphan)
    return orphan


@pytest.mark.docker
def test_a_container_that_cannot_be_removed_yet_does_not_stop_a_start(
    connections: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    import docker.errors

    from sandbox.docker import DockerRunner

    runner = ready_runner("docker")
    assert isinstance(runner, DockerRunner)
    api = runner.client.api
    orphan = _orphan_container(runner)
    try:
        real_remove = api.remove_container

        def refuse(container: str, **kwargs: Any) -> None:
            if container == orphan:  # what dockerd answers for a gVisor sandbox it cannot kill yet
                raise docker.errors.APIError("cannot remove - container is zombie and can not be killed")
            real_remove(container, **kwargs)

        monkeypatch.setattr(api, "remove_container", refuse)
        monkeypatch.setattr(DockerRunner, "_last_sweep", -1e9)  # the next start sweeps first
        live = runner.start(echo_spec())
        connections.append(live)
        live.send(b"started\n")
        assert live.readline(10.0) == b"started"
        assert api.inspect_container(orphan)["State"]["Running"]  # left for the next sweep
        monkeypatch.setattr(api, "remove_container", real_remove)
        assert runner.sweep() == [orphan]
    finally:
        with contextlib.suppress(docker.errors.NotFound):
            api.remove_container(orphan, force=True)


@pytest.mark.docker
def test_closing_retries_a_container_that_cannot_be_removed_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    import docker.errors

    from sandbox import docker_remover
    from sandbox.docker import DockerRunner

    runner = ready_runner("docker")
    assert isinstance(runner, DockerRunner)
    conn = runner.start(echo_spec())
    api = conn.client.api  # the connection's own client (a pooled container's is the pool's)
    real_remove = api.remove_container
    refused: list[str] = []

    def refuse_twice(container: str, **kwargs: Any) -> None:
        if len(refused) < 2:
            refused.append(container)
            raise docker.errors.APIError("cannot remove - container is zombie and can not be killed")
        real_remove(container, **kwargs)

    monkeypatch.setattr(api, "remove_container", refuse_twice)
    conn.close()  # no exception: the background remover's third try removes it
    assert docker_remover.flush(30.0)
    assert len(refused) == 2
    with pytest.raises(docker.errors.NotFound):
        api.inspect_container(refused[0])


@pytest.mark.docker
def test_containers_of_a_dead_referee_are_swept(connections: list, monkeypatch: pytest.MonkeyPatch) -> None:
    import docker.errors

    from sandbox.docker import DockerRunner

    runner = ready_runner("docker")
    assert isinstance(runner, DockerRunner)
    api = runner.client.api
    orphan = _orphan_container(runner)
    try:
        monkeypatch.setattr(DockerRunner, "_last_sweep", -1e9)  # the next start sweeps first
        live = runner.start(echo_spec())  # ours: this process is alive
        connections.append(live)
        with pytest.raises(docker.errors.NotFound):
            api.inspect_container(orphan)
        assert runner.sweep() == []  # the live one stays
        live.send(b"still here\n")
        assert live.readline(10.0) == b"still here"
    finally:
        with contextlib.suppress(docker.errors.NotFound):
            api.remove_container(orphan, force=True)


def test_remove_tree_tolerates_a_folder_that_vanishes_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sweeps may delete the same staged folder: a subfolder gone between listing and opening is fine."""
    root = tmp_path / "staged"
    (root / "gone").mkdir(parents=True)
    (root / "kept").mkdir()
    (root / "kept" / "file").write_text("x")
    real_open = os.open

    def open_vanishing(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if str(path) == "gone":
            raise FileNotFoundError(2, "vanished", str(path))
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", open_vanishing)
    remove_tree(root)  # before the fix: TypeError from calling os.open(p) without flags
    monkeypatch.undo()
    assert not (root / "kept").exists()


def test_settle_waits_until_everything_written_to_stderr_is_in_the_tail() -> None:
    """A game's stderr is filed at its end: whatever the bot wrote before then must be in the tail."""
    from sandbox.connection import StderrDrain, StderrTail

    tail = StderrTail(1 << 20)
    read_fd, write_fd = os.pipe()
    drained = StderrDrain(
        lambda: os.read(read_fd, 4096), tail, lambda: os.close(read_fd), "test", lambda: read_fd
    )
    try:
        for _ in range(20):
            os.write(write_fd, b"x" * 3000)  # in 4 KiB reads: the thread is still busy when we ask
            assert drained.settle(timeout=5.0)
        assert tail.total == 60_000
    finally:
        os.close(write_fd)
        drained.join(timeout=2.0)
    assert not drained.thread.is_alive()
    assert drained.settle() is True  # a closed stream is settled
