"""CPU affinity of a bot's processes: the referee keeps a game of quick bots on one CPU
(:mod:`arena.play.colocate`), where a pipe round trip costs a context switch instead of a wake-up of
another CPU.

Only processes we can name are touched: the pids of the bot's cgroup, or the tree under the process we
started (every process of a pid namespace descends from its init, orphans included). A pid listed here
may exit and, in theory, be reused before it is set: the worst outcome is another process's CPU affinity
changed, never its rights, and the referee restores the bots' affinity anyway.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable


def process_tree(pid: int) -> set[int]:
    """``pid`` and every process below it, now (read from ``/proc``); empty if ``pid`` is gone."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        if p in found:
            continue
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        found.add(p)
        for task in tasks:
            with contextlib.suppress(OSError, ValueError), open(f"/proc/{p}/task/{task}/children") as f:
                todo.extend(int(k) for k in f.read().split())
    return found


def set_affinity(pids: Iterable[int], cpus: set[int]) -> int:
    """Set every thread of ``pids`` to run on ``cpus``; the number of threads set."""
    done = 0
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            with contextlib.suppress(OSError, ValueError):
                os.sched_setaffinity(int(tid), cpus)
                done += 1
    return done
