"""The guide's runtime page: the interpreter and library versions come from the runtimes' manifests (never
typed into a page), next to docs/runtime.md; the quick start names them and links the page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

from guide import docs
from sandbox import runtimes
from sandbox.errors import SandboxUnavailable
from tests.sandbox.sandbox_support import on_ci


def fake_runtime(folder: Path, language: str, version: str, libraries: list[tuple[str, str]]) -> None:
    """A runtime folder with only its manifest, as build.sh lays it out."""
    digest = (version.replace(".", "") + "0" * 32)[:32]
    root = folder / f"{language}-{digest}"
    (root / runtimes.MANIFEST_PATH).parent.mkdir(parents=True)
    manifest = {
        "name": runtimes.runtime_name(language),
        "language": language,
        "image": runtimes.image_tag(language),
        "hash": digest,
        "bytes": 96_000_000,
        "debian": "12.99",
        "packages": {f"{language}-pkg": f"{version}-1"},
        "interpreter": {
            "command": "python3" if language == "python" else "node",
            "implementation": "CPython" if language == "python" else "Node.js",
            "version": version,
            "build": f"{version} (main, the build line)",
            "executable": "/usr/bin/x",
            "abi": f"abi-{language}",
        },
        "libraries": [{"name": n, "version": v} for n, v in libraries],
    }
    (root / runtimes.MANIFEST_PATH).write_text(json.dumps(manifest))
    (folder / runtimes.runtime_name(language)).symlink_to(root.name)


@pytest.fixture
def fake_runtimes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(runtimes.RUNTIMES_ENV, str(tmp_path))
    fake_runtime(tmp_path, "python", "3.99.7", [("numpy", "9.8.7"), ("pip", "1.2.3")])
    fake_runtime(tmp_path, "node", "77.1.2", [])
    return tmp_path


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_runtime_page_shows_what_the_manifests_say(client: Client, fake_runtimes: Path) -> None:
    page = client.get("/guide/runtime/")
    assert page.status_code == 200
    html = page.content.decode()
    words = text(html)
    assert "CPython 3.99.7" in words
    assert "3.99.7 (main, the build line)" in words
    assert "numpy 9.8.7" in words
    assert "pip 1.2.3" in words
    assert "abi-python" in words
    assert "python-pkg 3.99.7-1" in words
    assert "Debian 12.99" in words
    assert "Node.js 77.1.2" in words
    assert "node FILE" in words
    assert "python3 FILE" in words
    assert "/bot" in words
    # The page carries docs/runtime.md (one source with the repository's docs).
    source = (docs.docs_dir() / "runtime.md").read_text()
    for heading in re.findall(r"^## (.+)$", source, re.M):
        assert f'id="{docs.slugify(heading)}"' in html, heading


def test_a_server_without_a_runtime_says_so(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(runtimes.RUNTIMES_ENV, str(tmp_path))
    page = client.get("/guide/runtime/")
    assert page.status_code == 200
    assert "no Python 3 runtime installed" in text(page.content.decode())
    assert "build.sh" in page.content.decode()


def test_the_quick_start_names_the_runtime_and_links_its_page(
    client: Client, fake_runtimes: Path, db: None
) -> None:
    html = client.get("/guide/").content.decode()
    words = text(html)
    assert "python3 is CPython 3.99.7 with numpy 9.8.7, pip 1.2.3" in words
    assert "node is Node.js 77.1.2" in words
    assert 'href="/guide/runtime/"' in html


def test_the_runtime_page_shows_this_machines_runtime(client: Client) -> None:
    try:
        runtime = runtimes.find("python")
    except SandboxUnavailable as exc:
        if on_ci():
            pytest.fail(str(exc), pytrace=False)
        pytest.skip(str(exc))
    words = text(client.get("/guide/runtime/").content.decode())
    assert f"{runtime.interpreter['implementation']} {runtime.interpreter['version']}" in words
    for name, version in runtime.libraries:
        assert f"{name} {version}" in words
    assert runtime.hash[:12] in words
