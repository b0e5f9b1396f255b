"""A bounded pool of started, waiting containers for the docker runner (fifo I/O mode).

Starting a container (``docker start``: runc sets up the namespaces, mounts, cgroups and seccomp) is most
of a docker bot's start-up, and four seats started at once queue in dockerd. So the runner keeps a few
containers already started for the limits and image it was last asked for: each runs only a shell of
the runtime image (:data:`WAIT_COMMAND`), waiting on its stdin fifo for one line, the bot's command. Taking
one copies the bot into its (still empty, already bound) ``/bot`` and writes the command: the shell
``exec``\\ s the bot, which then reads its ``hello`` from the same fifo. Nothing of any bot ever ran in a
waiting container, and a container is taken once: it serves one bot for one match (or one series), then
the connection kills it and hands it to the background remover as usual.

Bounded (:data:`POOL_ENV`, default :data:`DEFAULT_SIZE` containers per process, all keys together);
refilled by one background thread once no bot of this process has been in play for :data:`QUIET`
seconds (so that starting containers never takes CPU from bots that are thinking, nor from the next
match's own starts: the refill runs only in a pause between matches); idle containers older than :data:`MAX_IDLE` seconds
are replaced; :func:`close_pools` (run at exit) removes them all and flushes the background remover
(:mod:`sandbox.docker_remover`). A killed worker's waiting containers carry its owner label and staged
folders like any bot's, so the runner's sweep of leftovers and :func:`sandbox.botdir.sweep` remove them. A forked child never takes its parent's containers (a pool
belongs to the process that made it).
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import shlex
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any

from sandbox import docker_remover

log = logging.getLogger(__name__)

POOL_ENV = "UNO_ARENA_DOCKER_POOL"
DEFAULT_SIZE = 4
"""One four-seat table (the largest common one): enough that a table's seats all start warm."""
QUIET = 0.2
"""Seconds with no bot of the process in play before the pool refills: matches played back to back (the
next one starts within milliseconds) then never wait for a refill in progress, a worker with a moment
between matches does refill."""
MAX_IDLE = 600.0
"""Seconds a container may wait in the pool before it is replaced by a fresh one."""

#: The waiting container's command: its fifos become stdin/stdout (stdout first: the host already reads
#: it), then one line of stdin is the bot's command, shell-quoted by :func:`command_line`.
WAIT_COMMAND = ["/bin/sh", "-c", 'exec >/io/out </io/in && IFS= read -r line && eval "exec $line"']


def command_line(command: tuple[str, ...] | list[str]) -> bytes:
    """The line a waiting container reads: the bot's command, each word quoted for ``sh``."""
    return (" ".join(shlex.quote(word) for word in command) + "\n").encode()


def fits_one_line(command: tuple[str, ...] | list[str]) -> bool:
    """Whether :func:`command_line` can carry ``command`` (no newline or NUL in it; else: no pool)."""
    return not any("\n" in word or "\0" in word for word in command)


def pool_size() -> int:
    """The pool's bound from :data:`POOL_ENV` (``0`` turns the pool off)."""
    raw = os.environ.get(POOL_ENV, "").strip()
    if not raw:
        return DEFAULT_SIZE
    try:
        return max(0, int(raw))
    except ValueError:
        log.warning("%s=%r is not a number: using %d", POOL_ENV, raw, DEFAULT_SIZE)
        return DEFAULT_SIZE


