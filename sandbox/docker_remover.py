"""Removes closed bots' containers in the background, off the match's critical path.

Removing a container (``docker rm``: dockerd and containerd unmount its root, delete its folders and its
cgroup) takes tens of milliseconds per container, and a table's four seats queue in dockerd. The bot is
doomed by then: :meth:`sandbox.docker.DockerConnection.close` sends SIGKILL to every process of the
container (those its pids cgroup lists, then its first process, the pid namespace's init, with which any
process forked meanwhile dies) and closes its pipes itself,
synchronously, and only then hands the container, the pidfd of that process and its staged folder
(deleting it took tens of milliseconds more while dockerd tore the container down) to this process's
:class:`Remover` (one daemon thread, a queue): ``close()`` returns without waiting for any of it. A
process with SIGKILL pending runs no more of its code; the kernel's tearing down of four interpreters
took 2–14 ms after SIGKILL, all of it on the match's critical path when ``close`` waited for it. The
remover waits for the pidfd (:func:`wait_gone`, at most :data:`KILL_WAIT` seconds) before it asks
dockerd to remove the container (forcibly: dockerd kills whatever is left).

Guarantees: a container handed over is removed soon after (tried :data:`ATTEMPTS` times, as the
connection did before); the queue is bounded (:data:`MAX_PENDING`: when it is full, :meth:`Remover.submit`
refuses and the connection removes the container itself, as before), so a worker playing matches back
to back never accumulates containers; a container the remover gave up on is remembered
(:meth:`Remover.failed`) and retried by the runner's sweep and by :func:`flush` (a remover that died
with its worker loses nothing either: the sweep finds a dead owner's containers by their labels);
:func:`flush` (run by :func:`sandbox.docker_pool.close_pools`, hence at exit) waits for the queue to be
empty, so tests and short command-line runs leave nothing behind. A forked child has a remover of its
own (never the parent's queue).
"""

from __future__ import annotations

import collections
import logging
import os
import select
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import docker.errors

from sandbox.connection import remove_tree

log = logging.getLogger(__name__)

ATTEMPTS = 3
"""Tries at removing a container before it is left to the sweep (gVisor answers "is zombie and can not
be killed" for a while after its sandbox died)."""
RETRY_PAUSE = 0.5
"""Seconds between two tries."""
MAX_PENDING = 16
"""Containers queued or being removed, at most (four tables of four seats): beyond, the caller removes."""
FLUSH_TIMEOUT = 60.0
"""Seconds :func:`flush` waits at most."""
KILL_WAIT = 5.0
"""Seconds a killed container's first process is waited for before its container is removed."""


def wait_gone(pidfd: int, timeout: float = KILL_WAIT) -> bool:
    """Whether the process of ``pidfd`` exited within ``timeout`` seconds. For a container's first
    process (its pid namespace's init) that means every process of the container has: the kernel lets the
    init exit only after all the others."""
    return bool(select.select([pidfd], [], [], timeout)[0])


def remove(client: Any, container_id: str, attempts: int = ATTEMPTS) -> bool:
    """Remove ``container_id`` (forcibly, with its anonymous volumes), trying ``attempts`` times; whether
    it is gone (removed now or already)."""
    for attempt in range(attempts):
        try:
            client.api.remove_container(container_id, force=True, v=True)
            return True
        except docker.errors.NotFound:
            return True
        except docker.errors.APIError as exc:  # "is zombie and can not be killed" (gVisor, for a while)
            if attempt == attempts - 1:
                log.warning("could not remove bot container %s (%s)", container_id[:12], exc)
            else:
                time.sleep(RETRY_PAUSE)
        except Exception as exc:  # the engine went away: the sweep (or the next try) removes it
            log.warning("could not remove bot container %s (%s)", container_id[:12], exc)
            return False
    return False


