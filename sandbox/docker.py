"""The ``docker`` runner: one container per bot per match, alive for the whole match.

Containers get no network (``network_mode="none"``), a read-only root, a size-capped tmpfs ``/tmp``,
memory = memory+swap limit, a CPU quota, a pids limit, all capabilities dropped, ``no-new-privileges``,
Docker's default seccomp profile, uid/gid 65534, the bot folder bound read-only at ``/bot``, an
environment of constants only (:data:`~sandbox.base.BOT_ENV`), no log driver (a flood never reaches the
disk), and optionally another OCI runtime (gVisor's ``runsc``) from ``UNO_ARENA_DOCKER_RUNTIME``.

Lines go through the attach API: one upgraded socket for stdin+stdout read on the hot path (frames
decoded by :class:`FrameDecoder`), a second one for stderr drained by a thread.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import tempfile
from pathlib import Path
from typing import Any, ClassVar

import docker
import docker.errors
from docker.types import LogConfig, Ulimit

from sandbox.base import BOT_ENV, Availability, BotSpec, Limits, Runner
from sandbox.botdir import stage
from sandbox.connection import READ_CHUNK, PipeConnection, drain, remove_tree
from sandbox.errors import SandboxError, SandboxUnavailable

log = logging.getLogger(__name__)

RUNTIME_ENV = "UNO_ARENA_DOCKER_RUNTIME"
IO_ENV = "UNO_ARENA_DOCKER_IO"
IO_MODES = ("fifo", "attach")
IMAGES_DIR = Path(__file__).resolve().parent / "images"
LABEL = "org.uno-arena.bot"
STDOUT, STDERR = 1, 2


def image_for(language: str) -> str:
    """The runtime image tag for ``language`` (from ``sandbox/images/<language>/TAG``)."""
    tag_file = IMAGES_DIR / language / "TAG"
    if not tag_file.is_file():
        raise SandboxUnavailable(f"no runtime image is defined for language {language!r} ({tag_file})")
    return tag_file.read_text().strip()


class FrameDecoder:
    """Decodes Docker's multiplexed attach stream, keeping one stream's payload.

    Each frame is an 8-byte header (stream id, three zero bytes, big-endian payload size) and the payload;
    frames may be split or joined arbitrarily by the socket. Hand-written: docker-py's ``frames_iter``
    does blocking reads on its own and cannot be driven from our poll loop.
    """

    def __init__(self, keep: int) -> None:
        self._keep = keep
        self._header = bytearray()
        self._stream = 0
        self._left = 0

    def feed(self, data: bytes) -> bytes:
        """The payload bytes of the kept stream found in ``data``."""
        if not self._left and not self._header and len(data) >= 8:
            size = int.from_bytes(data[4:8], "big")
            if len(data) == 8 + size:  # the usual case: exactly one whole frame
                return data[8:] if data[0] == self._keep else b""
        out: list[bytes] = []
        pos, end = 0, len(data)
        while pos < end:
            if self._left:
                take = min(self._left, end - pos)
                if self._stream == self._keep:
                    out.append(data[pos : pos + take])
                self._left -= take
                pos += take
            else:
                need = 8 - len(self._header)
                self._header += data[pos : pos + need]
                pos += need
                if len(self._header) == 8:
                    self._stream = self._header[0]
                    self._left = int.from_bytes(self._header[4:8], "big")
                    self._header.clear()
        return b"".join(out)


def _attach(client: docker.DockerClient, container_id: str, **streams: int) -> tuple[Any, socket.socket]:
    """An upgraded attach connection: (the object keeping it alive, its socket)."""
    holder = client.api.attach_socket(container_id, params={**streams, "stream": 1})
    sock = getattr(holder, "_sock", holder)
    if not isinstance(sock, socket.socket):
        raise SandboxError(f"unexpected attach socket type {type(holder)!r}")
    return holder, sock


class DockerConnection(PipeConnection):
    """A bot in its own container.

    stdin/stdout go either through the attach API (``io_dir=None``: one upgraded socket, frames decoded
    on the hot path) or through two named pipes in ``io_dir`` bound read-only at ``/io`` (the container's
    command redirects to them), which keeps dockerd off the per-decision path. stderr always comes
    through its own attach socket, drained by a thread.
    """

    def __init__(
        self,
        client: docker.DockerClient,
        container_id: str,
        limits: Limits,
        label: str,
        io_dir: Path | None = None,
        temp_dirs: tuple[Path, ...] = (),
    ) -> None:
        self.client = client
        self.container_id = container_id
        self._temp_dirs = temp_dirs
        self._status: int | None = None
        self._pid: int | None = None
        self._holders: list[Any] = []
        self._sockets: list[socket.socket] = []
        self._decoder: FrameDecoder | None = None
        try:
            if io_dir is None:
                holder, sock = _attach(client, container_id, stdin=1, stdout=1)
                self._holders.append(holder)
                self._sockets.append(sock)
                write_fd = read_fd = sock.fileno()
                self._decoder = FrameDecoder(STDOUT)
            else:
                # Both ends are opened before the container starts, so its shell's redirections never
                # block; stdin is opened read-write (a FIFO opened so never blocks and never fails).
                read_fd = os.open(io_dir / "out", os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
                write_fd = os.open(io_dir / "in", os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
            err_holder, err = _attach(client, container_id, stderr=1)
            self._holders.append(err_holder)
        except BaseException:
            for sock in self._sockets:
                sock.close()
            raise
        super().__init__(write_fd, read_fd, limits, label)
        self._direct = self._decoder is None
        err_decoder = FrameDecoder(STDERR)

        def read_stderr() -> bytes:
            while True:
                data = err.recv(READ_CHUNK)
                if not data:
                    return b""
                payload = err_decoder.feed(data)
                if payload:
                    return payload

        self._err = err
        self._stderr_thread = drain(read_stderr, self._stderr, err.close, f"stderr {label}")

    def begin(self) -> None:
        """Start the container (after attaching, so that no output is lost) and note its host pid."""
        self.client.api.start(self.container_id)
        state = self.client.api.inspect_container(self.container_id)["State"]
        self._pid = state.get("Pid") or None

    @property
    def pid(self) -> int | None:
        """The host pid of the container's first process."""
        return self._pid

    @property
    def returncode(self) -> int | None:
        """The container's exit status once it has exited (128+N is reported as -N)."""
        return self._status

    def _read_chunk(self, deadline: float, timeout: float) -> bytes:
        if self._decoder is None:
            return super()._read_chunk(deadline, timeout)
        while True:
            data = super()._read_chunk(deadline, timeout)
            if not data:
                return b""
            payload = self._decoder.feed(data)
            if payload:
                return payload

    def _exit_status(self, timeout: float) -> int | None:
        if self._status is None and not self._closed:
            try:
                code = self.client.api.wait(self.container_id, timeout=max(timeout, 0.1))["StatusCode"]
            except Exception:  # a timeout (requests' ReadTimeout or ConnectionError) or a gone engine
                return None
            self._status = -(code - 128) if code > 128 else code
        return self._status

    def _kill(self) -> None:
        with contextlib.suppress(docker.errors.NotFound):
            self.client.api.remove_container(self.container_id, force=True, v=True)
        if self._status is None:
            self._status = -9

    def _close_fds(self) -> None:
        if self._sockets:
            # The socket objects own their fds: close through them so that no fd is closed twice.
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.close()
        else:
            super()._close_fds()
        for holder in self._holders:
            with contextlib.suppress(Exception):
                holder.close()
        with contextlib.suppress(OSError):
            self._err.shutdown(socket.SHUT_RDWR)

    def _cleanup(self) -> None:
        for d in self._temp_dirs:
            remove_tree(d)


