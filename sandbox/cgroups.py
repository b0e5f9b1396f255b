"""Per-bot control groups: exact tracking and killing of every process a bot starts, plus memory,
pids and CPU limits, on whichever cgroup hierarchies this machine lets us write.

Hand-written because no maintained Python library covers cgroup v1 *and* v2 (``cgroupspy`` is v1-only
and unmaintained; ``systemd-run --scope`` needs a running systemd, which containers and CI VMs lack).
What is used:

* cgroup v2 (pure, or the ``unified`` mount of a hybrid set-up): membership, ``cgroup.kill`` (Linux 5.14+)
  and, where the parent delegates them, ``memory.max``/``memory.swap.max``/``pids.max``/``cpu.max``;
* cgroup v1 ``pids``, ``memory`` and ``cpu`` hierarchies: ``pids.max``, ``memory.limit_in_bytes``
  (+ ``memory.memsw.limit_in_bytes``), ``cpu.cfs_quota_us``.

A process joins by writing its own pid to every ``cgroup.procs`` before it execs the bot (see
:func:`sandbox.spawn.launch_command`), so nothing the bot forks can be outside the group.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from sandbox.base import Limits

PARENT_NAME = "uno-arena"
_V1_CONTROLLERS = frozenset({"pids", "memory", "cpu", "cpuacct"})


@dataclass(frozen=True)
class _Hierarchy:
    """A mounted cgroup hierarchy: its mount point, version, v1 controllers, our own path in it."""

    mount: Path
    version: int
    controllers: frozenset[str]
    own_path: str

    @property
    def parent(self) -> Path:
        return self.mount / self.own_path.lstrip("/") / PARENT_NAME


def _hierarchies() -> list[_Hierarchy]:
    """The cgroup hierarchies this process belongs to that matter here (v2, and v1 pids/memory/cpu)."""
    own: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            hid, ctrls, path = line.split(":", 2)
            own["" if hid == "0" else ctrls] = path
    found: list[_Hierarchy] = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mountinfo").read_text().splitlines():
            left, _, right = line.partition(" - ")
            fstype, _source, super_opts = [*right.split(" "), "", ""][:3]
            mount = Path(left.split(" ")[4])
            if fstype == "cgroup2" and "" in own:
                found.append(_Hierarchy(mount, 2, frozenset(), own[""]))
            elif fstype == "cgroup":
                wanted = frozenset(o for o in super_opts.split(",") if o in _V1_CONTROLLERS)
                key = next((k for k in own if k and set(k.split(",")) == set(wanted)), None)
                if wanted & {"pids", "memory", "cpu"} and key is not None:
                    found.append(_Hierarchy(mount, 1, wanted, own[key]))
    return found


def _write(path: Path, value: str) -> bool:
    try:
        path.write_text(value)
    except OSError:
        return False
    return True


@dataclass
class BotCgroup:
    """One bot's cgroup in every writable hierarchy; create with :meth:`create`."""

    dirs: list[Path] = field(default_factory=list)
    limited: set[str] = field(default_factory=set)
    """What is actually limited here: a subset of ``{"memory", "pids", "cpu"}``."""
    killable: bool = False
    """Whether ``cgroup.kill`` exists (else :meth:`kill` signals each listed pid)."""

    @classmethod
    def create(cls, limits: Limits) -> BotCgroup | None:
        """Make the bot's cgroups and set its limits; ``None`` when no hierarchy is writable."""
        group = cls()
        name = f"bot-{uuid.uuid4().hex[:16]}"
        for h in _hierarchies():
            try:
                h.parent.mkdir(exist_ok=True)
                path = h.parent / name
                path.mkdir()
            except OSError:
                continue
            group.dirs.append(path)
            group._apply_limits(path, h, limits)
            if (path / "cgroup.kill").exists():
                group.killable = True
        return group if group.dirs else None

    def _apply_limits(self, path: Path, h: _Hierarchy, limits: Limits) -> None:
        mem = str(limits.memory_mb * 1024 * 1024)
        if h.version == 2:
            if _write(path / "memory.max", mem):
                _write(path / "memory.swap.max", "0")
                self.limited.add("memory")
            if _write(path / "pids.max", str(limits.pids)):
                self.limited.add("pids")
            if _write(path / "cpu.max", f"{int(limits.cpus * 100_000)} 100000"):
                self.limited.add("cpu")
            return
        if "pids" in h.controllers and _write(path / "pids.max", str(limits.pids)):
            self.limited.add("pids")
        if "memory" in h.controllers and _write(path / "memory.limit_in_bytes", mem):
            _write(path / "memory.memsw.limit_in_bytes", mem)
            self.limited.add("memory")
        if (
            "cpu" in h.controllers
            and _write(path / "cpu.cfs_period_us", "100000")
            and _write(path / "cpu.cfs_quota_us", str(int(limits.cpus * 100_000)))
        ):
            self.limited.add("cpu")

    @property
    def procs_files(self) -> list[Path]:
        """The ``cgroup.procs`` files a starting bot writes its pid into."""
        return [d / "cgroup.procs" for d in self.dirs]

    def pids(self) -> set[int]:
        """Every process currently in the group."""
        found: set[int] = set()
        for d in self.dirs:
            found |= cgroup_pids(d)
        return found

    def send_kill(self) -> None:
        """SIGKILL every process in the group without waiting for them to die (``cgroup.kill``, else each
        pid listed now)."""
        for d in self.dirs:
            _write(d / "cgroup.kill", "1")
        if not self.killable:
            for pid in self.pids():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

    def kill(self) -> None:
        """SIGKILL every process in the group (``cgroup.kill``, or each pid listed, until none are left)."""
        self.send_kill()
        deadline = time.monotonic() + 2.0
        while (left := self.pids()) and time.monotonic() < deadline:
            for pid in left:
                # Only pids listed in our own cgroup: a listed pid cannot be reused while listed.
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)

    def remove(self) -> None:
        """Remove the group's directories (retrying briefly while the last processes exit)."""
        deadline = time.monotonic() + 2.0
        for d in self.dirs:
            while True:
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.005)


