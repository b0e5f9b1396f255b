"""Unpacking stored versions into a worker's local cache, for the sandbox to run."""

from __future__ import annotations

import io
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

from django.conf import settings

from bots.models import BotVersion
from sandbox.bytecode import precompile


def version_dir(version: BotVersion) -> Path:
    """Unpack ``version`` (once per worker machine) and return its folder.

    The folder is named by the archive's SHA-256 and filled atomically (unpack to a temporary
    folder, compile its Python files to bytecode, then rename), so concurrent workers never see a
    half-written bot.
    """
    cache = Path(settings.UNO_ARENA_BOT_CACHE)
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / version.sha256
    if target.is_dir():
        return target
    archive = version.archive
    if archive is None or len(archive) == 0:  # loaded with .defer("archive")? fetch it now
        archive = BotVersion.objects.values_list("archive", flat=True).get(pk=version.pk)
    tmp = Path(tempfile.mkdtemp(prefix=".unpack-", dir=cache))
    try:
        with zipfile.ZipFile(io.BytesIO(bytes(archive))) as zf:
            for info in zf.infolist():  # validated at upload: relative paths, no links
                if info.is_dir():
                    continue
                path = tmp / info.filename
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(zf.read(info))
        precompile(tmp)  # its .pyc files: the sandbox's read-only copy cannot cache them (sandbox.bytecode)
        os.chmod(tmp, 0o755)  # noqa: S103  (the sandbox user must read the bot)
        try:
            tmp.rename(target)
        except OSError:
            if not target.is_dir():
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def source_files(version: BotVersion) -> dict[str, bytes]:
    """The files of a version, by path (for the owner's source view)."""
    archive = BotVersion.objects.values_list("archive", flat=True).get(pk=version.pk)
    with zipfile.ZipFile(io.BytesIO(bytes(archive))) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist() if not info.is_dir()}


def source_texts(version: BotVersion) -> dict[str, str]:
    """The files of a version as text, by path (the owner's source view): a file that is not UTF-8 (a
    compiled library, an image) is shown by its size only."""
    texts = {}
    for name, data in source_files(version).items():
        try:
            texts[name] = data.decode("utf-8")
        except UnicodeDecodeError:
            texts[name] = f"(a binary file of {len(data):,} bytes)"
    return texts


def source_zip(version: BotVersion, folder: str) -> bytes:
    """The files of a version as a zip with everything under ``folder/`` (the owner's download)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(source_files(version).items()):
            archive.writestr(zipfile.ZipInfo(f"{folder}/{name}", date_time=(2020, 1, 1, 0, 0, 0)), data)
    return buffer.getvalue()
