"""docker-compose.yml is valid (``docker-compose config``, no image pulled) and wires the whole platform."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

from tests.platform.live_support import need

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"


def rendered_config() -> dict[str, Any]:
    """The file as ``docker-compose config`` resolves it (skip, or fail on CI, without docker-compose)."""
    binary = shutil.which("docker-compose")
    need(binary, "docker-compose is missing (apt-get install docker-compose; scripts/setup-system does it)")
    assert binary is not None
    done = subprocess.run(
        [binary, "-f", str(COMPOSE), "config"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    config: dict[str, Any] = yaml.safe_load(done.stdout)
    return config


def test_docker_compose_config_accepts_the_file_and_every_service_is_there() -> None:
    services = rendered_config()["services"]
    assert {"postgres", "redis", "web", "worker", "smoke-worker", "beat"} <= set(services)
    lane = services["smoke-worker"]
    assert "-Q smoke " in " ".join(lane["command"])  # the smoke queue alone: the dispatcher's smoke lane
    assert lane["volumes"] == services["worker"]["volumes"]  # it runs bots as the worker does
    assert lane["environment"] == services["worker"]["environment"]


def test_the_worker_reaches_postgres_redis_and_the_docker_engine() -> None:
    worker = rendered_config()["services"]["worker"]
    environment = worker["environment"]
    assert "postgres" in environment["DATABASE_URL"]
    assert environment["CELERY_BROKER_URL"].startswith("redis://")
    assert any("/var/run/docker.sock" in str(volume) for volume in worker["volumes"])
