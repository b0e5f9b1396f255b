"""Staging a bot's folder: a private, world-readable copy of it for the sandbox to mount.

Bots run as uid 65534 (``nobody``), which reads the bot folder through the "others" permission bits, and
the mount's source path shows in the bot's ``/proc/self/mountinfo``. So every bot gets a fresh copy in a
temporary folder of its own (``<TMPDIR>/uno-arena-bot-XXXX/bot``): readable by uid 65534 whatever the
original's modes, and at a path that says nothing about where the bot is kept on the host. Bot folders
are small (uploads are at most 1 MB), so the copy costs about a millisecond. The connection removes it.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path


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
    root = Path(tempfile.mkdtemp(prefix="uno-arena-bot-"))
    try:
        root.chmod(0o711 if traversable else 0o700)
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