class ContainerPool:
    """Waiting connections by key (image, limits, runtime): :meth:`take` one or None, :meth:`want`
    asks the filler thread to bring a key back to ``per_key`` waiting containers (within ``size`` in all).

    ``make(key)`` creates and starts one waiting connection (it has ``close()`` and ``has_unread()``).
    """

    def __init__(self, size: int, make: Callable[[Hashable], Any]) -> None:
        self.size = size
        self._make = make
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._ready: dict[Hashable, list[tuple[float, Any]]] = {}
        self._wanted: dict[Hashable, int] = {}
        self._wake = threading.Condition(self._lock)
        self._closed = False
        self._filler: threading.Thread | None = None
        self._busy = 0
        """Bots of this process in play (taken or started cold, not closed yet): the filler waits for 0."""
        self._idle_since = time.monotonic()
        self.made = 0
        """Containers created for the pool so far (for tests and the benchmark)."""

    def waiting(self, key: Hashable | None = None) -> int:
        """How many containers wait (for ``key``, or in all)."""
        with self._lock:
            if key is not None:
                return len(self._ready.get(key, []))
            return sum(len(v) for v in self._ready.values())

    def full(self) -> bool:
        """Whether every key asked for has its containers waiting (or the pool cannot hold more)."""
        with self._lock:
            total = sum(len(v) for v in self._ready.values())
            return total >= self.size or all(
                len(self._ready.get(key, [])) >= want for key, want in self._wanted.items()
            )

    def take(self, key: Hashable) -> Any | None:
        """A waiting container's connection for ``key`` (never one that died or idled too long), or None."""
        stale = []
        got = None
        with self._lock:
            ready = self._ready.get(key, [])
            while ready:
                since, conn = ready.pop(0)
                if time.monotonic() - since > MAX_IDLE or _dead(conn):
                    stale.append(conn)
                    continue
                got = conn
                break
        for conn in stale:
            _close(conn)
        return got

    def hold(self) -> Callable[[], None]:
        """Note a bot in play (the filler waits until none is: a refill never competes with a match for
        the CPU); returns the function to call once it is closed (idempotent)."""
        with self._lock:
            self._busy += 1
        done = threading.Event()

        def release() -> None:
            with self._lock:
                if done.is_set():
                    return
                done.set()
                self._busy -= 1
                if self._busy == 0:
                    self._idle_since = time.monotonic()
                    self._wake.notify_all()

        return release

    def want(self, key: Hashable, per_key: int) -> None:
        """Keep ``per_key`` containers waiting for ``key`` (at most the pool's size; other keys make room:
        the most recently wanted key wins)."""
        if self.size <= 0:
            return
        with self._lock:
            if self._closed:
                return
            self._wanted.pop(key, None)
            self._wanted[key] = min(per_key, self.size)
            if self._filler is None:
                self._filler = threading.Thread(target=self._fill, name="docker pool", daemon=True)
                self._filler.start()
            self._wake.notify()

    def _next(self) -> tuple[Hashable | None, list[Any]]:
        """(A key to make one container for, containers to drop to make room); waits until there is work."""
        with self._lock:
            while True:
                if self._closed:
                    return None, []
                if self._busy:
                    self._wake.wait()
                    continue
                quiet = time.monotonic() - self._idle_since
                if quiet < QUIET:
                    self._wake.wait(QUIET - quiet)
                    continue
                evict: list[Any] = []
                total = sum(len(v) for v in self._ready.values())
                keys = list(self._wanted)  # least recently wanted first
                for i in range(len(keys) - 1, -1, -1):  # the most recently wanted key first
                    key = keys[i]
                    if len(self._ready.get(key, [])) >= self._wanted[key]:
                        continue
                    for older in keys[:i]:  # room only from keys wanted before it
                        while total >= self.size and self._ready.get(older):
                            evict.append(self._ready[older].pop(0)[1])
                            total -= 1
                    if total < self.size:
                        return key, evict
                if evict:
                    return None, evict
                self._wake.wait()

    def _fill(self) -> None:
        while True:
            key, evict = self._next()
            for conn in evict:
                _close(conn)
            if key is None:
                if self._closed:
                    return
                continue
            try:
                conn = self._make(key)
            except Exception:
                log.exception("the docker pool could not start a waiting container")
                with self._lock:
                    self._wanted.pop(key, None)  # no retry loop: the next start asks again
                continue
            with self._lock:
                self.made += 1
                if self._closed:
                    keep = False
                else:
                    self._ready.setdefault(key, []).append((time.monotonic(), conn))
                    keep = True
            if not keep:
                _close(conn)

    def close(self) -> None:
        """Remove every waiting container and stop the filler (idempotent). In a forked child the
        containers are the parent's: they are forgotten, not removed."""
        with self._lock:
            self._closed = True
            conns = [c for ready in self._ready.values() for _, c in ready]
            self._ready.clear()
            self._wanted.clear()
            self._wake.notify_all()
            filler = self._filler
        if filler is not None and filler is not threading.current_thread():
            filler.join(timeout=60)
        if os.getpid() != self._pid:
            return
        threads = [threading.Thread(target=_close, args=(conn,), daemon=True) for conn in conns]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)


def _dead(conn: Any) -> bool:
    """Whether a waiting container has ended (its stdout fifo hung up) or wrote something (it must not)."""
    try:
        return bool(conn.has_unread())
    except Exception:
        return True


def _close(conn: Any) -> None:
    with contextlib.suppress(Exception):
        conn.close()


_pools: dict[Hashable, ContainerPool] = {}
_pools_lock = threading.Lock()


def pool_for(owner: Hashable, size: int, make: Callable[[Hashable], Any]) -> ContainerPool:
    """This process's pool for ``owner`` (one per runner class and engine), made on first use."""
    with _pools_lock:
        pool = _pools.get(owner)
        if pool is not None and pool._pid != os.getpid():  # inherited through fork: the parent's
            pool = None
        if pool is None:
            pool = ContainerPool(size, make)
            _pools[owner] = pool
        return pool


def close_pools() -> None:
    """Remove every waiting container of this process, and wait for the background remover to remove
    every closed one (:func:`sandbox.docker_remover.flush`); registered to run at exit."""
    with _pools_lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.close()
    docker_remover.flush()


atexit.register(close_pools)