def make_io_dir() -> Path:
    """A private folder with the two named pipes of the fifo I/O mode (``in``, ``out``)."""
    path = Path(tempfile.mkdtemp(prefix="uno-arena-io-"))
    path.chmod(0o755)
    for name, mode in (("in", 0o644), ("out", 0o622)):  # uid 65534 reads "in" and writes "out"
        os.mkfifo(path / name)
        (path / name).chmod(mode)
    return path


#: The fifo mode's container command prefix: stdout is opened first (the host already reads it).
FIFO_COMMAND = ["/bin/sh", "-c", 'exec "$@" >/io/out </io/in', "sh"]


class DockerRunner(Runner):
    """Runs each bot in its own container of the language's runtime image."""

    name: ClassVar[str] = "docker"

    def __init__(
        self, runtime: str | None = None, io: str | None = None, client: docker.DockerClient | None = None
    ) -> None:
        self.runtime = runtime if runtime is not None else (os.environ.get(RUNTIME_ENV) or None)
        self.io = io or os.environ.get(IO_ENV) or "fifo"
        if self.io not in IO_MODES:
            raise ValueError(f"docker I/O mode must be one of {IO_MODES}, not {self.io!r}")
        try:
            self.client = client or docker.from_env(version="auto", timeout=60)
        except docker.errors.DockerException as exc:
            raise SandboxUnavailable(f"no Docker engine answers: {exc}") from exc

    @classmethod
    def available(cls, language: str = "python") -> Availability:
        """Available when the engine answers, the image for ``language`` exists and, if one is set,
        the runtime (``UNO_ARENA_DOCKER_RUNTIME``) is registered."""
        try:
            tag = image_for(language)
            client = docker.from_env(version="auto", timeout=10)
        except (SandboxUnavailable, docker.errors.DockerException) as exc:
            return Availability(False, f"no Docker engine answers: {exc}")
        try:
            client.ping()
            client.images.get(tag)
            runtime = os.environ.get(RUNTIME_ENV)
            if runtime and runtime not in client.info().get("Runtimes", {}):
                return Availability(False, f"the docker runtime {runtime!r} ({RUNTIME_ENV}) is not installed")
        except docker.errors.ImageNotFound:
            return Availability(False, f"image {tag} is missing: run sandbox/images/build.sh")
        except Exception as exc:
            return Availability(False, f"no Docker engine answers: {exc}")
        finally:
            client.close()
        return Availability(True)

    def host_config(self, mount: Path, limits: Limits, io_dir: Path | None = None) -> dict[str, Any]:
        """The container's HostConfig (every confinement flag is here)."""
        mem = f"{limits.memory_mb}m"
        binds = {str(mount): {"bind": "/bot", "mode": "ro"}}
        if io_dir is not None:
            binds[str(io_dir)] = {"bind": "/io", "mode": "ro"}
        return self.client.api.create_host_config(
            binds=binds,
            network_mode="none",
            read_only=True,
            tmpfs={"/tmp": f"size={limits.tmpfs_mb}m,mode=1777"},  # noqa: S108 (the container's own)
            shm_size=f"{limits.tmpfs_mb}m",
            mem_limit=mem,
            memswap_limit=mem,
            nano_cpus=int(limits.cpus * 1e9),
            pids_limit=limits.pids,
            cap_drop=["ALL"],
            security_opt=["no-new-privileges"],
            ulimits=[
                Ulimit(name="nofile", soft=limits.open_files, hard=limits.open_files),
                Ulimit(name="cpu", soft=limits.cpu_seconds, hard=limits.cpu_seconds + 1),
                Ulimit(name="core", soft=0, hard=0),
            ],
            log_config=LogConfig(type="none"),
            runtime=self.runtime,
        )

    def start(self, spec: BotSpec, limits: Limits | None = None) -> DockerConnection:
        """Create, attach and start the bot's container."""
        limits = limits or Limits()
        image = image_for(spec.language)
        mount, staged = stage(spec.bot_dir, ancestors=False)
        temp_dirs = (staged,) if staged is not None else ()
        container_id: str | None = None
        io_dir: Path | None = None
        try:
            command = list(spec.command)
            if self.io == "fifo":
                io_dir = make_io_dir()
                temp_dirs = (*temp_dirs, io_dir)
                command = [*FIFO_COMMAND, *command]
            container_id = self.client.api.create_container(
                image,
                command=command,
                user="65534:65534",
                working_dir="/bot",
                environment=dict(BOT_ENV),
                hostname="bot",
                stdin_open=True,
                tty=False,
                labels={LABEL: spec.bot_dir.name},
                host_config=self.host_config(mount, limits, io_dir),
            )["Id"]
            conn = DockerConnection(
                self.client, container_id, limits, f"docker:{spec.bot_dir.name}", io_dir, temp_dirs
            )
        except BaseException as exc:
            if container_id is not None:
                with contextlib.suppress(Exception):
                    self.client.api.remove_container(container_id, force=True, v=True)
            for d in temp_dirs:
                remove_tree(d)
            if isinstance(exc, docker.errors.ImageNotFound):
                raise SandboxUnavailable(f"image {image} is missing: run sandbox/images/build.sh") from exc
            raise
        try:
            conn.begin()
        except BaseException:
            conn.close()
            raise
        return conn
