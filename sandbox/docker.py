"""The ``docker`` and ``gvisor`` runners: one container per bot per match, alive for the whole match.

Containers get no network (``network_mode="none"``), a read-only root, a size-capped tmpfs ``/tmp``,
memory = memory+swap limit, a CPU quota, a pids limit, all capabilities dropped, ``no-new-privileges``,
the project's seccomp profile (:mod:`sandbox.seccomp`), uid/gid 65534, a copy of the bot folder bound
read-only at ``/bot``, neutral ``/etc/hosts``, ``/etc/hostname`` and ``/etc/resolv.conf`` of our own
(Docker's would show ``/var/lib/docker/containers/<id>`` in the mount table), an environment of
constants only (:data:`~sandbox.base.BOT_ENV`), no log driver (a flood never reaches the disk), and
optionally another OCI runtime from ``UNO_ARENA_DOCKER_RUNTIME``. The ``gvisor`` runner is the same
with gVisor's ``runsc`` runtime: the bot then talks to gVisor's kernel, not to the host's.

stdin/stdout go through two named pipes (``fifo`` mode, the default) or the attach API; stderr through
its own attach socket, drained by a thread.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import signal
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import docker
import docker.errors
from docker.types import LogConfig, Ulimit

from sandbox import affinity, docker_pool, docker_remover, runtimes, seccomp
from sandbox.base import BOT_ENV, Availability, BotSpec, Limits, Runner
from sandbox.botdir import SWEEP_EVERY, Staged, fill, owner_identity, owner_is_gone, stage, stage_empty
from sandbox.cgroups import cgroup_dir_of, cgroup_pids, cpu_seconds_used
from sandbox.connection import READ_CHUNK, PipeConnection, StderrDrain, remove_tree
from sandbox.errors import BotFolderTooLarge, SandboxError, SandboxUnavailable

log = logging.getLogger(__name__)

REMOVE_ATTEMPTS = docker_remover.ATTEMPTS
"""Tries at removing a closed bot's container before it is left to the sweep (by the background remover,
or by :meth:`DockerConnection.close` itself when it cannot hand the container over)."""
KILL_WAIT = docker_remover.KILL_WAIT
"""Seconds a killed container's processes are waited for (by the remover, or by ``close`` itself)."""

RUNTIME_ENV = "UNO_ARENA_DOCKER_RUNTIME"
IO_ENV = "UNO_ARENA_DOCKER_IO"
IO_MODES = ("fifo", "attach")
LABEL = "org.uno-arena.bot"
#: The bot label of a container waiting in the pool (no bot yet).
POOL_NAME = "(pool)"
#: Who started the container (:func:`sandbox.botdir.owner_identity`): a dead owner's are swept.
OWNER_LABEL = "org.uno-arena.owner"
STDOUT, STDERR = 1, 2
WATCH_INTERVAL = 0.25
#: The bot's user in the container (and on the host: there is no user-namespace remapping).
BOT_USER = (65534, 65534)
#: Files of ours mounted over the ones Docker writes into ``/var/lib/docker/containers/<id>``.
ETC_FILES = {"hosts": "127.0.0.1\tlocalhost\n::1\tlocalhost\n", "hostname": "bot\n", "resolv.conf": ""}


def image_for(language: str) -> str:
    """The runtime image tag for ``language`` (``sandbox/images/<language>/TAG``)."""
    return runtimes.image_tag(language)


def image_mismatch(image_labels: dict[str, str] | None, language: str) -> str | None:
    """Why the image with ``image_labels`` is not this machine's runtime for ``language``, or ``None``
    when it is (its content hash is the runtime folder's) or no runtime folder is installed here to
    compare with (a machine with only the image)."""
    try:
        runtime = runtimes.find(language)
    except SandboxUnavailable:
        return None
    have = (image_labels or {}).get(runtimes.HASH_LABEL)
    if have == runtime.hash:
        return None
    return (
        f"image {runtime.image} (content hash {have}) is not this machine's {runtime.name} runtime "
        f"({runtime.hash}): run sandbox/images/build.sh"
    )


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


def _watch_cpu(
    client: docker.DockerClient, container_id: str, cgroup: Path, limit: float, stop: threading.Event
) -> None:
    """Kill the container once its ``cgroup`` has used more than ``limit`` CPU seconds: the CPU-time
    backstop where the runtime does not enforce ``RLIMIT_CPU`` (gVisor). Polls 4 times a second."""
    while not stop.wait(WATCH_INTERVAL):
        used = cpu_seconds_used(cgroup)
        if used is None:  # gone
            return
        if used > limit:
            log.info(
                "container %s used %.1f s of CPU (limit %d s): killing it", container_id[:12], used, limit
            )
            with contextlib.suppress(Exception):
                client.api.kill(container_id, "SIGKILL")
            return


