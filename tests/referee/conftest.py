"""Fixtures for the referee tests: runners (skipped when missing, failed when missing on CI)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from referee_support import BOTS, EXAMPLES

from sandbox import Runner
from tests.sandbox.sandbox_support import ready_runner

_MARKS = {
    "bwrap": [pytest.mark.bwrap],
    "docker": [pytest.mark.docker],
    "gvisor": [pytest.mark.docker, pytest.mark.gvisor],
    "process": [],
}
CONFINING = ("bwrap", "docker", "gvisor")


@pytest.fixture
def process_runner() -> Runner:
    """The development runner."""
    return ready_runner("process")


@pytest.fixture(params=[pytest.param(n, marks=_MARKS[n], id=n) for n in CONFINING])
def confining_runner(request: pytest.FixtureRequest) -> Runner:
    """Each runner that confines bots (bwrap, docker, gvisor)."""
    return ready_runner(request.param)


@pytest.fixture(params=[pytest.param(n, marks=_MARKS[n], id=n) for n in ("process", *CONFINING)])
def any_runner(request: pytest.FixtureRequest) -> Runner:
    """Each runner in turn."""
    return ready_runner(request.param)


@pytest.fixture
def log() -> Iterator[list]:
    """Connections recorded by a test (closed again at the end, in case a test failed midway)."""
    recorded: list = []
    yield recorded
    for conn in recorded:
        conn.close()


@pytest.fixture
def series_dir(tmp_path: Path) -> Path:
    """A folder with the series test bot and the uno_bot helper."""
    folder = tmp_path / "series"
    folder.mkdir()
    shutil.copy(BOTS / "series_bot.py", folder)
    shutil.copy(EXAMPLES / "uno_bot.py", folder)
    return folder
