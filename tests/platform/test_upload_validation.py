"""Upload validation: every bad input gives a clear error and stores nothing."""

from __future__ import annotations

import io
import stat
import sys
import zipfile
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from bots import validation
from bots.models import Bot, BotVersion
from tests.platform.factories import BOT_SOURCE

pytestmark = pytest.mark.django_db


def make_zip(files: dict[str, bytes], links: tuple[str, ...] = ()) -> bytes:
    """A zip of ``files``; names in ``links`` are stored as symlinks."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            mode = stat.S_IFLNK | 0o777 if name in links else stat.S_IFREG | 0o644
            info.external_attr = mode << 16
            zf.writestr(info, data)
    return buffer.getvalue()


BAD_UPLOADS: list[tuple[str, str, bytes, str, str]] = [
    ("empty", "bot.py", b"", "", "empty"),
    ("too big", "bot.py", b"#" * (validation.MAX_UPLOAD_BYTES + 1), "", "limit is"),
    ("syntax error", "bot.py", b"def broken(:\n", "", "syntax error in bot.py, line 1"),
    ("unsafe name", "my bot;rm.py", b"x = 1\n", "", "Unsafe file name"),
    ("wrong entry for a file", "bot.py", b"x = 1\n", "main.py", "is not the uploaded file"),
    ("not python", "bot.txt", b"hello", "", "must be a .py file"),
    ("zip without entry", "b.zip", make_zip({"bot.py": b"x = 1\n"}), "", "needs an entry point"),
    ("missing entry", "b.zip", make_zip({"bot.py": b"x = 1\n"}), "main.py", "'main.py' is not in the upload"),
    ("path escape", "b.zip", make_zip({"../../etc/x.py": b"x = 1\n"}), "x.py", "escapes the archive"),
    ("absolute path", "b.zip", make_zip({"/etc/x.py": b"x = 1\n"}), "x.py", "Absolute path"),
    ("symlink", "b.zip", make_zip({"bot.py": b"x=1\n", "l": b"/etc/passwd"}, ("l",)), "bot.py", "link"),
    (
        "zip bomb ratio",
        "b.zip",
        make_zip({"bot.py": b"x = 1\n", "pad.txt": b"\0" * 5_000_000}),
        "bot.py",
        "compression ratio",
    ),
    (
        "total size",
        "b.zip",
        make_zip({f"f{i}.txt": bytes(range(256)) * 4000 for i in range(9)}),
        "f0.txt",
        "unpacks to",
    ),
    (
        "file count",
        "b.zip",
        make_zip({f"f{i}.py": b"" for i in range(validation.MAX_FILE_COUNT + 1)}),
        "f0.py",
        "files; the limit",
    ),
    (
        "syntax error in module",
        "b.zip",
        make_zip({"bot.py": b"import m\n", "m.py": b"if\n"}),
        "bot.py",
        "m.py",
    ),
    ("damaged zip", "b.zip", b"PK\x03\x04garbage", "bot.py", "damaged"),
]


@pytest.mark.parametrize(
    ("label", "filename", "data", "entry", "message"), BAD_UPLOADS, ids=[b[0] for b in BAD_UPLOADS]
)
def test_bad_uploads_are_rejected_with_a_clear_message(
    label: str, filename: str, data: bytes, entry: str, message: str
) -> None:
    with pytest.raises(ValidationError) as info:
        validation.validate_upload(filename, data, entry)
    assert message in " ".join(info.value.messages)


@pytest.mark.parametrize(
    ("label", "filename", "data", "entry", "message"), BAD_UPLOADS, ids=[b[0] for b in BAD_UPLOADS]
)
def test_bad_api_uploads_store_nothing(
    api: dict[str, Any], bot: Bot, label: str, filename: str, data: bytes, entry: str, message: str
) -> None:
    before = BotVersion.objects.count()
    upload = SimpleUploadedFile(filename, data)
    response = api["owner"].post(
        f"/api/bots/{bot.pk}/versions/", {"file": upload, "entry_point": entry}, format="multipart"
    )
    assert response.status_code == 400, response.content
    assert BotVersion.objects.count() == before
    bot.refresh_from_db()
    assert bot.active_version is not None
    assert bot.active_version.number == 1


def test_bad_web_upload_shows_error_and_stores_nothing(clients: dict[str, Any], bot: Bot) -> None:
    before = BotVersion.objects.count()
    upload = SimpleUploadedFile("bot.py", b"def broken(:\n")
    response = clients["owner"].post(f"/bots/{bot.pk}/upload/", {"file": upload, "activate": "on"})
    assert response.status_code == 200
    assert b"Python syntax error in bot.py, line 1" in response.content
    assert BotVersion.objects.count() == before


def test_good_zip_upload(api: dict[str, Any], bot: Bot) -> None:
    data = make_zip({"mybot/main.py": BOT_SOURCE, "mybot/util.py": b"X = 1\n", "README": b"hi"})
    upload = SimpleUploadedFile("mybot.zip", data)
    response = api["owner"].post(
        f"/api/bots/{bot.pk}/versions/", {"file": upload, "entry_point": "mybot/main.py"}, format="multipart"
    )
    assert response.status_code == 201, response.content
    assert response.json()["number"] == 2
    assert response.json()["smoke_status"] == "pending"
    bot.refresh_from_db()
    assert bot.active_version is not None
    assert bot.active_version.number == 1
    version = bot.pending_version
    assert version is not None
    assert version.entry_point == "mybot/main.py"
    assert version.file_count == 3
    assert version.command == ("python3", "mybot/main.py")


def test_version_is_unpacked_for_the_sandbox(bot: Bot) -> None:
    from bots.storage import version_dir

    assert bot.active_version is not None
    folder = version_dir(bot.active_version)
    assert (folder / "bot.py").read_bytes() == BOT_SOURCE
    assert version_dir(bot.active_version) == folder  # cached
    # compiled once here, since the sandbox's copy is read-only (sandbox.bytecode)
    assert (folder / "__pycache__" / f"bot.{sys.implementation.cache_tag}.pyc").is_file()


def test_the_owners_source_view_names_binary_files_by_size(bot: Bot) -> None:
    from bots.services import create_version
    from bots.storage import source_texts

    library = bytes(range(256)) * 4  # not UTF-8
    data = make_zip({"bot.py": BOT_SOURCE, "build/lib.so": library, "notes.txt": "héllo".encode()})
    version = create_version(bot, "bot.zip", data, "bot.py")
    assert source_texts(version) == {
        "bot.py": BOT_SOURCE.decode(),
        "build/lib.so": "(a binary file of 1,024 bytes)",
        "notes.txt": "héllo",
    }


def test_normalised_archive_is_deterministic() -> None:
    one = validation.validate_upload("bot.py", BOT_SOURCE)
    two = validation.validate_upload("bot.py", BOT_SOURCE)
    assert one.sha256 == two.sha256