class DockerConnection(PipeConnection):
    """A bot in its own container.

    stdin/stdout go either through the attach API (``io_dir=None``: one upgraded socket, frames decoded
    on the hot path) or through the two named pipes ``in`` and ``out`` of ``io_dir``, bound read-only at
    ``/io/in`` and ``/io/out`` (the container's command redirects to them), which keeps dockerd off the
    per-decision path. stderr always comes through its own attach socket, drained by a thread.
    """

    def __init__(
        self,
        client: docker.DockerClient,
        container_id: str,
        limits: Limits,
        label: str,
        io_dir: Path | None = None,
        temp_dirs: tuple[Path, ...] = (),
        watch_cpu: bool = False,
        direct_kill: bool = True,
    ) -> None:
        self.client = client
        self.direct_kill = direct_kill
        """Whether :meth:`terminate` may SIGKILL the container's first host process itself."""
        self.on_close: Callable[[], None] | None = None
        """Called once the connection is closed (the pool's count of bots in play)."""
        self._on_close_lock = threading.Lock()
        self.container_id = container_id
        self._temp_dirs = temp_dirs
        self._watch_cpu = watch_cpu
        self._stop_watch = threading.Event()
        self._watchdog: threading.Thread | None = None
        self._status: int | None = None
        self._pid: int | None = None
        self._pidfd: int | None = None
        """A pidfd of the container's first process (its pid namespace's init), for :meth:`terminate`."""
        self._pids_dir: Path | None = None
        """The container's cgroup folder of the pids controller (lists every process of the bot)."""
        self._holders: list[Any] = []
        self._sockets: list[socket.socket] = []
        self._decoder: FrameDecoder | None = None
        self._io_dir = io_dir
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
        # FIONREAD on the attach socket: what dockerd has passed on (what it still holds, nobody can see).
        self._stderr_drain = StderrDrain(read_stderr, self._stderr, err.close, f"stderr {label}", err.fileno)

    def assign(self, spec: BotSpec, label: str) -> None:
        """Give a waiting container of the pool its bot: copy ``spec``'s folder into the empty ``/bot``
        and write its command to the waiting shell, which execs it (:mod:`sandbox.docker_pool`)."""
        if self._io_dir is None:
            raise SandboxError("only a waiting container of the fifo I/O mode takes a bot")
        if not (self._io_dir / "bot").is_dir():
            raise SandboxError(f"its folder {self._io_dir} is gone")
        fill(Staged(self._io_dir), spec.bot_dir)
        self.label = label
        self.send(docker_pool.command_line(spec.command))

    def begin(self) -> None:
        """Start the container (after attaching, so that no output is lost) and note its host pid."""
        self.client.api.start(self.container_id)
        state = self.client.api.inspect_container(self.container_id)["State"]
        self._pid = state.get("Pid") or None
        if self.direct_kill:
            self._pidfd, self._pids_dir = _container_pidfd(self._pid, self.container_id)
        cgroup = cgroup_dir_of(self._pid, "cpuacct") if self._watch_cpu and self._pid else None
        if cgroup is not None:
            if self.container_id not in str(cgroup):
                raise SandboxError(f"{self.label}: container {self.container_id[:12]} is not in {cgroup}")
            # The thread holds no reference to the connection (a dropped one must still be collected).
            args = (self.client, self.container_id, cgroup, self.limits.cpu_seconds, self._stop_watch)
            self._watchdog = threading.Thread(
                target=_watch_cpu, args=args, name=f"cpu {self.label}", daemon=True
            )
            self._watchdog.start()

    @property
    def pid(self) -> int | None:
        """The host pid of the container's first process."""
        return self._pid

    def _bot_pids(self) -> set[int]:
        # gVisor's first host process is its own kernel's: nothing of the bot to pin there.
        if self._closed or not self.direct_kill or self._pid is None or self._pidfd is None:
            return set()
        alive = select.poll()
        alive.register(self._pidfd, select.POLLIN)
        if alive.poll(0):  # it has exited: its pid may be someone else's soon
            return set()
        return affinity.process_tree(self._pid)

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

    def close(self) -> None:
        """:meth:`PipeConnection.close`, then :attr:`on_close` (once)."""
        super().close()
        with self._on_close_lock:
            callback, self.on_close = self.on_close, None
        if callback is not None:
            callback()

    def terminate(self) -> None:
        """SIGKILL every process of the container directly (no dockerd round trip, :meth:`_send_kill`).
        :meth:`close` then removes the container. Does nothing where the host pid is unknown (gVisor:
        the first process is gVisor's own)."""
        with self._close_lock:
            fd = self._pidfd
            if self._closed or fd is None:
                return
            self._send_kill(fd)

    def _send_kill(self, pidfd: int) -> None:
        """SIGKILL each process listed in the container's pids cgroup, then its first process through
        ``pidfd``: none of them runs any more of the bot's code (one forked meanwhile dies with the pid
        namespace, whose init is the first process). Listed pids are the container's own: a process stays
        listed until it is reaped, and its parent is in the container too."""
        listed = cgroup_pids(self._pids_dir) if self._pids_dir is not None else set()
        for pid in listed - {self._pid}:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, OSError):
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)

    def _kill(self) -> None:
        """SIGKILL the container's processes and hand the container to the background remover
        (:mod:`sandbox.docker_remover`) with the pidfd of its first process: the remover waits for the
        processes to be gone, then has dockerd remove the container, off the match's critical path. Once
        SIGKILL is sent, no process of the bot runs any more of its code (the kernel only tears them
        down), so ``close`` need not wait for that. Where there is no pidfd (gVisor) the container is
        killed through the engine and waited for here; where the remover is full, everything is done
        here, as before."""
        self._stop_watch.set()
        fd, self._pidfd = self._pidfd, None
        remover = docker_remover.remover()
        handed_over = False
        if fd is not None:
            self._send_kill(fd)
            handed_over = remover.submit(self.client, self.container_id, self._temp_dirs, pidfd=fd)
        if not handed_over:  # gVisor, or the remover is full: wait here, then try handing it over again
            dead = False
            if fd is not None:
                try:
                    dead = docker_remover.wait_gone(fd, KILL_WAIT)
                finally:
                    os.close(fd)
            if not dead:
                dead = self._kill_through_engine()
            handed_over = dead and remover.submit(self.client, self.container_id, self._temp_dirs)
        if handed_over:
            self._temp_dirs = ()  # the remover deletes them, after the container
        # Not the match's fault if removing fails: its result stands; the sweep removes it later.
        elif not docker_remover.remove(self.client, self.container_id, REMOVE_ATTEMPTS):
            remover.leave(self.client, self.container_id)
        if self._status is None:
            self._status = -9

    def _kill_through_engine(self) -> bool:
        """SIGKILL the container through dockerd (gVisor: its first host process is gVisor's own) and wait
        until it is not running; whether it stopped."""
        try:
            self.client.api.kill(self.container_id, "SIGKILL")
        except docker.errors.NotFound:
            return False  # gone already (or never there): remove() says which
        except docker.errors.APIError:
            pass  # "is not running" (it exited by itself), or gVisor's "zombie": the state says
        except Exception:
            return False
        try:
            self.client.api.wait(self.container_id, timeout=KILL_WAIT, condition="not-running")
            return not self.client.api.inspect_container(self.container_id)["State"]["Running"]
        except Exception:
            return False

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
        if self._watchdog is not None:
            self._watchdog.join(timeout=2.0)
        for d in self._temp_dirs:
            remove_tree(d)


