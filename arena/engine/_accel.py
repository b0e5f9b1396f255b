"""Optional compiled engine: mypyc builds of the hot modules, used only when they match the sources.

The engine is plain Python and runs as it is. ``scripts/build-engine`` compiles the modules in
:data:`COMPILED` with mypyc (as mypy and black ship themselves) into ``build/mypyc/``, with a stamp of the
sources' hash. At import, :func:`enable` puts that build first on the package path only if the stamp
matches the current sources, so an edited source never runs stale compiled code. ``UNO_ARENA_PURE=1``
forces the pure-Python modules.
"""

from __future__ import annotations

import hashlib
import os
import sys
import sysconfig
from collections.abc import MutableSequence
from pathlib import Path
from typing import Final

COMPILED: Final = ("actions", "cards", "game", "policies")
"""The modules compiled by scripts/build-engine."""

PACKAGE_DIR: Final = Path(__file__).resolve().parent
BUILD_DIR: Final = PACKAGE_DIR.parents[1] / "build" / "mypyc"
STAMP: Final = BUILD_DIR / "SOURCES_SHA256"


def sources_digest() -> str:
    """SHA-256 over the compiled modules' sources and the binary interface they were built for (the
    extension suffix, e.g. ``.cpython-311-x86_64-linux-gnu.so``: CPython keeps that interface across the
    bug-fix releases of a minor version, so a build made with 3.11.7 serves a sandbox runtime's 3.11.2)."""
    digest = hashlib.sha256(str(sysconfig.get_config_var("EXT_SUFFIX")).encode())
    for name in COMPILED:
        digest.update((PACKAGE_DIR / f"{name}.py").read_bytes())
    return digest.hexdigest()


def fresh_build() -> bool:
    """Whether ``build/mypyc`` holds a build of the current sources for this interpreter."""
    try:
        return STAMP.read_text().strip() == sources_digest()
    except OSError:
        return False


def build_files() -> list[Path]:
    """The files of a fresh build (the shared support library, the modules, the stamp), or none."""
    if not fresh_build():
        return []
    return sorted(path for path in BUILD_DIR.rglob("*") if path.is_file())


def enable(package_path: MutableSequence[str]) -> bool:
    """Prefer the compiled modules if a fresh build exists; return whether they are used."""
    if os.environ.get("UNO_ARENA_PURE") or not fresh_build():
        return False
    if str(BUILD_DIR) not in sys.path:
        sys.path.append(str(BUILD_DIR))  # mypyc's shared support module is a top-level module
    package_path.insert(0, str(BUILD_DIR / "arena" / "engine"))
    return True