class Remover:
    """One background thread removing the containers :meth:`submit` hands it, in order."""

    def __init__(self, max_pending: int = MAX_PENDING) -> None:
        self.max_pending = max_pending
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._queue: collections.deque[tuple[Any, str, tuple[Path, ...], int | None]] = collections.deque()
        self._in_progress = 0
        self._failed: dict[str, Any] = {}
        self._thread: threading.Thread | None = None
        self.removed = 0
        """Containers removed by the thread so far (for tests and the benchmark)."""

    def submit(
        self, client: Any, container_id: str, folders: Iterable[Path] = (), pidfd: int | None = None
    ) -> bool:
        """Queue ``container_id`` (a stopped container, or a killed one with the ``pidfd`` of its first
        process: the remover waits for it to exit, then closes it) for removal through ``client``, then its
        staged ``folders`` (deleted whether or not the container could be removed: nothing of the bot runs
        any more); False (nothing queued, ``pidfd`` still the caller's) when :attr:`max_pending`
        containers are queued or being removed."""
        with self._lock:
            if len(self._queue) + self._in_progress >= self.max_pending:
                return False
            self._queue.append((client, container_id, tuple(folders), pidfd))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="docker remover", daemon=True)
                self._thread.start()
            self._changed.notify_all()
        return True

    def pending(self) -> int:
        """Containers queued or being removed now."""
        with self._lock:
            return len(self._queue) + self._in_progress

    def failed(self) -> dict[str, Any]:
        """The containers the thread gave up on (id: client), for the sweep to retry."""
        with self._lock:
            return dict(self._failed)

    def leave(self, client: Any, container_id: str) -> None:
        """Note ``container_id`` as not removed (someone else's try failed): the sweep retries it."""
        with self._lock:
            self._failed[container_id] = client

    def forget(self, container_id: str) -> None:
        """Drop ``container_id`` from :meth:`failed` (it has been removed)."""
        with self._lock:
            self._failed.pop(container_id, None)

    def flush(self, timeout: float = FLUSH_TIMEOUT) -> bool:
        """Wait until nothing is queued or being removed (at most ``timeout`` seconds), then try once more
        the containers given up on; whether the queue emptied."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._queue or self._in_progress:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(left)
            failed = list(self._failed.items())
        for container_id, client in failed:
            if remove(client, container_id, attempts=1):
                self.forget(container_id)
        return True

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._queue:
                    self._changed.wait()
                client, container_id, folders, pidfd = self._queue.popleft()
                self._in_progress += 1
            try:
                if pidfd is not None:
                    try:
                        wait_gone(pidfd)  # if it did not exit, the forced removal kills it
                    finally:
                        os.close(pidfd)
                gone = remove(client, container_id)
            except BaseException:  # never lose the container: the sweep retries it
                gone = False
                log.exception("removing bot container %s failed", container_id[:12])
            for folder in folders:  # a leftover is swept by sandbox.botdir.sweep once we are gone
                try:
                    remove_tree(folder)
                except Exception:
                    log.exception("removing %s failed", folder)
            with self._lock:
                self._in_progress -= 1
                if gone:
                    self.removed += 1
                else:
                    self._failed[container_id] = client
                self._changed.notify_all()


_remover: Remover | None = None
_remover_lock = threading.Lock()


def remover() -> Remover:
    """This process's remover (a forked child makes its own: the parent's queue is the parent's)."""
    global _remover
    with _remover_lock:
        if _remover is None or _remover._pid != os.getpid():
            _remover = Remover()
        return _remover


def flush(timeout: float = FLUSH_TIMEOUT) -> bool:
    """Wait for this process's remover to empty its queue (see :meth:`Remover.flush`)."""
    with _remover_lock:
        current = _remover if _remover is not None and _remover._pid == os.getpid() else None
    return current.flush(timeout) if current is not None else True


def _after_fork_in_child() -> None:
    global _remover, _remover_lock
    _remover = None  # the parent's queue and thread are the parent's
    _remover_lock = threading.Lock()  # maybe held by a parent's thread at the fork


os.register_at_fork(after_in_child=_after_fork_in_child)
