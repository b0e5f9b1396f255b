"""The :class:`~sandbox.base.BotConnection` implementation shared by the runners.

:class:`PipeConnection` speaks lines over raw file descriptors: ``poll`` + ``os.read`` into one buffer
on the way in (the per-decision hot path: no thread hand-off, no Python-level buffering layers), a
non-blocking ``os.write`` on the way out, and stderr drained continuously by a thread into a capped
:class:`StderrTail`. Subclasses say how to kill, reap and clean up (:class:`ProcessConnection` for
programs we spawn; the docker runner has its own).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import math
import os
import select
import shutil
import signal
import subprocess
import sys
import termios
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path

from sandbox import affinity
from sandbox.base import Limits
from sandbox.cgroups import BotCgroup
from sandbox.errors import BotExited, BotOutputTooLong, BotTimeout

log = logging.getLogger(__name__)

READ_CHUNK = 65536
SPIN_SECONDS = 100e-6
"""How long :meth:`PipeConnection.readline` polls without sleeping before it blocks, while the bot's
answers come quickly. On a virtual machine a process that blocks lets its CPU halt, and waking it costs
the host's round trip: a pipe round trip to an echo child took 51 µs blocking and 9 µs polling for up to
100 µs, and the polling parent used less CPU (9 µs against 19: no idle entry and exit). A bot that
thinks longer costs at most this much extra CPU a decision, and only until it answers slowly once."""
SPIN_AGAIN = 4 * SPIN_SECONDS
"""Spin on the next read only if this read's answer came within this many seconds."""
_POLLIN = select.POLLIN | select.POLLHUP | select.POLLERR
_POLLOUT = select.POLLOUT | select.POLLHUP | select.POLLERR


class StderrTail:
    """A thread-safe byte sink that keeps only the last ``cap`` bytes written to it."""

    def __init__(self, cap: int) -> None:
        self._cap = cap
        self._buf = bytearray()
        self._lock = threading.Lock()
        self.total = 0
        """Bytes written in all (kept or not)."""

    def write(self, data: bytes) -> None:
        """Append ``data``, dropping the oldest bytes beyond the cap."""
        with self._lock:
            self.total += len(data)
            if len(data) >= self._cap:
                self._buf[:] = data[-self._cap :]
                return
            self._buf += data
            if len(self._buf) > self._cap:
                del self._buf[: len(self._buf) - self._cap]

    def data(self) -> bytes:
        """The kept bytes, raw (the referee decodes and cleans them: ``arena.play.bot_text``)."""
        with self._lock:
            return bytes(self._buf)

    def text(self) -> str:
        """The kept bytes decoded as UTF-8, invalid bytes replaced (for people and tests; control
        characters are left as they are)."""
        return self.data().decode("utf-8", "replace")


class StderrDrain:
    """A daemon thread that calls ``read()`` until it returns ``b""`` (or fails), feeding ``tail``, then
    calls ``on_eof`` (which closes the stream: the thread owns it, so its fd is never reused under it).

    :meth:`settle` lets the referee file stderr by game: the bot wrote its stderr before the answer that
    ended the game, so once nothing is left unread in the stream (``pending``: the kernel's FIONREAD count)
    and the thread waits in ``read()`` again, the tail holds all of it. Done by hand because a stream drained
    continuously by a thread offers no such point of its own.
    """

    def __init__(
        self,
        read: Callable[[], bytes],
        tail: StderrTail,
        on_eof: Callable[[], None],
        name: str,
        fileno: Callable[[], int] | None = None,
    ) -> None:
        self._read = read
        self._tail = tail
        self._on_eof = on_eof
        self._fileno = fileno
        self._lock = threading.Lock()  # held while the stream is closed or asked how much it holds
        self._open = True
        self._reads_started = 0
        self._reads_done = 0
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while True:
                self._reads_started += 1
                try:
                    data = self._read()
                except OSError:
                    break
                if not data:
                    break
                self._tail.write(data)
                self._reads_done += 1
        finally:
            with self._lock:
                self._open = False
                self._on_eof()

    def _pending(self) -> int:
        """Bytes waiting in the stream, unread (0 once it is closed or cannot say)."""
        if self._fileno is None:
            return 0
        with self._lock:
            if not self._open:
                return 0
            try:
                buf = fcntl.ioctl(self._fileno(), termios.FIONREAD, b"\0\0\0\0")
            except (OSError, ValueError):
                return 0
            return int.from_bytes(buf, sys.byteorder)

    def _idle(self) -> bool:
        return self._pending() == 0 and self._reads_started == self._reads_done + 1

    def settle(self, timeout: float = 0.2) -> bool:
        """Wait (at most ``timeout`` seconds) until everything written to the stream so far is in the tail;
        return whether it is. Two idle looks with a yield of the GIL between them, so a thread that has just
        returned from ``read()`` gets to store its data first."""
        deadline = time.monotonic() + timeout
        while self.thread.is_alive():
            if self._idle():
                done = self._reads_done
                time.sleep(0.0002)
                if self._idle() and self._reads_done == done:
                    return True
            elif time.monotonic() > deadline:
                return False
            else:
                time.sleep(0.0005)
        return True

    def join(self, timeout: float) -> None:
        """Wait for the thread to reach the end of the stream."""
        self.thread.join(timeout=timeout)