def _container_pidfd(pid: int | None, container_id: str) -> tuple[int | None, Path | None]:
    """A pidfd of host process ``pid`` and its pids cgroup folder if that is ``container_id``'s
    (checked after opening it, so a pid reused meanwhile is never signalled), else (None, None)."""
    if not pid:
        return None, None
    try:
        fd = os.pidfd_open(pid)
    except OSError:
        return None, None
    folder = cgroup_dir_of(pid, "pids")
    if folder is None or container_id not in str(folder):
        os.close(fd)
        return None, None
    return fd, folder


def make_fifos(folder: Path) -> None:
    """The fifo I/O mode's named pipes ``in`` and ``out`` in ``folder`` (private to the referee: ``0700``):
    ``0600`` and owned by the bot's user, which opens them through their bind mounts, so that no other
    host user can read the bot's messages or answer for it. Needs root (``chown``)."""
    for name in ("in", "out"):
        os.mkfifo(folder / name, 0o600)
        os.chown(folder / name, *BOT_USER)


def write_etc(folder: Path) -> Path:
    """Neutral ``hosts``, ``hostname`` and ``resolv.conf`` in ``folder/etc`` (mounted over Docker's)."""
    etc = folder / "etc"
    etc.mkdir(mode=0o755)
    for name, text in ETC_FILES.items():
        (etc / name).write_text(text)
        (etc / name).chmod(0o644)
    return etc


