"""Staging a bot's folder: a private, world-readable copy of it for the sandbox to mount.

Bots run as uid 65534 (``nobody``), which reads the bot folder through the "others" permission bits, and
the mount's source path shows in the bot's ``/proc/self/mountinfo``. So every bot gets a fresh copy in a
temporary folder of its own (``<TMPDIR>/uno-arena-bot-XXXX/bot``): readable by uid 65534 whatever the
original's modes, and at a path that says nothing about where the bot is kept on the host. Bot folders
are small (uploads are at most 1 MB), so the copy costs about a millisecond. The connection removes it;
what a killed worker left behind is swept by the next :func:`stage` of this machine (see :func:`sweep`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

PREFIX = "uno-arena-bot-"
#: Inside each staged folder: "<boot id> <pid namespace> <pid> <start time>" of the process that made it.
OWNER_FILE = "owner"
SWEEP_EVERY = 600.0
_last_sweep = -SWEEP_EVERY


@dataclass(frozen=True)
class Staged:
    """A staged bot: ``root`` is the private temporary folder (to remove), ``bot`` the copy inside it."""

    root: Path

    @property
    def bot(self) -> Path:
        """The world-readable copy of the bot's folder (the mount's source)."""
        return self.root / "bot"


def stage(bot_dir: Path, *, traversable: bool) -> Staged:
    """Copy ``bot_dir`` into a new private folder. ``traversable`` makes that folder ``0711`` (uid 65534
    opens the copy by its path, as under bwrap) instead of ``0700`` (root mounts it, as under docker)."""
    global _last_sweep
    if time.monotonic() - _last_sweep >= SWEEP_EVERY:
        _last_sweep = time.monotonic()
        sweep()
    root = Path(tempfile.mkdtemp(prefix=PREFIX))
    try:
        root.chmod(0o711 if traversable else 0o700)
        owner = os.open(root / OWNER_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        with os.fdopen(owner, "w") as f:
            f.write(owner_identity())
        dest = root / "bot"
        shutil.copytree(bot_dir, dest, symlinks=True)
        for folder, _dirs, files in os.walk(dest):
            os.chmod(folder, 0o755)  # noqa: S103 (world-readable is the point)
            for name in files:
                path = os.path.join(folder, name)
                if not os.path.islink(path):
                    os.chmod(path, os.stat(path).st_mode & 0o755 | stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return Staged(root)


def _boot_and_namespace() -> tuple[str, str]:
    boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    return boot, str(os.stat("/proc/self/ns/pid").st_ino)


def _start_time(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def owner_identity() -> str:
    """This process as an owner of sandbox resources: ``"<boot id> <pid namespace> <pid> <start time>"``
    (written into :data:`OWNER_FILE`; the docker runner's containers carry it as a label)."""
    boot, namespace = _boot_and_namespace()
    return f"{boot} {namespace} {os.getpid()} {_start_time(os.getpid())}"


def owner_is_gone(identity: str) -> bool:
    """Whether the owner recorded as ``identity`` has surely exited: it ran before the last boot, or in
    our pid namespace and its pid is gone or now another process's. Unknown or foreign: ``False``."""
    try:
        their_boot, their_namespace, pid, started = identity.split()
        boot, namespace = _boot_and_namespace()
        if their_boot != boot:
            return True
        return their_namespace == namespace and _start_time(int(pid)) != started
    except (OSError, ValueError):
        return False


def sweep(folder: Path | None = None) -> list[Path]:
    """Remove the staged folders in ``folder`` (the temporary folder) whose owner is gone: made before
    the last boot, or by a process of our pid namespace that has exited (its pid gone or reused). Folders
    of other pid namespaces (another container sharing the folder) and without an owner are left alone.
    Returns what was removed."""
    from sandbox.connection import remove_tree

    boot, namespace = _boot_and_namespace()
    removed = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder or tempfile.gettempdir()):
            if not entry.name.startswith(PREFIX) or not entry.is_dir(follow_symlinks=False):
                continue
            try:
                their_boot, their_namespace, pid, started = (
                    (Path(entry.path) / OWNER_FILE).read_text().split()
                )
            except (OSError, ValueError):
                continue
            if their_boot == boot and (their_namespace != namespace or _start_time(int(pid)) == started):
                continue  # not ours to judge, or its owner still runs
            remove_tree(Path(entry.path))
            removed.append(Path(entry.path))
    return removed
