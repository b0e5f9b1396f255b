"""Fixtures for the sandbox tests: a ready runner per name, skipped (or failed on CI) when missing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sandbox_support import CONFINING_RUNNERS, RUNNERS, ready_runner

from sandbox import Runner
from sandbox.bwrap import BwrapRunner

_MARKS = {
    "bwrap": [pytest.mark.bwrap],
    "docker": [pytest.mark.docker],
    "gvisor": [pytest.mark.docker, pytest.mark.gvisor],
    "process": [],
}


@pytest.fixture(params=[pytest.param(n, marks=_MARKS[n], id=n) for n in RUNNERS])
def runner(request: pytest.FixtureRequest) -> Runner:
    """Each runner in turn (process, bwrap, docker, gvisor)."""
    return ready_runner(request.param)


@pytest.fixture(
    params=[
        *(pytest.param(n, marks=_MARKS[n], id=n) for n in CONFINING_RUNNERS),
        pytest.param("bwrap-rlimits", marks=_MARKS["bwrap"], id="bwrap-rlimits"),
    ]
)
def confining_runner(request: pytest.FixtureRequest) -> Runner:
    """Each runner that confines bots (bwrap, docker, gvisor), plus bwrap without cgroups (rlimits and the pid
    namespace only, as on a machine where cgroups are not writable): the hostile bots run under these."""
    if request.param == "bwrap-rlimits":
        ready_runner("bwrap")
        return BwrapRunner(use_cgroups=False)
    return ready_runner(request.param)


@pytest.fixture
def connections() -> Iterator[list]:
    """A list to put started connections in; all are closed after the test, whatever happens."""
    opened: list = []
    yield opened
    for conn in opened:
        conn.close()


@pytest.fixture
def docker_runner() -> Iterator[Runner]:
    """The docker runner, its process's container pools emptied and the remover flushed before and after."""
    from sandbox import docker_pool

    runner = ready_runner("docker")
    docker_pool.close_pools()
    yield runner
    docker_pool.close_pools()
