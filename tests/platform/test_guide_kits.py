"""The uno-arena wheel and the starter kits, as a newcomer gets them: built from this repository (twice:
the same bytes), installed into a fresh virtual environment in a temporary folder (``pip install
--no-deps --no-index``: no network), then the kit's own commands: a local match of the template against
an example bot by name, ``uno-arena replay`` of a game it wrote, and the kit's unit tests, for the Python
and the JavaScript kit."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path
from typing import Any

import pytest

from arena.play.examples import EXAMPLES
from guide import kits

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built once for the module."""
    return kits.build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def installed(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed; its ``bin`` folder."""
    env = tmp_path_factory.mktemp("venv") / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env)
    bin_dir = env / "bin"
    subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(built)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return bin_dir


def _run(bin_dir: Path, *argv: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)  # the installed wheel, not this repository
    return subprocess.run(
        list(argv), cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def _unpack(data: bytes, into: Path) -> Path:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(into)
        (top,) = {name.split("/")[0] for name in archive.namelist()}
    return into / top


def test_the_wheel_is_reproducible_and_holds_engine_referee_runners_and_examples(
    built: Path, tmp_path: Path
) -> None:
    again = kits.build_wheel(tmp_path)
    assert again.name == built.name == kits.wheel_name()
    assert hashlib.sha256(again.read_bytes()).digest() == hashlib.sha256(built.read_bytes()).digest()
    names = set(zipfile.ZipFile(built).namelist())
    for member in (
        "arena/engine/game.py",
        "arena/play/referee.py",
        "arena/play/match_cli.py",
        "arena/engine/replay_log.py",
        "sandbox/process.py",
        "sandbox/images/python/TAG",
        "bots_examples/random_bot.py",
        "bots_examples/uno_bot.js",
    ):
        assert member in names, member
    assert not any(n.startswith(("platform/", "tests/")) or "__pycache__" in n for n in names)
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "uno-arena = arena.cli:main" in zipfile.ZipFile(built).read(entry_points).decode()


def test_the_python_kit_plays_replays_and_tests_from_an_installed_wheel(
    installed: Path, tmp_path: Path, settings: Any
) -> None:
    settings.UNO_ARENA_KITS_DIR = tmp_path / "kits"
    folder = _unpack(
        kits.kit_zip(kits.KITS["python"], "http://arena.test", "http://arena.test/guide/"), tmp_path
    )
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["README.md", "mybot.py", "test_mybot.py", "upload_bot.py", kits.wheel_name()]
    )
    readme = (folder / "README.md").read_text()
    assert "http://arena.test/guide/" in readme
    assert f"pip install {kits.wheel_name()}" in readme
    assert "from uno_bot import" not in (folder / "mybot.py").read_text()  # one file: the helper is inside

    match = _run(
        installed,
        "uno-arena", "match", "mybot.py", "random", "greedy", "--rules", "classic-single", "--games", "4",
        "--runner", "process", "--replays", "out", "--quiet",
        cwd=folder,
    )  # fmt: skip
    assert match.returncode == 0, match.stderr
    # Each bot by the name it gave in ready, with its file: "template (mybot)".
    rows = {line.split()[0]: line.split() for line in match.stdout.splitlines() if line[:1].isalpha()}
    assert {"template", "random", "greedy"} <= set(rows), match.stdout
    assert rows["template"][1:3] == ["(mybot)", "4"]
    assert rows["template"][-1] == "0"
    assert "not a sandbox" in match.stderr
    replay = _run(installed, "uno-arena", "replay", "out/game-00001.json", cwd=folder)
    assert replay.returncode == 0, replay.stderr
    assert "mybot" in replay.stdout
    assert "hand 1" in replay.stdout.lower()

    tests = _run(installed, "python", "-m", "unittest", "-v", cwd=folder)
    assert tests.returncode == 0, tests.stderr
    assert "Ran 3 tests" in tests.stderr
    assert "OK" in tests.stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_javascript_kit_plays_and_tests_from_an_installed_wheel(
    installed: Path, tmp_path: Path, settings: Any
) -> None:
    settings.UNO_ARENA_KITS_DIR = tmp_path / "kits"
    kit = kits.KITS["javascript"]
    folder = _unpack(kits.kit_zip(kit, "http://arena.test", "http://arena.test/guide/"), tmp_path)
    bot = (folder / "mybot.js").read_text()
    assert 'require("./uno_bot.js")' not in bot
    assert "class TemplateBot extends Bot" in bot
    match = _run(
        installed,
        "uno-arena", "match", "mybot.js", "strategist", "--rules", "classic-single", "--games", "4",
        "--runner", "process", "--quiet",
        cwd=folder,
    )  # fmt: skip
    assert match.returncode == 0, match.stderr
    assert "Faults:" not in match.stdout, match.stdout
    assert any(line.startswith("template-js (mybot) ") for line in match.stdout.splitlines()), match.stdout
    tests = _run(installed, "node", "--test", cwd=folder)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "# pass 3" in tests.stdout
    assert "# fail 0" in tests.stdout


def test_a_name_that_is_neither_a_file_nor_an_example_is_a_clear_error(
    installed: Path, tmp_path: Path
) -> None:
    done = _run(installed, "uno-arena", "match", "nosuchbot", "random", cwd=tmp_path)
    assert done.returncode != 0
    names = ", ".join(EXAMPLES)
    assert f"nosuchbot is not a file, nor an example bot (examples: {names})" in done.stderr
    assert names.startswith("random, greedy, strategist, template, search-10ms")


def test_the_search_bot_plays_from_an_installed_wheel(installed: Path, tmp_path: Path) -> None:
    """The wheel's search levels find the engine of the wheel they came with (arena.play.bundle)."""
    match = _run(
        installed,
        "uno-arena", "match", "search-10ms", "greedy", "--rules", "classic-single", "--games", "2",
        "--runner", "process", "--quiet",
        cwd=tmp_path,
    )  # fmt: skip
    assert match.returncode == 0, match.stderr
    assert "Faults:" not in match.stdout, match.stdout
    assert "falling back" not in match.stdout + match.stderr


def test_the_repository_cli_is_the_wheel_cli() -> None:
    """One code path: ``python -m arena`` of this clone resolves example names the same way."""
    root = Path(kits.__file__).resolve().parents[2]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "arena",
            "match",
            "random",
            "greedy",
            "--games",
            "1",
            "--runner",
            "process",
            "--quiet",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "random_bot" in done.stdout
    assert "greedy_bot" in done.stdout
