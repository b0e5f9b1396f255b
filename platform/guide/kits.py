"""The downloads of the guide: the ``uno-arena`` wheel and the Python and JavaScript starter kits.

The wheel is built from this repository by setuptools (pyproject.toml declares it): the same ``arena``,
``sandbox`` and ``bots_examples`` the site runs, so ``pip install`` of it gives the command this
repository's ``python -m arena`` is. It is built once per machine and kept in ``UNO_ARENA_KITS_DIR``
under a digest of its sources, at image build (``manage.py build_kits``) or on the first download, under a
file lock; a changed source gets a new digest and a new build. The build is reproducible (fixed file
times and modes, ``SOURCE_DATE_EPOCH``): two web servers that each build it serve the same bytes.

A kit is a zip made on request (milliseconds): the template bot with the protocol helper pasted in (one
file to upload), its unit tests, a README with this site's addresses, the upload script and the wheel.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Final

from django.conf import settings

#: What goes into the wheel, relative to the repository root (pyproject.toml says how).
WHEEL_SOURCES: Final = ("pyproject.toml", "README.md", "arena", "sandbox", "bots_examples")
#: 1980-01-01, the earliest time a zip can hold: every build writes the same bytes.
SOURCE_DATE_EPOCH: Final = "315532800"
ZIP_TIME: Final = (1980, 1, 1, 0, 0, 0)
KIT_TEMPLATES: Final = Path(__file__).resolve().parent / "kit"
BUILD_TIMEOUT: Final = 300


class KitError(RuntimeError):
    """The wheel could not be built (the message has setuptools' output)."""


@dataclass(frozen=True)
class Kit:
    """A starter kit: its language, download name, bot file, test file and the example files it is made of."""

    slug: str
    title: str
    filename: str
    bot_file: str
    test_file: str
    template: str
    helper: str
    import_line: str
    helper_start: str
    helper_end: str
    preamble: str


KITS: Final = {
    "python": Kit(
        "python",
        "Python",
        "uno-arena-python-kit.zip",
        "mybot.py",
        "test_mybot.py",
        "template_bot.py",
        "uno_bot.py",
        "from uno_bot import Bot, run",
        "# ---- uno_bot helper",
        "# ---- end of the uno_bot helper ----",
        "import json\nimport random\nimport sys\n\n",
    ),
    "javascript": Kit(
        "javascript",
        "JavaScript",
        "uno-arena-javascript-kit.zip",
        "mybot.js",
        "mybot.test.js",
        "template_bot.js",
        "uno_bot.js",
        'const { Bot, run } = require("./uno_bot.js");',
        "// ---- uno_bot helper",
        "// ---- end of the uno_bot helper ----",
        "",
    ),
}
"""The starter kits, by slug."""


def repo_dir() -> Path:
    """The repository the site runs from (the wheel's sources)."""
    return Path(settings.BASE_DIR).parent


def kits_dir() -> Path:
    """Where built wheels are kept on this machine."""
    return Path(settings.UNO_ARENA_KITS_DIR)


def _source_files(root: Path) -> list[Path]:
    """The files of :data:`WHEEL_SOURCES`, sorted, without caches and build leftovers."""
    files: list[Path] = []
    for name in WHEEL_SOURCES:
        path = root / name
        if path.is_file():
            files.append(path)
            continue
        for found in path.rglob("*"):
            parts = set(found.relative_to(root).parts)
            if (
                found.is_file()
                and not parts & {"__pycache__", "build"}
                and found.suffix not in (".pyc", ".so")
            ):
                files.append(found)
    return sorted(files)


def sources_digest(root: Path | None = None) -> str:
    """SHA-256 over the wheel's sources (paths and contents): a new value means a new wheel."""
    root = root or repo_dir()
    digest = hashlib.sha256()
    for path in _source_files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def wheel_name() -> str:
    """The wheel's file name (``uno_arena-<version>-py3-none-any.whl``, from pyproject.toml)."""
    import tomllib

    project = tomllib.loads((repo_dir() / "pyproject.toml").read_text())["project"]
    return f"{project['name'].replace('-', '_')}-{project['version']}-py3-none-any.whl"


def build_wheel(out_dir: Path, root: Path | None = None) -> Path:
    """Build the wheel from a clean copy of the sources into ``out_dir``; return its path.

    Runs setuptools' PEP 517 ``build_wheel`` hook in a subprocess (no network, no build isolation: the
    site's own setuptools) on a copy with normalised file modes, with ``SOURCE_DATE_EPOCH`` fixed.
    """
    root = root or repo_dir()
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="uno-arena-wheel-") as tmp:
        src = Path(tmp) / "src"
        for path in _source_files(root):
            target = src / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            target.chmod(0o755 if os.access(path, os.X_OK) and path.suffix == ".sh" else 0o644)
        dist = Path(tmp) / "dist"
        dist.mkdir()
        code = "import sys; from setuptools import build_meta; print(build_meta.build_wheel(sys.argv[1]))"
        env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, "PYTHONDONTWRITEBYTECODE": "1"}
        done = subprocess.run(
            [sys.executable, "-c", code, str(dist)],
            cwd=src,
            env=env,
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT,
            check=False,
        )
        if done.returncode != 0:
            raise KitError(f"building the wheel failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")
        built = dist / done.stdout.strip().splitlines()[-1]
        target = out_dir / built.name
        shutil.move(built, target)
    return target


def wheel_path() -> Path:
    """The wheel of the current sources, built now if this machine has none yet (one build at a time)."""
    folder = kits_dir() / sources_digest()[:16]
    path = folder / wheel_name()
    if path.is_file():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    with open(kits_dir() / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not path.is_file():
                built = build_wheel(folder / ".partial")
                built.rename(path)  # atomic: a reader sees the whole file or none
                shutil.rmtree(folder / ".partial", ignore_errors=True)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return path


def single_file_bot(kit: Kit, examples: Path | None = None) -> str:
    """The kit's bot: the example template with the helper's marked block pasted over its import."""
    examples = examples or Path(settings.UNO_ARENA_EXAMPLES_DIR)
    template = (examples / kit.template).read_text(encoding="utf-8")
    helper = (examples / kit.helper).read_text(encoding="utf-8")
    start = helper.index(kit.helper_start)
    end = helper.index(kit.helper_end) + len(kit.helper_end)
    block = helper[start:end]
    lines = template.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith(kit.import_line):
            lines[i] = kit.preamble + block + "\n"
            return "".join(lines)
    raise KitError(f"{kit.template} does not import the helper with {kit.import_line!r}")


def kit_zip(kit: Kit, site: str, guide: str) -> bytes:
    """The zip of ``kit`` for a site at ``site`` whose guide is at ``guide`` (both absolute addresses)."""
    wheel = wheel_path()
    folder = kit.filename.removesuffix(".zip")
    readme = Template((KIT_TEMPLATES / kit.slug / "README.md").read_text(encoding="utf-8"))
    files = {
        "README.md": readme.substitute(wheel=wheel.name, site=site, guide=guide).encode(),
        kit.bot_file: single_file_bot(kit).encode(),
        kit.test_file: (KIT_TEMPLATES / kit.slug / kit.test_file).read_bytes(),
        "upload_bot.py": (repo_dir() / "scripts" / "upload_bot.py").read_bytes(),
        wheel.name: wheel.read_bytes(),
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(f"{folder}/{name}", date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_STORED if name.endswith(".whl") else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    return buffer.getvalue()