#: The fifo mode's container command prefix: stdout is opened first (the host already reads it).
FIFO_COMMAND = ["/bin/sh", "-c", 'exec "$@" >/io/out </io/in', "sh"]


class DockerRunner(Runner):
    """Runs each bot in its own container of the language's runtime image."""

    name: ClassVar[str] = "docker"
    #: How ``/io/out`` is mounted: read-only is enough for runc (writing to a fifo writes no file).
    out_fifo_mode: ClassVar[str] = "ro"
    #: Whether the connection enforces ``cpu_seconds`` from the host (runc applies ``RLIMIT_CPU``).
    watch_cpu: ClassVar[bool] = False

    def __init__(
        self, runtime: str | None = None, io: str | None = None, client: docker.DockerClient | None = None
    ) -> None:
        self.runtime = runtime if runtime is not None else self.default_runtime()
        self.io = io or os.environ.get(IO_ENV) or "fifo"
        if self.io not in IO_MODES:
            raise ValueError(f"docker I/O mode must be one of {IO_MODES}, not {self.io!r}")
        if self.io == "fifo" and os.geteuid() != 0:
            # The named pipes must be handed to the bot's user (chown): without root, use the attach API.
            log.warning("the docker fifo I/O mode needs root; using the attach mode")
            self.io = "attach"
        try:
            self.client = client or docker.from_env(version="auto", timeout=60)
        except docker.errors.DockerException as exc:
            raise SandboxUnavailable(f"no Docker engine answers: {exc}") from exc

    @property
    def is_gvisor(self) -> bool:
        """Whether the runtime is gVisor's (``runsc``, or a variant registered as ``runsc-...``)."""
        return self.runtime is not None and (self.runtime == "runsc" or self.runtime.startswith("runsc-"))

    @classmethod
    def default_runtime(cls) -> str | None:
        """The OCI runtime used when none is given (``UNO_ARENA_DOCKER_RUNTIME``, else Docker's own)."""
        return os.environ.get(RUNTIME_ENV) or None

    @classmethod
    def available(cls, language: str = "python") -> Availability:
        """Available when the engine answers, the image for ``language`` exists and, if one is set,
        the runtime (``UNO_ARENA_DOCKER_RUNTIME``; ``runsc`` for gvisor) is registered with it."""
        try:
            tag = image_for(language)
            client = docker.from_env(version="auto", timeout=10)
        except (SandboxUnavailable, docker.errors.DockerException) as exc:
            return Availability(False, f"no Docker engine answers: {exc}")
        try:
            client.ping()
            mismatch = image_mismatch(client.images.get(tag).labels, language)
            if mismatch:
                return Availability(False, mismatch)
            runtime = cls.default_runtime()
            if runtime and runtime not in client.info().get("Runtimes", {}):
                return Availability(
                    False,
                    f"the docker runtime {runtime!r} is not registered with dockerd (run scripts/setup-system)",
                )
        except docker.errors.ImageNotFound:
            return Availability(False, f"image {tag} is missing: run sandbox/images/build.sh")
        except Exception as exc:
            return Availability(False, f"no Docker engine answers: {exc}")
        finally:
            client.close()
        return Availability(True)

    def pids_limit(self, limits: Limits) -> int:
        """The container's pids cgroup limit: the bot's own (runc adds no process of its own)."""
        return limits.pids

    def extra_ulimits(self, limits: Limits) -> list[Ulimit]:
        """Runtime-specific rlimits (none for runc)."""
        return []

    def host_config(self, staged: Staged, limits: Limits, fifos: bool = False) -> dict[str, Any]:
        """The container's HostConfig (every confinement flag is here)."""
        mem = f"{limits.memory_mb}m"
        binds = {str(staged.bot): {"bind": "/bot", "mode": "ro"}}
        for name in ETC_FILES:
            binds[str(staged.root / "etc" / name)] = {"bind": f"/etc/{name}", "mode": "ro"}
        if fifos:
            binds[str(staged.root / "in")] = {"bind": "/io/in", "mode": "ro"}
            binds[str(staged.root / "out")] = {"bind": "/io/out", "mode": self.out_fifo_mode}
        return self.client.api.create_host_config(
            binds=binds,
            network_mode="none",
            read_only=True,
            tmpfs={"/tmp": f"size={limits.tmpfs_mb}m,mode=1777"},  # noqa: S108 (the container's own)
            shm_size=f"{limits.tmpfs_mb}m",
            mem_limit=mem,
            memswap_limit=mem,
            nano_cpus=int(limits.cpus * 1e9),
            pids_limit=self.pids_limit(limits),
            cap_drop=["ALL"],
            security_opt=["no-new-privileges", seccomp.docker_security_opt(gvisor=self.is_gvisor)],
            ulimits=[
                Ulimit(name="nofile", soft=limits.open_files, hard=limits.open_files),
                Ulimit(name="cpu", soft=limits.cpu_seconds, hard=limits.cpu_seconds + 1),
                Ulimit(name="core", soft=0, hard=0),
                *self.extra_ulimits(limits),
            ],
            log_config=LogConfig(type="none"),
            runtime=self.runtime,
        )

    _last_sweep: ClassVar[float] = -SWEEP_EVERY

    def sweep(self) -> list[str]:
        """Remove (by full id) the bot containers whose owner, a referee process, has died without
        closing them (a killed worker): a docker bot does not die with its referee; and this process's
        closed containers that the background remover could not remove. Returns their ids."""
        removed = []
        remover = docker_remover.remover()
        for container_id, client in remover.failed().items():  # this process's, given up on by the remover
            if docker_remover.remove(client, container_id, attempts=1):
                remover.forget(container_id)
                removed.append(container_id)
        for row in self.client.api.containers(all=True, filters={"label": OWNER_LABEL}):
            if owner_is_gone((row.get("Labels") or {}).get(OWNER_LABEL, "")):
                try:
                    self.client.api.remove_container(row["Id"], force=True, v=True)
                except docker.errors.NotFound:
                    pass  # another sweep got there first
                except docker.errors.APIError as exc:  # e.g. "is zombie and can not be killed" (gVisor)
                    log.warning("could not remove bot container %s yet (%s)", row["Id"][:12], exc)
                    continue  # the next sweep tries again; a sweep never stops a bot from starting
                removed.append(row["Id"])
        if removed:
            log.warning("removed %d bot containers left by dead referees", len(removed))
        return removed

    def start(self, spec: BotSpec, limits: Limits | None = None) -> DockerConnection:
        """Create, attach and start the bot's container (every 10 minutes, :meth:`sweep` first), or take
        one started and waiting in the pool (:mod:`sandbox.docker_pool`) when there is one."""
        limits = limits or Limits()
        if time.monotonic() - DockerRunner._last_sweep >= SWEEP_EVERY:
            DockerRunner._last_sweep = time.monotonic()
            self.sweep()
        image = image_for(spec.language)
        pool = self._pool()
        if pool is None or not docker_pool.fits_one_line(spec.command):
            return self._start(image, limits, spec)
        key = (image, limits)
        release = pool.hold()
        try:
            conn = pool.take(key)
            pool.want(key, pool.size)
            if conn is not None:
                try:
                    conn.assign(spec, f"{self.name}:{spec.bot_dir.name}")
                except (OSError, SandboxError) as exc:  # its folder went away (TMPDIR removed), or it died
                    log.warning(
                        "a waiting container could not take %s (%s): starting afresh", spec.bot_dir, exc
                    )
                    conn.close()
                    if isinstance(exc, BotFolderTooLarge):
                        raise
                    conn = None
                except BaseException:
                    conn.close()
                    raise
            if conn is None:
                conn = self._start(image, limits, spec)
        except BaseException:
            release()
            raise
        conn.on_close = release
        return conn

    #: Whether this runner keeps a pool of waiting containers (see :mod:`sandbox.docker_pool`).
    use_pool: ClassVar[bool] = True

    def _pool(self) -> docker_pool.ContainerPool | None:
        """This process's pool for this runner's kind, or None (pool off, or not the fifo I/O mode)."""
        size = docker_pool.pool_size()
        if not self.use_pool or self.io != "fifo" or size <= 0:
            return None
        owner = (type(self).__name__, self.runtime, str(self.client.api.base_url))

        def make(key: Any) -> DockerConnection:
            image, limits = key
            return self._start(image, limits, None)

        return docker_pool.pool_for(owner, size, make)

    def _start(self, image: str, limits: Limits, spec: BotSpec | None) -> DockerConnection:
        """A started container for ``spec``, or (``spec`` None) a waiting one for the pool: an empty
        ``/bot`` and :data:`~sandbox.docker_pool.WAIT_COMMAND` (fifo mode only)."""
        staged = (
            stage(spec.bot_dir, traversable=False) if spec is not None else stage_empty(traversable=False)
        )
        container_id: str | None = None
        try:
            write_etc(staged.root)
            fifos = self.io == "fifo"
            if spec is None:
                command = list(docker_pool.WAIT_COMMAND)
            else:
                command = list(spec.command)
                if fifos:
                    command = [*FIFO_COMMAND, *command]
            if fifos:
                make_fifos(staged.root)
            name = spec.bot_dir.name if spec is not None else POOL_NAME
            container_id = self.client.api.create_container(
                image,
                command=command,
                user="{}:{}".format(*BOT_USER),
                working_dir="/bot",
                environment=dict(BOT_ENV),
                hostname="bot",
                stdin_open=True,
                tty=False,
                labels={LABEL: name, OWNER_LABEL: owner_identity()},
                host_config=self.host_config(staged, limits, fifos),
            )["Id"]
            conn = DockerConnection(
                self.client,
                container_id,
                limits,
                f"{self.name}:{name}",
                staged.root if fifos else None,
                (staged.root,),
                watch_cpu=self.watch_cpu,
                direct_kill=not self.is_gvisor,
            )
        except BaseException as exc:
            if container_id is not None:
                with contextlib.suppress(Exception):
                    self.client.api.remove_container(container_id, force=True, v=True)
            remove_tree(staged.root)
            if isinstance(exc, docker.errors.ImageNotFound):
                raise SandboxUnavailable(f"image {image} is missing: run sandbox/images/build.sh") from exc
            raise
        try:
            conn.begin()
        except BaseException:
            conn.close()
            raise
        return conn


