"""A bot's host processes (read from ``/proc``) and their CPU affinity: the referee keeps a game of
quick bots on one CPU (:mod:`arena.play.colocate`), where a pipe round trip costs a context switch
instead of a wake-up of another CPU; closing a bot signals its children (:mod:`sandbox.connection`).

Only processes we can name are touched: the pids of the bot's cgroup, or the tree under the process we
started (every process of a pid namespace descends from its init, orphans included). A pid listed here
may exit and, in theory, be reused before it is set: the worst outcome is another process's CPU affinity
changed, never its rights, and the referee restores the bots' affinity anyway.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable


def children(pid: int) -> set[int] | None:
    """The direct children of ``pid`` now (``/proc/<pid>/task/*/children``), or ``None`` if it is gone."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    kids: set[int] = set()
    for task in tasks:
        with contextlib.suppress(OSError, ValueError), open(f"/proc/{pid}/task/{task}/children") as f:
            kids.update(int(k) for k in f.read().split())
    return kids


def process_tree(pid: int) -> set[int]:
    """``pid`` and every process below it, now (read from ``/proc``); empty if ``pid`` is gone."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        if p in found or (kids := children(p)) is None:
            continue
        found.add(p)
        todo.extend(kids)
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
