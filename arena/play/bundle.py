"""Packing a Python bot with what it imports from its folder, and the engine when it uses it.

An example bot imports helpers that sit next to it (``uno_bot.py``, ``strategist.py``...); the search bot
also imports the engine (``arena.engine``). The platform runs an upload alone in a sandbox, with nothing
but the upload on its path, so :func:`bundle_files` gathers, from the bot file:

* every module of the bot's folder it imports, and theirs, transitively;
* if any of them imports ``arena``: the engine's pure-Python files (``arena/__init__.py``,
  ``arena/errors.py`` and ``arena/engine/*.py``) from this installation, so the git repository keeps one
  copy of the engine and every bundle carries the engine the site runs, and its compiled build when the
  installation has a fresh one (:func:`engine_files`).

:func:`example_upload` is what ``manage.py load_example_bots`` uploads (tests use it to check that such a
zip runs alone in the sandboxes); :func:`runnable` is what ``python -m arena match`` / ``ask`` run for an
example bot, since their sandboxes too see only the bot's folder.
"""

from __future__ import annotations

import ast
import atexit
import io
import shutil
import tempfile
import zipfile
from pathlib import Path
from typing import Final

import arena
from arena.engine import _accel

ARENA_DIR: Final = Path(arena.__file__).resolve().parent
ENGINE_FILES: Final = ("__init__.py", "errors.py")
"""The files of ``arena/`` the engine needs beside ``arena/engine/``."""
_DATE: Final = (2020, 1, 1, 0, 0, 0)  # stable bytes, stable hash


def _imports(path: Path) -> set[str]:
    """The top-level module names a Python file imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
    return names


def engine_files() -> list[tuple[str, bytes]]:
    """(path in the bundle, contents) of the engine's pure-Python files and, when this installation has a
    fresh compiled build (``scripts/build-engine``), that build under ``build/mypyc/``: the bundled
    ``arena.engine`` uses it where the interpreter has the same binary interface (a sandbox runtime of the
    same Python minor version; ``arena.engine._accel``), and the pure-Python files elsewhere."""
    files = [(f"arena/{name}", (ARENA_DIR / name).read_bytes()) for name in ENGINE_FILES]
    for path in sorted((ARENA_DIR / "engine").glob("*.py")):
        files.append((f"arena/engine/{path.name}", path.read_bytes()))
    build = _accel.BUILD_DIR
    for path in _accel.build_files():
        files.append((f"build/mypyc/{path.relative_to(build).as_posix()}", path.read_bytes()))
    return files


def bundle_files(bot: Path) -> list[tuple[str, bytes]]:
    """(path in the bundle, contents) of the bot file, the sibling modules it needs and, when one of them
    imports ``arena``, the engine. The bot comes first."""
    bot = bot.resolve()
    folder = bot.parent
    seen: list[Path] = []
    wanted = [bot]
    needs_engine = False
    while wanted:
        path = wanted.pop(0)
        if path in seen:
            continue
        seen.append(path)
        for name in sorted(_imports(path)):
            sibling = folder / f"{name}.py"
            if name == "arena":
                needs_engine = True
            elif sibling.is_file() and sibling not in seen:
                wanted.append(sibling)
    files = [(path.name, path.read_bytes()) for path in seen]
    return files + engine_files() if needs_engine else files


def bundle_zip(bot: Path) -> bytes:
    """The bundle of :func:`bundle_files` as zip bytes (fixed dates: the same files give the same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in bundle_files(bot):
            info = zipfile.ZipInfo(name, date_time=_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()


def example_upload(bot: Path) -> tuple[str, bytes, str]:
    """(file name, data, entry point) to upload a bot: the single file when it needs nothing else, else
    a zip of its bundle with the bot as entry point."""
    files = bundle_files(bot)
    if len(files) == 1:
        return bot.name, files[0][1], ""
    return f"{bot.stem}.zip", bundle_zip(bot), bot.name


_staged: dict[Path, Path] = {}


def runnable(bot: Path) -> Path:
    """The file to run for ``bot`` in a sandbox that sees only its folder: ``bot`` itself, unless its
    bundle carries the engine (the search bots); then the bundle written once per process to a temporary
    folder (removed at exit) and the bot's copy there."""
    bot = bot.resolve()
    if bot in _staged:
        return _staged[bot]
    files = bundle_files(bot)
    if not any(name.startswith("arena/") for name, _ in files):
        return bot
    folder = Path(tempfile.mkdtemp(prefix="uno-arena-bundle-"))
    atexit.register(shutil.rmtree, folder, True)
    for name, data in files:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    _staged[bot] = folder / bot.name
    return _staged[bot]
