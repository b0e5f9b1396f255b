"""Staging a bot's folder (sandbox.botdir): only the bot's own files are copied, whatever folder it is kept
in. Regression: a bot file kept right in the temporary folder made the copy copy itself ("File name too
long"), one kept in a home folder copied the whole home folder, a fifo beside it blocked the copy."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_support import ready_runner

from sandbox import BotFolderTooLarge, BotSpec, botdir, docker_pool
from sandbox.connection import remove_tree

ROOT = Path(__file__).resolve().parents[2]
ECHO_ONCE = "import sys\nprint(sorted(__import__('os').listdir('.')), flush=True)\nsys.stdin.readline()\n"


@pytest.fixture
def temp_folder(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temporary folder of this test's own (TMPDIR), open to everyone like /tmp (the bwrap runner's
    uid 65534 must reach the staged copy in it; pytest's tmp_path is private to us). The docker pool of
    this test process is emptied before and after: its refills would stage their folders in it."""
    docker_pool.close_pools()
    folder = Path(tempfile.mkdtemp(prefix="uno-arena-test-tmp-"))
    folder.chmod(0o1777)
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(botdir.tempfile, "tempdir", None)  # re-read TMPDIR
    yield folder
    docker_pool.close_pools()
    monkeypatch.undo()
    remove_tree(folder)


def crowd(folder: Path) -> None:
    """What a real /tmp or home folder holds beside a bot: another bot's staged copy, a fifo, a socket, a
    virtual environment, a repository, a symbolic link."""
    other = folder / "uno-arena-bot-other"
    (other / "bot").mkdir(parents=True)
    (other / "bot" / "their_bot.py").write_text("secret = 1\n")
    os.mkfifo(folder / "a.fifo")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(folder / "a.sock"))
    sock.close()
    (folder / ".venv" / "lib").mkdir(parents=True)
    (folder / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (folder / ".venv" / "lib" / "big.so").write_bytes(b"\0" * 1000)
    (folder / "project" / ".git").mkdir(parents=True)
    (folder / "project" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (folder / "project" / "notes.txt").write_text("notes\n")
    (folder / "link").symlink_to("/etc/passwd")


def test_a_bot_kept_right_in_the_temporary_folder_copies_only_the_bot(temp_folder: Path) -> None:
    (temp_folder / "bot.py").write_text("print('hi')\n")
    crowd(temp_folder)
    staged = botdir.stage(temp_folder, traversable=True)
    try:
        assert staged.root.parent == temp_folder
        copied = sorted(str(p.relative_to(staged.bot)) for p in staged.bot.rglob("*"))
        assert copied == ["bot.py", "link", "project", "project/notes.txt"]
        assert os.readlink(staged.bot / "link") == "/etc/passwd"  # a link stays a link
        assert (staged.bot / "bot.py").read_text() == "print('hi')\n"
    finally:
        remove_tree(staged.root)
    assert sorted(p.name for p in temp_folder.iterdir() if p.name.startswith("uno-arena-bot-")) == [
        "uno-arena-bot-other"
    ]


def test_a_folder_far_larger_than_a_bot_is_refused_before_copying(
    tmp_path: Path, temp_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "bot.py").write_text("print('hi')\n")
    with open(home / "video.mkv", "wb") as f:  # sparse: large, but costs no disk
        f.truncate(botdir.MAX_BYTES + 1)
    started = time.monotonic()
    with pytest.raises(BotFolderTooLarge, match="folder of its own"):
        botdir.stage(home, traversable=True)
    assert time.monotonic() - started < 5.0
    (home / "video.mkv").unlink()
    monkeypatch.setattr(botdir, "MAX_FILES", 50)
    for i in range(60):
        (home / f"photo{i}.jpg").write_bytes(b"x")
    with pytest.raises(BotFolderTooLarge):
        botdir.stage(home, traversable=False)
    assert list(temp_folder.iterdir()) == []  # nothing made, nothing left


def test_upload_limits_fit_in_the_staging_limits() -> None:
    sys.path.insert(0, str(ROOT / "platform"))
    from bots import validation

    assert validation.MAX_FILE_COUNT < botdir.MAX_FILES
    assert validation.MAX_TOTAL_UNCOMPRESSED < botdir.MAX_BYTES


@pytest.mark.parametrize("name", ["bwrap", pytest.param("docker", marks=pytest.mark.docker)])
def test_a_bot_in_the_temporary_folder_runs(name: str, temp_folder: Path) -> None:
    runner = ready_runner(name)
    (temp_folder / "bot.py").write_text(ECHO_ONCE)
    crowd(temp_folder)
    conn = runner.start(BotSpec(temp_folder, ("python3", "bot.py")))
    try:
        assert conn.readline(30.0) == b"['bot.py', 'link', 'project']"
    finally:
        conn.close()


@pytest.mark.bwrap
def test_uno_arena_match_of_a_bot_file_in_the_temporary_folder(temp_folder: Path) -> None:
    ready_runner("bwrap")
    for name in ("random_bot.py", "uno_bot.py"):
        (temp_folder / name).write_bytes((ROOT / "bots_examples" / name).read_bytes())
    crowd(temp_folder)
    done = subprocess.run(
        [
            *(sys.executable, "-m", "arena", "match", str(temp_folder / "random_bot.py"), "greedy"),
            *("--runner", "bwrap", "--games", "2", "--rules", "classic-single", "--quiet"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(temp_folder)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    # The standings: "<name>  <games>  <wins>%  [<interval>]  <mean place>  <faults>", one row per bot.
    rows = re.findall(r"^(random|greedy).*?\s(\d+)\s+[\d.]+%.*\s(\d+)$", done.stdout, re.M)
    assert sorted(rows) == [("greedy", "2", "0"), ("random", "2", "0")], done.stdout  # 2 games, no fault
    left = [p.name for p in temp_folder.iterdir() if p.name.startswith("uno-arena-bot-")]
    assert left == ["uno-arena-bot-other"]
