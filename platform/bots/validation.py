"""Validation of uploaded bot sources: one source file or a zip with a declared entry point.

Everything is checked in memory before anything is stored: size, zip bombs (total uncompressed size,
compression ratio, file count), paths escaping the archive, links, the entry point, Python syntax.
"""

from __future__ import annotations

import hashlib
import io
import posixpath
import re
import stat
import zipfile
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from arena.play.match_cli import LANGUAGES

MAX_UPLOAD_BYTES = 1024 * 1024
MAX_TOTAL_UNCOMPRESSED = 8 * 1024 * 1024
MAX_FILE_COUNT = 200
MAX_RATIO = 100
#: Longest file name or entry point (``BotVersion.filename`` and ``entry_point`` hold 200 characters).
MAX_NAME_LENGTH = 200
#: language -> (entry point suffix, interpreter): the local match runner's table, read the other way.
_RUNTIMES = {language: (suffix, command) for suffix, (language, command) in LANGUAGES.items()}
SOURCE_SUFFIXES = {language: suffix for language, (suffix, _command) in _RUNTIMES.items()}
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


@dataclass(frozen=True)
class ValidatedSource:
    """The checked files of an upload, ready to be stored."""

    files: dict[str, bytes]
    entry_point: str
    archive: bytes
    sha256: str

    @property
    def size(self) -> int:
        """Total uncompressed size in bytes."""
        return sum(len(data) for data in self.files.values())


def validate_upload(
    filename: str, data: bytes, entry_point: str = "", language: str = "python"
) -> ValidatedSource:
    """Check an upload and return its files; raise ``ValidationError`` with a clear message otherwise."""
    if language not in SOURCE_SUFFIXES:
        raise ValidationError(f"Unsupported language {language!r}.")
    if not data:
        raise ValidationError("The uploaded file is empty.")
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValidationError(f"The upload is {len(data)} bytes; the limit is {MAX_UPLOAD_BYTES} bytes.")
    base = posixpath.basename(filename.replace("\\", "/"))
    if len(base) > MAX_NAME_LENGTH or len(entry_point) > MAX_NAME_LENGTH:
        raise ValidationError(f"File names and the entry point have at most {MAX_NAME_LENGTH} characters.")
    if base.lower().endswith(".zip") or data[:4] == b"PK\x03\x04":
        files = _read_zip(data)
        entry = entry_point.strip()
        if not entry:
            raise ValidationError("A zip upload needs an entry point (the file to run, e.g. bot.py).")
    else:
        if not _SAFE_NAME.match(base) or base.startswith("."):
            raise ValidationError(f"Unsafe file name {base!r}: use letters, digits, '.', '-' and '_'.")
        files = {base: data}
        entry = entry_point.strip() or base
        if entry != base:
            raise ValidationError(f"The entry point {entry!r} is not the uploaded file {base!r}.")
    if entry not in files:
        raise ValidationError(f"The entry point {entry!r} is not in the upload (files: {_list(files)}).")
    suffix = SOURCE_SUFFIXES[language]
    if not entry.endswith(suffix):
        raise ValidationError(f"The entry point {entry!r} must be a {suffix} file.")
    if language == "python":
        _check_python(files)
    archive = _normalised_zip(files)
    return ValidatedSource(files, entry, archive, hashlib.sha256(archive).hexdigest())


def interpreter(language: str) -> str:
    """The program that runs a bot of ``language`` (``python3``, ``node``)."""
    return _RUNTIMES[language][1]


def _list(files: dict[str, bytes]) -> str:
    names = sorted(files)
    return ", ".join(names[:10]) + (" ..." if len(names) > 10 else "")


def _safe_member_name(name: str) -> str:
    """Return a normalised relative path, or raise if it could escape the archive."""
    if "\\" in name or "\x00" in name:
        raise ValidationError(f"Unsafe path {name!r} in the archive (backslash or NUL).")
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        raise ValidationError(f"Absolute path {name!r} in the archive.")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise ValidationError(f"Path {name!r} escapes the archive ('..').")
    if not parts:
        raise ValidationError(f"Empty path {name!r} in the archive.")
    return "/".join(parts)


def _read_zip(data: bytes) -> dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as exc:
        raise ValidationError(f"The zip file is damaged or not a zip: {exc}") from exc
    with archive:
        members = archive.infolist()
        regular = [m for m in members if not m.is_dir()]
        if len(regular) > MAX_FILE_COUNT:
            raise ValidationError(f"The archive has {len(regular)} files; the limit is {MAX_FILE_COUNT}.")
        declared = sum(m.file_size for m in regular)
        if declared > MAX_TOTAL_UNCOMPRESSED:
            raise ValidationError(
                f"The archive unpacks to {declared} bytes; the limit is {MAX_TOTAL_UNCOMPRESSED} bytes."
            )
        compressed = max(1, sum(m.compress_size for m in regular))
        if declared > 64 * 1024 and declared / compressed > MAX_RATIO:
            raise ValidationError(
                f"The archive's compression ratio is {declared // compressed}:1; the limit is {MAX_RATIO}:1 "
                "(zip bomb protection)."
            )
        files: dict[str, bytes] = {}
        total = 0
        for member in members:
            name = _safe_member_name(member.filename)
            mode = member.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise ValidationError(
                    f"The archive contains a link ({member.filename!r}); links are not allowed."
                )
            if member.is_dir():
                continue
            if member.flag_bits & 0x1:
                raise ValidationError(f"{member.filename!r} is encrypted; upload an unencrypted zip.")
            if name in files:
                raise ValidationError(f"{name!r} appears twice in the archive.")
            try:
                with archive.open(member) as handle:
                    content = handle.read(member.file_size + 1)
            except (zipfile.BadZipFile, NotImplementedError, OSError, RuntimeError) as exc:
                raise ValidationError(f"Cannot read {member.filename!r} from the archive: {exc}") from exc
            if len(content) != member.file_size:
                raise ValidationError(f"{member.filename!r} does not match its declared size (damaged zip?).")
            total += len(content)
            if total > MAX_TOTAL_UNCOMPRESSED:
                raise ValidationError(f"The archive unpacks to more than {MAX_TOTAL_UNCOMPRESSED} bytes.")
            files[name] = content
    if not files:
        raise ValidationError("The archive contains no files.")
    names = set(files)
    for name in names:  # a file may not also be used as a folder ("a" and "a/b")
        if any(other.startswith(name + "/") for other in names):
            raise ValidationError(f"{name!r} is both a file and a folder in the archive.")
    return files


def _check_python(files: dict[str, bytes]) -> None:
    for name, content in sorted(files.items()):
        if not name.endswith(".py"):
            continue
        try:
            compile(content, name, "exec", dont_inherit=True)
        except SyntaxError as exc:
            where = f"{name}, line {exc.lineno}" if exc.lineno else name
            raise ValidationError(f"Python syntax error in {where}: {exc.msg}") from exc
        except ValueError as exc:  # e.g. NUL bytes in the source
            raise ValidationError(f"{name} is not valid Python source: {exc}") from exc


def _normalised_zip(files: dict[str, bytes]) -> bytes:
    """A deterministic zip of the files (sorted, fixed dates, regular file mode)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
    return buffer.getvalue()
