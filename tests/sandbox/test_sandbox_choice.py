"""Choosing runners, refusing the process runner in production, and the small building blocks."""

from __future__ import annotations

import json
import struct
import sys
import time
from pathlib import Path

import pytest
from sandbox_support import HERE, echo_spec, ready_runner

import sandbox
from sandbox import BotSpec, Limits, RunnerRefused, SandboxUnavailable, get_runner
from sandbox.connection import StderrTail
from sandbox.docker import DockerRunner, FrameDecoder
from sandbox.process import ProcessRunner


def test_process_runner_is_refused_in_production(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RunnerRefused, match="production"):
        ProcessRunner(production=True)
    monkeypatch.setenv("UNO_ARENA_PRODUCTION", "1")
    with pytest.raises(RunnerRefused):
        ProcessRunner()
    with pytest.raises(RunnerRefused):
        get_runner("process")
    assert not ProcessRunner.available()


def test_production_never_falls_back_to_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox import registry

    class Nope:
        @classmethod
        def available(cls, language: str = "python") -> sandbox.Availability:
            return sandbox.Availability(False, "not here")

    real = registry.runner_class
    monkeypatch.setattr(registry, "runner_class", lambda n: Nope if n != "process" else real(n))
    with pytest.raises(
        SandboxUnavailable, match="gvisor: not here; docker: not here; bwrap: not here; process: refused"
    ):
        get_runner(None, production=True)
    assert get_runner(None, production=False).name == "process"


def test_auto_picks_the_strongest_available() -> None:
    chosen = get_runner("auto", production=True)
    expected = next(n for n in ("gvisor", "docker", "bwrap") if sandbox.runner_class(n).available())
    assert chosen.name == expected


def test_unknown_runner_name() -> None:
    with pytest.raises(ValueError, match="unknown runner"):
        get_runner("chroot")


def test_sandbox_imports_neither_django_nor_the_engine() -> None:
    import subprocess

    code = "import sandbox, sandbox.docker, sandbox.bwrap, sandbox.process, sys; " + (
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'arena'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", "import json; " + code],
        capture_output=True,
        text=True,
        check=True,
        cwd=HERE.parent.parent,
    ).stdout
    assert json.loads(out) == []


def test_frame_decoder_handles_split_and_joined_frames() -> None:
    def frame(stream: int, payload: bytes) -> bytes:
        return struct.pack(">BxxxL", stream, len(payload)) + payload

    data = frame(1, b"hello ") + frame(2, b"noise") + frame(1, b"world\n") + frame(1, b"")
    for size in (1, 3, 7, 8, 9, len(data)):
        decoder = FrameDecoder(1)
        out = b"".join(decoder.feed(data[i : i + size]) for i in range(0, len(data), size))
        assert out == b"hello world\n"
    assert FrameDecoder(2).feed(data) == b"noise"


def test_stderr_tail_keeps_the_end() -> None:
    tail = StderrTail(10)
    tail.write(b"abc")
    tail.write(b"defghijkl")
    assert tail.text() == "cdefghijkl"
    tail.write(b"0123456789ABCDEF")
    assert tail.text() == "6789ABCDEF"
    assert tail.total == 28


def test_limits_defaults_are_documented_values() -> None:
    limits = Limits()
    assert (limits.memory_mb, limits.cpus, limits.pids, limits.tmpfs_mb) == (256, 1.0, 64, 16)
    assert (limits.max_line_bytes, limits.stderr_cap_bytes, limits.startup_timeout) == (65536, 65536, 10.0)


def test_bot_spec_checks_its_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a directory"):
        BotSpec(tmp_path / "missing", ("python3", "bot.py"))
    with pytest.raises(ValueError, match="empty"):
        BotSpec(tmp_path, ())


@pytest.mark.parametrize(
    "name", [pytest.param("bwrap", marks=pytest.mark.bwrap), pytest.param("docker", marks=pytest.mark.docker)]
)
def test_node_bot(name: str) -> None:
    runner = ready_runner(name, "node")
    conn = runner.start(BotSpec(HERE / "bots_node", ("node", "echo.js"), language="node"))
    try:
        conn.send(b'{"hello": "node"}\n')
        assert conn.readline(10.0) == b'{"hello": "node"}'
        deadline = time.monotonic() + 5  # stderr is a separate stream: it may come a little later
        while "node echo ready" not in conn.stderr_tail() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "node echo ready" in conn.stderr_tail()
    finally:
        conn.close()


@pytest.mark.docker
def test_docker_attach_io_mode() -> None:
    ready_runner("docker")
    conn = DockerRunner(io="attach").start(echo_spec())
    try:
        for i in range(50):
            conn.send(b"%d\n" % i)
            assert conn.readline(5.0) == b"%d" % i
        conn.send(b"exit 4\n")
        with pytest.raises(sandbox.BotExited) as caught:
            conn.readline(5.0)
        assert caught.value.returncode == 4
    finally:
        conn.close()


def test_a_runner_found_available_is_not_asked_again_for_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox import registry

    asked: list[str] = []
    answer = [sandbox.Availability(False, "not yet")]

    class Counted:
        @classmethod
        def available(cls, language: str = "python") -> sandbox.Availability:
            asked.append(language)
            return answer[0]

    assert not registry.available(Counted)  # type: ignore[arg-type]
    assert not registry.available(Counted)  # type: ignore[arg-type]
    assert len(asked) == 2  # a refusal is not remembered
    answer[0] = sandbox.Availability(True)
    assert registry.available(Counted)  # type: ignore[arg-type]
    assert registry.available(Counted)  # type: ignore[arg-type]
    assert len(asked) == 3  # remembered
    assert registry.available(Counted, "node")  # type: ignore[arg-type]
    assert len(asked) == 4  # per language
    monkeypatch.setenv("UNO_ARENA_DOCKER_RUNTIME", "runsc")
    assert registry.available(Counted)  # type: ignore[arg-type]
    assert len(asked) == 5  # per UNO_ARENA_* settings
    monkeypatch.setattr(registry, "AVAILABLE_FOR", 0.0)
    assert registry.available(Counted)  # type: ignore[arg-type]
    assert len(asked) == 6  # expired
