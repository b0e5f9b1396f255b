"""Staging a bot's folder: a private, world-readable copy of it for the sandbox to mount.

Bots run as uid 65534 (``nobody``), which reads the bot folder through the "others" permission bits, and
the mount's source path shows in the bot's ``/proc/self/mountinfo``. So every bot gets a fresh copy in a
temporary folder of its own (``<TMPDIR>/uno-arena-bot-XXXX/bot``): readable by uid 65534 whatever the
original's modes, and at a path that says nothing about where the bot is kept on the host. Only the
bot's own files are copied (:func:`bot_files`), so a bot file kept in ``/tmp`` or in a home folder does
not bring the rest of that folder along. Bot folders are small (uploads are at most 1 MB), so the copy
costs about a millisecond. The connection removes it;
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

from sandbox.errors import BotFolderTooLarge

PREFIX = "uno-arena-bot-"
MIB = 1024 * 1024
#: The most a bot folder may hold to be staged (files and folders; bytes): far above an upload (8 MiB
#: unpacked, 200 files), far below a home folder.
MAX_FILES = 4096
MAX_BYTES = 64 * MIB
#: Folders of a bot folder that are never copied (virtual environments are found by their pyvenv.cfg).
SKIPPED_FOLDERS = frozenset({".git", ".hg", ".svn"})
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
    opens the copy by its path, as under bwrap) instead of ``0700`` (root mounts it, as under docker).

    Only the bot's own files are copied (:func:`bot_files`): never a staging folder (a bot kept right in
    the temporary folder would otherwise copy its own copy), nor virtual environments, version control
    or special files; more than :data:`MAX_FILES` files or :data:`MAX_BYTES` bytes is
    :class:`~sandbox.errors.BotFolderTooLarge`, found before anything is copied.
    """
    global _last_sweep
    if time.monotonic() - _last_sweep >= SWEEP_EVERY:
        _last_sweep = time.monotonic()
        sweep()
    bot_dir = Path(bot_dir)
    listing = bot_files(bot_dir)
    staged = _make_root(traversable, make_bot=False)
    try:
        _copy(bot_dir, staged.bot, *listing)
    except BaseException:
        shutil.rmtree(staged.root, ignore_errors=True)
        raise
    return staged


def stage_empty(*, traversable: bool) -> Staged:
    """A new private folder as :func:`stage` makes it, with an empty ``bot/`` (``0755``) for :func:`fill`
    to copy a bot into later (the docker runner's pool mounts it before it knows the bot)."""
    return _make_root(traversable, make_bot=True)


def fill(staged: Staged, bot_dir: Path) -> None:
    """Copy ``bot_dir`` into the empty ``bot/`` of ``staged`` (:func:`stage_empty`), as :func:`stage` does."""
    bot_dir = Path(bot_dir)
    _copy(bot_dir, staged.bot, *bot_files(bot_dir))


def _make_root(traversable: bool, make_bot: bool) -> Staged:
    root = Path(tempfile.mkdtemp(prefix=PREFIX))
    try:
        root.chmod(0o711 if traversable else 0o700)
        owner = os.open(root / OWNER_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        with os.fdopen(owner, "w") as f:
            f.write(owner_identity())
        if make_bot:
            (root / "bot").mkdir(mode=0o755)
            (root / "bot").chmod(0o755)  # whatever the umask: uid 65534 reads it
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return Staged(root)


def _copy(bot_dir: Path, dest: Path, folders: list[Path], files: list[tuple[Path, str]]) -> None:
    for folder in folders:
        if folder == Path() and dest.is_dir():
            continue  # stage_empty made it
        (dest / folder).mkdir(mode=0o755)  # world-readable is the point
    for name, kind in files:
        target = dest / name
        if kind == "link":
            os.symlink(os.readlink(bot_dir / name), target)
        else:
            shutil.copyfile(bot_dir / name, target, follow_symlinks=False)
            mode = (bot_dir / name).stat().st_mode & 0o755 | stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
            target.chmod(mode)


def _skipped(entry: os.DirEntry[str]) -> bool:
    """Whether a folder of a bot is not the bot's: a staging folder (``uno-arena-bot-*``), a virtual
    environment (its interpreter is the host's, not the runtime's), version control."""
    if entry.name.startswith(PREFIX) or entry.name in SKIPPED_FOLDERS:
        return True
    return os.path.exists(os.path.join(entry.path, "pyvenv.cfg"))


def bot_files(bot_dir: Path) -> tuple[list[Path], list[tuple[Path, str]]]:
    """What :func:`stage` copies of ``bot_dir``: its sub-folders (parents first) and its files as
    ``(relative path, "file" | "link")``, without the folders :func:`_skipped` names and without sockets,
    fifos and devices (opening a fifo would block). Symbolic links are kept as links (inside the sandbox
    they point into the sandbox's own file system).

    Raises :class:`~sandbox.errors.BotFolderTooLarge` as soon as the count passes the limits, so a bot
    kept in a home folder fails at once instead of copying the home folder.
    """
    bot_dir = Path(bot_dir)
    folders: list[Path] = [Path()]
    files: list[tuple[Path, str]] = []
    size = 0
    todo = [Path()]
    while todo:
        relative = todo.pop()
        with os.scandir(bot_dir / relative) as entries:
            for entry in entries:
                if entry.is_symlink():
                    files.append((relative / entry.name, "link"))
                elif entry.is_dir(follow_symlinks=False):
                    if not _skipped(entry):
                        folders.append(relative / entry.name)
                        todo.append(relative / entry.name)
                elif entry.is_file(follow_symlinks=False):
                    files.append((relative / entry.name, "file"))
                    size += entry.stat(follow_symlinks=False).st_size
                else:
                    continue
                if len(files) + len(folders) > MAX_FILES or size > MAX_BYTES:
                    raise BotFolderTooLarge(
                        f"the bot folder {bot_dir} holds more than {MAX_FILES} files or {MAX_BYTES // MIB} MiB "
                        "(virtual environments and version control not counted): keep the bot in a "
                        "folder of its own"
                    )
    return folders, files


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
