"""The bot runtimes: one root filesystem per language, the same files under every runner.

``sandbox/images/build.sh`` (run by ``scripts/setup-system`` and by the site's image build) makes each
language's runtime once, into a read-only folder named after its content hash,
``<runtimes>/<language>-<hash>/``, points ``<runtimes>/<language>-<version>`` at it (the version is the
one in ``sandbox/images/<language>/TAG``: ``python-2``), and imports that same folder as the docker image
``TAG`` names. The bwrap runner binds the folder read-only as the bot's ``/``; docker and gvisor run the
image, whose label ``org.uno-arena.content-hash`` is the folder's hash. So a bot finds the same
interpreter, the same libraries and the same files whichever runner starts it.

Each runtime carries its manifest, ``/usr/share/uno-arena/runtime.json``, written at build time by the
runtime's own interpreter: its version, the libraries it can import, the Debian packages it was made from.
The guide shows it; the tests check it against what a bot sees.

``<runtimes>`` is ``UNO_ARENA_RUNTIMES``, by default ``/opt/uno-arena/runtimes``: a folder of the
machine (every worker builds its own), outside ``/var/lib/uno-arena``, which docker-compose mounts from
the host over the worker image's.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sandbox.errors import SandboxUnavailable

RUNTIMES_ENV = "UNO_ARENA_RUNTIMES"
DEFAULT_RUNTIMES_DIR = Path("/opt/uno-arena/runtimes")
IMAGES_DIR = Path(__file__).resolve().parent / "images"
#: Where the manifest is inside a runtime's root filesystem.
MANIFEST_PATH = Path("usr/share/uno-arena/runtime.json")
#: The docker image label holding the runtime's content hash.
HASH_LABEL = "org.uno-arena.content-hash"


def runtimes_dir() -> Path:
    """The folder of this machine's runtimes (``UNO_ARENA_RUNTIMES``, else ``/opt/uno-arena/runtimes``)."""
    return Path(os.environ.get(RUNTIMES_ENV) or DEFAULT_RUNTIMES_DIR)


def languages() -> list[str]:
    """The languages a runtime is defined for (a folder with a ``TAG`` in ``sandbox/images/``)."""
    return sorted(p.parent.name for p in IMAGES_DIR.glob("*/TAG"))


def image_tag(language: str) -> str:
    """The docker image of ``language``'s runtime (``sandbox/images/<language>/TAG``)."""
    tag_file = IMAGES_DIR / language / "TAG"
    if not tag_file.is_file():
        raise SandboxUnavailable(f"no runtime is defined for language {language!r} ({tag_file})")
    return tag_file.read_text().strip()


def runtime_name(language: str) -> str:
    """The runtime this code runs ``language`` bots on: ``<language>-<TAG's version>`` (``python-2``)."""
    return f"{language}-{image_tag(language).rpartition(':')[2]}"


@dataclass(frozen=True)
class Runtime:
    """One built runtime: its root filesystem and its manifest."""

    language: str
    root: Path
    """The content-addressed folder (``<runtimes>/<language>-<hash>``): the bot's ``/`` under bwrap."""
    manifest: Mapping[str, Any]

    @property
    def name(self) -> str:
        """``<language>-<version>``, e.g. ``python-2``."""
        return str(self.manifest["name"])

    @property
    def hash(self) -> str:
        """The content hash of the root filesystem (also the docker image's label)."""
        return str(self.manifest["hash"])

    @property
    def image(self) -> str:
        """The docker image made from this folder."""
        return str(self.manifest["image"])

    @property
    def interpreter(self) -> Mapping[str, Any]:
        """``command``, ``implementation``, ``version``, ``build`` (e.g. ``sys.version``), ``abi``..."""
        return dict(self.manifest["interpreter"])

    @property
    def libraries(self) -> list[tuple[str, str]]:
        """``(name, version)`` of every library the interpreter can import beyond its own."""
        return [(lib["name"], lib["version"]) for lib in self.manifest["libraries"]]

    @property
    def summary(self) -> str:
        """For people: ``CPython 3.11.2 with numpy 1.24.2, pip 23.0.1``."""
        text = f"{self.interpreter['implementation']} {self.interpreter['version']}"
        libraries = ", ".join(f"{name} {version}" for name, version in self.libraries)
        return f"{text} with {libraries}" if libraries else text


@functools.lru_cache(maxsize=16)
def _read(language: str, root: Path) -> Runtime:
    """The runtime in ``root`` (a content-addressed folder never changes: cached by its path)."""
    try:
        manifest = json.loads((root / MANIFEST_PATH).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SandboxUnavailable(f"the runtime in {root} has no readable manifest ({exc})") from exc
    runtime = Runtime(language, root, manifest)
    if root.name != f"{language}-{runtime.hash}":
        raise SandboxUnavailable(f"the runtime in {root} says its hash is {runtime.hash}: rebuild it")
    return runtime


def find(language: str) -> Runtime:
    """This machine's runtime for ``language``, as this code expects it (:func:`runtime_name`).

    Raises :class:`~sandbox.errors.SandboxUnavailable`, saying how to build it, when it is missing.
    """
    name = runtime_name(language)
    link = runtimes_dir() / name
    try:
        root = link.resolve(strict=True)
    except OSError:
        raise SandboxUnavailable(
            f"the {name} runtime is not installed in {runtimes_dir()} "
            "(build it: sandbox/images/build.sh, or scripts/setup-system)"
        ) from None
    runtime = _read(language, root)
    if runtime.name != name:
        raise SandboxUnavailable(f"{link} is the {runtime.name} runtime, not {name}: rebuild it")
    return runtime


def main() -> int:
    """``python -m sandbox.runtimes``: this machine's runtimes (``--json``: their manifests)."""
    import sys

    as_json = "--json" in sys.argv[1:]
    missing = 0
    manifests = {}
    for language in languages():
        try:
            runtime = find(language)
        except SandboxUnavailable as exc:
            missing += 1
            print(f"{language}: {exc}", file=sys.stderr)
            continue
        manifests[language] = dict(runtime.manifest)
        if not as_json:
            command = runtime.interpreter["command"]
            print(
                f"{runtime.name}: {command} is {runtime.summary}\n    {runtime.root} = image {runtime.image}"
            )
    if as_json:
        print(json.dumps(manifests, indent=2))
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