class PipeConnection(ABC):
    """Line I/O with a bot over a write fd (its stdin) and a read fd (its stdout), and a stderr tail.

    Subclasses implement :meth:`_kill` (kill everything the bot started and reap it), :meth:`_exit_status`
    and :meth:`_cleanup`, and may override :meth:`_read_chunk` (docker decodes stream frames there).
    """

    def __init__(self, write_fd: int, read_fd: int, limits: Limits, label: str) -> None:
        self.limits = limits
        self.label = label
        self._wfd = write_fd
        self._rfd = read_fd
        os.set_blocking(write_fd, False)
        self._rpoll = select.poll()
        self._rpoll.register(read_fd, _POLLIN)
        self._buf = bytearray()
        self._direct = True  # False when _read_chunk decodes the stream (docker attach)
        self._max = limits.max_line_bytes
        self._stderr = StderrTail(limits.stderr_cap_bytes)
        self._stderr_drain: StderrDrain | None = None
        self._closed = False
        self._eof = False
        self._close_lock = threading.Lock()
        self._spin = True
        self._pinned = False
        """Whether :meth:`pin` put the bot on one CPU with the referee (then polling only delays it)."""

    # -- the BotConnection protocol -------------------------------------------------------------------

    def send(self, line: bytes) -> None:
        """Write ``line`` (newline included) to the bot; BotTimeout if it does not read it in time."""
        if self._closed or self._eof:
            raise BotExited(self.returncode, "the connection is closed" if self._closed else "")
        try:
            n = os.write(self._wfd, line)
        except BlockingIOError:
            n = 0
        except (BrokenPipeError, ConnectionError) as exc:
            raise BotExited(self._exit_status(0.5), "it stopped reading its input") from exc
        if n < len(line):
            self._send_rest(memoryview(line)[n:])

    def _send_rest(self, view: memoryview) -> None:
        seconds = self.limits.send_timeout
        deadline = time.monotonic() + seconds
        wpoll = select.poll()
        wpoll.register(self._wfd, _POLLOUT)
        if self._rfd != self._wfd:
            wpoll.register(self._rfd, select.POLLHUP)  # stdout hung up: the bot is gone
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotTimeout(seconds, "read its input")
            for fd, events in wpoll.poll(math.ceil(remaining * 1000)):
                if fd == self._rfd and fd != self._wfd and events & select.POLLHUP:
                    raise BotExited(self._exit_status(0.5), "it closed its output")
            try:
                view = view[os.write(self._wfd, view) :]
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionError) as exc:
                raise BotExited(self._exit_status(0.5), "it stopped reading its input") from exc

    def readline(self, timeout: float) -> bytes:
        """One line from the bot, without its newline (see :class:`~sandbox.base.BotConnection`)."""
        buf = self._buf
        if not buf and self._direct and not (self._closed or self._eof):
            # Hot path (plain pipe, nothing buffered): one poll, one read, and the usual answer is
            # exactly one whole line, returned without touching the buffer.
            if not self._wait_readable(timeout):
                raise BotTimeout(timeout)
            try:
                chunk = os.read(self._rfd, READ_CHUNK)
            except BlockingIOError:
                return self._readline_slow(timeout, None)
            except OSError as exc:
                if self._closed:
                    raise BotExited(self.returncode, "the connection is closed") from exc
                raise
            if chunk and chunk.find(b"\n") == len(chunk) - 1 and len(chunk) <= self._max + 1:
                return chunk[:-1]
            return self._readline_slow(timeout, chunk)
        return self._readline_slow(timeout, None)

    def _wait_readable(self, timeout: float) -> bool:
        """Whether the bot's stdout became readable within ``timeout`` seconds: polled without sleeping
        for up to :data:`SPIN_SECONDS` while its answers come quickly, then a blocking ``poll``."""
        poll = self._rpoll.poll
        clock = time.perf_counter
        began = clock()
        ready = False
        if self._spin and not self._pinned:
            until = began + SPIN_SECONDS
            while not (ready := bool(poll(0))) and clock() < until:
                pass
        if not ready:
            ready = bool(poll(math.ceil(timeout * 1000)))
        self._spin = clock() - began < SPIN_AGAIN
        return ready

    def _readline_slow(self, timeout: float, first: bytes | None) -> bytes:
        """:meth:`readline` in general: buffered lines, partial lines, end of file, long lines."""
        buf = self._buf
        if first == b"":  # end of file, seen by the hot path
            self._eof = True
            raise BotExited(self._exit_status(1.0))
        if first:
            buf += first
        idx = buf.find(b"\n") if buf else -1
        if idx < 0:
            if self._closed or self._eof:
                raise BotExited(self.returncode, "the connection is closed" if self._closed else "")
            if len(buf) > self._max:
                buf.clear()
                raise BotOutputTooLong(self._max)
            deadline = time.monotonic() + timeout
            while True:
                chunk = self._read_chunk(deadline, timeout)
                if not chunk:
                    self._eof = True
                    raise BotExited(self._exit_status(1.0))
                if not buf and chunk.find(b"\n") == len(chunk) - 1:
                    # The usual answer: exactly one whole line in one read; no buffer copies.
                    if len(chunk) > self._max + 1:
                        raise BotOutputTooLong(self._max)
                    return chunk[:-1]
                start = len(buf)
                buf += chunk
                idx = buf.find(b"\n", start)
                if idx >= 0:
                    break
                if len(buf) > self._max:
                    buf.clear()
                    raise BotOutputTooLong(self._max)
        if idx > self._max:
            buf.clear()
            raise BotOutputTooLong(self._max)
        line = bytes(buf[:idx])
        del buf[: idx + 1]
        return line

    def _read_chunk(self, deadline: float, timeout: float) -> bytes:
        """Some bytes of the bot's stdout (``b""`` at end of file); BotTimeout after ``deadline``."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotTimeout(timeout)
            if self._rpoll.poll(math.ceil(remaining * 1000)):
                try:
                    return os.read(self._rfd, READ_CHUNK)
                except BlockingIOError:
                    continue
                except OSError as exc:
                    if self._closed:
                        raise BotExited(self.returncode, "the connection is closed") from exc
                    raise

    def has_unread(self) -> bool:
        """Whether the bot wrote something that no :meth:`readline` returned yet (a line, part of one, or
        the end of its output); never blocks (one ``poll`` with no timeout)."""
        return bool(self._buf) or (not (self._closed or self._eof) and bool(self._rpoll.poll(0)))

    def unread(self) -> bytes:
        """The bytes read from the bot but not returned by :meth:`readline` yet, raw: after a timeout,
        the part of a line it wrote without its newline (empty if it wrote nothing)."""
        return bytes(self._buf)

    def stderr_tail(self) -> str:
        """The last ``Limits.stderr_cap_bytes`` of the bot's stderr, decoded (:meth:`StderrTail.text`)."""
        return self._stderr.text()

    def stderr_bytes(self) -> bytes:
        """The last ``Limits.stderr_cap_bytes`` of the bot's stderr, raw: what the referee reads."""
        return self._stderr.data()

    @property
    def stderr_total(self) -> int:
        """How many bytes the bot wrote to stderr in all."""
        return self._stderr.total

    def close(self) -> None:
        """Kill the bot and all it started, reap it, remove its temporary files; safe to call twice."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        for step in (self._kill, self._close_fds, self._cleanup, self._join_stderr):
            try:
                step()
            except Exception:
                log.exception("closing %s: %s failed", self.label, step.__name__)

    def pin(self, cpus: set[int]) -> bool:
        """Run the bot's processes on ``cpus`` (the referee's own, :mod:`arena.play.colocate`); whether it
        could. A subclass that can name the bot's host processes implements :meth:`_bot_pids`."""
        pids = self._bot_pids()
        if not pids or not affinity.set_affinity(pids, cpus):
            return False
        self._pinned = len(cpus) == 1
        return True

    def _bot_pids(self) -> set[int]:
        """Host pids of the bot's processes now (none: it cannot be pinned)."""
        return set()

    def terminate(self) -> None:  # noqa: B027 (optional for subclasses)
        """Start stopping the bot without waiting (:meth:`close` finishes); by default nothing: the
        subclass's :meth:`close` does it all."""

    def __del__(self) -> None:
        # A safety net, not the way to do it: a connection dropped without close() would otherwise
        # leave its bot (and, under docker, its container) running until the referee's process ends.
        if not getattr(self, "_closed", True):
            log.warning("%s was garbage-collected without close(): closing it now", self.label)
            with contextlib.suppress(Exception):
                self.close()

    def __enter__(self) -> PipeConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- for subclasses -------------------------------------------------------------------------------

    @property
    @abstractmethod
    def pid(self) -> int | None:
        """The host pid of the bot's outermost process (bwrap's, the container's init), if any."""

    @property
    @abstractmethod
    def returncode(self) -> int | None:
        """The bot's exit status once known (negative: killed by that signal), else ``None``."""

    @abstractmethod
    def _exit_status(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for the bot to exit; its status, or ``None`` if it still runs."""

    @abstractmethod
    def _kill(self) -> None:
        """SIGKILL everything the bot started and reap it."""

    @abstractmethod
    def _cleanup(self) -> None:
        """Remove what the runner made for this bot (temporary folders, cgroups, containers)."""

    def _close_fds(self) -> None:
        for fd in (self._wfd, self._rfd):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _join_stderr(self) -> None:
        if self._stderr_drain is not None:
            self._stderr_drain.join(timeout=2.0)

    def settle_stderr(self, timeout: float = 0.2) -> bool:
        """Wait until what the bot has written to stderr so far is in the tail (see
        :meth:`StderrDrain.settle`): the referee calls it before it files a game's stderr."""
        return self._stderr_drain.settle(timeout) if self._stderr_drain is not None else True

    def _start_stderr_fd(self, fd: int) -> None:
        """Drain stderr from a pipe fd (which the draining thread closes at end of file)."""
        self._stderr_drain = StderrDrain(
            lambda: os.read(fd, READ_CHUNK),
            self._stderr,
            lambda: os.close(fd),
            f"stderr {self.label}",
            fileno=lambda: fd,
        )


def _status_from_waitid(result: os.waitid_result) -> int:
    if result.si_code == os.CLD_EXITED:
        return result.si_status
    return -result.si_status


class ProcessConnection(PipeConnection):
    """A bot started as a child process of ours (the ``process`` and ``bwrap`` runners).

    Exit is watched through a pidfd and peeked with ``waitid(WNOWAIT)``, so the child stays unreaped (its
    pid and process group cannot be reused) until :meth:`close` has killed the group and its cgroup.
    """

    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        write_fd: int,
        read_fd: int,
        stderr_fd: int,
        limits: Limits,
        label: str,
        cgroup: BotCgroup | None = None,
        temp_dirs: tuple[Path, ...] = (),
    ) -> None:
        super().__init__(write_fd, read_fd, limits, label)
        self._proc = proc
        self._pidfd = os.pidfd_open(proc.pid)
        self._status: int | None = None
        self._kids: list[int] | None = None
        """pidfds of the direct children, once :meth:`terminate` (or :meth:`close`) has signalled them."""
        self.cgroup = cgroup
        self._temp_dirs = temp_dirs
        self._start_stderr_fd(stderr_fd)

    @property
    def pid(self) -> int:
        """The host pid of the process we started (for bwrap: the outer ``bwrap``)."""
        return self._proc.pid

    def _bot_pids(self) -> set[int]:
        if self._closed or self._kids is not None:
            return set()
        if self.cgroup is not None:
            return self.cgroup.pids()
        return affinity.process_tree(self._proc.pid)

    @property
    def returncode(self) -> int | None:
        """The exit status once known (never reaps the child before :meth:`close`)."""
        if self._status is None and not self._closed:
            self._peek()
        return self._status

    def _peek(self) -> None:
        with contextlib.suppress(ChildProcessError, OSError):
            res = os.waitid(os.P_PIDFD, self._pidfd, os.WEXITED | os.WNOWAIT | os.WNOHANG)
            if res is not None:
                self._status = _status_from_waitid(res)

    def _exit_status(self, timeout: float) -> int | None:
        if self._status is None and not self._closed:
            pidpoll = select.poll()
            pidpoll.register(self._pidfd, select.POLLIN)
            pidpoll.poll(math.ceil(timeout * 1000))
            self._peek()
        return self._status

    def terminate(self) -> None:
        """SIGKILL the bot and everything it started, without waiting for them (:meth:`close` then reaps
        them): a referee stopping a table's seats signals them all first, then waits for each."""
        with self._close_lock:
            if self._closed or self._kids is not None:
                return
            self._signal()

    def _signal(self) -> None:
        # Children first, as pidfds (exact processes): for bwrap this is the pid namespace's init, whose
        # death takes the whole namespace down; waiting for it means the namespace is empty.
        self._kids = kids = _child_pidfds(self._proc.pid)
        # The leader is not reaped yet, so its pid and process group id are still ours.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._proc.pid, signal.SIGKILL)
        for fd in (self._pidfd, *kids):
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(fd, signal.SIGKILL)
        if self.cgroup is not None:
            self.cgroup.send_kill()  # no waiting here: _cleanup's kill waits, once every seat is signalled

    def _kill(self) -> None:
        if self._kids is None:
            self._signal()
        kids = self._kids or []
        try:
            code = self._proc.wait(timeout=10)
            if self._status is None:
                self._status = code
        except subprocess.TimeoutExpired:
            log.error("%s: pid %d did not die within 10 s of SIGKILL", self.label, self._proc.pid)
        os.close(self._pidfd)
        for fd in kids:
            kid_poll = select.poll()
            kid_poll.register(fd, select.POLLIN)
            if not kid_poll.poll(10_000):
                log.error("%s: a child of pid %d did not die within 10 s of SIGKILL", self.label, self.pid)
            os.close(fd)

    def _cleanup(self) -> None:
        if self.cgroup is not None:
            self.cgroup.kill()
            self.cgroup.remove()
        for d in self._temp_dirs:
            remove_tree(d)


def _child_pidfds(pid: int) -> list[int]:
    """pidfds of the direct children of ``pid`` (each checked to still be its child once opened)."""
    fds: list[int] = []
    for kid in affinity.children(pid) or ():
        try:
            fd = os.pidfd_open(kid)
        except OSError:
            continue
        try:
            ppid = int(Path(f"/proc/{kid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            ppid = -1
        if ppid == pid:
            fds.append(fd)
        else:  # gone, and the pid already reused: not ours
            os.close(fd)
    return fds


def remove_tree(path: Path) -> None:
    """Delete a folder we made, even where its contents were left unwritable."""

    def fix(func: Callable[..., object], p: str, exc_info: tuple[type, BaseException, object]) -> None:
        if isinstance(exc_info[1], FileNotFoundError):
            return  # gone meanwhile (another sweep got there first): nothing left to delete
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(p), 0o700)
            if func in (
                os.unlink,
                os.rmdir,
                os.remove,
            ):  # retry removals only: os.open/scandir need more args
                func(p)

    shutil.rmtree(path, onerror=fix)
