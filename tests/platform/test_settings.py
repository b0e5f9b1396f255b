"""Settings by environment; production refuses unsafe configurations."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    """Import ``config.settings`` in a fresh interpreter with the given environment."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("UNO_ARENA_", "SECRET_KEY", "DEBUG"))}
    clean.update(
        env, UNO_ARENA_VAR=str(REPO / "var" / "test-settings"), DJANGO_SETTINGS_MODULE="config.settings"
    )
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.UNO_ARENA_RUNNER, s.CELERY_BROKER_URL, s.DATABASES['default']['ENGINE'])"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO / "platform",
        env={**clean, "PYTHONPATH": f"{REPO}:{REPO / 'platform'}"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_development_defaults() -> None:
    result = load_settings(DATABASE_URL="")
    assert result.returncode == 0, result.stderr
    # Safe by default: DEBUG is off unless the one switch asks for it.
    assert result.stdout.split() == ["False", "auto", "filesystem://", "django.db.backends.sqlite3"]


def test_the_debug_switch() -> None:
    result = load_settings(DATABASE_URL="", UNO_ARENA_DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "True"
    assert load_settings(DATABASE_URL="", DEBUG="1").stdout.split()[0] == "False"  # not Django's old name


def test_production_refuses_debug() -> None:
    result = load_settings(UNO_ARENA_PRODUCTION="1", SECRET_KEY="x" * 50, UNO_ARENA_DEBUG="1")
    assert result.returncode != 0
    assert "UNO_ARENA_DEBUG" in result.stderr


def test_production_refuses_default_secret_key() -> None:
    result = load_settings(UNO_ARENA_PRODUCTION="1")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_refuses_process_runner() -> None:
    result = load_settings(UNO_ARENA_PRODUCTION="1", SECRET_KEY="x" * 50, UNO_ARENA_RUNNER="process")
    assert result.returncode != 0
    assert "UNO_ARENA_RUNNER=process" in result.stderr


def test_production_with_safe_settings_starts() -> None:
    result = load_settings(
        UNO_ARENA_PRODUCTION="1",
        SECRET_KEY="x" * 50,
        UNO_ARENA_RUNNER="docker",
        CELERY_BROKER_URL="redis://r:6379/0",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[:3] == ["False", "docker", "redis://r:6379/0"]


@pytest.mark.parametrize("module", ["config.wsgi", "config.celery_app"])
def test_entry_points_import_without_platform_package(module: str) -> None:
    code = f"import {module}, platform; assert not hasattr(platform, '__path__'); print(platform.system())"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO / "platform",
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "UNO_ARENA_VAR": str(REPO / "var" / "t"),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_platform_folder_is_not_a_package() -> None:
    assert not (REPO / "platform" / "__init__.py").exists()


def test_a_worker_child_removes_its_sandboxes_when_it_shuts_down(monkeypatch: pytest.MonkeyPatch) -> None:
    from celery.signals import worker_process_shutdown

    import config.celery_app  # noqa: F401  (connects the handler)
    from sandbox import docker_pool

    calls: list[int] = []
    monkeypatch.setattr(docker_pool, "close_pools", lambda: calls.append(1))
    worker_process_shutdown.send(sender="test", pid=os.getpid(), exitcode=0)
    assert calls == [1]
