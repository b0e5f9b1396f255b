"""One CPU for a game of quick bots: the referee's thread and its bots' processes on the same CPU.

A game is a relay: the referee asks, one bot thinks, the referee applies its answer and asks the next. On
a machine with several CPUs the scheduler puts a woken bot on an idle CPU, so every request and every
answer wakes a halted CPU, and on a virtual machine that costs a trip through the host (a raw pipe round
trip measured 50 µs between two CPUs, 6 µs on one, docs/sandbox.md). Nothing runs in parallel in a relay,
so one CPU loses nothing: a version test's series of two greedy bots played about twice the games per
second on one CPU, and used half the CPU a decision.

The bots start unpinned (their interpreters boot in parallel) and are pinned once they are ready. An
answer that takes longer than :data:`THINK_SECONDS` unpins the game, until :data:`REPIN_AFTER` quick
answers in a row: a bot that thinks gains nothing from a cheaper round trip, and on one shared CPU a bot
that kept busy between its turns would slow the thinking of the others. Simultaneous decisions (slaps)
just share the CPU for their few microseconds.

The CPU: one no other game of this machine holds (a lock file per CPU, :data:`LOCK_DIR`, held while the
game is pinned: the games of every worker process on the machine spread over its CPUs; the lock goes
with the process that dies), the one the referee runs on now if it is free. When every CPU is held the
game plays unpinned.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

THINK_SECONDS = 0.002
"""An answer slower than this (the referee's send to answer) unpins the game."""
REPIN_AFTER = 32
"""Quick answers in a row after which an unpinned game is pinned again (a bot's first answers are often
slow once: its caches are cold; a bot that thinks keeps the game unpinned)."""

LOCK_DIR = Path(os.environ.get("UNO_ARENA_CPU_LOCKS") or Path(tempfile.gettempdir()) / "uno-arena-cpus")
"""Where the per-CPU lock files are (one machine's worker processes must share it: the default is)."""


def current_cpu() -> int | None:
    """The CPU the calling thread last ran on (``/proc/thread-self/stat``, field 39), if readable."""
    try:
        with open("/proc/thread-self/stat") as f:
            stat = f.read()
        return int(stat.rsplit(")", 1)[1].split()[36])
    except (OSError, IndexError, ValueError):
        return None


def claim_cpu(allowed: set[int]) -> tuple[int, int] | None:
    """A CPU of ``allowed`` that no other pinned game holds, and the open lock file that holds it (close it
    to give the CPU back); the one this thread runs on if it is free; ``None`` when there is no choice to
    make (one CPU) or every CPU is held."""
    if len(allowed) < 2:
        return None
    here = current_cpu()
    order = sorted(allowed, key=lambda c: (c != here, c))
    try:
        LOCK_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    for cpu in order:
        try:
            fd = os.open(LOCK_DIR / str(cpu), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        return cpu, fd
    return None


class Colocation:
    """The pinning of one game: :meth:`pin` once its bots are ready, :meth:`release` when a bot thinks
    or the game ends (idempotent). Connections without a ``pin`` method (or that cannot pin) are left
    where they are."""

    def __init__(self, conns: Iterable[Any]) -> None:
        self.conns = [c for c in conns if c is not None]
        self.mask: set[int] | None = None
        """The referee thread's CPUs before :meth:`pin` (restored by :meth:`release`); None: not pinned."""
        self.quick = 0
        """Quick answers in a row (:meth:`answered`)."""
        self.possible = True
        """False once :meth:`pin` found nothing to do (one CPU, no bots): :meth:`answered` stops trying."""
        self._lock: int | None = None

    def answered(self, seconds: float) -> None:
        """Note an answer that took ``seconds``: a slow one unpins the game, :data:`REPIN_AFTER` quick
        ones in a row pin it again."""
        if seconds > THINK_SECONDS:
            self.quick = 0
            if self.mask is not None:
                self.release()
            return
        self.quick += 1
        if self.mask is None and self.possible and self.quick >= REPIN_AFTER:
            self.pin()

    def pin(self) -> bool:
        """Move the referee's thread and every bot to one CPU; whether it did."""
        if self.mask is not None:
            return False
        mask = os.sched_getaffinity(0)
        if len(mask) < 2 or not self.conns:
            self.possible = False
            return False
        claimed = claim_cpu(mask)
        if claimed is None:  # every CPU is another game's now
            return False
        cpu, self._lock = claimed
        os.sched_setaffinity(0, {cpu})
        self.mask = mask
        self._pin_bots({cpu})
        return True

    def release(self) -> None:
        """Give the referee's thread and the bots back the CPUs the referee had before :meth:`pin`."""
        mask, self.mask = self.mask, None
        if mask is None:
            return
        lock, self._lock = self._lock, None
        if lock is not None:
            os.close(lock)
        os.sched_setaffinity(0, mask)
        self._pin_bots(mask)

    def _pin_bots(self, cpus: set[int]) -> None:
        for conn in self.conns:
            pin = getattr(conn, "pin", None)
            if pin is not None:
                with contextlib.suppress(Exception):  # a bot that cannot be pinned plays where it is
                    pin(cpus)
