"""Making a bot's folder readable to the unprivileged user that runs it.

Bots run as uid 65534 (``nobody``), which reads the bot folder through the "others" permission bits.
A folder that already allows that is mounted as it is; otherwise (a ``0700`` temporary folder, a home
folder) a world-readable copy is staged in a private temporary folder that the connection removes.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path


def readable_by_others(bot_dir: Path, *, ancestors: bool) -> bool:
    """Whether "others" may read every file and list every folder in ``bot_dir`` (and, if
    ``ancestors``, traverse every folder above it: needed when the path itself is opened by that user).
    """
    if ancestors:
        for parent in bot_dir.parents:
            if not os.stat(parent).st_mode & stat.S_IXOTH:
                return False
    for root, _dirs, files in os.walk(bot_dir):
        if os.stat(root).st_mode & (stat.S_IROTH | stat.S_IXOTH) != stat.S_IROTH | stat.S_IXOTH:
            return False
        for name in files:
            mode = os.lstat(os.path.join(root, name)).st_mode
            if stat.S_ISREG(mode) and not mode & stat.S_IROTH:
                return False
    return True


def stage(bot_dir: Path, *, ancestors: bool) -> tuple[Path, Path | None]:
    """``(folder to mount, temporary folder to remove afterwards or None)`` for ``bot_dir``."""
    if readable_by_others(bot_dir, ancestors=ancestors):
        return bot_dir, None
    temp = Path(tempfile.mkdtemp(prefix="uno-arena-bot-"))
    try:
        temp.chmod(0o755)
        dest = temp / "bot"
        shutil.copytree(bot_dir, dest, symlinks=True)
        for root, _dirs, files in os.walk(dest):
            os.chmod(root, 0o755)  # noqa: S103 (world-readable is the point)
            for name in files:
                path = os.path.join(root, name)
                if not os.path.islink(path):
                    os.chmod(path, os.stat(path).st_mode | stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    return dest, temp