def cgroup_pids(folder: Path) -> set[int]:
    """The processes listed in the cgroup ``folder`` now (none if it cannot be read)."""
    with contextlib.suppress(OSError, ValueError):
        return {int(p) for p in (folder / "cgroup.procs").read_text().split()}
    return set()


def cgroup_dir_of(pid: int, controller: str) -> Path | None:
    """The folder of ``pid``'s cgroup in the v1 hierarchy of ``controller``, else in the v2 hierarchy;
    ``None`` if the process is gone, is in a root cgroup, or no such hierarchy is mounted (read through
    our own mount table, so the process must be in our cgroup namespace, as containers of the host's
    engine are). Resolve it while the process surely runs: a pid can be reused once it has exited."""
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None
    groups: dict[str, str] = {}
    for line in lines:
        _hid, ctrls, path = line.split(":", 2)
        for ctrl in ctrls.split(",") if ctrls else [""]:
            groups[ctrl] = path
    unified = None
    for line in mounts:
        left, _, right = line.partition(" - ")
        fstype, _source, options = [*right.split(" "), "", ""][:3]
        mount = Path(left.split(" ")[4])
        if fstype == "cgroup" and controller in options.split(",") and controller in groups:
            return mount / groups[controller].lstrip("/") if groups[controller] != "/" else None
        if fstype == "cgroup2" and groups.get("", "/") != "/":
            unified = mount / groups[""].lstrip("/")
    return unified


def cpu_seconds_used(folder: Path) -> float | None:
    """CPU seconds used so far by every process in the cgroup ``folder`` (v1 ``cpuacct.usage``, or v2
    ``cpu.stat``; see :func:`cgroup_dir_of`); ``None`` once it is gone."""
    with contextlib.suppress(OSError, ValueError):
        if (folder / "cpuacct.usage").exists():
            return int((folder / "cpuacct.usage").read_text()) / 1e9
        for line in (folder / "cpu.stat").read_text().splitlines():
            if line.startswith("usage_usec "):
                return int(line.split()[1]) / 1e6
    return None