class GVisorRunner(DockerRunner):
    """The docker runner with gVisor's ``runsc`` runtime: the strongest isolation here (the bot's system
    calls are served by gVisor's own kernel in user space, not by the host's)."""

    name: ClassVar[str] = "gvisor"
    #: Host tasks of gVisor's own (the Sentry's threads, ~40 when idle) and per bot process (the ptrace
    #: platform's stub process and its threads, ~6 each), measured here: see docs/sandbox.md.
    SENTRY_TASKS = 64
    TASKS_PER_PROCESS = 8
    #: gVisor refuses to open a fifo for writing on a read-only mount.
    out_fifo_mode: ClassVar[str] = "rw"
    #: gVisor sets ``RLIMIT_CPU`` but does not enforce it: the connection watches the container's cgroup.
    watch_cpu: ClassVar[bool] = True
    #: No pool: not measured under gVisor (whose file cache may not show files copied into a mounted
    #: folder after the start).
    use_pool: ClassVar[bool] = False

    def __init__(
        self, runtime: str | None = None, io: str | None = None, client: docker.DockerClient | None = None
    ) -> None:
        # gVisor drops stdout/stderr bytes that a slow reader does not take in time: the fifos are host
        # files, not its standard streams, and lose nothing. So the fifo mode only (which needs root).
        if io not in (None, "fifo"):
            raise ValueError("the gvisor runner has only the fifo I/O mode")
        if os.geteuid() != 0:
            raise SandboxUnavailable("the gvisor runner needs root (its fifo I/O mode does)")
        super().__init__(runtime, "fifo", client)

    @classmethod
    def available(cls, language: str = "python") -> Availability:
        """Available as root when dockerd has the ``runsc`` runtime and the image exists."""
        if os.geteuid() != 0:
            return Availability(False, "the gvisor runner needs root (its fifo I/O mode does)")
        return super().available(language)

    @classmethod
    def default_runtime(cls) -> str | None:
        """Always ``runsc``."""
        return "runsc"

    def pids_limit(self, limits: Limits) -> int:
        """Room for gVisor's own tasks: the bot's pids are counted by gVisor itself (``RLIMIT_NPROC``)."""
        return self.SENTRY_TASKS + self.TASKS_PER_PROCESS * limits.pids

    def extra_ulimits(self, limits: Limits) -> list[Ulimit]:
        """``RLIMIT_NPROC`` = the bot's pids: gVisor counts the tasks of its own kernel (one sandbox per
        bot), and a bot that reaches the host's pids cgroup limit first would crash gVisor's kernel."""
        return [Ulimit(name="nproc", soft=limits.pids, hard=limits.pids)]
